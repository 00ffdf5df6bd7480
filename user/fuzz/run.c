/*
 * The child side of fuzz, part two: applies the constraints to the
 * values args.c made, makes the calls, keeps the child's state in step
 * with them, and runs its threads and its ballast.
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
 *  - sigsuspend, sigtimedwait and sigaltstack: see sigwait.c.
 *  - ulf_attach never names a real process (see there).
 */
#include "child.h"

#define GRANT_FRAMES_MAX 16

struct child self;
char thread_stacks[THREAD_STACKS][THREAD_STACK] __attribute__((aligned(16)));
int stack_busy[THREAD_STACKS];
extern char _end[];                             /* user.ld: the end of the image */

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
    case SYS_ulf_attach:
        /* Managing a child would let ulf_recv wait for it for good (a
         * child stuck in an unanswered fault sends nothing more): only
         * the refusals are made. */
        a[0] = NO_SUCH_PID;
        return false;
    case SYS_ulf_grant:
        /* A few frames, or more than the quota (refused): a child that
         * took a thousand would leave its siblings short of memory. */
        if (a[0] <= FL_ULF_FRAME_QUOTA)
            a[0] %= GRANT_FRAMES_MAX + 1;
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
    case SYS_sigsuspend:
    case SYS_sigtimedwait:
    case SYS_sigaltstack:
        return constrain_signal_wait(c, nr, a);
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
void fuzz_thread(long seed, long calls)
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
    /* The guard is a page with no access rather than a hole: mmap places
     * top-down first fit, so a later mmap of one page would take a hole
     * right below the ballast, and a long write through the region would
     * then run on into the ballast. */
    char *r = mmap(NULL, REGION_BYTES + PAGE, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
    if (ptr_error(r))
        return false;
    if (munmap(r + REGION_BYTES, PAGE) < 0)
        return false;
    char *guard = mmap(r + REGION_BYTES, PAGE, FL_PROT_NONE, FL_MAP_ANON | FL_MAP_FIXED);
    if (guard != r + REGION_BYTES)
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
