/*
 * usertests: processes (getpid, fork, exit, wait), exec, sleep, and what
 * procinfo and sysinfo report.
 */
#include "usertests.h"

#define EXIT_CODE_MASK    0xff     /* an exit status keeps 8 bits of the code */
#define US_PER_MS         1000L
#define CLOCK_SLACK_MS    1000     /* two clock readings a few calls apart */
#define MAX_FORKS         256      /* well above any process table */

/* ------------------------------------------------------ processes, exec */

void getpidtest(void)
{
    int pid = getpid();
    CHECK(pid > 0, "getpid() = %d", pid);
    expect("getpid() again", getpid(), pid);
    CHECK(pid != runner_pid, "child has its parent's pid %d", pid);
    int tid = gettid();
    CHECK(tid > 0, "gettid() = %d", tid);
    expect("gettid() again", gettid(), tid);

    /* The child's own getpid must match what fork told the parent; an exit
     * status carries 8 bits of it. */
    int child = fork();
    CHECK(child >= 0, "fork: %s", strerror(child));
    if (child == 0)
        exit(getpid() & EXIT_CODE_MASK);
    int status;
    expect("wait", wait(&status), child);
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == (child & EXIT_CODE_MASK),
          "child's getpid does not match fork's result %d", child);
}

void forkexit(void)
{
    static const int codes[] = { 0, 1, 42, 255 };
    for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
        int pid = fork();
        CHECK(pid >= 0, "fork: %s", strerror(pid));
        if (pid == 0)
            exit(codes[i]);
        int status = -1;
        expect("wait", wait(&status), pid);
        CHECK(FL_WIFEXITED(status), "exit(%d) reported as signal %d", codes[i], FL_WTERMSIG(status));
        expect("exit status", FL_WEXITSTATUS(status), codes[i]);
    }

    /* wait_pid picks the named child even when another has exited first. */
    enum { FIRST_CODE = 3, SECOND_CODE = 4 };
    int first = fork();
    if (first == 0)
        exit(FIRST_CODE);
    int second = fork();
    if (second == 0)
        exit(SECOND_CODE);
    CHECK(first > 0 && second > 0, "fork failed");
    int status;
    expect("wait_pid(second)", wait_pid(second, &status, 0), second);
    expect("second's status", FL_WEXITSTATUS(status), SECOND_CODE);
    expect("wait_pid(first)", wait_pid(first, &status, 0), first);
    expect("first's status", FL_WEXITSTATUS(status), FIRST_CODE);

    int pid = fork();
    if (pid == 0)
        exit(0);
    expect("wait(NULL)", wait(NULL), pid);
}

void forkmany(void)
{
    static int pids[MAX_FORKS];
    int n = 0;
    int err = 0;
    while (!err) {
        CHECK(n < MAX_FORKS, "fork never failed in %d tries", MAX_FORKS);
        int pid = fork();
        if (pid == 0)
            for (;;)
                sleep(SLEEP_FOREVER_MS);
        if (pid < 0)
            err = pid;
        else
            pids[n++] = pid;
    }
    /* The process table is full: -EAGAIN. Under a small mem= memory may
     * run out first, which is -ENOMEM. */
    if (err != -EAGAIN && err != -ENOMEM) {
        for (int i = 0; i < n; i++)
            kill(pids[i], SIGKILL);
        expect_either("fork at the limit", err, -EAGAIN, -ENOMEM);
    }
    CHECK(n > 0, "not even one fork succeeded");

    for (int i = 0; i < n; i++)
        expect("kill(child, SIGKILL)", kill(pids[i], SIGKILL), 0);
    for (int i = 0; i < n; i++) {
        int status;
        int pid = wait(&status);
        CHECK(pid > 0, "wait after %d of %d children: %s", i, n, strerror(pid));
        CHECK(!FL_WIFEXITED(status) && FL_WTERMSIG(status) == SIGKILL,
              "child %d: status %#x, expected SIGKILL", pid, status);
    }
    expect("wait with all reaped", wait(NULL), -ECHILD);

    int pid = fork();
    CHECK(pid >= 0, "fork after reaping: %s", strerror(pid));
    if (pid == 0)
        exit(0);
    expect("wait", wait(NULL), pid);
}

void waitnochild(void)
{
    int status;
    expect("wait(&status)", wait(&status), -ECHILD);
    expect("wait(NULL)", wait(NULL), -ECHILD);
    expect("wait_pid(-1, WNOHANG)", wait_pid(-1, &status, WNOHANG), -ECHILD);
    /* A process that exists but is not our child, and one that does not
     * exist: both -ECHILD, as in POSIX. */
    expect("wait_pid(parent)", wait_pid(runner_pid, &status, 0), -ECHILD);
    expect("wait_pid(no such pid)", wait_pid(BOGUS_ID, &status, 0), -ECHILD);

    /* WNOHANG with a live child: 0, not an error. */
    int pid = fork();
    if (pid == 0) {
        sleep(SLEEP_MS);
        exit(0);
    }
    CHECK(pid > 0, "fork: %s", strerror(pid));
    expect("wait_pid(child, WNOHANG) while it sleeps", wait_pid(pid, &status, WNOHANG), 0);
    expect("wait_pid(child)", wait_pid(pid, &status, 0), pid);
}

void execerrors(void)
{
    char *argv[] = { "x", NULL };
    expect_exec_error("exec(missing file)", "/no-such-program", argv, -ENOENT);
    expect_exec_error("exec(\"\")", "", argv, -ENOENT);
    /* Files the initrd builder provides for this: text, and a damaged ELF. */
    expect_exec_error("exec(/notelf)", "/notelf", argv, -ENOEXEC);
    expect_exec_error("exec(/badelf)", "/badelf", argv, -ENOEXEC);

    /* More argv entries than FL_ARG_MAX: -E2BIG. */
    static char *many[FL_ARG_MAX + 2];
    for (int i = 0; i <= FL_ARG_MAX; i++)
        many[i] = "arg";
    many[FL_ARG_MAX + 1] = NULL;
    expect_exec_error("exec with FL_ARG_MAX+1 args", "/echo", many, -E2BIG);

    /* A failed exec leaves the caller intact. */
    expect("exec(missing) in this process", exec("/no-such-program", argv), -ENOENT);
    CHECK(getpid() > 0, "process broken after a failed exec");
}

#define EXEC_OUT "/ut-exec-out"

/* Runs /echo with argv, its stdout in EXEC_OUT; returns what it wrote. */
static long run_echo(char *const argv[], char *out, size_t size)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        close(STDOUT_FILENO);
        int fd = open(EXEC_OUT, O_WRONLY | O_CREAT | O_TRUNC);   /* lowest free fd: 1 */
        if (fd != STDOUT_FILENO)
            exit(EXEC_FAILED);
        exec("/echo", argv);
        exit(EXEC_FAILED);
    }
    int status;
    expect("wait", wait_pid(pid, &status, 0), pid);
    CHECK(FL_WIFEXITED(status), "echo killed by signal %d", FL_WTERMSIG(status));
    expect("echo's exit status", FL_WEXITSTATUS(status), 0);
    long n = read_file(EXEC_OUT, out, size - 1);
    out[n] = '\0';
    return n;
}

void execargs(void)
{
    static char out[1024];
    char *argv[] = { "echo", "exec", "ok", "a b", "", "end", NULL };
    run_echo(argv, out, sizeof out);
    CHECK(strcmp(out, "exec ok a b  end\n") == 0, "echo wrote \"%s\"", out);

    /* FL_ARG_MAX - 1 entries: within the limit however it counts the NULL. */
    static char *many[FL_ARG_MAX];
    static char numbers[FL_ARG_MAX][4];
    char expected[FL_ARG_MAX * 4] = "";
    many[0] = "echo";
    for (int i = 1; i < FL_ARG_MAX - 1; i++) {
        snprintf(numbers[i], sizeof numbers[i], "%d", i);
        many[i] = numbers[i];
        strcat(expected, numbers[i]);
        strcat(expected, i < FL_ARG_MAX - 2 ? " " : "\n");
    }
    many[FL_ARG_MAX - 1] = NULL;
    run_echo(many, out, sizeof out);
    CHECK(strcmp(out, expected) == 0, "echo of %d args wrote \"%s\"", FL_ARG_MAX - 2, out);
    expect("unlink", unlink(EXEC_OUT), 0);
}


/* --------------------------------------------------------------- time */

void sleeptime(void)
{
    long t0 = uptime();
    expect("sleep(50)", sleep(SLEEP_MS), 0);
    long t1 = uptime();
    CHECK(t1 - t0 >= SLEEP_MS, "sleep(%d) took %ld ms", SLEEP_MS, t1 - t0);
    expect("sleep(0)", sleep(0), 0);

    struct fl_times a, b;
    expect("times", times(&a), 0);
    sleep(SLEEP_MS);
    expect("times", times(&b), 0);
    CHECK(b.uptime_us - a.uptime_us >= SLEEP_MS * (unsigned long)US_PER_MS,
          "times' uptime advanced %lu us over sleep(%d)",
          (unsigned long)(b.uptime_us - a.uptime_us), SLEEP_MS);
}


/* ---------------------------------------------------- information */

void procinfotest(void)
{
    static struct fl_procinfo procs[PROCINFO_MAX];
    expect("set_affinity(self, 0)", set_affinity(0, 0), 0);
    int n = procinfo(procs, PROCINFO_MAX);
    CHECK(n >= 2, "procinfo = %d", n);
    int me = getpid();
    const struct fl_procinfo *mine = NULL;
    bool runner_seen = false;
    for (int i = 0; i < n; i++) {
        if (procs[i].pid == me)
            mine = &procs[i];
        if (procs[i].pid == runner_pid)
            runner_seen = true;
    }
    CHECK(mine != NULL, "own pid %d not listed", me);
    CHECK(runner_seen, "parent %d not listed", runner_pid);
    expect("own ppid", mine->ppid, runner_pid);
    expect("own state", mine->state, FL_PS_RUNNING);
    expect("own thread count", mine->nthreads, 1);
    expect("own hart", mine->hart, 0);
    CHECK(mine->mem_bytes > 0, "own mem_bytes is 0");
    char name[FL_NAME_MAX + 1];
    memcpy(name, mine->name, FL_NAME_MAX);
    name[FL_NAME_MAX] = '\0';
    CHECK(strcmp(bare(name), "usertests") == 0, "own name \"%s\"", name);

    expect("procinfo(max 1)", procinfo(procs, 1), 1);
    expect("procinfo(max 0)", procinfo(procs, 0), 0);
    set_affinity(0, -1);
}

void sysinfotest(void)
{
    struct fl_sysinfo info;
    expect("sysinfo", sysinfo(&info), 0);
    expect("page_size", (long)info.page_size, (long)PAGE_SIZE);
    CHECK(info.frames_total > 0, "frames_total = 0");
    CHECK(info.frames_free <= info.frames_total, "more frames free (%lu) than exist (%lu)",
          (unsigned long)info.frames_free, (unsigned long)info.frames_total);
    CHECK(info.nharts >= 1, "nharts = %u", (unsigned)info.nharts);
    CHECK(info.nprocs >= 2, "nprocs = %u with this test and its parent alive", (unsigned)info.nprocs);
    CHECK(info.timebase_hz > 0, "timebase_hz = 0");

    struct fl_times t;
    expect("times", times(&t), 0);
    long up_ms = uptime();
    long times_ms = (long)t.uptime_us / US_PER_MS;
    CHECK(up_ms >= times_ms && up_ms - times_ms < CLOCK_SLACK_MS,
          "uptime() %ld ms and times().uptime_us %ld ms disagree", up_ms, times_ms);
}
