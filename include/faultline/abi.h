/*
 * Structures and flags shared by the kernel and user programs.
 * Fixed-width fields only, so the layout is the same on every port.
 */
#ifndef FAULTLINE_ABI_H
#define FAULTLINE_ABI_H

#include <stdint.h>

/* open() flags */
#define O_RDONLY   0x000
#define O_WRONLY   0x001
#define O_RDWR     0x002
#define O_ACCMODE  0x003
#define O_CREAT    0x040
#define O_TRUNC    0x200
#define O_APPEND   0x400

/* wait_pid() flags */
#define WNOHANG    1

/* exit status encoding, as in UNIX: low 7 bits = killing signal, else code<<8 */
#define FL_WEXITSTATUS(s)  (((s) >> 8) & 0xff)
#define FL_WTERMSIG(s)     ((s) & 0x7f)
#define FL_WIFEXITED(s)    (FL_WTERMSIG(s) == 0)

/* Signal numbers (UNIX numbering). Until full signals land, kill() with any
 * valid signal terminates the target. */
#define SIGHUP      1
#define SIGINT      2
#define SIGQUIT     3
#define SIGILL      4
#define SIGTRAP     5
#define SIGABRT     6
#define SIGBUS      7
#define SIGFPE      8
#define SIGKILL     9
#define SIGUSR1    10
#define SIGSEGV    11
#define SIGUSR2    12
#define SIGPIPE    13
#define SIGALRM    14
#define SIGTERM    15
#define SIGCHLD    17
#define NSIG       32

#define FL_NAME_MAX   16   /* process name, including the NUL */
#define FL_PATH_MAX  128   /* path, including the NUL */
#define FL_ARG_MAX    32   /* argv entries for exec */

/* File types for fl_stat.type and fl_dirent.type */
#define FL_T_FILE    1     /* initrd (read-only) or ram file */
#define FL_T_DEV     2     /* console, null */
#define FL_T_DIR     3

struct fl_stat {
    uint32_t type;
    uint32_t flags;        /* FL_STAT_READONLY ... */
    uint64_t size;
};
#define FL_STAT_READONLY 1

struct fl_dirent {
    char     name[FL_PATH_MAX];
    uint32_t type;
    uint32_t flags;
    uint64_t size;
};

/* Process states as reported by procinfo (the state of its most active thread) */
#define FL_PS_RUNNABLE  1
#define FL_PS_RUNNING   2
#define FL_PS_SLEEPING  3
#define FL_PS_ZOMBIE    4

struct fl_procinfo {
    int32_t  pid;
    int32_t  ppid;
    int32_t  state;        /* FL_PS_* */
    int32_t  nthreads;
    int32_t  hart;         /* hart it runs on, or -1 */
    uint32_t pad;
    uint64_t mem_bytes;    /* resident user memory */
    uint64_t utime_us;     /* user time, all threads, microseconds */
    uint64_t stime_us;     /* system time, all threads, microseconds */
    char     name[FL_NAME_MAX];
};

/* times(): the calling process's own CPU times and those of reaped children */
struct fl_times {
    uint64_t utime_us;
    uint64_t stime_us;
    uint64_t cutime_us;
    uint64_t cstime_us;
    uint64_t uptime_us;    /* real time since boot */
};

struct fl_sysinfo {
    uint64_t frames_total;   /* frames the allocator manages */
    uint64_t frames_free;
    uint64_t page_size;
    uint32_t nharts;
    uint32_t nprocs;         /* live processes */
    uint64_t timebase_hz;
};

#endif
