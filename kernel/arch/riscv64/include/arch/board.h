/*
 * The riscv64 part of the board description (struct board_info's arch
 * member, fdt.h): the RISC-V-only devices and what the port reads of the
 * cpus, and the scan state its half of the device-tree interpretation
 * (kernel/arch/riscv64/fdt_riscv.c) keeps while the walk runs. Plain data:
 * the host unit tests compile it with the device-tree reader.
 */
#ifndef ARCH_BOARD_H
#define ARCH_BOARD_H

#include "types.h"
#include "config.h"

#define FDT_NO_CONTEXT UINT32_MAX
#define FDT_NO_SSWI_REG UINT32_MAX
/* Each hart's SETSSIP register in an ACLINT SSWI is one 32-bit word
 * (RISC-V ACLINT specification, "SSWI"). */
#define SSWI_REG_BYTES  4u

/* The cpus' interrupt controllers a tree may hold: each hart has one. */
#define MAX_CPU_INTCS   (2 * MAX_HARTS)

struct arch_board {
    struct mmio_dev plic;           /* compatible "riscv,plic0" or "sifive,plic-1.0.0" */
    uint32_t plic_ndev;             /* riscv,ndev */
    /* PLIC context that routes to hart_ids[i] in S-mode, from the PLIC's
     * interrupts-extended; FDT_NO_CONTEXT if the tree does not say. */
    uint32_t plic_s_context[MAX_HARTS];
    struct mmio_dev sswi;           /* compatible "riscv,aclint-sswi": supervisor IPIs
                                       without the firmware (QEMU virt,aclint=on) */
    /* Index of the 4-byte SETSSIP register of the SSWI that raises
     * hart_ids[i]'s supervisor software interrupt, from the SSWI's
     * interrupts-extended; FDT_NO_SSWI_REG if none. */
    uint32_t sswi_reg[MAX_HARTS];
    bool     has_sstc;              /* "sstc" in riscv,isa of the first enabled hart */
    bool     has_zbb;               /* "zbb": clz, used by arch_log2_floor */
};

struct arch_fdt_scan {
    /* Each cpu's interrupt controller by phandle, to read the PLIC's
     * interrupts-extended and the SSWI's (which may come before or after
     * the cpus). */
    struct { uint32_t phandle, hartid; } intc[MAX_CPU_INTCS];
    int nintc;
    struct fdt_value plic_contexts;
    struct fdt_value sswi_regs;
};

/* The properties the port reads, beyond the walker's own: slots in its
 * per-node table, as X(slot, name). */
#define ARCH_FDT_PROPS(X) \
    X(PROP_ISA,  "riscv,isa") \
    X(PROP_NDEV, "riscv,ndev")

#endif
