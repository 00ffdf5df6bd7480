/*
 * The child side of fuzz: turns generated calls into argument values and
 * makes them.
 *
 * Memory the kernel is pointed at lives in a buffer region of its own,
 * mapped with an unmapped guard page right after it. A "valid" pointer
 * with too long a length therefore runs into the guard, never into the
 * child's own variables: the kernel may legitimately write as much as it
 * was told to, and that must not corrupt the fuzzer. For the same reason
 * mmap(MAP_FIXED) and munmap work in a play region and never reach the
 * program image, the buffers or the stack (a child that unmapped its own
 * code would die, which says nothing about the kernel).
 *
 * Constraints that keep one child from ending the run (each says why):
 *  - read of the console asks for 0 bytes: any more would wait for typing.
 *  - write to the console only from memory the kernel may not read, so
 *    the machine-readable lines stay whole.
 *  - exec never names a runnable program: a shell or a second fuzz would
 *    take the console. It may still run a ram file whose bytes happen to
 *    form a program; that only ends this child.
 *  - sleep is at most a few milliseconds: longer only stalls the run.
 *  - SIGKILL never goes to the fuzz parent or its group (other signals
 *    do: the parent ignores them); the shell's pid is never named at all.
 *  - setpgid never joins the shell's group (kill(0) would then reach it).
 */
#include "fuzz.h"

#define PAGE            4096UL
#define REGION_PAGES    4                       /* the buffers */
#define REGION_BYTES    (REGION_PAGES * PAGE)
#define PLAY_PAGES      8                       /* for mmap(MAP_FIXED) and munmap */
#define PLAY_BYTES      (PLAY_PAGES * PAGE)
#define FD_SLOTS        32                      /* the kernel has 16 per process */
#define THREAD_STACKS   8
#define THREAD_STACK    8192
#define THREAD_CALLS    64                      /* at most, per thread */
#define NEWLINES        64
#define BALLAST_STRIDE  7                       /* pages between touches: jump around */
#define BALLAST_TOUCHES 4                       /* pages touched after each call */
#define USER_TOP        0x4000000000UL          /* Sv39: user space is [0, 256 GiB) */
#define KERNEL_ADDR     0xffffffc080200000UL    /* kernel text: mapped, not for users */
#define NONCANONICAL    0x8000000000000000UL
#define UNMAPPED_LOW    0x1000UL                /* below the program (linked at 0x10000) */
#define NO_SUCH_PID     (1 << 20)               /* pids count up from 1: never reached */
#define PRIVATE_NAMES   3
#define MAX_SLEEP_MS    4
#define STACK_SPAN      (64 * 1024UL)           /* what counts as the child's stack */
#define ARGV_MANY       (FL_ARG_MAX + 2)
#define LONG_PATH       (FL_PATH_MAX + 8)
#define LOW32(x)        ((int)(uint32_t)(x))
#define MIN(a, b)       ((a) < (b) ? (a) : (b))

/* The first PRIVATE_NAMES are the files the children share; the others
 * are paths that should create nothing, listed in case one does. */
const char *const fuzz_names[] = { "/fz-a", "/fz-b", "/fz-c", "/fz-a/", "fz-b", "/fz-none",
                                   "/fz-none/x" };
const int fuzz_nnames = (int)ARRAY_SIZE(fuzz_names);

enum fd_kind { FD_CLOSED, FD_CONSOLE, FD_RAM, FD_INITRD, FD_DIR, FD_NULL, FD_UNKNOWN, FD_KINDS };

/* kinds per class: the generator draws kind = word % fuzz_kinds[class] */
enum { I_ZERO, I_ONE, I_MINUS1, I_SMALL, I_INTMIN, I_INTMAX, I_HUGE, I_RANDOM, I_BIT,
       I_NEGSMALL, I_PAGES, I_KINDS };
enum { P_NULL, P_VALID, P_START, P_KERNEL, P_UNMAPPED, P_MISALIGNED, P_CROSSING,
       P_TEXT, P_NONCANON, P_TOP, P_ALLONES, P_RANDOM, P_STACK, P_KINDS };
enum { L_ZERO, L_ONE, L_SMALL, L_PAGE, L_PAGE1, L_REGION, L_HUGE, L_ALLONES, L_LONGMAX,
       L_2G, L_4G, L_RANDOM, L_MID, L_KINDS };
enum { D_CLOSED, D_MINUS1, D_INTMIN, D_HUGE, D_TRUNC, D_CONSOLE, D_RAM, D_INITRD, D_DIR,
       D_NULL, D_ANY, D_RANDOM, D_KINDS };
enum { Q_ZERO, Q_SELF, Q_PARENT, Q_INIT, Q_CHILD, Q_SIBLING, Q_NONE, Q_MINUS1, Q_NSELF,
       Q_NPARENT, Q_NNONE, Q_INTMIN, Q_TRUNC, Q_NCHILD, Q_NSIBLING, Q_KINDS };
enum { T_ZERO, T_SELF, T_THREAD, T_NONE, T_MINUS1, T_OTHERPROC, T_SIBLING, T_INTMIN,
       T_TRUNC, T_ONE, T_KINDS };
enum { S_ZERO, S_KILL, S_TERM, S_SEGV, S_CHLD, S_USR1, S_NSIG, S_MINUS1, S_ANY, S_HUGE,
       S_KINDS };
enum { N_NULL, N_PRIVATE, N_PROGRAM, N_ROOT, N_DEVNULL, N_CONSOLE, N_NOSUCH, N_EMPTY,
       N_LONG, N_UNTERMINATED, N_KERNEL, N_UNMAPPED, N_TRAILING, N_RELATIVE, N_KINDS };
enum { V_NULL, V_OK, V_MANY, V_KERNEL, V_BADENTRY, V_OPEN_ENDED, V_UNMAPPED,
       V_MISALIGNED, V_KINDS };
enum { M_NULL, M_PLAY, M_PLAY_MISALIGNED, M_KERNEL, M_TOP_PAGE, M_TOP, M_NONCANON,
       M_STACK, M_RANDOM, M_TEXT, M_HEAP, M_REGION, M_BALLAST, M_KINDS };
enum { Z_ZERO, Z_ONE, Z_FEW, Z_KINDS };
enum { C_OK, C_NULL, C_KERNEL, C_DATA, C_MISALIGNED, C_NONCANON, C_TOP, C_KINDS };
enum { K_OK, K_NULL, K_KERNEL, K_REGION_END, K_MISALIGNED, K_UNMAPPED, K_TEXT, K_KINDS };

const uint8_t fuzz_kinds[A_CLASSES] = {
    [A_NONE] = 1,       [A_INT] = I_KINDS,   [A_PTR_IN] = P_KINDS,
    [A_PTR_OUT] = P_KINDS - 1,               /* no pointers into the child's stack */
    [A_LEN] = L_KINDS,  [A_FD] = D_KINDS,    [A_PID] = Q_KINDS,   [A_TID] = T_KINDS,
    [A_SIG] = S_KINDS,  [A_PATH] = N_KINDS,  [A_ARGV] = V_KINDS,  [A_ADDR] = M_KINDS,
    [A_MS] = Z_KINDS,   [A_CODE] = C_KINDS,  [A_STACK] = K_KINDS,
};

/* The state of one child: what its calls so far have made. */
struct child {
    const struct fuzz_world *w;
    int      pid, tid, last_child, last_thread;
    uint8_t  fd[FD_SLOTS];                      /* enum fd_kind per descriptor */
    char    *region;                            /* REGION_BYTES, then a guard page */
    char    *play;                              /* PLAY_BYTES */
    uint64_t *ballast;                          /* memory the child keeps touching */
    long     ballast_pages;
    uint64_t salt;                              /* makes its pages' contents its own */
    char    *image_end;                         /* the end of the program's bss */
    uintptr_t stack_low;
    int      pending_stack;                     /* thread_create's, until it returns */
    char     long_path[LONG_PATH + 1];
    char    *many_argv[ARGV_MANY];
};

static struct child self;
static char thread_stacks[THREAD_STACKS][THREAD_STACK] __attribute__((aligned(16)));
static int stack_busy[THREAD_STACKS];
extern char _end[];                             /* user.ld: the end of the image */

static void fuzz_thread(long seed, long calls);

static uintptr_t region_end(void) { return (uintptr_t)self.region + REGION_BYTES; }

static uint64_t int_value(int kind, uint64_t raw)
{
    switch (kind) {
    case I_ZERO:    return 0;
    case I_ONE:     return 1;
    case I_MINUS1:  return (uint64_t)-1L;
    case I_SMALL:   return raw % 64;
    case I_INTMIN:  return (uint64_t)(long)INT32_MIN;
    case I_INTMAX:  return INT32_MAX;
    case I_HUGE:    return 1UL << (32 + raw % 31);
    case I_BIT:     return 1UL << (raw % 64);
    case I_NEGSMALL: return (uint64_t)-(long)(raw % 4096);
    case I_PAGES:   return (raw % 16) * PAGE;
    default:        return raw;
    }
}

static uint64_t ptr_value(int kind, uint64_t raw)
{
    switch (kind) {
    case P_NULL:       return 0;
    case P_VALID:      return (uintptr_t)self.region + raw % REGION_BYTES;
    case P_START:      return (uintptr_t)self.region;
    case P_KERNEL:     return KERNEL_ADDR + (raw % PAGE);
    case P_UNMAPPED:   return UNMAPPED_LOW + (raw % PAGE);
    case P_MISALIGNED: return (uintptr_t)self.region + 1 + raw % 7;
    case P_CROSSING:   return region_end() - 1 - raw % 16;
    case P_TEXT:       return (uintptr_t)fuzz_thread;
    case P_NONCANON:   return NONCANONICAL | (raw % PAGE);
    case P_TOP:        return USER_TOP - 1 - raw % 16;
    case P_ALLONES:    return (uint64_t)-1L;
    case P_STACK:      return (uintptr_t)&raw;     /* the kernel only reads it */
    default:           return raw;
    }
}

/* Memory the kernel must not read from or write to (for the console). */
static uint64_t bad_ptr_value(uint64_t raw)
{
    static const int bad[] = { P_NULL, P_KERNEL, P_UNMAPPED, P_NONCANON, P_TOP, P_ALLONES };
    return ptr_value(bad[raw % ARRAY_SIZE(bad)], raw);
}

static uint64_t len_value(int kind, uint64_t raw)
{
    switch (kind) {
    case L_ZERO:    return 0;
    case L_ONE:     return 1;
    case L_SMALL:   return raw % 64;
    case L_PAGE:    return PAGE;
    case L_PAGE1:   return PAGE + 1;
    case L_REGION:  return REGION_BYTES;
    case L_HUGE:    return 1UL << 40;
    case L_ALLONES: return (uint64_t)-1L;
    case L_LONGMAX: return INT64_MAX;
    case L_2G:      return 1UL << 31;
    case L_4G:      return 1UL << 32;
    case L_MID:     return raw % (4 * REGION_BYTES);
    default:        return raw;
    }
}

/* A descriptor of the given kind if the child holds one, else a closed one. */
static int fd_of(enum fd_kind want, uint64_t raw)
{
    int n = 0, pick = 0;
    for (int i = 0; i < FD_SLOTS; i++)
        if (want == FD_UNKNOWN ? self.fd[i] != FD_CLOSED : self.fd[i] == want)
            n++;
    if (n) {
        pick = (int)(raw % (uint64_t)n);
        for (int i = 0; i < FD_SLOTS; i++)
            if ((want == FD_UNKNOWN ? self.fd[i] != FD_CLOSED : self.fd[i] == want) && pick-- == 0)
                return i;
    }
    for (int i = (int)(raw % FD_SLOTS), k = 0; k < FD_SLOTS; k++, i = (i + 1) % FD_SLOTS)
        if (self.fd[i] == FD_CLOSED)
            return i;
    return FD_SLOTS;
}

static uint64_t fd_value(int kind, uint64_t raw)
{
    switch (kind) {
    case D_CLOSED:  return (uint64_t)fd_of(FD_CLOSED, raw);
    case D_MINUS1:  return (uint64_t)-1L;
    case D_INTMIN:  return (uint64_t)(long)INT32_MIN;
    case D_HUGE:    return FD_SLOTS + raw % 1000;
    case D_TRUNC:   return (1UL << 32) | (uint64_t)fd_of(FD_UNKNOWN, raw);
    case D_CONSOLE: return (uint64_t)fd_of(FD_CONSOLE, raw);
    case D_RAM:     return (uint64_t)fd_of(FD_RAM, raw);
    case D_INITRD:  return (uint64_t)fd_of(FD_INITRD, raw);
    case D_DIR:     return (uint64_t)fd_of(FD_DIR, raw);
    case D_NULL:    return (uint64_t)fd_of(FD_NULL, raw);
    case D_ANY:     return (uint64_t)fd_of(FD_UNKNOWN, raw);
    default:        return raw;
    }
}

/* What the kernel may take the descriptor to be: the whole value, or its
 * low 32 bits if it truncates. */
static bool may_be_console(uint64_t fd)
{
    uint64_t low = (uint32_t)fd;
    for (int pass = 0; pass < 2; pass++) {
        uint64_t v = pass ? low : fd;
        if (v < FD_SLOTS && (self.fd[v] == FD_CONSOLE || self.fd[v] == FD_UNKNOWN))
            return true;
    }
    return false;
}

static int sibling(uint64_t raw)
{
    const struct fuzz_world *w = self.w;
    return w->nsiblings ? w->siblings[raw % (uint64_t)w->nsiblings] : self.pid;
}

static uint64_t pid_value(int kind, uint64_t raw)
{
    int parent = self.w->parent_pid;
    int child = self.last_child ? self.last_child : NO_SUCH_PID;
    switch (kind) {
    case Q_ZERO:     return 0;
    case Q_SELF:     return (uint64_t)self.pid;
    case Q_PARENT:   return (uint64_t)parent;
    case Q_INIT:     return 1;
    case Q_CHILD:    return (uint64_t)child;
    case Q_SIBLING:  return (uint64_t)sibling(raw);
    case Q_NONE:     return NO_SUCH_PID + raw % 1000;
    case Q_MINUS1:   return (uint64_t)-1L;
    case Q_NSELF:    return (uint64_t)-(long)self.pid;
    case Q_NPARENT:  return (uint64_t)-(long)parent;
    case Q_NNONE:    return (uint64_t)-(long)(NO_SUCH_PID + raw % 1000);
    case Q_INTMIN:   return (uint64_t)(long)INT32_MIN;
    case Q_TRUNC:    return (1UL << 32) | (uint64_t)self.pid;
    case Q_NCHILD:   return (uint64_t)-(long)child;
    default:         return (uint64_t)-(long)sibling(raw);
    }
}

static uint64_t tid_value(int kind, uint64_t raw)
{
    switch (kind) {
    case T_ZERO:      return 0;
    case T_SELF:      return (uint64_t)self.tid;
    case T_THREAD:    return (uint64_t)(self.last_thread ? self.last_thread : self.tid);
    case T_NONE:      return NO_SUCH_PID + raw % 1000;
    case T_MINUS1:    return (uint64_t)-1L;
    case T_OTHERPROC: return (uint64_t)self.w->parent_pid;
    case T_SIBLING:   return (uint64_t)sibling(raw);
    case T_INTMIN:    return (uint64_t)(long)INT32_MIN;
    case T_TRUNC:     return (1UL << 32) | (uint64_t)self.tid;
    default:          return 1;
    }
}

static uint64_t sig_value(int kind, uint64_t raw)
{
    switch (kind) {
    case S_ZERO:   return 0;
    case S_KILL:   return SIGKILL;
    case S_TERM:   return SIGTERM;
    case S_SEGV:   return SIGSEGV;
    case S_CHLD:   return SIGCHLD;
    case S_USR1:   return SIGUSR1;
    case S_NSIG:   return NSIG;
    case S_MINUS1: return (uint64_t)-1L;
    case S_ANY:    return raw % NSIG;
    default:       return (1UL << 32) | SIGKILL;
    }
}

/* Writes s into the region so that it ends just before the guard page. */
static uint64_t place_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *at = (char *)region_end() - n;
    memcpy(at, s, n);
    return (uintptr_t)at;
}

/* exec's argument strings: apart from the path, which ends at the guard. */
static uint64_t place_arg(int i, const char *s)
{
    char *at = self.region + PAGE + (size_t)i * FL_PATH_MAX;
    strlcpy(at, s, FL_PATH_MAX);
    return (uintptr_t)at;
}

static uint64_t path_value(int kind, uint64_t raw, bool for_exec)
{
    switch (kind) {
    case N_NULL:      return 0;
    case N_PRIVATE:   return place_string(fuzz_names[raw % PRIVATE_NAMES]);
    /* exec runs fuzz itself, which then exits at once (with -e: see
     * constrain); any other program would do what it does. */
    case N_PROGRAM:   return place_string(for_exec ? "/fuzz" : "/echo");
    case N_ROOT:      return place_string("/");
    case N_DEVNULL:   return place_string("/dev/null");
    case N_CONSOLE:   return place_string("/dev/console");
    case N_NOSUCH:    return place_string("/fz-none/x");
    case N_EMPTY:     return place_string("");
    case N_LONG:      return (uintptr_t)self.long_path;
    case N_UNTERMINATED: {
        size_t n = 1 + raw % 32;
        char *at = (char *)region_end() - n;
        memset(at, 'u', n);                 /* no NUL before the guard page */
        return (uintptr_t)at;
    }
    case N_KERNEL:    return KERNEL_ADDR;
    case N_UNMAPPED:  return UNMAPPED_LOW;
    case N_TRAILING:  return place_string("/fz-a/");
    default:          return place_string("fz-b");
    }
}

static uint64_t argv_value(int kind, uint64_t raw)
{
    char **v = (char **)self.region;        /* the strings go at the region's end */
    switch (kind) {
    case V_NULL:       return 0;
    case V_OK:         v[0] = (char *)place_arg(0, "fz"); v[1] = NULL; return (uintptr_t)v;
    case V_MANY:       return (uintptr_t)self.many_argv;
    case V_KERNEL:     return KERNEL_ADDR;
    case V_BADENTRY:   v[0] = (char *)place_arg(0, "fz");
                       v[1] = (char *)(KERNEL_ADDR + raw % PAGE); v[2] = NULL;
                       return (uintptr_t)v;
    case V_OPEN_ENDED: {                    /* entries up to the guard page, no NULL */
        char **end = (char **)region_end();
        char *s = (char *)place_arg(0, "fz");
        char **at = end - 1 - raw % 8;
        for (char **p = at; p < end; p++)
            *p = s;
        return (uintptr_t)at;
    }
    case V_UNMAPPED:   return UNMAPPED_LOW;
    default:           return (uintptr_t)self.region + 1 + raw % 7;
    }
}

static uint64_t addr_value(int kind, uint64_t raw)
{
    switch (kind) {
    case M_NULL:      return 0;
    case M_PLAY:      return (uintptr_t)self.play + (raw % PLAY_PAGES) * PAGE;
    case M_PLAY_MISALIGNED: return (uintptr_t)self.play + 1 + raw % (PAGE - 1);
    case M_KERNEL:    return KERNEL_ADDR;
    case M_TOP_PAGE:  return USER_TOP - PAGE;
    case M_TOP:       return USER_TOP;
    case M_NONCANON:  return NONCANONICAL;
    case M_STACK:     return self.stack_low;
    case M_RANDOM:    return raw % USER_TOP & ~(PAGE - 1);
    case M_TEXT:      return (uintptr_t)fuzz_thread & ~(PAGE - 1);
    case M_HEAP:      return (uintptr_t)sbrk(0);
    case M_REGION:    return (uintptr_t)self.region;
    default:          return (uintptr_t)self.ballast + (raw % self.ballast_pages) * PAGE;
    }
}

/* [a, a+n) overlaps [lo, hi)? */
static bool overlaps(uint64_t a, uint64_t n, uint64_t lo, uint64_t hi)
{
    return a < hi && a + n > lo;
}

/* mmap(MAP_FIXED) and munmap act on whatever is there: keep them off the
 * image, the buffers and the stack. Ranges the kernel must refuse anyway
 * (past the top of user space, wrapping) are left alone. */
static void keep_off_self(uint64_t *addr, uint64_t *len, bool allow_stack)
{
    uint64_t a = *addr, n = *len;
    if (a >= USER_TOP || n > USER_TOP - a)
        return;
    uint64_t image_lo = 0, image_hi = (uintptr_t)self.image_end;
    uint64_t reg_lo = (uintptr_t)self.region, reg_hi = region_end() + PAGE;
    uint64_t stack_lo = self.stack_low;
    uint64_t ballast_lo = (uintptr_t)self.ballast;
    uint64_t ballast_hi = ballast_lo + (uint64_t)self.ballast_pages * PAGE;
    if (overlaps(a, n, image_lo, image_hi) || overlaps(a, n, reg_lo, reg_hi) ||
        overlaps(a, n, ballast_lo, ballast_hi) ||
        (!allow_stack && overlaps(a, n, stack_lo, USER_TOP))) {
        *addr = (uintptr_t)self.play + (a % PLAY_PAGES) * PAGE;
        *len = MIN(n, (uintptr_t)self.play + PLAY_BYTES - *addr);
    }
}

static uint64_t code_value(int kind, uint64_t raw)
{
    switch (kind) {
    case C_OK:         return (uintptr_t)fuzz_thread;
    case C_NULL:       return 0;
    case C_KERNEL:     return KERNEL_ADDR;
    case C_DATA:       return (uintptr_t)self.region;
    case C_MISALIGNED: return (uintptr_t)fuzz_thread + 1;
    case C_NONCANON:   return NONCANONICAL;
    default:           return USER_TOP - 2 * (raw % 8);
    }
}

static uint64_t stack_value(int kind, uint64_t raw)
{
    switch (kind) {
    case K_OK:         return (uintptr_t)thread_stacks[raw % THREAD_STACKS] + THREAD_STACK;
    case K_NULL:       return 0;
    case K_KERNEL:     return KERNEL_ADDR;
    case K_REGION_END: return region_end();
    case K_MISALIGNED: return (uintptr_t)thread_stacks[raw % THREAD_STACKS] + THREAD_STACK - 1;
    case K_UNMAPPED:   return UNMAPPED_LOW;
    default:           return (uintptr_t)fuzz_thread;
    }
}

static uint64_t value(const struct fuzz_call *c, int i, long nr)
{
    int kind = c->kind[i];
    uint64_t raw = c->raw[i];
    switch (fuzz_specs[c->spec].args[i]) {
    case A_INT:     return int_value(kind, raw);
    case A_PTR_IN:
    case A_PTR_OUT: return ptr_value(kind, raw);
    case A_LEN:     return len_value(kind, raw);
    case A_FD:      return fd_value(kind, raw);
    case A_PID:     return pid_value(kind, raw);
    case A_TID:     return tid_value(kind, raw);
    case A_SIG:     return sig_value(kind, raw);
    case A_PATH:    return path_value(kind, raw, nr == SYS_exec);
    case A_ARGV:    return argv_value(kind, raw);
    case A_ADDR:    return addr_value(kind, raw);
    case A_MS:      return kind == Z_ZERO ? 0 : kind == Z_ONE ? 1 : raw % (MAX_SLEEP_MS + 1);
    case A_CODE:    return code_value(kind, raw);
    case A_STACK:   return stack_value(kind, raw);
    default:        return raw;
    }
}

static enum fd_kind path_fd_kind(int kind)
{
    switch (kind) {
    case N_PRIVATE: case N_RELATIVE: return FD_RAM;
    case N_PROGRAM: return FD_INITRD;
    case N_ROOT:    return FD_DIR;
    case N_DEVNULL: return FD_NULL;
    case N_CONSOLE: return FD_CONSOLE;
    default:        return FD_UNKNOWN;   /* treated as the console: the safe guess */
    }
}

/* Could SIGKILL to this target reach the fuzz parent? Group 0 is the
 * caller's, which may be the parent's if the child joined it. */
static bool reaches_parent(uint64_t target)
{
    int t = LOW32(target), parent = self.w->parent_pid;
    return t == 0 || t == -1 || t == parent || t == -parent;
}

/* Applies the constraints; returns true if the call may end the child. */
static bool constrain(const struct fuzz_call *c, long nr, uint64_t *a, bool in_thread)
{
    static const char newlines[NEWLINES + 1] =
        "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
        "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n";
    switch (nr) {
    case SYS_read:
        if (may_be_console(a[0]))
            a[2] = 0;
        return false;
    case SYS_write:
        /* A thread's view of the fd table may be stale (the main thread
         * closes and opens meanwhile): it writes only empty lines. */
        if (in_thread) {
            a[1] = (uintptr_t)newlines;
            a[2] = MIN(a[2], (uint64_t)NEWLINES);
        } else if (may_be_console(a[0])) {
            a[1] = bad_ptr_value(c->raw[1]);
        }
        return false;
    case SYS_kill:
        if (LOW32(a[1]) == SIGKILL && reaches_parent(a[0]))
            a[1] = SIGTERM;
        return true;
    case SYS_setpgid:
        if (LOW32(a[1]) == self.w->shell_pid)
            a[1] = NO_SUCH_PID;
        return false;
    case SYS_mmap:
        if (a[3] & FL_MAP_FIXED)
            keep_off_self(&a[0], &a[1], false);
        return false;
    case SYS_munmap:
        keep_off_self(&a[0], &a[1], true);   /* munmap of the stack must be refused */
        return false;
    case SYS_exec:
        if (c->kind[0] == N_PROGRAM) {
            /* fuzz itself, told to exit at once: an argv the kernel might
             * accept is replaced (fuzz with other arguments would fuzz). */
            int k = c->kind[1];
            if (k == V_OK || k == V_NULL || k == V_MANY || k == V_MISALIGNED) {
                char **v = (char **)self.region;
                char code[4] = { (char)('0' + c->raw[1] % 4), '\0' };
                v[0] = (char *)place_arg(0, "fuzz");
                v[1] = (char *)place_arg(1, "-e");
                v[2] = (char *)place_arg(2, code);
                v[3] = NULL;
                a[1] = (uintptr_t)v;
            }
            return true;
        }
        return c->kind[0] == N_PRIVATE || c->kind[0] == N_RELATIVE;
    case SYS_thread_create:
        if (c->kind[0] == C_OK && c->kind[1] == K_OK) {
            /* A stack no other thread runs on, and its own calls to make. */
            int i = (int)(c->raw[1] % THREAD_STACKS);
            for (int k = 0; k < THREAD_STACKS && stack_busy[i]; k++)
                i = (i + 1) % THREAD_STACKS;
            __atomic_store_n(&stack_busy[i], 1, __ATOMIC_RELAXED);
            self.pending_stack = i;
            a[1] = (uintptr_t)thread_stacks[i] + THREAD_STACK;
            a[2] = c->raw[2];
            a[3] = 1 + c->raw[3] % THREAD_CALLS;
            return false;
        }
        if (c->kind[0] == C_OK && c->kind[1] == K_REGION_END) {
            a[3] = 0;                         /* its stack is the buffers: no calls */
            return false;
        }
        return true;
    default:
        return fuzz_specs[c->spec].fate == F_MAY_END && nr != SYS_sigaction;
    }
}

/* Keeps the fd table in step with what the call did. */
static void track(const struct fuzz_call *c, long nr, const uint64_t *a, long r)
{
    if (r < 0 && nr == SYS_thread_create && self.pending_stack >= 0) {
        __atomic_store_n(&stack_busy[self.pending_stack], 0, __ATOMIC_RELAXED);
        self.pending_stack = -1;
    }
    if (r < 0)
        return;
    switch (nr) {
    case SYS_open:
        if (r < FD_SLOTS)
            self.fd[r] = (uint8_t)path_fd_kind(c->kind[0]);
        break;
    case SYS_dup:
        if (r < FD_SLOTS) {
            uint64_t src = a[0] < FD_SLOTS ? a[0] : (uint32_t)a[0];
            self.fd[r] = src < FD_SLOTS ? self.fd[src] : FD_UNKNOWN;
        }
        break;
    case SYS_close: {
        uint64_t fd = a[0] < FD_SLOTS ? a[0] : (uint32_t)a[0];
        if (fd < FD_SLOTS)
            self.fd[fd] = FD_CLOSED;
        break;
    }
    case SYS_fork:
        if (r == 0)
            exit(0);             /* the grandchild: a fork bomb is not the point */
        self.last_child = (int)r;
        break;
    case SYS_thread_create:
        self.last_thread = (int)r;
        self.pending_stack = -1;
        break;
    default:
        break;
    }
}

/* What a thread may call: file and memory calls that race with the main
 * thread's on the shared fd table and address space. */
static bool thread_call(long nr)
{
    static const long allowed[] = {
        SYS_read, SYS_write, SYS_open, SYS_close, SYS_dup, SYS_fstat, SYS_readdir,
        SYS_mmap, SYS_munmap, SYS_sbrk, SYS_yield, SYS_unlink, SYS_fork, SYS_vmctl,
        SYS_getpid, SYS_gettid, SYS_sigprocmask, SYS_sleep, SYS_procinfo, SYS_thread_join,
    };
    for (size_t i = 0; i < ARRAY_SIZE(allowed); i++)
        if (allowed[i] == nr)
            return true;
    return false;
}

#define THREAD_SALT 0x7468726561640aULL   /* a thread's calls apart from the batches' */

/* A thread of the child: `calls` calls of its own (not counted: they come
 * on top of the batch's), then it frees its stack and exits. */
static void fuzz_thread(long seed, long calls)
{
    struct fuzz_gen g;
    struct fuzz_call c;
    gen_start(&g, (uint64_t)seed, THREAD_SALT);
    for (long done = 0; done < calls; done++) {
        gen_next(&g, &c);
        long nr = fuzz_specs[c.spec].nr;
        if (!thread_call(nr))
            continue;
        uint64_t a[FUZZ_MAX_ARGS] = { 0 };
        for (int i = 0; i < FUZZ_MAX_ARGS; i++)
            a[i] = fuzz_specs[c.spec].args[i] == A_NONE ? 0 : value(&c, i, nr);
        constrain(&c, nr, a, true);
        long r = raw_syscall(nr, (long)a[0], (long)a[1], (long)a[2], (long)a[3], (long)a[4],
                             (long)a[5]);
        track(&c, nr, a, r);
    }
    uintptr_t sp = (uintptr_t)&g;
    for (int i = 0; i < THREAD_STACKS; i++)
        if (sp >= (uintptr_t)thread_stacks[i] && sp < (uintptr_t)thread_stacks[i] + THREAD_STACK)
            __atomic_store_n(&stack_busy[i], 0, __ATOMIC_RELEASE);
    thread_exit(0);          /* the stub touches no stack: the slot may be reused now */
}

static void checkpoint(const char *path, long done)
{
    char text[32];
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC);
    if (fd < 0)
        return;                  /* e.g. no memory: the parent counts it as lost */
    int n = snprintf(text, sizeof text, "%ld\n", done);
    write(fd, text, (size_t)n);
    close(fd);
}

/* One page of the ballast per call: it must hold what the child last
 * wrote there (or zero, if nothing yet), however often the memory manager
 * moved it to the disk and back meanwhile. Words per page: [0] the page's
 * stamp, [1] its complement. */
static uint8_t ballast_written[FUZZ_MAX_BALLAST_KIB * 1024 / PAGE];
static void touch_ballast(long call)
{
    if (!self.ballast_pages)
        return;
    long page = (call * BALLAST_STRIDE) % self.ballast_pages;
    uint64_t *w = self.ballast + (size_t)page * (PAGE / sizeof(uint64_t));
    uint64_t want = self.salt ^ (uint64_t)page;
    if (ballast_written[page]) {
        if (w[0] != want || w[1] != ~want) {
            printf("fuzz: pid %d: ballast page %ld holds %lx %lx, expected %lx %lx\n",
                   self.pid, page, (unsigned long)w[0], (unsigned long)w[1],
                   (unsigned long)want, (unsigned long)~want);
            exit(FUZZ_EXIT_CORRUPT);
        }
    }
    w[0] = want;
    w[1] = ~want;
    ballast_written[page] = 1;
}

static bool map_regions(long ballast_kib)
{
    long pages = ballast_kib * 1024 / (long)PAGE;
    if (pages) {
        uint64_t *b = mmap(NULL, (size_t)pages * PAGE, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
        if (ptr_error(b))
            return false;
        self.ballast = b;
        self.ballast_pages = pages;
    }
    char *r = mmap(NULL, REGION_BYTES + PAGE, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
    if (ptr_error(r))
        return false;
    if (munmap(r + REGION_BYTES, PAGE) < 0)
        return false;
    char *p = mmap(NULL, PLAY_BYTES, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
    if (ptr_error(p))
        return false;
    self.region = r;
    self.play = p;
    return true;
}

_Noreturn void run_batch(const struct fuzz_world *w, uint64_t seed, uint64_t batch,
                         long from, long to, const char *checkpoint_path, bool own_session,
                         long ballast_kib)
{
    self.w = w;
    self.pid = getpid();
    self.tid = gettid();
    self.pending_stack = -1;
    self.image_end = _end;
    uintptr_t sp = (uintptr_t)&sp;
    self.stack_low = (sp & ~(PAGE - 1)) - STACK_SPAN;
    for (int i = 0; i < FD_SLOTS; i++)
        self.fd[i] = i <= STDERR_FILENO ? FD_CONSOLE : FD_CLOSED;
    memset(self.long_path, 'a', LONG_PATH);
    self.long_path[0] = '/';
    for (int i = 0; i < ARGV_MANY - 1; i++)
        self.many_argv[i] = "fz";
    /* Own group (or session): kill(0) from here never reaches the parent
     * unless a later setpgid joins it. */
    if (own_session)
        setsid();
    else
        setpgid(0, 0);
    checkpoint(checkpoint_path, from);
    self.salt = seed ^ (batch << 32) ^ (uint64_t)self.pid;
    if (!map_regions(ballast_kib))
        exit(FUZZ_EXIT_NO_MEMORY);

    struct fuzz_gen g;
    struct fuzz_call c;
    gen_start(&g, seed, batch);
    for (long skip = 0; skip < from; skip++)
        gen_next(&g, &c);                   /* an earlier child made these */
    for (long done = from; done < to; done++) {
        gen_next(&g, &c);
        const struct fuzz_spec *s = &fuzz_specs[c.spec];
        long nr = s->nr == FUZZ_NR_BAD ? (long)(SYS_COUNT + c.raw[0] % 64) * (c.raw[1] & 1 ? 1 : -1)
                                       : s->nr;
        uint64_t a[FUZZ_MAX_ARGS] = { 0 };
        for (int i = 0; i < FUZZ_MAX_ARGS; i++)
            a[i] = s->args[i] == A_NONE ? 0 : value(&c, i, nr);
        bool may_end = constrain(&c, nr, a, false);
        if (may_end || (done > from && done % FUZZ_CHECKPOINT_EVERY == 0))
            checkpoint(checkpoint_path, done + (may_end ? 1 : 0));
        long r = raw_syscall(nr, (long)a[0], (long)a[1], (long)a[2], (long)a[3], (long)a[4],
                             (long)a[5]);
        track(&c, nr, a, r);
        for (int t = 0; t < BALLAST_TOUCHES; t++)
            touch_ballast(done * BALLAST_TOUCHES + t);
    }
    checkpoint(checkpoint_path, to);
    exit(0);
}
