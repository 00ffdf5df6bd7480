/*
 * pc=daemon: multi-process page control, after Multics (docs/memory.md,
 * "pc=daemon"). Two system processes, each one kernel thread that may run
 * on any hart, do what pc=inline does in the faulting thread:
 *
 *   coremgr, the core manager, keeps free frames between freemin and
 *   freemax. Woken when an allocation takes them down to freemin (the
 *   frame allocator's low water mark) or when a fault finds none, it runs
 *   the replacement clock: a clean victim is dropped at once, a dirty one
 *   is taken out of its page table and handed to the paging-device
 *   manager. With nothing to do it zeroes free frames, so that a
 *   demand-zero fault finds one ready.
 *
 *   pdmgr, the paging-device manager, owns the swap slots of page-outs:
 *   it gives each page handed to it a slot and starts the writes of the
 *   whole batch before it waits for any (the Multics optimisation), then
 *   ends each: the page is SWAPPED, its frame free. It also frees the
 *   slots of pages that died (swap_free hands them over, up to
 *   SWAP_DEAD_SLOTS at a time), and with pd= the paging device's records.
 *
 * The fault handler only takes a frame from the free list; when there is
 * none (at or below USER_FRAME_RESERVE) it lets go of its space's lock
 * and waits for the core manager ("awaiting core"), then retries.
 *
 * Lock: "pagectl" (rank 50), taken alone; only thread locks (sleep_on,
 * wakeup) under it. The water hook may run with other spinlocks held
 * (kernel stacks are allocated and freed under theirs), so it takes no
 * lock then and leaves the wakeup to the next fault that finds no frame.
 */
#include "pc.h"
#include "mm.h"
#include "frame.h"
#include "transit.h"
#include "pdmap.h"
#include "swapspace.h"
#include "param.h"
#include "proc.h"
#include "vmstat.h"
#include "pcmeter.h"
#include "printk.h"
#include <faultline/errno.h>

#define ALL_RECORDS   ((uint32_t)((1ull << TRANSIT_HANDOFFS) - 1))
_Static_assert(TRANSIT_HANDOFFS <= 32, "hand-off records are one bit each of a uint32_t");
/* Records the core manager fills before it starts the PD manager on
 * them: the writes of a batch go to the device together. */
#define HANDOFF_BATCH (TRANSIT_HANDOFFS / 2)

/* Bit counts by loop: the kernel links no libgcc for the builtins. */
static uint32_t bits_set(uint32_t m)
{
    uint32_t n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static unsigned first_clear(uint32_t m)
{
    unsigned r = 0;
    while (m & (1u << r))
        r++;
    return r;
}

static struct spinlock pc_lock = SPINLOCK_INIT("pagectl", LOCK_RANK_PAGECTL);
static uint32_t freemin, freemax;
static struct thread *coremgr_thread, *pdmgr_thread;

/* Under pc_lock (read unlocked only as hints). */
static bool refill_wanted;        /* free frames fell to freemin, or a fault waits */
static bool zero_wanted;          /* the zeroed frames ran low */
static uint64_t passes_begun, passes_ended;
static int pass_error;            /* what the last pass that left no frame met */
static uint32_t rec_used;         /* hand-off records in use, one bit each */
static uint32_t rec_queued;       /* of those, handed over and not yet taken */
static int pd_error;              /* a write that failed since the pass began */
static uint32_t core_waiters;     /* faults awaiting core */
static bool pd_reclaim;           /* pd=: dead records at the ring's tail (atomic) */

static bool no_frame_for_faults(void)
{
    return frames_free_count() <= USER_FRAME_RESERVE;
}

/* Under pc_lock: faults awaiting core look again. */
static void wake_waiters_locked(void)
{
    if (core_waiters)
        wakeup(&core_waiters);
}

/* ---- paging-device manager -------------------------------------------- */

static void pdmgr(void *unused)
{
    (void)unused;
    pcmeter_thread_start(PCM_PDMGR);
    for (;;) {
        spin_lock(&pc_lock);
        while (!rec_queued && !__atomic_load_n(&pd_reclaim, __ATOMIC_RELAXED)) {
            pcmeter_switch_reason(PCM_SW_PDMGR);
            pcmeter_thread_stop(PCM_PDMGR);
            sleep_on(&rec_queued, &pc_lock);
            pcmeter_thread_start(PCM_PDMGR);
        }
        uint32_t batch = rec_queued;
        rec_queued = 0;
        __atomic_store_n(&pd_reclaim, false, __ATOMIC_RELAXED);
        spin_unlock(&pc_lock);

        /* Slots of pages that died since its last turn. */
        swap_reap_dead();

        /* pd=: room on the paging device for the batch, moving its
         * oldest pages to the disk (RWS), metered on their own. */
        if (pdmap_present()) {
            pcmeter_thread_lend(PCM_PDMGR, PCM_RWS);
            pdmap_make_room();
            pcmeter_thread_stop(PCM_RWS);
            pcmeter_thread_start(PCM_PDMGR);
        }
        if (!batch)
            continue;             /* woken only to reclaim dead records */

        vm_count(VM_PD_BATCHES);
        uint32_t started = 0;
        int err = 0;
        /* Every write of the batch starts before any is waited for. */
        for (unsigned r = 0; r < TRANSIT_HANDOFFS; r++) {
            if (!(batch & (1u << r)))
                continue;
            int rc = transit_handoff_start(r);
            if (rc == 0)
                started |= 1u << r;
            else
                err = rc;              /* the page is mapped again */
        }
        for (unsigned r = 0; r < TRANSIT_HANDOFFS; r++) {
            if (!(started & (1u << r)))
                continue;
            int rc = transit_handoff_finish(r);
            if (rc == 0) {
                vm_count(VM_PD_WRITES);
                vm_count(VM_CM_FREED);
            } else {
                err = rc;
            }
        }
        spin_lock(&pc_lock);
        rec_used &= ~batch;
        if (err)
            pd_error = err;
        wakeup_thread(coremgr_thread, &rec_used);
        wake_waiters_locked();
        spin_unlock(&pc_lock);
    }
}

void pc_daemon_pd_kick(void)
{
    __atomic_store_n(&pd_reclaim, true, __ATOMIC_RELAXED);
    if (__atomic_load_n(&this_cpu()->irq_off_depth, __ATOMIC_RELAXED) > 0 || !pdmgr_thread)
        return;
    spin_lock(&pc_lock);
    wakeup_thread(pdmgr_thread, &rec_queued);
    spin_unlock(&pc_lock);
}

/* ---- core manager ------------------------------------------------------ */

/* Under pc_lock: the PD manager takes what is queued. */
static void kick_pdmgr_locked(void)
{
    if (rec_queued)
        wakeup_thread(pdmgr_thread, &rec_queued);
}

/* A free hand-off record, waiting for the PD manager to free one. */
static unsigned take_record(void)
{
    spin_lock(&pc_lock);
    while (rec_used == ALL_RECORDS) {
        kick_pdmgr_locked();
        pcmeter_switch_reason(PCM_SW_COREMGR);
        pcmeter_thread_stop(PCM_COREMGR);
        sleep_on(&rec_used, &pc_lock);
        pcmeter_thread_start(PCM_COREMGR);
    }
    unsigned r = first_clear(rec_used);
    rec_used |= 1u << r;
    spin_unlock(&pc_lock);
    return r;
}

static void put_record(unsigned r, bool queue)
{
    spin_lock(&pc_lock);
    if (queue) {
        rec_queued |= 1u << r;
        if (bits_set(rec_queued) >= HANDOFF_BATCH)
            kick_pdmgr_locked();
    } else {
        rec_used &= ~(1u << r);
    }
    wake_waiters_locked();
    spin_unlock(&pc_lock);
}

static uint32_t records_in_flight(void)
{
    return bits_set(__atomic_load_n(&rec_used, __ATOMIC_RELAXED));
}

/* Frees frames until free ones and those on their way (writes in
 * flight) reach freemax, then waits for the writes. 0, or why no frame
 * could be had: -EAGAIN (every candidate's space was busy), -ENOMEM
 * (no candidate at all), or the error a write met. */
static int refill(void)
{
    int err = 0;
    while (frames_free_count() + records_in_flight() < freemax) {
        /* A write that failed (the device, or no slot left) put its page
         * back: the clock would offer it again and again. The pass ends
         * there, and says why. */
        if (__atomic_load_n(&pd_error, __ATOMIC_RELAXED))
            break;
        unsigned r = take_record();
        struct aspace *as;
        vaddr_t va;
        bool mine, busy;
        paddr_t pa = paging_choose_victim(&as, &va, &mine, &busy);
        if (!pa) {
            put_record(r, false);
            err = busy ? -EAGAIN : -ENOMEM;
            break;
        }
        int rc = mm_evict_handoff(as, mmu_leaf(as->root, va, false), pa, r);
        sleeplock_release(&as->lock);  /* never ours before: the manager holds no space */
        vm_count(VM_RECLAIMS);
        if (rc == 0)
            vm_count(VM_CM_FREED);
        else
            vm_count(VM_CM_HANDOFFS);
        put_record(r, rc == 1);
    }
    /* The rest of the batch goes now; then the pass ends once every
     * write has, so that what it says of free frames is so. */
    spin_lock(&pc_lock);
    kick_pdmgr_locked();
    while (rec_used) {
        pcmeter_switch_reason(PCM_SW_COREMGR);
        pcmeter_thread_stop(PCM_COREMGR);
        sleep_on(&rec_used, &pc_lock);
        pcmeter_thread_start(PCM_COREMGR);
    }
    if (pd_error && !err)
        err = pd_error;
    pd_error = 0;
    spin_unlock(&pc_lock);
    return err;
}

/* Idle work: zeroes free frames until freemax of them are zeroed, only
 * while no other thread waits for a hart (time that would otherwise be
 * idle) and no refill is wanted. */
static bool zero_pending;          /* zeroing left for a hart's idle time */

static void zero_free_frames(void)
{
    while (frames_zeroed_count() < freemax && !__atomic_load_n(&refill_wanted, __ATOMIC_RELAXED)) {
        if (sched_work_waiting()) {
            __atomic_store_n(&zero_pending, true, __ATOMIC_RELAXED);
            return;
        }
        if (!frames_zero_one())
            return;
        vm_count(VM_PREZEROED);
    }
}

/* A hart is about to idle (sched_idle_work): the zeroing left for then. */
static bool idle_work(void)
{
    if (!__atomic_load_n(&zero_pending, __ATOMIC_RELAXED))
        return false;
    __atomic_store_n(&zero_pending, false, __ATOMIC_RELAXED);
    spin_lock(&pc_lock);
    zero_wanted = true;
    wakeup_thread(coremgr_thread, &refill_wanted);
    spin_unlock(&pc_lock);
    return true;
}

static void coremgr(void *unused)
{
    (void)unused;
    pcmeter_thread_start(PCM_COREMGR);
    for (;;) {
        spin_lock(&pc_lock);
        while (!refill_wanted && !zero_wanted) {
            pcmeter_switch_reason(PCM_SW_COREMGR);
            pcmeter_thread_stop(PCM_COREMGR);
            sleep_on(&refill_wanted, &pc_lock);
            pcmeter_thread_start(PCM_COREMGR);
        }
        bool want = refill_wanted;
        refill_wanted = zero_wanted = false;
        if (want)
            passes_begun++;
        spin_unlock(&pc_lock);
        if (want) {
            vm_count(VM_CM_PASSES);
            int err = refill();
            spin_lock(&pc_lock);
            passes_ended++;
            pass_error = no_frame_for_faults() ? err : 0;
            wake_waiters_locked();
            spin_unlock(&pc_lock);
        }
        zero_free_frames();
    }
}

/* ---- the fault's side --------------------------------------------------- */

/* Under pc_lock: the core manager runs (again). */
static void want_refill_locked(void)
{
    refill_wanted = true;
    if (coremgr_thread)
        wakeup_thread(coremgr_thread, &refill_wanted);
}

/* No free frame: nothing to do here but ask; the fault lets go of its
 * lock and awaits core in wait_room. */
static int daemon_make_room(struct aspace *as)
{
    (void)as;
    return -EAGAIN;
}

/* Awaiting core: until a frame is free or a pass of the core manager
 * that began after this asked has ended. That pass's failure is the
 * fault's (-ENOSPC, -EIO, -ENOMEM), but a pass that met only busy spaces
 * says retry: after RECLAIM_BUSY_WAITS of those the fault takes a frame
 * from the reserve (mm_alloc_frame, starved). */
static int daemon_wait_room(struct aspace *as, uint32_t waits)
{
    if (waits > RECLAIM_BUSY_WAITS)
        return -ENOMEM;
    if (sleeplock_held_by_me(&as->lock)) {
        /* fork's copy or exec's new image waits with its space's lock
         * held, which keeps the core manager off that space's pages, and
         * a fork under pressure needs exactly those: it frees one itself,
         * as pc=inline would, and asks for a refill for what follows. */
        spin_lock(&pc_lock);
        want_refill_locked();
        spin_unlock(&pc_lock);
        int rc = pc_inline_ops.make_room(as);
        if (rc == -EAGAIN)
            rc = pc_inline_ops.wait_room(as, waits);
        return rc;
    }
    vm_count(VM_CORE_WAITS);
    spin_lock(&pc_lock);
    uint64_t want = passes_begun + 1;
    want_refill_locked();
    core_waiters++;
    while (no_frame_for_faults() && passes_ended < want) {
        pcmeter_switch_reason(PCM_SW_CORE_WAIT);
        sleep_on(&core_waiters, &pc_lock);
    }
    core_waiters--;
    int rc = 0;
    if (no_frame_for_faults() && pass_error != -EAGAIN)
        rc = pass_error;
    spin_unlock(&pc_lock);
    return rc;
}

static void daemon_water(enum water_event ev)
{
    if (ev == WATER_HIGH) {
        vm_count(VM_HIGH_WATER);
        return;
    }
    if (ev == WATER_LOW)
        vm_count(VM_LOW_WATER);
    /* A spinlock held by this hart (a kernel stack's frames come and go
     * under kstack): no lock may be taken; a fault that finds no frame
     * asks for the core manager itself. */
    if (__atomic_load_n(&this_cpu()->irq_off_depth, __ATOMIC_RELAXED) > 0) {
        __atomic_store_n(ev == WATER_LOW ? &refill_wanted : &zero_wanted, true, __ATOMIC_RELAXED);
        return;
    }
    spin_lock(&pc_lock);
    if (ev == WATER_LOW)
        want_refill_locked();
    else if (!zero_wanted && !refill_wanted) {
        zero_wanted = true;
        wakeup_thread(coremgr_thread, &refill_wanted);
    }
    spin_unlock(&pc_lock);
}

/* The marks: freemin= and freemax= if given, else the allocator's water
 * marks (mm_paging.c). A freemax that would keep more than a quarter of
 * memory free stops the boot, naming what is valid here. */
static void daemon_start(uint32_t low, uint32_t high)
{
    uint32_t managed = frames_managed();
    uint32_t most = managed / 4;
    if (most < PC_FREE_MIN_FRAMES + 1)
        most = PC_FREE_MIN_FRAMES + 1;     /* a tiny mem=: the smallest list there is */
    /* Defaults shrink to what memory allows; values given are refused. */
    freemax = params.freemax ? params.freemax : high < most ? high : most;
    freemin = params.freemin ? params.freemin : low < freemax ? low : freemax - 1;
    if (freemin < PC_FREE_MIN_FRAMES)
        freemin = PC_FREE_MIN_FRAMES;
    if (freemax <= freemin)
        freemax = freemin + 1;
    if (freemax > most)
        boot_refused("freemax=%u is more than a quarter of the %u frames memory has; valid: "
                     "freemin from %u and freemax above it, up to %u", freemax, managed,
                     PC_FREE_MIN_FRAMES, most);
    frames_set_water(freemin, freemax, pc->water);
    frames_set_zeroed_low(freemin);
    kprintf("faultline: pc: daemon, free list %u to %u frames\n", freemin, freemax);
    coremgr_thread = proc_start_system("coremgr", coremgr, NULL);
    pdmgr_thread = proc_start_system("pdmgr", pdmgr, NULL);
    if (!coremgr_thread || !pdmgr_thread)
        panic("pc: no process slot for the page daemon");
    /* Dead pages' disk slots are the PD manager's to free, as it frees
     * the paging device's records (Multics' PD manager reclaimed both). */
    swap_defer_dead();
    /* A free list's worth of frames zeroed in the first idle time. */
    zero_pending = true;
    sched_idle_work = idle_work;
}

const struct pc_ops pc_daemon_ops = {
    .name = "daemon",
    .make_room = daemon_make_room,
    .wait_room = daemon_wait_room,
    .water = daemon_water,
    .start = daemon_start,
};
