/* Error messages. */
#include "ulib.h"

static const char *const messages[] = {
    [0]            = "success",
    [EPERM]        = "operation not permitted",
    [ENOENT]       = "no such file",
    [ESRCH]        = "no such process or thread",
    [EINTR]        = "interrupted",
    [EIO]          = "I/O error",
    [ENXIO]        = "no such address in a managed region",
    [E2BIG]        = "argument list too long",
    [ENOEXEC]      = "not an executable",
    [EBADF]        = "bad file descriptor",
    [ECHILD]       = "no child to wait for",
    [EAGAIN]       = "out of processes or threads, try again",
    [ENOMEM]       = "out of memory",
    [EACCES]       = "permission denied",
    [EFAULT]       = "bad address",
    [EBUSY]        = "resource busy",
    [EEXIST]       = "file exists",
    [ENOTDIR]      = "not a directory",
    [EISDIR]       = "is a directory",
    [EINVAL]       = "invalid argument",
    [ENFILE]       = "too many open files in the system",
    [EMFILE]       = "too many open files",
    [ENOTTY]       = "not a terminal",
    [EFBIG]        = "file too large",
    [ENOSPC]       = "no space left",
    [EROFS]        = "read-only file",
    [ERANGE]       = "result out of range",
    [EDEADLK]      = "would deadlock",
    [ENAMETOOLONG] = "file name too long",
    [ENOSYS]       = "no such system call",
    [EDQUOT]       = "frame quota exceeded",
};

/* Accepts the negative value a system call returned as well as errno. */
const char *strerror(int err)
{
    if (err < 0)
        err = -err;
    if ((size_t)err < ARRAY_SIZE(messages) && messages[err])
        return messages[err];
    return "unknown error";
}

void print_err(const char *what, long err)
{
    fprintf(STDERR_FILENO, "%s: %s\n", what, strerror((int)err));
}

#define DIE_EXIT_STATUS 1

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(STDERR_FILENO, fmt, ap);
    va_end(ap);
    fprintf(STDERR_FILENO, "\n");
    exit(DIE_EXIT_STATUS);
}
