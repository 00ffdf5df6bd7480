/*
 * Sv39 page tables: three levels of 512 eight-byte entries, 4 KiB pages,
 * 2 MiB megapages and 1 GiB gigapages (a leaf at level 1 or 2).
 */
#include "mmu.h"
#include "frame.h"
#include "kstring.h"
#include "printk.h"
#include <arch/arch.h>
#include <arch/pte.h>
#include <faultline/errno.h>

#define SV39_LEVELS       3
#define PT_ENTRIES        512
#define VPN_BITS          9
#define ROOT_KERNEL_FIRST 256         /* upper half: entries 256..511 */


pagetable_t kernel_pagetable;

/* The kernel half's root entries that are not empty, by index: a new user
 * root, taken zeroed, gets only these (a handful, where the half has 256
 * entries), and exit clears only these. Listed at the first user root:
 * every root entry of the kernel's is made at boot (kmap_init prepares
 * the kernel-stack area's too, so that stacks show in every space), and
 * adding one after the list is made panics (kernel_root_grows). */
static uint16_t kroot_used[PT_ENTRIES - ROOT_KERNEL_FIRST];
static int kroot_nused = -1;            /* -1: not listed yet */

static void kernel_root_grows(pagetable_t root, vaddr_t va)
{
    if (root == kernel_pagetable && __atomic_load_n(&kroot_nused, __ATOMIC_ACQUIRE) >= 0)
        panic("mmu: kernel root entry for %lx added after user roots copied the half", va);
}

static inline pte_t *table_of(paddr_t pa) { return (pte_t *)PA_TO_KVA(pa); }
static inline paddr_t pte_pa(pte_t e) { return (e >> PTE_PPN_SHIFT) << PAGE_SHIFT; }
static inline pte_t pa_pte(paddr_t pa) { return (pa >> PAGE_SHIFT) << PTE_PPN_SHIFT; }
static inline unsigned vpn(vaddr_t va, int level)
{
    return (va >> (PAGE_SHIFT + VPN_BITS * level)) & (PT_ENTRIES - 1);
}
static inline uint64_t level_size(int level) { return PAGE_SIZE << (VPN_BITS * level); }

/* A and D preset: the hardware-managed bits are not needed for kernel
 * mappings, and QEMU would otherwise fault to set them. User pages get
 * them too until a memory manager wants reference/dirty tracking. W
 * brings R: W without R is reserved in Sv39. */
#define PROT_PTE(p) (PTE_V | PTE_A | PTE_D | (((p) & PROT_R) ? PTE_R : 0) |         \
                     (((p) & PROT_W) ? PTE_W | PTE_R : 0) | (((p) & PROT_X) ? PTE_X : 0) | \
                     (((p) & PROT_U) ? PTE_U : 0) | (((p) & PROT_G) ? PTE_G : 0))
#define PROT_ALL    (PROT_R | PROT_W | PROT_X | PROT_U | PROT_G)
#define P4(p)  PROT_PTE(p), PROT_PTE((p) + 1), PROT_PTE((p) + 2), PROT_PTE((p) + 3)
#define P16(p) P4(p), P4((p) + 4), P4((p) + 8), P4((p) + 12)
/* One load per mapping made (every fault maps a page) instead of five tests. */
static const pte_t prot_pte[PROT_ALL + 1] = { P16(0), P16(16) };
_Static_assert(PROT_ALL == 31, "prot_pte covers every combination");

static inline pte_t prot_bits(unsigned prot)
{
    return prot_pte[prot & PROT_ALL];
}

static unsigned pte_prot(pte_t e)
{
    unsigned p = 0;
    if (e & PTE_R) p |= PROT_R;
    if (e & PTE_W) p |= PROT_W;
    if (e & PTE_X) p |= PROT_X;
    if (e & PTE_U) p |= PROT_U;
    if (e & PTE_G) p |= PROT_G;
    return p;
}

/* Walks to the entry for va at `level`, creating intermediate tables. */
static pte_t *walk(pagetable_t root, vaddr_t va, int level, bool create)
{
    pte_t *table = table_of(root);
    for (int l = SV39_LEVELS - 1; l > level; l--) {
        pte_t *e = &table[vpn(va, l)];
        if (*e & PTE_V) {
            if (*e & PTE_LEAF_BITS)
                return NULL;             /* a larger page already covers va */
            table = table_of(pte_pa(*e));
            continue;
        }
        if (!create)
            return NULL;
        if (l == SV39_LEVELS - 1)
            kernel_root_grows(root, va);
        paddr_t t = frame_alloc_zeroed(FRAME_PAGETABLE);
        if (!t)
            return NULL;
        *e = pa_pte(t) | PTE_V;
        table = table_of(t);
    }
    return &table[vpn(va, level)];
}

int mmu_prepare(pagetable_t root, vaddr_t va, int level)
{
    return walk(root, va, level, true) ? 0 : -ENOMEM;
}

int mmu_map_range(pagetable_t root, vaddr_t va, paddr_t pa, uint64_t size, unsigned prot)
{
    while (size) {
        int level = SV39_LEVELS - 1;
        while (level > 0 && (((va | pa) & (level_size(level) - 1)) || size < level_size(level)))
            level--;
        if (level == SV39_LEVELS - 1)
            kernel_root_grows(root, va);
        pte_t *e = walk(root, va, level, true);
        if (!e)
            return -ENOMEM;
        *e = pa_pte(pa) | prot_bits(prot);
        va += level_size(level);
        pa += level_size(level);
        size -= level_size(level);
    }
    return 0;
}

/* Every fault walks to its leaf: the tables usually exist, so the two
 * upper levels are read inline, with no frame or saved registers, and
 * only a missing table (or a megapage) goes to the general walk, as a
 * tail call. */
void *mmu_leaf(pagetable_t root, vaddr_t va, bool create)
{
    const pte_t *top = table_of(root);
    pte_t e = __atomic_load_n(&top[vpn(va, 2)], __ATOMIC_RELAXED);
    if ((e & (PTE_V | PTE_LEAF_BITS)) == PTE_V) {
        const pte_t *mid = table_of(pte_pa(e));
        e = __atomic_load_n(&mid[vpn(va, 1)], __ATOMIC_RELAXED);
        if ((e & (PTE_V | PTE_LEAF_BITS)) == PTE_V)
            return &table_of(pte_pa(e))[vpn(va, 0)];
    }
    return walk(root, va, 0, create);
}

void *mmu_leaf_near(void *leaf, vaddr_t leaf_va, vaddr_t va)
{
    if ((leaf_va ^ va) >> (PAGE_SHIFT + VPN_BITS))
        return NULL;
    return (pte_t *)leaf + ((int64_t)(va >> PAGE_SHIFT) - (int64_t)(leaf_va >> PAGE_SHIFT));
}

void mmu_leaf_set(void *leaf, paddr_t pa, unsigned prot)
{
    *(pte_t *)leaf = pa_pte(pa) | prot_bits(prot);
}

enum leaf_state mmu_leaf_read(const void *leaf, struct leaf_info *info)
{
    pte_t e = __atomic_load_n((const pte_t *)leaf, __ATOMIC_RELAXED);
    enum leaf_state st;
    if (e & PTE_V)
        st = LEAF_PRESENT;
    else if ((e & PTE_SW_MASK) == PTE_SW_DISCARDED)
        st = !(e & PTE_SW_TRANSIT) ? LEAF_DISCARDED :
             (e & PTE_SW_OUT) ? LEAF_OUTGOING : LEAF_INCOMING;
    else if (e & PTE_SW_HIDDEN)
        st = LEAF_HIDDEN;
    else if (e & PTE_SW_SWAPPED)
        st = LEAF_SWAPPED;
    else
        st = LEAF_EMPTY;
    if (info) {
        info->state = st;
        info->pa = pte_pa(e);
        info->prot = pte_prot(e);
        info->bits = ((e & PTE_A) ? MMU_ACCESSED : 0) | ((e & PTE_D) ? MMU_DIRTY : 0);
        info->slot = e >> PTE_PPN_SHIFT;
    }
    return st;
}

void mmu_leaf_set_tracked(void *leaf, paddr_t pa, unsigned prot, bool dirty)
{
    pte_t e = pa_pte(pa) | prot_bits(prot);
    if (!dirty)
        e &= ~PTE_D;
    __atomic_store_n((pte_t *)leaf, e, __ATOMIC_RELEASE);
}

void mmu_leaf_set_swapped(void *leaf, uint64_t slot)
{
    __atomic_store_n((pte_t *)leaf, (slot << PTE_PPN_SHIFT) | PTE_SW_SWAPPED, __ATOMIC_RELEASE);
}

void mmu_leaf_set_discarded(void *leaf)
{
    __atomic_store_n((pte_t *)leaf, PTE_SW_DISCARDED, __ATOMIC_RELEASE);
}

void mmu_leaf_set_incoming(void *leaf, uint64_t slot)
{
    __atomic_store_n((pte_t *)leaf, (slot << PTE_PPN_SHIFT) | PTE_SW_DISCARDED | PTE_SW_TRANSIT,
                     __ATOMIC_RELEASE);
}

void mmu_leaf_set_outgoing(void *leaf, uint64_t slot)
{
    __atomic_store_n((pte_t *)leaf, (slot << PTE_PPN_SHIFT) | PTE_SW_DISCARDED | PTE_SW_TRANSIT |
                     PTE_SW_OUT,
                     __ATOMIC_RELEASE);
}

void mmu_leaf_clear(void *leaf)
{
    __atomic_store_n((pte_t *)leaf, 0, __ATOMIC_RELEASE);
}

bool mmu_leaf_test_clear_accessed(void *leaf)
{
    pte_t old = __atomic_fetch_and((pte_t *)leaf, ~PTE_A, __ATOMIC_ACQ_REL);
    return (old & PTE_V) && (old & PTE_A);
}

void mmu_leaf_hide(void *leaf)
{
    pte_t old = __atomic_load_n((pte_t *)leaf, __ATOMIC_RELAXED);
    /* The hardware may set A or D meanwhile; retry so neither is lost. */
    while (!__atomic_compare_exchange_n((pte_t *)leaf, &old, (old & ~(PTE_V | PTE_A)) | PTE_SW_HIDDEN,
                                        false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        ;
}

unsigned mmu_leaf_take(void *leaf)
{
    pte_t old = __atomic_exchange_n((pte_t *)leaf, 0, __ATOMIC_ACQ_REL);
    return ((old & PTE_A) ? MMU_ACCESSED : 0) | ((old & PTE_D) ? MMU_DIRTY : 0);
}

uint64_t mmu_max_swap_slot(void)
{
    return (1UL << PTE_PPN_BITS) - 1;
}

int mmu_map_page(pagetable_t root, vaddr_t va, paddr_t pa, unsigned prot)
{
    pte_t *e = walk(root, va, 0, true);
    if (!e)
        return -ENOMEM;
    mmu_leaf_set(e, pa, prot);
    return 0;
}

paddr_t mmu_unmap_page(pagetable_t root, vaddr_t va)
{
    pte_t *e = walk(root, va, 0, false);
    if (!e || !(*e & PTE_V))
        return 0;
    paddr_t pa = pte_pa(*e);
    *e = 0;
    return pa;
}

pagetable_t mmu_new_user_root(void)
{
    paddr_t root = frame_alloc_zeroed(FRAME_PAGETABLE);
    if (!root)
        return 0;
    pte_t *dst = table_of(root), *src = table_of(kernel_pagetable);
    int n = __atomic_load_n(&kroot_nused, __ATOMIC_ACQUIRE);
    if (n < 0) {
        /* Two first callers list the same entries: either may publish. */
        n = 0;
        for (int i = ROOT_KERNEL_FIRST; i < PT_ENTRIES; i++)
            if (src[i])
                kroot_used[n++] = (uint16_t)i;
        __atomic_store_n(&kroot_nused, n, __ATOMIC_RELEASE);
    }
    for (int k = 0; k < n; k++)
        dst[kroot_used[k]] = src[kroot_used[k]];
    return root;
}

/* Entries the walks below test at a time: a user table is mostly zero
 * entries (a small process has a few pages in each of a few tables), so
 * they OR a group together and skip it on one test, about two
 * instructions an entry where one at a time takes five. */
#define SCAN_GROUP 8          /* group_empty's entries */
_Static_assert(PT_ENTRIES % SCAN_GROUP == 0 && ROOT_KERNEL_FIRST % SCAN_GROUP == 0,
               "whole groups");

static inline bool group_empty(const pte_t *t)
{
    /* Written out: the compiler keeps a loop of eight as a loop. */
    return ((t[0] | t[1]) | (t[2] | t[3]) | (t[4] | t[5]) | (t[6] | t[7])) == 0;
}

static bool table_empty(const pte_t *t)
{
    for (int g = 0; g < PT_ENTRIES; g += SCAN_GROUP)
        if (!group_empty(&t[g]))
            return false;
    return true;
}

/* Below `table` (a table of `level` > 0 whose entry i maps base + i *
 * level_size(level)): tables that cover part of [from, to) and are empty,
 * deepest first, so that a parent emptied by its children goes too. */
static int unhook(pte_t *table, int level, vaddr_t base, vaddr_t from, vaddr_t to,
                  paddr_t *out, int n, int max)
{
    uint64_t span = level_size(level);
    int first = from > base ? (int)((from - base) / span) : 0;
    int end = level == SV39_LEVELS - 1 ? ROOT_KERNEL_FIRST : PT_ENTRIES;
    for (int i = first; i < end && n < max; i++) {
        vaddr_t va = base + (uint64_t)i * span;
        if (va >= to)
            break;
        pte_t e = table[i];
        if (!(e & PTE_V) || (e & PTE_LEAF_BITS))
            continue;
        pte_t *child = table_of(pte_pa(e));
        if (level - 1 > 0)
            n = unhook(child, level - 1, va, from, to, out, n, max);
        if (n < max && table_empty(child)) {
            __atomic_store_n(&table[i], 0, __ATOMIC_RELEASE);
            out[n++] = pte_pa(e);
        }
    }
    return n;
}

int mmu_unhook_empty_tables(pagetable_t root, vaddr_t from, vaddr_t to, paddr_t *out, int max)
{
    return unhook(table_of(root), SV39_LEVELS - 1, 0, from, to, out, 0, max);
}

static void for_each(paddr_t table, int level, vaddr_t base,
                     void (*fn)(vaddr_t, void *, void *), void *ctx)
{
    pte_t *t = table_of(table);
    int n = level == SV39_LEVELS - 1 ? ROOT_KERNEL_FIRST : PT_ENTRIES;
    uint64_t step = level_size(level);
    for (int g = 0; g < n; g += SCAN_GROUP) {
        if (group_empty(&t[g]))
            continue;
        for (int i = g; i < g + SCAN_GROUP; i++) {
            if (!t[i])
                continue;
            vaddr_t va = base + (uint64_t)i * step;
            if (level == 0) {
                /* Software states live in entries that are not valid. */
                fn(va, &t[i], ctx);
                continue;
            }
            if (!(t[i] & PTE_V) || (t[i] & PTE_LEAF_BITS))
                continue;        /* user space has no large pages */
            for_each(pte_pa(t[i]), level - 1, va, fn, ctx);
        }
    }
}

void mmu_for_each_user_leaf(pagetable_t root,
                            void (*fn)(vaddr_t va, void *leaf, void *ctx), void *ctx)
{
    for_each(root, SV39_LEVELS - 1, 0, fn, ctx);
}

/* One walk over the entries that cover part of w->r[from..n): each entry
 * is visited once even when several ranges share it, in address order
 * (the ranges are sorted), empty groups of entries skipped on one test.
 * With free_tables, every table below is freed after its entries were
 * (fn clears each leaf; the ranges cover every entry that is not empty),
 * so it goes back known to be zero. */
struct range_walk {
    const struct mmu_range *r;
    int n;
    void (*fn)(vaddr_t va, void *leaf, void *ctx);
    void *ctx;
    bool free_tables;
};

static void walk_ranges(const struct range_walk *w, pte_t *t, int level, vaddr_t base, int from)
{
    uint64_t step = level_size(level);
    unsigned nent = level == SV39_LEVELS - 1 ? ROOT_KERNEL_FIRST : PT_ENTRIES;
    vaddr_t top = base + step * nent;
    unsigned next = 0;          /* entries below it were visited */
    for (int k = from; k < w->n; k++) {
        const struct mmu_range *r = &w->r[k];
        if (r->end <= base)
            continue;
        if (r->start >= top)
            break;
        unsigned first = r->start > base ? (unsigned)((r->start - base) / step) : 0;
        unsigned last = r->end >= top ? nent : (unsigned)((r->end - base + step - 1) / step);
        if (first < next)
            first = next;
        for (unsigned i = first; i < last; i++) {
            if (i % SCAN_GROUP == 0 && i + SCAN_GROUP <= last && group_empty(&t[i])) {
                i += SCAN_GROUP - 1;
                continue;
            }
            pte_t e = t[i];
            if (!e)
                continue;
            vaddr_t va = base + (uint64_t)i * step;
            if (level == 0) {
                /* Software states live in entries that are not valid. */
                w->fn(va, &t[i], w->ctx);
                if (w->free_tables && t[i])
                    panic("mmu: leaf %lx at %lx still there when freeing its table",
                          (uint64_t)t[i], va);
                continue;
            }
            if (!(e & PTE_V) || (e & PTE_LEAF_BITS)) {
                if (w->free_tables)
                    panic("mmu: entry %lx at %lx is no table", (uint64_t)e, va);
                continue;        /* user space has no large pages */
            }
            pte_t *child = table_of(pte_pa(e));
            walk_ranges(w, child, level - 1, va, k);
            if (w->free_tables) {
#ifdef FL_DEBUG
                if (!table_empty(child))
                    panic("mmu: table %lx under %lx maps outside the space's ranges",
                          pte_pa(e), va);
#endif
                t[i] = 0;
                frame_free_zeroed(pte_pa(e));
            }
        }
        if (last > next)
            next = last;
    }
}

void mmu_for_each_user_leaf_in(pagetable_t root, const struct mmu_range *r, int n,
                               void (*fn)(vaddr_t va, void *leaf, void *ctx), void *ctx)
{
    struct range_walk w = { r, n, fn, ctx, false };
    walk_ranges(&w, table_of(root), SV39_LEVELS - 1, 0, 0);
}

void mmu_destroy_user(pagetable_t root, const struct mmu_range *r, int n,
                      void (*fn)(vaddr_t va, void *leaf, void *ctx), void *ctx)
{
    struct range_walk w = { r, n, fn, ctx, true };
    pte_t *t = table_of(root);
    walk_ranges(&w, t, SV39_LEVELS - 1, 0, 0);
    /* The user half is empty now; the kernel half has only the entries
     * mmu_new_user_root copied in. Cleared, the root is zero like the
     * rest, and goes later (mmu_free_root). */
    for (int k = 0; k < kroot_nused; k++)
        t[kroot_used[k]] = 0;
#ifdef FL_DEBUG
    if (!table_empty(t))
        panic("mmu: root %lx maps outside the space's ranges", root);
#endif
}

void mmu_free_root(pagetable_t root)
{
    frame_free_zeroed(root);     /* emptied, and checked so, by mmu_destroy_user */
}

void mmu_activate(pagetable_t root)
{
    csr_write(satp, SATP_MODE_SV39 | (root >> PAGE_SHIFT));
    sfence_vma_all();
}

void mmu_flush_local(void)
{
    sfence_vma_all();
}

void mmu_flush_page(vaddr_t va)
{
    sfence_vma_page(va);
}
