/*
 * Checking and lowering expressions. Every parse-tree expression becomes
 * a lowered node with its C type (ty) and machine type (mt):
 *
 *   - a variable is its address (LADDR, GADDR) and, unless it is an
 *     array, a LOAD of it: C's lvalue-to-value conversion made explicit,
 *     so "&x" and "x = ..." simply take the LOAD's address back;
 *   - arrays decay to the address of their first element;
 *   - pointer arithmetic is scaled by the element size here, so c1 never
 *     needs C types;
 *   - the usual arithmetic conversions become CONV nodes where a value
 *     must be narrowed (widening needs no code: values in registers are
 *     kept sign-extended, chars zero-extended);
 *   - operations on constants are folded.
 */
#include "c0.h"

#define CHECK_MAX_DEPTH 1000    /* tree depth (e.g. a+a+...+a); the stack holds far more */

static int depth;

static struct node *mk(int op, struct type *ty, int line)
{
    struct node *n = new_node(op, line);
    n->ty = ty;
    n->mt = machine_type(ty);
    return n;
}

struct node *make_num(long v, struct type *ty, int line)
{
    struct node *n = mk(N_NUM, ty, line);
    n->val = v;
    return n;
}

static struct node *binop(int op, struct type *ty, struct node *a, struct node *b, int line)
{
    struct node *n = mk(op, ty, line);
    n->a = a;
    n->b = b;
    return n;
}

static long truncate_to(long v, char mt)
{
    if (mt == MT_BYTE)
        return v & 0xff;
    if (mt == MT_WORD)
        return (long)(int)(unsigned int)(unsigned long)v;
    return v;
}

/* Converts a value to type ty (both scalar or void). */
static struct node *convert(struct node *n, struct type *ty)
{
    char from = n->mt, to = machine_type(ty);
    if (n->op == N_NUM) {
        n->val = truncate_to(n->val, to);
        n->ty = ty;
        n->mt = to;
        return n;
    }
    /* Narrowing needs code; widening does not (see above). */
    bool narrowing = (to == MT_BYTE && from != MT_BYTE) || (to == MT_WORD && from == MT_DWORD);
    if (!narrowing) {
        n->ty = ty;
        return n;
    }
    struct node *c = mk(N_CONV, ty, n->line);
    c->a = n;
    return c;
}

/* int for char and int, long for long: what arithmetic works in. */
static struct type *promoted(struct type *t)
{
    return t->kind == TY_LONG ? ty_long : ty_int;
}

static struct type *common(struct type *a, struct type *b)
{
    return a->kind == TY_LONG || b->kind == TY_LONG ? ty_long : ty_int;
}

static bool is_null_constant(const struct node *n)
{
    return n->op == N_NUM && n->val == 0 && is_integer(n->ty);
}

static void need_integer(const struct node *n, const char *op)
{
    if (!is_integer(n->ty))
        error_at(n->line, "'%s' needs an integer operand, not '%s'", op, type_name(n->ty));
}

static void need_scalar(const struct node *n, const char *what)
{
    if (!is_scalar(n->ty))
        error_at(n->line, "%s needs a number or a pointer, not '%s'", what, type_name(n->ty));
}

struct node *assign_conv(struct node *n, struct type *ty, const char *what)
{
    if (is_integer(ty) && is_integer(n->ty))
        return convert(n, ty);
    if (ty->kind == TY_PTR) {
        if (is_null_constant(n))
            return convert(n, ty);
        if (n->ty->kind == TY_PTR && (same_type(ty->base, n->ty->base) ||
                                      ty->base->kind == TY_VOID || n->ty->base->kind == TY_VOID)) {
            n->ty = ty;
            return n;
        }
    }
    error_at(n->line, "%s: cannot convert '%s' to '%s'", what, type_name(n->ty), type_name(ty));
}

static struct node *fold(struct node *n)
{
    if (n->a->op != N_NUM || !n->b || n->b->op != N_NUM)
        return n;
    long a = n->a->val, b = n->b->val, v;
    switch (n->op) {
    case N_ADD: v = (long)((unsigned long)a + (unsigned long)b); break;
    case N_SUB: v = (long)((unsigned long)a - (unsigned long)b); break;
    case N_MUL: v = (long)((unsigned long)a * (unsigned long)b); break;
    case N_DIV: if (!b || (b == -1 && a < -0x7fffffffffffffffL)) return n; v = a / b; break;
    case N_MOD: if (!b || b == -1) return n; v = a % b; break;
    case N_BAND: v = a & b; break;
    case N_BOR: v = a | b; break;
    case N_BXOR: v = a ^ b; break;
    case N_SHL: v = (long)((unsigned long)a << (b & (n->mt == MT_WORD ? 31 : 63))); break;
    case N_SHR: v = a >> (b & (n->mt == MT_WORD ? 31 : 63)); break;
    case N_EQ: v = a == b; break;
    case N_NE: v = a != b; break;
    case N_LT: v = a < b; break;
    case N_LE: v = a <= b; break;
    case N_GT: v = a > b; break;
    case N_GE: v = a >= b; break;
    default: return n;
    }
    return make_num(truncate_to(v, n->mt), n->ty, n->line);
}

/* An integer times an element size, as a long: the offset of a pointer step. */
static struct node *scaled(struct node *i, long size)
{
    i = convert(i, ty_long);
    if (size == 1)
        return i;
    return fold(binop(N_MUL, ty_long, i, make_num(size, ty_long, i->line), i->line));
}

static void need_complete_pointer(const struct node *p)
{
    struct type *base = p->ty->base;
    if (base->kind == TY_VOID || base->size == 0)
        error_at(p->line, "arithmetic on '%s' (its target has no size)", type_name(p->ty));
}

static struct node *additive(int op, struct node *a, struct node *b, int line)
{
    const char *sym = op == N_ADD ? "+" : "-";
    if (is_integer(a->ty) && is_integer(b->ty)) {
        struct type *t = common(a->ty, b->ty);
        return fold(binop(op, t, convert(a, t), convert(b, t), line));
    }
    if (op == N_ADD && is_integer(a->ty) && b->ty->kind == TY_PTR) {
        struct node *t = a;
        a = b;
        b = t;
    }
    if (a->ty->kind == TY_PTR && is_integer(b->ty)) {
        need_complete_pointer(a);
        return fold(binop(op, a->ty, a, scaled(b, a->ty->base->size), line));
    }
    if (op == N_SUB && a->ty->kind == TY_PTR && b->ty->kind == TY_PTR) {
        if (!same_type(a->ty->base, b->ty->base))
            error_at(line, "subtracting '%s' from '%s'", type_name(b->ty), type_name(a->ty));
        need_complete_pointer(a);
        struct node *diff = binop(N_SUB, ty_long, a, b, line);
        return binop(N_DIV, ty_long, diff, make_num(a->ty->base->size, ty_long, line), line);
    }
    error_at(line, "invalid operands to '%s': '%s' and '%s'", sym, type_name(a->ty), type_name(b->ty));
}

static const char *binop_symbol(int op)
{
    static const struct { int op; const char *s; } syms[] = {
        { N_MUL, "*" }, { N_DIV, "/" }, { N_MOD, "%" }, { N_BAND, "&" }, { N_BOR, "|" },
        { N_BXOR, "^" }, { N_SHL, "<<" }, { N_SHR, ">>" }, { N_EQ, "==" }, { N_NE, "!=" },
        { N_LT, "<" }, { N_LE, "<=" }, { N_GT, ">" }, { N_GE, ">=" }, { N_LAND, "&&" },
        { N_LOR, "||" }, { N_ADD, "+" }, { N_SUB, "-" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(syms); i++)
        if (syms[i].op == op)
            return syms[i].s;
    return "?";
}

static struct node *binary(const struct node *p)
{
    struct node *a = rvalue(p->a), *b = rvalue(p->b);
    int op = p->op;
    const char *sym = binop_symbol(op);
    switch (op) {
    case N_ADD:
    case N_SUB:
        return additive(op, a, b, p->line);
    case N_SHL:
    case N_SHR: {
        need_integer(a, sym);
        need_integer(b, sym);
        struct type *t = promoted(a->ty);
        return fold(binop(op, t, convert(a, t), convert(b, t), p->line));
    }
    case N_LAND:
    case N_LOR:
        need_scalar(a, sym);
        need_scalar(b, sym);
        return fold(binop(op, ty_int, a, b, p->line));
    case N_EQ: case N_NE: case N_LT: case N_LE: case N_GT: case N_GE:
        if (is_integer(a->ty) && is_integer(b->ty)) {
            struct type *t = common(a->ty, b->ty);
            a = convert(a, t);
            b = convert(b, t);
        } else if (!(a->ty->kind == TY_PTR && b->ty->kind == TY_PTR &&
                     (same_type(a->ty->base, b->ty->base) || a->ty->base->kind == TY_VOID ||
                      b->ty->base->kind == TY_VOID)) &&
                   !(a->ty->kind == TY_PTR && is_null_constant(b)) &&
                   !(b->ty->kind == TY_PTR && is_null_constant(a))) {
            error_at(p->line, "comparing '%s' with '%s'", type_name(a->ty), type_name(b->ty));
        }
        return fold(binop(op, ty_int, a, b, p->line));
    default: {
        need_integer(a, sym);
        need_integer(b, sym);
        struct type *t = common(a->ty, b->ty);
        return fold(binop(op, t, convert(a, t), convert(b, t), p->line));
    }
    }
}

/* The object a pointer value points to. */
static struct node *deref(struct node *ptr, int line)
{
    if (ptr->ty->kind != TY_PTR)
        error_at(line, "'*' needs a pointer, not '%s'", type_name(ptr->ty));
    struct type *t = ptr->ty->base;
    if (t->kind == TY_VOID)
        error_at(line, "dereferencing 'void *'");
    if (t->kind == TY_ARRAY) {
        ptr->ty = t;      /* an array object: its address is the value */
        return ptr;
    }
    struct node *n = mk(N_LOAD, t, line);
    n->a = ptr;
    return n;
}

static struct node *variable(const struct node *p)
{
    struct sym *s = lookup(p->name);
    if (!s)
        error_at(p->line, "undeclared variable '%s'", p->name);
    if (s->kind == SYM_FUNC)
        error_at(p->line, "function '%s' used as a value (cc has no function pointers)", p->name);
    struct node *addr = mk(s->kind == SYM_LOCAL ? N_LADDR : N_GADDR, pointer_to(s->ty), p->line);
    addr->val = s->offset;
    addr->name = (char *)s->name;
    return deref(addr, p->line);
}

static struct node *address_of(const struct node *p)
{
    struct node *n = lower_expr(p->a);
    if (n->op == N_LOAD) {
        struct node *addr = n->a;
        addr->ty = pointer_to(n->ty);
        return addr;
    }
    if (n->ty->kind == TY_ARRAY) {
        n->ty = pointer_to(n->ty);
        n->mt = MT_DWORD;
        return n;
    }
    error_at(p->line, "cannot take the address of this expression");
}

/* The address of an lvalue, and its type; "what" names the operation. */
static struct node *lvalue(const struct node *p, struct type **ty, const char *what)
{
    struct node *n = lower_expr(p);
    if (n->ty->kind == TY_ARRAY)
        error_at(p->line, "%s: an array cannot be assigned", what);
    if (n->op != N_LOAD)
        error_at(p->line, "%s: the left side cannot be assigned", what);
    *ty = n->ty;
    return n->a;
}

static struct node *assignment(const struct node *p)
{
    struct type *ty;
    struct node *addr = lvalue(p->a, &ty, "assignment");
    struct node *n = mk(N_STORE, ty, p->line);
    n->a = addr;
    n->b = assign_conv(rvalue(p->b), ty, "assignment");
    return n;
}

static struct node *compound_assignment(const struct node *p)
{
    struct type *ty;
    const char *sym = binop_symbol((int)p->val);
    struct node *addr = lvalue(p->a, &ty, "compound assignment");
    struct node *b = rvalue(p->b);
    need_integer(b, sym);
    if (ty->kind == TY_PTR) {
        if (p->val != N_ADD && p->val != N_SUB)
            error_at(p->line, "'%s=' on a pointer", sym);
        if (ty->base->kind == TY_VOID || ty->base->size == 0)
            error_at(p->line, "arithmetic on '%s' (its target has no size)", type_name(ty));
        b = scaled(b, ty->base->size);
    } else if (!is_integer(ty)) {
        error_at(p->line, "'%s=' needs an integer or pointer on the left", sym);
    }
    struct node *n = mk(N_ASGOP, ty, p->line);
    n->a = addr;
    n->b = b;
    n->val = p->val;
    return n;
}

static struct node *increment(const struct node *p)
{
    struct type *ty;
    struct node *addr = lvalue(p->a, &ty, p->val > 0 ? "'++'" : "'--'");
    long step = p->val;
    if (ty->kind == TY_PTR) {
        if (ty->base->kind == TY_VOID || ty->base->size == 0)
            error_at(p->line, "arithmetic on '%s' (its target has no size)", type_name(ty));
        step *= ty->base->size;
    } else if (!is_integer(ty)) {
        error_at(p->line, "'++' and '--' need a number or a pointer");
    }
    struct node *n = mk(p->op, ty, p->line);
    n->a = addr;
    n->val = step;
    return n;
}

static struct node *call(const struct node *p)
{
    struct sym *s = lookup(p->name);
    if (!s)
        error_at(p->line, "undeclared function '%s'", p->name);
    if (s->kind != SYM_FUNC)
        error_at(p->line, "'%s' is not a function", p->name);
    if (!s->used_line)
        s->used_line = p->line;
    struct type *ft = s->ty;
    int nargs = 0;
    for (struct node *a = p->a; a; a = a->next)
        nargs++;
    if (nargs > ft->nparams)
        error_at(p->line, "too many arguments to '%s' (it takes %d)", p->name, ft->nparams);
    if (nargs < ft->nparams)
        error_at(p->line, "too few arguments to '%s' (it takes %d)", p->name, ft->nparams);
    struct node *n = mk(N_CALL, ft->ret, p->line);
    n->name = (char *)s->name;
    struct node **tail = &n->a;
    int i = 0;
    for (struct node *a = p->a; a; a = a->next, i++) {
        char what[CC_MAX_NAME + 40];
        snprintf(what, sizeof what, "argument %d of '%s'", i + 1, p->name);
        *tail = assign_conv(rvalue(a), ft->params[i], what);
        tail = &(*tail)->next;
    }
    return n;
}

static struct node *cast(const struct node *p)
{
    struct type *to = p->ty;
    struct node *v = rvalue(p->a);
    if (to->kind == TY_VOID) {
        v->ty = ty_void;
        return v;
    }
    if (!is_scalar(to) || to->kind == TY_ARRAY)
        error_at(p->line, "cannot cast to '%s'", type_name(to));
    need_scalar(v, "a cast");
    if (to->kind == TY_PTR && v->ty->kind == TY_PTR) {
        v->ty = to;
        return v;
    }
    return convert(v, to);
}

static struct node *conditional(const struct node *p)
{
    struct node *n = mk(N_COND, ty_int, p->line);
    n->a = rvalue(p->a);
    need_scalar(n->a, "'?:'");
    struct node *b = rvalue(p->b), *c = rvalue(p->c);
    struct type *t;
    if (is_integer(b->ty) && is_integer(c->ty)) {
        t = common(b->ty, c->ty);
        b = convert(b, t);
        c = convert(c, t);
    } else if (b->ty->kind == TY_VOID && c->ty->kind == TY_VOID) {
        t = ty_void;
    } else if (b->ty->kind == TY_PTR && (is_null_constant(c) || same_type(b->ty, c->ty))) {
        t = b->ty;
        c = convert(c, t);
    } else if (c->ty->kind == TY_PTR && is_null_constant(b)) {
        t = c->ty;
        b = convert(b, t);
    } else {
        error_at(p->line, "'?:' branches differ: '%s' and '%s'", type_name(b->ty), type_name(c->ty));
    }
    n->ty = t;
    n->mt = machine_type(t);
    n->b = b;
    n->c = c;
    return n;
}

static struct node *size_of(const struct node *p)
{
    struct type *t = p->op == P_SIZEOF_TYPE ? p->ty : lower_expr(p->a)->ty;
    if (t->kind == TY_VOID || t->kind == TY_FUNC || t->size == 0)
        error_at(p->line, "sizeof of '%s', which has no size", type_name(t));
    return make_num(t->size, ty_long, p->line);
}

static struct node *unary(const struct node *p)
{
    struct node *a = rvalue(p->a);
    switch (p->op) {
    case N_NOT:
        need_scalar(a, "'!'");
        if (a->op == N_NUM)
            return make_num(!a->val, ty_int, p->line);
        return binop(N_NOT, ty_int, a, NULL, p->line);
    case P_PLUS:
        need_integer(a, "+");
        return convert(a, promoted(a->ty));
    default: {
        need_integer(a, p->op == N_NEG ? "-" : "~");
        struct type *t = promoted(a->ty);
        a = convert(a, t);
        if (a->op == N_NUM)
            return make_num(truncate_to(p->op == N_NEG ? -a->val : ~a->val, a->mt), t, p->line);
        return binop(p->op, t, a, NULL, p->line);
    }
    }
}

struct node *lower_expr(const struct node *p)
{
    if (++depth > CHECK_MAX_DEPTH)
        error_at(p->line, "expression too complex (nested more than %d deep)", CHECK_MAX_DEPTH);
    struct node *n;
    switch (p->op) {
    case N_NUM:         n = make_num(p->val, p->ty, p->line); break;
    case P_STRING:      n = string_literal(p); break;
    case P_IDENT:       n = variable(p); break;
    case P_DEREF:       n = deref(rvalue(p->a), p->line); break;
    case P_INDEX: {
        struct node *a = rvalue(p->a), *i = rvalue(p->b);
        if (!(is_pointer(a->ty) || is_pointer(i->ty)))
            error_at(p->line, "subscripted value is not an array or pointer");
        n = deref(additive(N_ADD, a, i, p->line), p->line);
        break;
    }
    case P_ADDR:        n = address_of(p); break;
    case P_ASSIGN:      n = assignment(p); break;
    case N_ASGOP:       n = compound_assignment(p); break;
    case N_PREINC:
    case N_POSTINC:     n = increment(p); break;
    case N_CALL:        n = call(p); break;
    case P_CAST:        n = cast(p); break;
    case N_COND:        n = conditional(p); break;
    case P_SIZEOF_EXPR:
    case P_SIZEOF_TYPE: n = size_of(p); break;
    case N_COMMA: {
        struct node *a = rvalue(p->a), *b = rvalue(p->b);
        n = binop(N_COMMA, b->ty, a, b, p->line);
        break;
    }
    case N_NOT: case P_PLUS: case N_NEG: case N_BNOT:
        n = unary(p);
        break;
    default:
        n = binary(p);
        break;
    }
    depth--;
    return n;
}

struct node *rvalue(const struct node *p)
{
    struct node *n = lower_expr(p);
    if (n->ty->kind == TY_ARRAY) {
        n->ty = pointer_to(n->ty->base);
        n->mt = MT_DWORD;
    }
    return n;
}
