/*
 * sh: the shell, a small subset of the Bourne shell.
 *
 *   sh             commands from the console, with a "$ " prompt ("> " while
 *                  an if, a loop or a quote... is unfinished) and job control
 *   sh FILE ARGS   commands from FILE; $0 is FILE, $1... are ARGS
 *   sh -c CMDS [NAME ARGS]   the commands in the argument CMDS; $0 is NAME
 *
 * The language (man sh says it all, with examples):
 *
 *   cmd args...          run /cmd and wait for it; $? is its exit status
 *                        (127: not found, 128+N: killed by signal N)
 *   cmd &                run it in the background: "[pid]" at the console;
 *                        $! is its pid; "[pid] done status N" before a later
 *                        prompt (at the console; a script uses wait)
 *   a ; b   a && b   a || b   ! a
 *   < f  > f  >> f  N> f  N>> f  N< f  N>&M  N<&M    (N, M: one digit)
 *   NAME=value           set a variable (several may follow each other)
 *   $NAME ${NAME} $? $$ $# $! $0..$9 $@ $* $RANDOM $((arith)) $(command)
 *   "..." expands $ inside, '...' nothing, \c quotes c; unquoted
 *   expansions are split at blanks; no globbing
 *   if LIST; then LIST; [elif LIST; then LIST;]... [else LIST;] fi
 *   while LIST; do LIST; done      until LIST; do LIST; done
 *   for NAME [in WORDS]; do LIST; done       break [N]  continue [N]
 *   (newlines may stand for the ';'s, and an if or loop may take many lines;
 *   redirections after fi or done apply to the whole command)
 *   # comment            to the end of the line
 *   builtins: : true false exit [N] test/[ shift read wait break continue help
 *
 * Not there: pipes (the kernel has none), subshells ( ), functions, case,
 * globbing, an environment for programs (variables stay in the shell).
 *
 * A syntax error names the line (in a script) and the token, and ends a
 * script with status 2; at the console the line is dropped.
 */
#include "sh.h"

#define LINE_MAX        FL_CONSOLE_LINE_MAX   /* longer lines are rejected */
#define TEXT_MAX        (64 * 1024)           /* one command's lines, together */
#define SYNTAX_STATUS   2                     /* $? after a syntax error */
#define READ_CHUNK      512
#define PROMPT          "$ "
#define PROMPT_MORE     "> "

_Noreturn void sh_out_of_memory(void)
{
    die("sh: out of memory");
}

/* ------------------------------------------------------------ input */

/* A script is read in chunks (read_line's byte at a time would cost a
 * system call per byte); the console a line at a time, so that what is
 * typed ahead stays for the commands that read it. */
struct input {
    int  fd;
    bool console;
    char buf[READ_CHUNK];
    int  pos, len;
    bool eof;
};

/* As read_line: the line's length (over size-1 if cut), -1 at the end, or -errno. */
static long input_line(struct input *in, char *line, size_t size)
{
    if (in->console)
        return read_line(in->fd, line, size);
    size_t len = 0, full = 0;
    bool got_any = false;
    for (;;) {
        if (in->pos == in->len) {
            if (in->eof)
                break;
            long n = read(in->fd, in->buf, sizeof in->buf);
            if (n < 0)
                return n;
            if (n == 0) {
                in->eof = true;
                break;
            }
            in->pos = 0;
            in->len = (int)n;
        }
        char c = in->buf[in->pos++];
        got_any = true;
        if (c == '\n')
            break;
        full++;
        if (len + 1 < size)
            line[len++] = c;
    }
    line[len] = '\0';
    return got_any ? (long)full : -1;
}

/* ------------------------------------------------------------ commands */

/* The text being gathered: lines until they make complete commands. */
static char  *text;
static size_t text_len;
static int    text_first_line;

static bool append_line(const char *line, size_t n)
{
    if (text_len + n + 2 > TEXT_MAX)
        return false;
    if (!text) {
        text = malloc(TEXT_MAX);
        if (!text)
            sh_out_of_memory();
    }
    memcpy(text + text_len, line, n);
    text_len += n;
    text[text_len++] = '\n';
    text[text_len] = '\0';
    return true;
}

/* A line ending in an unquoted backslash goes on in the next one. */
static bool continues(const char *line, size_t n)
{
    size_t slashes = 0;
    while (slashes < n && line[n - 1 - slashes] == '\\')
        slashes++;
    return slashes % 2 == 1;
}

enum outcome { RAN, INCOMPLETE, SYNTAX_ERROR };

/* Parses the text gathered and runs it, unless it is unfinished. */
static enum outcome run_text(bool at_end)
{
    arena_reset();
    struct sh_error err = { .line = 0 };
    struct token *tokens;
    struct node *tree = NULL;
    if (lex(text, text_first_line, &tokens, &err) >= 0)
        tree = parse(tokens, &err);
    if (!tree) {
        if (err.incomplete && !at_end)
            return INCOMPLETE;
        sh_report(err.line, "%s", err.msg);
        last_status = SYNTAX_STATUS;
        return SYNTAX_ERROR;
    }
    interrupted = 0;
    exec_node(tree);
    return RAN;
}

int main(int argc, char *argv[])
{
    static struct input in = { .fd = STDIN_FILENO };
    static char *default_args[] = { "sh", NULL };
    if (argc > 1 && strcmp(argv[1], "-c") == 0) {
        if (argc < 3)
            die("usage: sh -c COMMANDS [NAME [ARGS...]]");
        script_name = "-c";
        if (argc > 3)
            args_set(argc - 3, argv + 3);
        else
            args_set(1, default_args);
        size_t n = strlen(argv[2]);
        if (!append_line(argv[2], n))
            die("sh: -c: command too long (max %d bytes)", TEXT_MAX);
        text_first_line = 1;
        return run_text(true) == SYNTAX_ERROR ? SYNTAX_STATUS : last_status;
    }
    if (argc > 1) {
        script_name = argv[1];
        in.fd = open(argv[1], O_RDONLY);
        if (in.fd < 0)
            die("sh: %s: %s", argv[1], strerror(in.fd));
        args_set(argc - 1, argv + 1);
    } else {
        args_set(1, default_args);
    }
    struct fl_stat st;
    in.console = fstat(in.fd, &st) == 0 && st.type == FL_T_DEV;
    interactive = in.fd == STDIN_FILENO && in.console;
    if (interactive)
        job_control_start();

    static char line[LINE_MAX];
    int lineno = 0;
    text_first_line = 1;
    for (;;) {
        if (interactive) {
            if (text_len == 0)
                jobs_reap();
            const char *prompt = text_len ? PROMPT_MORE : PROMPT;
            write(STDOUT_FILENO, prompt, strlen(prompt));
        }
        long n = input_line(&in, line, sizeof line);
        if (n == -EINTR) {                   /* Ctrl-C: the lines are abandoned */
            text_len = 0;
            continue;
        }
        if (n < -1)
            die("sh: read: %s", strerror((int)n));
        if (n == -1) {                       /* end of input */
            if (text_len && run_text(true) == SYNTAX_ERROR && !interactive)
                exit(SYNTAX_STATUS);
            break;
        }
        lineno++;
        if (text_len == 0)
            text_first_line = lineno;
        if (n >= (long)sizeof line) {
            sh_report(lineno, "line too long (max %d)", LINE_MAX - 1);
            if (!interactive)
                exit(SYNTAX_STATUS);
            text_len = 0;
            continue;
        }
        if (!append_line(line, (size_t)n)) {
            sh_report(lineno, "command too long (max %d bytes)", TEXT_MAX);
            if (!interactive)
                exit(SYNTAX_STATUS);
            text_len = 0;
            continue;
        }
        if (continues(line, (size_t)n))
            continue;
        enum outcome o = run_text(false);
        if (o == INCOMPLETE)
            continue;
        text_len = 0;
        if (o == SYNTAX_ERROR && !interactive)
            exit(SYNTAX_STATUS);
    }
    return last_status;
}
