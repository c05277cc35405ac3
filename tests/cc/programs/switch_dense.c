#include <stdio.h>
static const char *name(int d) {
    switch (d) {
    case 0: return "zero"; case 1: return "one"; case 2: return "two";
    case 3: return "three"; case 4: return "four"; case 5: return "five";
    case 6: return "six"; case 7: return "seven"; case 8: return "eight";
    case 9: return "nine"; default: return "many";
    }
}
static int fall(int x) {
    int r = 0;
    switch (x) {
    case 1: r += 1;
    case 2: r += 2;
    case 3: r += 3; break;
    case 4: r = 40;
    default: r += 100;
    }
    return r;
}
int main(void) {
    for (int i = -2; i < 13; i++) printf("%s %d\n", name(i), fall(i));
    return fall(2);
}
