#include <stdio.h>
#define N 6
static void matmul(int a[N][N], int b[N][N], int c[N][N]) {
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) {
        int s = 0; for (int k = 0; k < N; k++) s += a[i][k] * b[k][j]; c[i][j] = s;
    }
}
static double det3(double m[3][3]) {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}
int main(void) {
    int a[N][N], b[N][N], c[N][N];
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { a[i][j] = i + j; b[i][j] = i == j ? 2 : (i - j); }
    matmul(a, b, c);
    int trace = 0;
    for (int i = 0; i < N; i++) { trace += c[i][i]; for (int j = 0; j < N; j++) printf("%4d", c[i][j]); printf("\n"); }
    double m[3][3] = {{2, -1, 0}, {1, 3, 2}, {0.5, 4, -2}};
    printf("trace=%d det=%.3f\n", trace, det3(m));
    return trace & 0xFF;
}
