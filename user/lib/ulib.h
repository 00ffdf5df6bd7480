/*
 * ulib: the small C library of faultline user programs.
 *
 * System calls return what the kernel returns: a value >= 0 on success or
 * -errno (see <faultline/errno.h>) on failure. There is no global errno;
 * pass the negative result to strerror() or print_err() as it is.
 */
#ifndef ULIB_H
#define ULIB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <faultline/abi.h>
#include <faultline/errno.h>
#include <faultline/syscall.h>

#define STDIN_FILENO   0
#define STDOUT_FILENO  1
#define STDERR_FILENO  2

#define ARRAY_SIZE(a)  (sizeof(a) / sizeof((a)[0]))

/* ---- system calls (lib/syscall.S), one stub per SYS_* number ---- */
int   getpid(void);
_Noreturn void exit(int status);
int   fork(void);
int   exec(const char *path, char *const argv[]);
int   wait(int *status);
int   kill(int pid, int sig);
void *sbrk(long increment);           /* previous break, or an error: see ptr_error() */
int   sleep(unsigned long ms);        /* milliseconds, not seconds */
long  uptime(void);                   /* milliseconds since boot */
long  read(int fd, void *buf, size_t n);
long  write(int fd, const void *buf, size_t n);
int   open(const char *path, int flags);
int   close(int fd);
int   dup(int fd);
int   readdir(unsigned long index, struct fl_dirent *entry);  /* 1, or 0 past the end */
int   fstat(int fd, struct fl_stat *st);
/* Raw thread creation: the new thread has no return address, so use
 * thread_create() below unless you provide your own entry code. */
int   sys_thread_create(void *pc, void *sp, long a0, long a1);
_Noreturn void thread_exit(long value);
int   sys_thread_join(int tid, long *value);
int   gettid(void);
int   set_affinity(int tid, int hart);  /* tid 0 = caller; hart -1 = any */
int   procinfo(struct fl_procinfo *buf, unsigned long max);  /* entries filled */
int   procinfo_snapshot(struct fl_procinfo **out);           /* malloc'd table; count or -errno */
int   times(struct fl_times *t);
int   halt(int code);                   /* returns only on failure */
int   sysinfo(struct fl_sysinfo *info);
int   unlink(const char *path);
int   yield(void);
int   wait_pid(int pid, int *status, int flags);
int   gethart(void);
int   sigaction(int sig, const struct fl_sigaction *act, struct fl_sigaction *old);
int   sigprocmask(int how, const uint64_t *set, uint64_t *old);   /* the calling thread's mask */
int   sigpending(uint64_t *set);
int   tkill(int tid, int sig);
/* Anonymous memory, zero until written (FL_MAP_ANON required). Returns the
 * address, or an error: see ptr_error(). */
void *mmap(void *addr, size_t len, int prot, int flags);
int   munmap(void *addr, size_t len);
/* Only valid in a handler whose sp is back at its frame: use the trampoline. */
_Noreturn void sigreturn(void);
long  meter_read(int hart, struct fl_meter *buf, unsigned long max);  /* hart -1: all */
int   meter_reset(void);
int   nop(void);                      /* the null system call (full trap path) */
/* The memory manager's counters; -ENOSYS on a kernel without the call. */
int   vmstat(struct fl_vmstat *st);
long  vmctl(int op, void *addr, unsigned long len);   /* FL_VMCTL_* */
/* Process groups and sessions; the console's foreground group. kill() of
 * -pgid signals a group, of 0 the caller's own group. */
int   setpgid(int pid, int pgid);     /* pid 0 = caller, pgid 0 = pid */
int   getpgid(int pid);               /* pid 0 = caller */
int   setsid(void);
int   getsid(int pid);
int   tcsetpgrp(int fd, int pgid);    /* fd on the console */
int   tcgetpgrp(int fd);              /* 0 if no foreground group */
/* Waiting for signals (see include/faultline/syscall.h). sigsuspend
 * returns -EINTR once a handler has run, with the old mask back;
 * sigtimedwait returns the signal it took, -EAGAIN on timeout, -EINTR if
 * a handled signal came first (timeout NULL: wait for ever). */
int   sigsuspend(const uint64_t *mask);
int   sigaltstack(const struct fl_stack *ss, struct fl_stack *old);
int   sigtimedwait(const uint64_t *set, struct fl_siginfo *info, const struct fl_timespec *timeout);
/* User-level fault handlers and trap forwarding (docs/ulf.md). */
long  ulf_attach(int pid, void *addr, unsigned long len, int prot, int flags);
void *ulf_grant(unsigned long frames);          /* the frames' address, or -errno (ptr_error) */
int   ulf_recv(struct fl_ulf_msg *msg);
int   ulf_load(int pid, void *va, void *frame, int prot);
long  ulf_unload(int pid, void *va, unsigned long len);
int   ulf_resume(int tid, int how, long value);
int   ulf_regs(int tid, struct fl_ulf_regs *regs, int write);
/* ulf_resume, then ulf_recv into msg, in one call. */
int   ulf_reply_recv(int tid, int how, long value, struct fl_ulf_msg *msg);
/* fork() whose child waits (lib/ulfhold.c) until the parent, having
 * attached to it, calls ulf_release(pid); -errno if the fork failed. */
int   ulf_fork_held(void);
int   ulf_release(int pid);

/* Any system call by number, for tests that pass what no prototype allows. */
long  raw_syscall(long number, long a0, long a1, long a2, long a3, long a4, long a5);

/* User addresses never reach the top 4 KiB of the address range, so a
 * pointer-returning call (sbrk, mmap) encodes -errno as the pointer value. */
#define MAX_ERRNO 4095
static inline long ptr_error(const void *p)
{
    long v = (long)(uintptr_t)p;
    return (v < 0 && v >= -MAX_ERRNO) ? v : 0;
}

/* exec() of a bare command name: "sh" runs "/sh"; a name with a '/' is a path. */
int   exec_command(const char *name, char *const argv[]);

/* ---- signals (lib/signal.c, lib/sigtramp.S) ---- */
/* A handler gets the signal, the faulting address (or 0) and the frame
 * the kernel saved; changes to frame->regs take effect on return. */
typedef void (*sighandler_t)(int sig, uint64_t addr, struct fl_sigframe *frame);
/* Where handlers return: issues SYS_sigreturn with sp at the frame. */
void __sigreturn_trampoline(void);
/* Installs handler (or SIG_DFL / SIG_IGN cast to sighandler_t) for sig,
 * with no extra mask or flags; returns 0 or -errno. */
int   signal(int sig, sighandler_t handler);
#define SIG_DFL_HANDLER  ((sighandler_t)(uintptr_t)SIG_DFL)
#define SIG_IGN_HANDLER  ((sighandler_t)(uintptr_t)SIG_IGN)
/* An FL_SA_SIGINFO handler: the signal, where it came from, and the
 * frame (the "ucontext": regs and mask, as for any handler). */
typedef void (*siginfo_handler_t)(int sig, struct fl_siginfo *info, struct fl_sigframe *frame);
/* Installs an FL_SA_SIGINFO handler with extra flags (FL_SA_ONSTACK ...)
 * and mask; returns 0 or -errno. */
int   sigaction_info(int sig, siginfo_handler_t handler, uint64_t mask, uint32_t flags);
/* Waits until a signal is delivered to a handler: sigsuspend with the
 * mask as it is. Returns -EINTR. */
int   pause(void);

/* ---- threads (lib/thread.c) ---- */
typedef long (*thread_fn)(void *arg);
#define THREAD_STACK_SIZE (16 * 1024)
/* Starts fn(arg) on a fresh malloc'ed stack; the thread ends with
 * thread_exit(fn's return value). Returns the tid or -errno. */
int   thread_create(thread_fn fn, void *arg);
/* Waits for tid, stores its value, and frees the stack thread_create made. */
int   thread_join(int tid, long *value);

/* A lock for threads of one process. It yields instead of spinning hard:
 * the holder may be waiting for this very hart. */
struct ulock { int locked; };
#define ULOCK_INIT { 0 }
static inline void ulock_acquire(struct ulock *l)
{
    while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
        yield();
}
static inline void ulock_release(struct ulock *l)
{
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/* ---- counters: readable from user mode ---- */
/* The "memory" clobber keeps the compiler from moving loads and stores
 * across a reading, which would blur what a pair of readings measures. */
static inline uint64_t rdcycle(void)
{
    uint64_t v;
    __asm__ volatile("rdcycle %0" : "=r"(v) : : "memory");
    return v;
}
static inline uint64_t rdinstret(void)
{
    uint64_t v;
    __asm__ volatile("rdinstret %0" : "=r"(v) : : "memory");
    return v;
}
static inline uint64_t rdtime(void)
{
    uint64_t v;
    __asm__ volatile("rdtime %0" : "=r"(v) : : "memory");
    return v;
}

/* A system call with no arguments made inline, for benchmarks: a sample is
 * the trap round trip plus one `li`, with no call and return around it.
 * The clobbers are those of an ordinary call: the ABI promises only a0 as
 * the result, not which other registers survive. */
static inline __attribute__((always_inline)) long syscall_inline0(long nr)
{
    register long a0 __asm__("a0");
    register long a7 __asm__("a7") = nr;
    __asm__ volatile("ecall"
                     : "=r"(a0), "+r"(a7)
                     :
                     : "memory", "ra", "a1", "a2", "a3", "a4", "a5", "a6",
                       "t0", "t1", "t2", "t3", "t4", "t5", "t6");
    return a0;
}

/* ---- strings and memory (lib/string.c) ---- */
void  *memset(void *dst, int c, size_t n);
void  *memcpy(void *restrict dst, const void *restrict src, size_t n);
void  *memmove(void *dst, const void *src, size_t n);
int    memcmp(const void *a, const void *b, size_t n);
void  *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int    strcmp(const char *a, const char *b);
int    strncmp(const char *a, const char *b, size_t n);
char  *strcpy(char *restrict dst, const char *restrict src);
size_t strlcpy(char *restrict dst, const char *restrict src, size_t size);
char  *strcat(char *restrict dst, const char *restrict src);
char  *strchr(const char *s, int c);
char  *strrchr(const char *s, int c);

static inline bool isdigit(int c) { return c >= '0' && c <= '9'; }
static inline bool isspace(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
static inline bool isalpha(int c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
static inline int  toupper(int c) { return (c >= 'a' && c <= 'z') ? c - 'a' + 'A' : c; }

/* ---- numbers (lib/strtol.c) ---- */
/* base 0 picks 8, 10 or 16 from the prefix; results saturate at the type's limits */
long          strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
int           atoi(const char *s);

/* ---- formatted output (lib/printf.c) ----
 * Conversions: %d %i %u %x %X %p %s %c %%, with l/ll/z/h/hh sizes,
 * flags '-' '0' '#' '+' ' ', a width and a precision (digits or '*').
 * Each call reaches the fd in as few write()s as possible (one, for lines
 * up to 256 bytes), so lines from concurrent threads do not interleave. */
int printf(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));
int fprintf(int fd, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));
int vfprintf(int fd, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(__printf__, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int puts(const char *s);                 /* s and a newline to stdout */
int putchar(int c);

/* Reads one line from fd (without the newline) into buf, NUL-terminated.
 * Returns the line's length, -1 at end of input, or -errno. A line longer
 * than size-1 bytes is cut there and the rest of it is consumed and
 * dropped; the result is still the full length, so the caller can tell. */
long read_line(int fd, char *buf, size_t size);

/* ---- login sessions (lib/login.c): the users that `who` counts ---- */
#define LOGIN_FILE      "utmp"   /* ram file: one line "SID NAME" per login */
#define LOGIN_NAME_MAX  16       /* a login name, including the NUL */
/* Makes the caller the leader of a new session (setsid: it must not lead
 * a process group, so call it in a fresh child of fork, not in a shell's
 * job) and records NAME (no blanks, at most LOGIN_NAME_MAX-1 bytes) as
 * its login. Returns the session id or -errno. The program `login NAME
 * CMD` does this for shell scripts. */
int login_session(const char *name);

/* ---- errors (lib/strerror.c) ---- */
const char *strerror(int err);             /* takes err or -err */
void print_err(const char *what, long err);  /* "what: message" on stderr */
_Noreturn void die(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));

/* ---- heap (lib/malloc.c): first fit over an address-ordered free list ---- */
void *malloc(size_t n);
void  free(void *p);
void *calloc(size_t count, size_t size);
void *realloc(void *p, size_t n);

#endif
