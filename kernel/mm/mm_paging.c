/*
 * mm=paging: demand paging with global replacement, as in Berkeley UNIX.
 * When a fault finds no free frame, the faulting thread itself runs the
 * clock over the core map (pc=inline), writes the victim out if it is
 * dirty and takes its frame. (pc=daemon, a page daemon keeping a free
 * list, will plug in at make_room.)
 *
 * Reference bits: refbits=hw reads and clears the accessed bit the MMU
 * sets in the PTE. refbits=sw does what the VAX, which had none, made BSD
 * do: the clock hides the page (the PTE is made invalid but keeps the
 * frame), and a touch before the hand comes round again takes a minor
 * fault that reveals it: that fault is the reference.
 *
 * The clock clears a bit, or hides a page, flushing only this hart's TLB:
 * another hart may go on using a cached translation without the bit being
 * set again, so the page can look unused when it is not. That only costs
 * an extra fault later; eviction itself shoots every TLB down.
 */
#include "mm.h"
#include "clock_replace.h"
#include "frame.h"
#include "param.h"
#include "proc.h"
#include "vmstat.h"
#include <faultline/errno.h>

static struct clock_hand hand;        /* under the frames lock */

struct examine_ctx {
    bool mine;                         /* the victim's space was already locked by us */
    uint32_t busy;                     /* candidates passed over: owner's space locked */
};

static void flush_if_loaded(struct aspace *as, vaddr_t va)
{
    irq_save();
    if (this_cpu()->active_root == as->root)
        mmu_flush_page(va);
    irq_restore();
}

/* Under the frames lock, so it must not sleep: the frame is a user frame,
 * so its space's page tables exist (they go only after every frame is
 * freed, which takes this lock) and its entry can be read without the
 * space's own lock. Only a victim's space is locked (tried, never waited
 * for: the space of a busy process is passed over). */
static enum clock_verdict examine(struct frame *f, uint32_t index, void *arg)
{
    struct examine_ctx *ctx = arg;
    struct aspace *as = f->owner;
    vaddr_t va = f->vpn << PAGE_SHIFT;
    void *leaf = mmu_leaf(as->root, va, false);
    if (!leaf)
        return CLOCK_BUSY;
    /* A frame still being filled is not mapped yet (or not here). */
    struct leaf_info li;
    enum leaf_state st = mmu_leaf_read(leaf, &li);
    if ((st == LEAF_PRESENT || st == LEAF_HIDDEN) && li.pa != frame_pa_of(index))
        return CLOCK_BUSY;
    if (params.refbits == REFBITS_HW) {
        /* A hidden page (vmctl) has not been touched since it was hidden. */
        if (st != LEAF_PRESENT && st != LEAF_HIDDEN)
            return CLOCK_BUSY;
        if (st == LEAF_PRESENT && mmu_leaf_test_clear_accessed(leaf)) {
            flush_if_loaded(as, va);
            return CLOCK_SECOND_CHANCE;
        }
    } else {
        if (st == LEAF_PRESENT) {
            mmu_leaf_hide(leaf);
            flush_if_loaded(as, va);
            return CLOCK_SECOND_CHANCE;
        }
        if (st != LEAF_HIDDEN)
            return CLOCK_BUSY;
    }
    ctx->mine = sleeplock_held_by_me(&as->lock);
    if (!ctx->mine && !sleeplock_try(&as->lock)) {
        ctx->busy++;
        return CLOCK_BUSY;
    }
    return CLOCK_TAKE;
}

static int paging_make_room(struct aspace *self)
{
    (void)self;
    int rc = -ENOMEM;
    int waits = 0;
    for (int tries = 0; tries < RECLAIM_TRIES; tries++) {
        struct examine_ctx ctx = { false, 0 };
        void *owner;
        uint64_t vpn;
        uint64_t scanned = hand.scanned;
        paddr_t pa = frame_choose_victim(&hand, examine, &ctx, &owner, &vpn);
        vm_count_n(VM_CLOCK_SCANS, hand.scanned - scanned);
        if (!pa && ctx.busy && waits++ < RECLAIM_BUSY_WAITS) {
            /* Every page that could go belongs to a process in the middle
             * of its own fault (often waiting on the device): let them
             * finish rather than call memory exhausted. */
            tries--;
            yield();
            continue;
        }
        if (!pa)
            return ctx.busy ? -EBUSY : -ENOMEM;   /* -EBUSY: every owner was busy */
        struct aspace *as = owner;
        void *leaf = mmu_leaf(as->root, vpn << PAGE_SHIFT, false);
        rc = mm_evict_page(as, leaf, pa);
        if (!ctx.mine)
            sleeplock_release(&as->lock);
        if (rc == 0) {
            vm_count(VM_RECLAIMS);
            return 0;
        }
        if (rc == -ENOSPC)
            return rc;        /* every dirty page would need a slot */
    }
    return rc;
}

const struct mm_ops paging_ops = {
    .name = "paging",
    .demand_image = true,
    .make_room = paging_make_room,
};
