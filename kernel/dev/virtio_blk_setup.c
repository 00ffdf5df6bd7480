/*
 * virtio-blk at boot: finding the block devices in the device tree and
 * bringing each up (virtio 1.x, 3.1.1: reset, features, queue, interrupt).
 * Requests and completion are in virtio_blk.c.
 */
#include "virtio_blk_dev.h"
#include "frame.h"
#include "ktime.h"
#include "param.h"
#include "printk.h"
#include <arch/arch.h>
#include <faultline/errno.h>

#define MIB                 (1024UL * 1024UL)
#define KIB                 1024UL

static uint64_t features_read(uintptr_t regs)
{
    uint64_t f = 0;
    for (uint32_t w = 0; w < VIRTIO_FEATURE_WORDS; w++) {
        reg_write(regs, VIRTIO_MMIO_DEVICE_FEATURES_SEL, w);
        f |= (uint64_t)reg_read(regs, VIRTIO_MMIO_DEVICE_FEATURES) << (w * VIRTIO_FEATURE_WORD_BITS);
    }
    return f;
}

static void features_write(uintptr_t regs, uint64_t f)
{
    for (uint32_t w = 0; w < VIRTIO_FEATURE_WORDS; w++) {
        reg_write(regs, VIRTIO_MMIO_DRIVER_FEATURES_SEL, w);
        reg_write(regs, VIRTIO_MMIO_DRIVER_FEATURES, (uint32_t)(f >> (w * VIRTIO_FEATURE_WORD_BITS)));
    }
}

/* ------------------------------------------------------------------ */
/* probing: which slot holds a usable block device                     */

enum slot_kind { SLOT_UNUSABLE, SLOT_OTHER, SLOT_LEGACY_BLOCK, SLOT_BLOCK };

/* A slot we can safely read: described in full, inside the low physical
 * range that the direct map covers (everything below the top of RAM). */
static bool slot_mappable(const struct mmio_dev *d)
{
    uint64_t ram_top = board.nmemory ? board.memory[0].base + board.memory[0].size : 0;
    return d->present && d->size >= VIRTIO_MMIO_CONFIG + sizeof(uint64_t) &&
           d->base + d->size > d->base && d->base + d->size <= ram_top;
}

static enum slot_kind probe_slot(const struct mmio_dev *d)
{
    if (!slot_mappable(d))
        return SLOT_UNUSABLE;
    uintptr_t regs = PA_TO_KVA(d->base);
    if (reg_read(regs, VIRTIO_MMIO_MAGIC_VALUE) != VIRTIO_MMIO_MAGIC)
        return SLOT_UNUSABLE;
    if (reg_read(regs, VIRTIO_MMIO_DEVICE_ID) != VIRTIO_DEVICE_ID_BLOCK)
        return SLOT_OTHER;
    switch (reg_read(regs, VIRTIO_MMIO_VERSION)) {
    case VIRTIO_MMIO_VERSION_MODERN: return SLOT_BLOCK;
    case VIRTIO_MMIO_VERSION_LEGACY: return SLOT_LEGACY_BLOCK;
    default:                         return SLOT_UNUSABLE;
    }
}

/* ------------------------------------------------------------------ */
/* bringing one device up (virtio 1.x, 3.1.1)                           */

bool vblk_device_reset(uintptr_t regs)
{
    reg_write(regs, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_RESET);
    for (int i = 0; i < VIRTIO_RESET_POLLS; i++)
        if (reg_read(regs, VIRTIO_MMIO_STATUS) == VIRTIO_STATUS_RESET)
            return true;
    return false;
}

/* Configuration space may change while we read it; the generation counter
 * tells us, and the capacity's two halves must come from one generation. */
static bool read_capacity(uintptr_t regs, uint64_t *out)
{
    uintptr_t cfg = regs + VIRTIO_MMIO_CONFIG;
    for (int i = 0; i < VIRTIO_CONFIG_TRIES; i++) {
        uint32_t gen = reg_read(regs, VIRTIO_MMIO_CONFIG_GENERATION);
        uint32_t lo = reg_read(cfg, VIRTIO_BLK_CONFIG_CAPACITY);
        uint32_t hi = reg_read(cfg, VIRTIO_BLK_CONFIG_CAPACITY_HI);
        if (reg_read(regs, VIRTIO_MMIO_CONFIG_GENERATION) == gen) {
            *out = (uint64_t)hi << VIRTIO_FEATURE_WORD_BITS | lo;
            return true;
        }
    }
    return false;
}

/* Largest power of two <= n (split virtqueue sizes are powers of two). */
static uint16_t pow2_floor(uint32_t n)
{
    uint32_t p = 1;
    while (p * 2 <= n)
        p *= 2;
    return (uint16_t)p;
}

static void rings_free(struct blk_dev *dk)
{
    void *rings[] = { dk->desc, dk->avail, dk->used };
    for (size_t i = 0; i < ARRAY_SIZE(rings); i++)
        if (rings[i])
            frame_free(KVA_TO_PA(rings[i]));
    dk->desc = NULL;
    dk->avail = NULL;
    dk->used = NULL;
}

static bool rings_alloc(struct blk_dev *dk)
{
    paddr_t d = frame_alloc_zeroed(FRAME_KERNEL);
    paddr_t a = frame_alloc_zeroed(FRAME_KERNEL);
    paddr_t u = frame_alloc_zeroed(FRAME_KERNEL);
    dk->desc = d ? (struct virtq_desc *)PA_TO_KVA(d) : NULL;
    dk->avail = a ? (struct virtq_avail *)PA_TO_KVA(a) : NULL;
    dk->used = u ? (struct virtq_used *)PA_TO_KVA(u) : NULL;
    if (d && a && u)
        return true;
    rings_free(dk);
    return false;
}

static void reg_write_addr(uintptr_t regs, uint32_t low_off, uint32_t high_off, const void *kva)
{
    paddr_t pa = KVA_TO_PA(kva);
    reg_write(regs, low_off, (uint32_t)pa);
    reg_write(regs, high_off, (uint32_t)(pa >> VIRTIO_FEATURE_WORD_BITS));
}

/* Returns NULL, or why the queue cannot be set up. */
static const char *queue_setup(struct blk_dev *dk, uintptr_t regs)
{
    reg_write(regs, VIRTIO_MMIO_QUEUE_SEL, QUEUE_INDEX);
    if (reg_read(regs, VIRTIO_MMIO_QUEUE_READY))
        return "its queue is already in use";
    uint32_t max = reg_read(regs, VIRTIO_MMIO_QUEUE_NUM_MAX);
    if (max < VIRTIO_BLK_REQ_DESCS)
        return "its queue is missing or too small";
    dk->qsize = pow2_floor(MIN(max, (uint32_t)BLK_QUEUE_SIZE));
    if (!rings_alloc(dk))
        return "out of memory for the rings";
    reg_write(regs, VIRTIO_MMIO_QUEUE_NUM, dk->qsize);
    reg_write_addr(regs, VIRTIO_MMIO_QUEUE_DESC_LOW, VIRTIO_MMIO_QUEUE_DESC_HIGH, dk->desc);
    reg_write_addr(regs, VIRTIO_MMIO_QUEUE_DRIVER_LOW, VIRTIO_MMIO_QUEUE_DRIVER_HIGH, dk->avail);
    reg_write_addr(regs, VIRTIO_MMIO_QUEUE_DEVICE_LOW, VIRTIO_MMIO_QUEUE_DEVICE_HIGH, dk->used);
    reg_write(regs, VIRTIO_MMIO_QUEUE_READY, 1);

    /* Every descriptor is free; whole chains are only VIRTIO_BLK_REQ_DESCS
     * of them, so a queue whose size is not a multiple wastes the rest. */
    dk->nfree = 0;
    for (uint16_t i = dk->qsize; i-- > 0;)
        dk->free_desc[dk->nfree++] = i;
    return NULL;
}

/* Feature negotiation: VIRTIO_F_VERSION_1 is required; VIRTIO_BLK_F_RO is
 * taken when offered (we honour it by refusing writes); nothing else. */
static const char *negotiate(struct blk_dev *dk, uintptr_t regs)
{
    uint64_t offered = features_read(regs);
    if (!(offered & VIRTIO_FEATURE(VIRTIO_F_VERSION_1)))
        return "it does not offer VIRTIO_F_VERSION_1";
    uint64_t wanted = VIRTIO_FEATURE(VIRTIO_F_VERSION_1) | (offered & VIRTIO_FEATURE(VIRTIO_BLK_F_RO));
    features_write(regs, wanted);
    status_add(regs, VIRTIO_STATUS_FEATURES_OK);
    if (!(reg_read(regs, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_FEATURES_OK))
        return "it did not accept our features";
    dk->read_only = (wanted & VIRTIO_FEATURE(VIRTIO_BLK_F_RO)) != 0;
    return NULL;
}

/* Where this device's interrupts go: the boot hart, like the UART's, so
 * other harts (and their -icount measurements) never see them. */
static const char *route_interrupt(struct blk_dev *dk, const struct mmio_dev *d,
                                   irq_handler_fn isr)
{
    switch (irq_register(d->irq, isr, dk)) {
    case 0:       return NULL;
    case -ENODEV: return "no interrupt controller context for the boot hart";
    case -EBUSY:  return "its interrupt line is taken by another device";
    default:      return "it has no usable interrupt line";
    }
}

const char *vblk_device_setup(struct blk_dev *dk, const struct mmio_dev *d, irq_handler_fn isr)
{
    uintptr_t regs = PA_TO_KVA(d->base);
    if (!vblk_device_reset(regs))
        return "it does not reset";
    status_add(regs, VIRTIO_STATUS_ACKNOWLEDGE);
    status_add(regs, VIRTIO_STATUS_DRIVER);
    const char *why = negotiate(dk, regs);
    if (!why && !read_capacity(regs, &dk->capacity))
        why = "its configuration never settles";
    if (!why)
        why = queue_setup(dk, regs);
    if (!why)
        why = route_interrupt(dk, d, isr);
    if (!why) {
        status_add(regs, VIRTIO_STATUS_DRIVER_OK);
        if (reg_read(regs, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_DEVICE_NEEDS_RESET)
            why = "it needs a reset";
    }
    if (why) {
        /* The reset makes the device forget our rings before we free them. */
        vblk_device_reset(regs);
        status_add(regs, VIRTIO_STATUS_FAILED);
        rings_free(dk);
        return why;
    }
    dk->regs = regs;
    dk->base = d->base;
    dk->irq = d->irq;
    dk->latency_us = dk->id == BLK_PD ? params.pdlat_us : params.disklat_us;
    blk_arm_init(&dk->arm, time_from_us(dk->latency_us));
    return NULL;
}

static const char *const dev_tag[BLK_MAX_DEVS] = { "disk", "pd" };

const char *vblk_tag(const struct blk_dev *dk)
{
    return dev_tag[dk->id];
}

/* Sizes from sector counts by division, so no capacity the device claims
 * can overflow the arithmetic. */
void vblk_print_ready(const struct blk_dev *dk)
{
    unsigned dev = dk->id;
    uint64_t per_mib = MIB / BLK_SECTOR_SIZE, per_kib = KIB / BLK_SECTOR_SIZE;
    bool whole_mib = dk->capacity % per_mib == 0;
    kprintf("faultline: %s: virtio-blk at 0x%lx irq %u, %lu sectors (%lu %s)%s\n", dev_tag[dev],
            (uint64_t)dk->base, dk->irq, dk->capacity,
            whole_mib ? dk->capacity / per_mib : dk->capacity / per_kib,
            whole_mib ? "MiB" : "KiB", dk->read_only ? ", read-only" : "");
    if (dk->latency_us)
        kprintf("faultline: %s: the %s takes %u us a request, one at a time\n",
                dev == BLK_PD ? "pdlat" : "disklat", dev == BLK_PD ? "paging device" : "disk",
                dk->latency_us);
}

int vblk_find_devices(const struct mmio_dev **found, int want, const struct mmio_dev **legacy)
{
    int n = 0;
    *legacy = NULL;
    for (int i = 0; i < board.nvirtio && n < want; i++) {
        const struct mmio_dev *d = &board.virtio[i];
        enum slot_kind kind = probe_slot(d);
        if (kind == SLOT_LEGACY_BLOCK && !*legacy)
            *legacy = d;
        if (kind == SLOT_BLOCK)
            found[n++] = d;
    }
    return n;
}

