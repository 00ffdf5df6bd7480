/*
 * The block device under the memory managers: QEMU's virtio-blk on
 * virtio-mmio (kernel/dev/virtio_blk.c). There is at most one; it holds no
 * file system, only page slots (kernel/mm/swapspace.c).
 *
 * Requests are asynchronous: a caller submits any number and then waits
 * for each, so several can be in flight on the device at once (the page
 * daemon and the swapper rely on that). Completion comes by interrupt;
 * waiting callers sleep. Buffers are kernel addresses in the direct map
 * and must be physically contiguous (one frame, or frames in a row).
 */
#ifndef FAULTLINE_BLK_H
#define FAULTLINE_BLK_H

#include "types.h"

struct thread;

#define BLK_SECTOR_SIZE 512

struct blk_req {
    /* set by the caller */
    uint64_t sector;          /* first 512-byte sector */
    void    *buf;             /* direct-map address */
    uint32_t len;             /* bytes, a non-zero multiple of BLK_SECTOR_SIZE */
    bool     write;
    /* set by the driver */
    int      status;          /* 0, or -EIO (device error, or the device failed),
                                 -EINVAL (out of range, bad length or buffer),
                                 -EROFS (write to a read-only disk), -ENODEV (no disk) */
    bool     done;
    uint16_t slot;            /* driver's own: descriptor chain head */
    struct thread *waiter;    /* driver's own: the thread in blk_wait */
};

/* The devices: the disk, and with pd=SIZE (mm=paging pc=daemon) a
 * paging device, the second block device in the device tree, whose size
 * must be SIZE (docs/memory.md, "The paging device"). */
#define BLK_DISK     0
#define BLK_PD       1
#define BLK_MAX_DEVS 2

/* Boot: finds the first virtio-mmio block device in the device tree (and
 * with pd= the second), negotiates, and prints one line for each saying
 * what it found (or why there is none). Returns 0 if the disk is ready.
 * pd= without a usable paging device of its size stops the boot. */
int      blk_init(void);
bool     blk_present(void);
uint64_t blk_capacity(void);              /* sectors; 0 without a device */
bool     blk_dev_present(unsigned dev);
uint64_t blk_dev_capacity(unsigned dev);

/* Queues r; sleeps while the device queue is full. Returns 0, or -errno
 * for a request that is refused before it reaches the device (no device,
 * bad length, beyond the end); r->status is then set too. */
int  blk_submit(struct blk_req *r);
/* The same on device dev (BLK_DISK or BLK_PD). */
int  blk_submit_to(unsigned dev, struct blk_req *r);
/* Sleeps until r is done; returns r->status. */
int  blk_wait(struct blk_req *r);

/* True while the latency model (disklat=, pdlat=) has a request a device
 * has not finished yet: an idle hart then spins instead of waiting in
 * wfi, so that under -icount the virtual clock cannot jump past the
 * request's due time while QEMU does the I/O in host time (docs/memory.md,
 * "The disk's service time"). */
bool blk_model_busy(void);

/* Most requests that were on the disk at once since boot (for selftest=blk
 * and statistics). */
uint32_t blk_inflight_peak(void);

#endif
