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

/* mmap() protection: any combination; write implies read (RISC-V has no
 * write-only pages). FL_ prefixed so they cannot clash with the kernel's
 * own page-table rights. */
#define FL_PROT_NONE   0x0
#define FL_PROT_READ   0x1
#define FL_PROT_WRITE  0x2
#define FL_PROT_EXEC   0x4

/* mmap() flags. FL_MAP_ANON is required: there are no file mappings. With
 * FL_MAP_FIXED the mapping goes exactly at addr (page aligned, and it may
 * not overlap anything mapped); without it addr is ignored. */
#define FL_MAP_FIXED   0x10
#define FL_MAP_ANON    0x20

/* wait_pid() flags */
#define WNOHANG    1

/* exit status encoding, as in UNIX: low 7 bits = killing signal, else code<<8 */
#define FL_WEXITSTATUS(s)  (((s) >> 8) & 0xff)
#define FL_WTERMSIG(s)     ((s) & 0x7f)
#define FL_WIFEXITED(s)    (FL_WTERMSIG(s) == 0)

/* Signal numbers (UNIX numbering). A signal mask is a uint64_t with bit
 * (1 << sig) per signal. */
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

#define FL_SIGMASK(sig)  ((uint64_t)1 << (sig))

/* sigaction() handlers that are not addresses */
#define SIG_DFL     0      /* default: terminate, or ignore for SIGCHLD */
#define SIG_IGN     1      /* discard the signal */

/* fl_sigaction.flags */
#define FL_SA_NODEFER    0x1   /* do not block the signal while its handler runs */
#define FL_SA_RESETHAND  0x2   /* back to SIG_DFL once the handler is entered */
#define FL_SA_SIGINFO    0x4   /* handler(int sig, struct fl_siginfo *info, struct fl_sigframe *uc) */
#define FL_SA_ONSTACK    0x8   /* run the handler on the alternate stack (sigaltstack) */

struct fl_sigaction {
    uint64_t handler;      /* SIG_DFL, SIG_IGN or void (*)(int sig, uint64_t addr, struct fl_sigframe *);
                              with FL_SA_SIGINFO, void (*)(int sig, struct fl_siginfo *, struct fl_sigframe *) */
    uint64_t restorer;     /* code the handler returns to; must issue SYS_sigreturn */
    uint64_t mask;         /* blocked, in addition, while the handler runs */
    uint32_t flags;        /* FL_SA_* */
    uint32_t pad;
};

/* sigprocmask() how */
#define SIG_BLOCK    0     /* blocked |= set */
#define SIG_UNBLOCK  1     /* blocked &= ~set */
#define SIG_SETMASK  2     /* blocked = set */

/*
 * What the kernel pushes on the user stack before entering a handler. The
 * handler starts with sp = the frame's address (16-byte aligned) and a2
 * pointing at it; it returns (ra = restorer) with sp back at the frame,
 * and sigreturn reads the frame there. A handler may change regs[] (for
 * instance step regs[FL_REG_PC] past a faulting instruction): sigreturn
 * resumes with exactly what the frame then holds.
 */
#define FL_SIGFRAME_MAGIC  0x5349474652414d45ULL   /* "SIGFRAME" */
#define FL_NREGS           32   /* regs[0] = pc, regs[n] = register xn for n = 1..31 */
#define FL_REG_PC          0
#define FL_REG_RA          1
#define FL_REG_SP          2
#define FL_REG_A0          10
#define FL_REG_A1          11
#define FL_REG_A7          17   /* the system-call number */

struct fl_sigframe {
    uint64_t magic;             /* FL_SIGFRAME_MAGIC: sigreturn refuses anything else */
    uint64_t regs[FL_NREGS];    /* the interrupted user context */
    uint64_t sig;               /* the signal being handled */
    uint64_t addr;              /* faulting address (stval) for a fault signal, else 0 */
    uint64_t blocked;           /* the thread's mask before the handler, restored by sigreturn */
};
_Static_assert(sizeof(struct fl_sigframe) % 16 == 0, "signal frames keep sp 16-byte aligned");

/*
 * What an FL_SA_SIGINFO handler gets in a1: where the signal came from.
 * The kernel writes it on the handler's stack right above the signal
 * frame (at frame + sizeof(struct fl_sigframe)), so the handler's stack
 * from sp upwards is: struct fl_sigframe (a2, the "ucontext": the
 * interrupted registers and mask, as for any handler), then struct
 * fl_siginfo (a1), then the interrupted stack. sigreturn reads only the
 * frame. sigtimedwait fills the same structure.
 */
struct fl_siginfo {
    int32_t  si_signo;          /* the signal */
    int32_t  si_code;           /* SI_* for a sent signal, else the fault's code below */
    int32_t  si_pid;            /* the sender's pid (SI_USER, SI_TKILL), else 0 */
    int32_t  si_pad;
    uint64_t si_addr;           /* SIGSEGV, SIGBUS, SIGILL, SIGTRAP: the faulting address */
    uint64_t si_reserved;
};
_Static_assert(sizeof(struct fl_siginfo) % 16 == 0, "siginfo keeps sp 16-byte aligned");

/* si_code: how a signal was sent (Linux's values) */
#define SI_USER       0         /* kill() */
#define SI_KERNEL     0x80      /* the kernel: the console's ^C, ^\ */
#define SI_TKILL      (-6)      /* tkill() */
/* si_code of a fault, per signal */
#define SEGV_MAPERR   1         /* SIGSEGV: nothing mapped at si_addr */
#define SEGV_ACCERR   2         /* SIGSEGV: mapped, but not for that access */
#define BUS_ADRALN    1         /* SIGBUS: misaligned address */
#define BUS_ADRERR    2         /* SIGBUS: no memory or device there, or its page could not be read */
#define ILL_ILLOPC    1         /* SIGILL: illegal instruction */
#define TRAP_BRKPT    1         /* SIGTRAP: breakpoint */

/* sigaltstack(): an alternate stack for FL_SA_ONSTACK handlers, per thread */
struct fl_stack {
    uint64_t ss_sp;             /* lowest address of the stack */
    int32_t  ss_flags;          /* SS_DISABLE to turn it off; SS_ONSTACK is reported, not set */
    int32_t  ss_pad;
    uint64_t ss_size;           /* bytes, at least MINSIGSTKSZ */
};
#define SS_ONSTACK    1         /* (old_ss) the thread is running on it now */
#define SS_DISABLE    2         /* no alternate stack */
#define MINSIGSTKSZ   2048      /* a frame, its siginfo and a small handler */
#define SIGSTKSZ      8192      /* what a program usually wants */

/* sigtimedwait()'s timeout */
struct fl_timespec {
    int64_t tv_sec;
    int64_t tv_nsec;            /* 0 .. 999,999,999 */
};

#define FL_NAME_MAX   16   /* process name, including the NUL */
/* The console edits a line of up to this many bytes, its newline included,
 * before handing it to a reader; a longer line reaches the reader in pieces
 * of this size (nothing is dropped). The shell accepts lines this long. */
#define FL_CONSOLE_LINE_MAX 1024
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
    /* What rdcycle and rdinstret count, as the kernel found at boot:
     * FL_COUNTERS_ICOUNT (retired instructions, QEMU -icount; each
     * instruction is 2^icount_shift ticks) or FL_COUNTERS_HOST (the host's
     * cycle counter: host time, not instructions). */
    uint32_t counters;
    uint32_t icount_shift;
};
#define FL_COUNTERS_HOST   0
#define FL_COUNTERS_ICOUNT 1

/*
 * In-kernel latency meters. Each event is the time between two named probe
 * points, in cycles (rdcycle; under -icount shift=0 that is instructions).
 * Every hart keeps count, min, max, sum and a log2 histogram per event:
 * bucket k counts values v with 2^k <= v < 2^(k+1) (bucket 0 also holds 0).
 * X(name, "text name", "from probe -> to probe")
 */
#define FL_METER_EVENTS(X) \
    X(SYSCALL_ENTRY, "syscall.entry", "trap entry -> syscall dispatch") \
    X(SYSCALL_BODY,  "syscall.body",  "syscall dispatch -> handler returned") \
    X(SYSCALL_EXIT,  "syscall.exit",  "handler returned -> trap exit (before register restore)") \
    X(FAULT_ENTRY_TO_FRAME, "fault.entry_to_frame", "fault entry -> frame obtained (faults that never left the hart)") \
    X(FAULT_ZERO,           "fault.zero_frame",     "frame obtained -> frame zeroed or read from its slot (same)") \
    X(FAULT_FRAME_TO_MAP,   "fault.frame_to_map",   "frame filled -> mapping installed (same)") \
    X(FAULT_MAP_TO_EXIT,    "fault.map_to_exit",    "mapping installed -> fault exit") \
    X(FAULT_WAITED_WORK,    "fault.waited_work",    "a fault that left the hart: entry -> resolved, less fault.wait (its legs above are not recorded)") \
    X(FAULT_WAIT,           "fault.wait",           "a fault that left the hart: its time switched out (disk, room) or in interrupts") \
    X(SIGNAL_POST_TO_IPI,          "signal.post_to_ipi",          "signal posted -> IPI sent") \
    X(SIGNAL_IPI_TO_INTERRUPT,     "signal.ipi_to_interrupt",     "IPI sent -> target interrupted") \
    X(SIGNAL_INTERRUPT_TO_HANDLER, "signal.interrupt_to_handler", "target interrupted -> handler entered") \
    X(SIGNAL_SIGRETURN_TO_RESTORED, "signal.sigreturn_to_restored", "sigreturn entered -> context restored") \
    X(PAGEIN,        "vm.pagein",     "page-in: fault on a page on the device -> mapped, less the time switched out (device wait)") \
    X(PAGE_WAIT,     "vm.page_wait",  "page-in or page-out: time switched out while the device worked") \
    X(PAGEOUT,       "vm.pageout",    "page-out: victim taken -> written and freed, less the time switched out") \
    X(SWAPIN,        "vm.swapin",     "swap-in: start -> whole image resident, less the time switched out") \
    X(SWAPOUT,       "vm.swapout",    "swap-out: start -> whole image on the device, less the time switched out") \
    X(SWAP_WAIT,     "vm.swap_wait",  "swap-in or swap-out: time switched out (device, TLB shootdown)") \
    X(MINOR_FAULT,   "vm.minor_fault", "fault on a resident page (simulated reference bit) -> remapped") \
    X(ULF_TRANSFER,  "ulf.transfer",  "fault in a managed region -> its handler running (ulf_recv returns)") \
    X(ULF_LOAD,      "ulf.load",      "ulf_load entry -> mapping installed") \
    X(ULF_RESUME,    "ulf.resume",    "ulf_resume entry -> faulting thread on its way back to user mode") \
    X(TRAP_FORWARD,  "trap.forward",  "system call of an emulated process -> its emulator running (ulf_recv returns)") \
    X(TRAP_RESUME,   "trap.resume",   "emulator's ulf_resume entry -> emulated thread on its way back to user mode") \
    X(METER_SELF,    "meter.self",    "cost of recording one event (calibrated at boot)")

#define FL_METER_ENUM_ENTRY(name, text, what) FL_METER_##name,
enum fl_meter_event { FL_METER_EVENTS(FL_METER_ENUM_ENTRY) FL_METER_COUNT };

/* 59 buckets (values up to 2^59) make a record exactly 512 bytes, so the
 * kernel finds a record with shifts rather than multiplications. */
#define FL_METER_BUCKETS 59

struct fl_meter {
    uint32_t event;          /* enum fl_meter_event */
    int32_t  hart;           /* logical hart, or -1 when summed over all */
    uint64_t count, min, max, sum;
    uint64_t hist[FL_METER_BUCKETS];
};
_Static_assert(sizeof(struct fl_meter) == 512, "meter records are 512 bytes");

/*
 * Memory-manager counters (vmstat). Counts are since boot and system
 * wide; frames and swap slots are pages of page_size bytes.
 */
#define FL_MM_NAME_MAX 8
struct fl_vmstat {
    char     mm[FL_MM_NAME_MAX];   /* "swap" or "paging" */
    uint64_t page_size;
    uint64_t frames_total;     /* frames the allocator manages */
    uint64_t frames_free;
    uint64_t swap_total;       /* page slots on the swap/paging device, 0 if none */
    uint64_t swap_used;
    uint64_t faults;           /* user page faults that reached the dispatcher */
    uint64_t zero_fills;       /* pages created zeroed (heap, stack, mmap, bss) */
    uint64_t image_fills;      /* pages filled from the initrd (text and data) */
    uint64_t minor_faults;     /* resident page remapped (simulated reference bits) */
    uint64_t pageins;          /* pages read from the paging device on a fault */
    uint64_t pageouts;         /* dirty pages written to the paging device */
    uint64_t reclaims;         /* frames taken from a process for another fault */
    uint64_t clock_scans;      /* frames the clock hand looked at */
    uint64_t swapins;          /* whole processes brought in */
    uint64_t swapouts;         /* whole processes written out */
    uint64_t swapin_pages;     /* pages those moved */
    uint64_t swapout_pages;
    uint64_t io_errors;        /* device operations that failed */
    uint64_t oom_kills;        /* processes killed for want of memory or swap */
    uint64_t low_water;        /* times free frames fell to page control's low mark */
    uint64_t high_water;       /* times they climbed back to its high mark */
    /* Bookkeeping that must agree whenever nothing is moving: every user
     * frame is some live space's resident page, and every used swap slot
     * is some live space's swapped page. A difference is a leak. */
    uint64_t frames_user;      /* frames the core map says are user frames */
    uint64_t resident_total;   /* sum of the live spaces' resident pages */
    uint64_t swap_owned;       /* sum of the live spaces' swapped pages */
    uint64_t zero_maps;        /* reads of untouched pages given the shared zero page */
    /* Frames granted to user-level fault handlers (ulf_grant), held
     * until they are neither in the handler's pool nor loaded anywhere:
     * 0 once every handler and its clients are gone. */
    uint64_t ulf_frames;
    /* pc=daemon's page control (all 0 under pc=inline): */
    uint64_t core_waits;       /* faults that found no free frame and awaited core */
    uint64_t cm_passes;        /* times the core manager refilled the free list */
    uint64_t cm_freed;         /* frames it freed: clean pages dropped + writes ended */
    uint64_t cm_handoffs;      /* dirty pages it handed to the paging-device manager */
    uint64_t pd_batches;       /* batches of writes the PD manager started together */
    uint64_t pd_writes;        /* of those writes, the ones that ended well */
    uint64_t prezeroed;        /* free frames the core manager zeroed in idle time */
    uint64_t zeroed_fills;     /* demand-zero fills that took such a frame */
    uint64_t frames_zeroed;    /* gauge: free frames known to be zeroed now */
    /* pd=SIZE's paging device (all 0 without one; docs/memory.md): */
    uint64_t pd_records;       /* gauge: its records (pages) */
    uint64_t pd_free;          /* gauge: of those, free now */
    uint64_t pd_stores;        /* pages the write-behind wrote to it */
    uint64_t pd_reads;         /* faults served from it (the rest of pageins: the disk) */
    uint64_t rws_moves;        /* pages the PD manager moved from it to the disk */
    uint64_t pd_reclaimed;     /* records of dead pages it freed with no I/O */
    uint64_t pd_full;          /* write-behind that found it full and went to the disk */
    uint64_t slots_reaped;     /* pc=daemon: disk slots of dead pages the PD manager freed */
    /* Page control's CPU by who spends it, in cycles (kernel/include/pcmeter.h;
     * 0 unless booted with pcmeters=on): user page faults entry to exit less time away;
     * the core and PD managers' threads; the disk's interrupt handler; and
     * the scheduler between a thread's switch-out and the next switch-in
     * (less idle), by why the thread left, with how many such switches. */
    uint64_t pcm_fault_cycles, pcm_faults;
    uint64_t pcm_coremgr_cycles, pcm_coremgr_runs;
    uint64_t pcm_pdmgr_cycles, pcm_pdmgr_runs;
    uint64_t pcm_diskirq_cycles, pcm_diskirqs;
    uint64_t pcm_rws_cycles, pcm_rws_runs;   /* the PD manager's moves to the disk (pd=) */
    uint64_t sw_other, sw_other_cycles;
    uint64_t sw_core_wait, sw_core_wait_cycles;
    uint64_t sw_disk, sw_disk_cycles;
    uint64_t sw_coremgr, sw_coremgr_cycles;
    uint64_t sw_pdmgr, sw_pdmgr_cycles;
    uint64_t sw_preempt, sw_preempt_cycles;
    uint64_t pcm_fault_delay_cycles;  /* user page faults, entry to exit, waits included */
    uint64_t idle_cycles;      /* every hart's turns of the scheduler that found nothing to run */
    uint64_t clock_cycles;     /* the cycle counter when read, the clock of the cycles above */
};

/*
 * User-level fault handlers and trap forwarding (docs/ulf.md). A process
 * names itself the handler of a child's memory (ulf_attach); a fault
 * there, or a system call of a child whose calls it emulates, suspends the
 * thread and becomes a message that ulf_recv hands to the handler, which
 * answers with ulf_load/ulf_unload and ulf_resume.
 */
#define FL_ULF_REGION    0x0   /* ulf_attach: a new managed region [addr, addr+len) with prot */
#define FL_ULF_HEAP      0x1   /* ulf_attach: the child's heap, now and after exec */
#define FL_ULF_SYSCALLS  0x2   /* ulf_attach: the child's system calls come to the caller */
#define FL_ULF_SPACE     0x4   /* ulf_attach: all its demand-zero memory (heap, stack, anonymous
                                  mappings, later ones too), now and after exec; not its image */

/* fl_ulf_msg.kind */
#define FL_ULF_FAULT     1     /* a page fault: addr, access, pc */
#define FL_ULF_SYSCALL   2     /* a system call: nr, args, pc (of the ecall) */
#define FL_ULF_SYSRET    3     /* after FL_ULF_PASS_REPORT: the call's result */

/* fl_ulf_msg.access */
#define FL_ULF_READ      0
#define FL_ULF_WRITE     1
#define FL_ULF_EXEC      2

/* ulf_resume's how */
#define FL_ULF_RETRY       1   /* fault: run the faulting instruction again; SYSRET: go on */
#define FL_ULF_SIGNAL      2   /* fault: deliver signal value with the fault address */
#define FL_ULF_KILL        3   /* end the thread's process with SIGKILL */
#define FL_ULF_RETURN      4   /* system call: answered, value is its result */
#define FL_ULF_PASS        5   /* system call: the kernel performs it */
#define FL_ULF_PASS_REPORT 6   /* the same, then a FL_ULF_SYSRET message with the result */

/* Most frames one handler may hold at once (ulf_grant: -EDQUOT beyond). */
#define FL_ULF_FRAME_QUOTA 1024

struct fl_ulf_msg {
    int32_t  kind;             /* FL_ULF_FAULT, FL_ULF_SYSCALL, FL_ULF_SYSRET */
    int32_t  pid, tid;         /* who is waiting */
    int32_t  access;           /* FL_ULF_READ/WRITE/EXEC (faults) */
    uint64_t addr;             /* the faulting address (faults) */
    uint64_t pc;               /* where the thread trapped */
    uint64_t nr;               /* system call number */
    uint64_t args[6];          /* its arguments, a0..a5 */
    int64_t  result;           /* FL_ULF_SYSRET: what the call returned */
};

/* ulf_regs: a waiting thread's registers in the signal frame's order:
 * regs[0] is the pc, regs[n] register n (riscv64: regs[10] is a0). */
#define FL_ULF_NREGS 32
struct fl_ulf_regs {
    uint64_t regs[FL_ULF_NREGS];
};

/*
 * vmctl: puts the caller's own pages into a chosen state, so that a
 * measurement (user/lat) can take exactly the fault it wants to time.
 */
#define FL_VMCTL_PAGEOUT  1   /* evict the resident pages of [addr, addr+len): dirty ones
                                 to swap, clean ones dropped -> pages evicted */
#define FL_VMCTL_HIDE     2   /* hide them as the clock does with refbits=sw: the next
                                 touch is a minor fault -> pages hidden */
#define FL_VMCTL_SWAPOUT  3   /* mm=swap: write the whole process out and return once
                                 the swapper has brought it back (addr, len ignored) -> 0 */

#endif
