/* signal() and raise(): a table of handlers, called synchronously by raise(). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>

static __hsx_sighandler_t handlers[NSIG];

__hsx_sighandler_t signal(int sig, __hsx_sighandler_t handler) {
    if (sig <= 0 || sig >= NSIG || handler == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    __hsx_sighandler_t old = handlers[sig];
    handlers[sig] = handler;
    return old;
}

int raise(int sig) {
    if (sig <= 0 || sig >= NSIG) {
        errno = EINVAL;
        return -1;
    }
    __hsx_sighandler_t h = handlers[sig];
    if (h == SIG_IGN)
        return 0;
    if (h == SIG_DFL) {
        if (sig == SIGABRT)
            abort();
        exit(128 + sig);
    }
    h(sig);
    return 0;
}
