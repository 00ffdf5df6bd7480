/*
 * sigposix, part two: SA_SIGINFO handlers (the sender and how it sent,
 * a fault's code and address, where the siginfo lies) and sigaltstack (a
 * handler on the alternate stack, a stack overflow caught there, what
 * fork and a new thread get).
 */
#include "sigposix.h"

/* --------------------------------------------------------------- SA_SIGINFO */

static volatile uintptr_t null_addr = 0;

static void skip_info_handler(int sig, struct fl_siginfo *info, struct fl_sigframe *f)
{
    info_handler(sig, info, f);
    uint16_t low = *(volatile uint16_t *)(uintptr_t)f->regs[FL_REG_PC];
    f->regs[FL_REG_PC] += (low & INSN_LOW_BITS) == INSN_LOW_BITS ? FULL_LEN : COMPRESSED_LEN;
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
    /* Blocked while the count is looked at, so the child's signal waits
     * pending until sigsuspend: a pause() here loses the wake-up when the
     * signal lands between the look and the call (flagpause shows it). */
    set_mask(FL_SIGMASK(SIGUSR1));
    int pid = delayed_sender(SIGUSR1, 0, -1);
    uint64_t open = 0;
    while (hits[SIGUSR1] < 3)
        sigsuspend(&open);
    set_mask(0);
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
    expect("frame aligned", (long)(frame_at % STACK_ALIGN), 0);
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
    expect_info("illegal instruction", SIGILL, ILL_ILLOPC, 0, pc + FULL_LEN);
    expect("sigaction_info", sigaction_info(SIGBUS, skip_info_handler, 0, 0), 0);
    static uint64_t words[2];
    uintptr_t odd = (uintptr_t)words + 1;
    __asm__ volatile(".option push\n.option norvc\namoadd.w zero, zero, (%0)\n.option pop"
                     :: "r"(odd) : "memory");
    expect_info("misaligned atomic", SIGBUS, BUS_ADRALN, 0, odd);
    expect("each handler ran once", hits[SIGSEGV] + hits[SIGILL] + hits[SIGBUS], 4);
}

void siginfo(void)
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

void altstackuse(void)
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
    volatile char pad[FRAME_PAD];
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

void stackoverflow(void)
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

void altstackinherit(void)
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
