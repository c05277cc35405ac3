/* Variable-length arrays (1-D, 2-D, as parameters, sizeof at run time, in loops that
 * re-create them) and alloca. */
#include <stdio.h>
#include <alloca.h>
#include <string.h>

static int trace(int n, int m[n][n]) {
    int t = 0;
    for (int i = 0; i < n; i++)
        t += m[i][i];
    return t;
}

static long fill_and_sum(int rows, int cols) {
    int grid[rows][cols];
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            grid[r][c] = r * cols + c;
    long t = 0;
    for (int r = 0; r < rows; r++)
        t += grid[r][cols - 1];
    return t + (long)sizeof grid;
}

static int with_alloca(int n) {
    int *p = alloca(n * sizeof *p);
    for (int i = 0; i < n; i++)
        p[i] = i * i;
    char *s = alloca(n + 1);
    memset(s, 'a', n);
    s[n] = 0;
    return p[n - 1] + (int)strlen(s);
}

int main(void) {
    for (int n = 1; n <= 4; n++) {
        int m[n][n];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                m[i][j] = i + j;
        printf("n=%d sizeof=%d trace=%d\n", n, (int)sizeof m, trace(n, m));
    }
    printf("%ld %ld\n", fill_and_sum(3, 5), fill_and_sum(7, 2));
    int total = 0;
    for (int i = 1; i < 50; i++) {
        char buf[i];                    /* created and freed each time round */
        memset(buf, 1, sizeof buf);
        total += buf[i - 1] + (int)sizeof buf;
    }
    printf("%d\n", total);
    printf("%d %d\n", with_alloca(10), with_alloca(100));
    return 0;
}
