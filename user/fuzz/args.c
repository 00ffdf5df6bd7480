/*
 * The child side of fuzz, part one: turns the kinds of a generated call
 * into argument values (run.c makes the calls).
 *
 * Memory the kernel is pointed at lives in a buffer region of its own,
 * mapped with a guard page no access is allowed to right after it (run.c,
 * map_regions: a page, not a hole, so no later mmap fills it). A "valid" pointer
 * with too long a length therefore runs into the guard, never into the
 * child's own variables: the kernel may legitimately write as much as it
 * was told to, and that must not corrupt the fuzzer. For the same reason
 * mmap(MAP_FIXED) and munmap work in a play region and never reach the
 * program image, the buffers or the stack (a child that unmapped its own
 * code would die, which says nothing about the kernel).
 */
#include "child.h"

/* The first PRIVATE_NAMES are the files the children share; the others
 * are paths that should create nothing, listed in case one does. */
const char *const fuzz_names[] = { "/fz-a", "/fz-b", "/fz-c", "/fz-a/", "fz-b", "/fz-none",
                                   "/fz-none/x" };
const int fuzz_nnames = (int)ARRAY_SIZE(fuzz_names);

const uint8_t fuzz_kinds[A_CLASSES] = {
    [A_NONE] = 1,       [A_INT] = I_KINDS,   [A_PTR_IN] = P_KINDS,
    [A_PTR_OUT] = P_KINDS - 1,               /* no pointers into the child's stack */
    [A_LEN] = L_KINDS,  [A_FD] = D_KINDS,    [A_PID] = Q_KINDS,   [A_TID] = T_KINDS,
    [A_SIG] = S_KINDS,  [A_PATH] = N_KINDS,  [A_ARGV] = V_KINDS,  [A_ADDR] = M_KINDS,
    [A_MS] = Z_KINDS,   [A_CODE] = C_KINDS,  [A_STACK] = K_KINDS,
};

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
uint64_t bad_ptr_value(uint64_t raw)
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
bool may_be_console(uint64_t fd)
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
uint64_t place_arg(int i, const char *s)
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

uint64_t value(const struct fuzz_call *c, int i, long nr)
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

enum fd_kind path_fd_kind(int kind)
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

