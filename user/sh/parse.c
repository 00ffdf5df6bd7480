/*
 * The parser: tokens -> a tree of nodes, by recursive descent over
 *
 *   program   : list END
 *   list      : and_or ((';' | '&' | NEWLINE) and_or)*    (newlines between are fine)
 *   and_or    : pipeline (('&&' | '||') NEWLINE* pipeline)*
 *   pipeline  : '!' pipeline | command                   ('|' is refused: no pipes)
 *   command   : simple | if | while | until | for, then redirections
 *   if        : 'if' list 'then' list ('elif' list 'then' list)* ['else' list] 'fi'
 *   while     : 'while' list 'do' list 'done'      (until: the same)
 *   for       : 'for' NAME [NEWLINE* 'in' WORD* (';' | NEWLINE)] NEWLINE* 'do' list 'done'
 *   simple    : (WORD | redirection)+
 *
 * A reserved word (if then elif else fi while until for do done) is one
 * only where a command starts, and only unquoted: `echo done` prints it.
 * Running out of tokens where more are needed sets err->incomplete, so
 * the caller can read another line and try again.
 */
#include "sh.h"

struct parser {
    const struct token *t;
    struct sh_error    *err;
};

static const char *const RESERVED[] = {
    "if", "then", "elif", "else", "fi", "while", "until", "for", "do", "done",
};
/* Words that end a list: the part of a construct after it. */
static const char *const LIST_END[] = { "then", "elif", "else", "fi", "do", "done" };

static bool word_is(const struct token *t, const char *w)
{
    return t->kind == TK_WORD && strcmp(t->text, w) == 0;
}

static bool in_set(const struct token *t, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (word_is(t, set[i]))
            return true;
    return false;
}

bool is_name(const char *s, size_t n)
{
    if (n == 0 || !(isalpha(s[0]) || s[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalpha(s[i]) || isdigit(s[i]) || s[i] == '_'))
            return false;
    return true;
}

bool is_assignment(const char *word)
{
    const char *eq = strchr(word, '=');
    return eq && is_name(word, (size_t)(eq - word));
}

/* An error at the current token: at the end of the text, the construct
 * may yet be finished by more lines. */
static void *fail(struct parser *ps, const char *expecting)
{
    const struct token *t = ps->t;
    if (t->kind == TK_END) {
        ps->err->incomplete = true;
        if (expecting)
            sh_set_error(ps->err, t->line, "unexpected end of file (expecting %s)", expecting);
        else
            sh_set_error(ps->err, t->line, "unexpected end of file");
    } else if (expecting) {
        sh_set_error(ps->err, t->line, "syntax error near `%s' (expecting %s)",
                     token_spelling(t), expecting);
    } else {
        sh_set_error(ps->err, t->line, "syntax error near `%s'", token_spelling(t));
    }
    return NULL;
}

static struct node *new_node(enum node_kind kind, int line)
{
    struct node *n = arena_alloc(sizeof *n);
    n->kind = kind;
    n->line = line;
    return n;
}

static void skip_newlines(struct parser *ps)
{
    while (ps->t->kind == TK_NEWLINE)
        ps->t++;
}

/* Takes the reserved word w, or fails. */
static bool expect_word(struct parser *ps, const char *w)
{
    if (word_is(ps->t, w)) {
        ps->t++;
        return true;
    }
    fail(ps, w);
    return false;
}

static bool is_redirection(enum tok_kind k)
{
    return k == TK_LESS || k == TK_GREAT || k == TK_DGREAT || k == TK_GREATAND ||
           k == TK_LESSAND;
}

/* One redirection (the current token) appended to *list. */
static bool parse_redirection(struct parser *ps, struct redir ***tail)
{
    const struct token *op = ps->t++;
    if (ps->t->kind != TK_WORD) {
        sh_set_error(ps->err, op->line, "syntax error: %s needs a %s", op->text,
                     op->kind == TK_GREATAND || op->kind == TK_LESSAND ? "file descriptor"
                                                                       : "file name");
        return false;
    }
    struct redir *r = arena_alloc(sizeof *r);
    bool input = op->kind == TK_LESS || op->kind == TK_LESSAND;
    r->fd = op->io_fd >= 0 ? op->io_fd : input ? STDIN_FILENO : STDOUT_FILENO;
    switch (op->kind) {
    case TK_LESS:   r->kind = R_IN; break;
    case TK_GREAT:  r->kind = R_OUT; break;
    case TK_DGREAT: r->kind = R_APPEND; break;
    default:        r->kind = R_DUP; break;
    }
    r->word = ps->t++->text;
    **tail = r;
    *tail = &r->next;
    return true;
}

static bool parse_redirections(struct parser *ps, struct node *n)
{
    struct redir **tail = &n->redirs;
    while (*tail)
        tail = &(*tail)->next;
    while (is_redirection(ps->t->kind))
        if (!parse_redirection(ps, &tail))
            return false;
    return true;
}

static struct node *parse_list(struct parser *ps);

/* A list that must hold at least one command (if, while and for bodies). */
static struct node *parse_body(struct parser *ps, const char *what)
{
    struct node *n = parse_list(ps);
    if (n && n->u.list.n == 0)
        return fail(ps, what);
    return n;
}

static struct node *parse_simple(struct parser *ps)
{
    struct node *n = new_node(N_SIMPLE, ps->t->line);
    struct redir **tail = &n->redirs;
    int count = 0;
    for (const struct token *t = ps->t; t->kind == TK_WORD || is_redirection(t->kind); t++)
        count++;
    n->u.simple.words = arena_alloc((size_t)(count + 1) * sizeof(char *));
    bool assigning = true;
    while (ps->t->kind == TK_WORD || is_redirection(ps->t->kind)) {
        if (ps->t->kind != TK_WORD) {
            if (!parse_redirection(ps, &tail))
                return NULL;
            continue;
        }
        const char *w = ps->t++->text;
        if (assigning && is_assignment(w))
            n->u.simple.nassign++;
        else
            assigning = false;
        n->u.simple.words[n->u.simple.nwords++] = w;
    }
    if (n->u.simple.nwords == 0 && !n->redirs)
        return fail(ps, NULL);
    return n;
}

static struct node *parse_if(struct parser *ps)
{
    struct node *n = new_node(N_IF, ps->t->line);
    ps->t++;                                   /* if or elif */
    if (!(n->u.cond.cond = parse_body(ps, "a command")) || !expect_word(ps, "then") ||
        !(n->u.cond.then = parse_body(ps, "a command")))
        return NULL;
    if (word_is(ps->t, "elif"))
        return (n->u.cond.otherwise = parse_if(ps)) ? n : NULL;   /* takes the fi */
    if (word_is(ps->t, "else")) {
        ps->t++;
        if (!(n->u.cond.otherwise = parse_body(ps, "a command")))
            return NULL;
    }
    return expect_word(ps, "fi") ? n : NULL;
}

static struct node *parse_while(struct parser *ps)
{
    struct node *n = new_node(word_is(ps->t, "until") ? N_UNTIL : N_WHILE, ps->t->line);
    ps->t++;
    if (!(n->u.loop.cond = parse_body(ps, "a command")) || !expect_word(ps, "do") ||
        !(n->u.loop.body = parse_body(ps, "a command")) || !expect_word(ps, "done"))
        return NULL;
    return n;
}

static struct node *parse_for(struct parser *ps)
{
    struct node *n = new_node(N_FOR, ps->t->line);
    ps->t++;
    if (ps->t->kind != TK_WORD || !is_name(ps->t->text, strlen(ps->t->text)))
        return fail(ps, "a variable name");
    n->u.each.name = ps->t++->text;
    skip_newlines(ps);
    if (word_is(ps->t, "in")) {
        ps->t++;
        int count = 0;
        while (ps->t[count].kind == TK_WORD)
            count++;
        n->u.each.words = arena_alloc((size_t)(count + 1) * sizeof(char *));
        for (; ps->t->kind == TK_WORD; ps->t++)
            n->u.each.words[n->u.each.nwords++] = ps->t->text;
        if (ps->t->kind != TK_SEMI && ps->t->kind != TK_NEWLINE)
            return fail(ps, "; or a newline");
        ps->t++;
    } else if (ps->t->kind == TK_SEMI) {
        ps->t++;
    }
    skip_newlines(ps);
    if (!expect_word(ps, "do") || !(n->u.each.body = parse_body(ps, "a command")) ||
        !expect_word(ps, "done"))
        return NULL;
    return n;
}

static struct node *parse_command(struct parser *ps)
{
    struct node *n;
    if (word_is(ps->t, "if"))
        n = parse_if(ps);
    else if (word_is(ps->t, "while") || word_is(ps->t, "until"))
        n = parse_while(ps);
    else if (word_is(ps->t, "for"))
        n = parse_for(ps);
    else if (in_set(ps->t, RESERVED, ARRAY_SIZE(RESERVED)))
        return fail(ps, NULL);                 /* a fi or done out of place */
    else if (ps->t->kind == TK_LPAREN) {
        sh_set_error(ps->err, ps->t->line, "syntax error near `(': subshells are not supported");
        return NULL;
    } else
        return parse_simple(ps);
    if (n && !parse_redirections(ps, n))
        return NULL;
    return n;
}

static struct node *parse_pipeline(struct parser *ps)
{
    struct node *n;
    if (word_is(ps->t, "!")) {
        int line = ps->t++->line;
        struct node *inner = parse_pipeline(ps);
        if (!inner)
            return NULL;
        n = new_node(N_NOT, line);
        n->u.negated = inner;
    } else {
        n = parse_command(ps);
    }
    if (n && ps->t->kind == TK_PIPE) {
        sh_set_error(ps->err, ps->t->line, "syntax error near `|': pipes are not supported");
        return NULL;
    }
    return n;
}

static struct node *parse_and_or(struct parser *ps)
{
    struct node *left = parse_pipeline(ps);
    while (left && (ps->t->kind == TK_AND_IF || ps->t->kind == TK_OR_IF)) {
        struct node *n = new_node(ps->t->kind == TK_AND_IF ? N_AND : N_OR, ps->t->line);
        ps->t++;
        skip_newlines(ps);
        n->u.pair.left = left;
        if (!(n->u.pair.right = parse_pipeline(ps)))
            return NULL;
        left = n;
    }
    return left;
}

/* Commands up to the end of the text or a word that ends a list. */
static struct node *parse_list(struct parser *ps)
{
    struct node *list = new_node(N_LIST, ps->t->line);
    int cap = 0;
    for (;;) {
        skip_newlines(ps);
        if (ps->t->kind == TK_END || in_set(ps->t, LIST_END, ARRAY_SIZE(LIST_END)))
            return list;
        struct node *n = parse_and_or(ps);
        if (!n)
            return NULL;
        if (list->u.list.n == cap) {
            cap = cap ? 2 * cap : 8;
            struct node **items = arena_alloc((size_t)cap * sizeof *items);
            if (list->u.list.n)
                memcpy(items, list->u.list.items, (size_t)list->u.list.n * sizeof *items);
            list->u.list.items = items;
        }
        list->u.list.items[list->u.list.n++] = n;
        switch (ps->t->kind) {
        case TK_AMP:
            n->background = true;
            /* fall through */
        case TK_SEMI:
        case TK_NEWLINE:
            ps->t++;
            break;
        case TK_END:
            return list;
        default:
            if (!in_set(ps->t, LIST_END, ARRAY_SIZE(LIST_END)))
                return fail(ps, NULL);
            return list;
        }
    }
}

struct node *parse(const struct token *tokens, struct sh_error *err)
{
    struct parser ps = { .t = tokens, .err = err };
    err->incomplete = false;
    struct node *n = parse_list(&ps);
    if (n && ps.t->kind != TK_END)
        return fail(&ps, NULL);                /* a fi or done with no if or loop */
    return n;
}
