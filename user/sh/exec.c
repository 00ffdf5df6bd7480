/*
 * Running the tree. A simple command's words are expanded when it runs;
 * a builtin runs in the shell itself (its redirections are undone after
 * it), anything else in a child that execs the program. A command ending
 * in & runs in a child the shell does not wait for, whatever its kind.
 */
#include "sh.h"

#define EXEC_NOT_FOUND  127    /* exit status: no such command */
#define EXEC_FAILED     126    /* exit status: found but could not run */
#define MAX_ARGS        (FL_ARG_MAX - 1)   /* argv also needs its NULL */
#define MAX_SAVED       10     /* redirections of one builtin or compound command */

const char  *script_name;
bool         interactive;
volatile int interrupted;

static int loop_depth;
static int breaking;      /* loops still to leave (break N) */
static int continuing;    /* continue N: loops to leave, then continue the last */

void sh_report(int line, const char *fmt, ...)
{
    char msg[SH_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (script_name && line > 0)
        fprintf(STDERR_FILENO, "sh: %s: line %d: %s\n", script_name, line, msg);
    else
        fprintf(STDERR_FILENO, "sh: %s\n", msg);
}

/* Is the run of commands to stop here (break, continue, Ctrl-C)? */
static bool stopping(void)
{
    return breaking || continuing || interrupted;
}

/* ------------------------------------------------------------ redirections */

/* Makes fd `target` a copy of `fd`. Without dup2, close and dup: dup takes
 * the lowest free fd, which is target as long as the ones below are open. */
static int move_fd(int fd, int target)
{
    if (fd == target)
        return 0;
    close(target);
    int copy = dup(fd);
    if (copy == target)
        return 0;
    if (copy >= 0)
        close(copy);
    return -1;
}

struct saved_fd {
    int fd;                   /* the fd redirected */
    int copy;                 /* where its old file waits, or -1 if it was closed */
};

static void undo_redirections(struct saved_fd *save, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        if (save[i].copy >= 0) {
            move_fd(save[i].copy, save[i].fd);
            close(save[i].copy);
        } else {
            close(save[i].fd);
        }
    }
}

/* Opens the file of one redirection (or names the fd of >&); -1 if not. */
static int redirection_source(const struct redir *r, const char *word, int line)
{
    if (r->kind == R_DUP) {
        char *end;
        long v = strtol(word, &end, 10);
        if (*word == '\0' || *end != '\0' || v < 0 || v > 9) {
            sh_report(line, "%s: bad file descriptor", word);
            return -1;
        }
        return (int)v;
    }
    int flags = r->kind == R_IN ? O_RDONLY
              : r->kind == R_OUT ? O_WRONLY | O_CREAT | O_TRUNC
              : O_WRONLY | O_CREAT | O_APPEND;
    int fd = open(word, flags);
    if (fd < 0) {
        sh_report(line, "%s: %s", word, strerror(fd));
        return -1;
    }
    return fd;
}

/* Applies r's redirections, left to right. With save, each fd's old file
 * is kept there (at most MAX_SAVED) for undo_redirections; returns how
 * many, or -1 with everything already undone. */
static int apply_redirections(const struct redir *r, int line, struct saved_fd *save)
{
    int nsaved = 0;
    for (; r; r = r->next) {
        char *word = expand_one(r->word, line);
        int fd = word ? redirection_source(r, word, line) : -1;
        bool ok = fd >= 0;
        if (ok && save && nsaved == MAX_SAVED) {
            sh_report(line, "too many redirections");
            ok = false;
        }
        if (ok && save) {
            save[nsaved].fd = r->fd;
            save[nsaved].copy = dup(r->fd);
            nsaved++;
        }
        if (ok && move_fd(fd, r->fd) < 0) {
            sh_report(line, "%s: cannot redirect fd %d", word, r->fd);
            ok = false;
        }
        if (fd >= 0 && r->kind != R_DUP && fd != r->fd)
            close(fd);
        free(word);
        if (!ok) {
            if (save)
                undo_redirections(save, nsaved);
            return -1;
        }
    }
    return nsaved;
}

/* ------------------------------------------------------------ commands */

static _Noreturn void exec_program(char **argv, int line)
{
    int err = exec_command(argv[0], argv);
    if (err == -ENOENT) {
        sh_report(line, "%s: not found", argv[0]);
        exit(EXEC_NOT_FOUND);
    }
    sh_report(line, "%s: %s", argv[0], strerror(err));
    exit(EXEC_FAILED);
}

/* A builtin with its redirections, in this process. */
static int run_builtin(builtin_fn fn, int argc, char **argv, const struct node *n)
{
    struct saved_fd save[MAX_SAVED];
    int nsaved = apply_redirections(n->redirs, n->line, save);
    if (nsaved < 0)
        return 1;
    int status = fn(argc, argv);
    undo_redirections(save, nsaved);
    return status;
}

/* Starts a child for n (a program, or any command run with &). For a
 * program, argv; otherwise the child runs the node and exits. */
static int start_child(struct node *n, char **argv)
{
    struct job job = { .pgid = 0, .foreground = !n->background };
    int pid = fork();
    if (pid < 0) {
        sh_report(n->line, "fork: %s", strerror(pid));
        return 1;
    }
    if (pid == 0) {
        job_enter(&job);
        if (argv) {
            if (apply_redirections(n->redirs, n->line, NULL) < 0)
                exit(1);
            exec_program(argv, n->line);
        }
        /* a background command of any kind: this child is its shell */
        interactive = false;
        job_control = false;
        n->background = false;
        exit(exec_node(n));
    }
    job_add(&job, pid);
    if (n->background) {
        last_background = pid;
        if (interactive)
            printf("[%d]\n", pid);
        return 0;
    }
    int status = job_wait(pid);
    job_done(&job);
    return status;
}

static int exec_simple(struct node *n)
{
    const char *const *words = n->u.simple.words;
    int nassign = n->u.simple.nassign;
    for (int i = 0; i < nassign; i++) {
        const char *eq = strchr(words[i], '=');
        char name[SH_NAME_MAX];
        size_t len = (size_t)(eq - words[i]);
        if (len >= sizeof name) {
            sh_report(n->line, "%.*s: name too long", (int)len, words[i]);
            return 1;
        }
        memcpy(name, words[i], len);
        name[len] = '\0';
        char *value = expand_one(eq + 1, n->line);
        if (!value)
            return 1;
        int err = var_set(name, value);
        free(value);
        if (err < 0) {
            sh_report(n->line, "%s: cannot set (too many variables?)", name);
            return 1;
        }
    }

    char **argv;
    int argc = expand_words(words + nassign, n->u.simple.nwords - nassign, n->line, &argv);
    if (argc < 0)
        return 1;
    int status = 0;
    if (argc > MAX_ARGS) {
        sh_report(n->line, "%s: too many arguments (max %d)", argv[0], MAX_ARGS);
        status = 1;
    } else if (argc == 0) {
        /* only assignments or redirections: files are created, as in sh */
        struct saved_fd save[MAX_SAVED];
        int nsaved = apply_redirections(n->redirs, n->line, save);
        if (nsaved < 0)
            status = 1;
        else
            undo_redirections(save, nsaved);
    } else {
        builtin_fn fn = builtin_find(argv[0]);
        if (fn && !n->background)
            status = run_builtin(fn, argc, argv, n);
        else if (fn)
            status = start_child(n, NULL);    /* the child runs the builtin */
        else
            status = start_child(n, argv);
    }
    free(argv);
    return status;
}

/* After a loop's body: true if the loop is to end. */
static bool loop_ends(void)
{
    if (interrupted)
        return true;
    if (breaking) {
        breaking--;
        return true;
    }
    if (continuing) {
        if (--continuing > 0)
            return true;      /* an outer loop is to continue */
    }
    return false;
}

static int exec_loop(struct node *n)
{
    int status = 0;
    loop_depth++;
    for (;;) {
        int c = exec_node(n->u.loop.cond);
        if (stopping()) {
            loop_ends();
            break;
        }
        if ((c == 0) != (n->kind == N_WHILE))
            break;
        status = exec_node(n->u.loop.body);
        if (loop_ends())
            break;
    }
    loop_depth--;
    return status;
}

static int exec_for(struct node *n)
{
    char **fields;
    int count;
    if (n->u.each.words) {
        count = expand_words(n->u.each.words, n->u.each.nwords, n->line, &fields);
    } else {
        static const char *const ALL_ARGS[] = { "\"$@\"" };
        count = expand_words(ALL_ARGS, 1, n->line, &fields);
    }
    if (count < 0)
        return 1;
    int status = 0;
    loop_depth++;
    for (int i = 0; i < count; i++) {
        if (var_set(n->u.each.name, fields[i]) < 0) {
            sh_report(n->line, "%s: cannot set", n->u.each.name);
            status = 1;
            break;
        }
        status = exec_node(n->u.each.body);
        if (loop_ends())
            break;
    }
    loop_depth--;
    free(fields);
    return status;
}

/* The node itself, in the foreground, without its redirections. */
static int exec_inner(struct node *n)
{
    int status = 0;
    switch (n->kind) {
    case N_SIMPLE:
        return exec_simple(n);
    case N_LIST:
        for (int i = 0; i < n->u.list.n && !stopping(); i++)
            status = exec_node(n->u.list.items[i]);
        return status;
    case N_AND:
    case N_OR:
        status = exec_node(n->u.pair.left);
        if (!stopping() && (status == 0) == (n->kind == N_AND))
            status = exec_node(n->u.pair.right);
        return status;
    case N_NOT:
        return exec_node(n->u.negated) == 0;
    case N_IF: {
        int c = exec_node(n->u.cond.cond);
        if (stopping())
            return c;
        if (c == 0)
            return exec_node(n->u.cond.then);
        return n->u.cond.otherwise ? exec_node(n->u.cond.otherwise) : 0;
    }
    case N_WHILE:
    case N_UNTIL:
        return exec_loop(n);
    case N_FOR:
        return exec_for(n);
    }
    return 0;
}

int exec_node(struct node *n)
{
    int status;
    if (n->background && n->kind != N_SIMPLE) {
        status = start_child(n, NULL);
    } else if (n->kind == N_SIMPLE || !n->redirs) {
        status = exec_inner(n);
    } else {
        struct saved_fd save[MAX_SAVED];
        int nsaved = apply_redirections(n->redirs, n->line, save);
        if (nsaved < 0) {
            status = 1;
        } else {
            status = exec_inner(n);
            undo_redirections(save, nsaved);
        }
    }
    last_status = status;
    return status;
}

/* ------------------------------------------------------------ break, continue */

/* break [N] and continue [N]: how many loops, checked. */
static int loop_count(int argc, char **argv, int *count)
{
    *count = 1;
    if (argc > 1) {
        char *end;
        long v = strtol(argv[1], &end, 10);
        if (*end || v < 1) {
            fprintf(STDERR_FILENO, "sh: %s: %s: bad loop count\n", argv[0], argv[1]);
            return 1;
        }
        *count = v > loop_depth ? loop_depth : (int)v;
    }
    if (loop_depth == 0) {
        fprintf(STDERR_FILENO, "sh: %s: only meaningful in a loop\n", argv[0]);
        return 1;
    }
    return 0;
}

int builtin_break(int argc, char **argv)
{
    int n;
    if (loop_count(argc, argv, &n))
        return 1;
    breaking = n;
    return 0;
}

int builtin_continue(int argc, char **argv)
{
    int n;
    if (loop_count(argc, argv, &n))
        return 1;
    continuing = n;
    return 0;
}
