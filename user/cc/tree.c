/*
 * The intermediate file between c0 and c1: the lowered tree as text, one
 * node per line, in prefix order, so that a student can read it:
 *
 *     OP MT VAL NAME KIDS
 *
 * OP is the operator's name (op_name), MT its machine type, VAL a decimal
 * number, NAME an identifier or label ("-" if none; the bytes of a string
 * literal in hex), and KIDS says what follows: the letters a, b, c, d for
 * each child present, each a list written out in full, then n if the
 * node has a next sibling, which comes after the children ("-" for
 * none). Statements end with "@LINE", their line in the source, which
 * c1's messages use; the file starts with "source FILE.c". For example
 * "x = y + 1;" on line 7, with x and y locals:
 *
 *     expr - 0 - a @7
 *     store w 0 - ab
 *     laddr d -20 - -
 *     add w 0 - ab
 *     load w 0 - a
 *     laddr d -24 - -
 *     num w 1 - -
 */
#include "cc.h"

#define TREE_MAX_DEPTH 2000     /* c0 never nests deeper; a damaged file might */

static void write_node(struct buf *out, const struct node *n)
{
    const char *name = op_name(n->op);
    if (!name)
        fatal("internal error: operator %d has no name in the tree file", n->op);
    buf_printf(out, "%s %c %ld ", name, n->mt, n->val);
    if (n->op == N_STR) {
        static const char hex[] = "0123456789abcdef";
        for (int i = 0; i < n->len; i++) {
            unsigned char c = (unsigned char)n->name[i];
            char two[2] = { hex[c >> 4], hex[c & 15] };
            buf_add(out, two, 2);
        }
        if (!n->len)
            buf_add(out, "-", 1);
    } else {
        buf_printf(out, "%s", n->name ? n->name : "-");
    }
    char kids[6];
    int k = 0;
    if (n->a) kids[k++] = 'a';
    if (n->b) kids[k++] = 'b';
    if (n->c) kids[k++] = 'c';
    if (n->d) kids[k++] = 'd';
    if (n->next) kids[k++] = 'n';
    if (!k)
        kids[k++] = '-';
    kids[k] = '\0';
    if (n->mt == MT_NONE && n->line > 0)
        buf_printf(out, " %s @%d\n", kids, n->line);
    else
        buf_printf(out, " %s\n", kids);
}

static void write_list(struct buf *out, const struct node *n)
{
    for (; n; n = n->next) {
        write_node(out, n);
        const struct node *kids[4] = { n->a, n->b, n->c, n->d };
        for (int i = 0; i < 4; i++)
            if (kids[i])
                write_list(out, kids[i]);
    }
}

void tree_write(struct buf *out, const char *source, const struct node *list)
{
    buf_printf(out, "source %s\n", source);
    write_list(out, list);
}

/* ---- reading ---- */

struct reader {
    const char *p;
    int line;                   /* in the tree file */
};

_Noreturn static void bad(struct reader *r, const char *what)
{
    error_at(r->line, "damaged tree file: %s", what);
}

/* The next space-separated field of the current line. */
static const char *field(struct reader *r, int *len)
{
    while (*r->p == ' ')
        r->p++;
    const char *s = r->p;
    while (*r->p && *r->p != ' ' && *r->p != '\n')
        r->p++;
    *len = (int)(r->p - s);
    if (!*len)
        bad(r, "a line ends too soon");
    return s;
}

static int hexval(struct reader *r, char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    bad(r, "bad hex digit in a string");
}

/* What each operator must have, so that c1 can trust a tree it has read:
 * the letters of its children, and N for a name. */
static const char *need(int op)
{
    switch (op) {
    case N_NUM: case N_LADDR: case N_PARAM: case N_BLOCK: case N_RETURN:
    case N_BREAK: case N_CONTINUE:
        return "";
    case N_GADDR: case N_STR: case N_CALL: case N_GVAR:
        return "N";
    case N_LOAD: case N_PREINC: case N_POSTINC: case N_NOT: case N_NEG: case N_BNOT:
    case N_CONV: case N_EXPR: case N_INIT:
        return "a";
    case N_COND: return "abc";
    case N_FOR: return "d";
    case N_FUNC: return "Nb";
    default: return "ab";       /* IF, WHILE, DO, STORE, ASGOP, COMMA, binary operators */
    }
}

static void check_shape(struct reader *r, int op, bool named, const char *kids, int nkids)
{
    for (const char *p = need(op); *p; p++) {
        if (*p == 'N' ? !named : !memchr(kids, *p, (size_t)nkids))
            bad(r, *p == 'N' ? "a node lacks its name" : "a node lacks a child");
    }
}

static struct node *read_list(struct reader *r, int depth, int src_line);

/* A node takes its source line from the nearest statement above it. */
static struct node *read_one(struct reader *r, int depth, int src_line, bool *more)
{
    if (depth > TREE_MAX_DEPTH)
        bad(r, "nested too deeply");
    if (!*r->p)
        bad(r, "it ends in the middle of the tree");
    r->line++;
    int len;
    const char *s = field(r, &len);
    char opname[16];
    if (len >= (int)sizeof opname)
        bad(r, "unknown operator");
    memcpy(opname, s, (size_t)len);
    opname[len] = '\0';
    int op = op_by_name(opname);
    if (op < 0)
        bad(r, "unknown operator");
    struct node *n = new_node(op, src_line);

    s = field(r, &len);
    if (len != 1 || !strchr("bwdv-", s[0]))
        bad(r, "bad machine type");
    n->mt = s[0];

    s = field(r, &len);
    char *end;
    n->val = strtol(s, &end, 10);
    if (end != s + len)
        bad(r, "bad number");

    s = field(r, &len);
    if (op == N_STR) {
        if (len % 2 || len == 0)
            bad(r, "bad string");
        n->len = len / 2;
        n->name = cc_alloc((size_t)n->len + 1);
        for (int i = 0; i < n->len; i++)
            n->name[i] = (char)(hexval(r, s[2 * i]) * 16 + hexval(r, s[2 * i + 1]));
    } else if (!(len == 1 && s[0] == '-')) {
        n->name = cc_strndup(s, (size_t)len);
    }

    const char *kids = field(r, &len);
    int nkids = len;
    if (*r->p == ' ' && r->p[1] == '@') {
        r->p += 2;
        n->line = (int)strtol(r->p, &end, 10);
        if (end == r->p || n->line <= 0)
            bad(r, "bad line number");
        r->p = end;
    }
    if (*r->p != '\n')
        bad(r, "extra fields");
    r->p++;
    s = kids;
    len = nkids;
    *more = false;
    check_shape(r, op, n->name != NULL, s, len);
    if (len == 1 && s[0] == '-')
        return n;
    for (int i = 0; i < len; i++) {
        switch (s[i]) {
        case 'a': n->a = read_list(r, depth + 1, n->line); break;
        case 'b': n->b = read_list(r, depth + 1, n->line); break;
        case 'c': n->c = read_list(r, depth + 1, n->line); break;
        case 'd': n->d = read_list(r, depth + 1, n->line); break;
        case 'n': *more = true; break;
        default: bad(r, "bad child letters");
        }
    }
    return n;
}

static struct node *read_list(struct reader *r, int depth, int src_line)
{
    struct node *head = NULL, **tail = &head;
    bool more = true;
    while (more) {
        *tail = read_one(r, depth, src_line, &more);
        tail = &(*tail)->next;
    }
    return head;
}

struct node *tree_read(const char *text, const char **source)
{
    struct reader r = { text, 1 };
    if (strncmp(text, "source ", 7) != 0)
        bad(&r, "it does not start with \"source\"");
    const char *name = text + 7, *end = strchr(name, '\n');
    if (!end || end == name)
        bad(&r, "no source file name");
    *source = cc_strndup(name, (size_t)(end - name));
    r.p = end + 1;
    if (!*r.p)
        return NULL;
    struct node *list = read_list(&r, 0, 0);
    if (*r.p)
        bad(&r, "text after the end of the tree");
    return list;
}
