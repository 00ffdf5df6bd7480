/*
 * The portable trap layer. The architecture's trap code decodes a trap
 * (on riscv64: its cause, faulting address and pc registers) into a
 * struct trap_record and calls the functions below, which decide what
 * happens: resolve a page fault, post a signal a handler will catch, kill
 * the process, fail a user copy, panic. The arch keeps only the
 * mechanics: saving registers, the light system calls, moving the pc of a
 * failed user copy to its fixup (docs/architecture.md, "Traps").
 *
 * The record lives on the trap's stack and is passed by pointer: the
 * fault paths are measured to the instruction (make bench).
 */
#ifndef FAULTLINE_TRAP_H
#define FAULTLINE_TRAP_H

#include "types.h"
#include "aspace.h"
#include <arch/arch.h>

/* What kind of trap it was, as far as the portable kernel cares. */
enum trap_kind {
    TRAP_PAGE_FAULT,   /* no translation, or one that forbids the access: vm_fault */
    TRAP_ACCESS_FAULT, /* the bus refused the access (no memory or device there) */
    TRAP_MISALIGNED,   /* an access the hardware will not do at that alignment */
    TRAP_ILLEGAL,      /* an instruction the hart cannot or may not execute */
    TRAP_BREAKPOINT,   /* a breakpoint instruction */
    TRAP_SYSCALL,      /* a system call (the arch dispatches these itself) */
    TRAP_UNKNOWN,      /* anything else the arch can name but not classify */
};

/* The interrupts the portable kernel tells apart. */
enum trap_irq {
    TRAP_IRQ_TIMER,    /* this hart's tick */
    TRAP_IRQ_IPI,      /* another hart asked for something (sched.c) */
    TRAP_IRQ_DEVICE,   /* the interrupt controller has a device line for us */
};

/* What a trap is, in one aligned word, so that the arch fills it with a
 * single load from a table indexed by its cause number. */
struct trap_class {
    uint8_t kind;    /* enum trap_kind */
    uint8_t access;  /* enum access: what the access was (faults only) */
    uint8_t sig;     /* the signal it means for a user thread */
    uint8_t cause;   /* the arch's own number for it: arch_trap_name() */
} __attribute__((aligned(4)));

struct trap_record {
    struct trap_class c;
    uint64_t addr;        /* the address that faulted (faults only) */
    uint64_t pc;          /* where the trap was taken */
};

/* The si_code of a user fault of kind (enum trap_kind) with signal sig;
 * a SIGSEGV page fault says SEGV_MAPERR, which the caller refines. */
int trap_si_code(int kind, int sig);

/* --- called by the arch's trap code --- */

/* An exception from user mode other than a system call, for the current
 * thread (tf is its trapframe), interrupts off. Resolves the fault, posts
 * a signal, or marks the process killed, then makes the thread ready to
 * go back to user mode (user_return_prepare: it may not return); the
 * caller resumes tf. */
void trap_user_exception(struct trapframe *tf, const struct trap_record *tr);

/* A page fault from user mode may come in the light way, as system calls
 * do: the arch saved only the registers C code may clobber, and keeps
 * this record of the trap (and the fault's stamps) on the kernel stack
 * until the fault is over. */
struct user_fault_state {
    struct trap_record tr;
    struct fault_probe fp;
};
/* What the light way needs after trap_user_fault_light. */
enum trap_fault_next {
    TRAP_FAULT_DONE,      /* resolved, accounted and metered: resume */
    TRAP_FAULT_WORK,      /* a kill or a signal on the way out */
    TRAP_FAULT_FORWARD,   /* the region's user-level handler provides the page */
};
/* Resolves the fault like trap_user_exception, interrupts off, up to
 * what needs every user register (a signal frame, a handler that may
 * read them): for WORK and FORWARD the arch stores the rest of the
 * registers and calls trap_user_fault_whole, which finishes. */
enum trap_fault_next trap_user_fault_light(struct trapframe *tf, struct user_fault_state *s);
struct trapframe *trap_user_fault_whole(struct trapframe *tf, struct user_fault_state *s,
                                        enum trap_fault_next next);   /* returns tf */

/* What the arch does after a fault taken in kernel mode. */
enum trap_kernel_action {
    TRAP_KERNEL_RETRY,  /* resolved: run the faulting instruction again */
    TRAP_KERNEL_FIXUP,  /* a user copy failed: resume at its -EFAULT exit */
};
/* An exception taken in kernel mode. intr_were_on: whether the trapped
 * code ran with interrupts enabled. fp: its frame pointer, for the
 * backtrace if it is fatal (then this does not return). */
enum trap_kernel_action trap_kernel_exception(const struct trap_record *tr, bool intr_were_on,
                                              uint64_t fp);

/* An interrupt; returns true if the interrupted thread should give up
 * the hart (its tick ran out). */
bool trap_interrupt(enum trap_irq irq);
/* An interrupt taken in kernel mode: handled, its time charged to the
 * thread's switched-out time, and the thread yields if it should. */
void trap_kernel_interrupt(enum trap_irq irq);

/* --- provided by the arch --- */

/* The hardware's name for the trap ("load page fault"), for kill lines
 * and panics. */
const char *arch_trap_name(const struct trap_record *tr);

#endif
