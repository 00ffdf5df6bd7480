/* kill [-SIG] [--] PID...: sends SIG (a number or a name such as KILL or
 * SIGKILL; default TERM) to each PID. A negative PID -N names process
 * group N (every process in it); "--" ends the options, so that
 * `kill -- -N` sends the default signal to a group. Signal 0 sends
 * nothing: the status says whether each PID could be signalled. */
#include "ulib.h"

#define DEFAULT_SIGNAL SIGTERM

static const struct {
    const char *name;
    int         number;
} signals[] = {
    { "HUP", SIGHUP },   { "INT", SIGINT },   { "QUIT", SIGQUIT }, { "ILL", SIGILL },
    { "TRAP", SIGTRAP }, { "ABRT", SIGABRT }, { "BUS", SIGBUS },   { "FPE", SIGFPE },
    { "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
    { "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM }, { "CHLD", SIGCHLD },
};

/* Returns the signal number (0 for "0": none, only the check), or -1 if
 * spec names none. */
static int parse_signal(const char *spec)
{
    if (isdigit(*spec)) {
        char *end;
        long n = strtol(spec, &end, 10);
        return (*end || n < 0 || n >= NSIG) ? -1 : (int)n;
    }
    static const char prefix[] = "SIG";
    if (strncmp(spec, prefix, sizeof prefix - 1) == 0)
        spec += sizeof prefix - 1;
    for (size_t i = 0; i < ARRAY_SIZE(signals); i++)
        if (strcmp(spec, signals[i].name) == 0)
            return signals[i].number;
    return -1;
}

int main(int argc, char *argv[])
{
    int sig = DEFAULT_SIGNAL;
    int first = 1;
    if (first < argc && strcmp(argv[first], "--") != 0 && argv[first][0] == '-') {
        sig = parse_signal(argv[first] + 1);
        if (sig < 0)
            die("kill: %s: unknown signal", argv[first] + 1);
        first++;
    }
    if (first < argc && strcmp(argv[first], "--") == 0)
        first++;
    if (first >= argc)
        die("usage: kill [-SIG] [--] pid|-pgid...");

    int status = 0;
    for (int i = first; i < argc; i++) {
        char *end;
        long pid = strtol(argv[i], &end, 10);
        if (*end || end == argv[i] || pid == 0 || pid == -1 || pid < INT32_MIN + 1 || pid > INT32_MAX) {
            fprintf(STDERR_FILENO, "kill: %s: not a process id\n", argv[i]);
            status = 1;
            continue;
        }
        int err = kill((int)pid, sig);
        if (err < 0) {
            fprintf(STDERR_FILENO, "kill: %ld: %s\n", pid, strerror(err));
            status = 1;
        }
    }
    return status;
}
