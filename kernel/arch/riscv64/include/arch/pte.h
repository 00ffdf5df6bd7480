/*
 * Sv39 page-table entry bits, and the leaf operations short enough to be
 * inline on the fault paths that are measured (mmu.h declares the rest;
 * kernel/arch/riscv64/mmu.c implements them).
 */
#ifndef FAULTLINE_ARCH_PTE_H
#define FAULTLINE_ARCH_PTE_H

#include "types.h"

typedef uint64_t pte_t;

#define PTE_V   (1UL << 0)
#define PTE_R   (1UL << 1)
#define PTE_W   (1UL << 2)
#define PTE_X   (1UL << 3)
#define PTE_U   (1UL << 4)
#define PTE_G   (1UL << 5)
#define PTE_A   (1UL << 6)
#define PTE_D   (1UL << 7)
#define PTE_LEAF_BITS   (PTE_R | PTE_W | PTE_X)
#define PTE_PPN_SHIFT   10
#define PTE_PPN_BITS    44
/* The two bits Sv39 reserves for software. In an entry that is not valid
 * the hardware looks at nothing, so they (with the PPN field) carry the
 * memory managers' states: see enum leaf_state. */
#define PTE_SW_SWAPPED    (1UL << 8)    /* PPN field = swap slot */
#define PTE_SW_HIDDEN     (1UL << 9)    /* the rest of the entry is intact, V cleared */
#define PTE_SW_DISCARDED  (PTE_SW_SWAPPED | PTE_SW_HIDDEN)
#define PTE_SW_MASK       (PTE_SW_SWAPPED | PTE_SW_HIDDEN)
/* With V clear the hardware reads no other bit. A page in transit has
 * both RSW bits, as DISCARDED, which has nothing else set (a HIDDEN entry
 * keeps its R, W bits but never has both RSW bits); the R bit's place
 * marks the transit, the W bit's says it is outgoing, and the PPN field
 * holds the slot. */
#define PTE_SW_TRANSIT    PTE_R
#define PTE_SW_OUT        PTE_W

/* Whether the entry is EMPTY (mmu.h): neither valid nor marked by the
 * software bits, which is what mmu_leaf_read calls LEAF_EMPTY. Inline:
 * the common fault, a first touch, needs no more than this of it. */
static inline bool mmu_leaf_empty(const void *leaf)
{
    return !(__atomic_load_n((const pte_t *)leaf, __ATOMIC_RELAXED) & (PTE_V | PTE_SW_MASK));
}

/* HIDDEN -> PRESENT, accessed set (mmu.h). Inline: it is the whole of a
 * minor fault's remap. A plain store: the hardware sets A and D only in
 * a valid entry, and this one is not valid until the store. */
static inline void mmu_leaf_reveal(void *leaf)
{
    pte_t e = __atomic_load_n((pte_t *)leaf, __ATOMIC_RELAXED);
    __atomic_store_n((pte_t *)leaf, (e & ~PTE_SW_HIDDEN) | PTE_V | PTE_A, __ATOMIC_RELEASE);
}

#endif
