/*
 * Heap allocator: first fit over a free list kept in address order, so a
 * freed block merges with free neighbours on both sides in one pass and
 * fragmentation heals as blocks are returned. The heap grows with sbrk()
 * and gives a large free block at its top back to the kernel.
 *
 * Every block, used or free, starts with a header. In a free block `next`
 * links the list; in a used block it holds IN_USE, which no real block
 * address can equal, so free() can catch pointers it never handed out and
 * most double frees.
 */
#include "ulib.h"

#define ALIGNMENT        16                   /* what the RISC-V ABI wants for any type */
#define HEAP_PAGE_SIZE   4096                 /* growth is rounded to whole pages */
#define GROW_MIN         (64 * 1024)          /* fewer sbrk calls for small requests */
#define TRIM_THRESHOLD   (256 * 1024)         /* > GROW_MIN so that trim and grow do not ping-pong */
#define MAX_REQUEST      ((size_t)1 << 46)    /* far above any user address space; avoids overflow */

struct block {
    size_t        size;   /* bytes, header included; a multiple of ALIGNMENT */
    struct block *next;
};
_Static_assert(sizeof(struct block) == ALIGNMENT, "header must keep payloads aligned");

#define HEADER_SIZE      sizeof(struct block)
#define MIN_BLOCK        (HEADER_SIZE + ALIGNMENT)
#define IN_USE           ((struct block *)(uintptr_t)0xA110CA7EDUL)   /* odd: never a block address */

static struct block *free_list;   /* ascending addresses */
static struct ulock heap_lock = ULOCK_INIT;

static size_t round_up(size_t v, size_t align)
{
    return (v + align - 1) & ~(align - 1);
}

static char *block_end(struct block *b)
{
    return (char *)b + b->size;
}

/* Puts b in the free list, merging it with adjacent free blocks. */
static void insert_free(struct block *b)
{
    struct block *prev = NULL, *next = free_list;
    while (next && next < b) {
        prev = next;
        next = next->next;
    }

    if (next && block_end(b) == (char *)next) {
        b->size += next->size;
        b->next = next->next;
    } else {
        b->next = next;
    }

    if (prev && block_end(prev) == (char *)b) {
        prev->size += b->size;
        prev->next = b->next;
    } else if (prev) {
        prev->next = b;
    } else {
        free_list = b;
    }
}

/* Gives the last free block back to the kernel if it is big and ends at
 * the break (a program may have moved the break itself since). */
static void trim_top(void)
{
    struct block *prev = NULL, *last = free_list;
    if (!last)
        return;
    while (last->next) {
        prev = last;
        last = last->next;
    }
    if (last->size < TRIM_THRESHOLD || block_end(last) != (char *)sbrk(0))
        return;
    if (ptr_error(sbrk(-(long)last->size)))
        return;
    if (prev)
        prev->next = NULL;
    else
        free_list = NULL;
}

/* Adds at least `need` bytes of fresh memory to the free list. */
static bool grow(size_t need)
{
    size_t request = need < GROW_MIN ? GROW_MIN : round_up(need, HEAP_PAGE_SIZE);
    /* The first break need not be aligned. Padding up to alignment leaves
     * the new break aligned too, so the next growth starts exactly where
     * this block ends and the two can merge. */
    char *brk = sbrk(0);
    if (ptr_error(brk))
        return false;
    size_t pad = (ALIGNMENT - (uintptr_t)brk % ALIGNMENT) % ALIGNMENT;
    char *p = sbrk((long)(pad + request));
    if (ptr_error(p) && request > need) {
        request = need;                     /* use what is left, however little */
        p = sbrk((long)(pad + request));
    }
    if (ptr_error(p))
        return false;

    struct block *b = (struct block *)(p + pad);
    b->size = request;
    insert_free(b);
    return true;
}

/* Unlinks the first block of at least `need` bytes, splitting off the rest. */
static struct block *take_first_fit(size_t need)
{
    struct block **link = &free_list;
    for (struct block *b = free_list; b; link = &b->next, b = b->next) {
        if (b->size < need)
            continue;
        if (b->size - need >= MIN_BLOCK) {
            struct block *rest = (struct block *)((char *)b + need);
            rest->size = b->size - need;
            rest->next = b->next;
            *link = rest;
            b->size = need;
        } else {
            *link = b->next;
        }
        return b;
    }
    return NULL;
}

void *malloc(size_t n)
{
    if (n > MAX_REQUEST)
        return NULL;
    size_t need = round_up(n + HEADER_SIZE, ALIGNMENT);
    if (need < MIN_BLOCK)
        need = MIN_BLOCK;

    ulock_acquire(&heap_lock);
    struct block *b;
    while (!(b = take_first_fit(need))) {
        if (!grow(need)) {
            ulock_release(&heap_lock);
            return NULL;
        }
    }
    b->next = IN_USE;
    ulock_release(&heap_lock);
    return b + 1;
}

static _Noreturn void bad_pointer(const char *who, void *p)
{
    fprintf(STDERR_FILENO, "%s: %p was not allocated by malloc or is already free\n", who, p);
    kill(getpid(), SIGABRT);
    exit(SIGABRT);   /* in case the signal is only queued */
}

static struct block *header_of(const char *who, void *p)
{
    struct block *b = (struct block *)p - 1;
    if (((uintptr_t)p & (ALIGNMENT - 1)) || b->next != IN_USE)
        bad_pointer(who, p);
    return b;
}

void free(void *p)
{
    if (!p)
        return;
    struct block *b = header_of("free", p);
    ulock_acquire(&heap_lock);
    insert_free(b);
    trim_top();
    ulock_release(&heap_lock);
}

void *calloc(size_t count, size_t size)
{
    if (size && count > MAX_REQUEST / size)
        return NULL;
    void *p = malloc(count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void *realloc(void *p, size_t n)
{
    if (!p)
        return malloc(n);
    if (n == 0) {
        free(p);
        return NULL;
    }
    struct block *b = header_of("realloc", p);
    size_t capacity = b->size - HEADER_SIZE;
    if (n <= capacity)
        return p;
    void *q = malloc(n);
    if (!q)
        return NULL;
    memcpy(q, p, capacity);
    free(p);
    return q;
}
