/* Generated from kernel/arch/riscv64/asm_offsets.c by the Makefile: do not edit. */
#ifndef FAULTLINE_ASM_OFFSETS_H
#define FAULTLINE_ASM_OFFSETS_H
#define CPU_ID 0
#define THREAD_PROC 360
#define THREAD_SIG_PENDING 552
#define THREAD_SIG_BLOCKED 560
#define PROC_KILLED 180
#define PROC_SIG_PENDING 1248
#define SIG_UNBLOCKABLE 512
#define SF_MAGIC 0
#define SF_REGS 8
#define SF_SIG 264
#define SF_ADDR 272
#define SF_BLOCKED 280
#define SF_SIZE 288
#endif
