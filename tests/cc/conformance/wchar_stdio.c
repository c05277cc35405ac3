/* wchar.h beyond the basics and uchar.h: swprintf/swscanf, wide streams (a file written
 * and read with the wide functions only, as C requires of a stream's orientation),
 * the wcsto* conversions, wcstok and friends, %ls %lc %S %C in printf and scanf, and
 * the char16_t/char32_t conversions of the "C" locale. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uchar.h>
#include <wchar.h>

int main(void) {
    wchar_t buf[64];
    int n = swprintf(buf, 64, L"%d-%ls-%s-%5.2f|%c|%lc|%x", 42, L"wide", "narrow", 3.14159,
                     'x', (wint_t)L'y', 255u);
    printf("%d %ls\n", n, buf);
    printf("%d\n", swprintf(buf, 5, L"%s", "toolong"));
    printf("%d [%ls]\n", swprintf(buf, 8, L"%s", "exactly"), buf);
    printf("%S|%C|%-6S|%.2S\n", L"caps", (wint_t)L'c', L"ab", L"cdef");

    int a;
    wchar_t ws[16];
    char cs[16];
    float f;
    int k = swscanf(L"12 word more 2.5", L"%d %ls %s %f", &a, ws, cs, &f);
    printf("%d %d %ls %s %g\n", k, a, ws, cs, f);
    k = sscanf("abc def", "%ls %S", ws, buf);
    printf("%d %ls %ls\n", k, ws, buf);
    k = sscanf("xy", "%2lc", ws);
    printf("%d %d %d\n", k, (int)ws[0], (int)ws[1]);
    k = sscanf("hello world", "%l[a-z]", ws);
    printf("%d %ls\n", k, ws);
    printf("%d\n", swscanf(L"", L"%d", &a));

    wchar_t *end;
    unsigned long ul = wcstoul(L"4000000000", NULL, 10);
    long long ll = wcstoll(L"-123456789012", NULL, 0);
    unsigned long long ull = wcstoull(L"0xffffffffffffffff", NULL, 16);
    double d = wcstod(L" 1.5e3xyz", &end);
    printf("%lu %lld %llu %g [%ls]\n", ul, ll, ull, d, end);
    printf("%g %g\n", (double)wcstof(L"0.1", NULL), (double)wcstold(L"-2.5e-3", NULL));
    errno = 0;
    long big = wcstol(L"99999999999999999999", &end, 10);
    printf("%d %d %d\n", big > 0, errno == ERANGE, *end == 0);

    wchar_t tk[] = L"a b,,c";
    wchar_t *state;
    for (wchar_t *t = wcstok(tk, L" ,", &state); t; t = wcstok(NULL, L" ,", &state))
        printf("<%ls>", t);
    printf("\n");
    printf("%ls %zu %d %d\n", wcspbrk(L"hello", L"lo"), wcsnlen(L"abcdef", 3),
           wcscoll(L"a", L"b") < 0, wcspbrk(L"abc", L"xyz") == NULL);
    wchar_t *dup = wcsdup(L"dup");
    wchar_t xf[8];
    size_t xl = wcsxfrm(xf, L"abc", 8);
    printf("%ls %zu %ls\n", dup, xl, xf);
    free(dup);

    FILE *fp = fopen("wide.txt", "w+");
    fputws(L"line one\nline two\n", fp);
    fputwc(L'!', fp);
    fwprintf(fp, L"\n%d %ls %.3f\n", 7, L"seven", 7.0);
    rewind(fp);
    wchar_t line[32];
    while (fgetws(line, 32, fp))
        printf("[%ls]", line);
    printf("\n");
    rewind(fp);
    wint_t c = fgetwc(fp);
    ungetwc(c, fp);
    wint_t c1 = fgetwc(fp);
    wint_t c2 = getwc(fp);
    printf("%lc%lc\n", c1, c2);
    wchar_t word[16];
    fseek(fp, 0, SEEK_SET);
    k = fwscanf(fp, L"%ls %ls", word, line);
    printf("%d %ls %ls\n", k, word, line);
    fclose(fp);

    mbstate_t ms;
    memset(&ms, 0, sizeof ms);
    char32_t c32;
    char16_t c16;
    size_t r = mbrtoc32(&c32, "A", 1, &ms);
    printf("%zu %u ", r, (unsigned)c32);
    r = mbrtoc16(&c16, "b", 1, &ms);
    printf("%zu %u ", r, (unsigned)c16);
    char out[8];
    r = c32rtomb(out, U'Q', &ms);
    printf("%zu %c ", r, out[0]);
    r = c16rtomb(out, u'R', &ms);
    printf("%zu %c ", r, out[0]);
    r = mbrtoc32(&c32, "", 1, &ms);
    printf("%zu %u\n", r, (unsigned)c32);
    errno = 0;
    r = c32rtomb(out, 0x263A, &ms);
    printf("%d %d\n", (int)r, errno == EILSEQ);
    return 0;
}
