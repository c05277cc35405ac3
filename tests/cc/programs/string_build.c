#include <stdio.h>
#include <string.h>
static void reverse(char *s) { int n = (int)strlen(s); for (int i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; } }
static int is_pal(const char *s) { int n = (int)strlen(s); for (int i = 0; i < n / 2; i++) if (s[i] != s[n - 1 - i]) return 0; return 1; }
static void itoa10(int v, char *out) { char tmp[16]; int n = 0, neg = v < 0; unsigned u = neg ? 0u - (unsigned)v : (unsigned)v; do { tmp[n++] = '0' + u % 10; u /= 10; } while (u); int k = 0; if (neg) out[k++] = '-'; while (n) out[k++] = tmp[--n]; out[k] = 0; }
int main(void) {
    char buf[64] = "stressed";
    reverse(buf);
    printf("%s %d %d\n", buf, is_pal("racecar"), is_pal(buf));
    char num[16];
    int vals[] = {0, 7, -12, 123456, -2147483647 - 1};
    for (int i = 0; i < 5; i++) { itoa10(vals[i], num); printf("[%s]", num); }
    printf("\n");
    char line[80]; line[0] = 0;
    for (int i = 0; i < 5; i++) { char w[8]; sprintf(w, "%d,", i * i); strcat(line, w); }
    puts(line);
    return (int)strlen(line);
}
