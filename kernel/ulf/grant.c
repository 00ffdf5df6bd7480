/*
 * Granted frames (ulf_internal.h). ulf_grant gives a handler frames of
 * its own: zeroed kernel frames, tagged in the core map with their grant
 * record and mapped read-write in a pool region of the handler's space,
 * where it fills and reads them. ulf_load maps one of them into a managed
 * page of a client (a loan: one page at a time), ulf_unload takes loans
 * back. A granted frame is FRAME_KERNEL, so the replacement clock never
 * takes it, and the swapper and vmctl pass over it (ulf_frame_granted);
 * it is counted in no space's resident pages. It is freed once neither
 * the pool nor a loan holds it: when the handler's space goes (exit,
 * exec) and its client's page is unmapped or its space is gone.
 */
#include "ulf_internal.h"
#include "frame.h"
#include "mm.h"
#include "meter.h"
#include "printk.h"
#include <faultline/errno.h>

/* The grant records, a page of them at a time, allocated when first
 * needed and kept: a kernel that runs no fault handler spends no memory
 * on them (a static table would take 24 frames from every boot, which
 * mem=8M feels). Under the lock. */
#define GRANTS_PER_PAGE (PAGE_SIZE / sizeof(struct ulf_grant))
#define GRANT_PAGES     ((ULF_GRANTS_MAX + GRANTS_PER_PAGE - 1) / GRANTS_PER_PAGE)
static struct ulf_grant *grant_pages[GRANT_PAGES];

/* Record i, whose page exists (its frame carries the index). */
static struct ulf_grant *grant_at(uint64_t i)
{
    return &grant_pages[i / GRANTS_PER_PAGE][i % GRANTS_PER_PAGE];
}
/* Frames granted and not yet freed (vmstat's ulf_frames). */
static uint64_t granted_frames;
/* The core-map tag of a granted frame; its index is the record. */
static const char grant_tag;

uint64_t ulf_frames_outstanding(void)
{
    return __atomic_load_n(&granted_frames, __ATOMIC_RELAXED);
}

bool ulf_frame_granted(paddr_t pa)
{
    uint64_t i;
    return frame_has_tag(pa, &grant_tag, &i);
}

/* Lock held: gives the page of records holding record i back once all
 * of them are free, so that a run of handlers leaves no memory behind. */
static void grant_page_trim(uint64_t i)
{
    struct ulf_grant *page = grant_pages[i / GRANTS_PER_PAGE];
    for (uint64_t k = 0; k < GRANTS_PER_PAGE; k++)
        if (page[k].pa)
            return;
    grant_pages[i / GRANTS_PER_PAGE] = NULL;
    frame_free(KVA_TO_PA(page));
}

/* Lock held: the frame of record i if nothing holds it any more (the
 * record is then free and the caller frees the frame), else 0. */
static paddr_t grant_release_if_unused(uint64_t i)
{
    struct ulf_grant *g = grant_at(i);
    if (g->pool_as || g->loan_as)
        return 0;
    paddr_t pa = g->pa;
    if (g->h)
        g->h->nframes--;
    *g = (struct ulf_grant){ 0 };
    grant_page_trim(i);
    return pa;
}

static void grant_free_frame(paddr_t pa)
{
    if (!pa)
        return;
    frame_free(pa);
    __atomic_fetch_sub(&granted_frames, 1, __ATOMIC_RELAXED);
}

bool ulf_frame_dropped(struct aspace *as, paddr_t pa)
{
    uint64_t i;
    if (!frame_has_tag(pa, &grant_tag, &i))
        return false;
    spin_lock(&ulf_lock);
    struct ulf_grant *g = grant_at(i);
    if (g->loan_as == as)
        g->loan_as = NULL;
    else if (g->pool_as == as)
        g->pool_as = NULL;
    paddr_t freed = grant_release_if_unused(i);
    spin_unlock(&ulf_lock);
    grant_free_frame(freed);
    return true;
}

void ulf_grants_orphan(struct ulf_handler *h)
{
    for (uint64_t p = 0; p < GRANT_PAGES; p++)
        for (uint64_t k = 0; grant_pages[p] && k < GRANTS_PER_PAGE; k++)
            if (grant_pages[p][k].h == h)
                grant_pages[p][k].h = NULL;
}

/* Lock held: a free record and its index, or NULL (a new page of them
 * when the others are full; none if memory is out). */
static struct ulf_grant *grant_record(uint64_t *index)
{
    for (uint64_t p = 0; p < GRANT_PAGES; p++) {
        if (!grant_pages[p]) {
            paddr_t pa = frame_alloc_zeroed(FRAME_KERNEL);
            if (!pa)
                return NULL;
            grant_pages[p] = (struct ulf_grant *)PA_TO_KVA(pa);
        }
        for (uint64_t k = 0; k < GRANTS_PER_PAGE && p * GRANTS_PER_PAGE + k < ULF_GRANTS_MAX; k++) {
            if (!grant_pages[p][k].pa) {
                *index = p * GRANTS_PER_PAGE + k;
                return &grant_pages[p][k];
            }
        }
    }
    return NULL;
}

#define UNWIND_TABLES 8     /* table pages unhooked per flush */

/* Takes back pages [base, base + n pages) of the pool being built (as
 * locked): ulf_grant could not finish. */
static void grant_unwind(struct aspace *as, vaddr_t base, uint64_t n)
{
    for (uint64_t k = 0; k < n; k++) {
        void *leaf = mmu_leaf(as->root, base + k * PAGE_SIZE, false);
        struct leaf_info li;
        if (!leaf || mmu_leaf_read(leaf, &li) != LEAF_PRESENT)
            continue;
        mmu_leaf_take(leaf);
        ulf_frame_dropped(as, li.pa);
    }
    aspace_shootdown(as);
    /* The table pages the pool got go with its region: exit finds table
     * pages only on the way to a region (mmu_destroy_user). */
    struct region *r = aspace_find_region(as, base);
    vaddr_t end = r ? r->end : base + n * PAGE_SIZE;
    paddr_t tables[UNWIND_TABLES];
    int nt;
    do {
        nt = mmu_unhook_empty_tables(as->root, base, end, tables, UNWIND_TABLES);
        if (nt)
            aspace_shootdown(as);
        for (int i = 0; i < nt; i++)
            frame_free(tables[i]);
    } while (nt == UNWIND_TABLES);
    aspace_remove_region_locked(as, base);
}

/* One frame of the pool at va: allocated, tagged with a record, mapped. */
static int grant_one(struct ulf_handler *h, struct aspace *as, vaddr_t va)
{
    void *leaf = mmu_leaf(as->root, va, true);
    if (!leaf)
        return -ENOMEM;
    paddr_t pa = frame_alloc_zeroed(FRAME_KERNEL);
    if (!pa)
        return -ENOMEM;
    spin_lock(&ulf_lock);
    uint64_t index = 0;
    struct ulf_grant *g = grant_record(&index);
    if (g)
        *g = (struct ulf_grant){ .pa = pa, .h = h, .pool_as = as, .pool_va = va };
    if (g)
        h->nframes++;
    spin_unlock(&ulf_lock);
    if (!g) {
        frame_free(pa);
        return -ENOMEM;
    }
    __atomic_fetch_add(&granted_frames, 1, __ATOMIC_RELAXED);
    frame_set_tag(pa, &grant_tag, index);
    as->lent = true;
    mmu_leaf_set_tracked(leaf, pa, PROT_R | PROT_W | PROT_U, true);
    return 0;
}

long sys_ulf_grant(uint64_t n)
{
    struct aspace *as = current_proc()->as;
    if (n == 0)
        return -EINVAL;
    spin_lock(&ulf_lock);
    struct ulf_handler *h = ulf_handler_self();
    long rc = 0;
    if (h->pool_as == as)
        rc = -EEXIST;               /* one pool per handler and space */
    else if (n > (uint64_t)(FL_ULF_FRAME_QUOTA - h->nframes))
        rc = -EDQUOT;
    else
        h->pool_as = as;
    spin_unlock(&ulf_lock);
    if (rc)
        return rc;
    if (frames_free_count() < n + USER_FRAME_RESERVE + ULF_GRANT_SPARE_FRAMES) {
        rc = -ENOMEM;
    } else {
        sleeplock_acquire(&as->lock);
        rc = aspace_place_pool_locked(as, n * PAGE_SIZE);
        for (uint64_t k = 0; rc > 0 && k < n; k++) {
            int err = grant_one(h, as, (vaddr_t)rc + k * PAGE_SIZE);
            if (err) {
                grant_unwind(as, (vaddr_t)rc, k);
                rc = err;
            }
        }
        sleeplock_release(&as->lock);
    }
    if (rc < 0) {
        spin_lock(&ulf_lock);
        h->pool_as = NULL;
        spin_unlock(&ulf_lock);
    }
    return rc;
}

/* as locked: maps frame pa (record gi, the caller's) at va with prot,
 * where it is not mapped, or changes the rights of its mapping there. */
static long install(struct ulf_handler *h, struct aspace *as, vaddr_t va, paddr_t pa,
                    uint64_t gi, unsigned prot)
{
    struct aspace *own = current_proc()->as;
    spin_lock(&ulf_lock);
    struct ulf_grant *g = grant_at(gi);
    long rc = 0;
    if (g->h != h || g->pool_as != own)
        rc = -EPERM;                /* another handler's frame */
    else if (g->loan_as && (g->loan_as != as || g->loan_va != va))
        rc = -EBUSY;                /* loaded elsewhere: unload it first */
    else
        g->loan_as = as, g->loan_va = va;   /* claimed before it is mapped */
    spin_unlock(&ulf_lock);
    if (rc)
        return rc;
    void *leaf = mmu_leaf(as->root, va, true);
    struct leaf_info cur;
    enum leaf_state st = leaf ? mmu_leaf_read(leaf, &cur) : LEAF_EMPTY;
    if (leaf && st == LEAF_PRESENT && cur.pa == pa) {
        mmu_leaf_set_tracked(leaf, pa, prot | PROT_U, true);
        if (cur.prot & ~(prot | PROT_U))
            aspace_shootdown(as);   /* narrower: no hart may keep the old rights */
        return 0;
    }
    if (leaf && (st == LEAF_EMPTY || st == LEAF_DISCARDED)) {
        as->lent = true;            /* before the frame can be seen there */
        mmu_leaf_set_tracked(leaf, pa, prot | PROT_U, true);
        return 0;
    }
    spin_lock(&ulf_lock);
    g->loan_as = NULL;
    spin_unlock(&ulf_lock);
    return leaf ? -EBUSY : -ENOMEM;  /* the page holds something else */
}

long sys_ulf_load(uint64_t pid, uint64_t va, uint64_t frame, uint64_t prot)
{
    uint64_t entry = current_thread()->tf.entry_stamp;
    if (va >= USER_TOP || frame >= USER_TOP)
        return -EFAULT;             /* kernel memory is never a handler's */
    if (va % PAGE_SIZE || frame % PAGE_SIZE || !prot ||
        (prot & ~(uint64_t)(FL_PROT_READ | FL_PROT_WRITE | FL_PROT_EXEC)))
        return -EINVAL;
    /* The frame: the caller's own page there must be a granted frame. Its
     * pool's entries change only when its space goes (exit, exec), which
     * first stops this thread, so they are read without the lock. */
    struct aspace *own = current_proc()->as;
    void *fl = mmu_leaf(own->root, frame, false);
    struct leaf_info li;
    uint64_t gi;
    if (!fl || mmu_leaf_read(fl, &li) != LEAF_PRESENT || !frame_has_tag(li.pa, &grant_tag, &gi))
        return -EPERM;              /* not a frame granted to the caller */
    int err;
    struct ulf_client *c = ulf_client_get((int)pid, &err);
    if (!c)
        return err;
    struct aspace *as = c->as;
    sleeplock_acquire(&as->lock);
    struct region *r = aspace_find_region(as, va);
    long rc;
    if (!r || !r->managed)
        rc = -ENXIO;
    else if (prot & ~(uint64_t)r->prot)
        rc = -EACCES;               /* wider than the region the handler was given */
    else
        rc = install(c->h, as, va, li.pa, gi, (unsigned)prot);
    sleeplock_release(&as->lock);
    if (!rc)
        meter_record(FL_METER_ULF_LOAD, entry, meter_now());
    ulf_client_put(c);
    return rc;
}

#define UNLOAD_BATCH 32

/* Ends the loans of pages taken from as, once no hart can reach them. */
static void unload_flush(struct aspace *as, paddr_t *pa, int *n)
{
    aspace_shootdown(as);
    while (*n)
        ulf_frame_dropped(as, pa[--*n]);
}

long sys_ulf_unload(uint64_t pid, uint64_t va, uint64_t len)
{
    if (va >= USER_TOP)
        return -EFAULT;
    if (va % PAGE_SIZE || len == 0 || len > USER_TOP - va)
        return -EINVAL;
    int err;
    struct ulf_client *c = ulf_client_get((int)pid, &err);
    if (!c)
        return err;
    struct aspace *as = c->as;
    paddr_t taken[UNLOAD_BATCH];
    int n = 0;
    long count = 0;
    sleeplock_acquire(&as->lock);
    for (vaddr_t p = va; p < va + ALIGN_UP(len, PAGE_SIZE); p += PAGE_SIZE) {
        struct region *r = aspace_find_region(as, p);
        void *leaf = r && r->managed ? mmu_leaf(as->root, p, false) : NULL;
        struct leaf_info li;
        uint64_t gi;
        if (!leaf || mmu_leaf_read(leaf, &li) != LEAF_PRESENT ||
            !frame_has_tag(li.pa, &grant_tag, &gi) || grant_at(gi)->h != c->h)
            continue;               /* only the caller's own loans */
        mmu_leaf_take(leaf);
        taken[n++] = li.pa;
        count++;
        if (n == UNLOAD_BATCH)
            unload_flush(as, taken, &n);
    }
    unload_flush(as, taken, &n);
    sleeplock_release(&as->lock);
    ulf_client_put(c);
    return count;
}
