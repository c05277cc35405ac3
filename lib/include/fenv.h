/* fenv.h: the VM rounds to nearest and keeps no floating-point exception flags, so
 * FE_TONEAREST is the only rounding mode and no FE_<exception> macro is defined
 * (FE_ALL_EXCEPT is 0, as C11 7.6 prescribes for an implementation without them):
 * programs test `#ifdef FE_INVALID` before relying on the flags. */
#ifndef _HSX_FENV_H
#define _HSX_FENV_H

typedef struct { unsigned __mode; } fenv_t;
typedef unsigned fexcept_t;

#define FE_ALL_EXCEPT 0
#define FE_TONEAREST 0
#define FE_DFL_ENV ((const fenv_t *)0)

int feclearexcept(int excepts);
int fegetexceptflag(fexcept_t *flags, int excepts);
int feraiseexcept(int excepts);
int fesetexceptflag(const fexcept_t *flags, int excepts);
int fetestexcept(int excepts);
int fegetround(void);
int fesetround(int mode);
int fegetenv(fenv_t *env);
int feholdexcept(fenv_t *env);
int fesetenv(const fenv_t *env);
int feupdateenv(const fenv_t *env);
#endif
