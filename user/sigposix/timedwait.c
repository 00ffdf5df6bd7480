/*
 * sigposix, part three: sigtimedwait (a signal taken without its
 * handler, timeouts, interruption by a handled signal, the waiting thread
 * of several), and bad arguments to every new call.
 */
#include "sigposix.h"

/* --------------------------------------------------------------- sigtimedwait */

void timedwaittake(void)
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

void timedwaittimeout(void)
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
void timedwaitintr(void)
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

void timedwaitthread(void)
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

void badinputs(void)
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
                                .flags = UNKNOWN_SA_FLAG };
    expect("unknown sigaction flag", sigaction(SIGUSR1, &act, NULL), -EINVAL);
}
