/* stdnoreturn.h */
#ifndef _HSX_STDNORETURN_H
#define _HSX_STDNORETURN_H
#define noreturn _Noreturn
#endif
