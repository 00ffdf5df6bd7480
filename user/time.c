/*
 * time CMD [ARGS...]: runs CMD and reports, on stderr,
 *   real X.XXXs user X.XXXs sys X.XXXs
 * real from the clock, user and sys from the growth of the reaped
 * children's times (this process has no other children, so the growth is
 * CMD's and that of whatever CMD itself waited for).
 */
#include "ulib.h"

#define EXEC_FAILED     127   /* as in sh */
#define SIGNAL_BASE     128   /* exit status of a command killed by a signal */
#define US_PER_SEC      1000000UL
#define US_PER_MS       1000UL

/* Whole seconds and milliseconds of a microsecond count, for "%lu.%03lu". */
#define SECONDS(us)  (unsigned long)((us) / US_PER_SEC), \
                     (unsigned long)((us) % US_PER_SEC / US_PER_MS)

int main(int argc, char *argv[])
{
    if (argc < 2)
        die("usage: time command [args...]");

    struct fl_times before, after;
    int err = times(&before);
    if (err < 0)
        die("time: times: %s", strerror(err));

    int pid = fork();
    if (pid < 0)
        die("time: fork: %s", strerror(pid));
    if (pid == 0) {
        err = exec_command(argv[1], argv + 1);
        if (err == -ENOENT)
            fprintf(STDERR_FILENO, "time: %s: not found\n", argv[1]);
        else
            fprintf(STDERR_FILENO, "time: %s: %s\n", argv[1], strerror(err));
        exit(EXEC_FAILED);
    }

    int status;
    err = wait_pid(pid, &status, 0);
    if (err < 0)
        die("time: wait: %s", strerror(err));
    err = times(&after);
    if (err < 0)
        die("time: times: %s", strerror(err));

    fprintf(STDERR_FILENO, "real %lu.%03lus user %lu.%03lus sys %lu.%03lus\n",
            SECONDS(after.uptime_us - before.uptime_us),
            SECONDS(after.cutime_us - before.cutime_us),
            SECONDS(after.cstime_us - before.cstime_us));

    return FL_WIFEXITED(status) ? FL_WEXITSTATUS(status) : SIGNAL_BASE + FL_WTERMSIG(status);
}
