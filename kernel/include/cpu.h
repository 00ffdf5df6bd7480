/* Per-hart state. tp points at the running hart's struct cpu in the kernel. */
#ifndef FAULTLINE_CPU_H
#define FAULTLINE_CPU_H

#include "types.h"
#include "config.h"
#include "arch_api.h"
#include "lockrank.h"

struct thread;
struct spinlock;
struct meter_row;

struct cpu {
    uint32_t id;              /* logical number 0..ncpus-1 (what users see as "hart") */
    uint32_t hartid;          /* the hardware hart id (mhartid) */
    struct thread *current;   /* thread running on this hart, NULL in the scheduler */
    struct context scheduler; /* the scheduler loop's saved registers */
    int      irq_off_depth;   /* nesting of irq_save() */
    bool     irq_were_on;     /* interrupt state before the outermost irq_save() */
    bool     online;
    bool     idle;            /* in wfi, waiting for work: wake it with an IPI */
    uint64_t active_root;     /* page table the MMU uses now (avoid needless switches) */
    uint64_t next_tick;       /* next timer deadline (arch time units) */
    volatile uint32_t ipi_pending; /* IPI_* request bits */
    /* TLB shootdown tickets (tlb_flush_ask): asked is bumped by each
     * requester, done is the ticket the last flush started from; waiters
     * sleep for it (tlb_flush_wait). */
    uint64_t tlb_flush_asked, tlb_flush_done;
    uint32_t tlb_flush_waiters;
    struct meter_row *meters; /* this hart's meter records (meter.h), one per event */
    /* A thread woken here to run next (wakeup_thread_next): the next pick
     * tries it before it scans the thread table. Only this hart's. */
    struct thread *handoff;
    struct arch_cpu arch;     /* the port's own per-hart state (<arch/arch.h>) */
    /* Page-control meters of the scheduler (pcmeter.h): when the last
     * thread left, why, and the cycles idle since. */
    uint64_t pcm_out_at, pcm_idle, pcm_turn_at;
    uint8_t  pcm_why;
#ifdef FL_DEBUG
    /* Spinlocks this hart holds, in the order taken (kernel/lock/lockrank.c).
     * Last, so that the fields before keep their offsets in both builds. */
    const struct spinlock *lockrank_held[LOCKRANK_MAX_HELD];
    int lockrank_nheld;
#endif
};

#define IPI_RESCHEDULE  0x1   /* a thread became runnable: look again */
#define IPI_TLB_FLUSH   0x2   /* flush this hart's TLB (shootdown): see tlb_flush_ask */

extern struct cpu cpus[MAX_HARTS];
extern uint32_t ncpus;

static inline struct cpu *this_cpu(void) { return (struct cpu *)arch_cpu_self(); }

/* Interrupt disabling that nests: spinlocks use it. */
void irq_save(void);
void irq_restore(void);

#endif
