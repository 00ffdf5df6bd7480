/*
 * The arena: the tokens and tree of one command (a line, or all the lines
 * of an if or a loop) are allocated here and freed together once it has
 * run. Blocks come from malloc and are chained.
 */
#include "sh.h"

#define ARENA_BLOCK  (16 * 1024)   /* bytes per block, unless one asks for more */
#define ARENA_ALIGN  16

struct block {
    struct block *next;
    size_t        used, size;
    _Alignas(ARENA_ALIGN) char data[];
};

static struct block *blocks;

void *arena_alloc(size_t n)
{
    n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (!blocks || blocks->size - blocks->used < n) {
        size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        struct block *b = malloc(sizeof *b + size);
        if (!b)
            sh_out_of_memory();
        b->next = blocks;
        b->used = 0;
        b->size = size;
        blocks = b;
    }
    void *p = blocks->data + blocks->used;
    blocks->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(const char *s, size_t n)
{
    char *p = arena_alloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void arena_reset(void)
{
    while (blocks) {
        struct block *b = blocks;
        blocks = b->next;
        free(b);
    }
}

void sh_set_error(struct sh_error *e, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->line = line;
}
