/*
 * Jobs: every command run in a child is a job, and every job is a process
 * group named after its first process (a later pipeline's processes would
 * all join that group). A background job always runs in its own group, so
 * Ctrl-C (which the console sends to the foreground group) does not reach
 * it. At the console the shell also does job control: it leads a group of
 * its own, makes each foreground job's group the console's foreground
 * group while it runs and takes the console back afterwards, and catches
 * SIGINT and SIGQUIT for itself: a Ctrl-C at the prompt abandons the line
 * and prompts again, and one that ends a foreground job (or reaches the
 * shell while it runs a loop of builtins) stops the whole command line.
 * (The console echoes "^C" and a line end itself.)
 *
 * Both the parent and the child set the group, so it is in place before
 * the child runs the command and before the parent hands it the console,
 * whichever gets there first.
 */
#include "sh.h"

#define SIGNAL_BASE 128       /* $? of a command killed by signal N: 128 + N */

bool       job_control;       /* at the console: groups, foreground, Ctrl-C */
static int shell_pgid;

/* Being caught interrupts the read at the prompt (and exec resets it to
 * the default for the commands); the flag stops a running loop. */
static void on_interrupt(int sig, uint64_t addr, struct fl_sigframe *frame)
{
    (void)sig; (void)addr; (void)frame;
    interrupted = 1;
}

void job_enter(const struct job *j)
{
    if (!job_control && j->foreground)
        return;               /* a script's commands stay in the script's group */
    if (job_control) {
        signal(SIGINT, SIG_DFL_HANDLER);
        signal(SIGQUIT, SIG_DFL_HANDLER);
    }
    setpgid(0, j->pgid);
    if (job_control && j->foreground)
        tcsetpgrp(STDIN_FILENO, getpgid(0));
}

/* Errors are expected when the child got there first (or already ended)
 * and are ignored. */
void job_add(struct job *j, int pid)
{
    if (!job_control && j->foreground)
        return;
    if (j->pgid == 0)
        j->pgid = pid;
    setpgid(pid, j->pgid);
    if (job_control && j->foreground)
        tcsetpgrp(STDIN_FILENO, j->pgid);
}

void job_done(const struct job *j)
{
    if (job_control && j->foreground)
        tcsetpgrp(STDIN_FILENO, shell_pgid);
}

void job_control_start(void)
{
    shell_pgid = getpid();
    /* A group leader already (init=/sh makes the shell lead its session,
     * which may not change group) keeps its group. */
    if (getpgid(0) != shell_pgid && setpgid(0, 0) < 0)
        return;
    if (tcsetpgrp(STDIN_FILENO, shell_pgid) < 0)
        return;               /* not the console's session: no job control */
    signal(SIGINT, on_interrupt);
    signal(SIGQUIT, on_interrupt);
    job_control = true;
}

int status_of(int wait_status)
{
    if (FL_WIFEXITED(wait_status))
        return FL_WEXITSTATUS(wait_status);
    return SIGNAL_BASE + FL_WTERMSIG(wait_status);
}

/* A command killed by a signal gets no remark: the kernel has said why
 * (a fault), or the user has (Ctrl-C, kill). */
int job_wait(int pid)
{
    int status;
    while (wait_pid(pid, &status, 0) == -EINTR)
        ;                     /* a signal for the shell itself: keep waiting */
    if (job_control && !FL_WIFEXITED(status) &&
        (FL_WTERMSIG(status) == SIGINT || FL_WTERMSIG(status) == SIGQUIT))
        interrupted = 1;      /* Ctrl-C ends the whole command line, loops and all */
    return status_of(status);
}

void job_report(int pid, int wait_status)
{
    if (FL_WIFEXITED(wait_status))
        printf("[%d] done status %d\n", pid, FL_WEXITSTATUS(wait_status));
    else
        printf("[%d] done signal %d\n", pid, FL_WTERMSIG(wait_status));
}

/* The foreground command has always been waited for by now, so every
 * child found here ran in the background. */
void jobs_reap(void)
{
    int status, pid;
    while ((pid = wait_pid(-1, &status, WNOHANG)) > 0)
        job_report(pid, status);
}
