/*
 * login NAME CMD [ARGS...]: runs CMD as user NAME, in a login session of
 * its own (lib/login.c), and waits for it; the status is CMD's.
 *
 * setsid() refuses a process group leader, and a shell makes every job
 * lead its group, so the session is made in a child, which then execs
 * CMD. That child (and whatever CMD starts) is what `who` counts; this
 * process stays in the shell's session only to wait and pass the status on.
 */
#include "ulib.h"

#define EXEC_FAILED  127   /* as in sh */
#define SIGNAL_BASE  128   /* exit status of a command killed by signal N: 128 + N */

int main(int argc, char *argv[])
{
    if (argc < 3)
        die("usage: login NAME command [args...]");
    int pid = fork();
    if (pid < 0)
        die("login: fork: %s", strerror(pid));
    if (pid == 0) {
        int sid = login_session(argv[1]);
        if (sid < 0)
            die("login: %s: %s", argv[1], strerror(sid));
        int err = exec_command(argv[2], argv + 2);
        if (err == -ENOENT)
            fprintf(STDERR_FILENO, "login: %s: not found\n", argv[2]);
        else
            fprintf(STDERR_FILENO, "login: %s: %s\n", argv[2], strerror(err));
        exit(EXEC_FAILED);
    }
    int status, err;
    while ((err = wait_pid(pid, &status, 0)) == -EINTR)
        ;
    if (err < 0)
        die("login: wait: %s", strerror(err));
    return FL_WIFEXITED(status) ? FL_WEXITSTATUS(status) : SIGNAL_BASE + FL_WTERMSIG(status);
}
