/*
 * Reading assembly text: labels, directives, instructions and their
 * operands, one line at a time, into a list of statements. Symbols live
 * in one hash table for the whole program (every label is global: there
 * is only one unit).
 */
#include "asm.h"

#define SYMTAB_SIZE 1024            /* power of two */
#define MAX_ALIGN_LOG2 4            /* sections start 16-byte aligned */

static struct symbol *symtab[SYMTAB_SIZE];

static unsigned hash(const char *s, size_t n)
{
    unsigned h = 5381;
    for (size_t i = 0; i < n; i++)
        h = h * 33 + (unsigned char)s[i];
    return h & (SYMTAB_SIZE - 1);
}

struct symbol *sym_lookup_n(const char *name, size_t n, bool create)
{
    unsigned h = hash(name, n);
    for (struct symbol *s = symtab[h]; s; s = s->next)
        if (strlen(s->name) == n && memcmp(s->name, name, n) == 0)
            return s;
    if (!create)
        return NULL;
    struct symbol *s = cc_alloc(sizeof *s);
    s->name = cc_strndup(name, n);
    s->next = symtab[h];
    symtab[h] = s;
    return s;
}

struct symbol *sym_lookup(const char *name, bool create)
{
    return sym_lookup_n(name, strlen(name), create);
}

void for_each_symbol(void (*fn)(struct symbol *s))
{
    for (int i = 0; i < SYMTAB_SIZE; i++)
        for (struct symbol *s = symtab[i]; s; s = s->next)
            fn(s);
}

/* ---- the current line ---- */

struct line {
    const char *file;
    int number;
    const char *p;          /* next character */
    const char *end;        /* end of the line (its '\n' or NUL) */
    enum section section;
    struct stmt **tail;
};

_Noreturn static void line_error(const struct line *l, const char *fmt, ...)
    __attribute__((format(__printf__, 2, 3)));

static void line_error(const struct line *l, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cc_file = l->file;
    error_at(l->number, "%s", msg);
}

static bool is_sym_start(int c) { return isalpha(c) || c == '_' || c == '.' || c == '$'; }
static bool is_sym_char(int c) { return is_sym_start(c) || isdigit(c); }

static void skip_blanks(struct line *l)
{
    while (l->p < l->end && (*l->p == ' ' || *l->p == '\t'))
        l->p++;
}

static struct stmt *add(struct line *l, enum stmt_kind kind)
{
    struct stmt *s = cc_alloc(sizeof *s);
    s->kind = kind;
    s->section = l->section;
    s->line = l->number;
    s->file = l->file;
    *l->tail = s;
    l->tail = &s->next;
    return s;
}

static const char *const reg_names[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3",
    "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
    "t3", "t4", "t5", "t6",
};

static int parse_reg(const char *s, size_t n)
{
    for (int i = 0; i < 32; i++)
        if (strlen(reg_names[i]) == n && memcmp(reg_names[i], s, n) == 0)
            return i;
    if (n == 2 && memcmp(s, "fp", 2) == 0)
        return 8;
    if (n >= 2 && n <= 3 && s[0] == 'x' && isdigit(s[1]) && (n == 2 || isdigit(s[2]))) {
        int r = s[1] - '0';
        if (n == 3)
            r = r * 10 + s[2] - '0';
        if (r < 32 && !(n == 3 && s[1] == '0'))
            return r;
    }
    return -1;
}

/* A decimal, hex (0x) or negative integer filling exactly [s, s+n). */
static bool parse_int(const char *s, size_t n, long *v)
{
    char tmp[32];
    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    const char *p = tmp;
    bool neg = *p == '-';
    if (neg)
        p++;
    if (!isdigit(*p))
        return false;
    char *end;
    unsigned long u = strtoul(p, &end, p[0] == '0' && (p[1] | 0x20) == 'x' ? 16 : 10);
    if (*end)
        return false;
    *v = neg ? (long)(0 - u) : (long)u;
    return true;
}

static void parse_operand(struct line *l, const char *s, size_t n, struct operand *op)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (!n)
        line_error(l, "missing operand");
    if (s[n - 1] == ')') {
        const char *open = memchr(s, '(', n);
        if (!open)
            line_error(l, "bad operand '%.*s'", (int)n, s);
        op->kind = OPND_MEM;
        op->reg = parse_reg(open + 1, (size_t)(s + n - 1 - (open + 1)));
        if (op->reg < 0)
            line_error(l, "bad base register in '%.*s'", (int)n, s);
        op->imm = 0;
        if (open > s && !parse_int(s, (size_t)(open - s), &op->imm))
            line_error(l, "bad offset in '%.*s'", (int)n, s);
        return;
    }
    if ((op->reg = parse_reg(s, n)) >= 0) {
        op->kind = OPND_REG;
        op->text = s;
        op->textlen = (int)n;
        return;
    }
    if (parse_int(s, n, &op->imm)) {
        op->kind = OPND_IMM;
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (!(i ? is_sym_char(s[i]) : is_sym_start(s[i])))
            line_error(l, "bad operand '%.*s'", (int)n, s);
    op->kind = OPND_SYM;
    op->sym = sym_lookup_n(s, n, true);
}

/* Comma-separated operands up to the end of the line. */
static int parse_operands(struct line *l, struct operand *ops, int max)
{
    int n = 0;
    skip_blanks(l);
    if (l->p == l->end)
        return 0;
    for (;;) {
        const char *start = l->p;
        while (l->p < l->end && *l->p != ',')
            l->p++;
        if (n == max)
            line_error(l, "too many operands");
        parse_operand(l, start, (size_t)(l->p - start), &ops[n++]);
        if (l->p == l->end)
            return n;
        l->p++;
    }
}

/* "..." with C escapes, into a fresh buffer; *len bytes (no NUL added). */
static char *parse_string(struct line *l, long *len)
{
    skip_blanks(l);
    if (l->p == l->end || *l->p != '"')
        line_error(l, "expected a string in quotes");
    l->p++;
    struct buf b = { 0 };
    while (l->p < l->end && *l->p != '"') {
        char c = *l->p++;
        if (c == '\\' && l->p < l->end) {
            c = *l->p++;
            if (c >= '0' && c <= '7') {
                int v = c - '0';
                for (int k = 0; k < 2 && l->p < l->end && *l->p >= '0' && *l->p <= '7'; k++)
                    v = v * 8 + (*l->p++ - '0');
                c = (char)v;
            } else if (c == 'n') {
                c = '\n';
            } else if (c == 't') {
                c = '\t';
            } else if (c == 'r') {
                c = '\r';
            } else if (c != '\\' && c != '"') {
                line_error(l, "unknown escape '\\%c' in a string", c);
            }
        }
        buf_add(&b, &c, 1);
    }
    if (l->p == l->end)
        line_error(l, "unterminated string");
    l->p++;
    *len = (long)b.len;
    char *s = cc_alloc(b.len + 1);
    if (b.len)
        memcpy(s, b.p, b.len);
    free(b.p);
    return s;
}

static bool word_is(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && memcmp(w, s, n) == 0;
}

static void need_end(struct line *l)
{
    skip_blanks(l);
    if (l->p != l->end)
        line_error(l, "unexpected '%.*s'", (int)(l->end - l->p), l->p);
}

static void section_directive(struct line *l, const char *w, size_t n)
{
    static const char *const names[NSECTIONS] = { ".text", ".rodata", ".data", ".bss" };
    for (int i = 0; i < NSECTIONS; i++) {
        size_t k = strlen(names[i]);
        if (n >= k && memcmp(w, names[i], k) == 0 && (n == k || w[k] == '.')) {
            l->section = (enum section)i;
            return;
        }
    }
    line_error(l, "unknown section '%.*s'", (int)n, w);
}

static void directive(struct line *l, const char *w, size_t n)
{
    static const struct { const char *name; int width; } data[] = {
        { ".byte", 1 }, { ".half", 2 }, { ".word", 4 }, { ".dword", 8 }, { ".quad", 8 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(data); i++) {
        if (!word_is(w, n, data[i].name))
            continue;
        if (l->section == SEC_BSS)
            line_error(l, "%s in .bss, which holds only zeros", data[i].name);
        struct operand ops[1];
        do {
            const char *start = l->p;
            while (l->p < l->end && *l->p != ',')
                l->p++;
            parse_operand(l, start, (size_t)(l->p - start), &ops[0]);
            if (ops[0].kind == OPND_MEM || ops[0].kind == OPND_REG)
                line_error(l, "%s takes numbers or symbols", data[i].name);
            struct stmt *s = add(l, ST_DATA);
            s->width = data[i].width;
            s->size = data[i].width;
            s->ops[0] = ops[0];
            s->nops = 1;
        } while (l->p < l->end && *l->p++ == ',');
        return;
    }
    if (word_is(w, n, ".text") || word_is(w, n, ".data") || word_is(w, n, ".bss")) {
        section_directive(l, w, n);
    } else if (word_is(w, n, ".section")) {
        skip_blanks(l);
        const char *s = l->p;
        while (l->p < l->end && is_sym_char(*l->p))
            l->p++;
        section_directive(l, s, (size_t)(l->p - s));
        /* GNU flags such as ,"a",@progbits are allowed and ignored. */
        return;
    } else if (word_is(w, n, ".globl") || word_is(w, n, ".global")) {
        struct operand op;
        if (parse_operands(l, &op, 1) != 1 || op.kind == OPND_IMM || op.kind == OPND_MEM)
            line_error(l, ".globl takes a name");
        return;
    } else if (word_is(w, n, ".align") || word_is(w, n, ".p2align") || word_is(w, n, ".balign")) {
        struct operand op;
        if (parse_operands(l, &op, 1) != 1 || op.kind != OPND_IMM)
            line_error(l, "%.*s takes a number", (int)n, w);
        long a = word_is(w, n, ".balign") ? op.imm : (op.imm >= 0 && op.imm < 63 ? 1L << op.imm : -1);
        if (a <= 0 || (a & (a - 1)) || a > (1L << MAX_ALIGN_LOG2))
            line_error(l, "alignment must be a power of two up to %ld bytes", 1L << MAX_ALIGN_LOG2);
        add(l, ST_ALIGN)->width = (int)a;
        return;
    } else if (word_is(w, n, ".zero") || word_is(w, n, ".space")) {
        struct operand op;
        if (parse_operands(l, &op, 1) != 1 || op.kind != OPND_IMM || op.imm < 0 || op.imm > (1L << 30))
            line_error(l, "%.*s takes a size in bytes", (int)n, w);
        add(l, ST_ZERO)->size = op.imm;
        return;
    } else if (word_is(w, n, ".string") || word_is(w, n, ".asciz") || word_is(w, n, ".ascii")) {
        if (l->section == SEC_BSS)
            line_error(l, "strings in .bss, which holds only zeros");
        struct stmt *s = add(l, ST_BYTES);
        long len;
        s->bytes = parse_string(l, &len);
        s->size = len + !word_is(w, n, ".ascii");   /* the NUL: cc_alloc zeroed it */
    } else {
        line_error(l, "unknown directive '%.*s'", (int)n, w);
    }
    need_end(l);
}

static void instruction(struct line *l, const char *w, size_t n)
{
    char name[16];
    if (n >= sizeof name)
        line_error(l, "unknown instruction '%.*s'", (int)n, w);
    memcpy(name, w, n);
    name[n] = '\0';
    const struct insn *in = insn_find(name);
    if (!in)
        line_error(l, "unknown instruction '%s'", name);
    if (l->section != SEC_TEXT)
        line_error(l, "instruction '%s' outside .text", name);
    struct stmt *s = add(l, ST_INSN);
    s->insn = in;
    s->nops = parse_operands(l, s->ops, ASM_MAX_OPERANDS);
    insn_check(s);
}

static void define_label(struct line *l, const char *name, size_t n)
{
    struct symbol *sym = sym_lookup_n(name, n, true);
    if (sym->defined)
        line_error(l, "label '%s' is defined twice (first at %s:%d)", sym->name, sym->file, sym->line);
    sym->defined = true;
    sym->section = l->section;
    sym->line = l->number;
    sym->file = l->file;
    add(l, ST_LABEL)->ops[0].sym = sym;
}

static void parse_line(struct line *l)
{
    /* A comment runs from '#' to the end of the line, outside strings. */
    bool quoted = false;
    for (const char *c = l->p; c < l->end; c++) {
        if (*c == '"' && (c == l->p || c[-1] != '\\'))
            quoted = !quoted;
        if (*c == '#' && !quoted) {
            l->end = c;
            break;
        }
    }
    for (;;) {
        skip_blanks(l);
        if (l->p == l->end)
            return;
        const char *w = l->p;
        if (!is_sym_start(*w))
            line_error(l, "unexpected '%c'", *w);
        while (l->p < l->end && is_sym_char(*l->p))
            l->p++;
        size_t n = (size_t)(l->p - w);
        if (l->p < l->end && *l->p == ':') {
            l->p++;
            define_label(l, w, n);
            continue;
        }
        if (*w == '.')
            directive(l, w, n);
        else
            instruction(l, w, n);
        return;
    }
}

struct stmt **asm_parse(const char *file, const char *text, struct stmt **tail)
{
    struct line l = { file, 0, text, text, SEC_TEXT, tail };
    while (*l.p) {
        l.number++;
        l.end = strchr(l.p, '\n');
        if (!l.end)
            l.end = l.p + strlen(l.p);
        const char *next = *l.end ? l.end + 1 : l.end;
        parse_line(&l);
        l.p = next;
    }
    return l.tail;
}
