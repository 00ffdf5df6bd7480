/*
 * The scheduler tick (SCHED_TICK_US on every hart) and sleeping.
 * Arch time units are those of arch_read_time(), at the device tree's
 * timebase-frequency (10 MHz on QEMU virt).
 */
#include "ktime.h"
#include "cpu.h"
#include "proc.h"
#include "signal.h"
#include "board.h"
#include "counters.h"
#include "printk.h"
#include <faultline/errno.h>

#define US_PER_SEC 1000000UL
#define MS_PER_SEC 1000UL

static uint64_t timebase;
static uint64_t tick_units;
static uint64_t boot_time;
static struct spinlock sleep_lock = SPINLOCK_INIT("sleep", LOCK_RANK_SLEEP);
static int sleepers;

void time_init(uint64_t timebase_hz)
{
    timebase = timebase_hz;
    tick_units = timebase_hz * SCHED_TICK_US / US_PER_SEC;
    boot_time = arch_read_time();
}

struct counter_kind counters;

void counters_init(void)
{
    counters.icount = arch_counters_probe(&counters.shift);
    if (counters.icount)
        kprintf("faultline: counters: instructions (icount, shift=%u)\n", counters.shift);
    else
        kprintf("faultline: counters: host-timed cycles (no icount)\n");
}

uint64_t time_to_us(uint64_t units)
{
    /* Split to avoid overflow for long uptimes. */
    return units / timebase * US_PER_SEC + units % timebase * US_PER_SEC / timebase;
}

/* From the board, not time_init's copy: drivers set up before the clock
 * (the disk's latency model) convert with it. */
uint64_t time_from_us(uint64_t us)
{
    uint64_t hz = board.timebase_hz;
    return us / US_PER_SEC * hz + us % US_PER_SEC * hz / US_PER_SEC;
}

uint64_t time_now_us(void)
{
    return time_to_us(arch_read_time() - boot_time);
}

/*
 * Ticks fall on a grid, every tick_units, with hart k's shifted by k/ncpus
 * of a tick: the harts' ticks are spread over the period, never on top
 * of each other. Where they fell against each other used to be an
 * accident of what had run since boot, and when two coincided, a thread
 * woken by one hart's tick (sleepers are woken by hart 0's) found the
 * other hart in its tick, with its thread switched out for a moment: a
 * signal to that thread then waited for it to be switched back in instead
 * of interrupting it (lat's signal_cross delivery doubled after an
 * unrelated change at thread creation).
 */
static uint64_t next_deadline(const struct cpu *c, uint64_t now)
{
    uint64_t offset = tick_units * c->id / ncpus;
    uint64_t from = now > offset ? now - offset : 0;
    return (from / tick_units + 1) * tick_units + offset;
}

void timer_start_hart(struct cpu *c)
{
    c->next_tick = next_deadline(c, arch_read_time());
    arch_timer_program(c->next_tick);
}

/*
 * The boot hart's alarm: one deadline between ticks, for the block
 * device's latency model (kernel/dev/blk_latency.c), whose held-back
 * completions are due at times no tick falls on. Only the boot hart takes
 * device interrupts, so only it sets the alarm (in interrupt context) and
 * only its timer fires it: no lock, interrupts are off throughout.
 */
static uint64_t alarm_at = UINT64_MAX;
static time_alarm_fn alarm_fn;

static void timer_reprogram(struct cpu *c)
{
    uint64_t at = c->next_tick;
    if (c->id == 0 && alarm_at < at)
        at = alarm_at;
    arch_timer_program(at);
}

void time_alarm_set(uint64_t deadline, time_alarm_fn fn)
{
    struct cpu *c = this_cpu();
    if (c->id != 0)
        panic("time_alarm_set on hart %u: only the boot hart has the alarm", c->id);
    alarm_fn = fn;
    if (deadline < alarm_at) {
        alarm_at = deadline;
        timer_reprogram(c);
    }
}

bool timer_interrupt(void)
{
    struct cpu *c = this_cpu();
    uint64_t now = arch_read_time();
    bool tick = now >= c->next_tick;
    /* The next deadline after now, not after the last one: after a long
     * stop (GDB, host load) we must not replay every missed tick. */
    if (tick)
        c->next_tick = next_deadline(c, now);
    if (c->id == 0 && now >= alarm_at) {
        alarm_at = UINT64_MAX;
        alarm_fn(now);           /* may set the next alarm */
    }
    timer_reprogram(c);
    if (tick && c->id == 0 && __atomic_load_n(&sleepers, __ATOMIC_RELAXED)) {
        spin_lock(&sleep_lock);
        wakeup(&sleepers);
        spin_unlock(&sleep_lock);
    }
    return tick;
}

/* Sleeps ms milliseconds (to the next tick after). A process's thread
 * wakes early with -EINTR if the process is killed or a signal arrives; a kernel thread never. */
long sleep_ms(uint64_t ms)
{
    uint64_t start = arch_read_time();
    uint64_t units = ms * (timebase / MS_PER_SEC);
    struct proc *p = current_proc();
    long rc = 0;
    spin_lock(&sleep_lock);
    sleepers++;
    while (arch_read_time() - start < units) {
        if (p && thread_interrupted()) {
            rc = -EINTR;
            break;
        }
        sleep_on_intr(&sleepers, &sleep_lock);
    }
    sleepers--;
    spin_unlock(&sleep_lock);
    return rc;
}

#define NS_PER_US 1000UL

uint64_t time_deadline(uint64_t sec, uint64_t nsec)
{
    /* Past the end of time: never (a wait that long is a wait forever). */
    uint64_t max_sec = (UINT64_MAX - arch_read_time()) / timebase - 1;
    if (sec >= max_sec)
        return UINT64_MAX;
    return arch_read_time() + sec * timebase + nsec / NS_PER_US * timebase / US_PER_SEC;
}

bool time_reached(uint64_t deadline)
{
    return arch_read_time() >= deadline;
}

void *time_tick_waiters(int delta)
{
    spin_lock(&sleep_lock);
    sleepers += delta;
    spin_unlock(&sleep_lock);
    return &sleepers;
}

long sys_sleep(uint64_t ms)
{
    return sleep_ms(ms);
}
