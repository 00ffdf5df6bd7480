/* Process, thread and machine system calls. */
#include "sysproc.h"
#include "proc.h"
#include "aspace.h"
#include "frame.h"
#include "ktime.h"
#include "counters.h"
#include "usercopy.h"
#include "kstring.h"
#include "printk.h"
#include "board.h"
#include <faultline/abi.h>
#include <faultline/errno.h>

#define EXIT_CODE_MASK   0xff
#define EXIT_CODE_SHIFT  8

long sys_getpid(void) { return current_proc()->pid; }
long sys_gettid(void) { return current_thread()->tid; }
long sys_gethart(void) { return this_cpu()->id; }
long sys_fork(void) { return proc_fork(); }
long sys_uptime(void) { return (long)(time_now_us() / 1000); }

long sys_exit(uint64_t status)
{
    proc_exit((int)((status & EXIT_CODE_MASK) << EXIT_CODE_SHIFT));
}

long sys_wait(uint64_t ustatus) { return proc_wait(-1, ustatus, 0); }

long sys_wait_pid(uint64_t pid, uint64_t ustatus, uint64_t flags)
{
    if (flags & ~(uint64_t)WNOHANG)
        return -EINVAL;
    return proc_wait((int)pid, ustatus, (int)flags);
}

long sys_kill(uint64_t pid, uint64_t sig) { return proc_kill((int)pid, (int)sig); }

long sys_sbrk(uint64_t increment) { return aspace_sbrk(current_proc()->as, (long)increment); }

/* The ABI's protection bits, translated one by one: the kernel's page
 * rights happen to share the values today, but nothing ties them. */
static const struct { unsigned user, kernel; } prot_bits[] = {
    { FL_PROT_READ, PROT_R }, { FL_PROT_WRITE, PROT_W }, { FL_PROT_EXEC, PROT_X },
};
#define MMAP_KNOWN_FLAGS (FL_MAP_ANON | FL_MAP_FIXED)

long sys_mmap(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags)
{
    unsigned uprot = (unsigned)prot, kprot = 0, known = 0;
    for (size_t i = 0; i < ARRAY_SIZE(prot_bits); i++) {
        known |= prot_bits[i].user;
        if (uprot & prot_bits[i].user)
            kprot |= prot_bits[i].kernel;
    }
    if ((prot & ~(uint64_t)known) || (flags & ~(uint64_t)MMAP_KNOWN_FLAGS) || !(flags & FL_MAP_ANON))
        return -EINVAL;
    /* A write-only page table entry is reserved in Sv39: writable means readable. */
    if (kprot & PROT_W)
        kprot |= PROT_R;
    return aspace_mmap_anon(current_proc()->as, addr, len, kprot, flags & FL_MAP_FIXED);
}

long sys_munmap(uint64_t addr, uint64_t len) { return aspace_munmap(current_proc()->as, addr, len); }

long sys_thread_create(uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1)
{
    return thread_create_user(pc, sp, a0, a1);
}

long sys_thread_exit(uint64_t value) { thread_exit((long)value); }

long sys_thread_join(uint64_t tid, uint64_t uvalue)
{
    if (uvalue && !user_range_ok(uvalue, sizeof(long)))
        return -EFAULT;
    long v;
    long rc = thread_join((int)tid, &v);
    if (rc == 0 && uvalue && copy_to_user(uvalue, &v, sizeof v))
        return -EFAULT;
    return rc;
}

long sys_set_affinity(uint64_t tid, uint64_t hart)
{
    int h = (int)hart;
    if (h < -1 || h >= (int)ncpus)
        return -EINVAL;
    struct thread *self = current_thread();
    struct thread *t = tid == 0 ? self : thread_by_tid((int)tid);
    if (!t || t->proc != self->proc)
        return -ESRCH;
    t->affinity = h;
    if (t == self && h >= 0 && (int)this_cpu()->id != h)
        yield();                 /* the scheduler will only place us on h */
    return 0;
}

static int ps_state(struct proc *p, int *hart, uint64_t *ut, uint64_t *st)
{
    int state = FL_PS_SLEEPING;
    *hart = -1;
    *ut = p->dead_utime;
    *st = p->dead_stime;
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        if (t->proc != p || t->state == T_UNUSED || t->state == T_ZOMBIE || t->state == T_DEAD)
            continue;
        *ut += t->utime;
        *st += t->stime;
        if (t->state == T_RUNNING) {
            state = FL_PS_RUNNING;
            *hart = t->cpu;
        } else if (t->state == T_RUNNABLE && state != FL_PS_RUNNING) {
            state = FL_PS_RUNNABLE;
        }
    }
    return p->state == P_ZOMBIE ? FL_PS_ZOMBIE : state;
}

long sys_procinfo(uint64_t ubuf, uint64_t max)
{
    if (!user_range_ok(ubuf, max * sizeof(struct fl_procinfo)) || max > MAX_PROCS * 4)
        return -EFAULT;
    uint64_t n = 0;
    for (int i = 0; i < MAX_PROCS && n < max; i++) {
        struct proc *p = &procs[i];
        struct fl_procinfo info = { 0 };
        spin_lock(&wait_lock);
        spin_lock(&p->lock);
        bool live = p->state != P_UNUSED;
        if (live) {
            info.pid = p->pid;
            info.ppid = p->parent ? p->parent->pid : 0;
            info.nthreads = p->nthreads;
            uint64_t ut, st;
            info.state = ps_state(p, &info.hart, &ut, &st);
            info.utime_us = time_to_us(ut);
            info.stime_us = time_to_us(st);
            info.mem_bytes = p->as ? p->as->resident * PAGE_SIZE : 0;
            kstrlcpy(info.name, p->name, sizeof info.name);
        }
        spin_unlock(&p->lock);
        spin_unlock(&wait_lock);
        if (!live)
            continue;
        if (copy_to_user(ubuf + n * sizeof info, &info, sizeof info))
            return -EFAULT;
        n++;
    }
    return (long)n;
}

long sys_times(uint64_t utimes)
{
    struct proc *p = current_proc();
    struct fl_times tm = { 0 };
    int hart;
    uint64_t ut, st;
    spin_lock(&p->lock);
    ps_state(p, &hart, &ut, &st);
    tm.utime_us = time_to_us(ut);
    tm.stime_us = time_to_us(st);
    tm.cutime_us = time_to_us(p->child_utime);
    tm.cstime_us = time_to_us(p->child_stime);
    spin_unlock(&p->lock);
    tm.uptime_us = time_now_us();
    return copy_to_user(utimes, &tm, sizeof tm) ? -EFAULT : 0;
}

long sys_sysinfo(uint64_t uinfo)
{
    struct fl_sysinfo si = {
        .frames_total = frames_total_count(),
        .frames_free = frames_free_count(),
        .page_size = PAGE_SIZE,
        .nharts = ncpus,
        .nprocs = (uint32_t)proc_count(),
        .timebase_hz = board.timebase_hz,
        .counters = counters.icount ? FL_COUNTERS_ICOUNT : FL_COUNTERS_HOST,
        .icount_shift = counters.shift,
    };
    return copy_to_user(uinfo, &si, sizeof si) ? -EFAULT : 0;
}

long sys_halt(uint64_t code)
{
    kprintf("faultline: halting\n");
    arch_poweroff((int)(code & EXIT_CODE_MASK));
}

long sys_yield(void)
{
    yield();
    return 0;
}
