/*
 * The paging device's records and map (pdmap.h; docs/memory.md, "The
 * paging device").
 *
 * The record table and the map's buckets live in frames taken at boot,
 * only with pd=: a table of pages, not one run of memory, so no
 * contiguous allocation is needed and the kernel's static memory grows by
 * a few pointers. Record r is the page at byte r * PAGE_SIZE of the
 * paging device.
 */
#include "pdmap.h"
#include "swapspace.h"
#include "config.h"
#include "frame.h"
#include "param.h"
#include "spinlock.h"
#include "vmstat.h"
#include "printk.h"
#include "pc.h"
#include <arch/arch.h>
#include <faultline/errno.h>

#define SECTORS_PER_PAGE  (PAGE_SIZE / BLK_SECTOR_SIZE)
#define PD_MAX_RECORDS    (PD_MAX_SIZE / PAGE_SIZE)
#define REC_NIL           0xffffu           /* end of a bucket's chain */
#define RWS_BATCH         4                 /* moves whose reads, then writes, go out together */
#define RECLAIM_CHUNK     32                /* dead records' slots freed per turn of the lock */

_Static_assert(PD_MAX_RECORDS < REC_NIL, "record numbers fit a uint16_t with one to spare");

enum rec_state {
    REC_FREE,        /* not in the ring */
    REC_WRITING,     /* the write-behind is writing its page */
    REC_LIVE,        /* holds its slot's page */
    REC_MOVING,      /* being moved to the disk (still the page's copy to read) */
    REC_MOVING_DEAD, /* ... and its page died meanwhile */
    REC_GONE,        /* moved: the disk has the page; readers may still be reading */
    REC_DEAD,        /* its page died: the record and the slot wait for the ring's tail */
};

struct pd_rec {
    uint32_t slot;       /* the page's disk slot */
    uint16_t next;       /* next record in the bucket's chain */
    uint8_t  state;      /* enum rec_state */
    uint8_t  readers;    /* faults reading it now */
};

#define RECS_PER_PAGE   (PAGE_SIZE / sizeof(struct pd_rec))
#define HEADS_PER_PAGE  (PAGE_SIZE / sizeof(uint16_t))

static struct pd_rec *rec_pages[(PD_MAX_RECORDS + RECS_PER_PAGE - 1) / RECS_PER_PAGE];
static uint16_t *head_pages[(PD_MAX_RECORDS + HEADS_PER_PAGE - 1) / HEADS_PER_PAGE];
static void *move_buf[RWS_BATCH];
static struct spinlock pd_lock = SPINLOCK_INIT("pdmap", LOCK_RANK_PDMAP);
static bool present;
static uint32_t nrec, nbuckets, low_mark, high_mark;
/* Under pd_lock: the ring, oldest record first. */
static uint32_t first, nused;

static struct pd_rec *rec(uint32_t r)
{
    return &rec_pages[r / RECS_PER_PAGE][r % RECS_PER_PAGE];
}

static uint16_t *bucket(uint32_t slot)
{
    uint32_t b = slot & (nbuckets - 1);
    return &head_pages[b / HEADS_PER_PAGE][b % HEADS_PER_PAGE];
}

/* ---- the map: disk slot -> record -------------------------------------- */

static uint32_t lookup(uint32_t slot)
{
    for (uint32_t r = *bucket(slot); r != REC_NIL; r = rec(r)->next)
        if (rec(r)->slot == slot)
            return r;
    return PD_NONE;
}

static void hash_add(uint32_t r)
{
    uint16_t *h = bucket(rec(r)->slot);
    rec(r)->next = *h;
    *h = (uint16_t)r;
}

static void hash_remove(uint32_t r)
{
    uint16_t *link = bucket(rec(r)->slot);
    while (*link != REC_NIL && *link != r)
        link = &rec(*link)->next;
    if (*link == REC_NIL)
        panic("pdmap: record %u is not in its bucket", r);
    *link = rec(r)->next;
}

/* ---- boot -------------------------------------------------------------- */

static void *table_frame(void)
{
    paddr_t pa = frame_alloc_zeroed(FRAME_KERNEL);
    if (!pa)
        boot_refused("pd=: no memory for the paging device's record table; valid: a smaller "
                     "pd= or more mem=");
    return (void *)PA_TO_KVA(pa);
}

void pdmap_init(void)
{
    if (!params.pd_size)
        return;
    if (!blk_dev_present(BLK_PD) || !blk_present())
        boot_refused("pd=: the paging device or the disk is not usable");
    nrec = (uint32_t)(blk_dev_capacity(BLK_PD) / SECTORS_PER_PAGE);
    for (nbuckets = 1; nbuckets < nrec; nbuckets *= 2)
        ;
    for (uint32_t i = 0; i * RECS_PER_PAGE < nrec; i++)
        rec_pages[i] = table_frame();
    for (uint32_t i = 0; i * HEADS_PER_PAGE < nbuckets; i++) {
        head_pages[i] = table_frame();
        for (uint32_t j = 0; j < HEADS_PER_PAGE; j++)
            head_pages[i][j] = REC_NIL;
    }
    for (int i = 0; i < RWS_BATCH; i++)
        move_buf[i] = table_frame();
    low_mark = nrec / PD_LOW_DIV;
    high_mark = nrec / PD_HIGH_DIV;
    if (high_mark <= low_mark)
        high_mark = low_mark + 1;
    present = true;
    kprintf("faultline: pd: %u records (%lu KiB), moved to the disk oldest first below %u "
            "free, up to %u\n", nrec, (uint64_t)nrec * PAGE_SIZE / 1024, low_mark, high_mark);
}

bool pdmap_present(void)
{
    return present;
}

void pdmap_usage(uint64_t *total, uint64_t *free)
{
    if (!present) {
        *total = *free = 0;
        return;
    }
    spin_lock(&pd_lock);
    *total = nrec;
    *free = nrec - nused;
    spin_unlock(&pd_lock);
}

/* ---- the write-behind --------------------------------------------------- */

static void pd_io_start(struct blk_req *req, uint32_t r, void *buf, bool write)
{
    req->sector = (uint64_t)r * SECTORS_PER_PAGE;
    req->buf = buf;
    req->len = PAGE_SIZE;
    req->write = write;
    blk_submit_to(BLK_PD, req);    /* a refusal is req's status, seen by blk_wait */
}

uint32_t pdmap_write_start(uint32_t slot, struct blk_req *req, paddr_t pa)
{
    spin_lock(&pd_lock);
    if (nused == nrec) {
        spin_unlock(&pd_lock);
        vm_count(VM_PD_FULL);
        return PD_NONE;
    }
    uint32_t r = (first + nused) % nrec;
    nused++;
    *rec(r) = (struct pd_rec){ .slot = slot, .state = REC_WRITING };
    hash_add(r);
    spin_unlock(&pd_lock);
    pd_io_start(req, r, (void *)PA_TO_KVA(pa), true);
    vm_count(VM_PD_STORES);
    return r;
}

void pdmap_written(uint32_t r)
{
    spin_lock(&pd_lock);
    if (rec(r)->state == REC_WRITING)
        rec(r)->state = REC_LIVE;
    spin_unlock(&pd_lock);
}

/* ---- faults and deaths -------------------------------------------------- */

int pdmap_read(uint32_t slot, paddr_t pa)
{
    spin_lock(&pd_lock);
    uint32_t r = lookup(slot);
    if (r == PD_NONE) {
        spin_unlock(&pd_lock);
        return 1;
    }
    /* LIVE or MOVING: the device's copy stays until the ring's tail
     * passes the record, which it does not while we read. */
    rec(r)->readers++;
    spin_unlock(&pd_lock);
    struct blk_req req;
    pd_io_start(&req, r, (void *)PA_TO_KVA(pa), false);
    int rc = blk_wait(&req);
    spin_lock(&pd_lock);
    rec(r)->readers--;
    bool kick = r == first && !rec(r)->readers && rec(r)->state == REC_GONE;
    spin_unlock(&pd_lock);
    if (kick)
        pc_daemon_pd_kick();
    if (rc) {
        vm_count(VM_IO_ERRORS);
        return -EIO;
    }
    vm_count(VM_PD_READS);
    return 0;
}

bool pdmap_slot_dies(uint32_t slot)
{
    if (!present)
        return false;
    spin_lock(&pd_lock);
    uint32_t r = lookup(slot);
    if (r == PD_NONE) {
        spin_unlock(&pd_lock);
        return false;
    }
    hash_remove(r);
    rec(r)->state = rec(r)->state == REC_MOVING ? REC_MOVING_DEAD : REC_DEAD;
    /* The oldest record: the manager can free it (and those behind it
     * that died before) at once, with no I/O. */
    bool kick = r == first && rec(r)->state == REC_DEAD && !rec(r)->readers;
    spin_unlock(&pd_lock);
    if (kick)
        pc_daemon_pd_kick();
    return true;
}

/* ---- the paging-device manager's moves (RWS) ------------------------------ */

/* Under pd_lock: frees what the ring's tail can pass without I/O (dead
 * records, whose slots go into dead[], and moved ones nobody reads). */
static uint32_t reclaim_tail(uint32_t *dead)
{
    uint32_t n = 0;
    while (nused && n < RECLAIM_CHUNK) {
        struct pd_rec *x = rec(first);
        if (x->readers || (x->state != REC_DEAD && x->state != REC_GONE))
            break;
        if (x->state == REC_DEAD)
            dead[n++] = x->slot;
        x->state = REC_FREE;
        first = (first + 1) % nrec;
        nused--;
    }
    return n;
}

/* Under pd_lock: up to RWS_BATCH live records from the tail on, now MOVING. */
static uint32_t pick_moves(uint32_t *batch)
{
    uint32_t n = 0;
    for (uint32_t j = 0; j < nused && n < RWS_BATCH; j++) {
        uint32_t r = (first + j) % nrec;
        enum rec_state st = rec(r)->state;
        if (st == REC_LIVE) {
            rec(r)->state = REC_MOVING;
            batch[n++] = r;
        } else if (st == REC_WRITING) {
            break;          /* newer than everything after it: stop at the write-behind */
        }
    }
    return n;
}

/* Reads the batch from the device, all before the first wait, then
 * writes it to the disk the same way. 0, or -EIO (the pages stay where
 * they were). */
static int move(const uint32_t *batch, uint32_t n)
{
    struct blk_req req[RWS_BATCH];
    int err = 0;
    for (uint32_t i = 0; i < n; i++)
        pd_io_start(&req[i], batch[i], move_buf[i], false);
    for (uint32_t i = 0; i < n; i++)
        if (blk_wait(&req[i]))
            err = -EIO;
    if (err)
        return err;
    for (uint32_t i = 0; i < n; i++) {
        req[i] = (struct blk_req){ .sector = (uint64_t)rec(batch[i])->slot * SECTORS_PER_PAGE,
                                   .buf = move_buf[i], .len = PAGE_SIZE, .write = true };
        blk_submit(&req[i]);
    }
    for (uint32_t i = 0; i < n; i++)
        if (blk_wait(&req[i]))
            err = -EIO;
    return err;
}

static void moved(const uint32_t *batch, uint32_t n, int err)
{
    spin_lock(&pd_lock);
    for (uint32_t i = 0; i < n; i++) {
        struct pd_rec *x = rec(batch[i]);
        if (x->state == REC_MOVING_DEAD)
            x->state = REC_DEAD;
        else if (err)
            x->state = REC_LIVE;          /* the device still has it */
        else {
            hash_remove(batch[i]);        /* the disk has it now */
            x->state = REC_GONE;
        }
    }
    spin_unlock(&pd_lock);
}

uint32_t pdmap_make_room(void)
{
    uint32_t moves = 0, dead[RECLAIM_CHUNK], batch[RWS_BATCH];
    bool started = false;
    if (!present)
        return 0;
    for (;;) {
        spin_lock(&pd_lock);
        uint32_t ndead = reclaim_tail(dead);
        uint32_t nfree = nrec - nused;
        uint32_t want = started ? high_mark : low_mark;
        uint32_t n = ndead == RECLAIM_CHUNK ? 0 : nfree >= want ? 0 : pick_moves(batch);
        spin_unlock(&pd_lock);
        for (uint32_t i = 0; i < ndead; i++)
            swap_free(dead[i], 1);       /* unmapped: the map no longer names it */
        vm_count_n(VM_PD_RECLAIMED, ndead);
        if (ndead == RECLAIM_CHUNK)
            continue;
        if (!n)
            return moves;
        started = true;
        int err = move(batch, n);
        moved(batch, n, err);
        if (err) {
            vm_count(VM_IO_ERRORS);
            return moves;
        }
        moves += n;
        vm_count_n(VM_RWS_MOVES, n);
    }
}
