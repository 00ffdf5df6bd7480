/*
 * usersim: simulated interactive users, the load of the paged-versus-
 * swapped UNIX experiment (docs/results/unix.md, tools/repro_unix.py).
 *
 *   usersim [-n USERS] [-s SEED] [-t THINK_MS] [-r ROUNDS] [-b KIB] SCRIPT...
 *
 * Starts USERS users (default 1). A user is a process that logs in (it
 * leads a login of its own, so `who` counts it as a user) and then, ROUNDS
 * times or for ever (ROUNDS 0, the default), runs one of the SCRIPTs with
 * the shell, `sh SCRIPT USER`, waits for it, and thinks: sleeps a time
 * drawn uniformly from [THINK_MS/2, 3*THINK_MS/2] (default 20 ms). User
 * u's round k runs SCRIPT number (u + k) mod the number of scripts, so the
 * users do different work at any moment. The scripts hold the work (an
 * editing turn, a formatting turn, a compile) and their own think times
 * between commands, in the shell's language; the user number is their $1,
 * for file names of their own.
 *
 * -b KIB adds one more user, the big job: `hog -p 1 -m KIB -r BIG_ROUNDS`
 * run again whenever it ends, a process that sweeps KIB KiB over and over,
 * as MACSYMA swept its 2 MB address space while it collected garbage.
 *
 * The users' stdin, stdout and stderr are /dev/null: only usersim's own
 * lines reach the console. The seed makes the think times the same on
 * every run. usersim prints "usersim: started N users (+ big job)" once
 * they run; with ROUNDS > 0 it waits for them and prints one line
 *   FL-JSON {"usersim":"done","users":N,"rounds":R,"scripts_run":S,"scripts_failed":F}
 * and exits 0 only if every script exited 0 (the big job, if any, is
 * killed then). With ROUNDS 0 it never ends: each user leads a login of
 * its own, out of reach of the console's Ctrl-C and of kill -PGID, until
 * the machine halts or each is killed by its pid (`ps`).
 */
#include "ulib.h"
#include "mix64.h"

#define DEFAULT_USERS     1
#define MAX_USERS         16          /* each user is up to 4 processes, of the kernel's 64 */
#define MAX_SCRIPTS       8
#define DEFAULT_THINK_MS  20
#define MAX_THINK_MS      (3600L * 1000)
#define MAX_ROUNDS        100000
#define MAX_BIG_KIB       (1024L * 1024)
#define BIG_ROUNDS        "1000"      /* hog's most: days of sweeps at 30 ms a page */
#define BIG_USER          MAX_USERS   /* the big job's user number */
#define USAGE_EXIT        2
#define FAILED_MAX        100         /* a user's exit status saturates here */
#define NUM_MAX           24          /* digits of a number argument */
#define DEV_NULL          "/dev/null"
#define SHELL             "/sh"
#define HOG               "/hog"

struct options {
    int         users;
    uint64_t    seed;
    long        think_ms;
    long        rounds;
    long        big_kib;
    int         nscripts;
    char       *scripts[MAX_SCRIPTS];
};

static _Noreturn void usage(void)
{
    fprintf(STDERR_FILENO, "usage: usersim [-n users] [-s seed] [-t think-ms] [-r rounds] "
                           "[-b kib] script...\n");
    exit(USAGE_EXIT);
}

static long number(const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (s[0] == '\0' || *end || v < lo || v > hi) {
        fprintf(STDERR_FILENO, "usersim: %s: not a number from %ld to %ld\n", s, lo, hi);
        usage();
    }
    return v;
}

static void parse(int argc, char *argv[], struct options *o)
{
    *o = (struct options){ .users = DEFAULT_USERS, .seed = 1, .think_ms = DEFAULT_THINK_MS };
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i += 2) {
        if (i + 1 >= argc || argv[i][1] == '\0' || argv[i][2] != '\0')
            usage();
        const char *v = argv[i + 1];
        switch (argv[i][1]) {
        case 'n': o->users = (int)number(v, 1, MAX_USERS); break;
        case 's': o->seed = (uint64_t)number(v, 0, 1L << 62); break;
        case 't': o->think_ms = number(v, 0, MAX_THINK_MS); break;
        case 'r': o->rounds = number(v, 0, MAX_ROUNDS); break;
        case 'b': o->big_kib = number(v, 1, MAX_BIG_KIB); break;
        default:  usage();
        }
    }
    for (; i < argc; i++) {
        if (o->nscripts == MAX_SCRIPTS) {
            fprintf(STDERR_FILENO, "usersim: at most %d scripts\n", MAX_SCRIPTS);
            usage();
        }
        int fd = open(argv[i], O_RDONLY);
        if (fd < 0)
            die("usersim: %s: %s", argv[i], strerror(fd));
        close(fd);
        o->scripts[o->nscripts++] = argv[i];
    }
    if (o->nscripts == 0 && o->big_kib == 0)
        usage();
    if (o->nscripts == 0)
        o->users = 0;             /* only the big job */
}

/* stdin, stdout and stderr to /dev/null: a user's output is not ours. */
static void quiet(void)
{
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
        close(fd);
        int r = open(DEV_NULL, fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
        if (r != fd)
            exit(1);
    }
}

/* Runs argv to the end; true if it exited 0. */
static bool run(char *const argv[])
{
    int pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        exec(argv[0], argv);
        exit(127);
    }
    int status;
    while (wait_pid(pid, &status, 0) == -EINTR)
        ;
    return FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0;
}

/* A think time in [think/2, 3*think/2], the same for (seed, user, round)
 * on every run. */
static unsigned long think_time(const struct options *o, int user, long round)
{
    if (o->think_ms == 0)
        return 0;
    uint64_t r = mix64(o->seed * MIX64_GAMMA + ((uint64_t)user << 32) + (uint64_t)round);
    return (unsigned long)(o->think_ms / 2 + (long)(r % (uint64_t)(o->think_ms + 1)));
}

/* One user: rounds of script, think. Exit status: the failed scripts
 * (saturating), so the parent can count them. */
static _Noreturn void user(const struct options *o, int u)
{
    char unum[NUM_MAX];
    snprintf(unum, sizeof unum, "%d", u);
    long failed = 0;
    for (long k = 0; o->rounds == 0 || k < o->rounds; k++) {
        char *argv[] = { SHELL, o->scripts[(u + k) % o->nscripts], unum, NULL };
        if (!run(argv))
            failed++;
        sleep(think_time(o, u, k));
    }
    exit(failed > FAILED_MAX ? FAILED_MAX : (int)failed);
}

static _Noreturn void big_job(const struct options *o)
{
    char kib[NUM_MAX];
    snprintf(kib, sizeof kib, "%ld", o->big_kib);
    char *argv[] = { HOG, "-p", "1", "-m", kib, "-r", BIG_ROUNDS, NULL };
    for (;;)
        if (!run(argv))
            sleep(think_time(o, BIG_USER, 0));   /* refused (no room): try again later */
}

/* A user logs in (login_session: a session of its own, recorded for
 * `who`), named userU, or big for the big job. */
static int start(const struct options *o, int u)
{
    int pid = fork();
    if (pid != 0)
        return pid;
    char name[LOGIN_NAME_MAX];
    if (u == BIG_USER)
        snprintf(name, sizeof name, "big");
    else
        snprintf(name, sizeof name, "user%d", u);
    int err = login_session(name);
    if (err < 0)
        die("usersim: login %s: %s", name, strerror(err));
    quiet();
    if (u == BIG_USER)
        big_job(o);
    user(o, u);
}

int main(int argc, char *argv[])
{
    struct options o;
    parse(argc, argv, &o);

    int started = 0;
    for (int u = 0; u < o.users; u++) {
        int pid = start(&o, u);
        if (pid < 0)
            die("usersim: fork: %s", strerror(pid));
        started++;
    }
    int big = 0;
    if (o.big_kib) {
        big = start(&o, BIG_USER);
        if (big < 0)
            die("usersim: fork: %s", strerror(big));
    }
    printf("usersim: started %d users%s\n", started, o.big_kib ? " (+ big job)" : "");

    if (o.rounds == 0 || o.users == 0) {
        for (;;) {                /* for ever: reap, so the users never linger as zombies */
            int status;
            if (wait(&status) < 0)
                sleep(MAX_THINK_MS);
        }
    }
    long failed = 0;
    for (int i = 0; i < started; i++) {
        int status;
        int pid = wait(&status);
        if (pid < 0)
            break;
        if (pid == big) {         /* the big job's loop never ends: it was killed */
            big = 0;
            i--;
            continue;
        }
        failed += FL_WIFEXITED(status) ? FL_WEXITSTATUS(status) : o.rounds;
    }
    if (big > 0) {
        int status;
        kill(-big, SIGKILL);      /* its group: the big user and its hog */
        wait_pid(big, &status, 0);
    }
    printf("FL-JSON {\"usersim\":\"done\",\"users\":%d,\"rounds\":%ld,\"scripts_run\":%ld,"
           "\"scripts_failed\":%ld}\n", started, o.rounds, started * o.rounds, failed);
    return failed ? 1 : 0;
}
