#include "usercopy.h"
#include <arch/arch.h>
#include <faultline/errno.h>

extern long arch_copy_user(void *dst, const void *src, uint64_t n);
extern long arch_strncpy_user(char *dst, const char *src, uint64_t max);
extern char usercopy_start[], usercopy_end[], usercopy_fault[];

int copy_from_user(void *dst, uint64_t uva, uint64_t n)
{
    if (!user_range_ok(uva, n))
        return -EFAULT;
    return (int)arch_copy_user(dst, (const void *)uva, n);
}

int copy_to_user(uint64_t uva, const void *src, uint64_t n)
{
    if (!user_range_ok(uva, n))
        return -EFAULT;
    return (int)arch_copy_user((void *)uva, src, n);
}

long copy_string_from_user(char *dst, uint64_t uva, uint64_t max)
{
    if (uva >= USER_TOP || max == 0)
        return -EFAULT;
    uint64_t room = USER_TOP - uva;
    uint64_t limit = max < room ? max : room;
    long n = arch_strncpy_user(dst, (const char *)uva, limit);
    if (n < 0)
        return n;
    if ((uint64_t)n >= limit) {
        dst[max - 1] = '\0';
        return limit < max ? -EFAULT : -ENAMETOOLONG;
    }
    return n;
}

bool usercopy_pc(uint64_t pc)
{
    return pc >= (uint64_t)usercopy_start && pc < (uint64_t)usercopy_end;
}

uint64_t usercopy_fixup_pc(void)
{
    return (uint64_t)usercopy_fault;
}
