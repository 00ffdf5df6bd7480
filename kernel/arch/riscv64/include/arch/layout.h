/*
 * The riscv64 (Sv39) virtual address layout.
 *
 *   0x0000000000000000 .. USER_TOP            user space (lower half, 256 GiB)
 *   KERNEL_DIRECT_BASE + pa                   direct map of physical memory
 *                                             (the kernel image is linked inside it)
 *   KSTACK_AREA_BASE ..                       thread kernel stacks, with guard pages
 *
 * Sv39 takes bits 38..0 and requires bits 63..39 to copy bit 38, so the upper
 * half starts at 0xffffffc000000000. Each root-table entry spans 1 GiB.
 */
#ifndef ARCH_LAYOUT_H
#define ARCH_LAYOUT_H

#ifdef __ASSEMBLY__
#define _UL(x) x
#else
#define _UL(x) x##UL
#endif

#define USER_TOP              _UL(0x0000004000000000)
#define USER_BASE             _UL(0x0000000000010000)   /* nothing is mapped below: NULL faults */
#define USER_STACK_TOP        (USER_TOP - _UL(0x1000))  /* one unmapped page above the stack */

#define KERNEL_DIRECT_BASE    _UL(0xffffffc000000000)
#define KERNEL_DIRECT_SIZE    (_UL(128) << 30)          /* root entries 256..383 */
#define KSTACK_AREA_BASE      _UL(0xffffffe000000000)   /* root entry 384 */
#define KSTACK_AREA_SIZE      (_UL(1) << 30)

#define PA_TO_KVA(pa)         ((uint64_t)(pa) + KERNEL_DIRECT_BASE)
#define KVA_TO_PA(va)         ((uint64_t)(va) - KERNEL_DIRECT_BASE)

#define KERNEL_LOAD_PA        _UL(0x80200000)           /* where OpenSBI jumps (QEMU virt convention) */

/* Page-table shape, for the portable kernel map (kernel/mm/kmap.c).
 * MMU_ROOT_ENTRY_LEVEL: the level of the table one root entry points to
 * (Sv39: level 1, below the level-2 root); preparing it for an area makes
 * later mappings there appear in every address space, which copies the
 * kernel's root entries. MMU_LARGEST_PAGE: the biggest leaf the direct
 * map uses (Sv39: 1 GiB, a root-level leaf); physical memory is mapped up
 * to a multiple of it. */
#define MMU_ROOT_ENTRY_LEVEL  1
#define MMU_LARGEST_PAGE      (_UL(1) << 30)

#endif
