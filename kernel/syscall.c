/*
 * System call dispatch: one table indexed by number. Each entry adapts the
 * raw argument registers to the typed kernel function, so the functions
 * themselves read like ordinary C.
 */
#include "syscall.h"
#include "sysproc.h"
#include "file.h"
#include "exec.h"
#include "ktime.h"
#include "meter.h"
#include "signal.h"
#include "vmstat.h"
#include "mm.h"
#include "pgrp.h"
#include "ulf.h"
#include <faultline/syscall.h>
#include <faultline/errno.h>

/* The null system call: the full trap path and dispatch, doing nothing.
 * (getpid is answered in the trap vector, so it measures less.) */
static long sys_nop(void)
{
    return 0;
}


#define ARGS0(f)  static long do_##f(const uint64_t *a) { (void)a; return f(); }
#define ARGS1(f)  static long do_##f(const uint64_t *a) { return f(a[0]); }
#define ARGS2(f)  static long do_##f(const uint64_t *a) { return f(a[0], a[1]); }
#define ARGS3(f)  static long do_##f(const uint64_t *a) { return f(a[0], a[1], a[2]); }
#define ARGS4(f)  static long do_##f(const uint64_t *a) { return f(a[0], a[1], a[2], a[3]); }

ARGS0(sys_getpid)     ARGS1(sys_exit)       ARGS0(sys_fork)      ARGS2(sys_exec)
ARGS1(sys_wait)       ARGS2(sys_kill)       ARGS1(sys_sbrk)      ARGS1(sys_sleep)
ARGS0(sys_uptime)     ARGS3(sys_read)       ARGS3(sys_write)     ARGS2(sys_open)
ARGS1(sys_close)      ARGS1(sys_dup)        ARGS2(sys_readdir)   ARGS2(sys_fstat)
ARGS4(sys_thread_create) ARGS1(sys_thread_exit) ARGS2(sys_thread_join) ARGS0(sys_gettid)
ARGS2(sys_set_affinity)  ARGS2(sys_procinfo)    ARGS1(sys_times)       ARGS1(sys_halt)
ARGS1(sys_sysinfo)    ARGS1(sys_unlink)     ARGS0(sys_yield)     ARGS3(sys_wait_pid)
ARGS0(sys_gethart)    ARGS3(sys_meter_read) ARGS0(sys_meter_reset) ARGS0(sys_nop)
ARGS3(sys_sigaction)  ARGS3(sys_sigprocmask) ARGS0(sys_sigreturn) ARGS2(sys_tkill)
ARGS1(sys_sigpending) ARGS4(sys_mmap)     ARGS2(sys_munmap)    ARGS1(sys_vmstat)
ARGS3(sys_vmctl)
ARGS2(sys_setpgid)    ARGS1(sys_getpgid)    ARGS0(sys_setsid)    ARGS1(sys_getsid)
ARGS2(sys_tcsetpgrp)  ARGS1(sys_tcgetpgrp)
ARGS1(sys_sigsuspend) ARGS2(sys_sigaltstack) ARGS3(sys_sigtimedwait)
#define ARGS5(f)  static long do_##f(const uint64_t *a) { return f(a[0], a[1], a[2], a[3], a[4]); }
ARGS5(sys_ulf_attach) ARGS1(sys_ulf_grant)  ARGS1(sys_ulf_recv)  ARGS4(sys_ulf_load)
ARGS3(sys_ulf_unload) ARGS3(sys_ulf_resume) ARGS3(sys_ulf_regs)  ARGS4(sys_ulf_reply_recv)

const syscall_fn syscall_table[SYS_COUNT] = {
    [SYS_getpid] = do_sys_getpid,   [SYS_exit] = do_sys_exit,
    [SYS_fork] = do_sys_fork,       [SYS_exec] = do_sys_exec,
    [SYS_wait] = do_sys_wait,       [SYS_kill] = do_sys_kill,
    [SYS_sbrk] = do_sys_sbrk,       [SYS_sleep] = do_sys_sleep,
    [SYS_uptime] = do_sys_uptime,   [SYS_read] = do_sys_read,
    [SYS_write] = do_sys_write,     [SYS_open] = do_sys_open,
    [SYS_close] = do_sys_close,     [SYS_dup] = do_sys_dup,
    [SYS_readdir] = do_sys_readdir, [SYS_fstat] = do_sys_fstat,
    [SYS_thread_create] = do_sys_thread_create, [SYS_thread_exit] = do_sys_thread_exit,
    [SYS_thread_join] = do_sys_thread_join,     [SYS_gettid] = do_sys_gettid,
    [SYS_set_affinity] = do_sys_set_affinity,   [SYS_procinfo] = do_sys_procinfo,
    [SYS_times] = do_sys_times,     [SYS_halt] = do_sys_halt,
    [SYS_sysinfo] = do_sys_sysinfo, [SYS_unlink] = do_sys_unlink,
    [SYS_yield] = do_sys_yield,     [SYS_wait_pid] = do_sys_wait_pid,
    [SYS_gethart] = do_sys_gethart,
    [SYS_meter_read] = do_sys_meter_read, [SYS_meter_reset] = do_sys_meter_reset,
    [SYS_nop] = do_sys_nop,         [SYS_vmstat] = do_sys_vmstat,
    [SYS_vmctl] = do_sys_vmctl,
    [SYS_setpgid] = do_sys_setpgid, [SYS_getpgid] = do_sys_getpgid,
    [SYS_setsid] = do_sys_setsid,   [SYS_getsid] = do_sys_getsid,
    [SYS_tcsetpgrp] = do_sys_tcsetpgrp, [SYS_tcgetpgrp] = do_sys_tcgetpgrp,
    [SYS_sigaction] = do_sys_sigaction, [SYS_sigprocmask] = do_sys_sigprocmask,
    [SYS_sigreturn] = do_sys_sigreturn, [SYS_tkill] = do_sys_tkill,
    [SYS_sigpending] = do_sys_sigpending,
    [SYS_sigsuspend] = do_sys_sigsuspend, [SYS_sigaltstack] = do_sys_sigaltstack,
    [SYS_sigtimedwait] = do_sys_sigtimedwait,
    [SYS_mmap] = do_sys_mmap,       [SYS_munmap] = do_sys_munmap,
    [SYS_ulf_attach] = do_sys_ulf_attach, [SYS_ulf_grant] = do_sys_ulf_grant,
    [SYS_ulf_recv] = do_sys_ulf_recv,     [SYS_ulf_load] = do_sys_ulf_load,
    [SYS_ulf_unload] = do_sys_ulf_unload, [SYS_ulf_resume] = do_sys_ulf_resume,
    [SYS_ulf_regs] = do_sys_ulf_regs,     [SYS_ulf_reply_recv] = do_sys_ulf_reply_recv,
};

long syscall_call(struct trapframe *tf)
{
    uint64_t nr = tf_syscall_nr(tf);
    return nr < SYS_COUNT && syscall_table[nr] ? syscall_table[nr](tf_args(tf)) : -ENOSYS;
}
