/*
 * Trap dispatch for riscv64: decodes scause and hands each trap to the
 * portable kernel (system calls, the fault dispatcher, the tick, IPIs,
 * device interrupts). trap.S calls user_trap() for traps from user mode and
 * kernel_trap() for traps taken while in the kernel.
 */
#include "proc.h"
#include "signal.h"
#include "syscall.h"
#include "aspace.h"
#include "usercopy.h"
#include "ktime.h"
#include "board.h"
#include "plic.h"
#include "uart.h"
#include "blk.h"
#include "printk.h"
#include "meter.h"
#include "vmstat.h"
#include <faultline/abi.h>
#include <faultline/errno.h>

/* The signal frame as usercopy.S writes and reads it. */
_Static_assert(offsetof(struct fl_sigframe, magic) == 0, "usercopy.S SF_MAGIC");
_Static_assert(offsetof(struct fl_sigframe, regs) == 8, "usercopy.S SF_REGS");
_Static_assert(offsetof(struct fl_sigframe, sig) == 264, "usercopy.S SF_SIG");
_Static_assert(offsetof(struct fl_sigframe, addr) == 272, "usercopy.S SF_ADDR");
_Static_assert(offsetof(struct fl_sigframe, blocked) == 280, "usercopy.S SF_BLOCKED");
_Static_assert(sizeof(struct fl_sigframe) == 288, "usercopy.S SF_SIZE");
/* What usercopy.S's fast sigreturn reads of the thread and its process. */
_Static_assert(offsetof(struct thread, proc) == THREAD_PROC, "arch.h THREAD_PROC");
_Static_assert(offsetof(struct thread, sig_pending) == THREAD_SIG_PENDING, "arch.h THREAD_SIG_PENDING");
_Static_assert(offsetof(struct thread, sig_blocked) == THREAD_SIG_BLOCKED, "arch.h THREAD_SIG_BLOCKED");
_Static_assert(offsetof(struct proc, killed) == PROC_KILLED, "arch.h PROC_KILLED");
_Static_assert(sizeof(((struct proc *)0)->killed) == 4, "usercopy.S loads killed as a word");
_Static_assert(offsetof(struct proc, sig_pending) == PROC_SIG_PENDING, "arch.h PROC_SIG_PENDING");
_Static_assert(SIG_UNBLOCKABLE == FL_SIGMASK(SIGKILL), "arch.h SIG_UNBLOCKABLE");
/* Loaded by usercopy.S: a 64-bit constant is one load there, not six instructions. */
const uint64_t arch_sigframe_magic = FL_SIGFRAME_MAGIC;

static const char *exception_name(uint64_t code)
{
    switch (code) {
    case EXC_INST_MISALIGNED:  return "instruction address misaligned";
    case EXC_INST_ACCESS:      return "instruction access fault";
    case EXC_ILLEGAL_INST:     return "illegal instruction";
    case EXC_BREAKPOINT:       return "breakpoint";
    case EXC_LOAD_MISALIGNED:  return "load address misaligned";
    case EXC_LOAD_ACCESS:      return "load access fault";
    case EXC_STORE_MISALIGNED: return "store address misaligned";
    case EXC_STORE_ACCESS:     return "store access fault";
    case EXC_ECALL_U:          return "ecall from user mode";
    case EXC_ECALL_S:          return "ecall from supervisor mode";
    case EXC_INST_PAGE_FAULT:  return "instruction page fault";
    case EXC_LOAD_PAGE_FAULT:  return "load page fault";
    case EXC_STORE_PAGE_FAULT: return "store page fault";
    default:                   return "unknown exception";
    }
}

static int exception_signal(uint64_t code)
{
    switch (code) {
    case EXC_ILLEGAL_INST:     return SIGILL;
    case EXC_BREAKPOINT:       return SIGTRAP;
    case EXC_INST_MISALIGNED:
    case EXC_LOAD_MISALIGNED:
    case EXC_STORE_MISALIGNED:
    case EXC_INST_ACCESS:
    case EXC_LOAD_ACCESS:
    case EXC_STORE_ACCESS:     return SIGBUS;
    default:                   return SIGSEGV;
    }
}

static bool page_fault_access(uint64_t code, enum access *a)
{
    switch (code) {
    case EXC_LOAD_PAGE_FAULT:  *a = ACCESS_READ;  return true;
    case EXC_STORE_PAGE_FAULT: *a = ACCESS_WRITE; return true;
    case EXC_INST_PAGE_FAULT:  *a = ACCESS_EXEC;  return true;
    default:                   return false;
    }
}

static void device_interrupt(void)
{
    uint32_t ctx = this_cpu()->plic_context;
    if (ctx == FDT_NO_CONTEXT)
        return;
    uint32_t irq = plic_claim(ctx);
    if (!irq)
        return;
    if (board.uart.present && irq == board.uart.irq)
        uart_interrupt();
    else if (blk_irq() && irq == blk_irq())
        blk_intr();
    plic_complete(ctx, irq);
}

/* Returns true if the interrupted thread should give up the hart. */
static bool interrupt(uint64_t code)
{
    switch (code) {
    case IRQ_S_TIMER:
        timer_interrupt();
        return true;
    case IRQ_S_SOFT:
        ipi_interrupt();
        return false;
    case IRQ_S_EXT:
        device_interrupt();
        return false;
    default:
        panic("unexpected interrupt %lu", code);
    }
}

/* A fault that spent time switched out (waiting for the disk or for
 * room) or in interrupts: where in it that time fell is not known, so its
 * legs are not recorded; its own work from entry to now (the fault
 * resolved, interrupts off) less that time is fault.waited_work, and the
 * time is fault.wait. Out of line, so that the common fault (and every
 * system call sharing user_trap's frame) does not pay for its registers. */
static __attribute__((noinline, cold)) void meter_fault_waited(const struct trapframe *tf,
                                                                uint64_t waited)
{
    meter_record(FL_METER_FAULT_WAITED_WORK, tf->entry_stamp + waited, meter_now());
    meter_record(FL_METER_FAULT_WAIT, 0, waited);
}

/* A fault the dispatcher resolved: record its legs, which are the
 * thread's own work only if it never left the hart. A fault that waited
 * must not pass its wait off as work. */
static void meter_fault(const struct trapframe *tf, const struct fault_probe *fp)
{
    if (!fp->frame_at)
        return;               /* no frame was needed (another thread won) */
    const struct thread *t = container_of(tf, struct thread, tf);
    uint64_t waited = t->offcpu_cycles - fp->off_at_entry;
    if (waited) {
        meter_fault_waited(tf, waited);
        return;
    }
    meter_record(FL_METER_FAULT_ENTRY_TO_FRAME, tf->entry_stamp, fp->frame_at);
    meter_record(FL_METER_FAULT_ZERO, fp->frame_at, fp->zeroed_at);
    meter_record(FL_METER_FAULT_FRAME_TO_MAP, fp->zeroed_at, fp->mapped_at);
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

/* Out of line: its registers would otherwise be saved on every system
 * call's way through user_trap. */
static __attribute__((noinline)) void user_exception(struct trapframe *tf, uint64_t code,
                                                     uint64_t stval, struct fault_probe *fp)
{
    enum access a;
    int sig = exception_signal(code);
    const char *why = NULL;
    if (page_fault_access(code, &a)) {
        fp->off_at_entry = container_of(tf, struct thread, tf)->offcpu_cycles;
        arch_intr_on();
        struct fault_outcome out;
        enum fault_resolution res = fault_until_settled(current_proc(), stval, a, fp, &out);
        arch_intr_off();
        if (res == FAULT_MAPPED) {
            meter_fault(tf, fp);
            return;
        }
        if (res == FAULT_RETRY)
            return;            /* being killed: user_return_prepare ends it */
        if (res == FAULT_KILL) {
            proc_user_fault(out.why, tf->sepc, stval, out.sig);
            return;
        }
        /* FAULT_SIGNAL; FAULT_FORWARD too until fault handlers exist. */
        sig = out.sig;
        why = out.why;
    }
    /* A handler for the fault's signal takes it instead of the kill. */
    if (!signal_catch_fault(sig, stval))
        proc_user_fault(why ? why : exception_name(code), tf->sepc, stval, sig);
}

_Static_assert(offsetof(struct thread, tf) == 0, "trap.S: sscratch points at the thread");

struct trapframe *user_trap(struct trapframe *tf)
{
    /* The trapframe is the thread's first member: no lookup from sp. */
    struct thread *t = container_of(tf, struct thread, tf);
    account_enter_kernel(t);
    uint64_t cause = csr_read(scause);
    if (cause & SCAUSE_INTERRUPT) {
        if (interrupt(cause & ~SCAUSE_INTERRUPT))
            yield();
    } else if (cause == EXC_ECALL_U) {
        tf->sepc += 4;
        arch_intr_on();
        uint64_t done = syscall_dispatch(tf);
        arch_intr_off();
        user_return_prepare(t);
        meter_record(FL_METER_SYSCALL_EXIT, done, meter_now());
        return tf;
    } else {
        struct fault_probe fp = { 0 };
        user_exception(tf, cause, csr_read(stval), &fp);
        user_return_prepare(t);
        if (fp.mapped_at)
            meter_record(FL_METER_FAULT_MAP_TO_EXIT, fp.mapped_at, meter_now());
        return tf;
    }
    user_return_prepare(t);
    return tf;
}

/* SYS_sigreturn when usercopy.S's fast sigreturn declines (a frame it
 * cannot use, something to do on the way out, a fault it could not
 * resolve): only sp and sepc were saved, since the frame replaces every
 * register. No system-call dispatch or meters around it; otherwise as
 * sys_sigreturn through the table. */
struct trapframe *user_sigreturn(struct trapframe *tf)
{
    struct thread *t = container_of(tf, struct thread, tf);
    account_enter_kernel(t);
    arch_intr_on();               /* the frame's page may have to be faulted in */
    signal_return(t);
    arch_intr_off();
    user_return_prepare(t);
    return tf;
}

void kernel_trap(struct kframe *kf)
{
    uint64_t cause = csr_read(scause);
    uint64_t stval = csr_read(stval);
    if (cause & SCAUSE_INTERRUPT) {
        /* An interrupt taken in the kernel is not the interrupted path's
         * work: counted with the thread's switched-out time, so meters of
         * paths that do I/O (vm.*) leave out completions that happen to
         * land while they run. */
        struct thread *t = current_thread();
        uint64_t t0 = meter_now();
        bool resched = interrupt(cause & ~SCAUSE_INTERRUPT);
        if (t)
            t->offcpu_cycles += meter_now() - t0;
        if (resched && t && t->state == T_RUNNING)
            yield();
        return;
    }
    enum access a;
    struct proc *p = current_proc();
    if (page_fault_access(cause, &a) && usercopy_pc(kf->sepc) && p && stval < USER_TOP) {
        /* A copy to or from user memory touched a missing page. */
        if (kf->sstatus & SSTATUS_SPIE)
            arch_intr_on();
        struct fault_probe fp = { 0 };
        struct fault_outcome out;
        enum fault_resolution res = fault_until_settled(p, stval, a, &fp, &out);
        arch_intr_off();
        if (res == FAULT_KILL)
            proc_user_fault(out.why, kf->sepc, stval, out.sig);
        /* Anything but a mapped page fails the copy with -EFAULT. */
        if (res != FAULT_MAPPED)
            kf->sepc = usercopy_fixup_pc();
        return;
    }
    panic_at(kf->sepc, kf->s0, "kernel trap: %s, sepc=0x%lx stval=0x%lx", exception_name(cause),
             kf->sepc, stval);
}
