/*
 * System call numbers: the ABI shared by the kernel and user programs.
 *
 * Calling convention (RISC-V): number in a7, arguments in a0..a5, result in
 * a0. A negative result is -errno (see errno.h); user stubs return it as is.
 * Numbers are stable once assigned: append, never renumber.
 */
#ifndef FAULTLINE_SYSCALL_H
#define FAULTLINE_SYSCALL_H

#define SYS_getpid          1   /* () -> pid */
#define SYS_exit            2   /* (int status) -> does not return */
#define SYS_fork            3   /* () -> child pid in parent, 0 in child */
#define SYS_exec            4   /* (const char *path, char *const argv[]) */
#define SYS_wait            5   /* (int *status or NULL) -> pid of reaped child */
#define SYS_kill            6   /* (int pid, int sig) -> 0 */
#define SYS_sbrk            7   /* (long increment) -> previous break */
#define SYS_sleep           8   /* (unsigned long ms) -> 0 */
#define SYS_uptime          9   /* () -> milliseconds since boot */
#define SYS_read           10   /* (int fd, void *buf, unsigned long n) -> bytes */
#define SYS_write          11   /* (int fd, const void *buf, unsigned long n) */
#define SYS_open           12   /* (const char *path, int flags) -> fd */
#define SYS_close          13   /* (int fd) -> 0 */
#define SYS_dup            14   /* (int fd) -> lowest free fd */
#define SYS_readdir        15   /* (unsigned long index, struct fl_dirent *) -> 1, 0 at end */
#define SYS_fstat          16   /* (int fd, struct fl_stat *) -> 0 */
#define SYS_thread_create  17   /* (void *pc, void *sp, long a0, long a1) -> tid */
#define SYS_thread_exit    18   /* (long value) -> does not return */
#define SYS_thread_join    19   /* (int tid, long *value or NULL) -> 0 */
#define SYS_gettid         20   /* () -> tid */
#define SYS_set_affinity   21   /* (int tid or 0 for self, int hart or -1) -> 0 */
#define SYS_procinfo       22   /* (struct fl_procinfo *buf, unsigned long max) -> count */
#define SYS_times          23   /* (struct fl_times *) -> 0 */
#define SYS_halt           24   /* (int code) -> powers the machine off */
#define SYS_sysinfo        25   /* (struct fl_sysinfo *) -> 0 */
#define SYS_unlink         26   /* (const char *path) -> 0 */
#define SYS_yield          27   /* () -> 0 */
#define SYS_wait_pid       28   /* (int pid or -1, int *status, int flags) -> pid */
#define SYS_gethart        29   /* () -> logical hart number (0..nharts-1) the caller runs on */
#define SYS_sigaction      30   /* (int sig, const struct fl_sigaction *act or NULL, struct fl_sigaction *old or NULL) */
#define SYS_sigprocmask    31   /* (int how, const uint64_t *set or NULL, uint64_t *old or NULL): the calling thread's mask */
#define SYS_sigreturn      32   /* () -> restores the context saved in the signal frame at sp */
#define SYS_tkill          33   /* (int tid, int sig): a signal to one thread of the caller's process */
#define SYS_sigpending     34   /* (uint64_t *set) -> pending for the thread or its process */
#define SYS_mmap           35   /* (void *addr or NULL, unsigned long len, int prot, int flags) -> address */
#define SYS_munmap         36   /* (void *addr, unsigned long len) -> 0 */
#define SYS_meter_read     37   /* (int hart or -1 for all, struct fl_meter *buf, unsigned long max) -> events */
#define SYS_meter_reset    38   /* () -> 0: clears every hart's meters */
#define SYS_nop            39   /* () -> 0 through the full trap path: the null system call */

#define SYS_vmstat         40   /* (struct fl_vmstat *buf) -> 0: memory-manager counters */
#define SYS_vmctl          41   /* (int op, void *addr, unsigned long len) -> pages acted on: FL_VMCTL_* */
/* Process groups, sessions and the console's foreground group (pgrp.c). */
#define SYS_setpgid        42   /* (int pid or 0 for self, int pgid or 0 for pid) -> 0 */
#define SYS_getpgid        43   /* (int pid or 0 for self) -> process group id */
#define SYS_setsid         44   /* () -> new session id (= pid); the caller leaves the console's session */
#define SYS_getsid         45   /* (int pid or 0 for self) -> session id */
#define SYS_tcsetpgrp      46   /* (int fd on the console, int pgid) -> 0: the console's foreground group */
#define SYS_tcgetpgrp      47   /* (int fd on the console) -> foreground group id, 0 if none */
/* More signals (signal.c, sigwait.c). */
#define SYS_sigsuspend     48   /* (const uint64_t *mask) -> -EINTR once a handler has run; pause() uses it */
#define SYS_sigaltstack    49   /* (const struct fl_stack *ss or NULL, struct fl_stack *old or NULL) -> 0 */
#define SYS_sigtimedwait   50   /* (const uint64_t *set, struct fl_siginfo *info or NULL,
                                    const struct fl_timespec *timeout or NULL) -> signal, -EAGAIN, -EINTR */
/* User-level fault handlers and trap forwarding (docs/ulf.md). */
#define SYS_ulf_attach     51   /* (int pid, void *addr, unsigned long len, int prot, int flags) -> addr or 0 */
#define SYS_ulf_grant      52   /* (unsigned long frames) -> address of the granted frames in the caller */
#define SYS_ulf_recv       53   /* (struct fl_ulf_msg *msg) -> 0: the next fault or trap of a managed thread */
#define SYS_ulf_load       54   /* (int pid, void *va, void *frame, int prot) -> 0: map the caller's frame there */
#define SYS_ulf_unload     55   /* (int pid, void *va, unsigned long len) -> pages unloaded */
#define SYS_ulf_resume     56   /* (int tid, int how, long value) -> 0: FL_ULF_RETRY, _SIGNAL, _KILL, _RETURN, _PASS */
#define SYS_ulf_regs       57   /* (int tid, struct fl_ulf_regs *regs, int write) -> 0 */
#define SYS_ulf_reply_recv 58   /* (int tid, int how, long value, struct fl_ulf_msg *msg) -> 0: resume, then recv */
#define SYS_COUNT          59   /* one past the highest number */

#endif
