/*
 * Pages in transit (transit.h). One record per thread, found by the
 * thread's slot; a waiter finds a record by its leaf. Lock order: the
 * "transit" spinlock is taken with no other spinlock held and nothing is
 * called under it that takes the frames or swap lock.
 */
#include "transit.h"
#include "pagestate.h"
#include "frame.h"
#include "swapspace.h"
#include "pdmap.h"
#include "proc.h"
#include "vmstat.h"
#include "meter.h"
#include "printk.h"
#include <faultline/errno.h>

struct transit {
    void          *leaf;      /* NULL: no transit */
    struct aspace *as;
    paddr_t        pa;
    uint32_t       slot;
    unsigned       prot;
    bool           out;
    uint64_t       meter_start, meter_off;
    uint32_t       pdrec;     /* pd=: the paging device's record it is written to, or PD_NONE */
    struct blk_req req;       /* the page-out in flight */
};

/* One record per thread, then TRANSIT_HANDOFFS records of pc=daemon's
 * write-behind, which the core manager begins and the paging-device
 * manager ends. */
static struct transit transits[MAX_THREADS + TRANSIT_HANDOFFS];
#define NTRANSITS (MAX_THREADS + TRANSIT_HANDOFFS)
static struct spinlock transit_lock = SPINLOCK_INIT("transit", LOCK_RANK_TRANSIT);
static int waiters;               /* threads in transit_wait (atomic; see end_unlocked) */

static struct transit *mine(void)
{
    return &transits[current_thread_index()];
}

static void check_step(void *leaf, enum page_event ev, enum leaf_state want)
{
    enum leaf_state st = mmu_leaf_read(leaf, NULL);
    if (pagestate_next(st, ev) != (int)want)
        panic("transit: page event %d in leaf state %d", (int)ev, (int)st);
}

/* Under transit_lock: the record is free again; wake whoever waits
 * (wakeup scans every thread: a page-in nobody waits for should not pay
 * for that). */
static void end_locked(struct transit *t)
{
    __atomic_store_n(&t->leaf, NULL, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&waiters, __ATOMIC_SEQ_CST))
        wakeup(transits);
}

/* The same without the lock, for a page-in that ends well, the measured
 * case. A waiter counts itself, then looks at the records, all under the
 * lock; this clears the record, then looks at the count: one of the two
 * sees the other's write, so either the waiter does not sleep or this
 * sees it and wakes it (taking the lock, which the waiter holds until it
 * sleeps). */
static void end_unlocked(struct transit *t)
{
    __atomic_store_n(&t->leaf, NULL, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&waiters, __ATOMIC_SEQ_CST)) {
        spin_lock(&transit_lock);
        wakeup(transits);
        spin_unlock(&transit_lock);
    }
}

/* The record is filled, then the entry marked, both under the space's
 * lock, which the beginner holds: a thread that sees the entry in
 * transit saw it under that lock, so it finds the record too. */
static void record_start(struct transit *t, void *leaf)
{
    __atomic_store_n(&t->leaf, leaf, __ATOMIC_RELEASE);
}

void transit_begin_in(struct aspace *as, void *leaf, paddr_t pa, uint32_t slot, unsigned prot,
                      uint64_t meter_start, uint64_t meter_off)
{
    /* The fault read the entry SWAPPED under the lock it still holds
     * (PE_READ_BEGIN): not checked again on the measured path. */
    struct transit *t = mine();
    /* Filled first, from the arguments, then read back from the record:
     * fewer registers to keep across the calls (this is metered). Nobody
     * looks at the record before record_start. */
    t->as = as;
    t->pa = pa;
    t->slot = slot;
    t->prot = prot;
    t->out = false;
    t->meter_start = meter_start;
    t->meter_off = meter_off;
    as_count(&as->swapped, -1);
    as_count(&as->resident, 1);
    frame_pin(t->pa);
    record_start(t, leaf);
    mmu_leaf_set_incoming(leaf, t->slot);
}

int transit_finish_in(struct sleeplock *held)
{
    uint64_t me = current_thread_index();
    struct transit *t = &transits[me];
    if (held) {
        /* Letting go is not metered as the page-in's: the fault did it
         * after vm.pagein's interval when the read ran under the lock,
         * and does it once either way (docs/measurement.md). */
        const struct thread *self = &threads[me];
        uint64_t before = meter_run_clock(&self->offcpu_cycles);
        sleeplock_release(held);
        t->meter_start += meter_run_clock(&self->offcpu_cycles) - before;
    }
    int rc = swap_read(t->slot, t->pa);
    /* Dirty if read: the only copy is now the frame. Unpinned before the
     * end: a waiter (munmap) may free the frame as soon as the end is
     * seen. The clock passes over the INCOMING entry meanwhile. */
    frame_unpin_dirty(t->pa, rc == 0);
    if (rc) {
        spin_lock(&transit_lock);
        check_step(t->leaf, PE_READ_FAILED, LEAF_SWAPPED);
        mmu_leaf_set_swapped(t->leaf, t->slot);
        as_count(&t->as->resident, -1);
        as_count(&t->as->swapped, 1);
        end_locked(t);
        spin_unlock(&transit_lock);
        frame_free(t->pa);
        return rc;
    }
    /* INCOMING -> PRESENT (PE_READ_DONE): the entry is ours alone until
     * the record is cleared. */
    mmu_leaf_set_tracked(t->leaf, t->pa, t->prot, false);
    end_unlocked(t);
    swap_free(t->slot, 1);
    vm_count(VM_PAGEINS);
    meter_record_split(FL_METER_PAGEIN, FL_METER_PAGE_WAIT, t->meter_start, t->meter_off);
    return 0;
}

int transit_begin_out(struct aspace *as, void *leaf, paddr_t pa, unsigned prot)
{
    struct transit *t = mine();
    uint32_t slot = swap_alloc(1);
    if (slot == SWAP_NONE)
        return -ENOSPC;
    uint64_t off, start = meter_split_start(&off);
    frame_pin(pa);
    *t = (struct transit){ .as = as, .pa = pa, .slot = slot, .prot = prot, .out = true,
                           .meter_start = start, .meter_off = off };
    if (swap_start(&t->req, slot, pa, true)) {
        vm_count(VM_IO_ERRORS);
        frame_unpin(pa);
        swap_free(slot, 1);
        return -EIO;
    }
    /* The entry was taken (EMPTY) by the caller: its page is PRESENT in
     * all but the entry, which is what the machine checks. */
    if (pagestate_next(LEAF_PRESENT, PE_WRITE_BEGIN) != LEAF_OUTGOING)
        panic("transit: page-out from a mapped page");
    record_start(t, leaf);
    mmu_leaf_set_outgoing(leaf, slot);
    as_count(&as->resident, -1);
    as_count(&as->swapped, 1);
    return 0;
}

bool transit_out_pending(void)
{
    struct transit *t = mine();
    return t->leaf && t->out;
}

/* The write of t ended (rc 0) or failed, or could not start: the page
 * is SWAPPED and its frame freed, or PRESENT again. */
static int end_out(struct transit *t, int rc)
{
    frame_unpin(t->pa);                   /* as in transit_finish_in */
    spin_lock(&transit_lock);
    if (!rc) {
        check_step(t->leaf, PE_WRITE_DONE, LEAF_SWAPPED);
        mmu_leaf_set_swapped(t->leaf, t->slot);
    } else {
        check_step(t->leaf, PE_WRITE_FAILED, LEAF_PRESENT);
        mmu_leaf_set_tracked(t->leaf, t->pa, t->prot, true);
        as_count(&t->as->resident, 1);
        as_count(&t->as->swapped, -1);
    }
    end_locked(t);
    spin_unlock(&transit_lock);
    if (rc) {
        if (rc == -EIO)
            vm_count(VM_IO_ERRORS);
        if (t->slot != SWAP_NONE)
            swap_free(t->slot, 1);
        return rc;
    }
    frame_free(t->pa);
    vm_count(VM_PAGEOUTS);
    return 0;
}

int transit_finish_out(void)
{
    struct transit *t = mine();
    int rc = end_out(t, blk_wait(&t->req) ? -EIO : 0);
    if (rc == 0)
        meter_record_split(FL_METER_PAGEOUT, FL_METER_PAGE_WAIT, t->meter_start, t->meter_off);
    return rc;
}

void transit_handoff_out(unsigned rec, struct aspace *as, void *leaf, paddr_t pa, unsigned prot)
{
    struct transit *t = &transits[MAX_THREADS + rec];
    if (t->leaf)
        panic("transit: hand-off record %u in use", rec);
    if (pagestate_next(LEAF_PRESENT, PE_WRITE_BEGIN) != LEAF_OUTGOING)
        panic("transit: page-out from a mapped page");
    frame_pin(pa);
    *t = (struct transit){ .as = as, .pa = pa, .slot = SWAP_NONE, .prot = prot, .out = true,
                           .pdrec = PD_NONE };
    record_start(t, leaf);
    /* No slot yet: the entry only says "in transit"; the record has the
     * slot once the paging-device manager has given it one. */
    mmu_leaf_set_outgoing(leaf, 0);
    as_count(&as->resident, -1);
    as_count(&as->swapped, 1);
}

int transit_handoff_start(unsigned rec)
{
    struct transit *t = &transits[MAX_THREADS + rec];
    uint32_t slot = swap_alloc(1);
    if (slot == SWAP_NONE)
        return end_out(t, -ENOSPC);
    t->slot = slot;
    /* pd=: to the paging device first; to the disk when it is full. The
     * page keeps its disk slot as its name either way. */
    if (pdmap_present()) {
        t->pdrec = pdmap_write_start(slot, &t->req, t->pa);
        if (t->pdrec != PD_NONE)
            return 0;
    }
    if (swap_start(&t->req, slot, t->pa, true))
        return end_out(t, -EIO);
    return 0;
}

int transit_handoff_finish(unsigned rec)
{
    struct transit *t = &transits[MAX_THREADS + rec];
    int rc = blk_wait(&t->req) ? -EIO : 0;
    /* Readable from the device before the page's transit ends and a
     * fault can look for it. */
    if (t->pdrec != PD_NONE)
        pdmap_written(t->pdrec);
    return end_out(t, rc);
}

static bool in_transit_locked(const void *leaf)
{
    for (int i = 0; i < NTRANSITS; i++)
        if (__atomic_load_n(&transits[i].leaf, __ATOMIC_SEQ_CST) == leaf)
            return true;
    return false;
}

void transit_wait(const void *leaf)
{
    spin_lock(&transit_lock);
    __atomic_fetch_add(&waiters, 1, __ATOMIC_SEQ_CST);
    while (in_transit_locked(leaf))
        sleep_on(transits, &transit_lock);
    __atomic_fetch_sub(&waiters, 1, __ATOMIC_SEQ_CST);
    spin_unlock(&transit_lock);
}
