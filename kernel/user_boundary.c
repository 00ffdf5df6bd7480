/*
 * The crossing between user and kernel mode, in portable terms: CPU time
 * accounting (exact, at every crossing, because the page-control
 * experiments report user and system time) and the check, on the way back
 * to user mode, whether the process is being killed.
 */
#include "proc.h"

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

void user_return_prepare(struct thread *t)
{
    struct proc *p = t->proc;
    if (proc_killed(p)) {
        if (p->exiting)
            thread_exit(0);
        proc_exit(p->killed);
    }
    account_leave_kernel(t);
}
