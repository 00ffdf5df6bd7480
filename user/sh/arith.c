/*
 * $(( )) arithmetic: signed 64-bit integers, by precedence climbing over
 *
 *   ||   &&   == !=   < <= > >=   + -   * / %   unary - + !   ( )
 *
 * (lowest first). Comparisons and ! give 1 or 0, as in C. Operands are
 * decimal numbers (a leading 0x means hexadecimal) or variable names,
 * whose values must be numbers (unset or empty is 0). + - * wrap around
 * instead of overflowing; division by zero is an error.
 */
#include "sh.h"

struct arith {
    const char      *p;
    arith_lookup     lookup;
    struct sh_error *err;
    bool             failed;
};

static long bad(struct arith *a, const char *fmt, const char *what)
{
    if (!a->failed)
        sh_set_error(a->err, 0, fmt, what);
    a->failed = true;
    return 0;
}

static void skip_blanks(struct arith *a)
{
    while (isspace(*a->p))
        a->p++;
}

/* A number in s (all of it), or false. */
static bool to_number(const char *s, long *v)
{
    while (isspace(*s))
        s++;
    if (*s == '\0') {
        *v = 0;
        return true;
    }
    char *end;
    *v = strtol(s, &end, 0);
    while (isspace(*end))
        end++;
    return end != s && *end == '\0';
}

static long expr(struct arith *a, int level);

static long primary(struct arith *a)
{
    skip_blanks(a);
    const char *p = a->p;
    if (*p == '(') {
        a->p++;
        long v = expr(a, 0);
        skip_blanks(a);
        if (*a->p != ')')
            return bad(a, "arithmetic: missing `)'%s", "");
        a->p++;
        return v;
    }
    if (*p == '-' || *p == '+' || *p == '!') {
        a->p++;
        long v = primary(a);
        return *p == '-' ? (long)(0UL - (unsigned long)v) : *p == '!' ? !v : v;
    }
    if (isdigit(*p)) {
        char *end;
        long v = strtol(p, &end, 0);
        if (isalpha(*end) || *end == '_')
            return bad(a, "arithmetic: bad number near `%s'", p);
        a->p = end;
        return v;
    }
    if (isalpha(*p) || *p == '_') {
        size_t n = 1;
        while (isalpha(p[n]) || isdigit(p[n]) || p[n] == '_')
            n++;
        char name[SH_NAME_MAX];
        if (n >= sizeof name)
            return bad(a, "arithmetic: name too long near `%s'", p);
        memcpy(name, p, n);
        name[n] = '\0';
        a->p = p + n;
        const char *value = a->lookup ? a->lookup(name) : NULL;
        long v = 0;
        if (value && !to_number(value, &v))
            return bad(a, "arithmetic: %s is not a number", name);
        return v;
    }
    return bad(a, *p ? "arithmetic: syntax error near `%s'" : "arithmetic: missing operand%s",
               p);
}

/* Binary operators by level, lowest first. */
enum { L_OR, L_AND, L_EQUALITY, L_RELATION, L_SUM, L_PRODUCT, L_LEVELS };
static const struct {
    const char *op;
    int         level;
} OPS[] = {   /* two-character operators before their one-character prefixes */
    { "||", L_OR }, { "&&", L_AND }, { "==", L_EQUALITY }, { "!=", L_EQUALITY },
    { "<=", L_RELATION }, { ">=", L_RELATION }, { "<", L_RELATION }, { ">", L_RELATION },
    { "+", L_SUM }, { "-", L_SUM }, { "*", L_PRODUCT }, { "/", L_PRODUCT }, { "%", L_PRODUCT },
};

static const char *next_op(struct arith *a, int level)
{
    skip_blanks(a);
    for (size_t i = 0; i < ARRAY_SIZE(OPS); i++) {
        size_t n = strlen(OPS[i].op);
        if (strncmp(a->p, OPS[i].op, n) == 0)
            return OPS[i].level == level ? OPS[i].op : NULL;
    }
    return NULL;
}

static long apply(struct arith *a, const char *op, long x, long y)
{
    unsigned long ux = (unsigned long)x, uy = (unsigned long)y;
    switch (op[0]) {
    case '|': return x || y;
    case '&': return x && y;
    case '=': return x == y;
    case '!': return x != y;
    case '<': return op[1] ? x <= y : x < y;
    case '>': return op[1] ? x >= y : x > y;
    case '+': return (long)(ux + uy);
    case '-': return (long)(ux - uy);
    case '*': return (long)(ux * uy);
    default:  /* / and % */
        if (y == 0)
            return bad(a, "arithmetic: division by zero%s", "");
        if (y == -1)          /* LONG_MIN / -1 overflows */
            return op[0] == '/' ? (long)(0UL - ux) : 0;
        return op[0] == '/' ? x / y : x % y;
    }
}

static long expr(struct arith *a, int level)
{
    if (level == L_LEVELS)
        return primary(a);
    long v = expr(a, level + 1);
    const char *op;
    while (!a->failed && (op = next_op(a, level))) {
        a->p += strlen(op);
        long rhs = expr(a, level + 1);
        v = apply(a, op, v, rhs);
    }
    return v;
}

int arith_eval(const char *text, arith_lookup lookup, long *value, struct sh_error *err)
{
    struct arith a = { .p = text, .lookup = lookup, .err = err };
    long v = expr(&a, 0);
    skip_blanks(&a);
    if (!a.failed && *a.p)
        bad(&a, "arithmetic: syntax error near `%s'", a.p);
    if (a.failed)
        return -1;
    *value = v;
    return 0;
}
