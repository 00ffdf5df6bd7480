/* Process, thread and machine system calls (sysproc.c). */
#ifndef FAULTLINE_SYSPROC_H
#define FAULTLINE_SYSPROC_H
#include "types.h"
long sys_getpid(void);
long sys_exit(uint64_t status);
long sys_fork(void);
long sys_wait(uint64_t ustatus);
long sys_wait_pid(uint64_t pid, uint64_t ustatus, uint64_t flags);
long sys_kill(uint64_t pid, uint64_t sig);
long sys_sbrk(uint64_t increment);
long sys_mmap(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags);
long sys_munmap(uint64_t addr, uint64_t len);
long sys_uptime(void);
long sys_thread_create(uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1);
long sys_thread_exit(uint64_t value);
long sys_thread_join(uint64_t tid, uint64_t uvalue);
long sys_gettid(void);
long sys_set_affinity(uint64_t tid, uint64_t hart);
long sys_procinfo(uint64_t ubuf, uint64_t max);
long sys_times(uint64_t utimes);
long sys_halt(uint64_t code);
long sys_sysinfo(uint64_t uinfo);
long sys_yield(void);
long sys_gethart(void);
#endif
