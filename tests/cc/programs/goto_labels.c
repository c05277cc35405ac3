#include <stdio.h>
int main(void) {
    int i = 0, acc = 0;
again:
    acc += i * i;
    if (++i < 10) goto again;
    if (acc > 100) goto big;
    printf("small\n");
    return 1;
big:
    printf("big %d\n", acc);
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            if (a * b == 6) { printf("found %d %d\n", a, b); goto done; }
done:
    return 0;
}
