/* The "C" locale, the only one. */
#include <limits.h>
#include <locale.h>
#include <string.h>

char *setlocale(int category, const char *locale) {
    if (category < LC_CTYPE || category > LC_ALL)
        return NULL;
    if (!locale || !*locale || !strcmp(locale, "C") || !strcmp(locale, "POSIX"))
        return "C";
    return NULL;
}

struct lconv *localeconv(void) {
    static struct lconv c = {
        ".", "", "", "", "", "", "", "", "", "",
        CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
        CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
    };
    return &c;
}
