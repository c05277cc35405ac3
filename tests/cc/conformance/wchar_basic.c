/* wchar.h and wctype.h basics in the "C" locale (ASCII). */
#include <stdio.h>
#include <wchar.h>
#include <wctype.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    wchar_t buf[32];
    wcscpy(buf, L"wide");
    wcscat(buf, L" chars");
    printf("%u %ls\n", (unsigned)wcslen(buf), buf);
    printf("%d %d %d\n", wcscmp(L"abc", L"abd") < 0, wcsncmp(L"abcx", L"abcy", 3),
           wcscmp(L"b", L"a") > 0);
    printf("%d %d\n", (int)(wcschr(buf, L'c') - buf), (int)(wcsrchr(buf, L'e') - buf));
    printf("%d %u %u\n", (int)(wcsstr(buf, L"cha") - buf), (unsigned)wcsspn(buf, L"wide"),
           (unsigned)wcscspn(buf, L" "));
    wchar_t m[8];
    wmemset(m, L'x', 7);
    m[7] = 0;
    wmemcpy(m + 1, L"ab", 2);
    wmemmove(m + 2, m, 3);
    printf("%ls %d\n", m, wmemcmp(m, L"xaxab", 5));
    char mb[16];
    size_t n = wcstombs(mb, L"to bytes", sizeof mb);
    printf("%u %s\n", (unsigned)n, mb);
    wchar_t back[16];
    n = mbstowcs(back, "and back", 16);
    printf("%u %ls\n", (unsigned)n, back);
    wchar_t wc;
    int len = mbtowc(&wc, "Q", 1);
    printf("%d %d %d\n", len, (int)wc, wctomb(mb, L'R'));
    mbstate_t st;
    memset(&st, 0, sizeof st);
    printf("%d %d %d\n", mbsinit(&st), (int)mbrtowc(&wc, "", 1, &st), (int)btowc('A'));
    printf("%d %d %d %d %d\n", iswalpha(L'a') != 0, iswdigit(L'5') != 0, iswspace(L'\t') != 0,
           (int)towupper(L'q'), (int)towlower(L'Q'));
    printf("%ld %lc|%5lc|%-3ls|\n", wcstol(L"  -42rest", NULL, 10), (wint_t)L'W', (wint_t)L'v',
           L"w");
    return 0;
}
