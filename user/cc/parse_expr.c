/*
 * Expressions, by precedence climbing: one table of binary operators
 * with their C precedence, and recursive descent for the rest (assignment,
 * ?:, unary operators, casts, postfix operators and primaries).
 */
#include "c0.h"

bool tok_is(const struct parser *p, const char *s)
{
    const struct token *t = p->tok;
    return (t->kind == T_PUNCT || t->kind == T_KEYWORD) && strcmp(t->s, s) == 0;
}

bool tok_accept(struct parser *p, const char *s)
{
    if (!tok_is(p, s))
        return false;
    p->tok++;
    return true;
}

static const char *describe(const struct token *t)
{
    static char what[CC_MAX_NAME + 20];
    switch (t->kind) {
    case T_EOF:   return "end of file";
    case T_NUM:   return "a number";
    case T_CHAR:  return "a character constant";
    case T_STR:   return "a string";
    case T_IDENT: snprintf(what, sizeof what, "'%s'", t->s); return what;
    default:      snprintf(what, sizeof what, "'%s'", t->s); return what;
    }
}

void tok_expect(struct parser *p, const char *s)
{
    if (!tok_accept(p, s))
        error_at(p->tok->line, "expected '%s' before %s", s, describe(p->tok));
}

void enter(struct parser *p)
{
    if (++p->depth > CC_MAX_DEPTH)
        error_at(p->tok->line, "nested too deeply (more than %d levels)", CC_MAX_DEPTH);
}

void leave(struct parser *p) { p->depth--; }

static struct node *unary(struct parser *p);

static struct node *make(int op, int line, struct node *a, struct node *b)
{
    struct node *n = new_node(op, line);
    n->a = a;
    n->b = b;
    return n;
}

static const struct binop {
    const char *tok;
    int op;
    int prec;
} binops[] = {
    { "||", N_LOR, 1 },  { "&&", N_LAND, 2 }, { "|", N_BOR, 3 },  { "^", N_BXOR, 4 },
    { "&", N_BAND, 5 },  { "==", N_EQ, 6 },   { "!=", N_NE, 6 },  { "<", N_LT, 7 },
    { "<=", N_LE, 7 },   { ">", N_GT, 7 },    { ">=", N_GE, 7 },  { "<<", N_SHL, 8 },
    { ">>", N_SHR, 8 },  { "+", N_ADD, 9 },   { "-", N_SUB, 9 },  { "*", N_MUL, 10 },
    { "/", N_DIV, 10 },  { "%", N_MOD, 10 },
};

static const struct binop *find_binop(const struct parser *p)
{
    if (p->tok->kind != T_PUNCT)
        return NULL;
    for (size_t i = 0; i < ARRAY_SIZE(binops); i++)
        if (strcmp(p->tok->s, binops[i].tok) == 0)
            return &binops[i];
    return NULL;
}

/* Operators binding at least as tightly as min_prec, left to right. */
static struct node *binary(struct parser *p, int min_prec)
{
    struct node *lhs = unary(p);
    for (;;) {
        const struct binop *b = find_binop(p);
        if (!b || b->prec < min_prec)
            return lhs;
        int line = p->tok->line;
        p->tok++;
        enter(p);
        struct node *rhs = binary(p, b->prec + 1);
        leave(p);
        lhs = make(b->op, line, lhs, rhs);
    }
}

static struct node *conditional(struct parser *p)
{
    struct node *c = binary(p, 1);
    if (!tok_is(p, "?"))
        return c;
    int line = p->tok->line;
    p->tok++;
    enter(p);
    struct node *n = make(N_COND, line, c, parse_expr(p));
    tok_expect(p, ":");
    n->c = conditional(p);
    leave(p);
    return n;
}

static const struct {
    const char *tok;
    int op;
} assign_ops[] = {
    { "+=", N_ADD }, { "-=", N_SUB }, { "*=", N_MUL }, { "/=", N_DIV }, { "%=", N_MOD },
    { "&=", N_BAND }, { "|=", N_BOR }, { "^=", N_BXOR }, { "<<=", N_SHL }, { ">>=", N_SHR },
};

struct node *parse_assign(struct parser *p)
{
    enter(p);
    struct node *lhs = conditional(p);
    int line = p->tok->line;
    struct node *n = lhs;
    if (tok_accept(p, "=")) {
        n = make(P_ASSIGN, line, lhs, parse_assign(p));
    } else {
        for (size_t i = 0; i < ARRAY_SIZE(assign_ops); i++) {
            if (tok_accept(p, assign_ops[i].tok)) {
                n = make(N_ASGOP, line, lhs, parse_assign(p));
                n->val = assign_ops[i].op;
                break;
            }
        }
    }
    leave(p);
    return n;
}

struct node *parse_expr(struct parser *p)
{
    struct node *n = parse_assign(p);
    while (tok_is(p, ",")) {
        int line = p->tok->line;
        p->tok++;
        n = make(N_COMMA, line, n, parse_assign(p));
    }
    return n;
}

static struct node *call(struct parser *p, const struct token *name)
{
    struct node *n = new_node(N_CALL, name->line);
    n->name = (char *)name->s;
    struct node **tail = &n->a;
    tok_expect(p, "(");
    if (!tok_accept(p, ")")) {
        do {
            *tail = parse_assign(p);
            tail = &(*tail)->next;
        } while (tok_accept(p, ","));
        tok_expect(p, ")");
    }
    return n;
}

static struct node *primary(struct parser *p)
{
    const struct token *t = p->tok;
    struct node *n;
    switch (t->kind) {
    case T_NUM:
    case T_CHAR:
        p->tok++;
        n = new_node(N_NUM, t->line);
        n->val = t->val;
        n->ty = t->kind == T_NUM && t->is_long ? ty_long : ty_int;
        return n;
    case T_STR:
        p->tok++;
        n = new_node(P_STRING, t->line);
        n->name = (char *)t->s;
        n->len = t->len;
        return n;
    case T_IDENT:
        p->tok++;
        if (tok_is(p, "("))
            return call(p, t);
        n = new_node(P_IDENT, t->line);
        n->name = (char *)t->s;
        return n;
    default:
        if (tok_accept(p, "(")) {
            n = parse_expr(p);
            tok_expect(p, ")");
            return n;
        }
        error_at(t->line, "expected an expression before %s", describe(t));
    }
}

static struct node *postfix(struct parser *p)
{
    struct node *n = primary(p);
    for (;;) {
        int line = p->tok->line;
        if (tok_accept(p, "[")) {
            n = make(P_INDEX, line, n, parse_expr(p));
            tok_expect(p, "]");
        } else if (tok_accept(p, "++")) {
            n = make(N_POSTINC, line, n, NULL);
            n->val = 1;
        } else if (tok_accept(p, "--")) {
            n = make(N_POSTINC, line, n, NULL);
            n->val = -1;
        } else {
            return n;
        }
    }
}

static const struct {
    const char *tok;
    int op;
} prefix_ops[] = {
    { "-", N_NEG }, { "+", P_PLUS }, { "!", N_NOT }, { "~", N_BNOT },
    { "*", P_DEREF }, { "&", P_ADDR },
};

static struct node *unary(struct parser *p)
{
    int line = p->tok->line;
    struct node *n;
    enter(p);
    if (tok_is(p, "(") && is_type_token(p->tok + 1)) {
        /* A cast: "(" type ")" unary */
        p->tok++;
        struct type *ty = parse_abstract_type(p);
        tok_expect(p, ")");
        n = make(P_CAST, line, unary(p), NULL);
        n->ty = ty;
    } else if (tok_accept(p, "++")) {
        n = make(N_PREINC, line, unary(p), NULL);
        n->val = 1;
    } else if (tok_accept(p, "--")) {
        n = make(N_PREINC, line, unary(p), NULL);
        n->val = -1;
    } else if (tok_accept(p, "sizeof")) {
        if (tok_is(p, "(") && is_type_token(p->tok + 1)) {
            p->tok++;
            n = new_node(P_SIZEOF_TYPE, line);
            n->ty = parse_abstract_type(p);
            tok_expect(p, ")");
        } else {
            n = make(P_SIZEOF_EXPR, line, unary(p), NULL);
        }
    } else {
        n = NULL;
        for (size_t i = 0; i < ARRAY_SIZE(prefix_ops) && !n; i++)
            if (tok_accept(p, prefix_ops[i].tok))
                n = make(prefix_ops[i].op, line, unary(p), NULL);
        if (!n)
            n = postfix(p);
    }
    leave(p);
    return n;
}
