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
 *
 * sh FILE reads commands from FILE. The prompt "$ " appears only when the
 * commands come from the console, so scripted runs see just the output.
 */
#include "ulib.h"

#define LINE_MAX       512                 /* longer lines are rejected */
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

static _Noreturn void run_child(const struct command *c)
{
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

    int pid = fork();
    if (pid < 0) {
        print_err("sh: fork", pid);
        return;
    }
    if (pid == 0)
        run_child(c);

    if (c->background) {
        printf("[%d]\n", pid);
        return;
    }
    /* A command killed by a signal gets no remark: the kernel has said why. */
    int status;
    wait_pid(pid, &status, 0);
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

    static char line[LINE_MAX];
    for (;;) {
        reap_background();
        if (interactive)
            write(STDOUT_FILENO, PROMPT, sizeof PROMPT - 1);
        long n = read_line(in, line, sizeof line);
        if (n == -1)
            break;                       /* end of input */
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
