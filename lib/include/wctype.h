/* wctype.h: wide character classes of the "C" locale (ASCII, as <ctype.h>). */
#ifndef _HSX_WCTYPE_H
#define _HSX_WCTYPE_H
#ifndef _HSX_WINT_T
#define _HSX_WINT_T
typedef __WINT_TYPE__ wint_t;
#endif
#define WEOF ((wint_t)-1)
int iswalnum(wint_t c);
int iswalpha(wint_t c);
int iswblank(wint_t c);
int iswcntrl(wint_t c);
int iswdigit(wint_t c);
int iswgraph(wint_t c);
int iswlower(wint_t c);
int iswprint(wint_t c);
int iswpunct(wint_t c);
int iswspace(wint_t c);
int iswupper(wint_t c);
int iswxdigit(wint_t c);
wint_t towlower(wint_t c);
wint_t towupper(wint_t c);
#endif
