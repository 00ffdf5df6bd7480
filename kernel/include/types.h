/* Basic freestanding types used everywhere in the kernel. */
#ifndef FAULTLINE_TYPES_H
#define FAULTLINE_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

typedef uint64_t paddr_t;   /* physical address */
typedef uint64_t vaddr_t;   /* virtual address */
typedef uint64_t pfn_t;     /* physical frame number = paddr >> PAGE_SHIFT */

#define ARRAY_SIZE(a)      (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)     (((x) + ((a) - 1)) & ~((uint64_t)(a) - 1))
#define ALIGN_DOWN(x, a)   ((x) & ~((uint64_t)(a) - 1))
#define MIN(a, b)          ((a) < (b) ? (a) : (b))
#define MAX(a, b)          ((a) > (b) ? (a) : (b))
#define container_of(p, type, member) \
    ((type *)((char *)(p) - offsetof(type, member)))

#endif
