/*
 * Trap entry and exit.
 *
 * sscratch tells where a trap came from without touching memory first:
 * while a thread runs in user mode it holds that thread's trapframe
 * address; while the hart runs kernel code it holds 0. The kernel stays
 * mapped in every address space and sstatus.SUM stays set, so neither path
 * writes satp or flips SUM (both flush QEMU's soft TLB).
 */
#include <arch/arch.h>
#include "asm_offsets.h"
#include <faultline/syscall.h>

    .section .text
    .balign 4
    .globl trap_vector
trap_vector:
    csrrw   t6, sscratch, t6
    beqz    t6, trap_from_kernel

    /*
     * From user mode: t6 = trapframe, sscratch = user t6.
     *
     * Light system calls first: getpid, gettid and gethart only read a
     * value the kernel keeps up to date, so they are answered here with one
     * scratch register, without saving the register file or entering C.
     * They are not metered and their few instructions count as user time.
     * sigreturn skips the register save (.Lsigreturn_entry); the other
     * calls save only part of it (syscall_entry), but fork and exec, and
     * so do page faults (fault_entry). Boot with lightsys=off to send them
     * all through the full path instead.
     */
    sd      t5, TF_T5(t6)
    csrr    t5, scause
    addi    t5, t5, -EXC_ECALL_U
    bnez    t5, .Lnot_ecall
    ld      t5, TF_LIGHT(t6)        /* lightsys=off sends everything the full way */
    beqz    t5, .Lfull_entry
    addi    t5, a7, -SYS_getpid
    beqz    t5, .Llight_getpid
    addi    t5, a7, -SYS_gettid
    beqz    t5, .Llight_gettid
    addi    t5, a7, -SYS_sigreturn
    beqz    t5, .Lsigreturn_entry
    addi    t5, a7, -SYS_gethart
    beqz    t5, .Llight_gethart
    /* fork copies the whole register set to the child and exec replaces
     * it: those come in the full way; every other call the light way
     * (syscall_entry). */
    addi    t5, a7, -SYS_fork
    beqz    t5, .Lfull_entry
    addi    t5, a7, -SYS_exec
    bnez    t5, syscall_entry
    j       .Lfull_entry
.Llight_gethart:
    ld      a0, TF_KTP(t6)
    lwu     a0, CPU_ID(a0)
    j       .Llight_return
.Llight_gettid:
    ld      a0, TF_TID(t6)
    j       .Llight_return
.Llight_getpid:
    ld      a0, TF_PID(t6)
.Llight_return:
    csrr    t5, sepc
    addi    t5, t5, 4
    csrw    sepc, t5
    ld      t5, TF_T5(t6)
    csrrw   t6, sscratch, t6        /* user t6 back; sscratch = trapframe again */
    sret

/*
 * sigreturn replaces every user register with the signal frame's, so none
 * is saved but sp (where the frame is) and the pc (named if a bad frame
 * kills the process); the user t6 in sscratch is dropped. sscratch = 0
 * and the kernel's sp and tp come first, so that a fault on the frame is
 * an ordinary kernel trap. Then arch_sigreturn_fast (usercopy.S) loads the
 * frame straight into the registers and returns to user mode; whatever it
 * cannot do it leaves to sigreturn_slow, with t6 = trapframe: C, as on the
 * full path, and out through the full restore. Neither is metered as a
 * system call; only the C path records signal.sigreturn_to_restored.
 */
.Lsigreturn_entry:
    csrw    sscratch, zero          /* now "in kernel" */
    sd      sp, TF_SP(t6)
    csrr    t5, sepc
    sd      t5, TF_SEPC(t6)
    ld      sp, TF_KSP(t6)
    ld      tp, TF_KTP(t6)
    j       arch_sigreturn_fast

.Lnot_ecall:
    /* Page faults (scause 12, 13 and 15, now t5 = 4, 5 and 7; 14 is
     * reserved and C sends it on) come in the light way too, unless
     * lightsys=off. An interrupt's scause is far above them. */
    addi    t5, t5, -(EXC_INST_PAGE_FAULT - EXC_ECALL_U)
    sltiu   t5, t5, EXC_STORE_PAGE_FAULT - EXC_INST_PAGE_FAULT + 1
    beqz    t5, .Lfull_entry
    ld      t5, TF_LIGHT(t6)
    bnez    t5, fault_entry
    /* fall through */
.Lfull_entry:
    /* t5 is already saved; everything else now. */
    sd      ra,   0(t6)
    sd      sp,   8(t6)
    sd      gp,  16(t6)
    sd      tp,  24(t6)
    sd      t0,  32(t6)
    sd      t1,  40(t6)
    sd      t2,  48(t6)
    sd      s0,  56(t6)
    sd      s1,  64(t6)
    sd      a0,  72(t6)
    sd      a1,  80(t6)
    sd      a2,  88(t6)
    sd      a3,  96(t6)
    sd      a4, 104(t6)
    sd      a5, 112(t6)
    sd      a6, 120(t6)
    sd      a7, 128(t6)
    sd      s2, 136(t6)
    sd      s3, 144(t6)
    sd      s4, 152(t6)
    sd      s5, 160(t6)
    sd      s6, 168(t6)
    sd      s7, 176(t6)
    sd      s8, 184(t6)
    sd      s9, 192(t6)
    sd      s10, 200(t6)
    sd      s11, 208(t6)
    sd      t3, 216(t6)
    sd      t4, 224(t6)
    rdcycle t0
    sd      t0, TF_STAMP(t6)        /* meters: trap entry */
    csrrw   t0, sscratch, zero      /* user t6; sscratch = 0: now "in kernel" */
    sd      t0, TF_T6(t6)
    csrr    t0, sepc
    sd      t0, TF_SEPC(t6)
    ld      sp, TF_KSP(t6)
    ld      tp, TF_KTP(t6)
    mv      s0, zero                /* end of the frame-pointer chain */
    mv      a0, t6
    call    user_trap               /* returns the trapframe to resume */
    /* fall through */

/* arch_return_to_user(tf): a0 = trapframe. Does not return. */
    .globl arch_return_to_user
arch_return_to_user:
    csrci   sstatus, SSTATUS_SIE
    li      t0, SSTATUS_SPP
    csrc    sstatus, t0             /* sret goes to user mode ... */
    li      t0, SSTATUS_SPIE
    csrs    sstatus, t0             /* ... with interrupts enabled */
    ld      t0, TF_SEPC(a0)
    csrw    sepc, t0
    csrw    sscratch, a0
    ld      ra,   0(a0)
    ld      sp,   8(a0)
    ld      gp,  16(a0)
    ld      tp,  24(a0)
    ld      t0,  32(a0)
    ld      t1,  40(a0)
    ld      t2,  48(a0)
    ld      s0,  56(a0)
    ld      s1,  64(a0)
    ld      a1,  80(a0)
    ld      a2,  88(a0)
    ld      a3,  96(a0)
    ld      a4, 104(a0)
    ld      a5, 112(a0)
    ld      a6, 120(a0)
    ld      a7, 128(a0)
    ld      s2, 136(a0)
    ld      s3, 144(a0)
    ld      s4, 152(a0)
    ld      s5, 160(a0)
    ld      s6, 168(a0)
    ld      s7, 176(a0)
    ld      s8, 184(a0)
    ld      s9, 192(a0)
    ld      s10, 200(a0)
    ld      s11, 208(a0)
    ld      t3, 216(a0)
    ld      t4, 224(a0)
    ld      t5, 232(a0)
    ld      t6, 240(a0)
    ld      a0,  72(a0)
    sret

/*
 * The light way in, for system calls and page faults: only what the C code
 * may change is saved, the registers the calling convention lets a callee
 * clobber (ra, t0-t6, a0-a7) and those the kernel replaces (sp, gp, tp,
 * s0). s1..s11 stay in the registers: the C code and everything it calls
 * keep them, as any C callee does, so they still hold the user's values
 * when it returns and need no restore either. tf->partial (the
 * trapframe's address: not zero) says meanwhile that they are not in the
 * frame (tf_regs_whole). Entered with t6 = trapframe, sscratch = user
 * t6, t5 saved. The labels are named, not .L, so that profiles and
 * backtraces say which way a trap came in (make iprofile).
 */
.macro LIGHT_SAVE
    sd      ra,   0(t6)
    sd      sp,   8(t6)
    sd      gp,  16(t6)
    sd      tp,  24(t6)
    sd      t0,  32(t6)
    sd      t1,  40(t6)
    sd      t2,  48(t6)
    sd      s0,  56(t6)
    sd      a0,  72(t6)
    sd      a1,  80(t6)
    sd      a2,  88(t6)
    sd      a3,  96(t6)
    sd      a4, 104(t6)
    sd      a5, 112(t6)
    sd      a6, 120(t6)
    sd      a7, 128(t6)
    sd      t3, 216(t6)
    sd      t4, 224(t6)
    sd      t6, TF_PARTIAL(t6)
    rdcycle t0
    sd      t0, TF_STAMP(t6)        /* meters: trap entry */
    csrrw   t0, sscratch, zero      /* user t6; sscratch = 0: now "in kernel" */
    sd      t0, TF_T6(t6)
.endm

/* The user's s1..s11 into the frame at \tf, which is then whole. */
.macro SAVE_CALLEE tf
    sd      s1,  64(\tf)
    sd      s2, 136(\tf)
    sd      s3, 144(\tf)
    sd      s4, 152(\tf)
    sd      s5, 160(\tf)
    sd      s6, 168(\tf)
    sd      s7, 176(\tf)
    sd      s8, 184(\tf)
    sd      s9, 192(\tf)
    sd      s10, 200(\tf)
    sd      s11, 208(\tf)
    sd      zero, TF_PARTIAL(\tf)
.endm

syscall_entry:
    LIGHT_SAVE
    csrr    t0, sepc
    addi    t0, t0, 4               /* resume after the ecall */
    sd      t0, TF_SEPC(t6)
    ld      sp, TF_KSP(t6)
    ld      tp, TF_KTP(t6)
    mv      s0, zero                /* end of the frame-pointer chain */
    mv      a0, t6
    call    user_syscall            /* a0 = trapframe, a1 = 0 or work to do */
    bnez    a1, syscall_work
    /* fall through */

/*
 * The light way out, a0 = trapframe. Interrupts are off (user_syscall,
 * user_fault); sret must go to user mode with them on: a switch while in
 * the kernel may have left SPP set by another thread's kernel trap.
 */
light_exit:
    li      t0, SSTATUS_SPP
    csrc    sstatus, t0
    li      t0, SSTATUS_SPIE
    csrs    sstatus, t0
    ld      t0, TF_SEPC(a0)
    csrw    sepc, t0
    csrw    sscratch, a0
    sd      zero, TF_PARTIAL(a0)
    ld      ra,   0(a0)
    ld      sp,   8(a0)
    ld      gp,  16(a0)
    ld      tp,  24(a0)
    ld      t0,  32(a0)
    ld      t1,  40(a0)
    ld      t2,  48(a0)
    ld      s0,  56(a0)
    ld      a1,  80(a0)
    ld      a2,  88(a0)
    ld      a3,  96(a0)
    ld      a4, 104(a0)
    ld      a5, 112(a0)
    ld      a6, 120(a0)
    ld      a7, 128(a0)
    ld      t3, 216(a0)
    ld      t4, 224(a0)
    ld      t5, 232(a0)
    ld      t6, 240(a0)
    ld      a0,  72(a0)
    sret

/*
 * Work on a system call's light way out (a kill, a signal that may be
 * pending): it may read or replace the whole register set (a signal
 * frame), so s1..s11, the user's still, go into the frame first, and the
 * way out is the full one. a1 is the system call's end stamp (meters).
 */
syscall_work:
    SAVE_CALLEE a0
    call    user_syscall_work       /* returns the trapframe */
    j       arch_return_to_user

/*
 * A page fault the light way: as a system call, sepc left on the
 * faulting instruction, and FAULT_STATE_SPACE bytes of kernel stack for
 * the fault's record (struct user_fault_state), which outlives user_fault
 * when the fault needs the whole frame: a signal to deliver, a kill, or
 * a user-level handler that may read the registers (trap_user_fault_whole).
 * Only the common fault, resolved with nothing to do on the way out,
 * takes the light way out.
 */
fault_entry:
    LIGHT_SAVE
    csrr    t0, sepc
    sd      t0, TF_SEPC(t6)
    ld      sp, TF_KSP(t6)
    ld      tp, TF_KTP(t6)
    mv      s0, zero                /* end of the frame-pointer chain */
    addi    sp, sp, -FAULT_STATE_SPACE
    mv      a0, t6
    mv      a1, sp
    call    user_fault              /* a0 = trapframe, a1 = 0 or what is left */
    beqz    a1, light_exit
    SAVE_CALLEE a0
    mv      a2, a1
    mv      a1, sp
    call    trap_user_fault_whole   /* (trapframe, record, what is left): the trapframe */
    j       arch_return_to_user

/*
 * From S-mode: sscratch was 0, so t6 is now 0 and sscratch holds the
 * kernel's t6. Save caller-saved registers on the current kernel stack.
 */
trap_from_kernel:
    csrrw   t6, sscratch, zero
    addi    sp, sp, -KF_SIZE
    sd      ra,   0(sp)
    sd      t0,   8(sp)
    sd      t1,  16(sp)
    sd      t2,  24(sp)
    sd      t3,  32(sp)
    sd      t4,  40(sp)
    sd      t5,  48(sp)
    sd      t6,  56(sp)
    sd      a0,  64(sp)
    sd      a1,  72(sp)
    sd      a2,  80(sp)
    sd      a3,  88(sp)
    sd      a4,  96(sp)
    sd      a5, 104(sp)
    sd      a6, 112(sp)
    sd      a7, 120(sp)
    csrr    t0, sepc
    sd      t0, 128(sp)
    csrr    t0, sstatus
    sd      t0, 136(sp)
    sd      s0, 144(sp)
    addi    t0, sp, KF_SIZE
    sd      t0, 152(sp)
    mv      a0, sp
    call    kernel_trap
    ld      t0, 136(sp)
    csrw    sstatus, t0
    ld      t0, 128(sp)
    csrw    sepc, t0
    ld      ra,   0(sp)
    ld      t0,   8(sp)
    ld      t1,  16(sp)
    ld      t2,  24(sp)
    ld      t3,  32(sp)
    ld      t4,  40(sp)
    ld      t5,  48(sp)
    ld      t6,  56(sp)
    ld      a0,  64(sp)
    ld      a1,  72(sp)
    ld      a2,  80(sp)
    ld      a3,  88(sp)
    ld      a4,  96(sp)
    ld      a5, 104(sp)
    ld      a6, 112(sp)
    ld      a7, 120(sp)
    addi    sp, sp, KF_SIZE
    sret

/*
 * sigreturn the C way (see .Lsigreturn_entry), entered with t6 = the
 * trapframe and the kernel's sp and tp. Kept after the vector so that a
 * backtrace through the full path still names trap_vector.
 */
    .globl sigreturn_slow
sigreturn_slow:
    mv      s0, zero                /* end of the frame-pointer chain */
    mv      a0, t6
    call    user_sigreturn          /* returns the trapframe to resume */
    j       arch_return_to_user
