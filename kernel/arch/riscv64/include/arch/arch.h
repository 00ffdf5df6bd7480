/*
 * riscv64 side of the architecture interface (kernel/include/arch_api.h).
 * Only what must be inline or what defines a layout lives here.
 */
#ifndef ARCH_ARCH_H
#define ARCH_ARCH_H

#include "riscv.h"
#include "layout.h"

/* Byte offsets into struct trapframe, used by trap.S. */
#define TF_RA       0
#define TF_SP       8
#define TF_GP      16
#define TF_TP      24
#define TF_A0      72
#define TF_T5     232
#define TF_T6     240
#define TF_SEPC   248
#define TF_KSP    256
#define TF_KTP    264
#define TF_PID    272
#define TF_TID    280
#define TF_STAMP  288
#define TF_LIGHT  296
#define TF_PARTIAL 304
#define TF_SIZE   312

/* Kernel-stack bytes trap.S keeps for a light page fault's record
 * (struct user_fault_state, checked in trap.c); a multiple of 16. */
#define FAULT_STATE_SPACE 80

/* Offsets into portable structures (struct cpu, thread, proc, the signal
 * frame) are generated at build time: asm_offsets.c -> asm_offsets.h. */

/* The port's name, for the boot banner. */
#define ARCH_NAME "riscv64"

/* Kernel-trap frame (traps taken while in S-mode), trap.S builds it on the stack. */
#define KF_SIZE   160

#ifndef __ASSEMBLY__
#include "types.h"

/*
 * A thread's user register state, saved on every trap from user mode.
 * Registers are stored in x1..x31 order so trap.S can use one index formula.
 * It lives inside struct thread; sscratch points to it while the thread runs
 * in user mode, and is 0 while the hart runs kernel code.
 */
struct trapframe {
    uint64_t ra, sp, gp, tp;
    uint64_t t0, t1, t2;
    uint64_t s0, s1;
    uint64_t a0, a1, a2, a3, a4, a5, a6, a7;
    uint64_t s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
    uint64_t t3, t4, t5, t6;
    uint64_t sepc;        /* user pc to resume at */
    /* Kept by the kernel, not user registers: */
    uint64_t kernel_sp;   /* top of this thread's kernel stack */
    uint64_t kernel_tp;   /* struct cpu * of the hart running the thread */
    uint64_t pid, tid;    /* answers of the light system calls (trap.S) */
    uint64_t entry_stamp; /* cycle counter at trap entry (meters) */
    uint64_t light;       /* non-zero: trap.S may answer light system calls */
    uint64_t partial;     /* non-zero: a system call's light entry, s1..s11 not saved
                             here (they are in the hart's registers or on the kernel
                             stack, kept by the C code); see trap.S */
};
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "trap.S offsets");

/* Registers a kernel trap saves: caller-saved ones plus what the handler
 * may need to read or change (sepc for fixups, s0 for backtraces). */
struct kframe {
    uint64_t ra, t0, t1, t2, t3, t4, t5, t6;
    uint64_t a0, a1, a2, a3, a4, a5, a6, a7;
    uint64_t sepc, sstatus, s0, sp;
};
_Static_assert(sizeof(struct kframe) == KF_SIZE, "trap.S kernel frame");

/* What the riscv64 port keeps per hart (struct cpu's arch member). */
struct arch_cpu {
    uint32_t plic_context;    /* the hart's S-mode PLIC context, FDT_NO_CONTEXT if none
                                 (plic.c fills it in arch_irq_init) */
};

/* Callee-saved registers: what context_switch keeps across a switch. */
struct context {
    uint64_t ra, sp;
    uint64_t s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
};

static inline void arch_intr_on(void)  { csr_set(sstatus, SSTATUS_SIE); }
static inline void arch_intr_off(void) { csr_clear(sstatus, SSTATUS_SIE); }
static inline bool arch_intr_enabled(void) { return (csr_read(sstatus) & SSTATUS_SIE) != 0; }
/* Interrupts off, returning the previous state for arch_intr_restore():
 * one atomic read-and-clear instead of a read, a test and a clear. */
static inline uint64_t arch_intr_save(void)
{
    uint64_t s;
    __asm__ volatile("csrrc %0, sstatus, %1" : "=r"(s) : "i"(SSTATUS_SIE) : "memory");
    return s & SSTATUS_SIE;
}
/* Sets SIE again only if it was set: no branch. */
static inline void arch_intr_restore(uint64_t saved)
{
    __asm__ volatile("csrs sstatus, %0" :: "r"(saved) : "memory");
}
static inline void arch_wait_for_interrupt(void) { __asm__ volatile("wfi" ::: "memory"); }
static inline void arch_pause(void) { __asm__ volatile(".insn i 0x0f, 0, x0, x0, 0x010"); /* pause hint */ }

/* Ordering between memory and devices (virtio rings, MMIO registers).
 * arch_wmb: every earlier write, to memory or a device, is seen before any
 * later one (publish a ring entry, then its index, then ring the doorbell).
 * arch_rmb: every earlier read, from memory or a device, completes before
 * any later one (read an index, then the entries it covers). */
static inline void arch_wmb(void) { __asm__ volatile("fence ow, ow" ::: "memory"); }
static inline void arch_rmb(void) { __asm__ volatile("fence ir, ir" ::: "memory"); }

/* tp holds the current hart's struct cpu * while in the kernel. */
static inline void *arch_cpu_self(void) { void *p; __asm__ volatile("mv %0, tp" : "=r"(p)); return p; }
static inline void arch_cpu_set_self(void *p) { __asm__ volatile("mv tp, %0" :: "r"(p)); }

static inline uint64_t arch_read_cycles(void) { uint64_t v; __asm__ volatile("rdcycle %0" : "=r"(v)); return v; }
static inline uint64_t arch_read_instret(void) { uint64_t v; __asm__ volatile("rdinstret %0" : "=r"(v)); return v; }
static inline uint64_t arch_read_time(void) { uint64_t v; __asm__ volatile("rdtime %0" : "=r"(v)); return v; }

/* The leading zero bits of v, 64 for 0 (Zbb's clz); floor(log2(v | 1)) is
 * 63 less those of v | 1. Zbb's clz, written as .insn so that only
 * this instruction, not all compiled code, needs Zbb (the boot checks the
 * hart has it: arch_board_unsupported). One instruction where a portable
 * search takes a dozen, on the meters' path. */
static inline uint64_t arch_clz(uint64_t v)
{
    uint64_t lz;
    __asm__(".insn r 0x13, 1, 0x30, %0, %1, x0" : "=r"(lz) : "r"(v));
    return lz;
}
static inline uint64_t arch_log2_floor(uint64_t v) { return 63 - arch_clz(v | 1); }

static inline uint64_t arch_stack_pointer(void) { uint64_t v; __asm__ volatile("mv %0, sp" : "=r"(v)); return v; }
static inline uint64_t arch_frame_pointer(void) { uint64_t v; __asm__ volatile("mv %0, s0" : "=r"(v)); return v; }

/* Syscall ABI accessors, so core code never names a register. */
static inline uint64_t tf_syscall_nr(const struct trapframe *tf) { return tf->a7; }
/* a0..a7 lie in order in the trapframe, so they are the argument array. */
static inline const uint64_t *tf_args(const struct trapframe *tf) { return &tf->a0; }
static inline void tf_set_return(struct trapframe *tf, uint64_t v) { tf->a0 = v; }

/* Signal support: the user context in the ABI's order (regs[0] = pc,
 * regs[n] = xn), which is also the trapframe's order from ra (x1) on;
 * arch_sigframe_push/pop (usercopy.S) move it to and from the frame. */
#define ARCH_NREGS 32
static inline uint64_t tf_pc(const struct trapframe *tf) { return tf->sepc; }
/* The whole user context in that order, for a user-level emulator
 * (kernel/ulf): regs[0] = pc, regs[n] = xn. */
static inline void tf_get_regs(const struct trapframe *tf, uint64_t regs[ARCH_NREGS])
{
    regs[0] = tf->sepc;
    for (int i = 1; i < ARCH_NREGS; i++)
        regs[i] = (&tf->ra)[i - 1];
}
static inline void tf_set_regs(struct trapframe *tf, const uint64_t regs[ARCH_NREGS])
{
    tf->sepc = regs[0];
    for (int i = 1; i < ARCH_NREGS; i++)
        (&tf->ra)[i - 1] = regs[i];
}
static inline uint64_t tf_sp(const struct trapframe *tf) { return tf->sp; }
/* False while the thread is in a system call that came in the light way:
 * its callee-saved registers are not in the frame (trap.S), so the whole
 * set can be neither read nor replaced from another thread. */
static inline bool tf_regs_whole(const struct trapframe *tf)
{
    return __atomic_load_n(&tf->partial, __ATOMIC_RELAXED) == 0;
}
/* Enters handler(sig, addr, frame) with sp = frame, returning to restorer. */
static inline void tf_enter_handler(struct trapframe *tf, uint64_t handler, uint64_t restorer,
                                    uint64_t frame, uint64_t sig, uint64_t addr)
{
    tf->sepc = handler;
    tf->ra = restorer;
    tf->sp = frame;
    tf->a0 = sig;
    tf->a1 = addr;
    tf->a2 = frame;
}
#endif

#endif
