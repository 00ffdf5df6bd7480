/* Time: the scheduler tick and conversions of arch time units. */
#ifndef FAULTLINE_KTIME_H
#define FAULTLINE_KTIME_H
#include "types.h"
struct cpu;
void time_init(uint64_t timebase_hz);
void timer_start_hart(struct cpu *c);
/* From the trap handler; true if this was a tick (the time slice ends),
 * false if only the alarm fired. */
bool timer_interrupt(void);
/* The boot hart's alarm (its only user: the block latency model). Called
 * on the boot hart with interrupts off: fn(now) runs there, from the timer
 * interrupt, at the first interrupt at or after the earliest deadline set
 * since it last ran. */
typedef void (*time_alarm_fn)(uint64_t now);
void time_alarm_set(uint64_t deadline, time_alarm_fn fn);
uint64_t time_to_us(uint64_t units);
uint64_t time_from_us(uint64_t us);
uint64_t time_now_us(void);
long sleep_ms(uint64_t ms);
/* For waits with a deadline in arch time units (sigtimedwait): the
 * deadline sec s and nsec ns from now (UINT64_MAX if beyond reach), and
 * whether it has passed. time_tick_waiters(+1) counts a waiter in and
 * returns the channel hart 0's tick wakes on every tick;
 * time_tick_waiters(-1) counts it out. A waiter re-checks its deadline
 * each time it is woken. */
uint64_t time_deadline(uint64_t sec, uint64_t nsec);
bool time_reached(uint64_t deadline);
void *time_tick_waiters(int delta);
long sys_sleep(uint64_t ms);
#endif
