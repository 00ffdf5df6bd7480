/*
 * The crossing between user and kernel mode, in portable terms: CPU time
 * accounting (exact, at every crossing, because the page-control
 * experiments report user and system time) and the checks, on the way back
 * to user mode, whether the process is being killed and whether a signal
 * is to be delivered.
 */
#include "proc.h"
#include "signal.h"

void account_enter_kernel(struct thread *t)
{
    uint64_t now = arch_read_time();
    t->utime += now - t->stamp;
    t->stamp = now;
}

void account_leave_kernel(struct thread *t)
{
    uint64_t now = arch_read_time();
    t->stime += now - t->stamp;
    t->stamp = now;
}

/* Ends the thread, or the process with its killing signal as the status. */
static void leave_if_killed(struct thread *t)
{
    struct proc *p = t->proc;
    if (proc_killed(p)) {
        if (p->exiting)
            thread_exit(0);
        proc_exit(p->killed);
    }
}

void user_return_prepare(struct thread *t)
{
    leave_if_killed(t);
    if (signal_maybe_pending(t)) {
        signal_deliver(t);
        leave_if_killed(t);   /* a default action or a bad stack may kill */
    }
    account_leave_kernel(t);
}
