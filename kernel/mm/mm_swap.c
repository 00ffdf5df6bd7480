/*
 * mm=swap: whole-process swapping, as in Seventh Edition UNIX. A process
 * is either wholly in memory or wholly on the swap device; only a process
 * in memory runs (the scheduler passes over a process whose mm_hold is
 * set; everything else the swapper keeps is private to this file).
 *
 *  - A fault that finds no free frame lets go of its space's lock, swaps
 *    its own process out, asking for one frame more than it has (V7's
 *    expand: xswap of a growing process), waits to be brought back in
 *    and retries (FAULT_RETRY).
 *  - The swapper thread (V7's sched, process 0) brings in the runnable
 *    process that has been out longest, once it has been out long enough;
 *    if memory is short it first swaps out a victim: a blocked process
 *    (all threads asleep) that has been idle longest, the largest on a
 *    tie; failing that, a runnable one that has been in long enough.
 *    The "long enough" times keep it from thrashing.
 *
 * An image goes out to one contiguous extent of slots, written with
 * several requests in flight; each slot is freed as its page comes back.
 * Pages go back through the same PTE states as paging (SWAPPED entries),
 * so a process left partly out by an I/O error still works: its missing
 * pages fault in one by one.
 */
#include "mm.h"
#include "frame.h"
#include "swapspace.h"
#include "transit.h"
#include "proc.h"
#include "ktime.h"
#include "vmstat.h"
#include "meter.h"
#include "printk.h"
#include <faultline/errno.h>

/* What the swapper keeps of each process, beside the process table (by
 * slot): nothing outside this file reads it. The one thing the scheduler
 * needs, whether a thread may run, is proc->mm_hold. */
struct swap_proc {
    bool     out;          /* the image is wholly out: the swapper may bring it in */
    bool     failed;       /* the swapper let it go without bringing it in */
    uint32_t need;         /* frames it needs to come back in */
    uint64_t stamp;        /* arch time it last went out or came in */
};
static struct swap_proc swap_procs[MAX_PROCS];

static struct swap_proc *sp_of(const struct proc *p)
{
    return &swap_procs[p - procs];
}

static bool held_off(const struct proc *p)
{
    return __atomic_load_n(&p->mm_hold, __ATOMIC_ACQUIRE) != MM_HOLD_NONE;
}

static void set_hold(struct proc *p, uintptr_t hold)
{
    __atomic_store_n(&p->mm_hold, hold, __ATOMIC_RELEASE);
}

struct io_batch {
    struct blk_req req[SWAP_IO_BATCH];
    void    *leaf[SWAP_IO_BATCH];
    paddr_t  pa[SWAP_IO_BATCH];
    unsigned prot[SWAP_IO_BATCH];
    uint32_t slot[SWAP_IO_BATCH];
    int      n;
};

struct out_ctx {
    struct aspace *as;
    uint32_t next_slot;      /* in the extent */
    uint32_t extent_left;    /* slots of it not used yet; then one slot at a time */
    int      rc;
    uint64_t moved;
    struct io_batch b;
};

static uint64_t usable_frames(void)
{
    uint64_t f = frames_free_count();
    return f > USER_FRAME_RESERVE ? f - USER_FRAME_RESERVE : 0;
}

/* What user pages could have if every process were out: free frames and
 * user frames, not what the kernel holds (page tables, kernel stacks),
 * which grows with the number of processes. A walk of the core map: only
 * on the slow path, when memory is short. */
static uint64_t capacity_frames(void)
{
    uint64_t t = frames_free_plus_user_count();
    return t > USER_FRAME_RESERVE ? t - USER_FRAME_RESERVE : 0;
}

static uint64_t elapsed_ms(uint64_t since)
{
    return time_to_us(arch_read_time() - since) / 1000;
}

/* Starts every transfer of the batch, so they are all in flight at once,
 * then waits for each: rc[i] is page i's result. */
static void batch_io(struct io_batch *b, bool write, int rc[SWAP_IO_BATCH])
{
    for (int i = 0; i < b->n; i++)
        rc[i] = swap_start(&b->req[i], b->slot[i], b->pa[i], write);
    for (int i = 0; i < b->n; i++)
        rc[i] = rc[i] ? -EIO : blk_wait(&b->req[i]);
}

/* Writes the batch; pages whose write failed are mapped back. */
static void flush_out(struct out_ctx *c)
{
    struct io_batch *b = &c->b;
    if (!b->n)
        return;
    /* No hart may still write through an old translation. */
    aspace_shootdown(c->as);
    int rcs[SWAP_IO_BATCH];
    batch_io(b, true, rcs);
    for (int i = 0; i < b->n; i++) {
        if (rcs[i]) {
            vm_count(VM_IO_ERRORS);
            swap_free(b->slot[i], 1);
            mmu_leaf_set_tracked(b->leaf[i], b->pa[i], b->prot[i], true);
            c->rc = -EIO;
            continue;
        }
        mmu_leaf_set_swapped(b->leaf[i], b->slot[i]);
        frame_free(b->pa[i]);
        as_count(&c->as->resident, -1);
        as_count(&c->as->swapped, 1);
        c->moved++;
    }
    b->n = 0;
}

static void out_leaf(vaddr_t va, void *leaf, void *arg)
{
    (void)va;
    struct out_ctx *c = arg;
    struct leaf_info li;
    enum leaf_state st = mmu_leaf_read(leaf, &li);
    if (c->rc || (st != LEAF_PRESENT && st != LEAF_HIDDEN))
        return;
    if (maps_zero_frame(&li)) {
        /* Owns nothing to write: untouched again, a read maps it anew. */
        mmu_leaf_clear(leaf);
        return;
    }
    if (aspace_holds_granted(c->as, li.pa))
        return;                     /* a fault handler's frame stays where it is */
    uint32_t slot;
    if (c->extent_left) {
        slot = c->next_slot++;
        c->extent_left--;
    } else if ((slot = swap_alloc(1)) == SWAP_NONE) {
        c->rc = -ENOSPC;            /* what went out so far faults back in */
        return;
    }
    struct io_batch *b = &c->b;
    mmu_leaf_take(leaf);
    b->leaf[b->n] = leaf;
    b->pa[b->n] = li.pa;
    b->prot[b->n] = li.prot;
    b->slot[b->n] = slot;
    if (++b->n == SWAP_IO_BATCH)
        flush_out(c);
}

/* Writes the whole image of p (its space locked by the caller, its threads
 * off every hart and kept off by p->mm_hold) to one extent if the device
 * has a free run that long; else (the slot map is fragmented) slot by slot,
 * rather than call a device with room on it full. need: frames it will
 * want back. */
static int swap_out_locked(struct proc *p, struct aspace *as, uint32_t need)
{
    uint64_t off, start = meter_split_start(&off);
    uint32_t n = (uint32_t)as->resident;
    uint32_t extent = n ? swap_alloc(n) : SWAP_NONE;
    struct out_ctx c = { .as = as, .next_slot = extent,
                         .extent_left = extent == SWAP_NONE ? 0 : n };
    mmu_for_each_user_leaf(as->root, out_leaf, &c);
    flush_out(&c);
    /* Slots of the extent left unused (pages that went meanwhile). */
    if (c.extent_left)
        swap_free(c.next_slot, c.extent_left);
    if (c.rc)
        return c.rc;
    sp_of(p)->need = need;
    sp_of(p)->stamp = arch_read_time();
    __atomic_store_n(&sp_of(p)->out, true, __ATOMIC_RELEASE);
    vm_count(VM_SWAPOUTS);
    vm_count_n(VM_SWAPOUT_PAGES, c.moved);
    meter_record_split(FL_METER_SWAPOUT, FL_METER_SWAP_WAIT, start, off);
    return 0;
}

/* True once no thread of p is on a hart. p->mm_hold is already set, so
 * none can be put on one: a thread seen off stays off. */
static bool off_every_hart(struct proc *p)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        if (t->proc != p || t == current_thread())
            continue;
        spin_lock(&t->lock);
        bool running = t->state == T_RUNNING;
        spin_unlock(&t->lock);
        if (running)
            return false;
    }
    return true;
}

/* p may run again: wake an idle hart for each of its runnable threads. */
static void kick_runnable(struct proc *p)
{
    for (int i = 0; i < MAX_THREADS; i++)
        if (threads[i].proc == p && threads[i].state == T_RUNNABLE)
            kick_cpu_for(&threads[i]);
}


/*
 * The faulting process makes room by going out itself, then waits off
 * every hart to be brought back in. It holds no space lock while it waits
 * (the fault let go of its own first, see mm_ops.wait_room), so the
 * swapper takes the lock of the space it brings in like anyone else. The
 * one lock such a thread may hold is that of exec's new image, which is
 * not yet p->as: the current image is what goes out then.
 */
static void wait_until_in(struct proc *p)
{
    while (held_off(p))
        yield();
}

static int go_out_and_wait(struct proc *p, struct aspace *img, uint32_t need, bool for_room)
{
    sleeplock_acquire(&img->lock);
    if (for_room && (held_off(p) || usable_frames())) {
        /* Between the fault letting go of the lock and now, a sibling
         * thread sent the process out (wait for it with the sibling), or
         * room appeared: nothing to do but retry. */
        sleeplock_release(&img->lock);
        wait_until_in(p);
        return 0;
    }
    /* Held off the harts, all but this thread, which must still run (it
     * sleeps on the device and for TLB shootdowns). */
    set_hold(p, (uintptr_t)current_thread());
    while (!off_every_hart(p))
        yield();
    /* Before the image is marked out: from then on the swapper may act.
     * failed answers for this wait only: the swapper may have given up
     * on the process once before, when it was out as a victim. */
    sp_of(p)->failed = false;
    int rc = swap_out_locked(p, img, need);
    sleeplock_release(&img->lock);
    /* Until here this thread had to run; now it too waits off every hart
     * to be brought in. Unless the swapper has brought it in already (it
     * then cleared the hold): a compare, not a store. */
    uintptr_t me = (uintptr_t)current_thread();
    __atomic_compare_exchange_n(&p->mm_hold, &me, rc ? MM_HOLD_NONE : MM_HOLD_ALL, false,
                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    if (rc)
        return rc;
    wait_until_in(p);
    if (sp_of(p)->failed) {
        /* Let go without coming in: it no longer fits (see swapper). */
        sp_of(p)->failed = false;
        return -ENOMEM;
    }
    return 0;
}

/* Whether the faulting process could ever come back in one frame larger:
 * if so, the room is made by going out (wait_room), which must not be
 * done with the space's lock held. */
static int swap_make_room(struct aspace *as)
{
    struct proc *p = current_proc();
    struct aspace *img = p->as;
    uint32_t need = (uint32_t)img->resident + 1;
    if (as != img && as->resident + need > capacity_frames())
        return -ENOMEM;
    if (need > capacity_frames())
        return -ENOMEM;               /* it could never come back in */
    return -EAGAIN;
}

/* V7's expand: out with one frame more than it has, back in when the
 * swapper finds it room. waits does not bound it: the swapper gives up
 * on a process that can no longer fit (swap_proc.failed). */
static int swap_wait_room(struct aspace *as, uint32_t waits)
{
    (void)as;
    (void)waits;
    struct proc *p = current_proc();
    return go_out_and_wait(p, p->as, (uint32_t)p->as->resident + 1, true);
}

/* Room for a whole process with every other one out: the swapper brings
 * in no process bigger than this (swap_proc.need), so a promise beyond it could
 * only end in a kill. */
static uint64_t swap_process_pages_max(void)
{
    return capacity_frames();
}

static int swap_out_self(void)
{
    struct proc *p = current_proc();
    return go_out_and_wait(p, p->as, (uint32_t)p->as->resident, false);
}

struct in_ctx {
    struct aspace *as;
    uint64_t moved;
    struct io_batch b;
};

static void flush_in(struct in_ctx *c)
{
    struct io_batch *b = &c->b;
    int rcs[SWAP_IO_BATCH];
    batch_io(b, false, rcs);
    for (int i = 0; i < b->n; i++) {
        if (rcs[i]) {
            /* Leave it on the device: a fault will try again (and fail
             * the process with SIGBUS if the device still refuses). */
            vm_count(VM_IO_ERRORS);
            frame_free(b->pa[i]);
            continue;
        }
        swap_free(b->slot[i], 1);
        as_count(&c->as->swapped, -1);
        frame_set_dirty(b->pa[i], true);
        mmu_leaf_set_tracked(b->leaf[i], b->pa[i], b->prot[i], false);
        as_count(&c->as->resident, 1);
        c->moved++;
    }
    b->n = 0;
}

static void in_leaf(vaddr_t va, void *leaf, void *arg)
{
    struct in_ctx *c = arg;
    struct leaf_info li;
    if (mmu_leaf_read(leaf, &li) != LEAF_SWAPPED)
        return;
    struct region *r = aspace_find_region(c->as, va);
    paddr_t pa = r ? frame_alloc_user(c->as, va >> PAGE_SHIFT) : 0;
    if (!pa)
        return;                       /* memory went meanwhile: it faults in later */
    struct io_batch *b = &c->b;
    b->leaf[b->n] = leaf;
    b->pa[b->n] = pa;
    b->prot[b->n] = r->prot | PROT_U;
    b->slot[b->n] = (uint32_t)li.slot;
    if (++b->n == SWAP_IO_BATCH)
        flush_in(c);
}

static void swap_in(struct proc *p)
{
    uint64_t off, start = meter_split_start(&off);
    struct aspace *as = p->as;
    sleeplock_acquire(&as->lock);
    struct in_ctx c = { .as = as };
    mmu_for_each_user_leaf(as->root, in_leaf, &c);
    flush_in(&c);
    sleeplock_release(&as->lock);
    sp_of(p)->stamp = arch_read_time();
    sp_of(p)->out = false;
    set_hold(p, MM_HOLD_NONE);
    vm_count(VM_SWAPINS);
    vm_count_n(VM_SWAPIN_PAGES, c.moved);
    meter_record_split(FL_METER_SWAPIN, FL_METER_SWAP_WAIT, start, off);
    kick_runnable(p);
}

static bool has_runnable_thread(struct proc *p)
{
    for (int i = 0; i < MAX_THREADS; i++)
        if (threads[i].proc == p && threads[i].state == T_RUNNABLE)
            return true;
    return false;
}

static bool all_threads_asleep(struct proc *p)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        if (t->proc == p && t->state != T_SLEEPING && t->state != T_ZOMBIE && t->state != T_DEAD)
            return false;
    }
    return true;
}

static bool swappable(struct proc *p)
{
    return p->state == P_ALIVE && p->as && !p->exiting && !held_off(p);
}

/* The swapped-out process to bring in next: runnable, out longest (and
 * out long enough). With fit, only one that fits in free memory now. */
static struct proc *choose_incoming(bool fit)
{
    struct proc *best = NULL;
    for (int i = 0; i < MAX_PROCS; i++) {
        struct proc *p = &procs[i];
        struct swap_proc *sp = sp_of(p);
        if (p->state != P_ALIVE || !__atomic_load_n(&sp->out, __ATOMIC_ACQUIRE) ||
            !has_runnable_thread(p) || elapsed_ms(sp->stamp) < SWAP_MIN_OUT_MS)
            continue;
        if (fit && sp->need > usable_frames())
            continue;
        if (!best || sp->stamp < sp_of(best)->stamp)
            best = p;
    }
    return best;
}

/* p cannot come in even with everyone else out (the kernel's own share of
 * memory grew while it was out): let it run without its pages, so the
 * fault that sent it out fails and it is killed for want of memory (one
 * sent out as a victim faults its pages in one by one instead). */
static void give_up(struct proc *p)
{
    sp_of(p)->failed = true;
    sp_of(p)->out = false;
    set_hold(p, MM_HOLD_NONE);
    kick_runnable(p);
}

/* V7's choice: blocked, idle longest, largest; else runnable and in for
 * at least SWAP_MIN_IN_MS. */
static struct proc *choose_victim(struct proc *exclude)
{
    struct proc *best = NULL;
    bool best_blocked = false;
    for (int i = 0; i < MAX_PROCS; i++) {
        struct proc *p = &procs[i];
        if (p == exclude || !swappable(p) || !p->as->resident)
            continue;
        bool blocked = all_threads_asleep(p);
        if (!blocked && elapsed_ms(sp_of(p)->stamp) < SWAP_MIN_IN_MS)
            continue;
        bool better;
        if (!best || blocked != best_blocked)
            better = !best || blocked;
        else if (p->last_ran != best->last_ran)
            better = p->last_ran < best->last_ran;
        else
            better = p->as->resident > best->as->resident;
        if (better) {
            best = p;
            best_blocked = blocked;
        }
    }
    return best;
}

/* Swaps victim out if it can be had right now. */
static int evict_process(struct proc *p)
{
    struct aspace *as = p->as;
    if (!sleeplock_try(&as->lock))
        return -EBUSY;
    set_hold(p, MM_HOLD_ALL);
    int rc = off_every_hart(p) ? swap_out_locked(p, as, (uint32_t)as->resident) : -EBUSY;
    if (rc)
        set_hold(p, MM_HOLD_NONE);
    sleeplock_release(&as->lock);
    return rc;
}

static void swapper(void *unused)
{
    (void)unused;
    for (;;) {
        struct proc *in = choose_incoming(false);
        if (!in) {
            sleep_ms(SWAPPER_PERIOD_MS);
            continue;
        }
        if (usable_frames() >= sp_of(in)->need) {
            swap_in(in);
            continue;
        }
        if (sp_of(in)->need > capacity_frames()) {
            give_up(in);
            continue;
        }
        struct proc *victim = choose_victim(in);
        if (victim && evict_process(victim) == 0)
            continue;
        /* No room can be made for the longest out: bring in one that
         * fits as things are, rather than let everyone wait. */
        struct proc *fits = choose_incoming(true);
        if (fits)
            swap_in(fits);
        else
            sleep_ms(SWAPPER_PERIOD_MS);
    }
}

/* A new process: in memory, just come in. */
static void swap_proc_init(struct proc *p)
{
    struct swap_proc *sp = sp_of(p);
    sp->out = sp->failed = false;
    sp->need = 0;
    sp->stamp = arch_read_time();
}

static void swap_start_threads(void)
{
    if (!kthread_create("swapper", swapper, NULL, -1))
        panic("mm: no thread for the swapper");
}

static void swap_banner(void)
{
    kprintf("faultline: mm: swap\n");
}

const struct mm_ops swap_ops = {
    .name = "swap",
    .load_image_at_exec = true,
    .fork_to_swap_when_full = true,
    .banner = swap_banner,
    .start = swap_start_threads,
    .proc_init = swap_proc_init,
    .make_room = swap_make_room,
    .wait_room = swap_wait_room,
    .swap_out_self = swap_out_self,
    .process_pages_max = swap_process_pages_max,
};
