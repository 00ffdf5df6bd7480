/*
 * Page tables, in portable terms. The riscv64 port implements Sv39
 * (kernel/arch/riscv64/mmu.c); an x86_64 port would implement 4-level
 * tables behind the same calls. Page-table pages come from the frame
 * allocator (FRAME_PAGETABLE), so they show in the core map.
 */
#ifndef FAULTLINE_MMU_H
#define FAULTLINE_MMU_H

#include "types.h"
#include "config.h"

/* Portable protection bits */
#define PROT_R    0x1
#define PROT_W    0x2
#define PROT_X    0x4
#define PROT_U    0x8     /* user accessible */
#define PROT_G    0x10    /* global: kernel mappings present in every space */

/* State bits returned by mmu_lookup / cleared by mmu_clear_state */
#define MMU_ACCESSED 0x1
#define MMU_DIRTY    0x2

typedef paddr_t pagetable_t;    /* physical address of the root table */

extern pagetable_t kernel_pagetable;

/* Maps [va, va+size) to [pa, pa+size) using the largest pages alignment
 * allows (kernel direct map); user mappings use mmu_map_page. 0 or -ENOMEM. */
int  mmu_map_range(pagetable_t root, vaddr_t va, paddr_t pa, uint64_t size, unsigned prot);
int  mmu_map_page(pagetable_t root, vaddr_t va, paddr_t pa, unsigned prot);
/* The 4 KiB leaf entry for va, as an opaque handle, so that a fault can
 * look at an entry and then fill it with one walk. create makes missing
 * table pages; NULL if they are missing (or out of memory), or if a larger
 * page covers va. */
void *mmu_leaf(pagetable_t root, vaddr_t va, bool create);
bool mmu_leaf_get(const void *leaf, paddr_t *pa, unsigned *prot);  /* false: not present */
void mmu_leaf_set(void *leaf, paddr_t pa, unsigned prot);
/* Removes a 4 KiB mapping; returns the physical address it had, or 0. */
paddr_t mmu_unmap_page(pagetable_t root, vaddr_t va);
/* Finds a 4 KiB user mapping: returns true and fills *pa, *prot, *state. */
bool mmu_lookup(pagetable_t root, vaddr_t va, paddr_t *pa, unsigned *prot, unsigned *state);
/* Makes sure the table pages for va exist (so the kernel half can be shared). */
int  mmu_prepare(pagetable_t root, vaddr_t va, int level);

/* A new user root with the kernel half copied from kernel_pagetable. */
pagetable_t mmu_new_user_root(void);
/* Frees the user half's table pages and the root. Leaf frames must already
 * have been unmapped (the caller owns them). */
void mmu_free_user_root(pagetable_t root);
/* Calls fn for every mapped 4 KiB user page, in address order. */
void mmu_for_each_user_page(pagetable_t root,
                            void (*fn)(vaddr_t va, paddr_t pa, unsigned prot, void *ctx), void *ctx);

void mmu_activate(pagetable_t root);      /* load it on this hart */
void mmu_flush_local(void);               /* flush this hart's TLB */
void mmu_flush_page(vaddr_t va);          /* flush one page from this hart's TLB */

#endif
