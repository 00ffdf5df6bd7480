/*
 * help: the builtins, then every program in the initrd with its line.
 */
#include "sh.h"

/* One line about every program the initrd may hold, and every builtin.
 * help lists the programs it finds in the initrd (so the list cannot go
 * stale), each with its line from here; tests check that none lacks one. */
static const struct {
    const char *name;
    const char *what;
} descriptions[] = {
    { "as",          "as [-o OUT] FILE.s...: assemble into a program (cc's last pass)" },
    { "badelf",      "a damaged ELF file: exec must refuse it (for tests)" },
    { "bigimage",    "a 32 MiB bss: exec must refuse it when memory cannot hold it" },
    { "c0",          "c0 FILE.c OUT.tree: cc's first pass (parse, check)" },
    { "c1",          "c1 IN.tree OUT.s: cc's second pass (code generation)" },
    { "cat",         "cat [FILE...]: copy files, or stdin, to stdout" },
    { "cc",          "cc [-v] [-S] [-o OUT] FILE.c: compile a small C subset" },
    { "cpubound",    "the CPU-bound task: 100,000 runs of 9 integer statements; prints a checksum" },
    { "echo",        "echo ARGS...: print the arguments" },
    { "exectests",   "in-guest tests of exec from ram files" },
    { "faultnull",   "dereference NULL, to see the kernel's kill message" },
    { "fuzz",        "fuzz [-s SEED] [-n CALLS] [-c CHILDREN]: random system calls" },
    { "getpidbench", "the cost of getpid in instructions and cycles (FL-JSON)" },
    { "halt",        "halt [CODE]: power off; QEMU exits with CODE" },
    { "hog",         "hog [-p N] [-m KIB] [-r R] [-s] [-f]: memory-hog workload" },
    { "illegal",     "execute an illegal instruction, to see the kill message" },
    { "init",        "the first process: keeps a shell running, reaps orphans" },
    { "kill",        "kill [-SIG] PID|-PGID...: send a signal (default TERM)" },
    { "lat",         "microbenchmarks of system calls, faults and signals" },
    { "login",       "login NAME CMD...: run CMD as user NAME in a login session of its own" },
    { "ls",          "ls [NAME...]: list files with type and size" },
    { "man",         "man [SECTION] NAME: show a manual page" },
    { "nroff",       "nroff [-man] [FILE...]: format text for the terminal" },
    { "pgtests",     "in-guest tests of process groups and the console" },
    { "ps",          "one line per process" },
    { "racetests",   "in-guest tests of races between system calls" },
    { "sh",          "sh [FILE [ARGS...]]: this shell; man sh for its language" },
    { "sigposix",    "in-guest tests of sigsuspend, sigaltstack, sigtimedwait..." },
    { "sigtests",    "in-guest tests of signals" },
    { "sleep",       "sleep MS: wait MS milliseconds" },
    { "spin",        "spin [-d DUTY] [MS]: burn CPU (DUTY% of each 20 ms) for MS ms, or forever" },
    { "threads",     "threads [N]: run N pinned threads, report their harts" },
    { "time",        "time CMD...: run CMD, report real, user and sys time" },
    { "trace",       "trace [-a] PROG ARGS: print PROG's system calls" },
    { "true",        "/true: exit 0 at once (the builtin true answers first)" },
    { "ulftests",    "in-guest tests of user-level fault handlers" },
    { "upager",      "upager [-a] [-f FRAMES] [-p fifo|clock|lru] PROG ARGS: user-level pager" },
    { "uptime",      "time since boot, processes, free frames" },
    { "usersim",     "usersim [-n N] [-s SEED] [-t MS] [-r R] [-b KIB] SCRIPT...: simulated users" },
    { "usertests",   "in-guest tests of the system calls" },
    { "vmstat",      "vmstat [-j] [N]: memory-manager counters" },
    { "who",         "who [-c]: users logged in and their processes (-c: counts)" },
};
#define NO_DESCRIPTION "(no description)"

static const char *describe(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(descriptions); i++)
        if (strcmp(descriptions[i].name, name) == 0)
            return descriptions[i].what;
    return NO_DESCRIPTION;
}

static const char ELF_MAGIC[4] = { 0x7f, 'E', 'L', 'F' };

/* An initrd file that starts like an ELF executable. */
static bool is_program(const struct fl_dirent *d)
{
    if (d->type != FL_T_FILE || !(d->flags & FL_STAT_READONLY))
        return false;
    int fd = open(d->name, O_RDONLY);
    if (fd < 0)
        return false;
    char head[sizeof ELF_MAGIC];
    long n = read(fd, head, sizeof head);
    close(fd);
    return n == (long)sizeof head && memcmp(head, ELF_MAGIC, sizeof head) == 0;
}

#define HELP_NAME_WIDTH 12

/* The builtins (builtin.c), for help. */
static const struct {
    const char *name;
    const char *what;
} builtin_lines[] = {
    { ":",        ": [ARGS]: do nothing, successfully" },
    { "[",        "[ EXPR ]: test EXPR" },
    { "break",    "break [N]: leave the innermost N loops" },
    { "continue", "continue [N]: next round of the Nth enclosing loop" },
    { "exit",     "exit [N]: leave the shell with status N ($?)" },
    { "false",    "false: fail (status 1)" },
    { "help",     "this list" },
    { "read",     "read NAME...: read a line from stdin into variables" },
    { "shift",    "shift [N]: drop the first N script arguments (1)" },
    { "test",     "test EXPR: -eq -ne -lt -le -gt -ge = != -z -n -f -e -d ! -a -o" },
    { "true",     "true: succeed (status 0)" },
    { "wait",     "wait [PID]: wait for a background job, or for all" },
};

void help(void)
{
    printf("Built into the shell:\n");
    for (size_t i = 0; i < ARRAY_SIZE(builtin_lines); i++)
        printf("  %-*s %s\n", HELP_NAME_WIDTH, builtin_lines[i].name, builtin_lines[i].what);
    printf("Programs in the initrd:\n");
    struct fl_dirent d;
    int r;
    for (unsigned long i = 0; (r = readdir(i, &d)) > 0; i++) {
        d.name[sizeof d.name - 1] = '\0';
        if (is_program(&d))
            printf("  %-*s %s\n", HELP_NAME_WIDTH, d.name, describe(d.name));
    }
    if (r < 0)
        print_err("help: readdir", r);
    printf("Syntax: cmd args; cmd &; cmd < in > out >> log 2> err 2>&1; a ; b; a && b; a || b;\n"
           "    \"one $VAR word\" 'no $expansion'; # comment; X=1; $X ${X} $? $$ $# $1 $@ $((X+1)) $(cmd);\n"
           "    if C; then A; elif C; then B; else D; fi; while C; do A; done; for X in W...; do A; done\n"
           "    (man sh for the whole language)\n");
    printf("Keys: Ctrl-C interrupts the foreground job, Ctrl-\\ quits it, "
           "Ctrl-U erases the line, Ctrl-D ends input\n");
}

