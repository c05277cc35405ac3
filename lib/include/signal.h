/* signal.h: signals exist only as raise() calls inside the task (the executive sends
 * none).  A handler installed by signal() stays installed (BSD semantics, as glibc's);
 * SIG_DFL ends the task with status 128 + the signal number, SIG_IGN ignores it. */
#ifndef _HSX_SIGNAL_H
#define _HSX_SIGNAL_H

typedef int sig_atomic_t;
typedef void (*__hsx_sighandler_t)(int);

#define SIG_DFL ((__hsx_sighandler_t)0)
#define SIG_IGN ((__hsx_sighandler_t)1)
#define SIG_ERR ((__hsx_sighandler_t)-1)

#define SIGINT 2
#define SIGILL 4
#define SIGABRT 6
#define SIGFPE 8
#define SIGSEGV 11
#define SIGTERM 15
#define NSIG 32

__hsx_sighandler_t signal(int sig, __hsx_sighandler_t handler);
int raise(int sig);
#endif
