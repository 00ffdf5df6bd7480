/* See sigregs.h. Every register but sp is clobbered between the saves. */
#include "sigregs.h"

#define CALLEE_SLOTS   20                      /* ra, gp, tp, s0..s11, out, nr, 2 args, pad */
#define OUT_SLOT       15
#define NR_SLOT        16                      /* sigregs_syscall: the call's number */
#define ARGS_SLOT      17                      /* ... and its a0, a1 (a1 = NR_SLOT's a1) */
#define RESULT_BASE    (CALLEE_SLOTS * 8)      /* results follow the saves */
#define FRAME_BYTES    (RESULT_BASE + SIGREGS_NREGS * 8)

    .section .bss.sigregs_sp_before, "aw", @nobits
    .globl sigregs_sp_before
    .balign 8
sigregs_sp_before:
    .zero 8

.macro SIGREGS_FUNC name, syscall
    .section .text.\name, "ax", @progbits
    .globl \name
    .type \name, @function
\name:
    addi  sp, sp, -FRAME_BYTES
    sd    ra, 0(sp)
    sd    gp, 8(sp)
    sd    tp, 16(sp)
    sd    s0, 24(sp)
    sd    s1, 32(sp)
    sd    s2, 40(sp)
    sd    s3, 48(sp)
    sd    s4, 56(sp)
    sd    s5, 64(sp)
    sd    s6, 72(sp)
    sd    s7, 80(sp)
    sd    s8, 88(sp)
    sd    s9, 96(sp)
    sd    s10, 104(sp)
    sd    s11, 112(sp)
    sd    a0, OUT_SLOT*8(sp)
    .if \syscall
    sd    a1, NR_SLOT*8(sp)
    sd    a2, ARGS_SLOT*8(sp)
    sd    a3, (ARGS_SLOT+1)*8(sp)
    .endif
    la    t0, sigregs_sp_before
    sd    sp, 0(t0)
    li    x1, SIGREGS_PATTERN(1)
    li    x3, SIGREGS_PATTERN(3)
    li    x4, SIGREGS_PATTERN(4)
    li    x5, SIGREGS_PATTERN(5)
    li    x6, SIGREGS_PATTERN(6)
    li    x7, SIGREGS_PATTERN(7)
    li    x8, SIGREGS_PATTERN(8)
    li    x9, SIGREGS_PATTERN(9)
    li    x10, SIGREGS_PATTERN(10)
    li    x11, SIGREGS_PATTERN(11)
    li    x12, SIGREGS_PATTERN(12)
    li    x13, SIGREGS_PATTERN(13)
    li    x14, SIGREGS_PATTERN(14)
    li    x15, SIGREGS_PATTERN(15)
    li    x16, SIGREGS_PATTERN(16)
    li    x17, SIGREGS_PATTERN(17)
    li    x18, SIGREGS_PATTERN(18)
    li    x19, SIGREGS_PATTERN(19)
    li    x20, SIGREGS_PATTERN(20)
    li    x21, SIGREGS_PATTERN(21)
    li    x22, SIGREGS_PATTERN(22)
    li    x23, SIGREGS_PATTERN(23)
    li    x24, SIGREGS_PATTERN(24)
    li    x25, SIGREGS_PATTERN(25)
    li    x26, SIGREGS_PATTERN(26)
    li    x27, SIGREGS_PATTERN(27)
    li    x28, SIGREGS_PATTERN(28)
    li    x29, SIGREGS_PATTERN(29)
    li    x30, SIGREGS_PATTERN(30)
    li    x31, SIGREGS_PATTERN(31)
    .if \syscall
    ld    a7, NR_SLOT*8(sp)         /* the call: number and arguments last */
    ld    a0, ARGS_SLOT*8(sp)
    ld    a1, (ARGS_SLOT+1)*8(sp)
    ecall
    .else
    .option push
    .option norvc
    unimp                       /* SIGILL: the handler steps over these 4 bytes */
    .option pop
    .endif
    sd    x1, RESULT_BASE+8(sp)
    sd    x2, RESULT_BASE+16(sp)
    sd    x3, RESULT_BASE+24(sp)
    sd    x4, RESULT_BASE+32(sp)
    sd    x5, RESULT_BASE+40(sp)
    sd    x6, RESULT_BASE+48(sp)
    sd    x7, RESULT_BASE+56(sp)
    sd    x8, RESULT_BASE+64(sp)
    sd    x9, RESULT_BASE+72(sp)
    sd    x10, RESULT_BASE+80(sp)
    sd    x11, RESULT_BASE+88(sp)
    sd    x12, RESULT_BASE+96(sp)
    sd    x13, RESULT_BASE+104(sp)
    sd    x14, RESULT_BASE+112(sp)
    sd    x15, RESULT_BASE+120(sp)
    sd    x16, RESULT_BASE+128(sp)
    sd    x17, RESULT_BASE+136(sp)
    sd    x18, RESULT_BASE+144(sp)
    sd    x19, RESULT_BASE+152(sp)
    sd    x20, RESULT_BASE+160(sp)
    sd    x21, RESULT_BASE+168(sp)
    sd    x22, RESULT_BASE+176(sp)
    sd    x23, RESULT_BASE+184(sp)
    sd    x24, RESULT_BASE+192(sp)
    sd    x25, RESULT_BASE+200(sp)
    sd    x26, RESULT_BASE+208(sp)
    sd    x27, RESULT_BASE+216(sp)
    sd    x28, RESULT_BASE+224(sp)
    sd    x29, RESULT_BASE+232(sp)
    sd    x30, RESULT_BASE+240(sp)
    sd    x31, RESULT_BASE+248(sp)
    ld    ra, 0(sp)
    ld    gp, 8(sp)
    ld    tp, 16(sp)
    ld    s0, 24(sp)
    ld    s1, 32(sp)
    ld    s2, 40(sp)
    ld    s3, 48(sp)
    ld    s4, 56(sp)
    ld    s5, 64(sp)
    ld    s6, 72(sp)
    ld    s7, 80(sp)
    ld    s8, 88(sp)
    ld    s9, 96(sp)
    ld    s10, 104(sp)
    ld    s11, 112(sp)
    ld    a0, OUT_SLOT*8(sp)
    addi  t0, sp, RESULT_BASE
    li    t1, SIGREGS_NREGS
1:  ld    t2, 0(t0)
    sd    t2, 0(a0)
    addi  t0, t0, 8
    addi  a0, a0, 8
    addi  t1, t1, -1
    bnez  t1, 1b
    addi  sp, sp, FRAME_BYTES
    ret
    .size \name, . - \name
.endm

SIGREGS_FUNC sigregs_run, 0
SIGREGS_FUNC sigregs_syscall, 1
