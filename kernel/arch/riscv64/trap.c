/*
 * Trap decoding for riscv64: reads scause, stval and sepc into a portable
 * struct trap_record and hands it to the portable trap layer
 * (kernel/trap.c), which decides what happens. System calls are
 * dispatched here directly, the fastest path. trap.S calls user_trap()
 * for traps from user mode and kernel_trap() for traps taken while in
 * the kernel.
 */
#include "trap.h"
#include "proc.h"
#include "signal.h"
#include "syscall.h"
#include "usercopy.h"
#include "printk.h"
#include "meter.h"
#include <faultline/abi.h>
#include <faultline/errno.h>

/* The offsets usercopy.S and trap.S read of the signal frame, struct
 * thread, struct proc and struct cpu are generated (asm_offsets.c). */
/* Loaded by usercopy.S: a 64-bit constant is one load there, not six instructions. */
const uint64_t arch_sigframe_magic = FL_SIGFRAME_MAGIC;

/* How each exception code reads to the portable kernel: one word per
 * code, so decoding is one load, no switch on the fault path. Codes 10,
 * 11 and 14 are reserved. */
#define EXC(code, kind, access, sig) [code] = { kind, access, sig, code }
static const struct trap_class exc_class[] = {
    EXC(EXC_INST_MISALIGNED,  TRAP_MISALIGNED,   ACCESS_EXEC,  SIGBUS),
    EXC(EXC_INST_ACCESS,      TRAP_ACCESS_FAULT, ACCESS_EXEC,  SIGBUS),
    EXC(EXC_ILLEGAL_INST,     TRAP_ILLEGAL,      ACCESS_EXEC,  SIGILL),
    EXC(EXC_BREAKPOINT,       TRAP_BREAKPOINT,   ACCESS_EXEC,  SIGTRAP),
    EXC(EXC_LOAD_MISALIGNED,  TRAP_MISALIGNED,   ACCESS_READ,  SIGBUS),
    EXC(EXC_LOAD_ACCESS,      TRAP_ACCESS_FAULT, ACCESS_READ,  SIGBUS),
    EXC(EXC_STORE_MISALIGNED, TRAP_MISALIGNED,   ACCESS_WRITE, SIGBUS),
    EXC(EXC_STORE_ACCESS,     TRAP_ACCESS_FAULT, ACCESS_WRITE, SIGBUS),
    EXC(EXC_ECALL_U,          TRAP_SYSCALL,      ACCESS_READ,  SIGSEGV),
    EXC(EXC_ECALL_S,          TRAP_UNKNOWN,      ACCESS_READ,  SIGSEGV),
    EXC(10,                   TRAP_UNKNOWN,      ACCESS_READ,  SIGSEGV),
    EXC(11,                   TRAP_UNKNOWN,      ACCESS_READ,  SIGSEGV),
    EXC(EXC_INST_PAGE_FAULT,  TRAP_PAGE_FAULT,   ACCESS_EXEC,  SIGSEGV),
    EXC(EXC_LOAD_PAGE_FAULT,  TRAP_PAGE_FAULT,   ACCESS_READ,  SIGSEGV),
    EXC(14,                   TRAP_UNKNOWN,      ACCESS_READ,  SIGSEGV),
    EXC(EXC_STORE_PAGE_FAULT, TRAP_PAGE_FAULT,   ACCESS_WRITE, SIGSEGV),
};
/* A cause beyond the table (a later extension's): an "unknown exception",
 * never looked up past the table's end. */
#define EXC_UNKNOWN  UINT8_MAX

static inline void decode_exception(struct trap_record *tr, uint64_t cause, uint64_t stval,
                                    uint64_t pc)
{
    if (__builtin_expect(cause < ARRAY_SIZE(exc_class), 1))
        tr->c = exc_class[cause];
    else
        tr->c = (struct trap_class){ TRAP_UNKNOWN, ACCESS_READ, SIGSEGV, EXC_UNKNOWN };
    tr->addr = stval;
    tr->pc = pc;
}

const char *arch_trap_name(const struct trap_record *tr)
{
    switch (tr->c.cause) {
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

/* The interrupt an scause names, for the portable kernel. */
static enum trap_irq decode_interrupt(uint64_t code)
{
    switch (code) {
    case IRQ_S_TIMER: return TRAP_IRQ_TIMER;
    case IRQ_S_SOFT:  return TRAP_IRQ_IPI;
    case IRQ_S_EXT:   return TRAP_IRQ_DEVICE;
    default:          panic("unexpected interrupt %lu", code);
    }
}

_Static_assert(offsetof(struct thread, tf) == 0, "trap.S: sscratch points at the thread");
_Static_assert(TRAP_FAULT_DONE == 0, "trap.S: a light fault resumes at once on 0");
_Static_assert(sizeof(struct user_fault_state) <= FAULT_STATE_SPACE &&
               FAULT_STATE_SPACE % 16 == 0, "trap.S: the fault's record on the kernel stack");

struct trapframe *user_trap(struct trapframe *tf)
{
    /* The trapframe is the thread's first member: no lookup from sp. */
    struct thread *t = container_of(tf, struct thread, tf);
    account_enter_kernel(t);
    uint64_t cause = csr_read(scause);
    if (cause & SCAUSE_INTERRUPT) {
        if (trap_interrupt(decode_interrupt(cause & ~SCAUSE_INTERRUPT)))
            yield();
    } else if (cause == EXC_ECALL_U) {
        /* System calls stay here: the table dispatch is already portable,
         * and a record would only cost them. */
        tf->sepc += 4;
        uint64_t done = syscall_dispatch(tf);
        user_return_prepare(t);
        meter_record_irqs_off(FL_METER_SYSCALL_EXIT, done, meter_now());
        return tf;
    } else {
        struct trap_record tr;
        decode_exception(&tr, cause, csr_read(stval), tf->sepc);
        trap_user_exception(tf, &tr);
        return tf;
    }
    user_return_prepare(t);
    return tf;
}

/* What user_syscall and user_fault hand back to trap.S, in a0 and a1: the trapframe,
 * and 0, or the system call's end stamp (made odd, so never 0) when
 * there is work on the way out. */
struct syscall_exit {
    struct trapframe *tf;
    uint64_t work_from;
};

/* A system call come in the light way (trap.S: s1..s11 not in the frame,
 * sepc already past the ecall): the same as user_trap's, but the work
 * on the way out is left to user_syscall_work, once trap.S has made the
 * frame whole, for a signal frame must hold every register. */
struct syscall_exit user_syscall(struct trapframe *tf);
struct syscall_exit user_syscall(struct trapframe *tf)
{
    struct thread *t = container_of(tf, struct thread, tf);
    account_enter_kernel(t);
    uint64_t done = syscall_dispatch(tf);
    if (__builtin_expect(user_return_work_due(t), 0))
        return (struct syscall_exit){ tf, done | 1 };
    account_leave_kernel(t);
    meter_record_irqs_off(FL_METER_SYSCALL_EXIT, done, meter_now());
    return (struct syscall_exit){ tf, 0 };
}

/* The light way out with work on it (a kill, a signal to deliver), the
 * frame whole again: as user_trap's way out. */
struct trapframe *user_syscall_work(struct trapframe *tf, uint64_t done);
struct trapframe *user_syscall_work(struct trapframe *tf, uint64_t done)
{
    user_return_prepare(container_of(tf, struct thread, tf));
    meter_record_irqs_off(FL_METER_SYSCALL_EXIT, done, meter_now());
    return tf;
}

/* A page fault come in the light way (trap.S fault_entry: s1..s11 not
 * in the frame), with s, the fault's record, in space trap.S keeps on the
 * kernel stack until the fault is over. Returns 0 in a1 to resume at
 * once, or what trap_user_fault_whole (called by trap.S directly) is to
 * finish once trap.S has stored the rest of the registers. */
struct syscall_exit user_fault(struct trapframe *tf, struct user_fault_state *s);
struct syscall_exit user_fault(struct trapframe *tf, struct user_fault_state *s)
{
    account_enter_kernel(container_of(tf, struct thread, tf));
    decode_exception(&s->tr, csr_read(scause), csr_read(stval), tf->sepc);
    enum trap_fault_next next = trap_user_fault_light(tf, s);
    return (struct syscall_exit){ tf, (uint64_t)next };
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
    if (cause & SCAUSE_INTERRUPT) {
        trap_kernel_interrupt(decode_interrupt(cause & ~SCAUSE_INTERRUPT));
        return;
    }
    struct trap_record tr;
    decode_exception(&tr, cause, csr_read(stval), kf->sepc);
    if (trap_kernel_exception(&tr, (kf->sstatus & SSTATUS_SPIE) != 0, kf->s0) == TRAP_KERNEL_FIXUP)
        kf->sepc = usercopy_fixup_pc();
}
