#ifndef FAULTLINE_KSYSCALL_H
#define FAULTLINE_KSYSCALL_H
#include "arch_api.h"
#include "meter.h"
#include "ulf.h"
#include <faultline/syscall.h>
#include <faultline/errno.h>

/* One entry of the system-call table (syscall.c): adapts the argument
 * registers, in order, to the typed kernel function. */
typedef long (*syscall_fn)(const uint64_t *a);
extern const syscall_fn syscall_table[SYS_COUNT];

/* Runs the system call described by tf and stores its result in tf.
 * Entered and left with interrupts off; they are on for the call itself.
 * Returns the cycle count when the handler returned (for the meters).
 * Inline, so that the trap paths pay no call for it. */
static inline uint64_t syscall_dispatch(struct trapframe *tf)
{
    uint64_t dispatched = meter_now();
    meter_record_irqs_off(FL_METER_SYSCALL_ENTRY, tf->entry_stamp, dispatched);
    arch_intr_on();
    uint64_t nr = tf_syscall_nr(tf);
    /* The arguments are read where trap entry saved them: no copy. A
     * thread whose calls go to an emulator has its light calls off, so
     * the usual call tests one field it has at hand to rule that out. */
    long rc;
    if (__builtin_expect(!tf->light, 0) && ulf_syscall_forwarded(tf))
        rc = ulf_syscall(tf);
    else
        rc = nr < SYS_COUNT && syscall_table[nr] ? syscall_table[nr](tf_args(tf)) : -ENOSYS;
    tf_set_return(tf, (uint64_t)rc);
    uint64_t done = meter_now();
    meter_record(FL_METER_SYSCALL_BODY, dispatched, done);
    arch_intr_off();
    return done;
}

/* Runs the call in tf through the table and returns its result, storing
 * nothing: for an emulator's FL_ULF_PASS (kernel/ulf). */
long syscall_call(struct trapframe *tf);
#endif
