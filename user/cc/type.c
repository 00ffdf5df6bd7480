/*
 * C types as c0 sees them: void, char, int, long, pointers, arrays and
 * functions. char is unsigned, as the RISC-V ABI has it; int is 32 bits,
 * long and pointers 64.
 */
#include "c0.h"

static struct type t_void = { TY_VOID, 1, 1, NULL, 0, NULL, NULL, 0 };
static struct type t_char = { TY_CHAR, 1, 1, NULL, 0, NULL, NULL, 0 };
static struct type t_int = { TY_INT, 4, 4, NULL, 0, NULL, NULL, 0 };
static struct type t_long = { TY_LONG, 8, 8, NULL, 0, NULL, NULL, 0 };

struct type *ty_void = &t_void, *ty_char = &t_char, *ty_int = &t_int, *ty_long = &t_long;

struct type *pointer_to(struct type *base)
{
    struct type *t = cc_alloc(sizeof *t);
    t->kind = TY_PTR;
    t->size = t->align = 8;
    t->base = base;
    return t;
}

struct type *array_of(struct type *base, long len)
{
    struct type *t = cc_alloc(sizeof *t);
    t->kind = TY_ARRAY;
    t->base = base;
    t->len = len;
    t->size = len < 0 ? 0 : base->size * len;
    t->align = base->align;
    return t;
}

struct type *func_type(struct type *ret, struct type **params, int nparams)
{
    struct type *t = cc_alloc(sizeof *t);
    t->kind = TY_FUNC;
    t->size = t->align = 1;
    t->ret = ret;
    t->params = params;
    t->nparams = nparams;
    return t;
}

bool is_integer(const struct type *t)
{
    return t->kind == TY_CHAR || t->kind == TY_INT || t->kind == TY_LONG;
}

bool is_pointer(const struct type *t)
{
    return t->kind == TY_PTR || t->kind == TY_ARRAY;
}

bool is_scalar(const struct type *t)
{
    return is_integer(t) || is_pointer(t);
}

bool same_type(const struct type *a, const struct type *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TY_PTR:
        return same_type(a->base, b->base);
    case TY_ARRAY:
        return (a->len == b->len || a->len < 0 || b->len < 0) && same_type(a->base, b->base);
    case TY_FUNC:
        if (!same_type(a->ret, b->ret) || a->nparams != b->nparams)
            return false;
        for (int i = 0; i < a->nparams; i++)
            if (!same_type(a->params[i], b->params[i]))
                return false;
        return true;
    default:
        return true;
    }
}

char machine_type(const struct type *t)
{
    switch (t->kind) {
    case TY_VOID: return MT_VOID;
    case TY_CHAR: return MT_BYTE;
    case TY_INT:  return MT_WORD;
    default:      return MT_DWORD;
    }
}

static void name_into(struct buf *b, const struct type *t)
{
    switch (t->kind) {
    case TY_VOID: buf_printf(b, "void"); break;
    case TY_CHAR: buf_printf(b, "char"); break;
    case TY_INT:  buf_printf(b, "int"); break;
    case TY_LONG: buf_printf(b, "long"); break;
    case TY_PTR:
        name_into(b, t->base);
        buf_printf(b, t->base->kind == TY_PTR ? "*" : " *");
        break;
    case TY_ARRAY:
        name_into(b, t->base);
        if (t->len >= 0)
            buf_printf(b, " [%ld]", t->len);
        else
            buf_printf(b, " []");
        break;
    case TY_FUNC:
        name_into(b, t->ret);
        buf_printf(b, " (");
        for (int i = 0; i < t->nparams; i++) {
            if (i)
                buf_printf(b, ", ");
            name_into(b, t->params[i]);
        }
        buf_printf(b, ")");
        break;
    }
}

const char *type_name(const struct type *t)
{
    struct buf b = { 0 };
    name_into(&b, t);
    char *s = cc_strndup(b.p, b.len);
    free(b.p);
    return s;
}
