/*
 * Flattened device tree reader. Pure code: no allocation, no globals, so the
 * host unit tests can run it on a DTB that QEMU dumps.
 *
 * fdt_scan() walks the blob once and fills struct board_info with everything
 * faultline needs; the kernel never hard-codes what the DTB can say.
 */
#ifndef FAULTLINE_FDT_H
#define FAULTLINE_FDT_H

#include "types.h"
#include "config.h"

struct mem_range {
    uint64_t base;
    uint64_t size;
};

struct mmio_dev {
    uint64_t base;
    uint64_t size;
    uint32_t irq;          /* 0 if none */
    bool     present;
};

/* A property value in the blob: offset of its first byte (0 = absent; a
 * value can never sit on the header) and its length. */
struct fdt_value {
    uint32_t off;
    uint32_t len;
};

/* The port's part of the board (struct arch_board: its own devices and
 * what it reads of the cpus) and of the scan state, filled by the port's
 * half of the interpretation (kernel/arch/<arch>/fdt_<arch>.c). */
#include <arch/board.h>

struct board_info {
    struct mem_range memory[MAX_MEMORY_RANGES];
    int      nmemory;
    struct mem_range reserved[MAX_RESERVED_RANGES];  /* /reserved-memory children and the memreserve block */
    int      nreserved;
    uint32_t hart_ids[MAX_HARTS];   /* cpus with status "okay" (or no status) */
    int      nharts;
    int      harts_ignored;         /* cpus beyond MAX_HARTS */
    uint64_t timebase_hz;
    uint64_t initrd_start, initrd_end;   /* 0,0 if none */
    char     bootargs[BOOTARGS_MAX];
    bool     bootargs_too_long;     /* /chosen/bootargs did not fit: bootargs is
                                       empty, and the boot must refuse to go on */
    struct mmio_dev uart;           /* compatible "ns16550a" */
    struct mmio_dev test;           /* compatible "sifive,test0": exit QEMU with a code */
    struct mmio_dev virtio[8];      /* compatible "virtio,mmio", in DTB order */
    int      nvirtio;
    struct arch_board arch;         /* the port's own devices (<arch/board.h>) */
};

/* Returns 0 on success, or a negative code naming what is wrong:
 * FDT_ERR_MAGIC, FDT_ERR_VERSION, FDT_ERR_TRUNCATED, FDT_ERR_STRUCTURE,
 * FDT_ERR_LIMIT. On error *out is all zeros. */
#define FDT_ERR_MAGIC      (-1)
#define FDT_ERR_VERSION    (-2)
#define FDT_ERR_TRUNCATED  (-3)
#define FDT_ERR_STRUCTURE  (-4)
#define FDT_ERR_LIMIT      (-5)  /* more reserved ranges than MAX_RESERVED_RANGES:
                                    dropping some silently would be unsafe. (Bootargs
                                    longer than BOOTARGS_MAX-1 are no error here but
                                    bootargs_too_long: the kernel can then say so.) */

int fdt_scan(const void *blob, struct board_info *out);
uint32_t fdt_total_size(const void *blob);   /* 0 if the header is bad */
const char *fdt_strerror(int err);

#endif
