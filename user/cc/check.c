/*
 * The checker: walks the parse tree with a symbol table, reports the
 * first error with its line, and produces the lowered tree that c1
 * compiles. This file has names, declarations, statements and functions;
 * check_expr.c has expressions.
 *
 * Frame layout, which c1 completes: the return address and the caller's
 * frame pointer sit just below the frame pointer (s0), then the locals,
 * whose offsets are assigned here; c1 puts its register saves and spill
 * slots below them.
 */
#include "c0.h"

#define FRAME_HEADER  16    /* ra and the old s0, below s0 */

static struct sym *globals;        /* file scope, including functions */
static struct sym *locals;         /* innermost first */
static int block_depth;
static long frame_used, frame_max; /* bytes of locals below the header */
static struct node *strings, **strings_tail = &strings;
static long nstrings;

struct fn_ctx {
    struct sym *fn;
    int loops;                     /* enclosing loops, for break and continue */
};

struct sym *lookup(const char *name)
{
    for (struct sym *s = locals; s; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    for (struct sym *s = globals; s; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

static struct sym *add_sym(struct sym **list, const char *name, enum sym_kind kind,
                           struct type *ty, int line)
{
    struct sym *s = cc_alloc(sizeof *s);
    s->name = name;
    s->kind = kind;
    s->ty = ty;
    s->line = line;
    s->depth = block_depth;
    s->next = *list;
    *list = s;
    return s;
}

/*
 * The runtime: functions crt.s defines, known to every program without a
 * declaration (cc has no headers). A program may still declare them, with
 * these types, so that it also compiles with another C compiler.
 */
static void add_runtime(void)
{
    static const struct {
        const char *name;
        int ret;                   /* TY_* */
        const char *params;        /* i int, p char *, l long */
    } rt[] = {
        { "putchar", TY_INT, "i" },  { "getchar", TY_INT, "" },   { "exit", TY_VOID, "i" },
        { "write", TY_INT, "ipi" },  { "read", TY_INT, "ipi" },   { "open", TY_INT, "pi" },
        { "close", TY_INT, "i" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(rt); i++) {
        int n = (int)strlen(rt[i].params);
        struct type **params = cc_alloc(sizeof(struct type *) * (size_t)(n + 1));
        for (int k = 0; k < n; k++)
            params[k] = rt[i].params[k] == 'i' ? ty_int :
                        rt[i].params[k] == 'l' ? ty_long : pointer_to(ty_char);
        struct type *ret = rt[i].ret == TY_INT ? ty_int : ty_void;
        struct sym *s = add_sym(&globals, rt[i].name, SYM_FUNC, func_type(ret, params, n), 0);
        s->defined = true;
        s->runtime = true;
    }
}

struct node *string_literal(const struct node *p)
{
    struct node *s = new_node(N_STR, p->line);
    s->val = nstrings++;
    s->name = cc_alloc((size_t)p->len + 1);
    memcpy(s->name, p->name, (size_t)p->len);
    s->len = p->len + 1;           /* with its NUL */
    *strings_tail = s;
    strings_tail = &s->next;

    char label[32];
    snprintf(label, sizeof label, STR_LABEL_FMT, s->val);
    struct node *n = new_node(N_GADDR, p->line);
    n->name = cc_strndup(label, strlen(label));
    n->ty = array_of(ty_char, s->len);
    n->mt = MT_DWORD;
    return n;
}

/* ---- declarations ---- */

/* A string literal initializing a char array; the array's length comes
 * from it if the declaration left it out. */
static bool string_init(struct type **ty, const struct node *init)
{
    if ((*ty)->kind != TY_ARRAY || (*ty)->base->kind != TY_CHAR || !init || init->op != P_STRING)
        return false;
    if ((*ty)->len < 0)
        *ty = array_of(ty_char, init->len + 1);
    else if (init->len > (*ty)->len)
        error_at(init->line, "string of %d characters does not fit in '%s'", init->len, type_name(*ty));
    return true;
}

/* Completes "int a[] = {...}" and checks the list's length. */
static void list_length(struct type **ty, const struct node *init, const char *name)
{
    if ((*ty)->kind != TY_ARRAY) {
        if (init && init->op == P_INITLIST)
            error_at(init->line, "'%s' is not an array: it takes a single value", name);
        return;
    }
    if (!init || init->op != P_INITLIST) {
        if (init)
            error_at(init->line, "array '%s' needs a list in braces", name);
        if ((*ty)->len < 0)
            error_at(init ? init->line : 0, "size of array '%s' is missing", name);
        return;
    }
    if ((*ty)->base->kind == TY_ARRAY)
        error_at(init->line, "initializing arrays of arrays is not supported");
    long n = 0;
    for (struct node *e = init->a; e; e = e->next)
        n++;
    if ((*ty)->len < 0)
        *ty = array_of((*ty)->base, n);
    else if (n > (*ty)->len)
        error_at(init->line, "too many initializers for '%s'", name);
}

static void check_object_type(struct type *ty, const char *name, int line)
{
    struct type *t = ty;
    while (t->kind == TY_ARRAY)
        t = t->base;
    if (t->kind == TY_VOID)
        error_at(line, "'%s' is declared void", name);
}

static struct node *init_item(long offset, struct type *ty, struct node *value)
{
    struct node *n = new_node(N_INIT, value->line);
    n->val = offset;
    n->mt = machine_type(ty);
    n->a = value;
    return n;
}

/* One constant of a global's initializer: a number, or an address. */
static struct node *global_item(long offset, struct type *ty, struct node *e)
{
    struct node *v = assign_conv(rvalue(e), ty, "initializer");
    if (v->op != N_NUM && v->op != N_GADDR)
        error_at(e->line, "a global's initializer must be a constant or an address");
    return init_item(offset, ty, v);
}

static struct node *global_var(struct node *d)
{
    struct type *ty = d->ty;
    struct node *init = d->a;
    bool str = string_init(&ty, init);
    if (!str)
        list_length(&ty, init, d->name);
    check_object_type(ty, d->name, d->line);
    struct sym *s = lookup(d->name);
    if (s)
        error_at(d->line, "'%s' is already declared (line %d)", d->name, s->line);
    s = add_sym(&globals, d->name, SYM_GLOBAL, ty, d->line);
    s->defined = true;

    struct node *g = new_node(N_GVAR, d->line);
    g->name = d->name;
    g->val = ty->size;
    struct node **tail = &g->a;
    if (str) {
        for (int i = 0; i <= init->len && i < ty->len; i++) {
            *tail = init_item(i, ty_char, make_num(i < init->len ? (unsigned char)init->name[i] : 0,
                                                   ty_char, init->line));
            tail = &(*tail)->next;
        }
    } else if (init && init->op == P_INITLIST) {
        long i = 0;
        for (struct node *e = init->a; e; e = e->next, i++) {
            *tail = global_item(i * ty->base->size, ty->base, e);
            tail = &(*tail)->next;
        }
    } else if (init) {
        *tail = global_item(0, ty, init);
    }
    return g;
}

static struct node *store_at(long offset, struct type *ty, struct node *value)
{
    struct node *addr = new_node(N_LADDR, value->line);
    addr->val = offset;
    addr->mt = MT_DWORD;
    struct node *st = new_node(N_STORE, value->line);
    st->mt = machine_type(ty);
    st->a = addr;
    st->b = value;
    struct node *e = new_node(N_EXPR, value->line);
    e->a = st;
    return e;
}

/* A local variable: room in the frame, and its initializer as stores. */
static struct node *local_var(struct node *d)
{
    if (d->val)
        error_at(d->line, "static local variables are not supported");
    if (d->ty->kind == TY_FUNC)
        error_at(d->line, "functions must be declared at file scope");
    struct type *ty = d->ty;
    struct node *init = d->a;
    bool str = string_init(&ty, init);
    if (!str)
        list_length(&ty, init, d->name);
    check_object_type(ty, d->name, d->line);
    for (struct sym *s = locals; s && s->depth == block_depth; s = s->next)
        if (strcmp(s->name, d->name) == 0)
            error_at(d->line, "'%s' is already declared in this block (line %d)", d->name, s->line);

    frame_used = (frame_used + ty->size + ty->align - 1) / ty->align * ty->align;
    if (frame_used > CC_MAX_FRAME)
        error_at(d->line, "local variables need more than %d KiB of stack; make '%s' global",
                 CC_MAX_FRAME / 1024, d->name);
    if (frame_used > frame_max)
        frame_max = frame_used;
    long offset = -(FRAME_HEADER + frame_used);
    /* The initializer sees the scope before the name, as "int x = x;" should not. */
    struct node *head = NULL, **tail = &head;
    if (str) {
        for (long i = 0; i < ty->len; i++) {
            long c = i < init->len ? (unsigned char)init->name[i] : 0;
            *tail = store_at(offset + i, ty_char, make_num(c, ty_char, d->line));
            tail = &(*tail)->next;
        }
    } else if (init && init->op == P_INITLIST) {
        struct node *e = init->a;
        for (long i = 0; i < ty->len; i++) {
            struct node *v = e ? assign_conv(rvalue(e), ty->base, "initializer")
                               : make_num(0, ty->base, d->line);
            *tail = store_at(offset + i * ty->base->size, ty->base, v);
            tail = &(*tail)->next;
            e = e ? e->next : NULL;
        }
    } else if (init) {
        *tail = store_at(offset, ty, assign_conv(rvalue(init), ty, "initializer"));
    }
    struct sym *s = add_sym(&locals, d->name, SYM_LOCAL, ty, d->line);
    s->offset = offset;
    return head;
}

/* ---- statements ---- */

static struct node *statement(struct fn_ctx *fc, struct node *p);

/* A list of statements and declarations, in a new scope. */
static struct node *block(struct fn_ctx *fc, struct node *items, int line)
{
    struct sym *saved = locals;
    long used = frame_used;
    block_depth++;
    struct node *b = new_node(N_BLOCK, line);
    struct node **tail = &b->a;
    for (struct node *s = items, *next; s; s = next) {
        next = s->next;
        s->next = NULL;
        *tail = s->op == P_DECL ? local_var(s) : statement(fc, s);
        while (*tail)
            tail = &(*tail)->next;
    }
    block_depth--;
    locals = saved;
    frame_used = used;             /* the block's locals are gone: reuse their room */
    return b;
}

static struct node *condition(struct node *p)
{
    struct node *c = rvalue(p);
    if (!is_scalar(c->ty))
        error_at(p->line, "a condition needs a number or a pointer, not '%s'", type_name(c->ty));
    return c;
}

static struct node *loop_body(struct fn_ctx *fc, struct node *p)
{
    fc->loops++;
    struct node *b = statement(fc, p);
    fc->loops--;
    return b;
}

static struct node *statement(struct fn_ctx *fc, struct node *p)
{
    struct node *n = new_node(p->op, p->line);
    switch (p->op) {
    case N_BLOCK:
        return block(fc, p->a, p->line);
    case N_EXPR:
        n->a = rvalue(p->a);
        return n;
    case N_IF:
        n->a = condition(p->a);
        n->b = statement(fc, p->b);
        n->c = p->c ? statement(fc, p->c) : NULL;
        return n;
    case N_WHILE:
        n->a = condition(p->a);
        n->b = loop_body(fc, p->b);
        return n;
    case N_DO:
        n->a = loop_body(fc, p->a);
        n->b = condition(p->b);
        return n;
    case N_FOR:
        if (p->a && p->a->op == P_DECL) {
            /* for (int i = 0; ...): the declaration's scope is the loop. */
            struct node *loop = new_node(N_FOR, p->line);
            loop->b = p->b;
            loop->c = p->c;
            loop->d = p->d;
            struct node *decls = p->a;
            struct node *last = decls;
            while (last->next)
                last = last->next;
            last->next = loop;
            return block(fc, decls, p->line);
        }
        n->a = p->a ? rvalue(p->a) : NULL;
        n->b = p->b ? condition(p->b) : NULL;
        n->c = p->c ? rvalue(p->c) : NULL;
        n->d = loop_body(fc, p->d);
        return n;
    case N_RETURN: {
        struct type *ret = fc->fn->ty->ret;
        if (p->a && ret->kind == TY_VOID)
            error_at(p->line, "'%s' returns void, so 'return' takes no value", fc->fn->name);
        if (!p->a && ret->kind != TY_VOID)
            error_at(p->line, "'%s' must return a value ('%s')", fc->fn->name, type_name(ret));
        if (p->a)
            n->a = assign_conv(rvalue(p->a), ret, "return value");
        return n;
    }
    case N_BREAK:
    case N_CONTINUE:
        if (!fc->loops)
            error_at(p->line, "'%s' outside a loop", p->op == N_BREAK ? "break" : "continue");
        return n;
    default:
        error_at(p->line, "internal error: unexpected statement %d", p->op);
    }
}

/* ---- functions and the program ---- */

static struct sym *declare_function(struct node *d)
{
    if (d->ty->ret->kind == TY_ARRAY)
        error_at(d->line, "'%s' cannot return an array", d->name);
    if (d->ty->nparams > CC_MAX_ARGS)
        error_at(d->line, "'%s' has %d parameters; cc allows at most %d", d->name,
                 d->ty->nparams, CC_MAX_ARGS);
    struct sym *s = lookup(d->name);
    if (s && s->kind != SYM_FUNC)
        error_at(d->line, "'%s' is already declared as a variable (line %d)", d->name, s->line);
    if (s && !same_type(s->ty, d->ty))
        error_at(d->line, "'%s' declared differently before: '%s'", d->name, type_name(s->ty));
    if (!s)
        s = add_sym(&globals, d->name, SYM_FUNC, d->ty, d->line);
    return s;
}

static struct node *function(struct node *d)
{
    struct sym *s = declare_function(d);
    if (s->runtime)
        error_at(d->line, "'%s' is a runtime function; it cannot be redefined", d->name);
    if (s->defined)
        error_at(d->line, "'%s' is already defined (line %d)", d->name, s->line);
    s->defined = true;
    s->line = d->line;

    struct fn_ctx fc = { s, 0 };
    frame_used = frame_max = 0;
    locals = NULL;
    /* Parameters share the scope of the body's outermost block. */
    block_depth = 2;
    struct node *f = new_node(N_FUNC, d->line);
    f->name = d->name;
    struct node **tail = &f->a;
    for (struct node *q = d->a; q; q = q->next) {
        struct node *decl = new_node(P_DECL, q->line);
        decl->name = q->name;
        decl->ty = q->ty;
        local_var(decl);
        struct node *param = new_node(N_PARAM, q->line);
        param->val = locals->offset;
        param->mt = machine_type(q->ty);
        *tail = param;
        tail = &param->next;
    }
    block_depth = 1;
    f->b = block(&fc, d->b->a, d->b->line);
    f->val = frame_max;
    locals = NULL;
    block_depth = 0;
    return f;
}

struct node *check_program(struct node *parsed)
{
    add_runtime();
    struct node *head = NULL, **tail = &head;
    for (struct node *d = parsed, *next; d; d = next) {
        next = d->next;
        struct node *out = NULL;
        if (d->op == P_FUNCDEF)
            out = function(d);
        else if (d->ty->kind == TY_FUNC)
            declare_function(d);
        else
            out = global_var(d);
        if (out) {
            *tail = out;
            tail = &out->next;
        }
    }
    struct sym *m = lookup("main");
    if (!m || m->kind != SYM_FUNC || !m->defined)
        error_at(0, "no function 'main'");
    for (struct sym *s = globals; s; s = s->next)
        if (s->kind == SYM_FUNC && !s->defined && s->used_line)
            error_at(s->used_line, "'%s' is called but never defined", s->name);
    *tail = strings;
    return head;
}
