/*
 * mm=paging: demand paging with global replacement, as in Berkeley UNIX.
 * This file is the replacement policy, which page goes: the clock over
 * the core map (clock_replace.c) and the reference bits it reads. When
 * and how a page goes (in the faulting thread, or by a page daemon) is
 * page control's, chosen by pc= (pc.h, pc_inline.c).
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
#include "pc.h"
#include "printk.h"
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
 * so its space's root exists (it goes only after every frame of the
 * space is freed, which takes this lock: aspace_destroy), and its entry
 * can be read without the space's own lock; a table below the root may
 * be gone already, its entry in its parent cleared first, and the walk
 * then finds no leaf. Only a victim's space is locked (tried, never waited
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

paddr_t paging_choose_victim(struct aspace **owner, vaddr_t *va, bool *mine, bool *busy)
{
    struct examine_ctx ctx = { false, 0 };
    void *o;
    uint64_t vpn;
    uint64_t scanned = hand.scanned;
    paddr_t pa = frame_choose_victim(&hand, examine, &ctx, &o, &vpn);
    vm_count_n(VM_CLOCK_SCANS, hand.scanned - scanned);
    *busy = ctx.busy != 0;
    if (!pa)
        return 0;
    *owner = o;
    *va = vpn << PAGE_SHIFT;
    *mine = ctx.mine;
    return pa;
}

/* Page control decides when and how; it is chosen by pc= (pc.h). */
static int paging_make_room(struct aspace *as)
{
    return pc->make_room(as);
}

static int paging_wait_room(struct aspace *as, uint32_t waits)
{
    return pc->wait_room(as, waits);
}

/* Page control hears of shortages through the allocator's water marks. */
static void paging_start(void)
{
    if (!pc->water && !pc->start)
        return;
    uint32_t managed = frames_managed();
    uint32_t low = managed / PC_LOW_WATER_DIV;
    if (low < 2 * USER_FRAME_RESERVE)
        low = 2 * USER_FRAME_RESERVE;
    uint32_t high = managed / PC_HIGH_WATER_DIV;
    if (high < 2 * low)
        high = 2 * low;
    if (pc->start)
        pc->start(low, high);
    else
        frames_set_water(low, high, pc->water);
}

static void paging_banner(void)
{
    kprintf("faultline: mm: paging, page control %s, %s reference bits\n", pc->name,
            params.refbits == REFBITS_SW ? "software" : "hardware");
}

const struct mm_ops paging_ops = {
    .name = "paging",
    .load_image_at_exec = false,
    .fork_to_swap_when_full = false,
    .banner = paging_banner,
    .start = paging_start,
    .make_room = paging_make_room,
    .wait_room = paging_wait_room,
};
