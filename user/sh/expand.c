/*
 * Word expansion, when a command runs: $NAME ${NAME} $? $$ $# $! $0..$9
 * $@ $*, $(( )) and $( ); then quote removal and field splitting.
 *
 *   '...'    everything literal
 *   "..."    $ expansions and \$ \" \\ \` only; the result is one field
 *   \c       c literal (outside quotes); \ at a line's end joins the lines
 *   unquoted expansions are split into fields at blanks and newlines; an
 *   unquoted expansion that is empty disappears. "$@" gives one field per
 *   argument (none if there are none). There is no globbing: * is a star.
 *
 * The fields are built NUL-separated in one growing buffer.
 */
#include "sh.h"

#define CAPTURE_MAX (64 * 1024)   /* bytes $( ) keeps of a command's output */

struct fields {
    char  *buf;
    size_t len, cap;
    int    count;
    bool   open;          /* a field has begun (perhaps empty, from "") */
    bool   no_split;      /* expand_one: one string, nothing split */
    int    line;
    bool   failed;
};

static void add_char(struct fields *f, char c)
{
    if (f->len + 2 > f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 128;
        char *b = realloc(f->buf, cap);
        if (!b)
            die("sh: out of memory");
        f->buf = b;
        f->cap = cap;
    }
    f->buf[f->len++] = c;
    f->open = true;
}

static void end_field(struct fields *f)
{
    if (!f->open)
        return;
    add_char(f, '\0');
    f->count++;
    f->open = false;
}

static bool is_ifs(char c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

/* Text from an expansion: quoted, it joins the field; unquoted, blanks
 * split it. */
static void add_text(struct fields *f, const char *s, bool quoted)
{
    if (quoted || f->no_split) {
        if (quoted)
            f->open = true;
        for (; *s; s++)
            add_char(f, *s);
        return;
    }
    for (; *s; s++) {
        if (is_ifs(*s))
            end_field(f);
        else
            add_char(f, *s);
    }
}

static const char *arith_var(const char *name)
{
    return var_get(name);
}

static void fail(struct fields *f, const char *msg)
{
    sh_report(f->line, "%s", msg);
    f->failed = true;
}

static void expand_arith(struct fields *f, const char *text, size_t n, bool quoted)
{
    char *expr = malloc(n + 1);
    if (!expr)
        die("sh: out of memory");
    memcpy(expr, text, n);
    expr[n] = '\0';
    char *expanded = expand_one(expr, f->line);   /* $x inside: POSIX expands it first */
    free(expr);
    if (!expanded) {
        f->failed = true;
        return;
    }
    struct sh_error err;
    long v;
    if (arith_eval(expanded, arith_var, &v, &err) < 0) {
        fail(f, err.msg);
    } else {
        char num[24];
        snprintf(num, sizeof num, "%ld", v);
        add_text(f, num, quoted);
    }
    free(expanded);
}

/* $(cmd): runs cmd in a child whose stdout is a ram file, then reads it
 * back (there are no pipes). Trailing newlines are dropped. */
static void expand_command(struct fields *f, const char *text, size_t n, bool quoted)
{
    char path[32];
    snprintf(path, sizeof path, "sh.out.%d", getpid());
    int pid = fork();
    if (pid < 0) {
        fail(f, "$( ): cannot fork");
        return;
    }
    if (pid == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC);
        if (fd < 0)
            die("sh: %s: %s", path, strerror(fd));
        close(STDOUT_FILENO);
        if (dup(fd) != STDOUT_FILENO)
            die("sh: $( ): cannot redirect");
        close(fd);
        char *cmd = arena_strndup(text, n);
        struct sh_error err;
        struct token *tokens;
        struct node *tree = NULL;
        if (lex(cmd, f->line, &tokens, &err) >= 0)
            tree = parse(tokens, &err);
        if (!tree) {
            sh_report(err.line ? err.line : f->line, "%s", err.msg);
            exit(2);
        }
        interactive = false;
        job_control = false;
        exit(exec_node(tree));
    }
    last_status = job_wait(pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;               /* the child has said why */
    char *out = malloc(CAPTURE_MAX + 1);
    if (!out)
        die("sh: out of memory");
    long got = 0, r;
    while (got < CAPTURE_MAX && (r = read(fd, out + got, CAPTURE_MAX - got)) > 0)
        got += r;
    close(fd);
    unlink(path);
    while (got > 0 && out[got - 1] == '\n')
        got--;
    out[got] = '\0';
    add_text(f, out, quoted);
    free(out);
}

/* The value of a one-character parameter, or NULL if c names none. */
static const char *special(char c, char *num, size_t size)
{
    switch (c) {
    case '?': snprintf(num, size, "%d", last_status); return num;
    case '$': snprintf(num, size, "%d", getpid()); return num;
    case '#': snprintf(num, size, "%d", args_count()); return num;
    case '!':
        if (!last_background)
            return "";
        snprintf(num, size, "%d", last_background);
        return num;
    default:
        if (isdigit(c)) {
            const char *a = arg_get(c - '0');
            return a ? a : "";
        }
        return NULL;
    }
}

/* $@ and $*: the arguments; "$@" keeps each one a field. */
static void add_args(struct fields *f, bool quoted, bool each)
{
    for (int i = 1; i <= args_count(); i++) {
        if (i > 1) {
            if (quoted && each && !f->no_split) {
                f->open = true;
                end_field(f);
            } else {
                add_text(f, " ", quoted);
            }
        }
        add_text(f, arg_get(i), quoted);
    }
}

/* The expansion starting at *pp (a '$'); moves *pp past it. */
static void expand_dollar(struct fields *f, const char **pp, bool quoted)
{
    const char *p = *pp + 1;
    char num[24];
    const char *value;
    if (p[0] == '(' && p[1] == '(') {
        const char *end = bracket_end(p);
        if (end - p >= 3 && end[-1] == ')') {
            expand_arith(f, p + 2, (size_t)(end - 1 - (p + 2)), quoted);
            *pp = *end ? end + 1 : end;
            return;
        }
        /* $( (cmd) ): a command that starts with a bracket */
    }
    if (p[0] == '(') {
        const char *end = bracket_end(p);
        expand_command(f, p + 1, (size_t)(end - p - 1), quoted);
        *pp = *end ? end + 1 : end;
        return;
    }
    if (p[0] == '{') {
        const char *end = bracket_end(p);
        size_t n = (size_t)(end - p - 1);
        char name[SH_NAME_MAX];
        *pp = *end ? end + 1 : end;
        if (n == 1 && (p[1] == '@' || p[1] == '*')) {
            add_args(f, quoted, p[1] == '@');
            return;
        }
        if (n == 1 && (value = special(p[1], num, sizeof num))) {
            add_text(f, value, quoted);
            return;
        }
        if (!is_name(p + 1, n) || n >= sizeof name) {
            char msg[SH_ERROR_MAX];
            snprintf(msg, sizeof msg, "${%.*s}: bad substitution", (int)n, p + 1);
            fail(f, msg);
            return;
        }
        memcpy(name, p + 1, n);
        name[n] = '\0';
        value = var_get(name);
        add_text(f, value ? value : "", quoted);
        return;
    }
    if (*p == '@' || *p == '*') {
        add_args(f, quoted, *p == '@');
        *pp = p + 1;
        return;
    }
    if (*p && (value = special(*p, num, sizeof num))) {
        add_text(f, value, quoted);
        *pp = p + 1;
        return;
    }
    size_t n = 0;
    while (isalpha(p[n]) || p[n] == '_' || (n > 0 && isdigit(p[n])))
        n++;
    if (n == 0) {             /* a lone $ is itself */
        add_char(f, '$');
        *pp = p;
        return;
    }
    char name[SH_NAME_MAX];
    if (n >= sizeof name)
        n = sizeof name - 1;  /* longer names than any variable can have: none is set */
    memcpy(name, p, n);
    name[n] = '\0';
    value = var_get(name);
    add_text(f, value ? value : "", quoted);
    while (isalpha(*p) || *p == '_' || isdigit(*p))
        p++;
    *pp = p;
}

static void expand_word(struct fields *f, const char *w)
{
    if (strcmp(w, "\"$@\"") == 0 && args_count() == 0 && !f->no_split)
        return;               /* "$@" without arguments is no field at all */
    bool dq = false;
    for (const char *p = w; *p && !f->failed;) {
        char c = *p;
        if (c == '\'' && !dq) {
            f->open = true;
            for (p++; *p && *p != '\''; p++)
                add_char(f, *p);
            if (*p)
                p++;
        } else if (c == '"') {
            dq = !dq;
            f->open = true;
            p++;
        } else if (c == '\\') {
            char next = p[1];
            if (next == '\n') {
                p += 2;
            } else if (dq && next != '$' && next != '"' && next != '\\' && next != '`') {
                add_char(f, '\\');
                p++;
            } else if (next) {
                add_char(f, next);
                p += 2;
            } else {
                add_char(f, '\\');
                p++;
            }
        } else if (c == '$') {
            expand_dollar(f, &p, dq);
        } else {
            add_char(f, c);
            p++;
        }
    }
    if (!f->no_split)
        end_field(f);
}

int expand_words(const char *const *words, int n, int line, char ***out)
{
    struct fields f = { .line = line };
    for (int i = 0; i < n && !f.failed; i++)
        expand_word(&f, words[i]);
    if (f.failed) {
        free(f.buf);
        return -1;
    }
    char **v = malloc((size_t)(f.count + 1) * sizeof(char *) + f.len);
    if (!v)
        die("sh: out of memory");
    char *text = (char *)(v + f.count + 1);
    if (f.len)
        memcpy(text, f.buf, f.len);
    for (int i = 0; i < f.count; i++) {
        v[i] = text;
        text += strlen(text) + 1;
    }
    v[f.count] = NULL;
    free(f.buf);
    *out = v;
    return f.count;
}

char *expand_one(const char *word, int line)
{
    struct fields f = { .line = line, .no_split = true };
    expand_word(&f, word);
    if (f.failed) {
        free(f.buf);
        return NULL;
    }
    add_char(&f, '\0');
    return f.buf;
}
