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
    { EFBIG, "File too large" },
    { ENOSPC, "No space left on device" },
    { ESPIPE, "Illegal seek" },
    { EROFS, "Read-only file system" },
    { EMLINK, "Too many links" },
    { EPIPE, "Broken pipe" },
    { EDOM, "Numerical argument out of domain" },
    { ERANGE, "Numerical result out of range" },
    { ENAMETOOLONG, "File name too long" },
    { ENOSYS, "Function not implemented" },
    { ENOTEMPTY, "Directory not empty" },
    { EOVERFLOW, "Value too large for defined data type" },
    { EILSEQ, "Invalid or incomplete multibyte or wide character" },
    { ETIMEDOUT, "Connection timed out" },
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
