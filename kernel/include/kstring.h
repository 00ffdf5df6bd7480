/*
 * Memory and string helpers. The kernel has its own implementations
 * (kernel/lib/string.c); host unit tests compile kernel code with
 * FAULTLINE_HOST defined and get the C library's instead.
 */
#ifndef FAULTLINE_KSTRING_H
#define FAULTLINE_KSTRING_H

#include "types.h"

#ifdef FAULTLINE_HOST
#include <string.h>
/* strnlen is POSIX, not C11: glibc hides it under -std=c11, so declare it. */
size_t strnlen(const char *s, size_t max);
#else
void  *memset(void *dst, int c, size_t n);
void  *memcpy(void *dst, const void *src, size_t n);
void  *memmove(void *dst, const void *src, size_t n);
int    memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int    strcmp(const char *a, const char *b);
int    strncmp(const char *a, const char *b, size_t n);
#endif

/* Copies at most size-1 bytes and always terminates (if size > 0).
 * Returns strlen(src) so truncation can be detected. */
size_t kstrlcpy(char *dst, const char *src, size_t size);

/* Zeroes one PAGE_SIZE-aligned page as fast as plain stores allow. */
void zero_page(void *page);
void copy_page(void *dst, const void *src);   /* page-aligned, PAGE_SIZE bytes */

#endif
