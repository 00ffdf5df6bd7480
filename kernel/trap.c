/*
 * The portable trap layer (trap.h): what a decoded trap means. The arch
 * decodes; this file decides between resolving a fault, a signal a
 * handler catches, a kill and a panic, and sends interrupts on.
 */
#include "trap.h"
#include "proc.h"
#include "signal.h"
#include "ktime.h"
#include "printk.h"
#include "meter.h"
#include "vmstat.h"
#include "usercopy.h"
#include "irq.h"
#include "ulf.h"
#include "pcmeter.h"
#include <faultline/errno.h>

/* A fault that spent time switched out (waiting for the disk or for
 * room) or in interrupts: where in it that time fell is not known, so its
 * legs are not recorded; its own work from entry to now (the fault
 * resolved, interrupts off) less that time is fault.waited_work, and the
 * time is fault.wait. Out of line, so that the common fault does not pay
 * for its registers. */
static __attribute__((noinline, cold)) void meter_fault_waited(const struct trapframe *tf,
                                                                uint64_t waited)
{
    meter_record(FL_METER_FAULT_WAITED_WORK, tf->entry_stamp + waited, meter_now());
    meter_record(FL_METER_FAULT_WAIT, 0, waited);
}

/* A fault the dispatcher resolved, interrupts off: record its legs, which
 * are the thread's own work only if it never left the hart. A fault that
 * waited must not pass its wait off as work. */
static void meter_fault(const struct trapframe *tf, const struct fault_probe *fp)
{
    if (!fp->frame_at)
        return;               /* no frame taken: another thread won, or the zero page was mapped */
    const struct thread *t = container_of(tf, struct thread, tf);
    uint64_t waited = t->offcpu_cycles - fp->off_at_entry;
    if (waited) {
        meter_fault_waited(tf, waited);
        return;
    }
    /* Interrupts are off (user_page_fault), so the three rows are this
     * hart's without a mask round each, and the hart is looked up once. */
    if (!meters_enabled)
        return;
    struct meter_row *rows = this_cpu()->meters;
    meter_row_add(&rows[FL_METER_FAULT_ENTRY_TO_FRAME], fp->frame_at - tf->entry_stamp);
    meter_row_add(&rows[FL_METER_FAULT_ZERO], fp->zeroed_at - fp->frame_at);
    meter_row_add(&rows[FL_METER_FAULT_FRAME_TO_MAP], fp->mapped_at - fp->zeroed_at);
}

/* Runs the fault dispatcher until it stops asking for a retry (each
 * retry waited for something with the space's lock let go), or until the
 * process is being killed, which the way out then carries out. */
static inline enum fault_resolution fault_until_settled(struct proc *p, uint64_t va,
                                                        enum access a, struct fault_probe *fp,
                                                        struct fault_outcome *out)
{
    enum fault_resolution res;
    while ((res = vm_fault(p->as, va, a, fp, out)) == FAULT_RETRY && !proc_killed(p))
        ;
    return res;
}

/* No handler took the fault: the process is killed with its signal. Out
 * of line: the fault paths keep no register for it across
 * signal_catch_fault. */
static __attribute__((noinline, cold)) void user_fault_kill(const struct trap_record *tr,
                                                             int sig, const char *why)
{
    proc_user_fault(why ? why : arch_trap_name(tr), tr->pc, tr->addr, sig);
}

int trap_si_code(int kind, int sig)
{
    switch ((enum trap_kind)kind) {
    case TRAP_PAGE_FAULT:   return sig == SIGSEGV ? SEGV_MAPERR : BUS_ADRERR;
    case TRAP_ACCESS_FAULT: return BUS_ADRERR;
    case TRAP_MISALIGNED:   return BUS_ADRALN;
    case TRAP_ILLEGAL:      return ILL_ILLOPC;
    case TRAP_BREAKPOINT:   return TRAP_BRKPT;
    default:                return SI_KERNEL;
    }
}

/* A user fault: a handler for its signal takes it instead of the kill.
 * It is posted with the trap's kind; its si_code, and for an instruction
 * that could not run its address, are worked out only for a handler that
 * asks for a siginfo (signal.c), so other catches pay nothing. */
static inline void user_fault_signal(const struct trap_record *tr, int sig, const char *why)
{
    if (!signal_catch_fault(sig, SIG_CODE_TRAP(tr->c.kind), tr->addr))
        user_fault_kill(tr, sig, why);
}

/* A fault in a managed region: its handler answers (kernel/ulf), with
 * interrupts on; the thread sleeps meanwhile, holding no lock. */
static void user_fault_forward(struct trapframe *tf, const struct trap_record *tr)
{
    int sig = 0;
    const char *why = NULL;
    enum ulf_verdict v = ulf_fault(tr->addr, (enum access)tr->c.access, tr->pc,
                                   tf->entry_stamp, &sig, &why);
    arch_intr_off();
    switch (v) {
    case ULF_RESUMED:          /* the instruction runs again */
    case ULF_ABANDONED:        /* being killed: user_return_prepare ends it */
        return;
    case ULF_SIGNALLED:
        user_fault_signal(tr, sig, "refused by its fault handler");
        return;
    case ULF_KILLED:
        proc_user_fault(why, tr->pc, tr->addr, SIGKILL);
        return;
    }
}

/* A page fault from user mode: the memory manager resolves it, or says
 * what to do instead (enum fault_resolution). Returns true, interrupts
 * still on, if the region's handler is to provide the page: forwarding
 * needs the whole register file (user_fault_forward), which the caller
 * makes sure of first. */
static bool user_page_fault(struct trapframe *tf, const struct trap_record *tr,
                            struct fault_probe *fp)
{
    struct thread *t = container_of(tf, struct thread, tf);
    fp->off_at_entry = t->offcpu_cycles;
    arch_intr_on();
    struct fault_outcome out;
    enum fault_resolution res = fault_until_settled(t->proc, tr->addr,
                                                    (enum access)tr->c.access, fp, &out);
    if (__builtin_expect(res == FAULT_FORWARD, 0))
        return true;
    arch_intr_off();
    switch (res) {
    case FAULT_MAPPED:
        meter_fault(tf, fp);
        break;
    case FAULT_RETRY:
        break;                 /* being killed: user_return_prepare ends it */
    case FAULT_KILL:
        proc_user_fault(out.why, tr->pc, tr->addr, out.sig);
        break;
    case FAULT_SIGNAL:
    case FAULT_FORWARD:        /* returned above */
        user_fault_signal(tr, out.sig, out.why);
        break;
    }
    return false;
}

/* The end of a page fault from user mode, the thread about to resume:
 * the map-to-exit leg, and the fault's CPU for the page-control meters. */
static inline void user_fault_done(struct trapframe *tf, const struct fault_probe *fp)
{
    if (fp->mapped_at)
        meter_record_irqs_off(FL_METER_FAULT_MAP_TO_EXIT, fp->mapped_at, meter_now());
    if (pcmeters_enabled) {
        const struct thread *t = container_of(tf, struct thread, tf);
        pcmeter_fault(meter_now() - tf->entry_stamp, t->offcpu_cycles - fp->off_at_entry);
    }
}

/* The full way in has the whole frame already: the light way's two
 * halves back to back. */
void trap_user_exception(struct trapframe *tf, const struct trap_record *tr)
{
    struct user_fault_state s = { .tr = *tr };
    enum trap_fault_next next = trap_user_fault_light(tf, &s);
    if (next != TRAP_FAULT_DONE)
        trap_user_fault_whole(tf, &s, next);
}

enum trap_fault_next trap_user_fault_light(struct trapframe *tf, struct user_fault_state *s)
{
    struct thread *t = container_of(tf, struct thread, tf);
    s->fp = (struct fault_probe){ 0 };
    if (__builtin_expect(s->tr.c.kind != TRAP_PAGE_FAULT, 0)) {
        user_fault_signal(&s->tr, s->tr.c.sig, NULL);
        return TRAP_FAULT_WORK;
    }
    if (user_page_fault(tf, &s->tr, &s->fp)) {
        arch_intr_off();
        return TRAP_FAULT_FORWARD;
    }
    if (__builtin_expect(user_return_work_due(t), 0))
        return TRAP_FAULT_WORK;
    account_leave_kernel(t);
    user_fault_done(tf, &s->fp);
    return TRAP_FAULT_DONE;
}

struct trapframe *trap_user_fault_whole(struct trapframe *tf, struct user_fault_state *s,
                                        enum trap_fault_next next)
{
    if (next == TRAP_FAULT_FORWARD) {
        arch_intr_on();
        user_fault_forward(tf, &s->tr);
    }
    user_return_prepare(container_of(tf, struct thread, tf));
    if (s->tr.c.kind == TRAP_PAGE_FAULT)     /* the meters count page faults only */
        user_fault_done(tf, &s->fp);
    return tf;
}

/* A user copy touched a managed page: the handler answers as for a
 * fault in user mode, and the copy is retried, or fails with -EFAULT. */
static __attribute__((noinline)) enum trap_kernel_action
kernel_fault_forward(const struct trap_record *tr)
{
    int sig = 0;
    const char *why = NULL;
    uint64_t user_pc = tf_pc(&current_thread()->tf);
    enum ulf_verdict v = ulf_fault(tr->addr, (enum access)tr->c.access, user_pc, meter_now(),
                                   &sig, &why);
    arch_intr_off();
    if (v == ULF_RESUMED)
        return TRAP_KERNEL_RETRY;
    if (v == ULF_KILLED)
        proc_user_fault(why, user_pc, tr->addr, SIGKILL);
    return TRAP_KERNEL_FIXUP;
}

enum trap_kernel_action trap_kernel_exception(const struct trap_record *tr, bool intr_were_on,
                                              uint64_t fp)
{
    struct proc *p = current_proc();
    if (tr->c.kind == TRAP_PAGE_FAULT && usercopy_pc(tr->pc) && p && tr->addr < USER_TOP) {
        /* A copy to or from user memory touched a missing page. */
        if (intr_were_on)
            arch_intr_on();
        struct fault_probe probe = { 0 };
        struct fault_outcome out;
        enum fault_resolution res = fault_until_settled(p, tr->addr, (enum access)tr->c.access,
                                                        &probe, &out);
        if (res == FAULT_FORWARD && intr_were_on)
            return kernel_fault_forward(tr);
        arch_intr_off();
        if (res == FAULT_KILL)
            proc_user_fault(out.why, tr->pc, tr->addr, out.sig);
        /* Anything but a mapped page fails the copy with -EFAULT. */
        return res == FAULT_MAPPED ? TRAP_KERNEL_RETRY : TRAP_KERNEL_FIXUP;
    }
    panic_at(tr->pc, fp, "kernel trap: %s, sepc=0x%lx stval=0x%lx", arch_trap_name(tr), tr->pc,
             tr->addr);
}

bool trap_interrupt(enum trap_irq irq)
{
    switch (irq) {
    case TRAP_IRQ_TIMER:
        return timer_interrupt();
    case TRAP_IRQ_IPI:
        ipi_interrupt();
        return false;
    case TRAP_IRQ_DEVICE:
        irq_handle();
        return false;
    }
    panic("unexpected interrupt %d", (int)irq);
}

void trap_kernel_interrupt(enum trap_irq irq)
{
    /* An interrupt taken in the kernel is not the interrupted path's
     * work: counted with the thread's switched-out time, so meters of
     * paths that do I/O (vm.*) leave out completions that happen to land
     * while they run. */
    struct thread *t = current_thread();
    uint64_t t0 = meter_now();
    bool resched = trap_interrupt(irq);
    if (t)
        t->offcpu_cycles += meter_now() - t0;
    if (resched && t && t->state == T_RUNNING)
        yield();
}
