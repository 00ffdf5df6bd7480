/*
 * sh: the shell.
 *
 *   cmd args...          run /cmd and wait for it
 *   cmd args... &        run it in the background: prints "[pid]"; when it
 *                        ends, "[pid] done status N" before a later prompt;
 *                        like ';', '&' may be followed by another command
 *   cmd < in > out       redirect stdin / stdout (out is created or truncated)
 *   a ; b                run a, then b
 *   "a b"                one word with a space in it
 *   # ...                comment to the end of the line
 *   exit [N]             leave the shell
 *   help                 list the commands
 *
 * sh FILE reads commands from FILE. The prompt "$ " appears only when the
 * commands come from the console, so scripted runs see just the output.
 *
 * Jobs: every command is a job, and every job is a process group named
 * after its first process (a later pipeline's processes would all join
 * that group). A background job always runs in its own group, so Ctrl-C
 * (which the console sends to the foreground group) does not reach it.
 * At the console the shell also does job control: it leads a group of its
 * own, makes each foreground job's group the console's foreground group
 * while it runs and takes the console back afterwards, and catches SIGINT
 * and SIGQUIT for itself: a Ctrl-C at the prompt abandons the line and
 * prompts again. (The console echoes "^C" and a line end itself.)
 */
#include "ulib.h"

#define LINE_MAX       FL_CONSOLE_LINE_MAX /* longer lines are rejected; the console
                                              edits lines just as long */
#define MAX_TOKENS     (LINE_MAX + 1)      /* every token uses a byte, plus the end */
#define MAX_COMMANDS   32
#define MAX_WORDS      (FL_ARG_MAX - 1)    /* argv also needs its NULL */
#define EXEC_FAILED    127                 /* exit status: the command could not run */
#define PROMPT         "$ "

enum token_kind { T_WORD, T_IN, T_OUT, T_BACKGROUND, T_SEPARATOR, T_END };

struct token {
    enum token_kind kind;
    char           *word;   /* T_WORD only */
};

struct command {
    char       *argv[MAX_WORDS + 1];
    int         argc;
    const char *input;        /* < file, or NULL */
    const char *output;       /* > file, or NULL */
    bool        background;
};

/* Parser state: static because a line's words must outlive tokenizing,
 * and a shell runs one line at a time. */
static char           word_store[2 * LINE_MAX];   /* a word is at most its text plus NUL */
static struct token   tokens[MAX_TOKENS];
static struct command commands[MAX_COMMANDS];

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool is_operator(char c)
{
    return c == '<' || c == '>' || c == '&' || c == ';';
}

static enum token_kind operator_kind(char c)
{
    switch (c) {
    case '<': return T_IN;
    case '>': return T_OUT;
    case '&': return T_BACKGROUND;
    default:  return T_SEPARATOR;
    }
}

static int syntax_error(const char *what)
{
    fprintf(STDERR_FILENO, "sh: %s\n", what);
    return -1;
}

/* Splits line into tokens; quotes group blanks and operators into a word
 * and are themselves dropped. Returns the token count or -1. */
static int tokenize(const char *line)
{
    int n = 0;
    char *store = word_store;
    const char *p = line;
    for (;;) {
        while (is_blank(*p))
            p++;
        if (*p == '\0' || *p == '#')
            break;
        if (is_operator(*p)) {
            tokens[n++] = (struct token){ .kind = operator_kind(*p++) };
            continue;
        }
        tokens[n++] = (struct token){ .kind = T_WORD, .word = store };
        bool quoted = false;
        for (; *p; p++) {
            if (*p == '"') {
                quoted = !quoted;
                continue;
            }
            if (!quoted && (is_blank(*p) || is_operator(*p)))
                break;
            *store++ = *p;
        }
        if (quoted)
            return syntax_error("unterminated quote");
        *store++ = '\0';
    }
    tokens[n++] = (struct token){ .kind = T_END };
    return n;
}

/* Groups tokens into commands. Returns the command count or -1. */
static int parse(void)
{
    int ncommands = 0;
    const struct token *t = tokens;
    while (t->kind != T_END) {
        if (ncommands == MAX_COMMANDS)
            return syntax_error("too many commands on one line");
        struct command *c = &commands[ncommands];
        *c = (struct command){ .argc = 0 };

        for (; t->kind != T_SEPARATOR && t->kind != T_END; t++) {
            switch (t->kind) {
            case T_WORD:
                if (c->argc == MAX_WORDS)
                    return syntax_error("too many arguments");
                c->argv[c->argc++] = t->word;
                break;
            case T_IN:
            case T_OUT:
                if (t[1].kind != T_WORD)
                    return syntax_error(t->kind == T_IN ? "< needs a file name"
                                                        : "> needs a file name");
                if (t->kind == T_IN)
                    c->input = t[1].word;
                else
                    c->output = t[1].word;
                t++;
                break;
            case T_BACKGROUND:   /* ends the command, like ';' */
                c->background = true;
                break;
            default:
                break;
            }
            if (c->background)
                break;
        }
        c->argv[c->argc] = NULL;

        if (c->argc > 0)
            ncommands++;
        else if (c->input || c->output || c->background)
            return syntax_error("missing command");
        if (t->kind == T_SEPARATOR || t->kind == T_BACKGROUND)
            t++;
    }
    return ncommands;
}

/* Makes `target` refer to path opened with flags. */
static int redirect(const char *path, int flags, int target)
{
    int fd = open(path, flags);
    if (fd < 0) {
        fprintf(STDERR_FILENO, "sh: %s: %s\n", path, strerror(fd));
        return -1;
    }
    if (fd == target)
        return 0;
    close(target);
    int copy = dup(fd);   /* dup takes the lowest free fd: target, just closed */
    close(fd);
    if (copy != target) {
        fprintf(STDERR_FILENO, "sh: %s: cannot redirect to fd %d\n", path, target);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ help */

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
    { "ls",          "ls [NAME...]: list files with type and size" },
    { "man",         "man [SECTION] NAME: show a manual page" },
    { "nroff",       "nroff [-man] [FILE...]: format text for the terminal" },
    { "pgtests",     "in-guest tests of process groups and the console" },
    { "ps",          "one line per process" },
    { "racetests",   "in-guest tests of races between system calls" },
    { "sh",          "sh [FILE]: this shell" },
    { "sigposix",    "in-guest tests of sigsuspend, sigaltstack, sigtimedwait..." },
    { "sigtests",    "in-guest tests of signals" },
    { "sleep",       "sleep MS: wait MS milliseconds" },
    { "spin",        "spin [-d DUTY] [MS]: burn CPU (DUTY% of each 20 ms) for MS ms, or forever" },
    { "threads",     "threads [N]: run N pinned threads, report their harts" },
    { "time",        "time CMD...: run CMD, report real, user and sys time" },
    { "trace",       "trace [-a] PROG ARGS: print PROG's system calls" },
    { "ulftests",    "in-guest tests of user-level fault handlers" },
    { "upager",      "upager [-a] [-f FRAMES] [-p fifo|clock|lru] PROG ARGS: user-level pager" },
    { "uptime",      "time since boot, processes, free frames" },
    { "usersim",     "usersim [-n N] [-s SEED] [-t MS] [-r R] [-b KIB] SCRIPT...: simulated users" },
    { "usertests",   "in-guest tests of the system calls" },
    { "vmstat",      "vmstat [-j] [N]: memory-manager counters" },
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

static void help(void)
{
    printf("Built into the shell:\n");
    printf("  %-*s %s\n", HELP_NAME_WIDTH, "exit", "exit [N]: leave the shell with status N (0)");
    printf("  %-*s %s\n", HELP_NAME_WIDTH, "help", "this list");
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
    printf("Syntax: cmd args; cmd &; cmd < in > out; a ; b; \"one word\"; # comment\n");
    printf("Keys: Ctrl-C interrupts the foreground job, Ctrl-\\ quits it, "
           "Ctrl-U erases the line, Ctrl-D ends input\n");
}

/* ------------------------------------------------------------------ jobs */

static bool job_control;      /* at the console: groups, foreground, Ctrl-C */
static int  shell_pgid;

/* A job is a process group named after its first process; every later
 * process of the job (a pipeline's, one day) joins that group. Both the
 * parent and the child set the group, so it is in place before the child
 * runs the command and before the parent hands it the console, whichever
 * gets there first. */
struct job {
    int  pgid;                /* 0 until the first process exists */
    bool foreground;
};

/* Does nothing: being caught is enough, it interrupts the read at the
 * prompt (and exec resets it to the default for the commands). */
static void on_interrupt(int sig, uint64_t addr, struct fl_sigframe *frame)
{
    (void)sig; (void)addr; (void)frame;
}

/* In the child, right after fork. */
static void job_enter(const struct job *j)
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

/* In the parent, for each process it started. Errors are expected when
 * the child got there first (or already ended) and are ignored. */
static void job_add(struct job *j, int pid)
{
    if (!job_control && j->foreground)
        return;
    if (j->pgid == 0)
        j->pgid = pid;
    setpgid(pid, j->pgid);
    if (job_control && j->foreground)
        tcsetpgrp(STDIN_FILENO, j->pgid);
}

/* The foreground job is over: the shell reads the console again. */
static void job_done(const struct job *j)
{
    if (job_control && j->foreground)
        tcsetpgrp(STDIN_FILENO, shell_pgid);
}

static void job_control_start(void)
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

/* ------------------------------------------------------------------ running */

static _Noreturn void run_child(const struct command *c, const struct job *j)
{
    job_enter(j);
    if (c->input && redirect(c->input, O_RDONLY, STDIN_FILENO) < 0)
        exit(1);
    if (c->output && redirect(c->output, O_WRONLY | O_CREAT | O_TRUNC, STDOUT_FILENO) < 0)
        exit(1);
    int err = exec_command(c->argv[0], c->argv);
    if (err == -ENOENT)
        fprintf(STDERR_FILENO, "sh: %s: not found\n", c->argv[0]);
    else
        fprintf(STDERR_FILENO, "sh: %s: %s\n", c->argv[0], strerror(err));
    exit(EXEC_FAILED);
}

static void run(const struct command *c)
{
    if (strcmp(c->argv[0], "exit") == 0)
        exit(c->argc > 1 ? atoi(c->argv[1]) : 0);
    if (strcmp(c->argv[0], "help") == 0) {
        help();
        return;
    }

    struct job job = { .pgid = 0, .foreground = !c->background };
    int pid = fork();
    if (pid < 0) {
        print_err("sh: fork", pid);
        return;
    }
    if (pid == 0)
        run_child(c, &job);
    job_add(&job, pid);

    if (c->background) {
        printf("[%d]\n", pid);
        return;
    }
    /* A command killed by a signal gets no remark: the kernel has said why
     * (a fault), or the user has (Ctrl-C, kill). */
    int status;
    while (wait_pid(pid, &status, 0) == -EINTR)
        ;                     /* a signal for the shell itself: keep waiting */
    job_done(&job);
}

static void run_line(const char *line)
{
    if (tokenize(line) < 0)
        return;
    int n = parse();
    for (int i = 0; i < n; i++)
        run(&commands[i]);
}

/* Reports background commands that have ended. The foreground command
 * has always been waited for by now, so every child found here ran in the
 * background. */
static void reap_background(void)
{
    int status, pid;
    while ((pid = wait_pid(-1, &status, WNOHANG)) > 0) {
        if (FL_WIFEXITED(status))
            printf("[%d] done status %d\n", pid, FL_WEXITSTATUS(status));
        else
            printf("[%d] done signal %d\n", pid, FL_WTERMSIG(status));
    }
}

int main(int argc, char *argv[])
{
    int in = STDIN_FILENO;
    if (argc > 1) {
        in = open(argv[1], O_RDONLY);
        if (in < 0)
            die("sh: %s: %s", argv[1], strerror(in));
    }
    struct fl_stat st;
    bool interactive = in == STDIN_FILENO && fstat(in, &st) == 0 && st.type == FL_T_DEV;
    if (interactive)
        job_control_start();

    static char line[LINE_MAX];
    for (;;) {
        reap_background();
        if (interactive)
            write(STDOUT_FILENO, PROMPT, sizeof PROMPT - 1);
        long n = read_line(in, line, sizeof line);
        if (n == -1)
            break;                       /* end of input */
        if (n == -EINTR)
            continue;                    /* Ctrl-C: the line is abandoned */
        if (n < 0)
            die("sh: read: %s", strerror((int)n));
        if (n >= (long)sizeof line) {
            fprintf(STDERR_FILENO, "sh: line too long (max %d)\n", LINE_MAX - 1);
            continue;
        }
        run_line(line);
    }
    return 0;
}
