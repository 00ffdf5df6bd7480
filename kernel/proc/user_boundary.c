/*
 * The crossing between user and kernel mode, in portable terms: the slow
 * part of the way back to user mode, taken when the process is being
 * killed or a signal may be pending (user_return_prepare in signal.h
 * checks; the CPU time accounting is inline in proc.h).
 */
#include "proc.h"
#include "signal.h"

/* Ends the thread, or the process with its killing signal as the status.
 * Only the thread: another one is already ending the process, or is in
 * exec and wants the others gone (that one is in the kernel until it has
 * cleared the mark, so it never gets here with it). */
static void leave_if_killed(struct thread *t)
{
    struct proc *p = t->proc;
    int killed = __atomic_load_n(&p->killed, __ATOMIC_RELAXED);     /* proc_killed(), inline */
    if (killed) {
        if (p->exiting || killed == KILLED_FOR_EXEC)
            thread_exit(0);
        proc_exit(killed);
    }
}

void user_return_work(struct thread *t)
{
    leave_if_killed(t);
    if (signal_maybe_pending(t)) {
        signal_deliver(t);
        leave_if_killed(t);   /* a default action or a bad stack may kill */
    }
}
