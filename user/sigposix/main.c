/*
 * sigposix [-r ROUNDS] [NAME...]: in-guest tests of the signal calls
 * beyond sigtests' basics: kill(pid, 0), kill finding old pids,
 * sigsuspend and pause (with the lost wake-up a flag-and-pause loop
 * suffers and sigsuspend does not),
 * FL_SA_SIGINFO handlers, sigaltstack (catching a stack overflow), and
 * sigtimedwait; bad arguments to each.
 *
 * Same runner as sigtests (lib/testrun.h). -r sets the round trips of the
 * two ping-pong tests (pingpong: both processes on one hart; pingpongx:
 * one on each of two harts), PINGPONG_ROUNDS by default.
 */
#include "sigposix.h"

long rounds = PINGPONG_ROUNDS;

/* --------------------------------------------------------------- helpers */

volatile int hits[NSIG];
volatile struct fl_siginfo last_info;
volatile uint64_t last_sp, handler_mask;

void counting_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)addr; (void)f;
    hits[sig]++;
}

void info_handler(int sig, struct fl_siginfo *info, struct fl_sigframe *f)
{
    (void)f;
    hits[sig]++;
    last_info = *info;
    uint64_t mask = 0;
    sigprocmask(SIG_BLOCK, NULL, &mask);
    handler_mask = mask;
}

void install(int sig, sighandler_t h)
{
    expect("signal", signal(sig, h), 0);
}

uint64_t get_mask(void)
{
    uint64_t mask = 0;
    expect("sigprocmask query", sigprocmask(SIG_BLOCK, NULL, &mask), 0);
    return mask;
}

void set_mask(uint64_t mask)
{
    expect("sigprocmask", sigprocmask(SIG_SETMASK, &mask, NULL), 0);
}

uint64_t pending_set(void)
{
    uint64_t set = 0;
    expect("sigpending", sigpending(&set), 0);
    return set;
}

/* Forks a child that sleeps ms, then sends sig to its parent and exits. */
int delayed_sender(int sig, unsigned long ms, int hart)
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

void reap_ok(int pid)
{
    int status = 0;
    expect("wait_pid", wait_pid(pid, &status, 0), pid);
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0, "child %d: status 0x%x", pid, status);
}

unsigned nharts(void)
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

/* kill finds a process by pid through a table indexed by the pid's low
 * bits, filled as pids are handed out (docs/architecture.md, Signals).
 * After enough processes have come and gone for every such slot to have
 * been taken again, a live process with an older pid must still be found,
 * and the reaped ones must not be. */
#define KILLHINT_FORKS  130     /* every residue of a table of up to 64 slots, twice over */

static void killhint(void)
{
    int old = fork();
    if (old == 0) {
        /* Until the SIGKILL below, however long the forks take (a child
         * that timed out would be a zombie, which kill rightly misses). */
        for (;;)
            sleep(STUCK_MS);
    }
    expect("fork the long-lived child", old > 0, 1);
    if (old < 0)
        return;          /* a negative pid would name a process group */
    int last = 0, status;
    for (int i = 0; i < KILLHINT_FORKS; i++) {
        int pid = fork();
        if (pid == 0)
            exit(0);
        if (pid < 0) {
            expect("fork a short-lived child", pid, 0);
            break;
        }
        wait_pid(pid, &status, 0);
        last = pid;
    }
    expect("later pids overtook the old one", last > old + KILLHINT_FORKS / 2, 1);
    expect("kill(reaped pid, 0)", kill(last, 0), -ESRCH);
    expect("kill(old live pid, 0)", kill(old, 0), 0);
    expect("kill(old live pid, SIGKILL)", kill(old, SIGKILL), 0);
    expect("reap it", wait_pid(old, &status, 0), old);
    expect("it died of the kill", !FL_WIFEXITED(status) && FL_WTERMSIG(status) == SIGKILL, 1);
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

/* A process-directed signal that wakes a thread in sigsuspend is that
 * thread's: its handler runs there and its sigsuspend returns, while the
 * other thread, which blocks the signal, is left alone. */
static volatile int handler_tid;

static void tid_handler(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)addr; (void)f;
    hits[sig]++;
    handler_tid = gettid();
}

static long suspending_thread(void *arg)
{
    (void)arg;
    uint64_t none = 0;
    long rc = sigsuspend(&none);
    return rc == -EINTR && handler_tid == gettid() ? 1 : rc;
}

static void suspendthread(void)
{
    install(SIGUSR1, tid_handler);
    set_mask(FL_SIGMASK(SIGUSR1));            /* the new thread inherits it */
    int tid = thread_create(suspending_thread, NULL);
    CHECK(tid > 0, "thread_create");
    int pid = delayed_sender(SIGUSR1, SETTLE_MS, -1);
    long value = 0;
    expect("join", thread_join(tid, &value), 0);
    expect("its sigsuspend returned after its own handler", value, 1);
    expect("handled once", hits[SIGUSR1], 1);
    expect("on the sleeping thread", handler_tid, tid);
    reap_ok(pid);
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

/* ------------------------------------------------------------- runner */

static const struct test tests[] = {
    TEST(killzero),      TEST(killhint),       TEST(suspendpending), TEST(suspendwoken),  TEST(pausetest),
    TEST(suspenddefault), TEST(suspendthread), TEST(lostwakeup),    TEST(pingpong),      TEST(pingpongx),
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
