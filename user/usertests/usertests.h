/*
 * What the files of usertests share: the machine facts the tests aim at,
 * sizes more than one file uses, the checks (checks.c), and the tests,
 * one function each, run in the order of main.c's table.
 */
#ifndef FAULTLINE_USERTESTS_H
#define FAULTLINE_USERTESTS_H

#include "ulib.h"
#include "testrun.h"

/* ---- machine facts the tests aim at ---- */
#define USER_TOP          0x4000000000UL          /* Sv39: user space is [0, 256 GiB) */
#define KERNEL_ADDR       0xffffffc080200000UL    /* kernel text, mapped but not for users */
#define PAGE_SIZE         4096UL
#define ACROSS_TOP_ADDR   (USER_TOP - PAGE_SIZE)  /* last user page ... */
#define ACROSS_TOP_LEN    (2 * PAGE_SIZE)         /* ... and the first page past it */
#define HUGE_LEN          (1UL << 62)             /* beyond any address space */
#define BOGUS_ID          1000000                 /* no process or thread has this id */

/* ---- sizes several files use ---- */
#define SLEEP_FOREVER_MS  1000000
#define SLEEP_MS          50
#define EXEC_FAILED       127
#define PROCINFO_MAX      128
#define MAX_DIR_ENTRIES   1024

/* The pid of usertests itself, which no child may have. */
extern int runner_pid;

/* checks.c */
const char *result_name(long r, char *buf, size_t size);
void  expect_either(const char *what, long got, long want1, long want2);
void  expect_exec_error(const char *what, const char *path, char *const argv[], long want);
void *kernel_ptr(void);
char *last_heap_page(void);
char *unterminated_string(void);
char *long_path(size_t len);
int   open_checked(const char *path, int flags);
long  read_file(const char *path, char *buf, size_t size);
void  write_all(int fd, const void *buf, size_t n, const char *what);
const char *bare(const char *name);

/* return_arg: a thread that returns its argument (threads.c).
 * spin_forever: loops in user mode until killed (signals.c). */
long return_arg(void *arg);
void spin_forever(void);

/* proc.c */
void getpidtest(void), forkexit(void), forkmany(void), waitnochild(void),
    execerrors(void), execargs(void), sleeptime(void), procinfotest(void),
    sysinfotest(void);
/* mem.c */
void sbrkgrow(void), sbrkshrink(void), sbrkhuge(void), mallocall(void),
    mallocmerge(void), mmapbasic(void), mmapfixed(void), munmappartial(void),
    mmaperrors(void), mmapfork(void);
/* zeropage.c */
void zeropage(void);
/* badargs.c */
void badreadwrite(void), badpath(void), badexec(void), badwait(void),
    badstructs(void), badfd(void), badsyscall(void);
/* signals.c */
void faults(void), killsleeper(void), killspinner(void);
/* threads.c */
void threadcount(void), threadjoin(void), threadexit(void), affinity(void);
/* files.c */
void initrdread(void), ramfile(void), initrdwrite(void), devnull(void),
    fstattypes(void), readdirlist(void), duptest(void), fdlimit(void),
    forkfd(void);

#endif
