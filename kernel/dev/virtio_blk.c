/*
 * virtio-blk on the modern virtio-mmio transport (register layout version 2),
 * one split virtqueue, completion by interrupt. The interface is blk.h;
 * the design (rings, chains, sleeping, barriers, errors) is written up in
 * docs/architecture.md, "Block device".
 *
 * Each request is a chain of three descriptors: the request header (device
 * reads it), the caller's buffer (device reads it for a write, writes it for
 * a read), and one status byte (device writes it). Header and status byte
 * live in the driver, in chain[] indexed by the head descriptor, so callers
 * need to supply only their data buffer.
 *
 * Lock: "blk" (spin) guards everything below that changes after boot; the
 * interrupt handler takes it too. The only locks taken under it are the
 * thread locks inside wakeup(). Nothing is printed while it is held (the
 * console lock is not below it in the lock order).
 */
#include "virtio_blk_dev.h"
#include "ktime.h"
#include "param.h"
#include "cpu.h"
#include "frame.h"
#include "meter.h"
#include "pcmeter.h"
#include "proc.h"
#include "spinlock.h"
#include "printk.h"
#include "kstring.h"
#include <arch/arch.h>
#include <faultline/errno.h>

#define KIB                 1024UL
#define BLK_STATUS_UNSET    0xff     /* our mark: the device never wrote the status byte */
#define REASON_MAX          96

_Static_assert((BLK_QUEUE_SIZE & (BLK_QUEUE_SIZE - 1)) == 0, "BLK_QUEUE_SIZE: a power of two");
_Static_assert(BLK_QUEUE_SIZE >= VIRTIO_BLK_REQ_DESCS, "BLK_QUEUE_SIZE: room for one request");
_Static_assert(VIRTQ_DESC_BYTES(BLK_QUEUE_SIZE) <= PAGE_SIZE, "descriptor table in one frame");
_Static_assert(VIRTQ_AVAIL_BYTES(BLK_QUEUE_SIZE) <= PAGE_SIZE, "available ring in one frame");
_Static_assert(VIRTQ_USED_BYTES(BLK_QUEUE_SIZE) <= PAGE_SIZE, "used ring in one frame");

/* The disk's state is static; the paging device's (pd= only) is a frame
 * taken at boot, so a kernel without one carries no second queue. */
static struct blk_dev disk_dev;
static struct blk_dev *devs[BLK_MAX_DEVS] = { &disk_dev };
static unsigned ndevs;
_Static_assert(sizeof(struct blk_dev) <= PAGE_SIZE, "a device's state fits the frame it gets");

static struct spinlock blk_lock = SPINLOCK_INIT("blk", LOCK_RANK_BLK);

/* The devices' interrupt handler, below. */
static void blk_interrupt(void *arg);

/* pd=SIZE: the second block device is the paging device, and its size
 * must be the one asked for (a check that the right image is attached
 * where, rather than a disk used as a paging device or the other way). */
static void pd_device_init(const struct mmio_dev *d)
{
    if (!d)
        boot_refused("pd=%luK needs a second virtio-blk device, the paging device, and there is "
                     "none (the tools attach one of that size when the boot has pd=)",
                     params.pd_size / KIB);
    paddr_t state = frame_alloc_zeroed(FRAME_KERNEL);
    if (!state)
        boot_refused("pd=: no memory for the paging device's queue");
    struct blk_dev *dk = (struct blk_dev *)PA_TO_KVA(state);
    dk->id = BLK_PD;
    devs[BLK_PD] = dk;
    const char *why = vblk_device_setup(dk, d, blk_interrupt);
    if (why)
        boot_refused("pd=: the paging device (virtio-blk at 0x%lx) is unusable: %s", d->base, why);
    if (dk->capacity * BLK_SECTOR_SIZE != params.pd_size)
        boot_refused("pd=%luK but the paging device (virtio-blk at 0x%lx) has %lu KiB; valid: "
                     "pd= of the second device's size", params.pd_size / KIB, d->base,
                     dk->capacity * BLK_SECTOR_SIZE / KIB);
    dk->ready = true;
    ndevs = BLK_MAX_DEVS;
    vblk_print_ready(dk);
}

int blk_init(void)
{
    const struct mmio_dev *found[BLK_MAX_DEVS] = { NULL, NULL }, *legacy;
    int n = vblk_find_devices(found, params.pd_size ? BLK_MAX_DEVS : 1, &legacy);
    if (n == 0) {
        if (legacy)
            kprintf("faultline: disk: none (virtio-blk at 0x%lx is legacy virtio-mmio version 1, "
                    "unsupported)\n", legacy->base);
        else
            kprintf("faultline: disk: none (no virtio block device)\n");
        if (params.pd_size)
            boot_refused("pd= needs a disk and a paging device, and there is no disk");
        return -ENODEV;
    }
    struct blk_dev *dk = devs[BLK_DISK];
    const char *why = vblk_device_setup(dk, found[0], blk_interrupt);
    if (why) {
        kprintf("faultline: disk: none (virtio-blk at 0x%lx unusable: %s)\n", found[0]->base, why);
        if (params.pd_size)
            boot_refused("pd= needs a disk and a paging device, and the disk is unusable");
        return -ENODEV;
    }
    dk->ready = true;
    ndevs = 1;
    vblk_print_ready(dk);
    if (params.pd_size)
        pd_device_init(found[1]);
    return 0;
}

bool blk_dev_present(unsigned dev)
{
    return dev < BLK_MAX_DEVS && devs[dev] && __atomic_load_n(&devs[dev]->ready, __ATOMIC_ACQUIRE);
}

uint64_t blk_dev_capacity(unsigned dev)
{
    return blk_dev_present(dev) ? devs[dev]->capacity : 0;
}

bool blk_present(void)
{
    return blk_dev_present(BLK_DISK);
}

uint64_t blk_capacity(void)
{
    return blk_dev_capacity(BLK_DISK);
}

bool blk_model_busy(void)
{
    for (unsigned i = 0; i < ndevs; i++) {
        const struct blk_dev *dk = devs[i];
        if (dk->arm.service && __atomic_load_n(&dk->inflight, __ATOMIC_RELAXED) >
                               __atomic_load_n(&dk->nheld, __ATOMIC_RELAXED))
            return true;
    }
    return false;
}

uint32_t blk_inflight_peak(void)
{
    spin_lock(&blk_lock);
    uint32_t peak = devs[BLK_DISK]->inflight_peak;
    spin_unlock(&blk_lock);
    return peak;
}

/* ------------------------------------------------------------------ */
/* requests                                                            */

/* The buffer must be in the direct map, over RAM: the device writes it by
 * physical address, and anything else (an MMIO range, a kernel stack's
 * virtual address) would be a wild DMA. */
static bool buffer_ok(const void *buf, uint32_t len)
{
    uint64_t va = (uint64_t)buf;
    if (va < KERNEL_DIRECT_BASE || va - KERNEL_DIRECT_BASE >= KERNEL_DIRECT_SIZE)
        return false;
    paddr_t pa = KVA_TO_PA(va);
    for (int i = 0; i < board.nmemory; i++) {
        const struct mem_range *m = &board.memory[i];
        if (pa >= m->base && pa - m->base <= m->size && len <= m->base + m->size - pa)
            return true;
    }
    return false;
}

/* 0, or why r cannot go to the device. */
static int request_check(const struct blk_dev *dk, const struct blk_req *r)
{
    if (!__atomic_load_n(&dk->ready, __ATOMIC_ACQUIRE))
        return dk->regs ? -EIO : -ENODEV;
    if (r->len == 0 || r->len % BLK_SECTOR_SIZE != 0)
        return -EINVAL;
    uint64_t sectors = r->len / BLK_SECTOR_SIZE;
    if (r->sector >= dk->capacity || sectors > dk->capacity - r->sector)
        return -EINVAL;
    if (!buffer_ok(r->buf, r->len))
        return -EINVAL;
    if (r->write && dk->read_only)
        return -EROFS;
    return 0;
}

static uint16_t desc_take(struct blk_dev *dk)
{
    return dk->free_desc[--dk->nfree];
}

static void desc_set(struct blk_dev *dk, uint16_t i, const void *kva, uint32_t len, uint16_t flags, uint16_t next)
{
    dk->desc[i] = (struct virtq_desc){ .addr = KVA_TO_PA(kva), .len = len,
                                        .flags = flags, .next = next };
}

/* Builds r's three-descriptor chain; returns its head. Caller holds blk_lock
 * and has checked that enough descriptors are free. */
static uint16_t chain_build(struct blk_dev *dk, struct blk_req *r)
{
    uint16_t d[VIRTIO_BLK_REQ_DESCS];
    for (int i = 0; i < VIRTIO_BLK_REQ_DESCS; i++)
        d[i] = desc_take(dk);
    struct blk_chain *c = &dk->chain[d[0]];
    c->hdr = (struct virtio_blk_req_hdr){
        .type = r->write ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_IN, .sector = r->sector };
    c->status = BLK_STATUS_UNSET;
    c->req = r;
    memcpy(c->desc, d, sizeof d);
    desc_set(dk, d[0], &c->hdr, sizeof c->hdr, VIRTQ_DESC_F_NEXT, d[1]);
    desc_set(dk, d[1], r->buf, r->len, VIRTQ_DESC_F_NEXT | (r->write ? 0 : VIRTQ_DESC_F_WRITE), d[2]);
    desc_set(dk, d[2], (const void *)&c->status, sizeof c->status, VIRTQ_DESC_F_WRITE, 0);
    return d[0];
}

/* Makes a built chain visible to the device; the caller rings the
 * doorbell (doorbell()) once it has let go of blk_lock. */
static void chain_publish(struct blk_dev *dk, uint16_t head)
{
    dk->avail->ring[dk->avail_idx % dk->qsize] = head;
    /* the descriptors and ring entry before the index that covers them */
    arch_wmb();
    dk->avail_idx++;
    *(volatile uint16_t *)&dk->avail->idx = dk->avail_idx;
    /* the index before the doorbell, or the device may look too early */
    arch_wmb();
}

/* Outside blk_lock: QEMU does the request's work inside the doorbell's
 * MMIO write, and under -icount its harts take turns, so a doorbell rung
 * under the lock can leave the boot hart spinning for the lock in the
 * disk's interrupt for a whole turn (100 ms of virtual time). A doorbell
 * for chains another submitter published and rang for already is harmless. */
static void doorbell(const struct blk_dev *dk)
{
    reg_write(dk->regs, VIRTIO_MMIO_QUEUE_NOTIFY, QUEUE_INDEX);
}

static void refuse(struct blk_req *r, int err)
{
    r->status = err;
    r->done = true;
}

int blk_submit(struct blk_req *r)
{
    return blk_submit_to(BLK_DISK, r);
}

int blk_submit_to(unsigned dev, struct blk_req *r)
{
    r->done = false;
    r->status = 0;
    r->waiter = NULL;
    if (dev >= BLK_MAX_DEVS || !devs[dev]) {
        refuse(r, -ENODEV);
        return -ENODEV;
    }
    struct blk_dev *dk = devs[dev];
    int err = request_check(dk, r);
    if (err) {
        refuse(r, err);
        return err;
    }
    /* Read before the lock: under -icount a clock read ends QEMU's
     * translation block and may give the other hart its turn. */
    uint64_t issued = dk->arm.service ? arch_read_time() : 0;
    spin_lock(&blk_lock);
    while (dk->ready && dk->nfree < VIRTIO_BLK_REQ_DESCS) {
        dk->nfree_waiters++;
        sleep_on(&dk->nfree, &blk_lock);
        dk->nfree_waiters--;
    }
    if (!dk->ready) {           /* the device failed while we slept */
        spin_unlock(&blk_lock);
        refuse(r, -EIO);
        return -EIO;
    }
    uint16_t head = chain_build(dk, r);
    dk->chain[head].due = blk_arm_issue(&dk->arm, issued);
    r->slot = head;
    chain_publish(dk, head);
    dk->inflight++;
    if (dk->inflight > dk->inflight_peak)
        dk->inflight_peak = dk->inflight;
    spin_unlock(&blk_lock);
    doorbell(dk);
    return 0;
}

int blk_wait(struct blk_req *r)
{
    spin_lock(&blk_lock);
    r->waiter = current_thread();
    while (!r->done) {
        pcmeter_switch_reason(PCM_SW_DISK);
        sleep_on(r, &blk_lock);
    }
    r->waiter = NULL;
    spin_unlock(&blk_lock);
    return r->status;
}

/* ------------------------------------------------------------------ */
/* completion                                                          */

/* Ends the request on chain `head` with `status` and gives its descriptors
 * back. Caller holds blk_lock. */
static void chain_finish(struct blk_dev *dk, uint16_t head, int status)
{
    struct blk_chain *c = &dk->chain[head];
    struct blk_req *r = c->req;
    c->req = NULL;
    for (int i = 0; i < VIRTIO_BLK_REQ_DESCS; i++)
        dk->free_desc[dk->nfree++] = c->desc[i];
    dk->inflight--;
    r->status = status;
    r->done = true;
    /* The one thread waiting for r, woken directly: a wakeup() by channel
     * would look at every thread, in the interrupt, for each request. r is
     * only read here: its waiter may free it once we unlock. */
    if (r->waiter)
        wakeup_thread(r->waiter, r);
}

static int device_status_to_errno(uint8_t s)
{
    /* VIRTIO_BLK_S_IOERR, VIRTIO_BLK_S_UNSUPP, or nothing written at all */
    return s == VIRTIO_BLK_S_OK ? 0 : -EIO;
}

/* The latency model (blk_latency.h): a chain the device finished before
 * its due time is held, descriptors and all, so that the queue fills as a
 * slow disk's would, until the boot hart's alarm at the earliest due time
 * ends it. Both run on the boot hart under blk_lock. */
static void latency_alarm(uint64_t now);

static void latency_arm_alarm(const struct blk_dev *dk)
{
    uint64_t first = UINT64_MAX;
    for (uint16_t head = 0; head < dk->qsize && dk->nheld; head++)
        if (dk->chain[head].held && dk->chain[head].due < first)
            first = dk->chain[head].due;
    if (first != UINT64_MAX)
        time_alarm_set(first, latency_alarm);
}

static void chain_release(struct blk_dev *dk, uint16_t head)
{
    dk->chain[head].held = false;
    dk->nheld--;
    chain_finish(dk, head, device_status_to_errno(dk->chain[head].status));
}

static void latency_alarm(uint64_t now)
{
    spin_lock(&blk_lock);
    for (unsigned dev = 0; dev < ndevs; dev++) {
        struct blk_dev *dk = devs[dev];
        for (uint16_t head = 0; head < dk->qsize && dk->nheld; head++)
            if (dk->chain[head].held && !blk_arm_early(dk->chain[head].due, now))
                chain_release(dk, head);
        if (dk->nfree_waiters)
            wakeup(&dk->nfree);
        latency_arm_alarm(dk);
    }
    spin_unlock(&blk_lock);
}

/* The device finished the chain `head` (seen at `now`): end it, or hold
 * it until due. */
static void chain_complete(struct blk_dev *dk, uint16_t head, uint64_t now)
{
    struct blk_chain *c = &dk->chain[head];
    if (blk_arm_early(c->due, now)) {
        c->held = true;
        dk->nheld++;
        time_alarm_set(c->due, latency_alarm);
        return;
    }
    chain_finish(dk, head, device_status_to_errno(c->status));
}

/* Takes every new used-ring entry. Returns false if the device broke the
 * ring's rules (an index too far ahead); bad chain ids are skipped. */
static bool used_reap(struct blk_dev *dk, uint32_t *bad_ids, uint64_t now)
{
    /* the interrupt status we just read before the index it announced */
    arch_rmb();
    uint16_t idx = *(volatile uint16_t *)&dk->used->idx;
    if ((uint16_t)(idx - dk->last_used) > dk->qsize)
        return false;
    /* the index before the entries and status bytes it covers */
    arch_rmb();
    while (dk->last_used != idx) {
        struct virtq_used_elem e = dk->used->ring[dk->last_used % dk->qsize];
        dk->last_used++;
        if (e.id >= dk->qsize || !dk->chain[e.id].req) {
            (*bad_ids)++;
            continue;
        }
        chain_complete(dk, (uint16_t)e.id, now);
    }
    return true;
}

/* The device is unusable: stop it (a reset ends its use of our rings and
 * buffers), fail everything in flight and every later request. */
static void device_fail(struct blk_dev *dk)
{
    vblk_device_reset(dk->regs);
    status_add(dk->regs, VIRTIO_STATUS_FAILED);
    __atomic_store_n(&dk->ready, false, __ATOMIC_RELEASE);
    for (uint16_t head = 0; head < dk->qsize; head++) {
        if (dk->chain[head].held)
            chain_release(dk, head);     /* done before the failure: its data is good */
        else if (dk->chain[head].req)
            chain_finish(dk, head, -EIO);
    }
}

/* The disk's line fired (registered by route_interrupt). It stays
 * registered after a failure: a stray interrupt is still acknowledged. */
static void blk_interrupt_body(struct blk_dev *dk);

/* Metered for page control's per-fault table (pcmeter.h). */
static void blk_interrupt(void *arg)
{
    struct blk_dev *dk = arg;
    if (!pcmeters_enabled) {
        blk_interrupt_body(dk);
        return;
    }
    uint64_t t0 = meter_now();
    blk_interrupt_body(dk);
    pcmeter_add(PCM_DISKIRQ, meter_now() - t0);
}

static void blk_interrupt_body(struct blk_dev *dk)
{
    if (!dk->regs)
        return;
    const char *failure = NULL;
    uint32_t bad_ids = 0;
    uint64_t now = dk->arm.service ? arch_read_time() : 0;   /* before the lock: see blk_submit */
    spin_lock(&blk_lock);
    uint32_t pending = reg_read(dk->regs, VIRTIO_MMIO_INTERRUPT_STATUS);
    reg_write(dk->regs, VIRTIO_MMIO_INTERRUPT_ACK, pending);
    if (dk->ready) {
        bool need_reset = (pending & VIRTIO_INT_CONFIG_CHANGE) &&
                          (reg_read(dk->regs, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_DEVICE_NEEDS_RESET);
        if (need_reset)
            failure = "it needs a reset";
        else if (!used_reap(dk, &bad_ids, now))
            failure = "its used ring index ran ahead of the queue";
        if (failure)
            device_fail(dk);
        if (dk->nfree_waiters || failure)
            wakeup(&dk->nfree);   /* chains came back, or the device is gone */
    }
    spin_unlock(&blk_lock);
    /* Printed after the lock: the console lock is not below "blk". */
    if (bad_ids)
        kprintf("faultline: %s: device completed %u unknown request(s); ignored\n",
                vblk_tag(dk), bad_ids);
    if (failure)
        kprintf("faultline: %s: virtio-blk at 0x%lx failed (%s); running without %s\n",
                vblk_tag(dk), (uint64_t)dk->base, failure,
                dk->id == BLK_PD ? "a paging device" : "a disk");
}
