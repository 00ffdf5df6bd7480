/*
 * A child held until its parent has made itself the child's fault
 * handler or emulator (ulf_attach needs the child's pid, so the child
 * must not run on into its program before that). The parent releases it
 * with SIGUSR2; the handler is installed before the fork, so the signal
 * can never find the child without it.
 */
#include "ulib.h"

#define HOLD_SIGNAL SIGUSR2
#define HOLD_NAP_MS 1

static volatile int released;

static void on_release(int sig, uint64_t addr, struct fl_sigframe *frame)
{
    (void)sig, (void)addr, (void)frame;
    released = 1;
}

int ulf_fork_held(void)
{
    released = 0;
    int rc = signal(HOLD_SIGNAL, on_release);
    if (rc < 0)
        return rc;
    int pid = fork();
    if (pid != 0) {
        signal(HOLD_SIGNAL, SIG_DFL_HANDLER);
        return pid;
    }
    while (!released)
        sleep(HOLD_NAP_MS);
    signal(HOLD_SIGNAL, SIG_DFL_HANDLER);
    return 0;
}

int ulf_release(int pid)
{
    return kill(pid, HOLD_SIGNAL);
}
