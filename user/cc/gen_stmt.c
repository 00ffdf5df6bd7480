/*
 * Code for statements and functions, and the program's data.
 *
 * A function's frame, from the frame pointer s0 down:
 *
 *     s0 - 8       return address
 *     s0 - 16      the caller's s0
 *     ...          locals (offsets from c0)
 *     ...          saved s1..sN, the callee-saved registers this function's
 *                  expressions needed
 *     sp + 0 ...   spill slots for temporaries live across a call
 *
 * The body is generated first, into a buffer, because the prologue must
 * know how many registers and spill slots the body used.
 */
#include "gen.h"

#define FRAME_HEADER 16
#define STACK_ALIGN  16

struct loop {
    int brk, cont;        /* labels of break and continue */
};

static void statement(const struct node *n, const struct loop *lp);

static void statements(const struct node *n, const struct loop *lp)
{
    for (; n; n = n->next)
        statement(n, lp);
}

static void discard(const struct node *e)
{
    if (e) {
        gen_expr(e);
        pop_reg();
    }
}

static void statement(const struct node *n, const struct loop *lp)
{
    switch (n->op) {
    case N_BLOCK:
        statements(n->a, lp);
        return;
    case N_EXPR:
        discard(n->a);
        return;
    case N_IF: {
        int lelse = new_label();
        gen_branch(n->a, lelse, false);
        statement(n->b, lp);
        if (n->c) {
            int lend = new_label();
            emit("j .L%d", lend);
            emit_label(lelse);
            statement(n->c, lp);
            emit_label(lend);
        } else {
            emit_label(lelse);
        }
        return;
    }
    case N_WHILE: {
        struct loop l = { new_label(), new_label() };
        emit_label(l.cont);
        gen_branch(n->a, l.brk, false);
        statement(n->b, &l);
        emit("j .L%d", l.cont);
        emit_label(l.brk);
        return;
    }
    case N_DO: {
        int top = new_label();
        struct loop l = { new_label(), new_label() };
        emit_label(top);
        statement(n->a, &l);
        emit_label(l.cont);
        gen_branch(n->b, top, true);
        emit_label(l.brk);
        return;
    }
    case N_FOR: {
        int top = new_label();
        struct loop l = { new_label(), new_label() };
        discard(n->a);
        emit_label(top);
        if (n->b)
            gen_branch(n->b, l.brk, false);
        statement(n->d, &l);
        emit_label(l.cont);
        discard(n->c);
        emit("j .L%d", top);
        emit_label(l.brk);
        return;
    }
    case N_RETURN:
        if (n->a) {
            gen_expr(n->a);
            emit("mv a0, %s", reg_name(g.depth - 1));
            pop_reg();
        }
        emit("j .L%d", g.ret_label);
        return;
    case N_BREAK:
    case N_CONTINUE:
        if (!lp)
            error_at(n->line, "'%s' outside a loop", op_name(n->op));
        emit("j .L%d", n->op == N_BREAK ? lp->brk : lp->cont);
        return;
    default:
        error_at(n->line, "operator '%s' is not a statement", op_name(n->op));
    }
}

/* sp or s0 plus an offset that may not fit an instruction. */
static void store_param(int i, const struct node *p, struct buf *out)
{
    const char *op = p->mt == MT_BYTE ? "sb" : p->mt == MT_WORD ? "sw" : "sd";
    if (p->val >= -2048) {
        buf_printf(out, "\t%s a%d, %ld(s0)\n", op, i, p->val);
    } else {
        buf_printf(out, "\tli t0, %ld\n\tadd t0, s0, t0\n", p->val);
        buf_printf(out, "\t%s a%d, 0(t0)\n", op, i);
    }
}

static void function(struct buf *out, const struct node *f)
{
    struct buf body = { 0 };
    g.out = &body;
    g.depth = g.max_depth = g.max_spill = 0;
    g.ret_label = new_label();
    statement(f->b, NULL);
    if (g.depth != 0)
        fatal("internal error: %d registers left in use in '%s'", g.depth, f->name);

    int saved = g.max_depth > GEN_NTEMPS ? g.max_depth - GEN_NTEMPS : 0;
    long below = f->val + 8L * (saved + g.max_spill);
    long rest = (below + STACK_ALIGN - 1) / STACK_ALIGN * STACK_ALIGN;
    long save_at = 8L * g.max_spill;

    buf_printf(out, "\t.text\n\t.globl %s\n%s:\n", f->name, f->name);
    buf_printf(out, "\taddi sp, sp, -%d\n\tsd ra, 8(sp)\n\tsd s0, 0(sp)\n\taddi s0, sp, %d\n",
               FRAME_HEADER, FRAME_HEADER);
    if (rest > 2048)
        buf_printf(out, "\tli t0, %ld\n\tsub sp, sp, t0\n", rest);
    else if (rest)
        buf_printf(out, "\taddi sp, sp, -%ld\n", rest);
    for (int i = 0; i < saved; i++)
        buf_printf(out, "\tsd %s, %ld(sp)\n", reg_name(GEN_NTEMPS + i), save_at + 8 * i);
    int i = 0;
    for (const struct node *p = f->a; p; p = p->next, i++) {
        if (i == CC_MAX_ARGS)
            error_at(f->line, "'%s' has more than %d parameters", f->name, CC_MAX_ARGS);
        store_param(i, p, out);
    }

    buf_add(out, body.p ? body.p : "", body.len);
    free(body.p);

    /* Falling off the end returns 0, which is what main needs (C99). */
    buf_printf(out, "\tli a0, 0\n.L%d:\n", g.ret_label);
    for (int k = 0; k < saved; k++)
        buf_printf(out, "\tld %s, %ld(sp)\n", reg_name(GEN_NTEMPS + k), save_at + 8 * k);
    buf_printf(out, "\taddi sp, s0, -%d\n\tld ra, 8(sp)\n\tld s0, 0(sp)\n\taddi sp, sp, %d\n\tret\n",
               FRAME_HEADER, FRAME_HEADER);
}

static void global(struct buf *out, const struct node *v)
{
    if (!v->a) {
        buf_printf(out, "\t.bss\n\t.align 3\n%s:\n\t.zero %ld\n", v->name, v->val);
        return;
    }
    buf_printf(out, "\t.data\n\t.align 3\n%s:\n", v->name);
    long pos = 0;
    for (const struct node *i = v->a; i; i = i->next) {
        if (i->val < pos || i->val > v->val)
            error_at(i->line, "initializer out of order");
        if (i->val > pos)
            buf_printf(out, "\t.zero %ld\n", i->val - pos);
        const char *dir = i->mt == MT_BYTE ? ".byte" : i->mt == MT_WORD ? ".word" : ".dword";
        if (i->a->op == N_GADDR)
            buf_printf(out, "\t%s %s\n", dir, i->a->name);
        else
            buf_printf(out, "\t%s %ld\n", dir, i->a->val);
        pos = i->val + (i->mt == MT_BYTE ? 1 : i->mt == MT_WORD ? 4 : 8);
    }
    if (pos < v->val)
        buf_printf(out, "\t.zero %ld\n", v->val - pos);
}

/* A string literal, as .string with octal escapes for what is not plain. */
static void string(struct buf *out, const struct node *s)
{
    buf_printf(out, "\t.section .rodata\n" STR_LABEL_FMT ":\n\t.string \"", s->val);
    for (int i = 0; i < s->len - 1; i++) {
        unsigned char c = (unsigned char)s->name[i];
        if (c >= ' ' && c < 127 && c != '"' && c != '\\')
            buf_add(out, (const char *)&c, 1);
        else {
            char esc[4] = { '\\', (char)('0' + (c >> 6)), (char)('0' + (c >> 3 & 7)), (char)('0' + (c & 7)) };
            buf_add(out, esc, 4);
        }
    }
    buf_printf(out, "\"\n");
}

void gen_program(struct buf *out, const struct node *list)
{
    for (const struct node *n = list; n; n = n->next) {
        switch (n->op) {
        case N_FUNC: function(out, n); break;
        case N_GVAR: global(out, n); break;
        case N_STR:  string(out, n); break;
        default:     error_at(n->line, "'%s' at the top level", op_name(n->op));
        }
    }
}
