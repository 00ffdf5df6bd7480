/*
 * The builtins: the commands that must change the shell itself (exit,
 * break, shift, read...) and test, which scripts run too often to pay a
 * fork and an exec each time.
 */
#include "sh.h"

#define TEST_TRUE   0
#define TEST_FALSE  1
#define TEST_ERROR  2
#define READ_MAX    FL_CONSOLE_LINE_MAX

/* ------------------------------------------------------------ test, [ */

struct test {
    char **argv;
    int    argc, i;
    bool   failed;
};

static int test_fail(struct test *t, const char *fmt, const char *what)
{
    if (!t->failed) {
        fprintf(STDERR_FILENO, "test: ");
        fprintf(STDERR_FILENO, fmt, what);
        fprintf(STDERR_FILENO, "\n");
    }
    t->failed = true;
    return false;
}

static bool integer(struct test *t, const char *s, long *v)
{
    char *end;
    const char *p = s;
    while (isspace(*p))
        p++;
    *v = strtol(p, &end, 10);
    if (end == p || *end != '\0')
        return test_fail(t, "%s: integer expected", s);
    return true;
}

static const char *const INT_OPS[] = { "-eq", "-ne", "-lt", "-le", "-gt", "-ge" };

static int int_op(const char *op)
{
    for (size_t i = 0; i < ARRAY_SIZE(INT_OPS); i++)
        if (strcmp(op, INT_OPS[i]) == 0)
            return (int)i;
    return -1;
}

static bool is_binary(const char *op)
{
    return int_op(op) >= 0 || strcmp(op, "=") == 0 || strcmp(op, "!=") == 0;
}

/* -f: a file; -e: anything that opens; -d: a directory. */
static bool file_test(char op, const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    struct fl_stat st;
    int err = fstat(fd, &st);
    close(fd);
    if (err < 0)
        return false;
    return op == 'e' || (op == 'f' ? st.type == FL_T_FILE : st.type == FL_T_DIR);
}

static bool test_or(struct test *t);

static const char *next_arg(struct test *t)
{
    return t->i < t->argc ? t->argv[t->i] : NULL;
}

static bool test_primary(struct test *t)
{
    const char *a = next_arg(t);
    if (!a)
        return test_fail(t, "argument expected%s", "");
    if (strcmp(a, "!") == 0) {
        t->i++;
        return !test_primary(t);
    }
    if (strcmp(a, "(") == 0) {
        t->i++;
        bool v = test_or(t);
        if (!next_arg(t) || strcmp(next_arg(t), ")") != 0)
            return test_fail(t, "missing `)'%s", "");
        t->i++;
        return v;
    }
    /* A binary operator after this word makes it an operand, even if it
     * looks like a unary operator itself: [ -n = -n ] compares. */
    if (t->i + 1 < t->argc && is_binary(t->argv[t->i + 1])) {
        const char *op = t->argv[t->i + 1];
        if (t->i + 2 >= t->argc)
            return test_fail(t, "%s: argument expected", op);
        const char *b = t->argv[t->i + 2];
        t->i += 3;
        if (strcmp(op, "=") == 0)
            return strcmp(a, b) == 0;
        if (strcmp(op, "!=") == 0)
            return strcmp(a, b) != 0;
        long x, y;
        if (!integer(t, a, &x) || !integer(t, b, &y))
            return false;
        switch (int_op(op)) {
        case 0:  return x == y;
        case 1:  return x != y;
        case 2:  return x < y;
        case 3:  return x <= y;
        case 4:  return x > y;
        default: return x >= y;
        }
    }
    if (a[0] == '-' && a[1] && !a[2] && strchr("znfed", a[1]) && t->i + 1 < t->argc) {
        const char *b = t->argv[t->i + 1];
        t->i += 2;
        switch (a[1]) {
        case 'z': return b[0] == '\0';
        case 'n': return b[0] != '\0';
        default:  return file_test(a[1], b);
        }
    }
    t->i++;
    return a[0] != '\0';      /* one word: true if not empty */
}

static bool test_and(struct test *t)
{
    bool v = test_primary(t);
    while (next_arg(t) && strcmp(next_arg(t), "-a") == 0) {
        t->i++;
        bool w = test_primary(t);
        v = v && w;
    }
    return v;
}

static bool test_or(struct test *t)
{
    bool v = test_and(t);
    while (next_arg(t) && strcmp(next_arg(t), "-o") == 0) {
        t->i++;
        bool w = test_and(t);
        v = v || w;
    }
    return v;
}

int builtin_test(int argc, char **argv)
{
    if (strcmp(argv[0], "[") == 0) {
        if (strcmp(argv[argc - 1], "]") != 0) {
            fprintf(STDERR_FILENO, "[: missing `]'\n");
            return TEST_ERROR;
        }
        argc--;
    }
    struct test t = { .argv = argv + 1, .argc = argc - 1 };
    if (t.argc == 0)
        return TEST_FALSE;
    bool v = test_or(&t);
    if (!t.failed && t.i < t.argc)
        test_fail(&t, "%s: unexpected operator", t.argv[t.i]);
    return t.failed ? TEST_ERROR : v ? TEST_TRUE : TEST_FALSE;
}

/* ------------------------------------------------------------ the others */

static int builtin_true(int argc, char **argv)
{
    (void)argc; (void)argv;
    return 0;
}

static int builtin_false(int argc, char **argv)
{
    (void)argc; (void)argv;
    return 1;
}

static int builtin_exit(int argc, char **argv)
{
    exit(argc > 1 ? atoi(argv[1]) : last_status);
}

static int builtin_help(int argc, char **argv)
{
    (void)argc; (void)argv;
    help();
    return 0;
}

static int builtin_shift(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1;
    if (args_shift(n) < 0) {
        fprintf(STDERR_FILENO, "sh: shift: %s: more than the %d arguments\n",
                argc > 1 ? argv[1] : "1", args_count());
        return 1;
    }
    return 0;
}

/* read NAME...: one line from stdin, split at blanks; the last name gets
 * the rest of the line. Status 1 at end of input. */
static int builtin_read(int argc, char **argv)
{
    static char line[READ_MAX];
    long n = read_line(STDIN_FILENO, line, sizeof line);
    if (n < 0)
        return 1;
    char *p = line;
    for (int i = 1; i < argc; i++) {
        while (*p == ' ' || *p == '\t')
            p++;
        char *word = p;
        if (i < argc - 1) {
            while (*p && *p != ' ' && *p != '\t')
                p++;
            if (*p)
                *p++ = '\0';
        } else {   /* the rest, trailing blanks dropped */
            char *end = p + strlen(p);
            while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
                end--;
            *end = '\0';
        }
        if (var_set(argv[i], word) < 0) {
            fprintf(STDERR_FILENO, "sh: read: %s: bad variable name\n", argv[i]);
            return 2;
        }
    }
    return 0;
}

/* wait [PID]: for one background job, or for all of them. */
static int builtin_wait(int argc, char **argv)
{
    if (argc > 1) {
        int pid = atoi(argv[1]);
        int status;
        int r;
        while ((r = wait_pid(pid, &status, 0)) == -EINTR && !interrupted)
            ;                 /* Ctrl-C at the console gives up the wait */
        if (r < 0) {
            fprintf(STDERR_FILENO, "sh: wait: %s: %s\n", argv[1], strerror(r));
            return 127;
        }
        return status_of(status);
    }
    int status, r;
    while (((r = wait_pid(-1, &status, 0)) > 0 || r == -EINTR) && !interrupted)
        if (r > 0 && interactive)
            job_report(r, status);
    return 0;
}

static const struct {
    const char *name;
    builtin_fn  fn;
} BUILTINS[] = {
    { ":", builtin_true },        { "true", builtin_true },   { "false", builtin_false },
    { "exit", builtin_exit },     { "help", builtin_help },   { "break", builtin_break },
    { "continue", builtin_continue }, { "test", builtin_test }, { "[", builtin_test },
    { "shift", builtin_shift },   { "read", builtin_read },   { "wait", builtin_wait },
};

builtin_fn builtin_find(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(BUILTINS); i++)
        if (strcmp(BUILTINS[i].name, name) == 0)
            return BUILTINS[i].fn;
    return NULL;
}
