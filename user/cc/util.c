/*
 * What every pass needs: an arena allocator, error messages, whole-file
 * reads and writes, growing buffers and the -v size report. The few calls
 * that differ between faultline and the host are here and nowhere else.
 */
#include "cc.h"

#ifdef FAULTLINE_HOST
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#define SYS_ERR(rc) strerror(errno)
#else
#define SYS_ERR(rc) strerror((int)(rc))
#endif

const char *cc_pass = "cc";
const char *cc_file = "";

/* ---- arena ---- */

#define ARENA_CHUNK  (32 * 1024)   /* one malloc per 32 KiB of small objects */
#define ARENA_ALIGN  16

static char *arena_next, *arena_end;
static size_t arena_total;

void *cc_alloc(size_t n)
{
    n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (n > ARENA_CHUNK / 4) {
        /* A big object gets its own block, so chunks are not wasted. */
        void *p = malloc(n);
        if (!p)
            fatal("out of memory");
        memset(p, 0, n);
        arena_total += n;
        return p;
    }
    if ((size_t)(arena_end - arena_next) < n) {
        arena_next = malloc(ARENA_CHUNK);
        if (!arena_next)
            fatal("out of memory");
        arena_end = arena_next + ARENA_CHUNK;
    }
    void *p = arena_next;
    arena_next += n;
    arena_total += n;
    memset(p, 0, n);
    return p;
}

char *cc_strndup(const char *s, size_t n)
{
    char *p = cc_alloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

size_t cc_allocated(void) { return arena_total; }

/* ---- messages ---- */

static void put_err(const char *s)
{
    size_t n = strlen(s);
    while (n) {
        long w = write(2, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
    char msg[512];
    size_t n = strlen(prefix);
    if (n >= sizeof msg)
        n = sizeof msg - 1;
    memcpy(msg, prefix, n);
    vsnprintf(msg + n, sizeof msg - n - 1, fmt, ap);
    n = strlen(msg);
    msg[n] = '\n';
    msg[n + 1] = '\0';
    put_err(msg);
}

void error_at(int line, const char *fmt, ...)
{
    char prefix[200];
    if (line > 0)
        snprintf(prefix, sizeof prefix, "%s:%d: error: ", cc_file, line);
    else
        snprintf(prefix, sizeof prefix, "%s: error: ", cc_file);
    va_list ap;
    va_start(ap, fmt);
    vmessage(prefix, fmt, ap);
    va_end(ap);
    exit(1);
}

void fatal(const char *fmt, ...)
{
    char prefix[40];
    snprintf(prefix, sizeof prefix, "%s: ", cc_pass);
    va_list ap;
    va_start(ap, fmt);
    vmessage(prefix, fmt, ap);
    va_end(ap);
    exit(1);
}

/* ---- buffers ---- */

void buf_add(struct buf *b, const void *data, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = malloc(cap);
        if (!p)
            fatal("out of memory");
        if (b->len)
            memcpy(p, b->p, b->len);
        free(b->p);
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line)
        fatal("internal error: output line too long");
    buf_add(b, line, (size_t)n);
}

/* ---- files ---- */

char *read_whole_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        fatal("cannot open '%s': %s", path, SYS_ERR(fd));
    struct buf b = { 0 };
    char chunk[1024];
    for (;;) {
        long n = read(fd, chunk, sizeof chunk);
        if (n < 0)
            fatal("cannot read '%s': %s", path, SYS_ERR(n));
        if (n == 0)
            break;
        buf_add(&b, chunk, (size_t)n);
    }
    close(fd);
    if (!b.p)
        buf_add(&b, "", 0);
    *len = b.len;
    return b.p;
}

void write_whole_file(const char *path, const void *data, size_t len)
{
#ifdef FAULTLINE_HOST
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
#else
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC);
#endif
    if (fd < 0)
        fatal("cannot create '%s': %s", path, SYS_ERR(fd));
    const char *p = data;
    while (len) {
        long n = write(fd, p, len);
        if (n <= 0) {
            close(fd);
            unlink(path);
#ifndef FAULTLINE_HOST
            if (n == -EFBIG)
                fatal("cannot write '%s': more than a ram file holds (64 KiB)", path);
#endif
            fatal("cannot write '%s': %s", path, n < 0 ? SYS_ERR(n) : "no space");
        }
        p += n;
        len -= (size_t)n;
    }
    close(fd);
}

/* ---- the working-set report ---- */

#ifdef FAULTLINE_HOST
void report_sizes(const char *what)
{
    fprintf(stderr, "%s: %s: %zu bytes allocated\n", cc_pass, what, cc_allocated());
}
#else
extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __bss_start[], __bss_end[], _end[];

#define KIB(x) (((unsigned long)(x) + 1023) / 1024)

/* Resident user memory of this process, from the kernel's process table. */
static unsigned long resident_bytes(void)
{
    static struct fl_procinfo ps[64];
    int n = procinfo(ps, ARRAY_SIZE(ps));
    int me = getpid();
    for (int i = 0; i < n; i++)
        if (ps[i].pid == me)
            return ps[i].mem_bytes;
    return 0;
}

void report_sizes(const char *what)
{
    /* The kernel starts the break at the page after the image. */
    unsigned long heap_base = ((unsigned long)_end + 4095) & ~4095UL;
    unsigned long brk = (unsigned long)sbrk(0);
    fprintf(2, "%s: %s: text %lu KiB, rodata %lu KiB, data %lu KiB, bss %lu KiB, "
               "heap %lu KiB (%lu KiB allocated), resident %lu KiB\n",
            cc_pass, what,
            KIB(__text_end - __text_start), KIB(__rodata_end - __rodata_start),
            KIB(__bss_start - __data_start), KIB(__bss_end - __bss_start),
            KIB(brk - heap_base), KIB(cc_allocated()), KIB(resident_bytes()));
}
#endif

/* ---- operator names for the tree file ---- */

#define CC_OP_NAME(op, name) [N_##op] = name,
static const char *const op_names[N_LOWERED_COUNT] = { CC_LOWERED_OPS(CC_OP_NAME) };

const char *op_name(int op)
{
    return op >= 0 && op < N_LOWERED_COUNT ? op_names[op] : NULL;
}

int op_by_name(const char *s)
{
    for (int i = 0; i < N_LOWERED_COUNT; i++)
        if (strcmp(op_names[i], s) == 0)
            return i;
    return -1;
}

struct node *new_node(int op, int line)
{
    struct node *n = cc_alloc(sizeof *n);
    n->op = op;
    n->line = line;
    n->mt = MT_NONE;
    return n;
}
