/* ctype.h: character classes of the "C" locale (ASCII).  Each takes an int that is
 * EOF or an unsigned char value. */
#ifndef _HSX_CTYPE_H
#define _HSX_CTYPE_H
int isalnum(int c);
int isalpha(int c);
int isblank(int c);
int iscntrl(int c);
int isdigit(int c);
int isgraph(int c);
int islower(int c);
int isprint(int c);
int ispunct(int c);
int isspace(int c);
int isupper(int c);
int isxdigit(int c);
int tolower(int c);
int toupper(int c);
#endif
