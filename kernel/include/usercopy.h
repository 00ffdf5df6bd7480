/*
 * Checked copies between kernel and user memory. Every system call that
 * takes a user pointer goes through these: the range must lie inside user
 * space (no wrap-around, no kernel address), and a page that is missing is
 * faulted in, or the copy fails with -EFAULT. Never call with a spinlock
 * held: a fault may sleep.
 */
#ifndef FAULTLINE_USERCOPY_H
#define FAULTLINE_USERCOPY_H

#include "types.h"
#include <arch/arch.h>

int  copy_from_user(void *dst, uint64_t uva, uint64_t n);
int  copy_to_user(uint64_t uva, const void *src, uint64_t n);
/* Copies a NUL-terminated string of at most max-1 chars. Returns its length,
 * -EFAULT, or -ENAMETOOLONG if no NUL within max bytes. */
long copy_string_from_user(char *dst, uint64_t uva, uint64_t max);
/* Whether [uva, uva + n) lies in user space (no wrap-around). Inline:
 * every copy and the signal frame's push and pop ask it. */
static inline bool user_range_ok(uint64_t uva, uint64_t n)
{
    return uva < USER_TOP && n <= USER_TOP - uva;
}

/* Used by the trap handler: is pc inside the user-copy routines? */
bool usercopy_pc(uint64_t pc);
uint64_t usercopy_fixup_pc(void);

#endif
