/* errno and strerror (glibc's messages for the numbers in <errno.h>). */
#include <errno.h>
#include <string.h>

#undef errno
int errno;

static const struct { unsigned char code; const char *text; } messages[] = {
    { 0, "Success" },
    { EPERM, "Operation not permitted" },
    { ENOENT, "No such file or directory" },
    { ESRCH, "No such process" },
    { EINTR, "Interrupted system call" },
    { EIO, "Input/output error" },
    { ENXIO, "No such device or address" },
    { E2BIG, "Argument list too long" },
    { ENOEXEC, "Exec format error" },
    { EBADF, "Bad file descriptor" },
    { ECHILD, "No child processes" },
    { EAGAIN, "Resource temporarily unavailable" },
    { ENOMEM, "Cannot allocate memory" },
    { EACCES, "Permission denied" },
    { EFAULT, "Bad address" },
    { EBUSY, "Device or resource busy" },
    { EEXIST, "File exists" },
    { EXDEV, "Invalid cross-device link" },
    { ENODEV, "No such device" },
    { ENOTDIR, "Not a directory" },
    { EISDIR, "Is a directory" },
    { EINVAL, "Invalid argument" },
    { ENFILE, "Too many open files in system" },
    { EMFILE, "Too many open files" },
    { ENOTTY, "Inappropriate ioctl for device" },
    { ETXTBSY, "Text file busy" },
    { EFBIG, "File too large" },
    { ENOSPC, "No space left on device" },
    { ESPIPE, "Illegal seek" },
    { EROFS, "Read-only file system" },
    { EMLINK, "Too many links" },
    { EPIPE, "Broken pipe" },
    { EDOM, "Numerical argument out of domain" },
    { ERANGE, "Numerical result out of range" },
    { EDEADLK, "Resource deadlock avoided" },
    { ENAMETOOLONG, "File name too long" },
    { ENOLCK, "No locks available" },
    { ENOSYS, "Function not implemented" },
    { ENOTEMPTY, "Directory not empty" },
    { ELOOP, "Too many levels of symbolic links" },
    { ENOMSG, "No message of desired type" },
    { EIDRM, "Identifier removed" },
    { ENOSTR, "Device not a stream" },
    { ENODATA, "No data available" },
    { ETIME, "Timer expired" },
    { ENOSR, "Out of streams resources" },
    { ENOLINK, "Link has been severed" },
    { EPROTO, "Protocol error" },
    { EBADMSG, "Bad message" },
    { EOVERFLOW, "Value too large for defined data type" },
    { EILSEQ, "Invalid or incomplete multibyte or wide character" },
    { ENOTSOCK, "Socket operation on non-socket" },
    { EDESTADDRREQ, "Destination address required" },
    { EMSGSIZE, "Message too long" },
    { EPROTOTYPE, "Protocol wrong type for socket" },
    { ENOPROTOOPT, "Protocol not available" },
    { EPROTONOSUPPORT, "Protocol not supported" },
    { EOPNOTSUPP, "Operation not supported" },
    { EAFNOSUPPORT, "Address family not supported by protocol" },
    { EADDRINUSE, "Address already in use" },
    { EADDRNOTAVAIL, "Cannot assign requested address" },
    { ENETDOWN, "Network is down" },
    { ENETUNREACH, "Network is unreachable" },
    { ENETRESET, "Network dropped connection on reset" },
    { ECONNABORTED, "Software caused connection abort" },
    { ECONNRESET, "Connection reset by peer" },
    { ENOBUFS, "No buffer space available" },
    { EISCONN, "Transport endpoint is already connected" },
    { ENOTCONN, "Transport endpoint is not connected" },
    { ETIMEDOUT, "Connection timed out" },
    { ECONNREFUSED, "Connection refused" },
    { EHOSTUNREACH, "No route to host" },
    { EALREADY, "Operation already in progress" },
    { EINPROGRESS, "Operation now in progress" },
    { ESTALE, "Stale file handle" },
    { EDQUOT, "Disk quota exceeded" },
    { ECANCELED, "Operation canceled" },
    { EOWNERDEAD, "Owner died" },
    { ENOTRECOVERABLE, "State not recoverable" },
};

char *strerror(int code) {
    for (unsigned i = 0; i < sizeof messages / sizeof messages[0]; i++)
        if (messages[i].code == code)
            return (char *)messages[i].text;
    static char unknown[32] = "Unknown error ";
    char digits[12];
    int n = 0;
    unsigned v = code < 0 ? 0u - (unsigned)code : (unsigned)code;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    char *p = unknown + 14;
    if (code < 0)
        *p++ = '-';
    while (n)
        *p++ = digits[--n];
    *p = 0;
    return unknown;
}
