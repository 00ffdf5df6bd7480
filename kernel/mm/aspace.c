/*
 * Address spaces: creation, regions, teardown, exec's writes, page
 * promises and TLB shootdown. fork's copy is in clone.c, sbrk, mmap and
 * munmap in mmap.c. Frames mapped into a space are FRAME_USER in the core map,
 * owned by the space, with their virtual page recorded there, except the
 * frames a user-level fault handler was granted (kernel/ulf), which are
 * the handler's and go back to it.
 */
#include "aspace.h"
#include "frame.h"
#include "proc.h"
#include "printk.h"
#include "kstring.h"
#include "mm.h"
#include "swapspace.h"
#include "transit.h"
#include "pagestate.h"
#include "ulf.h"
#include <faultline/errno.h>

#define MAX_ASPACES (MAX_PROCS * 2)     /* exec holds the old and the new */

static struct aspace aspaces[MAX_ASPACES];
static struct spinlock aspaces_lock = SPINLOCK_INIT("aspaces", LOCK_RANK_ASPACES);

static void release_harts(struct aspace *as);
static uint64_t lazy_committed;

/* Lock-free: the fault path releases one promise per first touch, and a
 * compare-and-swap costs far less there than a spinlock round trip. */
int commit_pages(uint64_t n)
{
    uint64_t cur = __atomic_load_n(&lazy_committed, __ATOMIC_RELAXED);
    for (;;) {
        uint64_t free = frames_free_count() + mm_commit_extra();
        uint64_t limit = free > COMMIT_RESERVE_FRAMES ? free - COMMIT_RESERVE_FRAMES : 0;
        if (cur + n > limit)
            return -ENOMEM;
        if (__atomic_compare_exchange_n(&lazy_committed, &cur, cur + n, false,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return 0;
    }
}

void uncommit_pages(uint64_t n)
{
    uint64_t before = __atomic_fetch_sub(&lazy_committed, n, __ATOMIC_RELAXED);
    if (n > before)
        panic("commit: releasing %lu pages, only %lu promised", n, before);
}


uint64_t aspace_pages(const struct aspace *as)
{
    return as->resident + as->swapped + as->lazy_pages;
}

/* Swap slots count towards commit_pages' sum (a process may be out), but
 * one process may never be promised more than can be in memory at once
 * under mm=swap; COMMIT_RESERVE_FRAMES are left for its page tables and
 * the kernel's other growth until it needs to come in. */
bool aspace_may_grow(const struct aspace *as, uint64_t n)
{
    return mm_process_fits(aspace_pages(as) + n + COMMIT_RESERVE_FRAMES);
}

struct aspace *aspace_create(void)
{
    struct aspace *as = NULL;
    spin_lock(&aspaces_lock);
    for (int i = 0; i < MAX_ASPACES; i++) {
        if (!aspaces[i].in_use) {
            as = &aspaces[i];
            as->in_use = true;
            break;
        }
    }
    spin_unlock(&aspaces_lock);
    if (!as)
        return NULL;
    as->root = mmu_new_user_root();
    if (!as->root) {
        as->in_use = false;
        return NULL;
    }
    sleeplock_init(&as->lock, "aspace", LOCK_RANK_ASPACE);
    as->nregions = 0;
    as->heap_start = as->brk = 0;
    as->resident = 0;
    as->swapped = 0;
    as->lazy_pages = 0;
    as->ulf = NULL;
    as->lent = false;
    as->anon_managed = false;
    return as;
}

paddr_t aspace_drop_leaf(struct aspace *as, void *leaf)
{
    struct leaf_info li;
    enum leaf_state st = mmu_leaf_read(leaf, &li);
    if (pagestate_in_transit(st)) {
        /* Its end takes no space lock, so it comes with ours held. */
        transit_wait(leaf);
        st = mmu_leaf_read(leaf, &li);
    }
    if (st == LEAF_PRESENT && maps_zero_frame(&li)) {
        mmu_leaf_clear(leaf);       /* still a promise: the caller counts it */
        return 0;
    }
    switch (st) {
    case LEAF_PRESENT:
    case LEAF_HIDDEN:
        mmu_leaf_take(leaf);
        /* A fault handler's granted frame is no resident page of ours. */
        if (!aspace_holds_granted(as, li.pa))
            as_count(&as->resident, -1);
        return li.pa;
    case LEAF_SWAPPED:
        mmu_leaf_clear(leaf);
        swap_free((uint32_t)li.slot, 1);
        as_count(&as->swapped, -1);
        return 0;
    case LEAF_INCOMING:
    case LEAF_OUTGOING:
        panic("aspace: a transit began under the lock that waited for it");
    case LEAF_DISCARDED:
    case LEAF_EMPTY:
        mmu_leaf_clear(leaf);
        return 0;
    }
    return 0;
}

bool aspace_holds_granted(const struct aspace *as, paddr_t pa)
{
    /* One load for a space that never held one: the swapper and exit
     * walk every page. */
    return as->lent && ulf_frame_granted(pa);
}

void aspace_release_frame(struct aspace *as, paddr_t pa)
{
    if (!as->lent || !ulf_frame_dropped(as, pa))
        frame_free(pa);
}

/* Exit's frames, freed a batch at a time in one hold of the frames lock.
 * The space is no hart's any more (release_harts): a frame may go as
 * soon as its entry is cleared. */
#define DESTROY_BATCH 32
struct destroy_ctx {
    struct aspace *as;
    int n;
    paddr_t batch[DESTROY_BATCH];
};

static void destroy_flush(struct destroy_ctx *dc)
{
    frame_free_many(dc->batch, dc->n);
    dc->n = 0;
}

static void destroy_leaf(vaddr_t va, void *leaf, void *ctx)
{
    (void)va;
    struct destroy_ctx *dc = ctx;
    paddr_t pa = aspace_drop_leaf(dc->as, leaf);
    if (!pa)
        return;
    if (dc->as->lent) {
        aspace_release_frame(dc->as, pa);   /* maybe a handler's frame */
        return;
    }
    dc->batch[dc->n++] = pa;
    if (dc->n == DESTROY_BATCH)
        destroy_flush(dc);
}

int aspace_ranges(const struct aspace *as, struct mmu_range out[ASPACE_MAX_REGIONS])
{
    /* Insertion sort: a few regions, mostly added in address order. */
    int n = 0;
    for (int i = 0; i < as->nregions; i++) {
        const struct region *r = &as->regions[i];
        if (r->start == r->end)
            continue;
        int j = n++;
        for (; j > 0 && out[j - 1].start > r->start; j--)
            out[j] = out[j - 1];
        out[j] = (struct mmu_range){ r->start, r->end };
    }
    return n;
}

void aspace_destroy(struct aspace *as)
{
    release_harts(as);
    /* The lock keeps the replacement clock away: it only takes a page
     * whose space it can lock. */
    sleeplock_acquire(&as->lock);
    struct mmu_range ranges[ASPACE_MAX_REGIONS];
    int n = aspace_ranges(as, ranges);
    /* Every page lies in a region and every table page on the way to one
     * (munmap, sbrk and a failed pool unhook the tables they empty), so
     * the walk of the regions alone finds them all. */
    struct destroy_ctx dc = { .as = as, .n = 0 };
    mmu_destroy_user(as->root, ranges, n, destroy_leaf, &dc);
    /* The frames still in the batch before the root: the replacement
     * clock reads a user frame's entry from its space's root without the
     * space's lock (mm_paging.c, examine), so the root must outlive every
     * frame the space owns. (Freed first, it was once taken again and
     * filled before the batch went: the clock, run by a fault while exit
     * was switched out, walked the new bytes and panicked.) Tables below
     * it may go first: their entries are cleared before they are freed,
     * and the clock finds no leaf there. */
    destroy_flush(&dc);
    mmu_free_root(as->root);
    as->root = 0;
    if (as->resident || as->swapped)
        panic("aspace: %lu resident and %lu swapped pages outside every region",
              as->resident, as->swapped);
    uncommit_pages(as->lazy_pages);
    as->lazy_pages = 0;
    sleeplock_release(&as->lock);
    spin_lock(&aspaces_lock);
    as->in_use = false;
    spin_unlock(&aspaces_lock);
}

int aspace_add_region(struct aspace *as, vaddr_t start, vaddr_t end, unsigned prot, enum region_kind kind)
{
    if (as->nregions == ASPACE_MAX_REGIONS)
        return -ENOMEM;
    /* Only the heap may be empty: it starts at zero length and grows. */
    if (start > end || (start == end && kind != REGION_HEAP) || end > USER_TOP || start < USER_BASE)
        return -EINVAL;
    for (int i = 0; i < as->nregions; i++)
        if (start < as->regions[i].end && as->regions[i].start < end)
            return -EINVAL;
    as->regions[as->nregions++] = (struct region){ .start = start, .end = end, .prot = prot, .kind = kind };
    return 0;
}

int aspace_add_image(struct aspace *as, vaddr_t start, vaddr_t end, unsigned prot,
                     const uint8_t *src, vaddr_t src_va, uint64_t src_len)
{
    if (src_va < start || src_len > end - src_va)
        return -EINVAL;
    int rc = aspace_add_region(as, start, end, prot, REGION_IMAGE);
    if (rc)
        return rc;
    struct region *r = &as->regions[as->nregions - 1];
    r->src = src;
    r->src_va = src_va;
    r->src_len = src_len;
    return 0;
}

struct region *aspace_find_region(struct aspace *as, vaddr_t va)
{
    /* Regions never overlap, so a slot whose range holds va is va's
     * region, whatever moved since the hint was left: slots that munmap
     * refilled or emptied need no invalidation. Relaxed: a hint read by
     * a caller without the space's lock may be stale, not wrong. */
    int h = __atomic_load_n(&as->region_hint, __ATOMIC_RELAXED);
    if (h < as->nregions && va >= as->regions[h].start && va < as->regions[h].end)
        return &as->regions[h];
    for (int i = 0; i < as->nregions; i++)
        if (va >= as->regions[i].start && va < as->regions[i].end) {
            __atomic_store_n(&as->region_hint, i, __ATOMIC_RELAXED);
            return &as->regions[i];
        }
    return NULL;
}

int aspace_write(struct aspace *as, vaddr_t va, const void *src, uint64_t n)
{
    const uint8_t *s = src;
    while (n) {
        vaddr_t page = ALIGN_DOWN(va, PAGE_SIZE);
        uint64_t off = va - page, chunk = MIN(n, PAGE_SIZE - off);
        paddr_t pa;
        int rc = aspace_make_present(as, page, &pa);
        if (rc)
            return rc;
        memcpy((uint8_t *)PA_TO_KVA(pa) + off, s, chunk);
        /* Written behind the page table's back: no dirty bit was set. */
        frame_set_dirty(pa, true);
        s += chunk;
        va += chunk;
        n -= chunk;
    }
    return 0;
}

void aspace_totals(uint64_t *resident, uint64_t *swapped)
{
    *resident = *swapped = 0;
    spin_lock(&aspaces_lock);
    for (int i = 0; i < MAX_ASPACES; i++) {
        if (aspaces[i].in_use) {
            *resident += aspaces[i].resident;
            *swapped += aspaces[i].swapped;
        }
    }
    spin_unlock(&aspaces_lock);
}

/*
 * Every hart whose page-table root register holds as->root may cache its translations (the
 * scheduler switches tables lazily). Ask each to flush, and wait until all
 * have. Waiting sleeps (tlb_flush_wait): under -icount QEMU runs the harts
 * in turn, and the other hart can only run once this one idles; a yield
 * does not end the turn.
 */
void aspace_shootdown(struct aspace *as)
{
    /* Every hart is asked, or flushed here, in one go with interrupts
     * off: asked one by one with a sleep between, this thread could wake
     * on a hart that has the table loaded and take it for its own, which
     * needs no flush. */
    uint64_t ticket[MAX_HARTS];
    uint32_t asked = 0;
    irq_save();
    struct cpu *self = this_cpu();
    if (self->active_root == as->root)
        mmu_flush_local();
    for (uint32_t i = 0; i < ncpus; i++) {
        struct cpu *c = &cpus[i];
        if (c == self || !c->online || c->active_root != as->root)
            continue;
        ticket[i] = tlb_flush_ask(c);
        asked |= 1U << i;
    }
    irq_restore();
    for (uint32_t i = 0; i < ncpus; i++)
        if (asked & (1U << i))
            tlb_flush_wait(&cpus[i], ticket[i]);
}

/*
 * Before a detached address space is freed, no hart may still have its
 * table loaded. Nobody loads it any more (no process points to it), so the
 * set of harts holding it only shrinks: drop it here, IPI the others (their
 * handler drops a table they only hold lazily) and wait until none has it.
 * We may move between harts while waiting, so "here" is re-read each time.
 */
static void release_harts(struct aspace *as)
{
    for (;;) {
        uint64_t ticket[MAX_HARTS] = { 0 };
        bool held = false;
        irq_save();
        struct cpu *self = this_cpu();
        if (self->active_root == as->root) {
            mmu_activate(kernel_pagetable);
            self->active_root = kernel_pagetable;
        }
        for (uint32_t i = 0; i < ncpus; i++) {
            struct cpu *c = &cpus[i];
            if (c != self && c->online && __atomic_load_n(&c->active_root, __ATOMIC_SEQ_CST) == as->root) {
                held = true;
                ticket[i] = tlb_flush_ask(c);
            }
        }
        irq_restore();
        if (!held)
            return;
        for (uint32_t i = 0; i < ncpus; i++)
            if (ticket[i])
                tlb_flush_wait(&cpus[i], ticket[i]);
    }
}
