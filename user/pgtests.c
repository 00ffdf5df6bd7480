/*
 * pgtests [NAME...]: in-guest tests of process groups, sessions, the
 * console's foreground group and kill() of a group (setpgid, getpgid,
 * setsid, getsid, tcsetpgrp, tcgetpgrp, kill(-pgid), kill(0)).
 *
 * Same runner as usertests (lib/testrun.h): each test runs in a forked
 * child and reports "NAME: OK" or "NAME: FAILED why"; the last line is
 * "ALL TESTS PASSED" or "SOME TESTS FAILED". Run it from the shell at the
 * console: the tests expect pgtests to be the console's foreground job.
 *
 * pgtests fgjob is no test but a foreground job for the console tests on
 * the host: two children spin while the parent catches SIGINT and SIGQUIT;
 * after a Ctrl-C or Ctrl-\ it reports how each process took it:
 *   fgjob: child ready            (once per child, once it can be signalled)
 *   fgjob: child PID signal N     (the child was ended by signal N)
 *   fgjob: parent caught signal N
 */
#include "ulib.h"
#include "testrun.h"

#define BOGUS_ID       1000000      /* no process or group has this id */
#define BAD_FD         99
#define INIT_PID       1            /* never our child */
#define LONG_SLEEP_MS  60000        /* outlives every test; children are killed */
#define POLL_MS        10
#define DEADLINE_MS    10000
#define FGJOB_CHILDREN 2

/* A child that waits to be killed. */
static int start_sleeper(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        sleep(LONG_SLEEP_MS);
        exit(0);
    }
    return pid;
}

/* A child that leads a new group; both sides set it, so it is in place
 * when this returns. */
static int start_group_leader(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        setpgid(0, 0);
        sleep(LONG_SLEEP_MS);
        exit(0);
    }
    expect("setpgid(child, child)", setpgid(pid, pid), 0);
    return pid;
}

static void end_child(int pid)
{
    kill(pid, SIGKILL);
    wait_pid(pid, NULL, 0);
}

/* The wait status of pid, which must end by itself within the deadline. */
static int status_within_deadline(int pid)
{
    long start = uptime();
    int status = 0, r;
    while ((r = wait_pid(pid, &status, WNOHANG)) == 0) {
        CHECK(uptime() - start < DEADLINE_MS, "child %d did not end", pid);
        sleep(POLL_MS);
    }
    expect("wait_pid", r, pid);
    return status;
}

/* ------------------------------------------------------------------ tests */

/* fork: the child is in its parent's group and session. */
static void inherit(void)
{
    int pgid = getpgid(0), sid = getsid(0);
    CHECK(pgid > 0 && sid > 0, "getpgid %d, getsid %d", pgid, sid);
    expect("getpgid(0) is getpgid(getpid())", getpgid(getpid()), pgid);
    expect("getsid(0) is getsid(getpid())", getsid(getpid()), sid);
    int pid = start_sleeper();
    expect("child's group", getpgid(pid), pgid);
    expect("child's session", getsid(pid), sid);
    end_child(pid);
}

/* A child leads a group of its own, and can be moved back. */
static void newgroup(void)
{
    int mine = getpgid(0);
    int pid = start_group_leader();
    expect("child's new group", getpgid(pid), pid);
    expect("back to ours", setpgid(pid, mine), 0);
    expect("child's group", getpgid(pid), mine);
    expect("setpgid(child, 0): its own again", setpgid(pid, 0), 0);
    expect("child's group", getpgid(pid), pid);
    end_child(pid);
    expect("setpgid(0, 0)", setpgid(0, 0), 0);
    expect("own group", getpgid(0), getpid());
    expect("already there: no change", setpgid(0, getpid()), 0);
}

static void badsetpgid(void)
{
    expect("setpgid(no such pid)", setpgid(BOGUS_ID, 0), -ESRCH);
    expect("setpgid(init: not our child)", setpgid(INIT_PID, 0), -ESRCH);
    expect("setpgid(-1, 0)", setpgid(-1, 0), -EINVAL);
    expect("setpgid(0, -1)", setpgid(0, -1), -EINVAL);
    expect("setpgid(0, no such group)", setpgid(0, BOGUS_ID), -EPERM);
    expect("getpgid(no such pid)", getpgid(BOGUS_ID), -ESRCH);
    expect("getpgid(-5)", getpgid(-5), -ESRCH);
    expect("getsid(no such pid)", getsid(BOGUS_ID), -ESRCH);
    /* A child that has ended is no longer there to move. */
    int pid = start_sleeper();
    end_child(pid);
    expect("setpgid(reaped child)", setpgid(pid, 0), -ESRCH);
}

static void leave_session_child(void)
{
    int me = getpid();
    expect("setsid", setsid(), me);
    expect("session", getsid(0), me);
    expect("group", getpgid(0), me);
    expect("setsid again (leads a group)", setsid(), -EPERM);
    expect("setpgid of a session leader", setpgid(0, 0), -EPERM);
    expect("tcgetpgrp: not our terminal", tcgetpgrp(STDIN_FILENO), -ENOTTY);
    expect("tcsetpgrp: not our terminal", tcsetpgrp(STDIN_FILENO, me), -ENOTTY);
    sleep(LONG_SLEEP_MS);
}

static void sessions(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        leave_session_child();
        exit(0);
    }
    long start = uptime();
    while (getsid(pid) != pid) {
        CHECK(uptime() - start < DEADLINE_MS, "child never got its own session");
        sleep(POLL_MS);
    }
    expect("setpgid(child of another session)", setpgid(pid, 0), -EPERM);
    expect("setpgid(0, group of another session)", setpgid(0, pid), -EPERM);
    expect("tcsetpgrp(group of another session)", tcsetpgrp(STDIN_FILENO, pid), -EPERM);
    expect("kill(-group of another session)", kill(-pid, SIGKILL), 0);
    int status = status_within_deadline(pid);
    CHECK(!FL_WIFEXITED(status) && FL_WTERMSIG(status) == SIGKILL,
          "the child did not die of SIGKILL: status 0x%x (its checks failed?)", status);
    /* A group leader may not start a session: it would leave its group. */
    expect("setpgid(0, 0)", setpgid(0, 0), 0);
    expect("setsid as group leader", setsid(), -EPERM);
}

static void foreground(void)
{
    int mine = getpgid(0);
    expect("pgtests is the foreground job", tcgetpgrp(STDIN_FILENO), mine);
    expect("tcgetpgrp(bad fd)", tcgetpgrp(BAD_FD), -EBADF);
    expect("tcsetpgrp(bad fd)", tcsetpgrp(BAD_FD, mine), -EBADF);
    int fd = open("README", O_RDONLY);
    CHECK(fd >= 0, "open README: %s", strerror(fd));
    expect("tcgetpgrp(a file)", tcgetpgrp(fd), -ENOTTY);
    expect("tcsetpgrp(a file)", tcsetpgrp(fd, mine), -ENOTTY);
    close(fd);
    fd = open("/dev/null", O_RDWR);
    CHECK(fd >= 0, "open /dev/null: %s", strerror(fd));
    expect("tcgetpgrp(/dev/null)", tcgetpgrp(fd), -ENOTTY);
    close(fd);
    expect("tcsetpgrp(0)", tcsetpgrp(STDIN_FILENO, 0), -EINVAL);
    expect("tcsetpgrp(-3)", tcsetpgrp(STDIN_FILENO, -3), -EINVAL);
    expect("tcsetpgrp(no such group)", tcsetpgrp(STDIN_FILENO, BOGUS_ID), -EPERM);

    int pid = start_group_leader();
    expect("hand the console to the child's group", tcsetpgrp(STDIN_FILENO, pid), 0);
    expect("foreground", tcgetpgrp(STDIN_FILENO), pid);
    expect("take it back", tcsetpgrp(STDIN_FILENO, mine), 0);
    expect("foreground", tcgetpgrp(STDIN_FILENO), mine);
    /* Another descriptor on the console works the same. */
    int dup_fd = dup(STDOUT_FILENO);
    CHECK(dup_fd >= 0, "dup: %s", strerror(dup_fd));
    expect("tcgetpgrp(dup of stdout)", tcgetpgrp(dup_fd), mine);
    close(dup_fd);
    end_child(pid);
    /* The group is gone with its only process. */
    expect("tcsetpgrp(ended group)", tcsetpgrp(STDIN_FILENO, pid), -EPERM);
}

/* kill(-pgid) reaches every process of the group and no other. */
static void groupkill(void)
{
    int leader = start_group_leader();
    int member = fork();
    CHECK(member >= 0, "fork: %s", strerror(member));
    if (member == 0) {
        setpgid(0, leader);
        sleep(LONG_SLEEP_MS);
        exit(0);
    }
    expect("setpgid(member, leader)", setpgid(member, leader), 0);
    int outsider = start_sleeper();             /* stays in our group */

    expect("kill(-group, NSIG)", kill(-leader, NSIG), -EINVAL);
    expect("kill(-group, SIGTERM)", kill(-leader, SIGTERM), 0);
    for (int i = 0; i < 2; i++) {
        int pid = i == 0 ? leader : member;
        int status = status_within_deadline(pid);
        CHECK(!FL_WIFEXITED(status) && FL_WTERMSIG(status) == SIGTERM,
              "process %d of the group: status 0x%x, not SIGTERM", pid, status);
    }
    expect("outsider still running", wait_pid(outsider, NULL, WNOHANG), 0);
    expect("kill(-ended group)", kill(-leader, SIGTERM), -ESRCH);
    expect("kill(-no such group)", kill(-BOGUS_ID, SIGTERM), -ESRCH);
    expect("kill(-1): no broadcast", kill(-1, SIGTERM), -EINVAL);
    expect("kill(INT32_MIN)", raw_syscall(SYS_kill, INT32_MIN, SIGTERM, 0, 0, 0, 0), -ESRCH);
    end_child(outsider);
}

static volatile int usr1_hits;

static void count_usr1(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)sig; (void)addr; (void)f;
    usr1_hits++;
}

/* A grandchild in our new group: exits 0 once SIGUSR1 has reached it. */
static void wait_for_usr1(void)
{
    long start = uptime();
    while (!usr1_hits && uptime() - start < DEADLINE_MS)
        sleep(POLL_MS);
    exit(usr1_hits ? 0 : 1);
}

/* kill(0, sig) signals the caller's own group, the caller included. */
static void owngroup(void)
{
    expect("setpgid(0, 0)", setpgid(0, 0), 0);
    expect("signal", signal(SIGUSR1, count_usr1), 0);
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0)
        wait_for_usr1();
    expect("kill(0, SIGUSR1)", kill(0, SIGUSR1), 0);
    expect("the caller got it", usr1_hits, 1);
    int status = status_within_deadline(pid);
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0,
          "the other member did not get SIGUSR1: status 0x%x", status);
}

/* ------------------------------------------------------------------ fgjob */

static volatile int caught[NSIG];

static void record(int sig, uint64_t addr, struct fl_sigframe *f)
{
    (void)addr; (void)f;
    caught[sig]++;
}

static int fgjob(void)
{
    signal(SIGINT, record);
    signal(SIGQUIT, record);
    int pids[FGJOB_CHILDREN];
    for (int i = 0; i < FGJOB_CHILDREN; i++) {
        pids[i] = fork();
        if (pids[i] < 0)
            die("fgjob: fork: %s", strerror(pids[i]));
        if (pids[i] == 0) {
            signal(SIGINT, SIG_DFL_HANDLER);
            signal(SIGQUIT, SIG_DFL_HANDLER);
            printf("fgjob: child ready\n");
            for (;;)
                ;                       /* in user mode, as `spin` */
        }
    }
    for (int i = 0; i < FGJOB_CHILDREN; i++) {
        int status, r;
        while ((r = wait_pid(pids[i], &status, 0)) == -EINTR)
            ;                           /* our own signal arrived */
        if (FL_WIFEXITED(status))
            printf("fgjob: child %d exit %d\n", pids[i], FL_WEXITSTATUS(status));
        else
            printf("fgjob: child %d signal %d\n", pids[i], FL_WTERMSIG(status));
    }
    for (int sig = 1; sig < NSIG; sig++)
        if (caught[sig])
            printf("fgjob: parent caught signal %d\n", sig);
    return 0;
}

/* ------------------------------------------------------------------ runner */

static const struct test tests[] = {
    TEST(inherit),   TEST(newgroup),  TEST(badsetpgid), TEST(sessions),
    TEST(foreground), TEST(groupkill), TEST(owngroup),
};

int main(int argc, char *argv[])
{
    if (argc == 2 && strcmp(argv[1], "fgjob") == 0)
        return fgjob();
    current_test = "pgtests";
    printf("pgtests starting\n");
    return tests_summary(run_tests(tests, ARRAY_SIZE(tests), argc, argv));
}
