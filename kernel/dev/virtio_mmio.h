/*
 * Device constants of the virtio 1.x MMIO transport (register layout
 * version 2), split virtqueues, and the virtio block device. Every number
 * here comes from the virtio 1.x specification; nothing is a tunable
 * (those live in kernel/include/config.h).
 *
 * All multi-byte fields are little-endian, as is riscv64, so the kernel
 * reads and writes them directly.
 */
#ifndef FAULTLINE_VIRTIO_MMIO_H
#define FAULTLINE_VIRTIO_MMIO_H

#include "types.h"

/* --- MMIO registers: byte offsets from the slot's base, all 32 bits wide --- */
#define VIRTIO_MMIO_MAGIC_VALUE         0x000   /* "virt" */
#define VIRTIO_MMIO_VERSION             0x004   /* 2 = modern, 1 = legacy */
#define VIRTIO_MMIO_DEVICE_ID           0x008   /* 0 = empty slot */
#define VIRTIO_MMIO_VENDOR_ID           0x00c
#define VIRTIO_MMIO_DEVICE_FEATURES     0x010   /* 32 feature bits, chosen by ..._SEL */
#define VIRTIO_MMIO_DEVICE_FEATURES_SEL 0x014
#define VIRTIO_MMIO_DRIVER_FEATURES     0x020
#define VIRTIO_MMIO_DRIVER_FEATURES_SEL 0x024
#define VIRTIO_MMIO_QUEUE_SEL           0x030
#define VIRTIO_MMIO_QUEUE_NUM_MAX       0x034   /* 0: the queue does not exist */
#define VIRTIO_MMIO_QUEUE_NUM           0x038
#define VIRTIO_MMIO_QUEUE_READY         0x044
#define VIRTIO_MMIO_QUEUE_NOTIFY        0x050   /* write the queue index */
#define VIRTIO_MMIO_INTERRUPT_STATUS    0x060
#define VIRTIO_MMIO_INTERRUPT_ACK       0x064
#define VIRTIO_MMIO_STATUS              0x070
#define VIRTIO_MMIO_QUEUE_DESC_LOW      0x080
#define VIRTIO_MMIO_QUEUE_DESC_HIGH     0x084
#define VIRTIO_MMIO_QUEUE_DRIVER_LOW    0x090   /* the available ring */
#define VIRTIO_MMIO_QUEUE_DRIVER_HIGH   0x094
#define VIRTIO_MMIO_QUEUE_DEVICE_LOW    0x0a0   /* the used ring */
#define VIRTIO_MMIO_QUEUE_DEVICE_HIGH   0x0a4
#define VIRTIO_MMIO_CONFIG_GENERATION   0x0fc
#define VIRTIO_MMIO_CONFIG              0x100   /* device-specific configuration */

#define VIRTIO_MMIO_MAGIC               0x74726976u  /* "virt", little-endian */
#define VIRTIO_MMIO_VERSION_LEGACY      1
#define VIRTIO_MMIO_VERSION_MODERN      2

/* Feature words are 32 bits; FEATURES_SEL picks the word. */
#define VIRTIO_FEATURE_WORD_BITS        32
#define VIRTIO_FEATURE_WORDS            2       /* bits 0..63: all we look at */

/* --- device status bits (VIRTIO_MMIO_STATUS) --- */
#define VIRTIO_STATUS_RESET             0x00
#define VIRTIO_STATUS_ACKNOWLEDGE       0x01    /* we saw the device */
#define VIRTIO_STATUS_DRIVER            0x02    /* we know how to drive it */
#define VIRTIO_STATUS_DRIVER_OK         0x04    /* ready: the device may use the queues */
#define VIRTIO_STATUS_FEATURES_OK       0x08    /* feature negotiation done */
#define VIRTIO_STATUS_DEVICE_NEEDS_RESET 0x40   /* the device gave up */
#define VIRTIO_STATUS_FAILED            0x80    /* we gave up */

/* --- interrupt status bits --- */
#define VIRTIO_INT_USED_BUFFER          0x1     /* a queue's used ring advanced */
#define VIRTIO_INT_CONFIG_CHANGE        0x2     /* configuration (or status) changed */

/* --- device ids --- */
#define VIRTIO_DEVICE_ID_NONE           0
#define VIRTIO_DEVICE_ID_BLOCK          2

/* --- feature bits (bit numbers in the 64-bit feature set) --- */
#define VIRTIO_BLK_F_SIZE_MAX           1
#define VIRTIO_BLK_F_SEG_MAX            2
#define VIRTIO_BLK_F_GEOMETRY           4
#define VIRTIO_BLK_F_RO                 5       /* writes are refused */
#define VIRTIO_BLK_F_BLK_SIZE           6
#define VIRTIO_BLK_F_FLUSH              9
#define VIRTIO_F_INDIRECT_DESC          28
#define VIRTIO_F_EVENT_IDX              29
#define VIRTIO_F_VERSION_1              32      /* the modern interface: required */
#define VIRTIO_F_ACCESS_PLATFORM        33
#define VIRTIO_F_RING_PACKED            34

#define VIRTIO_FEATURE(bit)             ((uint64_t)1 << (bit))

/* --- split virtqueue layout --- */
#define VIRTQ_DESC_F_NEXT               0x1     /* chain continues at .next */
#define VIRTQ_DESC_F_WRITE              0x2     /* device writes this buffer */
#define VIRTQ_DESC_F_INDIRECT           0x4

#define VIRTQ_AVAIL_F_NO_INTERRUPT      0x1
#define VIRTQ_USED_F_NO_NOTIFY          0x1

#define VIRTQ_MAX_SIZE                  32768   /* queue sizes are at most 2^15 */
#define VIRTQ_DESC_ALIGN                16      /* required alignments (virtio 1.x, 2.7) */
#define VIRTQ_AVAIL_ALIGN               2
#define VIRTQ_USED_ALIGN                4

struct virtq_desc {
    uint64_t addr;       /* physical address */
    uint32_t len;
    uint16_t flags;      /* VIRTQ_DESC_F_* */
    uint16_t next;
};

struct virtq_avail {
    uint16_t flags;
    uint16_t idx;        /* where the driver puts the next entry (free-running) */
    uint16_t ring[];     /* chain heads; then a used_event word we do not use */
};

struct virtq_used_elem {
    uint32_t id;         /* head of the completed chain */
    uint32_t len;        /* bytes the device wrote */
};

struct virtq_used {
    uint16_t flags;
    uint16_t idx;        /* where the device puts the next entry (free-running) */
    struct virtq_used_elem ring[];  /* then an avail_event word we do not use */
};

/* Bytes of each ring for a queue of n entries (the trailing event word included). */
#define VIRTQ_DESC_BYTES(n)   (sizeof(struct virtq_desc) * (n))
#define VIRTQ_AVAIL_BYTES(n)  (sizeof(struct virtq_avail) + sizeof(uint16_t) * ((n) + 1))
#define VIRTQ_USED_BYTES(n)   (sizeof(struct virtq_used) + sizeof(struct virtq_used_elem) * (n) \
                               + sizeof(uint16_t))

/* --- virtio-blk --- */
#define VIRTIO_BLK_CONFIG_CAPACITY      0x00    /* le64, in 512-byte sectors */
#define VIRTIO_BLK_CONFIG_CAPACITY_HI   0x04

#define VIRTIO_BLK_T_IN                 0       /* read */
#define VIRTIO_BLK_T_OUT                1       /* write */

#define VIRTIO_BLK_S_OK                 0
#define VIRTIO_BLK_S_IOERR              1
#define VIRTIO_BLK_S_UNSUPP             2

/* The header every request starts with (device-readable). */
struct virtio_blk_req_hdr {
    uint32_t type;       /* VIRTIO_BLK_T_* */
    uint32_t reserved;
    uint64_t sector;
};

#define VIRTIO_BLK_REQ_DESCS            3       /* header, data, status byte */

#endif
