/*
 * Swap space on the block device: the slot map (swapmap.c) behind the
 * "swap" lock, and page-sized transfers. The device carries nothing else,
 * so every slot from 0 up is usable.
 */
#include "swapspace.h"
#include "config.h"
#include "mmu.h"
#include "spinlock.h"
#include <arch/arch.h>
#include "printk.h"
#include "vmstat.h"
#include "pdmap.h"
#include "pc.h"
#include <faultline/errno.h>

#define SECTORS_PER_PAGE (PAGE_SIZE / BLK_SECTOR_SIZE)

static uint64_t slot_bits[SWAPMAP_WORDS(SWAP_MAX_SLOTS)];
static struct swapmap slots;
static struct spinlock swap_lock = SPINLOCK_INIT("swap", LOCK_RANK_SWAP);
static bool present;
/* Under swap_lock: slots of dead pages waiting for the PD manager. */
static uint32_t dead_slot[SWAP_DEAD_SLOTS];
static uint32_t ndead;
static bool defer_dead;           /* set once at boot, by pc=daemon */

void swap_init(void)
{
    if (!blk_present()) {
        kprintf("faultline: swap: none (no disk): running without swap\n");
        return;
    }
    uint64_t n = blk_capacity() / SECTORS_PER_PAGE;
    if (n < SWAP_MIN_SLOTS) {
        kprintf("faultline: swap: the disk is too small (%lu KiB, need at least %lu KiB): "
                "running without swap\n", blk_capacity() * BLK_SECTOR_SIZE / 1024,
                (uint64_t)SWAP_MIN_SLOTS * PAGE_SIZE / 1024);
        return;
    }
    if (n > SWAP_MAX_SLOTS) {
        kprintf("faultline: swap: using the first %lu MiB of the disk\n",
                (uint64_t)SWAP_MAX_SLOTS * PAGE_SIZE >> 20);
        n = SWAP_MAX_SLOTS;
    }
    if (n > mmu_max_swap_slot())
        n = mmu_max_swap_slot();
    swapmap_init(&slots, slot_bits, (uint32_t)n);
    present = true;
    kprintf("faultline: swap: %lu page slots (%lu KiB) on the disk\n", n, n * PAGE_SIZE / 1024);
}

/* Frees the waiting dead slots; returns how many. A bad one (freed twice)
 * is found here rather than when it was handed over. */
static uint32_t reap_locked(void)
{
    uint32_t n = ndead;
    for (uint32_t i = 0; i < n; i++)
        if (swapmap_free(&slots, dead_slot[i], 1))
            panic("swap: bad free of a dead page's slot %u", dead_slot[i]);
    ndead = 0;
    return n;
}

uint32_t swap_alloc(uint32_t n)
{
    if (!present)
        return SWAP_NONE;
    spin_lock(&swap_lock);
    uint32_t s = swapmap_alloc(&slots, n);
    if (s == SWAP_NONE && ndead) {
        reap_locked();             /* the device is full only without them */
        s = swapmap_alloc(&slots, n);
    }
    spin_unlock(&swap_lock);
    return s;
}

void swap_free(uint32_t slot, uint32_t n)
{
    /* A page the paging device holds: its record and its slot are the
     * paging-device manager's to free (pdmap.h). */
    if (n == 1 && pdmap_present() && pdmap_slot_dies(slot))
        return;
    spin_lock(&swap_lock);
    if (n == 1 && defer_dead && present && ndead < SWAP_DEAD_SLOTS) {
        dead_slot[ndead++] = slot;       /* the PD manager's to free */
        bool kick = ndead == SWAP_DEAD_SLOTS / 2;
        spin_unlock(&swap_lock);
        if (kick)
            pc_daemon_pd_kick();         /* half full: its turn, even with no page-outs */
        return;
    }
    int rc = present ? swapmap_free(&slots, slot, n) : -1;
    spin_unlock(&swap_lock);
    if (rc)
        panic("swap: bad free of %u slots at %u", n, slot);
}

void swap_usage(uint64_t *total, uint64_t *used)
{
    spin_lock(&swap_lock);
    *total = present ? slots.nslots : 0;
    *used = present ? slots.nslots - slots.nfree - ndead : 0;
    spin_unlock(&swap_lock);
}

void swap_defer_dead(void)
{
    spin_lock(&swap_lock);
    defer_dead = true;
    spin_unlock(&swap_lock);
}

uint32_t swap_reap_dead(void)
{
    if (!__atomic_load_n(&ndead, __ATOMIC_RELAXED))
        return 0;
    spin_lock(&swap_lock);
    uint32_t n = reap_locked();
    spin_unlock(&swap_lock);
    vm_count_n(VM_SLOTS_REAPED, n);
    return n;
}

uint64_t swap_free_slots(void)
{
    return present ? __atomic_load_n(&slots.nfree, __ATOMIC_RELAXED)
                     + __atomic_load_n(&ndead, __ATOMIC_RELAXED) : 0;
}

int swap_start(struct blk_req *req, uint32_t slot, paddr_t pa, bool write)
{
    req->sector = (uint64_t)slot * SECTORS_PER_PAGE;
    req->buf = (void *)PA_TO_KVA(pa);
    req->len = PAGE_SIZE;
    req->write = write;
    return blk_submit(req);
}

static int swap_io(uint32_t slot, paddr_t pa, bool write)
{
    struct blk_req req;
    int rc = swap_start(&req, slot, pa, write);
    if (!rc)
        rc = blk_wait(&req);
    if (rc)
        vm_count(VM_IO_ERRORS);
    return rc ? -EIO : 0;
}

int swap_read(uint32_t slot, paddr_t pa)
{
    if (pdmap_present()) {
        int rc = pdmap_read(slot, pa);
        if (rc != 1)
            return rc;
    }
    return swap_io(slot, pa, false);
}
int swap_write(uint32_t slot, paddr_t pa) { return swap_io(slot, pa, true); }
