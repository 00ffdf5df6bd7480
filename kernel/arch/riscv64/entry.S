/*
 * Boot entry. OpenSBI jumps here in S-mode with the MMU off:
 *   a0 = hart id, a1 = physical address of the device tree.
 * Secondary harts enter at _secondary_start when the boot hart asks SBI HSM
 * to start them, with a0 = hart id and a1 = the logical cpu number we passed.
 *
 * Only the first hart to reach _start boots the kernel. Firmware may send
 * others there too (a start request racing the firmware's own start-up, or
 * firmware that releases every hart into the kernel): a hart that loses the
 * boot lottery stops itself through SBI HSM, and the kernel starts it again
 * at _secondary_start once it is running (hart.c, main.c).
 *
 * Both build nothing in C before paging is on: they load boot_pagetable,
 * which maps (a) the gigabyte holding the kernel at its physical address, so
 * the instruction after the satp write still fetches, and (b) the upper-half
 * direct map of the first 128 GiB, where the kernel is linked. The boot hart
 * then builds the real kernel table in C (mm/kmap.c) and switches to it.
 */
#include <arch/arch.h>
#include <arch/sbi.h>
#include "config.h"

#define PTE_BOOT_LEAF   0xef        /* V R W X G A D: boot only; kmap.c sets real permissions */
#define GIB_SHIFT       30
#define PTE_PPN_SHIFT   10
#define DIRECT_ROOT_IDX 256
#define DIRECT_GIBS     128

    .section .text.entry, "ax"
    .globl _start
_start:
    csrw    sie, zero
    la      t0, boot_lottery
    li      t1, 1
    amoswap.w t1, t1, (t0)
    bnez    t1, lost_boot_lottery
    /* Identity entry for the gigabyte we run in. */
    la      t0, boot_pagetable
    la      t1, _start
    srli    t1, t1, GIB_SHIFT
    andi    t2, t1, 511
    slli    t3, t1, GIB_SHIFT - 12 + PTE_PPN_SHIFT
    ori     t3, t3, PTE_BOOT_LEAF
    slli    t2, t2, 3
    add     t2, t0, t2
    sd      t3, 0(t2)
    /* Upper-half direct map: entry 256+i maps gigabyte i. */
    li      t1, 0
    li      t4, DIRECT_GIBS
1:  slli    t3, t1, GIB_SHIFT - 12 + PTE_PPN_SHIFT
    ori     t3, t3, PTE_BOOT_LEAF
    addi    t2, t1, DIRECT_ROOT_IDX
    slli    t2, t2, 3
    add     t2, t0, t2
    sd      t3, 0(t2)
    addi    t1, t1, 1
    blt     t1, t4, 1b

    call    enable_boot_paging

    /* Now on the upper-half mapping: set up the stack and clear .bss. */
    la      sp, boot_stacks
    li      t0, BOOT_STACK_SIZE
    add     sp, sp, t0
    la      t0, __bss_start
    la      t1, __bss_end
2:  bgeu    t0, t1, 3f
    sd      zero, 0(t0)
    addi    t0, t0, 8
    j       2b
3:  mv      tp, zero
    mv      s0, zero
    call    kmain               /* kmain(hartid, dtb_pa) does not return */
4:  wfi
    j       4b

/* Not the boot hart: back to the firmware's stopped state (SBI HSM
 * hart_stop does not return), or park for good if it cannot. */
lost_boot_lottery:
    li      a7, SBI_EXT_HSM
    li      a6, SBI_HSM_HART_STOP
    ecall
6:  wfi
    j       6b

    .globl _secondary_start
_secondary_start:
    csrw    sie, zero
    call    enable_boot_paging
    /* sp = boot_stacks + (cpu + 1) * BOOT_STACK_SIZE */
    la      sp, boot_stacks
    addi    t0, a1, 1
    li      t1, BOOT_STACK_SIZE
    mul     t0, t0, t1
    add     sp, sp, t0
    mv      s0, zero
    call    secondary_main      /* secondary_main(hartid, cpu) does not return */
5:  wfi
    j       5b

/*
 * Turns on boot_pagetable and returns to the caller's upper-half address.
 * Called with the MMU off (pc-relative addresses are physical); clobbers t0-t2.
 */
enable_boot_paging:
    la      t0, boot_pagetable
    srli    t0, t0, 12
    li      t1, 8
    slli    t1, t1, 60          /* SATP_MODE_SV39 */
    or      t0, t0, t1
    sfence.vma
    csrw    satp, t0
    sfence.vma
    li      t2, KERNEL_DIRECT_BASE
    add     ra, ra, t2
    ret

    .section .data
    .balign 4
boot_lottery:                   /* in .data: must not be cleared with .bss */
    .word   0

    .section .data.pagetable, "aw"
    .balign 4096
    .globl boot_pagetable
boot_pagetable:
    .zero   4096

    .section .bss
    .balign 16
    .globl boot_stacks
boot_stacks:
    .zero   BOOT_STACK_SIZE * MAX_HARTS
