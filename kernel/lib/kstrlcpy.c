/*
 * kstrlcpy: bounded string copy that always terminates. Pure code so the
 * kernel and the host unit tests share it.
 */
#include "kstring.h"

size_t kstrlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);

    if (size > 0) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}
