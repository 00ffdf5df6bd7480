/*
 * Every tunable number of the kernel lives here, with the reason for its
 * value. Board facts (memory, harts, devices) are not here: they come from
 * the device tree at boot.
 */
#ifndef FAULTLINE_CONFIG_H
#define FAULTLINE_CONFIG_H

#define FAULTLINE_VERSION   "0.1.0"

/* --- machine limits --- */
#define MAX_HARTS           8        /* QEMU virt supports up to 8 harts with a PLIC context each */
#define MAX_MEMORY_RANGES   4        /* /memory reg entries we honour */
#define MAX_RESERVED_RANGES 16       /* /reserved-memory + kernel + dtb + initrd */

/* --- pages --- */
#define PAGE_SHIFT          12
#define PAGE_SIZE           (1UL << PAGE_SHIFT)

/* --- kernel tables: fixed size so that "out of processes" is deterministic --- */
#define MAX_PROCS           64
#define MAX_THREADS         128
#define MAX_OPEN_FILES      16       /* per process */
#define MAX_FILES           128      /* open-file objects, system wide */
#define MAX_RAM_FILES       32       /* writable in-memory files */
#define RAM_FILE_MAX_PAGES  16       /* 64 KiB per writable file */

/* --- memory managers --- */
#define USER_FRAME_RESERVE  32       /* frames user pages may not take: page tables,
                                        kernel stacks and exec buffers need some even
                                        when user pages have filled memory */
#define RECLAIM_TRIES       8        /* victims one fault may try before giving up
                                        (each failure is a page whose owner was busy) */
#define RECLAIM_BUSY_WAITS  1000     /* times a fault yields, when every candidate's
                                        owner is busy, before it calls memory exhausted */
#define PC_LOW_WATER_DIV    32       /* page control's low water mark: 1/32 of the
                                        managed frames (and never below twice
                                        USER_FRAME_RESERVE) */
#define PC_HIGH_WATER_DIV   16       /* ... and its high mark, 1/16: a shortage is
                                        over when twice as many are free again */
#define PC_FREE_MIN_FRAMES  (USER_FRAME_RESERVE + 1)  /* freemin=/freemax= at least:
                                        above the frames user pages never get */
#define PC_FREE_MAX_FRAMES  65536    /* ... and at most (the boot also holds freemax
                                        to a quarter of managed memory) */
#define TRANSIT_HANDOFFS    16       /* pc=daemon: dirty pages the core manager hands
                                        the paging-device manager at once, whose
                                        writes all start before any is waited for */
#define STARVED_FRAME_RESERVE (USER_FRAME_RESERVE / 2)  /* frames a fault that waited
                                        that long for busy owners leaves free when it
                                        takes one from the reserve */
#define SWAP_MIN_SLOTS      64       /* a device smaller than this (256 KiB) is not
                                        worth swapping to: run without swap */
#define SWAP_MAX_SLOTS      (1U << 18) /* 1 GiB of page slots (8x the default memory): the
                                          bitmap is static, 32 KiB of kernel memory */
#define SWAP_DEAD_SLOTS     256      /* pc=daemon: slots of dead pages waiting for the
                                         PD manager to free them (1 KiB); more are freed
                                         at once by whoever unmaps them */
#define SWAP_IO_BATCH       16       /* page transfers in flight when a whole
                                        process moves (a queue's worth) */
#define SWAPPER_PERIOD_MS   10       /* the swapper looks again after this when it
                                        had nothing it could do (one tick) */
#define SWAP_MIN_IN_MS      100      /* a runnable process stays in at least this
                                        long before it may be pushed out ... */
#define SWAP_MIN_OUT_MS     50       /* ... and out this long before it comes back:
                                        V7 used seconds; ours is a smaller machine
                                        image moving over a fast disk */

/* --- stacks --- */
#define KSTACK_PAGES        4        /* 16 KiB kernel stack per thread */
#define KSTACK_SLOT_SHIFT   15       /* 32 KiB of address space per stack: the
                                        stack, then unmapped guard pages. A power
                                        of two, so sp names the thread (proc.h). */
#define BOOT_STACK_SIZE     (16 * 1024)  /* per hart; the scheduler loop runs on it */
#define USER_STACK_PAGES    16       /* 64 KiB initial user stack */

/* --- time --- */
#define IDLE_DISK_FLUSHES   256      /* local TLB flushes per idle turn while a modelled
                                        disk request is on the device (sched.c) */
#define SCHED_TICK_US       10000    /* 10 ms time slice, as in classic UNIX */

/* --- console --- */
#define CONSOLE_BUF_SIZE    4096     /* input ring: bytes typed (or pasted) ahead of the reader
                                        that the console holds. When it is full the console
                                        stops taking bytes from the UART, whose FIFO then fills
                                        and QEMU stops reading the host terminal: input waits
                                        there, nothing is dropped. Four lines of
                                        FL_CONSOLE_LINE_MAX; a power of two, so the
                                        free-running 32-bit indexes wrap cleanly */
#define CONSOLE_READ_CHUNK  256      /* bytes a read copies out per step (a kernel-stack buffer) */

/* --- device interrupts (kernel/dev/irq.c) --- */
#define IRQ_LINES           128      /* interrupt lines a handler may be registered for:
                                        QEMU virt's PLIC has 95 (riscv,ndev) */

/* --- boot --- */
#define BOOTARGS_MAX        256
#define MIN_USABLE_MEMORY   (2UL * 1024 * 1024)  /* mem= below this cannot hold the kernel's own tables */
#define BOOT_ERROR_MAX      256      /* one "bad boot parameter" line: the longest list of
                                        valid keys or choices fits with room to spare */

/* --- block device (kernel/dev/virtio_blk.c) --- */
#define BLK_QUEUE_SIZE      64       /* virtqueue entries wanted (fewer if the device offers
                                        fewer): 3 descriptors per request, so 21 requests
                                        can be on the device at once; a power of two, as
                                        split virtqueues require; the rings fit a page each */
#define VIRTIO_RESET_POLLS  1000     /* status reads while waiting for a device reset to end */
#define VIRTIO_CONFIG_TRIES 16       /* re-reads of device config that changed under us */
#define BLK_LATENCY_MAX_US  1000000  /* disklat= at most one second a request: ten
                                        times the slowest disk anyone modelled (a drum
                                        or a VAX-era disk is tens of ms) */
#define PD_MIN_SIZE         (256UL * 1024)       /* pd= at least 64 records: room for a
                                        batch of write-behind and the move's low mark */
#define PD_MAX_SIZE         (64UL * 1024 * 1024) /* ... and at most 16384 records: its
                                        record table (8 bytes each, 128 KiB) is taken
                                        from memory at boot, only with pd= */
#define PD_LOW_DIV          8        /* the PD manager moves the oldest records to the disk
                                        while fewer than 1/8 of the records are free ... */
#define PD_HIGH_DIV         4        /* ... until 1/4 are (a move is a read from the PD
                                        and a write to the disk: Multics' RWS) */
#define BLK_SELFTEST_PAGES  33       /* selftest=blk: pages spread over the disk; odd so the
                                        middle page is one of them, and more than the
                                        requests the queue holds, so submitters must wait */

/* --- exit codes seen by the host through the test device --- */
#define EXIT_CODE_BADPARAM  2        /* QEMU exit status: the command line was rejected */
#define EXIT_CODE_PANIC     3        /* QEMU exit status after a kernel panic */

#endif
