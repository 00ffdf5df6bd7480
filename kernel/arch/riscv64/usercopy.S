/*
 * Copies between kernel and user memory. Callers (mm/usercopy.c) have
 * already checked that the user range lies inside user space; what remains
 * is that a page may be unmapped. Such a fault is caught by kernel_trap:
 * a fault at a pc in [usercopy_start, usercopy_end) first goes to the fault
 * dispatcher (the page may be demand-allocated), and if that fails the trap
 * resumes at usercopy_fault, which returns -EFAULT to our caller.
 * These are leaf functions without a stack frame, so that return is safe.
 */
#include <faultline/errno.h>
#include <arch/arch.h>

/* struct fl_sigframe (include/faultline/abi.h); trap.c checks the offsets
 * and defines arch_sigframe_magic. */
#define SF_MAGIC      0
#define SF_REGS       8             /* regs[0] = pc, regs[n] = xn */
#define SF_SIG      264
#define SF_ADDR     272
#define SF_BLOCKED  280
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

usercopy_end:

usercopy_fault:
    li      a0, -EFAULT
    ret
