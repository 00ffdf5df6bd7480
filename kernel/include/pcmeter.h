/*
 * Page-control meters (kernel/mm/pcmeter.c): CPU time per page fault by
 * who spends it, as the Multics paper's Tables III and IV split it (docs/
 * measurement.md, "Page control per fault"). Cycles of the one clock
 * (meter_now), summed system wide since boot, read through vmstat.
 *
 *   fault handler   a user page fault from trap entry to exit, less the
 *                   time it spent switched out or in interrupts
 *   core manager    what the coremgr thread ran (pc=daemon)
 *   PD manager      what the pdmgr thread ran (pc=daemon)
 *   disk interrupts the block device's interrupt handler
 *   getwork         a hart's scheduler from a thread's switch-out to the
 *                   next switch-in, less its idle turns (a turn of the loop
 *                   that found nothing to run, wfi and the interrupts it
 *                   took included), by why the
 *                   thread left: awaiting core, the disk, the core
 *                   manager or PD manager going to sleep, pre-emption
 *                   (or a yield), anything else
 */
#ifndef FAULTLINE_PCMETER_H
#define FAULTLINE_PCMETER_H

#include "types.h"

struct cpu;
struct thread;

enum pcm_who { PCM_FAULT, PCM_COREMGR, PCM_PDMGR, PCM_DISKIRQ, PCM_RWS, PCM_NWHO };

enum pcm_switch {
    PCM_SW_OTHER,      /* 0: a thread that said nothing (a sleep of any other kind) */
    PCM_SW_CORE_WAIT,  /* a fault awaiting core (pc=daemon wait_room) */
    PCM_SW_DISK,       /* waiting for the block device (blk_wait) */
    PCM_SW_COREMGR,    /* the core manager, nothing to do or waiting for the PD manager */
    PCM_SW_PDMGR,      /* the PD manager, nothing to do */
    PCM_SW_PREEMPT,    /* still runnable: pre-empted by the timer, or yielded */
    PCM_NSW
};

struct pcmeter_totals {
    uint64_t cycles[PCM_NWHO];
    uint64_t events[PCM_NWHO];    /* faults, manager wake-ups, disk interrupts */
    uint64_t switches[PCM_NSW];
    uint64_t switch_cycles[PCM_NSW];
    uint64_t fault_delay;         /* faults entry to exit, their waits included */
    uint64_t idle;                /* idle turns of every hart's scheduler */
};

extern struct pcmeter_totals pcmeter;
/* pcmeters=on (off by default): the probes below cost every context
 * switch and every fault some instructions, which the latency budgets of
 * the fast paths are not set on. The tools that read them boot with it. */
extern bool pcmeters_enabled;

static inline void pcmeter_add(enum pcm_who w, uint64_t cycles)
{
    __atomic_fetch_add(&pcmeter.cycles[w], cycles, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pcmeter.events[w], 1, __ATOMIC_RELAXED);
}

/* A user page fault took `elapsed` cycles from entry to exit, `away` of
 * them switched out or in interrupts. */
static inline void pcmeter_fault(uint64_t elapsed, uint64_t away)
{
    pcmeter_add(PCM_FAULT, elapsed - away);
    __atomic_fetch_add(&pcmeter.fault_delay, elapsed, __ATOMIC_RELAXED);
}

/* The current thread's reason for its next switch-out (sched.c reads and
 * clears it). */
void pcmeter_switch_reason(enum pcm_switch why);
/* A manager thread starts and stops running its loop: what it ran in
 * between (less its time switched out) is added to w. */
void pcmeter_thread_start(enum pcm_who w);
void pcmeter_thread_stop(enum pcm_who w);

/* The scheduler's side (sched.c): a thread leaves the hart, an idle turn
 * ends, a thread is about to be switched in. The switch-out and switch-in
 * halves are inline in pcmeter_switch.h; this is the end of a turn of the
 * loop that found nothing to run: idle since the last switch-out or idle
 * turn. */
void pcmeter_idle_turn(struct cpu *c);

#endif
