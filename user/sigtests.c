/*
 * sigtests [NAME...]: in-guest tests of signals (sigaction, sigprocmask,
 * sigpending, kill, tkill, sigreturn, fault signals, cross-hart delivery).
 *
 * Same runner as usertests (lib/testrun.h): each test runs in a forked
 * child, reporting "NAME: OK" or "NAME: FAILED why". The last line is
 * "ALL TESTS PASSED" or "SOME TESTS FAILED". Tests that expect a process
 * to be killed fork a grandchild and look at its wait status.
 */
#include "ulib.h"
#include "testrun.h"
#include "sigregs.h"

#define KERNEL_ADDR       0xffffffc080200000UL   /* mapped, but not for users */
#define BELOW_USER_BASE   0x100UL                /* never mapped: not a handler */
#define BOGUS_ID          1000000
#define BAD_FLAGS         0x80000000u
#define BAD_HOW           7
#define FRAME_PAGE_BYTES  4096     /* one page of heap for a frame */

#define POLL_MS           10       /* while waiting for the spinner to start */
#define SETTLE_MS         200      /* time for a child to reach its wait */
#define LONG_SLEEP_MS     30000    /* far longer than any test should take */
#define EINTR_DEADLINE_MS 10000
#define SPIN_HART         1
#define MAIN_HART         0
#define COMPRESSED_LEN    2        /* an instruction whose low bits are not 11 */
#define FULL_LEN          4
#define INSN_LOW_BITS     3

static void install(int sig, sighandler_t h)
{
    expect("signal", signal(sig, h), 0);
}

static void install_flags(int sig, sighandler_t h, uint64_t mask, uint32_t flags)
{
    struct fl_sigaction act = {
        .handler = (uint64_t)(uintptr_t)h,
        .restorer = (uint64_t)(uintptr_t)__sigreturn_trampoline,
        .mask = mask,
        .flags = flags,
    };
    expect("sigaction", sigaction(sig, &act, NULL), 0);
}

static uint64_t pending_set(void)
{
    uint64_t set = 0;
    expect("sigpending", sigpending(&set), 0);
    return set;
}

static void set_mask(int how, uint64_t set)
{
    expect("sigprocmask", sigprocmask(how, &set, NULL), 0);
}

/* --------------------------------------------------------------- handlers */

static volatile int hits[NSIG];
static volatile uint64_t last_addr;
static volatile int depth, max_depth;

static void counting_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)f;
    hits[sig]++;
    last_addr = addr;
}

/* Length of the instruction at pc: 2 for a compressed one, else 4. */
static uint64_t insn_len(uint64_t pc)
{
    uint16_t low = *(volatile uint16_t *)(uintptr_t)pc;
    return (low & INSN_LOW_BITS) == INSN_LOW_BITS ? FULL_LEN : COMPRESSED_LEN;
}

/* Counts, then resumes after the faulting instruction. */
static void skipping_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    hits[sig]++;
    last_addr = addr;
    f->regs[FL_REG_PC] += insn_len(f->regs[FL_REG_PC]);
}

/* A load from address 0 in assembly: in C the compiler may turn a known
 * NULL dereference into a breakpoint instead. */
static volatile uintptr_t null_addr = 0;

static void null_load(void)
{
    uint64_t value;
    __asm__ volatile("ld %0, 0(%1)" : "=r"(value) : "r"(null_addr) : "memory");
    (void)value;
}

static void illegal_insn(void)
{
    __asm__ volatile(".option push\n.option norvc\nunimp\n.option pop" ::: "memory");
}

/* ------------------------------------------------------------------ tests */

static void selfsignal(void)
{
    install(SIGUSR1, counting_handler);
    expect("kill self", kill(getpid(), SIGUSR1), 0);
    expect("handler ran once, before kill returned", hits[SIGUSR1], 1);
    install(SIGUSR2, counting_handler);
    expect("tkill self", tkill(gettid(), SIGUSR2), 0);
    expect("thread-directed handler ran", hits[SIGUSR2], 1);
    expect("addr of a non-fault signal", (long)last_addr, 0);
    expect("nothing left pending", (long)pending_set(), 0);
}

static void masking(void)
{
    install(SIGUSR1, counting_handler);
    set_mask(SIG_BLOCK, FL_SIGMASK(SIGUSR1));
    expect("kill self", kill(getpid(), SIGUSR1), 0);
    expect("blocked: handler not run", hits[SIGUSR1], 0);
    CHECK(pending_set() & FL_SIGMASK(SIGUSR1), "SIGUSR1 not pending while blocked");
    set_mask(SIG_UNBLOCK, FL_SIGMASK(SIGUSR1));
    expect("delivered on unblock", hits[SIGUSR1], 1);
    expect("pending after delivery", (long)pending_set(), 0);
    uint64_t old = 0;
    expect("sigprocmask query", sigprocmask(SIG_BLOCK, NULL, &old), 0);
    expect("mask restored", (long)old, 0);
}

static void pendingtest(void)
{
    install(SIGUSR1, counting_handler);
    install(SIGUSR2, counting_handler);
    set_mask(SIG_SETMASK, FL_SIGMASK(SIGUSR1) | FL_SIGMASK(SIGUSR2));
    kill(getpid(), SIGUSR1);          /* to the process */
    tkill(gettid(), SIGUSR2);         /* to this thread */
    expect("both pending", (long)pending_set(), (long)(FL_SIGMASK(SIGUSR1) | FL_SIGMASK(SIGUSR2)));
    set_mask(SIG_SETMASK, 0);
    expect("SIGUSR1 delivered", hits[SIGUSR1], 1);
    expect("SIGUSR2 delivered", hits[SIGUSR2], 1);
    expect("none pending", (long)pending_set(), 0);
}

static volatile int usr2_saw_depth;

static void outer_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)addr; (void)f;
    hits[sig]++;
    depth++;
    if (depth > max_depth)
        max_depth = depth;
    if (hits[sig] == 1) {
        kill(getpid(), SIGUSR2);      /* another signal: runs nested, now */
        kill(getpid(), SIGUSR1);      /* the same one: deferred to after we return */
        if (hits[SIGUSR1] != 1)
            usr2_saw_depth = -1;      /* marks "ran nested although blocked" */
    }
    depth--;
}

static void inner_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)addr; (void)f;
    hits[sig]++;
    if (usr2_saw_depth == 0)
        usr2_saw_depth = depth + 1;
}

static void nested(void)
{
    install(SIGUSR1, outer_handler);
    install(SIGUSR2, inner_handler);
    kill(getpid(), SIGUSR1);
    expect("SIGUSR2 ran", hits[SIGUSR2], 1);
    expect("SIGUSR2 ran inside the SIGUSR1 handler (depth)", usr2_saw_depth, 2);
    expect("SIGUSR1 ran twice, the second after the first returned", hits[SIGUSR1], 2);
    expect("SIGUSR1 handler never nested in itself", max_depth, 1);
}

static void nodefer_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)addr; (void)f;
    hits[sig]++;
    depth++;
    if (depth > max_depth)
        max_depth = depth;
    if (hits[sig] == 1)
        kill(getpid(), sig);
    depth--;
}

static void nodefer(void)
{
    install_flags(SIGUSR1, nodefer_handler, 0, FL_SA_NODEFER);
    kill(getpid(), SIGUSR1);
    expect("ran twice", hits[SIGUSR1], 2);
    expect("NODEFER: nested in itself", max_depth, 2);
}

static void resethand(void)
{
    install_flags(SIGUSR1, counting_handler, 0, FL_SA_RESETHAND);
    kill(getpid(), SIGUSR1);
    expect("handler ran", hits[SIGUSR1], 1);
    struct fl_sigaction old;
    expect("sigaction query", sigaction(SIGUSR1, NULL, &old), 0);
    expect("back to SIG_DFL", (long)old.handler, SIG_DFL);
}

static void send_sigterm(void) { kill(getpid(), SIGTERM); fail("survived SIGTERM"); }

static void defaults(void)
{
    expect_killed("default SIGTERM", send_sigterm, SIGTERM);
    expect("SIGCHLD default: ignored", kill(getpid(), SIGCHLD), 0);
    expect("SIG_IGN", signal(SIGUSR1, SIG_IGN_HANDLER), 0);
    expect("ignored SIGUSR1", kill(getpid(), SIGUSR1), 0);
    expect("ignored signals do not stay pending", (long)pending_set(), 0);
}

static void segvcatch(void)
{
    install(SIGSEGV, skipping_handler);
    null_load();
    expect("SIGSEGV handler ran", hits[SIGSEGV], 1);
    expect("fault address", (long)last_addr, 0);
    null_load();
    expect("and again (mask restored by sigreturn)", hits[SIGSEGV], 2);
}

static void illcatch(void)
{
    install(SIGILL, skipping_handler);
    illegal_insn();
    expect("SIGILL handler ran", hits[SIGILL], 1);
}

/* Each kind of trap the kernel decodes reaches its signal, with the
 * address the hardware reported. */
static void trapcatch(void)
{
    install(SIGTRAP, skipping_handler);
    __asm__ volatile("ebreak" ::: "memory");
    expect("SIGTRAP handler ran for a breakpoint", hits[SIGTRAP], 1);
}

#define STORE_OFFSET 8   /* stored to NULL + this: the fault address says where */

static void storecatch(void)
{
    install(SIGSEGV, skipping_handler);
    /* a store where nothing is mapped: a store page fault */
    __asm__ volatile("sd zero, %1(%0)" :: "r"(null_addr), "i"(STORE_OFFSET) : "memory");
    expect("SIGSEGV handler ran for a store", hits[SIGSEGV], 1);
    expect("store fault address", (long)last_addr, STORE_OFFSET);
    /* a store into the program's own text, mapped but not writable */
    uintptr_t text = (uintptr_t)storecatch;
    __asm__ volatile("sd zero, 0(%0)" :: "r"(text) : "memory");
    expect("SIGSEGV handler ran for a store into text", hits[SIGSEGV], 2);
    expect("text fault address", (long)last_addr, (long)text);
}

/* Back to the caller of the function that could not be fetched. */
static void returning_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    hits[sig]++;
    last_addr = addr;
    f->regs[FL_REG_PC] = f->regs[FL_REG_RA];
}

static void execcatch(void)
{
    install(SIGSEGV, returning_handler);
    /* a call to where nothing is mapped: an instruction page fault */
    void (*volatile nowhere)(void) = (void (*)(void))BELOW_USER_BASE;
    nowhere();
    expect("SIGSEGV handler ran for a fetch", hits[SIGSEGV], 1);
    expect("fetch fault address", (long)last_addr, (long)BELOW_USER_BASE);
}

static void faulting_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)sig; (void)addr; (void)f;
    null_load();
}

static void fault_in_handler_child(void)
{
    install(SIGSEGV, faulting_handler);
    null_load();
    fail("survived a fault inside its SIGSEGV handler");
}

static void faultinhandler(void)
{
    expect_killed("fault in handler", fault_in_handler_child, SIGSEGV);
}

static void scribbling_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)sig; (void)addr;
    f->magic = 0;
}

static void bad_frame_child(void)
{
    install(SIGUSR1, scribbling_handler);
    kill(getpid(), SIGUSR1);
    fail("survived a corrupted signal frame");
}

static void badframe(void)
{
    expect_killed("corrupted frame", bad_frame_child, SIGSEGV);
}

/* ---- sigreturn checks a frame the handler changed ---- */

static volatile uint64_t frame_pc;

static void pc_setting_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)sig; (void)addr;
    f->regs[FL_REG_PC] = frame_pc;
}

static void bad_pc_child(void)
{
    install(SIGUSR1, pc_setting_handler);
    kill(getpid(), SIGUSR1);
    fail("survived a frame whose pc is not a user address");
}

static void badpc(void)
{
    frame_pc = KERNEL_ADDR;
    expect_killed("kernel pc in the frame", bad_pc_child, SIGSEGV);
    frame_pc = BELOW_USER_BASE;
    expect_killed("pc below user space in the frame", bad_pc_child, SIGSEGV);
}

/* The mask comes back from the frame, SIGKILL dropped from it. */
static void mask_setting_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)addr;
    hits[sig]++;
    f->blocked = FL_SIGMASK(SIGUSR2) | FL_SIGMASK(SIGKILL);
}

static void framemask(void)
{
    install(SIGUSR1, mask_setting_handler);
    install(SIGUSR2, counting_handler);
    kill(getpid(), SIGUSR1);
    expect("handler ran", hits[SIGUSR1], 1);
    uint64_t mask = 0;
    expect("sigprocmask query", sigprocmask(SIG_BLOCK, NULL, &mask), 0);
    expect("the frame's mask, without SIGKILL", (long)mask, (long)FL_SIGMASK(SIGUSR2));
    kill(getpid(), SIGUSR2);
    expect("blocked by the restored mask", hits[SIGUSR2], 0);
    set_mask(SIG_SETMASK, 0);
    expect("delivered on unblock", hits[SIGUSR2], 1);
}

/* sigreturn with sp at `at`, as if a handler had returned there. */
static _Noreturn void sigreturn_at(uint64_t at)
{
    register uint64_t nr __asm__("a7") = SYS_sigreturn;
    __asm__ volatile("mv sp, %0\n\tecall" : : "r"(at), "r"(nr) : "memory");
    __builtin_unreachable();
}

static void unmapped_frame_child(void)
{
    sigreturn_at(BELOW_USER_BASE);      /* never mapped: the frame cannot be read */
}

/* A fresh heap page is demand-zero: reading the frame faults it in, and
 * then finds no magic. */
static void zero_frame_child(void)
{
    char *page = sbrk(FRAME_PAGE_BYTES);
    if (ptr_error(page))
        fail("sbrk");
    sigreturn_at((uint64_t)(uintptr_t)page);
}

static void frameaddr(void)
{
    expect_killed("frame at an unmapped address", unmapped_frame_child, SIGSEGV);
    expect_killed("frame on a demand-zero page", zero_frame_child, SIGSEGV);
}

/* ---- cross-hart delivery ---- */

static volatile int spinner_ready, spinner_done, handler_hart = -1, handler_tid;

static void cross_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)sig; (void)addr; (void)f;
    handler_hart = gethart();
    handler_tid = gettid();
    spinner_done = 1;
}

static long spinner(void *arg)
{
    (void)arg;
    if (set_affinity(0, SPIN_HART) < 0 || gethart() != SPIN_HART)
        return -1;
    spinner_ready = 1;
    while (!spinner_done)
        ;                              /* in user mode: only an interrupt gets in */
    return 0;
}

static void crossharts(void)
{
    struct fl_sysinfo si;
    expect("sysinfo", sysinfo(&si), 0);
    if (si.nharts < 2) {
        printf("crossharts: skipped, only %u hart\n", si.nharts);
        return;
    }
    install(SIGUSR1, cross_handler);
    expect("pin to hart 0", set_affinity(0, MAIN_HART), 0);
    int tid = thread_create(spinner, NULL);
    CHECK(tid > 0, "thread_create: %s", strerror(tid));
    long start = uptime();
    while (!spinner_ready) {
        CHECK(uptime() - start < EINTR_DEADLINE_MS, "spinner never started on hart %d", SPIN_HART);
        sleep(POLL_MS);
    }
    expect("tkill", tkill(tid, SIGUSR1), 0);
    long value = 0;
    expect("join", thread_join(tid, &value), 0);
    expect("spinner result", value, 0);
    expect("handler ran on the spinner's hart", handler_hart, SPIN_HART);
    expect("handler ran in the spinner", handler_tid, tid);
}

/* ---- interrupted waits ---- */

static void sleeping_child(void)
{
    int r = sleep(LONG_SLEEP_MS);
    expect("sleep interrupted", r, -EINTR);
    expect("handler ran", hits[SIGUSR1], 1);
}

/* A console read blocks whatever was typed ahead: the child leaves the
 * foreground group first, and a reader outside it waits until its group
 * is in the foreground (it may not take the foreground's input). So the
 * read blocks, and leaves alone, anything the user or a test typed. */
static void reading_child(void)
{
    char c;
    expect("setpgid", setpgid(0, 0), 0);
    int fg = tcgetpgrp(STDIN_FILENO);
    CHECK(fg > 0 && fg != getpgid(0), "console foreground is %d: the read would not block", fg);
    long r = read(STDIN_FILENO, &c, 1);
    expect("read interrupted", r, -EINTR);
    expect("handler ran", hits[SIGUSR1], 1);
}

static void waiting_child(void)
{
    int pid = fork();
    if (pid == 0) {
        sleep(LONG_SLEEP_MS);
        exit(0);
    }
    int r = wait_pid(pid, NULL, 0);
    kill(pid, SIGKILL);
    wait_pid(pid, NULL, 0);
    expect("wait interrupted", r, -EINTR);
    expect("handler ran", hits[SIGUSR1], 1);
}

/* Forks a child running fn (the handler is inherited), signals it once it
 * had time to block, and checks it finished well before its wait would. */
static void interrupt_child(void (*fn)(void), const char *what)
{
    install(SIGUSR1, counting_handler);
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        current_test = what;
        fn();
        exit(0);
    }
    sleep(SETTLE_MS);
    long start = uptime();
    expect("kill", kill(pid, SIGUSR1), 0);
    int status;
    expect("wait_pid", wait_pid(pid, &status, 0), pid);
    CHECK(uptime() - start < EINTR_DEADLINE_MS, "%s: took %ld ms", what, uptime() - start);
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0, "%s: status 0x%x", what, status);
}

static void eintr(void)
{
    interrupt_child(sleeping_child, "eintr(sleep)");
    interrupt_child(reading_child, "eintr(read)");
    interrupt_child(waiting_child, "eintr(wait)");
}

/* ---- every register survives a handler ---- */

static void allregs(void)
{
    install(SIGILL, skipping_handler);
    uint64_t out[SIGREGS_NREGS];
    sigregs_run(out);
    expect("SIGILL handler ran", hits[SIGILL], 1);
    for (int n = 1; n < SIGREGS_NREGS; n++) {
        uint64_t want = n == FL_REG_SP ? sigregs_sp_before : (uint64_t)SIGREGS_PATTERN(n);
        CHECK(out[n] == want, "x%d: 0x%lx, expected 0x%lx", n, (unsigned long)out[n],
              (unsigned long)want);
    }
}

/* ---- every register survives a system call, and a signal taken on
 * its way out: most calls save only the registers the kernel's C code
 * may change, and the rest into the signal frame only when one is
 * delivered (docs/architecture.md, the light save) ---- */

static const int callee_saved[] = { 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27 };   /* s1..s11 */
static volatile int frame_reg_wrong;

/* Counts, and checks that the frame holds the callee-saved registers the
 * interrupted code had. */
static void frame_checking_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)addr;
    hits[sig]++;
    for (unsigned i = 0; i < sizeof callee_saved / sizeof callee_saved[0]; i++) {
        int n = callee_saved[i];
        if (f->regs[n] != (uint64_t)SIGREGS_PATTERN(n))
            frame_reg_wrong = n;
    }
}

/* out[] after sigregs_syscall(out, nr, arg0, arg1): every register as it
 * was but a0, the result. */
static void check_regs_after_call(const char *what, const uint64_t *out, long nr, long arg1)
{
    for (int n = 1; n < SIGREGS_NREGS; n++) {
        if (n == FL_REG_A0)
            continue;
        uint64_t want = n == FL_REG_SP ? sigregs_sp_before
                      : n == FL_REG_A1 ? (uint64_t)arg1
                      : n == FL_REG_A7 ? (uint64_t)nr
                      : (uint64_t)SIGREGS_PATTERN(n);
        CHECK(out[n] == want, "%s: x%d: 0x%lx, expected 0x%lx", what, n, (unsigned long)out[n],
              (unsigned long)want);
    }
}

static void allregs_syscall(void)
{
    uint64_t out[SIGREGS_NREGS];
    sigregs_syscall(out, SYS_nop, 0, 0);
    expect("nop's result", (long)out[FL_REG_A0], 0);
    check_regs_after_call("nop", out, SYS_nop, 0);

    install(SIGUSR1, frame_checking_handler);
    int before = hits[SIGUSR1];
    frame_reg_wrong = 0;
    sigregs_syscall(out, SYS_tkill, gettid(), SIGUSR1);
    expect("handler ran on the way out of tkill", hits[SIGUSR1] - before, 1);
    expect("first callee-saved register wrong in the frame", frame_reg_wrong, 0);
    expect("tkill's result", (long)out[FL_REG_A0], 0);
    check_regs_after_call("tkill + handler", out, SYS_tkill, SIGUSR1);
}

/* ---- bad inputs ---- */

static void badinputs(void)
{
    struct fl_sigaction good = {
        .handler = (uint64_t)(uintptr_t)counting_handler,
        .restorer = (uint64_t)(uintptr_t)__sigreturn_trampoline,
    };
    struct fl_sigaction a = good;
    expect("sig 0", sigaction(0, &good, NULL), -EINVAL);
    expect("sig NSIG", sigaction(NSIG, &good, NULL), -EINVAL);
    expect("sig -1", sigaction(-1, &good, NULL), -EINVAL);
    expect("catch SIGKILL", sigaction(SIGKILL, &good, NULL), -EINVAL);
    a.handler = SIG_IGN;
    expect("ignore SIGKILL", sigaction(SIGKILL, &a, NULL), -EINVAL);
    a = good;
    a.handler = BELOW_USER_BASE;
    expect("handler below user space", sigaction(SIGUSR1, &a, NULL), -EFAULT);
    a.handler = KERNEL_ADDR;
    expect("kernel handler", sigaction(SIGUSR1, &a, NULL), -EFAULT);
    a = good;
    a.restorer = KERNEL_ADDR;
    expect("kernel restorer", sigaction(SIGUSR1, &a, NULL), -EFAULT);
    a = good;
    a.flags = BAD_FLAGS;
    expect("unknown flags", sigaction(SIGUSR1, &a, NULL), -EINVAL);
    expect("act in kernel", sigaction(SIGUSR1, (void *)KERNEL_ADDR, NULL), -EFAULT);
    expect("old in kernel", sigaction(SIGUSR1, NULL, (void *)KERNEL_ADDR), -EFAULT);
    expect("old at NULL", sigaction(SIGUSR1, &good, (void *)0), 0);
    uint64_t set = FL_SIGMASK(SIGUSR1);
    expect("bad how", sigprocmask(BAD_HOW, &set, NULL), -EINVAL);
    expect("set in kernel", sigprocmask(SIG_BLOCK, (void *)KERNEL_ADDR, NULL), -EFAULT);
    expect("old mask in kernel", sigprocmask(SIG_BLOCK, &set, (void *)KERNEL_ADDR), -EFAULT);
    uint64_t old = 0;
    expect("mask unchanged by the failures", sigprocmask(SIG_BLOCK, NULL, &old), 0);
    expect("mask", (long)old, 0);
    expect("sigpending kernel", sigpending((void *)KERNEL_ADDR), -EFAULT);
    expect("sigpending NULL", sigpending(NULL), -EFAULT);
    expect("tkill bogus tid", tkill(BOGUS_ID, SIGUSR1), -ESRCH);
    expect("tkill sig 0", tkill(gettid(), 0), -EINVAL);
    expect("tkill sig NSIG", tkill(gettid(), NSIG), -EINVAL);
    expect("kill sig NSIG", kill(getpid(), NSIG), -EINVAL);
    set = ~(uint64_t)0;
    expect("block all", sigprocmask(SIG_SETMASK, &set, NULL), 0);
    expect("query", sigprocmask(SIG_BLOCK, NULL, &old), 0);
    CHECK(!(old & FL_SIGMASK(SIGKILL)), "SIGKILL got blocked");
}

static void no_frame_child(void)
{
    sigreturn();
}

static void strayreturn(void)
{
    expect_killed("sigreturn with no frame", no_frame_child, SIGSEGV);
}

/* ------------------------------------------------------------- runner */

static const struct test tests[] = {
    TEST(selfsignal), TEST(masking),      TEST(pendingtest),  TEST(nested),
    TEST(nodefer),     TEST(resethand),    TEST(defaults),     TEST(segvcatch),
    TEST(illcatch),    TEST(faultinhandler), TEST(badframe),   TEST(crossharts),
    TEST(eintr),       TEST(allregs),      TEST(allregs_syscall), TEST(badinputs),    TEST(strayreturn),
    TEST(badpc),       TEST(framemask),    TEST(frameaddr),   TEST(trapcatch),
    TEST(storecatch),  TEST(execcatch),
};

int main(int argc, char *argv[])
{
    current_test = "sigtests";
    printf("sigtests starting\n");
    return tests_summary(run_tests(tests, ARRAY_SIZE(tests), argc, argv));
}
