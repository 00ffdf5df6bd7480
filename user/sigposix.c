/*
 * sigposix [-r ROUNDS] [NAME...]: in-guest tests of the signal calls
 * beyond sigtests' basics: kill(pid, 0), sigsuspend and pause (with the
 * lost wake-up a flag-and-pause loop suffers and sigsuspend does not),
 * FL_SA_SIGINFO handlers, sigaltstack (catching a stack overflow), and
 * sigtimedwait; bad arguments to each.
 *
 * Same runner as sigtests (lib/testrun.h). -r sets the round trips of the
 * two ping-pong tests (pingpong: both processes on one hart; pingpongx:
 * one on each of two harts), PINGPONG_ROUNDS by default.
 */
#include "ulib.h"
#include "testrun.h"

#define KERNEL_ADDR       0xffffffc080200000UL   /* mapped, but not for users */
#define BAD_SIG           NSIG
#define BAD_FLAGS         0x40
#define PINGPONG_ROUNDS   2000
#define MS_PER_ROUND_MAX  5        /* the runner's deadline for -r: generous */
#define SETTLE_MS         100      /* time for a child to reach its wait */
#define STUCK_MS          300      /* a child still waiting after this is stuck */
#define WAIT_MS           50       /* sigtimedwait's timeout in the timeout test */
#define TICK_MS           10       /* a timeout may end up to a tick early */
#define NS_PER_MS         1000000L
#define NS_PER_SEC        1000000000L
#define PAGE              4096UL
#define ALTSTACK_BYTES    SIGSTKSZ
#define OVERFLOW_OK       42       /* the overflow child's status when its handler ran */
#define STORE_OFFSET      8
#define LONG_MAX_DEPTH    (1L << 40)
#define MAIN_HART         0
#define OTHER_HART        1

static long rounds = PINGPONG_ROUNDS;

/* --------------------------------------------------------------- helpers */

static volatile int hits[NSIG];
static volatile struct fl_siginfo last_info;
static volatile uint64_t last_sp, handler_mask;

static void counting_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)addr; (void)f;
    hits[sig]++;
}

static void info_handler(int sig, struct fl_siginfo *info, struct fl_sigframe *f)
{
    (void)f;
    hits[sig]++;
    last_info = *info;
    uint64_t mask = 0;
    sigprocmask(SIG_BLOCK, NULL, &mask);
    handler_mask = mask;
}

static void install(int sig, sighandler_t h)
{
    expect("signal", signal(sig, h), 0);
}

static uint64_t get_mask(void)
{
    uint64_t mask = 0;
    expect("sigprocmask query", sigprocmask(SIG_BLOCK, NULL, &mask), 0);
    return mask;
}

static void set_mask(uint64_t mask)
{
    expect("sigprocmask", sigprocmask(SIG_SETMASK, &mask, NULL), 0);
}

static uint64_t pending_set(void)
{
    uint64_t set = 0;
    expect("sigpending", sigpending(&set), 0);
    return set;
}

/* Forks a child that sleeps ms, then sends sig to its parent and exits. */
static int delayed_sender(int sig, unsigned long ms, int hart)
{
    int parent = getpid();
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        if (hart >= 0)
            set_affinity(0, hart);
        sleep(ms);
        exit(kill(parent, sig) == 0 ? 0 : 1);
    }
    return pid;
}

static void reap_ok(int pid)
{
    int status = 0;
    expect("wait_pid", wait_pid(pid, &status, 0), pid);
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0, "child %d: status 0x%x", pid, status);
}

static unsigned nharts(void)
{
    struct fl_sysinfo si;
    expect("sysinfo", sysinfo(&si), 0);
    return si.nharts;
}

/* --------------------------------------------------------------- kill 0 */

static void killzero(void)
{
    install(SIGUSR1, counting_handler);
    expect("kill(self, 0)", kill(getpid(), 0), 0);
    int pid = fork();
    if (pid == 0) {
        sleep(STUCK_MS * 10);
        exit(0);
    }
    expect("kill(live child, 0)", kill(pid, 0), 0);
    expect("kill(own group, 0)", kill(0, 0), 0);
    expect("kill(-own group, 0)", kill(-getpgid(0), 0), 0);
    expect("kill(init, 0): no permission", kill(1, 0), -EPERM);
    expect("kill(child, SIGKILL)", kill(pid, SIGKILL), 0);
    int status;
    expect("reap", wait_pid(pid, &status, 0), pid);
    expect("kill(reaped child, 0)", kill(pid, 0), -ESRCH);
    expect("kill(-no such group, 0)", kill(-pid, 0), -ESRCH);
    expect("kill(self, -1)", kill(getpid(), -1), -EINVAL);
    expect("kill(self, NSIG)", kill(getpid(), BAD_SIG), -EINVAL);
    expect("no signal was sent", hits[SIGUSR1], 0);
    expect("nothing pending", (long)pending_set(), 0);
}

/* --------------------------------------------------------------- sigsuspend */

/* A signal already pending and blocked: sigsuspend lets it in, its
 * handler runs with the suspend mask (plus itself), and the old mask is
 * back after. */
static void suspendpending(void)
{
    install(SIGUSR1, counting_handler);
    expect("sigaction_info", sigaction_info(SIGUSR2, info_handler, 0, 0), 0);
    set_mask(FL_SIGMASK(SIGUSR1) | FL_SIGMASK(SIGUSR2));
    kill(getpid(), SIGUSR2);
    uint64_t wait_mask = FL_SIGMASK(SIGUSR1) | FL_SIGMASK(SIGTERM);
    expect("sigsuspend", sigsuspend(&wait_mask), -EINTR);
    expect("handler ran once", hits[SIGUSR2], 1);
    expect("handler's mask: the suspend mask and its signal", (long)handler_mask,
           (long)(wait_mask | FL_SIGMASK(SIGUSR2)));
    expect("old mask back", (long)get_mask(), (long)(FL_SIGMASK(SIGUSR1) | FL_SIGMASK(SIGUSR2)));
    expect("nothing pending", (long)pending_set(), 0);
}

/* Woken by a signal from another process; a signal the suspend mask
 * blocks does not end it and stays pending. */
static void suspendwoken(void)
{
    install(SIGUSR1, counting_handler);
    install(SIGUSR2, counting_handler);
    set_mask(FL_SIGMASK(SIGUSR1) | FL_SIGMASK(SIGUSR2));
    int a = delayed_sender(SIGUSR2, SETTLE_MS, -1);
    int b = delayed_sender(SIGUSR1, SETTLE_MS * 3, -1);
    uint64_t wait_mask = FL_SIGMASK(SIGUSR2);
    expect("sigsuspend", sigsuspend(&wait_mask), -EINTR);
    expect("SIGUSR1 handled", hits[SIGUSR1], 1);
    expect("SIGUSR2 not handled", hits[SIGUSR2], 0);
    reap_ok(a);
    reap_ok(b);
    expect("SIGUSR2 still pending", (long)pending_set(), (long)FL_SIGMASK(SIGUSR2));
    set_mask(0);
    expect("SIGUSR2 handled once unblocked", hits[SIGUSR2], 1);
}

static void pause_child(void)
{
    install(SIGUSR1, counting_handler);
    expect("pause", pause(), -EINTR);
    expect("handler ran", hits[SIGUSR1], 1);
}

static void pausetest(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        pause_child();
        exit(0);
    }
    sleep(SETTLE_MS);
    expect("kill", kill(pid, SIGUSR1), 0);
    reap_ok(pid);
}

/* A signal whose default ends the process ends a sigsuspend. */
static void suspend_term_child(void)
{
    uint64_t none = 0;
    sigsuspend(&none);
    fail("sigsuspend returned after SIGTERM");
}

static void suspenddefault(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0)
        suspend_term_child();
    sleep(SETTLE_MS);
    kill(pid, SIGTERM);
    int status = 0;
    expect("wait_pid", wait_pid(pid, &status, 0), pid);
    expect("ended by SIGTERM", FL_WTERMSIG(status), SIGTERM);
}

/* ---- the lost wake-up ---- */

static volatile int flag;

static void flag_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)sig; (void)addr; (void)f;
    flag = 1;
}

/* The flag-and-pause loop: the signal comes after the flag was looked
 * at and before pause (sent from here, so it always lands in that
 * window). Its handler sets the flag, but pause then waits for another. */
static void flag_pause_child(void)
{
    install(SIGUSR1, flag_handler);
    while (!flag) {
        kill(getpid(), SIGUSR1);      /* arrives in the window */
        pause();
    }
    exit(0);
}

/* The same with sigsuspend: the signal is blocked while the flag is
 * looked at, so it waits pending and sigsuspend takes it at once. */
static void flag_suspend_child(void)
{
    install(SIGUSR1, flag_handler);
    set_mask(FL_SIGMASK(SIGUSR1));
    uint64_t open = 0;
    while (!flag) {
        kill(getpid(), SIGUSR1);      /* arrives in the window */
        sigsuspend(&open);
    }
    exit(0);
}

static void lostwakeup(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0)
        flag_pause_child();
    sleep(STUCK_MS);
    int status = 0;
    expect("flag-and-pause: still waiting (the wake-up was lost)", wait_pid(pid, &status, WNOHANG), 0);
    kill(pid, SIGUSR1);                /* a second signal frees it */
    reap_ok(pid);

    pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0)
        flag_suspend_child();
    long start = uptime();
    while (wait_pid(pid, &status, WNOHANG) == 0) {
        CHECK(uptime() - start < STUCK_MS, "sigsuspend lost the wake-up too");
        sleep(1);
    }
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0, "status 0x%x", status);
}

/* ---- ping-pong ---- */

static volatile long pongs;

static void pong_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)sig; (void)addr; (void)f;
    pongs++;
}

/* Two processes hand SIGUSR1 back and forth, each waiting in sigsuspend
 * with it blocked otherwise: a lost wake-up would hang both (the runner
 * then ends the test). */
static void pingpong_run(int parent_hart, int child_hart)
{
    install(SIGUSR1, pong_handler);
    set_mask(FL_SIGMASK(SIGUSR1));           /* the child inherits it */
    uint64_t open = 0;
    int parent = getpid();
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        if (child_hart >= 0)
            expect("pin child", set_affinity(0, child_hart), 0);
        for (long i = 0; i < rounds; i++) {
            sigsuspend(&open);
            kill(parent, SIGUSR1);
        }
        exit(pongs == rounds ? 0 : 1);
    }
    if (parent_hart >= 0)
        expect("pin parent", set_affinity(0, parent_hart), 0);
    long start = uptime();
    for (long i = 0; i < rounds; i++) {
        kill(pid, SIGUSR1);
        sigsuspend(&open);
    }
    long ms = uptime() - start;
    expect("round trips", pongs, rounds);
    reap_ok(pid);
    printf("pingpong: %ld round trips, harts %d/%d, %ld ms\n", rounds, parent_hart, child_hart, ms);
}

static void pingpong(void)
{
    pingpong_run(MAIN_HART, MAIN_HART);
}

static void pingpongx(void)
{
    if (nharts() < 2) {
        printf("pingpongx: skipped, only 1 hart\n");
        return;
    }
    pingpong_run(MAIN_HART, OTHER_HART);
}

/* --------------------------------------------------------------- SA_SIGINFO */

static volatile uintptr_t null_addr = 0;

static void skip_info_handler(int sig, struct fl_siginfo *info, struct fl_sigframe *f)
{
    info_handler(sig, info, f);
    uint16_t low = *(volatile uint16_t *)(uintptr_t)f->regs[FL_REG_PC];
    f->regs[FL_REG_PC] += (low & 3) == 3 ? 4 : 2;
}

static void expect_info(const char *what, int sig, int code, int pid, uint64_t addr)
{
    CHECK(last_info.si_signo == sig && last_info.si_code == code && last_info.si_pid == pid &&
          last_info.si_addr == addr,
          "%s: signo %d code %d pid %d addr 0x%lx, expected %d %d %d 0x%lx", what,
          last_info.si_signo, last_info.si_code, last_info.si_pid, (unsigned long)last_info.si_addr,
          sig, code, pid, (unsigned long)addr);
}

static void siginfo_sent(void)
{
    expect("sigaction_info", sigaction_info(SIGUSR1, info_handler, 0, 0), 0);
    kill(getpid(), SIGUSR1);
    expect("handler ran", hits[SIGUSR1], 1);
    expect_info("kill", SIGUSR1, SI_USER, getpid(), 0);
    tkill(gettid(), SIGUSR1);
    expect_info("tkill", SIGUSR1, SI_TKILL, getpid(), 0);
    int pid = delayed_sender(SIGUSR1, 0, -1);
    while (hits[SIGUSR1] < 3)
        pause();
    expect_info("kill from a child", SIGUSR1, SI_USER, pid, 0);
    reap_ok(pid);
}

/* The frame (a2) is the usual one, the siginfo right above it. */
static volatile uint64_t frame_at, info_at, frame_magic;

static void where_handler(int sig, struct fl_siginfo *info, struct fl_sigframe *f)
{
    (void)sig;
    frame_at = (uintptr_t)f;
    info_at = (uintptr_t)info;
    frame_magic = f->magic;
}

static void siginfo_frame(void)
{
    expect("sigaction_info", sigaction_info(SIGUSR2, where_handler, 0, 0), 0);
    kill(getpid(), SIGUSR2);
    expect("frame magic", (long)frame_magic, (long)FL_SIGFRAME_MAGIC);
    expect("siginfo right above the frame", (long)(info_at - frame_at), (long)sizeof(struct fl_sigframe));
    expect("frame aligned", (long)(frame_at % 16), 0);
}

static void siginfo_faults(void)
{
    expect("sigaction_info", sigaction_info(SIGSEGV, skip_info_handler, 0, 0), 0);
    __asm__ volatile("sd zero, %1(%0)" :: "r"(null_addr), "i"(STORE_OFFSET) : "memory");
    expect_info("store to nothing", SIGSEGV, SEGV_MAPERR, 0, STORE_OFFSET);
    uintptr_t text = (uintptr_t)siginfo_faults;
    __asm__ volatile("sd zero, 0(%0)" :: "r"(text) : "memory");
    expect_info("store into text", SIGSEGV, SEGV_ACCERR, 0, text);
    expect("sigaction_info", sigaction_info(SIGILL, skip_info_handler, 0, 0), 0);
    uintptr_t pc;
    __asm__ volatile(".option push\n.option norvc\n"
                     "1: auipc %0, 0\n unimp\n.option pop" : "=r"(pc) :: "memory");
    expect_info("illegal instruction", SIGILL, ILL_ILLOPC, 0, pc + 4);
    expect("sigaction_info", sigaction_info(SIGBUS, skip_info_handler, 0, 0), 0);
    static uint64_t words[2];
    uintptr_t odd = (uintptr_t)words + 1;
    __asm__ volatile(".option push\n.option norvc\namoadd.w zero, zero, (%0)\n.option pop"
                     :: "r"(odd) : "memory");
    expect_info("misaligned atomic", SIGBUS, BUS_ADRALN, 0, odd);
    expect("each handler ran once", hits[SIGSEGV] + hits[SIGILL] + hits[SIGBUS], 4);
}

static void siginfo(void)
{
    siginfo_sent();
    siginfo_frame();
    siginfo_faults();
}

/* --------------------------------------------------------------- sigaltstack */

static char *altstack;

static void use_altstack(void)
{
    altstack = malloc(ALTSTACK_BYTES);
    CHECK(altstack, "malloc");
    struct fl_stack ss = { .ss_sp = (uintptr_t)altstack, .ss_size = ALTSTACK_BYTES };
    expect("sigaltstack", sigaltstack(&ss, NULL), 0);
}

static bool on_altstack(uint64_t sp)
{
    return sp > (uintptr_t)altstack && sp <= (uintptr_t)altstack + ALTSTACK_BYTES;
}

static volatile int change_rc, query_flags;

static void stack_handler(int sig, struct fl_siginfo *info, struct fl_sigframe *f)
{
    (void)info; (void)f;
    char here;
    hits[sig]++;
    last_sp = (uintptr_t)&here;
    struct fl_stack now, other = { .ss_sp = (uintptr_t)altstack, .ss_size = ALTSTACK_BYTES };
    sigaltstack(NULL, &now);
    query_flags = now.ss_flags;
    change_rc = sigaltstack(&other, NULL);
}

static void altstackuse(void)
{
    struct fl_stack old;
    expect("query", sigaltstack(NULL, &old), 0);
    expect("none at first", old.ss_flags, SS_DISABLE);
    use_altstack();
    expect("query", sigaltstack(NULL, &old), 0);
    CHECK(old.ss_flags == 0 && old.ss_sp == (uintptr_t)altstack && old.ss_size == ALTSTACK_BYTES,
          "query: flags %d sp 0x%lx size %lu", old.ss_flags, (unsigned long)old.ss_sp,
          (unsigned long)old.ss_size);
    expect("SA_ONSTACK", sigaction_info(SIGUSR1, stack_handler, 0, FL_SA_ONSTACK), 0);
    kill(getpid(), SIGUSR1);
    expect("handler ran", hits[SIGUSR1], 1);
    CHECK(on_altstack(last_sp), "handler ran at sp 0x%lx, not on the alternate stack",
          (unsigned long)last_sp);
    expect("flags inside: SS_ONSTACK", query_flags, SS_ONSTACK);
    expect("no change while on it", change_rc, -EPERM);
    expect("without SA_ONSTACK", sigaction_info(SIGUSR2, stack_handler, 0, 0), 0);
    kill(getpid(), SIGUSR2);
    CHECK(!on_altstack(last_sp), "a handler without SA_ONSTACK ran on the alternate stack");
    expect("flags outside", query_flags, 0);
    struct fl_stack off = { .ss_flags = SS_DISABLE };
    expect("disable", sigaltstack(&off, &old), 0);
    expect("old: the stack", (long)old.ss_sp, (long)(uintptr_t)altstack);
    kill(getpid(), SIGUSR1);
    CHECK(!on_altstack(last_sp), "a disabled alternate stack was used");
}

/* ---- a stack overflow caught on the alternate stack ---- */

static volatile uint64_t deepest;
static volatile long depth_limit = LONG_MAX_DEPTH;   /* never reached: the stack ends first */

static long recurse(long n)
{
    volatile char pad[256];
    pad[0] = (char)n;
    deepest = (uintptr_t)pad;
    if (n >= depth_limit)
        return n;
    return recurse(n + 1) + pad[0];
}

static void overflow_handler(int sig, struct fl_siginfo *info, struct fl_sigframe *f)
{
    char here;
    /* The fault is just below the deepest frame the recursion reached. */
    uint64_t sp = f->regs[FL_REG_SP];
    bool ok = sig == SIGSEGV && info->si_signo == SIGSEGV && info->si_code == SEGV_MAPERR &&
              info->si_addr < deepest && deepest - info->si_addr <= PAGE &&
              info->si_addr >= sp - PAGE && on_altstack((uintptr_t)&here);
    printf("overflow: caught at 0x%lx, sp 0x%lx, code %d\n", (unsigned long)info->si_addr,
           (unsigned long)sp, info->si_code);
    exit(ok ? OVERFLOW_OK : 1);
}

static void overflow_child(void)
{
    use_altstack();
    expect("handler", sigaction_info(SIGSEGV, overflow_handler, 0, FL_SA_ONSTACK), 0);
    recurse(0);
}

static void overflow_unprotected_child(void)
{
    expect("handler", sigaction_info(SIGSEGV, overflow_handler, 0, 0), 0);
    recurse(0);
}

static void stackoverflow(void)
{
    int status = status_of_child(overflow_child);
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == OVERFLOW_OK,
          "overflow child: status 0x%x", status);
    /* Without the alternate stack the handler has nowhere to run. */
    expect_killed("overflow without sigaltstack", overflow_unprotected_child, SIGSEGV);
}

static void inherit_child(void)
{
    struct fl_stack old;
    expect("query in the child", sigaltstack(NULL, &old), 0);
    expect("inherited by fork", (long)old.ss_sp, (long)(uintptr_t)altstack);
}

static long thread_query(void *arg)
{
    (void)arg;
    struct fl_stack old;
    return sigaltstack(NULL, &old) == 0 && old.ss_flags == SS_DISABLE ? 0 : 1;
}

static void altstackinherit(void)
{
    use_altstack();
    int status = status_of_child(inherit_child);
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0, "fork child: 0x%x", status);
    int tid = thread_create(thread_query, NULL);
    CHECK(tid > 0, "thread_create");
    long value = -1;
    expect("join", thread_join(tid, &value), 0);
    expect("a new thread has none", value, 0);
}

/* --------------------------------------------------------------- sigtimedwait */

static void timedwaittake(void)
{
    install(SIGUSR1, counting_handler);
    set_mask(FL_SIGMASK(SIGUSR1));
    kill(getpid(), SIGUSR1);
    uint64_t set = FL_SIGMASK(SIGUSR1);
    struct fl_siginfo info;
    expect("sigtimedwait", sigtimedwait(&set, &info, NULL), SIGUSR1);
    CHECK(info.si_signo == SIGUSR1 && info.si_code == SI_USER && info.si_pid == getpid(),
          "info: %d %d %d", info.si_signo, info.si_code, info.si_pid);
    expect("no handler ran", hits[SIGUSR1], 0);
    expect("taken off the pending set", (long)pending_set(), 0);
    tkill(gettid(), SIGUSR1);
    expect("NULL info", sigtimedwait(&set, NULL, NULL), SIGUSR1);
    /* from another process, while waiting */
    int pid = delayed_sender(SIGUSR1, SETTLE_MS, -1);
    expect("woken by another process", sigtimedwait(&set, &info, NULL), SIGUSR1);
    expect("sender", info.si_pid, pid);
    reap_ok(pid);
    if (nharts() > 1) {
        expect("pin", set_affinity(0, MAIN_HART), 0);
        pid = delayed_sender(SIGUSR1, SETTLE_MS, OTHER_HART);
        expect("woken from the other hart", sigtimedwait(&set, &info, NULL), SIGUSR1);
        expect("sender", info.si_pid, pid);
        reap_ok(pid);
    }
    expect("no handler ran", hits[SIGUSR1], 0);
}

static void timedwaittimeout(void)
{
    uint64_t set = FL_SIGMASK(SIGUSR1);
    set_mask(set);
    struct fl_timespec zero = { 0, 0 }, some = { 0, WAIT_MS * NS_PER_MS };
    expect("poll", sigtimedwait(&set, NULL, &zero), -EAGAIN);
    long start = uptime();
    expect("timeout", sigtimedwait(&set, NULL, &some), -EAGAIN);
    long waited = uptime() - start;
    CHECK(waited >= WAIT_MS - TICK_MS, "returned after %ld ms of %d", waited, WAIT_MS);
    /* a signal within the timeout */
    int pid = delayed_sender(SIGUSR1, SETTLE_MS, -1);
    struct fl_timespec long_enough = { 30, 0 };
    expect("signal before the timeout", sigtimedwait(&set, NULL, &long_enough), SIGUSR1);
    reap_ok(pid);
    /* SIGKILL is never waited for */
    uint64_t kill_set = FL_SIGMASK(SIGKILL);
    expect("SIGKILL not in the set", sigtimedwait(&kill_set, NULL, &zero), -EAGAIN);
}

/* A handled signal outside the set ends the wait with -EINTR. */
static void timedwaitintr(void)
{
    install(SIGUSR2, counting_handler);
    uint64_t set = FL_SIGMASK(SIGUSR1);
    set_mask(set);
    int pid = delayed_sender(SIGUSR2, SETTLE_MS, -1);
    expect("interrupted", sigtimedwait(&set, NULL, NULL), -EINTR);
    expect("its handler ran", hits[SIGUSR2], 1);
    reap_ok(pid);
}

/* A process-directed signal every thread blocks goes to the thread
 * waiting for it. */
static long waiter_thread(void *arg)
{
    (void)arg;
    uint64_t set = FL_SIGMASK(SIGUSR1);
    return sigtimedwait(&set, NULL, NULL);
}

static void timedwaitthread(void)
{
    set_mask(FL_SIGMASK(SIGUSR1));
    int tid = thread_create(waiter_thread, NULL);
    CHECK(tid > 0, "thread_create");
    sleep(SETTLE_MS);
    kill(getpid(), SIGUSR1);
    long value = 0;
    expect("join", thread_join(tid, &value), 0);
    expect("the waiting thread took it", value, SIGUSR1);
}

/* --------------------------------------------------------------- bad input */

static void badinputs(void)
{
    uint64_t mask = get_mask();
    expect("sigsuspend NULL", sigsuspend(NULL), -EFAULT);
    expect("sigsuspend kernel", sigsuspend((void *)KERNEL_ADDR), -EFAULT);
    expect("mask unchanged", (long)get_mask(), (long)mask);

    struct fl_stack ss = { .ss_sp = (uintptr_t)malloc(SIGSTKSZ), .ss_size = MINSIGSTKSZ - 1 };
    expect("stack too small", sigaltstack(&ss, NULL), -ENOMEM);
    ss.ss_size = SIGSTKSZ;
    ss.ss_flags = BAD_FLAGS;
    expect("bad flags", sigaltstack(&ss, NULL), -EINVAL);
    ss.ss_flags = 0;
    expect("ss in the kernel", sigaltstack((void *)KERNEL_ADDR, NULL), -EFAULT);
    expect("old in the kernel", sigaltstack(&ss, (void *)KERNEL_ADDR), -EFAULT);
    struct fl_stack old;
    expect("query", sigaltstack(NULL, &old), 0);
    expect("nothing set by the failures", old.ss_flags, SS_DISABLE);
    struct fl_stack kstack = { .ss_sp = KERNEL_ADDR, .ss_size = SIGSTKSZ };
    expect("stack in the kernel", sigaltstack(&kstack, NULL), -EFAULT);
    struct fl_stack huge = { .ss_sp = ss.ss_sp, .ss_size = ~0UL };
    expect("stack past the top", sigaltstack(&huge, NULL), -EFAULT);

    uint64_t set = FL_SIGMASK(SIGUSR1);
    struct fl_timespec zero = { 0, 0 }, bad_ns = { 0, NS_PER_SEC }, neg = { -1, 0 },
                       neg_ns = { 0, -1 };
    expect("set NULL", sigtimedwait(NULL, NULL, &zero), -EFAULT);
    expect("set kernel", sigtimedwait((void *)KERNEL_ADDR, NULL, &zero), -EFAULT);
    expect("timeout kernel", sigtimedwait(&set, NULL, (void *)KERNEL_ADDR), -EFAULT);
    expect("nsec too big", sigtimedwait(&set, NULL, &bad_ns), -EINVAL);
    expect("sec negative", sigtimedwait(&set, NULL, &neg), -EINVAL);
    expect("nsec negative", sigtimedwait(&set, NULL, &neg_ns), -EINVAL);
    /* A signal whose info cannot be written stays pending. */
    set_mask(set);
    kill(getpid(), SIGUSR1);
    expect("info kernel", sigtimedwait(&set, (void *)KERNEL_ADDR, &zero), -EFAULT);
    void *gone = mmap(NULL, PAGE, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
    CHECK(!ptr_error(gone), "mmap");
    expect("munmap", munmap(gone, PAGE), 0);
    expect("info unmapped", sigtimedwait(&set, gone, &zero), -EFAULT);
    expect("still pending", (long)pending_set(), (long)set);
    expect("then taken", sigtimedwait(&set, NULL, &zero), SIGUSR1);

    struct fl_sigaction act = { .handler = (uintptr_t)counting_handler,
                                .restorer = (uintptr_t)__sigreturn_trampoline,
                                .flags = 0x100 };
    expect("unknown sigaction flag", sigaction(SIGUSR1, &act, NULL), -EINVAL);
}

/* ------------------------------------------------------------- runner */

static const struct test tests[] = {
    TEST(killzero),      TEST(suspendpending), TEST(suspendwoken),  TEST(pausetest),
    TEST(suspenddefault), TEST(lostwakeup),    TEST(pingpong),      TEST(pingpongx),
    TEST(siginfo),       TEST(altstackuse),    TEST(stackoverflow), TEST(altstackinherit),
    TEST(timedwaittake), TEST(timedwaittimeout), TEST(timedwaitintr), TEST(timedwaitthread),
    TEST(badinputs),
};

int main(int argc, char *argv[])
{
    current_test = "sigposix";
    if (argc > 2 && strcmp(argv[1], "-r") == 0) {
        char *end;
        rounds = (long)strtoul(argv[2], &end, 10);
        if (*end || rounds <= 0) {
            fprintf(2, "usage: sigposix [-r ROUNDS] [NAME...]\n");
            return 2;
        }
        long deadline = rounds * MS_PER_ROUND_MAX;
        if (deadline > test_timeout_ms)
            test_timeout_ms = deadline;
        argc -= 2;
        argv += 2;
    }
    printf("sigposix starting\n");
    return tests_summary(run_tests(tests, ARRAY_SIZE(tests), argc, argv));
}
