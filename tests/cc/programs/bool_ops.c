#include <stdio.h>
#include <stdbool.h>
static bool is_even(int x) { return (x & 1) == 0; }
static bool both(bool a, bool b) { return a && b; }
int main(void) {
    int count = 0;
    for (int i = 0; i < 20; i++) {
        bool e = is_even(i);
        bool t = i % 3 == 0;
        if (both(e, t)) count += 10;
        if (e != t) count++;
        if (!e || t) count += 2;
    }
    bool x = 5, y = 0;
    printf("%d %d %d %d %d\n", count, x, y, x ^ y, x + x);
    return count;
}
