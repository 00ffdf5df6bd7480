/*
 * The parser: tokens to a parse tree, by recursive descent. This file has
 * declarations, statements and the program; parse_expr.c has expressions.
 * The parser knows the shape of the language only: names are looked up
 * and types checked afterwards, by the checker.
 */
#include "c0.h"

bool is_type_token(const struct token *t)
{
    static const char *const types[] = { "int", "long", "char", "void" };
    if (t->kind != T_KEYWORD)
        return false;
    for (size_t i = 0; i < ARRAY_SIZE(types); i++)
        if (strcmp(t->s, types[i]) == 0)
            return true;
    return false;
}

/* int, long, long int, long long, char, void */
static struct type *base_type(struct parser *p)
{
    if (tok_accept(p, "int"))
        return ty_int;
    if (tok_accept(p, "char"))
        return ty_char;
    if (tok_accept(p, "void"))
        return ty_void;
    if (tok_accept(p, "long")) {
        if (!tok_accept(p, "int") && tok_accept(p, "long"))
            tok_accept(p, "int");
        return ty_long;
    }
    error_at(p->tok->line, "expected a type");
}

/* Integer constant expressions, for array sizes: numbers, sizeof(type),
 * casts and the arithmetic operators. */
static bool const_value(const struct node *n, long *v)
{
    long a, b;
    switch (n->op) {
    case N_NUM:         *v = n->val; return true;
    case P_SIZEOF_TYPE: *v = n->ty->size; return n->ty->kind != TY_VOID;
    case P_CAST:        return const_value(n->a, v);
    case P_PLUS:        return const_value(n->a, v);
    case N_NEG:         if (!const_value(n->a, &a)) return false; *v = -a; return true;
    case N_BNOT:        if (!const_value(n->a, &a)) return false; *v = ~a; return true;
    case N_NOT:         if (!const_value(n->a, &a)) return false; *v = !a; return true;
    case N_COND:
        if (!const_value(n->a, &a))
            return false;
        return const_value(a ? n->b : n->c, v);
    default:
        break;
    }
    if (!n->b || n->op >= N_LOWERED_COUNT || !const_value(n->a, &a) || !const_value(n->b, &b))
        return false;
    switch (n->op) {
    case N_ADD:  *v = a + b; return true;
    case N_SUB:  *v = a - b; return true;
    case N_MUL:  *v = a * b; return true;
    case N_DIV:  if (!b) return false; *v = a / b; return true;
    case N_MOD:  if (!b) return false; *v = a % b; return true;
    case N_SHL:  *v = (long)((unsigned long)a << (b & 63)); return true;
    case N_SHR:  *v = a >> (b & 63); return true;
    case N_BAND: *v = a & b; return true;
    case N_BOR:  *v = a | b; return true;
    case N_BXOR: *v = a ^ b; return true;
    case N_LT:   *v = a < b; return true;
    case N_LE:   *v = a <= b; return true;
    case N_GT:   *v = a > b; return true;
    case N_GE:   *v = a >= b; return true;
    case N_EQ:   *v = a == b; return true;
    case N_NE:   *v = a != b; return true;
    case N_LAND: *v = a && b; return true;
    case N_LOR:  *v = a || b; return true;
    default:     return false;
    }
}

#define MAX_ARRAY_BYTES (1L << 30)   /* far more than any faultline process may have */

static struct node *param_list(struct parser *p, int *count);

/* What a declarator says: the type, the name (NULL if abstract) and,
 * for a function, its parameters. */
struct declarator {
    struct type *ty;
    const char *name;
    int line;
    struct node *params;
};

/* "[N]"... after a name: arrays of arrays, left to right. */
static struct type *array_suffix(struct parser *p, struct type *ty)
{
    if (!tok_accept(p, "["))
        return ty;
    int line = p->tok->line;
    long len = -1;
    if (!tok_is(p, "]")) {
        struct node *e = parse_assign(p);
        if (!const_value(e, &len))
            error_at(line, "array size is not a constant");
        if (len <= 0)
            error_at(line, "array size must be positive");
    }
    tok_expect(p, "]");
    struct type *elem = array_suffix(p, ty);
    if (elem->kind == TY_ARRAY && elem->len < 0)
        error_at(line, "only the first array size may be left out");
    if (len > 0 && elem->size > MAX_ARRAY_BYTES / len)
        error_at(line, "array too large");
    return array_of(elem, len);
}

static void declarator(struct parser *p, struct type *base, struct declarator *d, bool abstract)
{
    memset(d, 0, sizeof *d);
    d->line = p->tok->line;
    struct type *ty = base;
    while (tok_accept(p, "*"))
        ty = pointer_to(ty);
    if (p->tok->kind == T_IDENT) {
        d->name = p->tok->s;
        d->line = p->tok->line;
        p->tok++;
    } else if (!abstract) {
        if (tok_is(p, "("))
            error_at(p->tok->line, "pointers to functions are not supported");
        error_at(p->tok->line, "expected a name in the declaration");
    }
    if (tok_accept(p, "(")) {
        int n = 0;
        d->params = param_list(p, &n);
        struct type **params = cc_alloc(sizeof(struct type *) * (size_t)(n + 1));
        int i = 0;
        for (struct node *q = d->params; q; q = q->next)
            params[i++] = q->ty;
        d->ty = func_type(ty, params, n);
        return;
    }
    d->ty = array_suffix(p, ty);
}

/* (void), (), or (type name, ...); array parameters are pointers. */
static struct node *param_list(struct parser *p, int *count)
{
    struct node *head = NULL, **tail = &head;
    if (tok_is(p, "void") && p->tok[1].kind == T_PUNCT && strcmp(p->tok[1].s, ")") == 0)
        p->tok++;
    if (tok_accept(p, ")"))
        return NULL;
    do {
        struct type *base = base_type(p);
        struct declarator d;
        declarator(p, base, &d, true);
        if (d.ty->kind == TY_FUNC)
            error_at(d.line, "function parameters are not supported");
        if (d.ty->kind == TY_ARRAY)
            d.ty = pointer_to(d.ty->base);
        struct node *n = new_node(P_DECL, d.line);
        n->name = (char *)d.name;
        n->ty = d.ty;
        *tail = n;
        tail = &n->next;
        ++*count;
    } while (tok_accept(p, ","));
    tok_expect(p, ")");
    return head;
}

struct type *parse_abstract_type(struct parser *p)
{
    struct declarator d;
    declarator(p, base_type(p), &d, true);
    if (d.name)
        error_at(d.line, "unexpected name '%s' in a type", d.name);
    return d.ty;
}

/* "= expr" or "= { expr, ... }" */
static struct node *initializer(struct parser *p)
{
    if (!tok_is(p, "{"))
        return parse_assign(p);
    struct node *list = new_node(P_INITLIST, p->tok->line);
    p->tok++;
    struct node **tail = &list->a;
    while (!tok_is(p, "}")) {
        if (tok_is(p, "{"))
            error_at(p->tok->line, "nested initializer lists are not supported");
        *tail = parse_assign(p);
        tail = &(*tail)->next;
        if (!tok_accept(p, ","))
            break;
    }
    tok_expect(p, "}");
    return list;
}

/* A declaration, as a list of P_DECLs: "static int a, *b = &x, c[3];".
 * At file scope a function body may follow the first declarator. */
static struct node *declaration(struct parser *p, bool top)
{
    bool is_static = tok_accept(p, "static");
    struct type *base = base_type(p);
    struct node *head = NULL, **tail = &head;
    if (!top && tok_is(p, ";"))
        error_at(p->tok->line, "declaration declares nothing");
    do {
        struct declarator d;
        declarator(p, base, &d, false);
        struct node *n = new_node(P_DECL, d.line);
        n->name = (char *)d.name;
        n->ty = d.ty;
        n->val = is_static;
        if (d.ty->kind == TY_FUNC && tok_is(p, "{")) {
            if (!top)
                error_at(d.line, "functions cannot be defined inside functions");
            if (head)
                error_at(d.line, "a function definition must be declared alone");
            n->op = P_FUNCDEF;
            n->a = d.params;
            for (struct node *q = d.params; q; q = q->next)
                if (!q->name)
                    error_at(q->line, "parameter of '%s' has no name", d.name);
            return n;
        }
        if (tok_accept(p, "=")) {
            if (d.ty->kind == TY_FUNC)
                error_at(d.line, "a function cannot be initialized");
            n->a = initializer(p);
        }
        *tail = n;
        tail = &n->next;
    } while (tok_accept(p, ","));
    tok_expect(p, ";");
    return head;
}

static struct node *statement(struct parser *p);

static struct node *block(struct parser *p)
{
    struct node *b = new_node(N_BLOCK, p->tok->line);
    tok_expect(p, "{");
    struct node **tail = &b->a;
    while (!tok_accept(p, "}")) {
        if (p->tok->kind == T_EOF)
            error_at(b->line, "'{' is never closed");
        struct node *s = is_type_token(p->tok) || tok_is(p, "static") ? declaration(p, false)
                                                                        : statement(p);
        *tail = s;
        while (*tail)
            tail = &(*tail)->next;
    }
    return b;
}

static struct node *paren_expr(struct parser *p)
{
    tok_expect(p, "(");
    struct node *e = parse_expr(p);
    tok_expect(p, ")");
    return e;
}

static struct node *statement(struct parser *p)
{
    int line = p->tok->line;
    struct node *n;
    enter(p);
    if (tok_is(p, "{")) {
        n = block(p);
    } else if (tok_accept(p, "if")) {
        n = new_node(N_IF, line);
        n->a = paren_expr(p);
        n->b = statement(p);
        if (tok_accept(p, "else"))
            n->c = statement(p);
    } else if (tok_accept(p, "while")) {
        n = new_node(N_WHILE, line);
        n->a = paren_expr(p);
        n->b = statement(p);
    } else if (tok_accept(p, "do")) {
        n = new_node(N_DO, line);
        n->a = statement(p);
        tok_expect(p, "while");
        n->b = paren_expr(p);
        tok_expect(p, ";");
    } else if (tok_accept(p, "for")) {
        n = new_node(N_FOR, line);
        tok_expect(p, "(");
        if (is_type_token(p->tok))
            n->a = declaration(p, false);
        else if (!tok_accept(p, ";")) {
            n->a = parse_expr(p);
            tok_expect(p, ";");
        }
        if (!tok_is(p, ";"))
            n->b = parse_expr(p);
        tok_expect(p, ";");
        if (!tok_is(p, ")"))
            n->c = parse_expr(p);
        tok_expect(p, ")");
        n->d = statement(p);
    } else if (tok_accept(p, "return")) {
        n = new_node(N_RETURN, line);
        if (!tok_is(p, ";"))
            n->a = parse_expr(p);
        tok_expect(p, ";");
    } else if (tok_accept(p, "break") || tok_accept(p, "continue")) {
        n = new_node(strcmp(p->tok[-1].s, "break") == 0 ? N_BREAK : N_CONTINUE, line);
        tok_expect(p, ";");
    } else if (tok_accept(p, ";")) {
        n = new_node(N_BLOCK, line);
    } else if (is_type_token(p->tok) || tok_is(p, "static")) {
        error_at(line, "a declaration is not a statement: put it in a block");
    } else if (tok_is(p, "else")) {
        error_at(line, "'else' without 'if'");
    } else {
        n = new_node(N_EXPR, line);
        n->a = parse_expr(p);
        tok_expect(p, ";");
    }
    leave(p);
    return n;
}

struct node *parse_program(struct token *tokens)
{
    struct parser p = { tokens, 0 };
    struct node *head = NULL, **tail = &head;
    while (p.tok->kind != T_EOF) {
        if (!is_type_token(p.tok) && !tok_is(&p, "static"))
            error_at(p.tok->line, "expected a declaration or a function");
        struct node *d = declaration(&p, true);
        if (d->op == P_FUNCDEF)
            d->b = block(&p);
        *tail = d;
        while (*tail)
            tail = &(*tail)->next;
    }
    return head;
}
