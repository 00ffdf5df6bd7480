/*
 * System call stubs. The C calling convention already puts the arguments
 * in a0..a5, where the kernel wants them, so a stub only loads the number
 * into a7 and traps; the result (>= 0, or -errno) comes back in a0.
 * Each stub gets its own section so --gc-sections drops the unused ones.
 */
#include <faultline/syscall.h>

.macro SYSCALL name, number
    .section .text.\name, "ax", @progbits
    .globl \name
    .type \name, @function
\name:
    li    a7, \number
    ecall
    ret
    .size \name, . - \name
.endm

/* For calls that never return: if the kernel ever did return, fault at
 * once rather than run on into whatever the caller placed after the call. */
.macro SYSCALL_NORETURN name, number
    .section .text.\name, "ax", @progbits
    .globl \name
    .type \name, @function
\name:
    li    a7, \number
    ecall
    unimp
    .size \name, . - \name
.endm

SYSCALL          getpid,            SYS_getpid
SYSCALL_NORETURN exit,              SYS_exit
SYSCALL          fork,              SYS_fork
SYSCALL          exec,              SYS_exec
SYSCALL          wait,              SYS_wait
SYSCALL          kill,              SYS_kill
SYSCALL          sbrk,              SYS_sbrk
SYSCALL          sleep,             SYS_sleep
SYSCALL          uptime,            SYS_uptime
SYSCALL          read,              SYS_read
SYSCALL          write,             SYS_write
SYSCALL          open,              SYS_open
SYSCALL          close,             SYS_close
SYSCALL          dup,               SYS_dup
SYSCALL          readdir,           SYS_readdir
SYSCALL          fstat,             SYS_fstat
SYSCALL          sys_thread_create, SYS_thread_create
SYSCALL_NORETURN thread_exit,       SYS_thread_exit
SYSCALL          sys_thread_join,   SYS_thread_join
SYSCALL          gettid,            SYS_gettid
SYSCALL          set_affinity,      SYS_set_affinity
SYSCALL          procinfo,          SYS_procinfo
SYSCALL          times,             SYS_times
SYSCALL          halt,              SYS_halt
SYSCALL          sysinfo,           SYS_sysinfo
SYSCALL          unlink,            SYS_unlink
SYSCALL          yield,             SYS_yield
SYSCALL          wait_pid,          SYS_wait_pid
SYSCALL          gethart,           SYS_gethart
SYSCALL          sigaction,         SYS_sigaction
SYSCALL          sigprocmask,       SYS_sigprocmask
SYSCALL_NORETURN sigreturn,         SYS_sigreturn
SYSCALL          tkill,             SYS_tkill
SYSCALL          sigpending,        SYS_sigpending
SYSCALL          mmap,              SYS_mmap
SYSCALL          munmap,            SYS_munmap

/* long raw_syscall(long number, long a0, ..., long a5): shifts the
 * arguments down one register so any number can be tried. */
    .section .text.raw_syscall, "ax", @progbits
    .globl raw_syscall
    .type raw_syscall, @function
raw_syscall:
    mv    a7, a0
    mv    a0, a1
    mv    a1, a2
    mv    a2, a3
    mv    a3, a4
    mv    a4, a5
    mv    a5, a6
    ecall
    ret
    .size raw_syscall, . - raw_syscall
SYSCALL          meter_read,        SYS_meter_read
SYSCALL          meter_reset,       SYS_meter_reset
SYSCALL          nop,               SYS_nop
SYSCALL          vmstat,            SYS_vmstat
SYSCALL          vmctl,             SYS_vmctl
SYSCALL          sigsuspend,        SYS_sigsuspend
SYSCALL          sigaltstack,       SYS_sigaltstack
SYSCALL          sigtimedwait,      SYS_sigtimedwait
SYSCALL          setpgid,           SYS_setpgid
SYSCALL          getpgid,           SYS_getpgid
SYSCALL          setsid,            SYS_setsid
SYSCALL          getsid,            SYS_getsid
SYSCALL          tcsetpgrp,         SYS_tcsetpgrp
SYSCALL          tcgetpgrp,         SYS_tcgetpgrp
SYSCALL          ulf_attach,        SYS_ulf_attach
SYSCALL          ulf_grant,         SYS_ulf_grant
SYSCALL          ulf_recv,          SYS_ulf_recv
SYSCALL          ulf_load,          SYS_ulf_load
SYSCALL          ulf_unload,        SYS_ulf_unload
SYSCALL          ulf_resume,        SYS_ulf_resume
SYSCALL          ulf_regs,          SYS_ulf_regs
SYSCALL          ulf_reply_recv,    SYS_ulf_reply_recv
