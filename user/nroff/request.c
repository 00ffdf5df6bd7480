/*
 * Control lines and the basic requests.
 *
 * A control line starts with '.' (or '\'', which does the same without
 * breaking the line), then the request name, then arguments separated by
 * spaces. An argument in double quotes may hold spaces; "" inside it is
 * one quote. \" starts a comment. Numbers take nroff's units: i (inch: 10
 * columns or 6 lines), c, p, P, m, n, v and u, with a fraction if wanted
 * (.5i); a leading + or - makes them relative.
 *
 *   .br              break: the partial line goes out as it is
 *   .fi  .nf         fill mode on / off (no-fill lines go out as typed)
 *   .ad [l|b|n|c|r]  adjust: left, both margins, centered, right; .na off
 *   .sp [N]          break, N blank lines (1)
 *   .bp              break, new page
 *   .ne N            a new page unless N lines fit on this one
 *   .pl [N]          page length in lines (66)
 *   .ll [N]          line length (65; no argument: the previous one)
 *   .in [±N]         indent (no argument: the previous one); breaks
 *   .ti ±N           indent of the next line only; breaks
 *   .ce [N]          center the next N text lines (1); .ce 0 stops
 *   .ft [R|I|B|P]    font (no argument: the previous one)
 */
#include "nroff.h"

#define NUMBER_MAX   100000   /* larger magnitudes are refused, not wrapped */
#define MILLI        1000     /* numbers are parsed in thousandths */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Reads one argument starting at p into itself; returns where the next
 * one may start, or NULL at a comment. */
static char *take_argument(char *p, char **arg)
{
    char *w = p;
    *arg = p;
    if (*p == '"') {
        p++;
        *arg = w = p;
        while (*p) {
            if (p[0] == '"' && p[1] == '"') {
                *w++ = '"';
                p += 2;
            } else if (p[0] == '"') {
                p++;
                break;
            } else {
                if (p[0] == '\\' && p[1])
                    *w++ = *p++;
                *w++ = *p++;
            }
        }
    } else {
        while (*p && !is_blank(*p)) {
            if (p[0] == '\\' && p[1] == '"')
                break;
            if (p[0] == '\\' && p[1])
                *w++ = *p++;
            *w++ = *p++;
        }
    }
    if (p[0] == '\\' && p[1] == '"') {
        *w = '\0';
        return NULL;
    }
    char *next = is_blank(*p) ? p + 1 : p;   /* before the NUL may land on *p */
    *w = '\0';
    return next;
}

bool req_parse(char *line, struct request *rq)
{
    rq->nobreak = line[0] == '\'';
    rq->argc = 0;
    char *p = line + 1;
    while (is_blank(*p))
        p++;
    if (!*p || (p[0] == '\\' && p[1] == '"'))
        return false;

    int len = 0;
    while (*p && !is_blank(*p)) {
        if (len < NAME_LEN_MAX)
            rq->name[len++] = *p;
        p++;
    }
    rq->name[len] = '\0';

    for (;;) {
        while (is_blank(*p))
            p++;
        if (!*p || (p[0] == '\\' && p[1] == '"'))
            break;
        if (rq->argc == ARGS_MAX) {
            warn("more than %d arguments to .%s: the rest ignored", ARGS_MAX, rq->name);
            break;
        }
        p = take_argument(p, &rq->argv[rq->argc++]);
        if (!p)
            break;
    }
    return true;
}

/* Columns (AXIS_H) or lines (AXIS_V) per unit, as num/den: nroff's
 * terminal has 10 columns and 6 lines an inch, 240 units an inch. */
static bool unit_scale(char unit, enum axis axis, long *num, long *den)
{
    bool h = axis == AXIS_H;
    switch (unit) {
    case 'i': *num = h ? 10 : 6;   *den = 1;   return true;
    case 'c': *num = h ? 1000 : 600; *den = 254; return true;
    case 'p': *num = h ? 10 : 6;   *den = 72;  return true;
    case 'P': *num = h ? 10 : 6;   *den = 6;   return true;
    case 'm': case 'n': case 'v':
        *num = 1; *den = 1; return true;
    case 'u': *num = 1; *den = h ? 24 : 40; return true;
    default:
        return false;
    }
}

bool parse_units(const char *s, enum axis axis, int *out, const char **end)
{
    long whole = 0, milli = 0;
    bool digits = false;
    while (isdigit(*s)) {
        whole = whole * 10 + (*s++ - '0');
        digits = true;
        if (whole > NUMBER_MAX) {
            *end = s;
            return false;
        }
    }
    if (*s == '.') {
        s++;
        for (long place = MILLI / 10; isdigit(*s); s++, place /= 10) {
            milli += (*s - '0') * place;
            digits = true;
        }
    }
    long num = 1, den = 1;
    if (*s && unit_scale(*s, axis, &num, &den))
        s++;
    *end = s;
    if (!digits)
        return false;
    long value = (whole * MILLI + milli) * num;
    long scale = den * MILLI;
    *out = (int)((value + scale / 2) / scale);
    return true;
}

bool req_number(const char *arg, enum axis axis, int base, int *out)
{
    const char *s = arg;
    char sign = 0;
    if (*s == '+' || *s == '-')
        sign = *s++;
    int v;
    const char *end;
    if (!parse_units(s, axis, &v, &end) || *end) {
        warn("bad number '%s'", arg);
        return false;
    }
    *out = sign == '+' ? base + v : sign == '-' ? base - v : v;
    return true;
}

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void brk(const struct request *rq)
{
    if (!rq->nobreak)
        line_break();
}

static void rq_br(struct request *rq) { brk(rq); }

static void rq_fi(struct request *rq)
{
    brk(rq);
    env.fill = true;
}

static void rq_nf(struct request *rq)
{
    brk(rq);
    env.fill = false;
}

static void rq_ad(struct request *rq)
{
    env.adjust = true;
    if (rq->argc == 0)
        return;
    switch (rq->argv[0][0]) {
    case 'l': env.adj_mode = ADJ_LEFT;   break;
    case 'b': case 'n': env.adj_mode = ADJ_BOTH; break;
    case 'c': env.adj_mode = ADJ_CENTER; break;
    case 'r': env.adj_mode = ADJ_RIGHT;  break;
    default:  warn("unknown adjust mode '%s' (l, b, n, c or r)", rq->argv[0]); break;
    }
}

static void rq_na(struct request *rq)
{
    (void)rq;
    env.adjust = false;
}

static void rq_sp(struct request *rq)
{
    int n = 1;
    brk(rq);
    if (rq->argc > 0 && !req_number(rq->argv[0], AXIS_V, 0, &n))
        return;
    if (n < 0)
        warn("cannot space upwards (%d lines)", n);
    else
        page_space(n);
}

static void rq_bp(struct request *rq)
{
    brk(rq);
    page_eject();
}

static void rq_ne(struct request *rq)
{
    int n = 1;
    if (rq->argc > 0 && !req_number(rq->argv[0], AXIS_V, 0, &n))
        return;
    page_need(n);
}

static void rq_pl(struct request *rq)
{
    int n = DEFAULT_PL;
    if (rq->argc > 0 && !req_number(rq->argv[0], AXIS_V, 0, &n))
        return;
    page_set_length(n);
}

static void rq_ll(struct request *rq)
{
    int n = env.ll_prev;
    if (rq->argc > 0 && !req_number(rq->argv[0], AXIS_H, env.ll, &n))
        return;
    if (n < 1 || n > LL_MAX)
        warn("line length %d out of range 1..%d", n, LL_MAX);
    env.ll_prev = env.ll;
    env.ll = clamp(n, 1, LL_MAX);
}

static void rq_in(struct request *rq)
{
    int n = env.in_prev;
    brk(rq);
    if (rq->argc > 0 && !req_number(rq->argv[0], AXIS_H, env.in, &n))
        return;
    env.in_prev = env.in;
    env.in = clamp(n, 0, LL_MAX);
}

static void rq_ti(struct request *rq)
{
    int n;
    brk(rq);
    if (rq->argc == 0) {
        warn(".ti needs an indent");
        return;
    }
    if (req_number(rq->argv[0], AXIS_H, env.in, &n))
        env.ti = clamp(n, 0, LL_MAX);
}

static void rq_ce(struct request *rq)
{
    int n = 1;
    brk(rq);
    if (rq->argc > 0 && !req_number(rq->argv[0], AXIS_V, 0, &n))
        return;
    env.ce = n > 0 ? n : 0;
}

static void rq_ft(struct request *rq)
{
    enum font f = env.font_prev;
    if (rq->argc > 0 && strcmp(rq->argv[0], "P") != 0 && !font_by_name(rq->argv[0], &f)) {
        warn("unknown font '%s'", rq->argv[0]);
        return;
    }
    env.font_prev = env.font;
    env.font = f;
}

static const struct {
    const char *name;
    void      (*run)(struct request *rq);
} requests[] = {
    { "br", rq_br }, { "fi", rq_fi }, { "nf", rq_nf }, { "ad", rq_ad }, { "na", rq_na },
    { "sp", rq_sp }, { "bp", rq_bp }, { "ne", rq_ne }, { "pl", rq_pl }, { "ll", rq_ll },
    { "in", rq_in }, { "ti", rq_ti }, { "ce", rq_ce }, { "ft", rq_ft },
};

bool req_run(struct request *rq)
{
    for (size_t i = 0; i < ARRAY_SIZE(requests); i++) {
        if (strcmp(rq->name, requests[i].name) == 0) {
            requests[i].run(rq);
            return true;
        }
    }
    return false;
}
