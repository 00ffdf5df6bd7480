/*
 * trace: prints the system calls of a program, built on trap forwarding
 * (docs/ulf.md): an strace for faultline.
 *
 *   trace [-a] PROG [ARGS...]
 *
 * PROG runs as a child whose system calls, and those of the processes it
 * forks, come to trace as messages (ulf_attach with FL_ULF_SYSCALLS).
 * trace lets the kernel perform each one for the caller and report its
 * result (FL_ULF_PASS_REPORT), then prints one line per call:
 *
 *   [PID] NAME(ARG, ...) = RESULT
 *
 * with an error's name after a negative result; exit and thread_exit,
 * which do not come back, are printed as they are made, with "= ?".
 * Pointers are shown in hex (trace sees registers, not memory). The
 * child's own calls before it runs PROG (it waits for trace to attach)
 * are left out, unless -a. The lines go to standard error, PROG's output
 * where PROG puts it; trace exits with PROG's status.
 */
#include "ulib.h"

#define USAGE_EXIT   2
#define FAILED_EXIT  1
#define MAX_ARGS     6
#define LINE_MAX     256

struct call {
    const char *name;
    const char *args;               /* one letter per argument: d decimal, x hex */
};

static const struct call calls[SYS_COUNT] = {
    [SYS_getpid] = { "getpid", "" },          [SYS_exit] = { "exit", "d" },
    [SYS_fork] = { "fork", "" },              [SYS_exec] = { "exec", "xx" },
    [SYS_wait] = { "wait", "x" },             [SYS_kill] = { "kill", "dd" },
    [SYS_sbrk] = { "sbrk", "d" },             [SYS_sleep] = { "sleep", "d" },
    [SYS_uptime] = { "uptime", "" },          [SYS_read] = { "read", "dxd" },
    [SYS_write] = { "write", "dxd" },         [SYS_open] = { "open", "xd" },
    [SYS_close] = { "close", "d" },           [SYS_dup] = { "dup", "d" },
    [SYS_readdir] = { "readdir", "dx" },      [SYS_fstat] = { "fstat", "dx" },
    [SYS_thread_create] = { "thread_create", "xxxx" },
    [SYS_thread_exit] = { "thread_exit", "d" }, [SYS_thread_join] = { "thread_join", "dx" },
    [SYS_gettid] = { "gettid", "" },          [SYS_set_affinity] = { "set_affinity", "dd" },
    [SYS_procinfo] = { "procinfo", "xd" },    [SYS_times] = { "times", "x" },
    [SYS_halt] = { "halt", "d" },             [SYS_sysinfo] = { "sysinfo", "x" },
    [SYS_unlink] = { "unlink", "x" },         [SYS_yield] = { "yield", "" },
    [SYS_wait_pid] = { "wait_pid", "dxd" },   [SYS_gethart] = { "gethart", "" },
    [SYS_sigaction] = { "sigaction", "dxx" }, [SYS_sigprocmask] = { "sigprocmask", "dxx" },
    [SYS_sigreturn] = { "sigreturn", "" },    [SYS_tkill] = { "tkill", "dd" },
    [SYS_sigpending] = { "sigpending", "x" }, [SYS_mmap] = { "mmap", "xdxx" },
    [SYS_munmap] = { "munmap", "xd" },        [SYS_meter_read] = { "meter_read", "dxd" },
    [SYS_meter_reset] = { "meter_reset", "" }, [SYS_nop] = { "nop", "" },
    [SYS_vmstat] = { "vmstat", "x" },         [SYS_vmctl] = { "vmctl", "dxd" },
    [SYS_setpgid] = { "setpgid", "dd" },      [SYS_getpgid] = { "getpgid", "d" },
    [SYS_setsid] = { "setsid", "" },          [SYS_getsid] = { "getsid", "d" },
    [SYS_tcsetpgrp] = { "tcsetpgrp", "dd" },  [SYS_tcgetpgrp] = { "tcgetpgrp", "d" },
    [SYS_ulf_attach] = { "ulf_attach", "dxdxx" }, [SYS_ulf_grant] = { "ulf_grant", "d" },
    [SYS_ulf_recv] = { "ulf_recv", "x" },     [SYS_ulf_load] = { "ulf_load", "dxxx" },
    [SYS_ulf_unload] = { "ulf_unload", "dxd" }, [SYS_ulf_resume] = { "ulf_resume", "ddd" },
    [SYS_ulf_regs] = { "ulf_regs", "dxd" },   [SYS_ulf_reply_recv] = { "ulf_reply_recv", "dddx" },
};

/* "[pid] name(args)" for the call in m, into line. */
static void describe(const struct fl_ulf_msg *m, char *line, size_t size)
{
    const struct call *c = m->nr < SYS_COUNT && calls[m->nr].name ? &calls[m->nr] : NULL;
    int n = c ? snprintf(line, size, "[%d] %s(", m->pid, c->name)
              : snprintf(line, size, "[%d] syscall_%lu(", m->pid, (unsigned long)m->nr);
    const char *kinds = c ? c->args : "xxxxxx";
    for (int i = 0; kinds[i] && i < MAX_ARGS && n < (int)size; i++)
        n += snprintf(line + n, size - (size_t)n, kinds[i] == 'd' ? "%s%ld" : "%s0x%lx",
                      i ? ", " : "", (long)m->args[i]);
    if (n < (int)size)
        snprintf(line + n, size - (size_t)n, ")");
}

static void print_result(const char *call, long r)
{
    if (r < 0 && r >= -MAX_ERRNO)
        fprintf(STDERR_FILENO, "%s = %ld (%s)\n", call, r, strerror((int)r));
    else if (r > 0xffff || r < -0xffff)
        fprintf(STDERR_FILENO, "%s = 0x%lx\n", call, r);
    else
        fprintf(STDERR_FILENO, "%s = %ld\n", call, r);
}

static bool never_returns(uint64_t nr)
{
    return nr == SYS_exit || nr == SYS_thread_exit;
}

/* The line of each thread's call in progress, by tid slot. */
#define PENDING_SLOTS 64
static struct {
    int tid;
    char line[LINE_MAX];
} pending[PENDING_SLOTS];

static char *slot_for(int tid)
{
    int i = tid % PENDING_SLOTS;
    pending[i].tid = tid;
    return pending[i].line;
}

int main(int argc, char *argv[])
{
    bool all = false;
    int first = 1;
    if (first < argc && !strcmp(argv[first], "-a")) {
        all = true;
        first++;
    }
    if (first >= argc || argv[first][0] == '-') {
        fprintf(STDERR_FILENO, "usage: trace [-a] PROG [ARGS...]\n");
        return USAGE_EXIT;
    }
    int pid = ulf_fork_held();
    if (pid < 0)
        die("trace: fork: %s", strerror(pid));
    if (pid == 0) {
        int err = exec_command(argv[first], &argv[first]);
        fprintf(STDERR_FILENO, "trace: %s: %s\n", argv[first], strerror(err));
        exit(FAILED_EXIT);
    }
    long r = ulf_attach(pid, NULL, 0, 0, FL_ULF_SYSCALLS);
    if (r < 0) {
        kill(pid, SIGKILL);
        die("trace: ulf_attach: %s", strerror((int)r));
    }
    ulf_release(pid);
    bool started = all;
    struct fl_ulf_msg m;
    while ((r = ulf_recv(&m)) == 0 || r == -EINTR) {
        if (r)
            continue;
        if (m.kind == FL_ULF_SYSCALL) {
            if (m.nr == SYS_exec)
                started = true;
            if (!started) {
                ulf_resume(m.tid, FL_ULF_PASS, 0);
                continue;
            }
            char *line = slot_for(m.tid);
            describe(&m, line, LINE_MAX);
            if (never_returns(m.nr)) {
                fprintf(STDERR_FILENO, "%s = ?\n", line);
                ulf_resume(m.tid, FL_ULF_PASS, 0);
            } else {
                ulf_resume(m.tid, FL_ULF_PASS_REPORT, 0);
            }
        } else if (m.kind == FL_ULF_SYSRET) {
            print_result(slot_for(m.tid), m.result);
            ulf_resume(m.tid, FL_ULF_RETRY, 0);
        }
    }
    if (r != -ESRCH) {
        fprintf(STDERR_FILENO, "trace: ulf_recv: %s\n", strerror((int)r));
        kill(pid, SIGKILL);
    }
    int status = 0;
    if (wait_pid(pid, &status, 0) != pid)
        die("trace: lost %s", argv[first]);
    if (!FL_WIFEXITED(status)) {
        fprintf(STDERR_FILENO, "trace: %s was killed by signal %d\n", argv[first],
                FL_WTERMSIG(status));
        return FAILED_EXIT;
    }
    return FL_WEXITSTATUS(status);
}
