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

usercopy_end:

usercopy_fault:
    li      a0, -EFAULT
    ret
