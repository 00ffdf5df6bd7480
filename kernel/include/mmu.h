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
#ifndef FAULTLINE_HOST
#include <arch/pte.h>          /* the port's entry bits and inline leaf calls */
#else
void mmu_leaf_reveal(void *leaf);
#endif

/* Portable protection bits */
#define PROT_R    0x1
#define PROT_W    0x2
#define PROT_X    0x4
#define PROT_U    0x8     /* user accessible */
#define PROT_G    0x10    /* global: kernel mappings present in every space */

/* A leaf's hardware state bits (struct leaf_info.bits, mmu_leaf_take) */
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
/* Present, with accessed and dirty preset (no tracking: kernel, and user
 * pages that will never be written back). */
void mmu_leaf_set(void *leaf, paddr_t pa, unsigned prot);

/*
 * What the memory managers keep in a user leaf entry. The hardware sees
 * only PRESENT; the other states are software encodings in an entry the
 * hardware ignores (not valid), so touching such a page faults into
 * vm_fault, which reads the state back.
 */
enum leaf_state {
    LEAF_EMPTY,       /* never touched: fill from the region's origin */
    LEAF_PRESENT,     /* mapped */
    LEAF_HIDDEN,      /* frame still mapped, hidden to catch the next reference (refbits=sw) */
    LEAF_SWAPPED,     /* contents in a slot on the swap/paging device */
    LEAF_DISCARDED,   /* was resident, dropped clean: refill from the origin (not a first touch) */
    LEAF_INCOMING,    /* being read in from its slot (slot), frame pinned, no lock held */
    LEAF_OUTGOING,    /* being written out to its slot (slot), frame pinned, no lock held */
};

struct leaf_info {
    enum leaf_state state;
    paddr_t  pa;          /* PRESENT, HIDDEN */
    unsigned prot;        /* PRESENT, HIDDEN */
    unsigned bits;        /* PRESENT, HIDDEN: MMU_ACCESSED | MMU_DIRTY */
    uint64_t slot;        /* SWAPPED, INCOMING, OUTGOING */
};

enum leaf_state mmu_leaf_read(const void *leaf, struct leaf_info *info);
/* mmu_leaf_read(leaf, NULL) == LEAF_EMPTY: mmu_leaf_empty, inline from
 * the port's <arch/pte.h>. */
/* Present with reference and dirty tracking: accessed set (a page just
 * brought in has been referenced), dirty left for the hardware to set on
 * the first write, unless dirty is true. */
void mmu_leaf_set_tracked(void *leaf, paddr_t pa, unsigned prot, bool dirty);
void mmu_leaf_set_swapped(void *leaf, uint64_t slot);
void mmu_leaf_set_discarded(void *leaf);
/* Pages in transit (kernel/mm/pagestate.h): not valid for the hardware,
 * with the slot the device reads from or writes to. */
void mmu_leaf_set_incoming(void *leaf, uint64_t slot);
void mmu_leaf_set_outgoing(void *leaf, uint64_t slot);
void mmu_leaf_clear(void *leaf);                  /* back to EMPTY */
/* Atomically: clears the accessed bit of a PRESENT entry; true if it was set. */
bool mmu_leaf_test_clear_accessed(void *leaf);
/* Atomically: PRESENT -> HIDDEN, clearing accessed. */
void mmu_leaf_hide(void *leaf);
/* HIDDEN -> PRESENT, accessed set: mmu_leaf_reveal, inline from the
 * port's <arch/pte.h> (included below). */
/* Atomically empties a PRESENT or HIDDEN entry and returns its MMU_DIRTY /
 * MMU_ACCESSED bits as they were at that instant: after this (and a TLB
 * shootdown) no hart can write the frame, and no write was lost. */
unsigned mmu_leaf_take(void *leaf);
/* The largest slot number a SWAPPED entry can hold. */
uint64_t mmu_max_swap_slot(void);
/* Removes a 4 KiB mapping; returns the physical address it had, or 0. */
paddr_t mmu_unmap_page(pagetable_t root, vaddr_t va);
/* Makes sure the table pages for va exist (so the kernel half can be shared). */
int  mmu_prepare(pagetable_t root, vaddr_t va, int level);

/* A new user root with the kernel half copied from kernel_pagetable. */
pagetable_t mmu_new_user_root(void);
/* The entry for va if it is in the same last-level table as `leaf`, the
 * entry for leaf_va; NULL if it is in another. A walk over neighbouring
 * pages (fork's copy) takes the next entry without walking again. */
void *mmu_leaf_near(void *leaf, vaddr_t leaf_va, vaddr_t va);
/* A span of user addresses, page aligned, end exclusive. */
struct mmu_range { vaddr_t start, end; };
/* Ends a user page table: calls fn for every user leaf entry in the
 * ranges that is not EMPTY (fn must clear it; the caller owns the
 * frames), then frees every table page below the root, all zero by then,
 * as zeroed frames, each after its entry in its parent is cleared; the
 * root is left, empty, for mmu_free_root. The ranges (r[0..n), sorted,
 * disjoint) must cover every entry that is not empty: tables are found
 * only through them (the cost is that of what is mapped, not of the
 * tables' size). No hart may have the table loaded. */
void mmu_destroy_user(pagetable_t root, const struct mmu_range *r, int n,
                      void (*fn)(vaddr_t va, void *leaf, void *ctx), void *ctx);
/* Frees a root mmu_destroy_user emptied, as a zeroed frame. */
void mmu_free_root(pagetable_t root);
/* Unhooks the user table pages that map nothing and cover some of
 * [from, to), each from its parent, and puts their addresses in out
 * (at most max; call again while it returns max). The caller flushes
 * every TLB that may hold the space before it frees them: a hart's
 * walker may still hold an unhooked table. Under the space's lock, after
 * the range's leaves were emptied (a table with a leaf in transit is not
 * empty). */
int mmu_unhook_empty_tables(pagetable_t root, vaddr_t from, vaddr_t to, paddr_t *out, int max);
/* Calls fn for every 4 KiB user leaf entry that is not EMPTY, in address
 * order, with the entry itself (fn may change it). */
void mmu_for_each_user_leaf(pagetable_t root,
                            void (*fn)(vaddr_t va, void *leaf, void *ctx), void *ctx);
/* The same, only over the entries in ranges r[0..n) (sorted, disjoint). */
void mmu_for_each_user_leaf_in(pagetable_t root, const struct mmu_range *r, int n,
                               void (*fn)(vaddr_t va, void *leaf, void *ctx), void *ctx);

void mmu_activate(pagetable_t root);      /* load it on this hart */
void mmu_flush_local(void);               /* flush this hart's TLB */
void mmu_flush_page(vaddr_t va);          /* flush one page from this hart's TLB */

#endif
