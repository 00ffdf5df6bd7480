/*
 * The kernel's own page table, built once at boot and shared (upper half)
 * by every user address space:
 *   - the direct map of physical memory, with 1 GiB / 2 MiB pages where
 *     alignment allows, read-write, never executable;
 *   - the kernel image inside it at page granularity: text R-X, rodata R,
 *     data and bss RW (so a stray write into code faults);
 *   - the kernel-stack area's table, created empty so that later stack
 *     mappings show up in every address space without copying.
 */
#include "mmu.h"
#include "kmap.h"
#include "printk.h"
#include <arch/arch.h>

extern char __kernel_start[], __text_end[], __rodata_end[], __kernel_end[];

#define GIB (1UL << 30)   /* for the message only */

static void map_or_panic(pagetable_t root, vaddr_t va, paddr_t pa, uint64_t size, unsigned prot)
{
    if (size && mmu_map_range(root, va, pa, size, prot))
        panic("kmap: out of memory building the kernel page table");
}

void kmap_init(paddr_t phys_top)
{
    pagetable_t root = frame_alloc_zeroed(FRAME_PAGETABLE);
    if (!root)
        panic("kmap: no frame for the kernel root table");

    paddr_t k_start = KVA_TO_PA((uint64_t)__kernel_start);
    paddr_t k_text = KVA_TO_PA((uint64_t)__text_end);
    paddr_t k_ro = KVA_TO_PA((uint64_t)__rodata_end);
    paddr_t k_end = KVA_TO_PA((uint64_t)__kernel_end);
    paddr_t top = ALIGN_UP(phys_top, MMU_LARGEST_PAGE);
    if (top > KERNEL_DIRECT_SIZE)
        panic("kmap: %lu GiB of physical address space exceeds the direct map", top / GIB);

    const unsigned rw = PROT_R | PROT_W | PROT_G;
    map_or_panic(root, PA_TO_KVA(0), 0, k_start, rw);
    map_or_panic(root, PA_TO_KVA(k_start), k_start, k_text - k_start, PROT_R | PROT_X | PROT_G);
    map_or_panic(root, PA_TO_KVA(k_text), k_text, k_ro - k_text, PROT_R | PROT_G);
    map_or_panic(root, PA_TO_KVA(k_ro), k_ro, k_end - k_ro, rw);
    map_or_panic(root, PA_TO_KVA(k_end), k_end, top - k_end, rw);

    /* The kernel-stack area's root entry gets its table now, empty;
     * stacks are added below it and show in every address space. */
    if (mmu_prepare(root, KSTACK_AREA_BASE, MMU_ROOT_ENTRY_LEVEL))
        panic("kmap: no frame for the kernel-stack table");

    kernel_pagetable = root;
    mmu_activate(root);
}
