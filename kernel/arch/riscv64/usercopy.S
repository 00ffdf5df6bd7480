/*
 * Copies between kernel and user memory. Callers (mm/usercopy.c) have
 * already checked that the user range lies inside user space; what remains
 * is that a page may be unmapped. Such a fault is caught by kernel_trap:
 * a fault at a pc in [usercopy_start, usercopy_end) first goes to the fault
 * dispatcher (the page may be demand-allocated), and if that fails the trap
 * resumes at usercopy_fault, which returns -EFAULT to our caller.
 * These are leaf functions without a stack frame, so that return is safe;
 * arch_sigreturn_fast is no function but sets ra to where it goes on
 * failure, so the same return works for it.
 */
#include <faultline/errno.h>
#include <arch/arch.h>
#include "asm_offsets.h"

/* struct fl_sigframe (include/faultline/abi.h): SF_* come from
 * asm_offsets.h (regs[0] = pc, regs[n] = xn); trap.c defines
 * arch_sigframe_magic. */
#define REG_BYTES     8

    .section .text
    .globl usercopy_start, usercopy_end, usercopy_fault

usercopy_start:

/* long arch_copy_user(void *dst, const void *src, size_t n): 0 or -EFAULT */
    .globl arch_copy_user
arch_copy_user:
    beqz    a2, 3f
    or      t0, a0, a1
    andi    t0, t0, 7
    bnez    t0, 2f              /* unaligned: bytes */
    /* Aligned: 64 bytes per iteration (signal frames, file reads). */
    li      t1, 64
4:  bltu    a2, t1, 1f
    ld      t2, 0(a1)
    ld      t3, 8(a1)
    ld      t4, 16(a1)
    ld      t5, 24(a1)
    sd      t2, 0(a0)
    sd      t3, 8(a0)
    sd      t4, 16(a0)
    sd      t5, 24(a0)
    ld      t2, 32(a1)
    ld      t3, 40(a1)
    ld      t4, 48(a1)
    ld      t5, 56(a1)
    sd      t2, 32(a0)
    sd      t3, 40(a0)
    sd      t4, 48(a0)
    sd      t5, 56(a0)
    addi    a0, a0, 64
    addi    a1, a1, 64
    addi    a2, a2, -64
    j       4b
1:  li      t1, 8
    bltu    a2, t1, 2f
    ld      t2, 0(a1)
    sd      t2, 0(a0)
    addi    a0, a0, 8
    addi    a1, a1, 8
    addi    a2, a2, -8
    j       1b
2:  beqz    a2, 3f
    lbu     t2, 0(a1)
    sb      t2, 0(a0)
    addi    a0, a0, 1
    addi    a1, a1, 1
    addi    a2, a2, -1
    j       2b
3:  li      a0, 0
    ret

/*
 * long arch_strncpy_user(char *dst, const char *src, size_t max):
 * copies up to and including the NUL; returns the string length, max if no
 * NUL was found within max bytes, or -EFAULT.
 */
    .globl arch_strncpy_user
arch_strncpy_user:
    li      t0, 0
1:  bgeu    t0, a2, 2f
    add     t1, a1, t0
    lbu     t2, 0(t1)
    add     t1, a0, t0
    sb      t2, 0(t1)
    beqz    t2, 3f
    addi    t0, t0, 1
    j       1b
2:  mv      a0, a2
    ret
3:  mv      a0, t0
    ret

/* long arch_zero_user(void *dst, size_t n): 0 or -EFAULT */
    .globl arch_zero_user
arch_zero_user:
1:  beqz    a1, 2f
    sb      zero, 0(a0)
    addi    a0, a0, 1
    addi    a1, a1, -1
    j       1b
2:  li      a0, 0
    ret

/*
 * The signal frame is written and read here, inside the fixup range, so
 * that a missing stack page is faulted in (or the call fails with
 * -EFAULT) like any user copy. Callers check the whole frame's range once;
 * then it is one load and one store per register, with no bounce buffer.
 */

/* x(n) of the trapframe (x1..x31 from offset 0) <-> regs[n] of the frame. */
    .macro FRAME_OUT n
    ld      t0, ((\n) - 1) * REG_BYTES(a1)
    sd      t0, SF_REGS + (\n) * REG_BYTES(a0)
    .endm
    .macro FRAME_IN n
    ld      t0, SF_REGS + (\n) * REG_BYTES(a1)
    sd      t0, ((\n) - 1) * REG_BYTES(a0)
    .endm

/*
 * long arch_sigframe_push(uint64_t frame, const struct trapframe *tf,
 *                         uint64_t sig, uint64_t addr, uint64_t blocked)
 * Fills the user frame at `frame` from tf: 0 or -EFAULT.
 */
    .globl arch_sigframe_push
arch_sigframe_push:
    la      t1, arch_sigframe_magic
    ld      t0, 0(t1)
    sd      t0, SF_MAGIC(a0)
    ld      t0, TF_SEPC(a1)
    sd      t0, SF_REGS(a0)
    .irp n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    FRAME_OUT \n
    .endr
    sd      a2, SF_SIG(a0)
    sd      a3, SF_ADDR(a0)
    sd      a4, SF_BLOCKED(a0)
    li      a0, 0
    ret

/*
 * long arch_sigframe_pop(struct trapframe *tf, uint64_t frame, uint64_t *blocked)
 * Loads tf and *blocked from the user frame: 0, -EINVAL when the frame
 * has no magic or its pc is not a user address (tf is then untouched), or
 * -EFAULT.
 */
    .globl arch_sigframe_pop
arch_sigframe_pop:
    la      t1, arch_sigframe_magic
    ld      t1, 0(t1)
    ld      t0, SF_MAGIC(a1)
    bne     t0, t1, 1f
    ld      t0, SF_REGS(a1)         /* pc */
    li      t1, USER_BASE
    bltu    t0, t1, 1f
    li      t1, USER_TOP
    bgeu    t0, t1, 1f
    sd      t0, TF_SEPC(a0)
    .irp n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    FRAME_IN \n
    .endr
    ld      t0, SF_BLOCKED(a1)
    sd      t0, 0(a2)
    li      a0, 0
    ret
1:  li      a0, -EINVAL
    ret

/*
 * arch_sigreturn_fast: jumped to (not called) from trap.S's sigreturn
 * entry with t6 = the trapframe (also the thread: its first member),
 * sscratch = 0, the kernel's sp and tp, interrupts off, and the user sp
 * (the frame) and pc saved in the trapframe. Does what user_sigreturn
 * does, but loads the frame straight into the registers and returns to
 * user mode from here: one range check, the magic and pc checks of
 * arch_sigframe_pop, the mask, then the registers. Anything else goes to
 * sigreturn_slow (trap.S), which starts over in C from the saved sp and
 * pc: a frame it would refuse (so the kill and its message stay in one
 * place), something to do on the way out (killed, a pending signal), or a
 * fault on the frame that could not be resolved.
 *
 * Faults: the loads are inside [usercopy_start, usercopy_end), so a
 * missing page is faulted in by kernel_trap as for any user copy and the
 * load runs again with every register intact (the kernel-trap frame keeps
 * ra, t0-t6, a0-a7 and s0, C keeps s1-s11, and the kernel never uses gp).
 * That needs the kernel's sp and tp, and t6 = trapframe, until the last
 * user load; ra holds sigreturn_slow, where usercopy_fault's ret goes, and
 * t5 the frame. So the frame's ra, sp, tp, t5 and t6 are first copied into
 * the trapframe and loaded from there at the end. The frame's sp and pc
 * wait in a1's and a0's slots (those two come straight from the frame):
 * the trapframe's own sp and pc must stay what sigreturn_slow needs.
 *
 * Interrupts stay off, as when delivery writes the frame: a signal another
 * hart posts meanwhile leaves its IPI pending, taken right after sret.
 * Not metered, like the light system calls; the time counts as user time.
 */
#define TF_STASH_PC  TF_A0
#define TF_STASH_SP  (TF_A0 + REG_BYTES)   /* a1's slot */

    .macro FRAME_TO_REG n
    ld      x\n, SF_REGS + (\n) * REG_BYTES(t5)
    .endm
    .macro FRAME_TO_TF n, slot
    ld      t0, SF_REGS + (\n) * REG_BYTES(t5)
    sd      t0, \slot(t6)
    .endm

    .globl arch_sigreturn_fast
arch_sigreturn_fast:
    la      ra, sigreturn_slow      /* where usercopy_fault returns */
    ld      t5, TF_SP(t6)
    /* user_range_ok(frame, SF_SIZE); aligned, or C handles it */
    li      t0, USER_TOP - SF_SIZE
    bgtu    t5, t0, 9f
    andi    t0, t5, REG_BYTES - 1
    bnez    t0, 9f
    /* the magic, and a pc inside user space */
    la      t1, arch_sigframe_magic
    ld      t1, 0(t1)
    ld      t0, SF_MAGIC(t5)
    bne     t0, t1, 9f
    ld      t0, SF_REGS(t5)         /* pc */
    li      t1, USER_BASE
    bltu    t0, t1, 9f
    li      t1, USER_TOP
    bgeu    t0, t1, 9f
    /* The mask, as set_own_mask: written only if it changes, then a full
     * fence, so that a poster either sees it or we see its pending bit. */
    ld      t1, SF_BLOCKED(t5)
    andi    t1, t1, ~SIG_UNBLOCKABLE
    ld      t2, THREAD_SIG_BLOCKED(t6)
    beq     t1, t2, 1f
    sd      t1, THREAD_SIG_BLOCKED(t6)
    fence   rw, rw
1:  sd      t0, TF_STASH_PC(t6)
    FRAME_TO_TF 1, TF_RA
    FRAME_TO_TF 2, TF_STASH_SP
    FRAME_TO_TF 4, TF_TP
    FRAME_TO_TF 30, TF_T5
    FRAME_TO_TF 31, TF_T6
    .irp n, 3,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29
    FRAME_TO_REG \n
    .endr
    /* user_return_prepare's tests, after the last user load (a fault on
     * the frame may have slept, and a signal been posted meanwhile), with
     * ra and t5 free now: being killed, or a signal that may be pending,
     * is work for C on the way out, which starts over from the frame. */
    ld      ra, THREAD_PROC(t6)
    lw      t5, PROC_KILLED(ra)
    bnez    t5, 9f
    ld      t5, PROC_SIG_PENDING(ra)
    bnez    t5, 9f
    ld      t5, THREAD_SIG_PENDING(t6)
    bnez    t5, 9f
    /* No user memory from here on: no trap either, so sepc, sstatus and
     * sscratch can be set. A fault above went through a kernel trap,
     * whose sret left sstatus saying "from S-mode, interrupts off": sret
     * must go to user mode with interrupts on, as arch_return_to_user. */
    li      ra, SSTATUS_SPP
    csrc    sstatus, ra
    li      ra, SSTATUS_SPIE
    csrs    sstatus, ra
    ld      ra, TF_STASH_PC(t6)
    csrw    sepc, ra
    ld      ra, TF_RA(t6)
    ld      sp, TF_STASH_SP(t6)
    ld      tp, TF_TP(t6)
    ld      t5, TF_T5(t6)
    csrw    sscratch, t6            /* back in user mode: the trapframe */
    ld      t6, TF_T6(t6)
    sret
9:  j       sigreturn_slow

usercopy_end:

usercopy_fault:
    li      a0, -EFAULT
    ret
