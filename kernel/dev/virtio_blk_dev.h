/*
 * The virtio-blk driver's own view of a device, shared by its two files:
 * virtio_blk.c (requests, completion, the latency model) and
 * virtio_blk_setup.c (finding and bringing up the devices at boot).
 * Not an interface for anyone else: that is blk.h.
 */
#ifndef FAULTLINE_VIRTIO_BLK_DEV_H
#define FAULTLINE_VIRTIO_BLK_DEV_H

#include "blk.h"
#include "blk_latency.h"
#include "virtio_mmio.h"
#include "board.h"
#include "irq.h"

#define QUEUE_INDEX         0        /* virtio-blk's only request queue */

/* Driver-side storage of one request, indexed by its head descriptor. */
struct blk_chain {
    struct virtio_blk_req_hdr hdr;            /* device-readable */
    struct blk_req *req;                      /* NULL: this head is not in flight */
    uint16_t desc[VIRTIO_BLK_REQ_DESCS];      /* the descriptors it holds */
    volatile uint8_t status;                  /* device-writable */
    bool held;                                /* done by the device, not yet due */
    uint64_t due;                             /* when the latency model lets it end */
};

struct blk_dev {
    /* set once by blk_init */
    uintptr_t regs;                  /* the slot's registers, through the direct map */
    paddr_t   base;
    uint32_t  irq;
    uint64_t  capacity;              /* sectors */
    bool      read_only;             /* VIRTIO_BLK_F_RO offered */
    uint16_t  qsize;
    struct virtq_desc  *desc;
    struct virtq_avail *avail;
    struct virtq_used  *used;
    /* under blk_lock */
    bool      ready;                 /* set by blk_init; cleared for good if the device fails */
    uint16_t  avail_idx;             /* our copy of avail->idx */
    uint16_t  last_used;             /* next used-ring entry to look at */
    uint16_t  free_desc[BLK_QUEUE_SIZE];   /* a stack of free descriptor numbers */
    uint16_t  nfree;
    uint16_t  nfree_waiters;      /* submitters asleep for a free chain */
    uint32_t  inflight, inflight_peak;
    uint32_t  nheld;                 /* chains the latency model holds back */
    uint32_t  latency_us;            /* disklat= or pdlat= */
    unsigned  id;                    /* BLK_DISK or BLK_PD */
    struct blk_arm arm;              /* the latency model (disklat=) */
    struct blk_chain chain[BLK_QUEUE_SIZE];
};

/* ------------------------------------------------------------------ */
/* registers                                                           */

static inline uint32_t reg_read(uintptr_t regs, uint32_t off)
{
    return *(volatile uint32_t *)(regs + off);
}

static inline void reg_write(uintptr_t regs, uint32_t off, uint32_t v)
{
    *(volatile uint32_t *)(regs + off) = v;
}

static inline void status_add(uintptr_t regs, uint32_t bits)
{
    reg_write(regs, VIRTIO_MMIO_STATUS, reg_read(regs, VIRTIO_MMIO_STATUS) | bits);
}

/* virtio_blk_setup.c. Returns NULL with the device live (its interrupts
 * going to isr(dk)), or why not; the device is then left marked FAILED. */
const char *vblk_device_setup(struct blk_dev *dk, const struct mmio_dev *d, irq_handler_fn isr);
bool vblk_device_reset(uintptr_t regs);
void vblk_print_ready(const struct blk_dev *dk);
const char *vblk_tag(const struct blk_dev *dk);   /* "disk" or "pd", for messages */
/* The usable block devices, in device-tree order, into found[]; how many
 * (at most `want`). *legacy: the first legacy one seen, if any. */
int  vblk_find_devices(const struct mmio_dev **found, int want, const struct mmio_dev **legacy);

#endif
