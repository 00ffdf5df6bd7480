/* Error numbers returned (negated) by system calls. Values follow the
 * traditional UNIX numbering so that students can look them up. */
#ifndef FAULTLINE_ERRNO_H
#define FAULTLINE_ERRNO_H

#define EPERM      1   /* operation not permitted */
#define ENOENT     2   /* no such file */
#define ESRCH      3   /* no such process or thread */
#define EINTR      4   /* interrupted: a signal arrived (or the caller was killed) while waiting */
#define EIO        5   /* device error */
#define E2BIG      7   /* argument list too long */
#define ENOEXEC    8   /* not a valid executable */
#define EBADF      9   /* bad file descriptor */
#define ECHILD    10   /* no child to wait for */
#define EAGAIN    11   /* try again: out of processes or threads */
#define ENOMEM    12   /* out of memory */
#define ENXIO      6   /* no such address: not in a region the caller manages */
#define EACCES    13   /* permission denied: wider rights than the caller holds */
#define EFAULT    14   /* bad user address */
#define EBUSY     16   /* resource busy */
#define EEXIST    17   /* file exists */
#define ENODEV    19   /* no such device (no disk) */
#define ENOTDIR   20   /* not a directory */
#define EISDIR    21   /* is a directory */
#define EINVAL    22   /* invalid argument */
#define ENFILE    23   /* kernel file table full */
#define EMFILE    24   /* process file table full */
#define ENOTTY    25   /* not the console, or not the caller's controlling terminal */
#define EFBIG     27   /* file too large */
#define ENOSPC    28   /* no space left */
#define EROFS     30   /* read-only file (initrd) */
#define ERANGE    34   /* result out of range */
#define ENAMETOOLONG 36 /* path too long */
#define ENOSYS    38   /* no such system call */
#define EDEADLK   35   /* would deadlock (joining oneself) */
#define EDQUOT   122   /* quota exceeded: more frames than a fault handler may hold */

#endif
