/* strerror for every error number errno.h defines (glibc's texts), unknown numbers,
 * and perror's form. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const int codes[] = {
    0, EPERM, ENOENT, ESRCH, EINTR, EIO, ENXIO, E2BIG, ENOEXEC, EBADF, ECHILD, EAGAIN, ENOMEM,
    EACCES, EFAULT, EBUSY, EEXIST, EXDEV, ENODEV, ENOTDIR, EISDIR, EINVAL, ENFILE, EMFILE,
    ENOTTY, ETXTBSY, EFBIG, ENOSPC, ESPIPE, EROFS, EMLINK, EPIPE, EDOM, ERANGE, EDEADLK,
    ENAMETOOLONG, ENOLCK, ENOSYS, ENOTEMPTY, ELOOP, ENOMSG, EIDRM, ENOSTR, ENODATA, ETIME,
    ENOSR, ENOLINK, EPROTO, EBADMSG, EOVERFLOW, EILSEQ, ENOTSOCK, EDESTADDRREQ, EMSGSIZE,
    EPROTOTYPE, ENOPROTOOPT, EPROTONOSUPPORT, EOPNOTSUPP, EAFNOSUPPORT, EADDRINUSE,
    EADDRNOTAVAIL, ENETDOWN, ENETUNREACH, ENETRESET, ECONNABORTED, ECONNRESET, ENOBUFS,
    EISCONN, ENOTCONN, ETIMEDOUT, ECONNREFUSED, EHOSTUNREACH, EALREADY, EINPROGRESS, ESTALE,
    EDQUOT, ECANCELED, EOWNERDEAD, ENOTRECOVERABLE, EWOULDBLOCK, ENOTSUP, 1000, -3,
};

int main(void) {
    for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++)
        printf("%d: %s\n", codes[i], strerror(codes[i]));
    errno = ENOENT;
    fflush(stdout);
    perror("open");
    return 0;
}
