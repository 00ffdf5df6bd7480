/*
 * Code for expressions (see gen.h for the register stack). A few local
 * improvements keep the output small: loads and stores at a constant
 * offset from s0 or from a pointer use the instruction's own offset,
 * small constants use the immediate forms (addi, andi, slli...), and
 * conditions branch on the comparison itself instead of computing 0 or 1.
 */
#include "gen.h"

struct gen g;

static const char *const regs[GEN_NREGS] = {
    "t0", "t1", "t2", "t3", "t4", "t5", "t6",
    "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
};

const char *reg_name(int i) { return regs[i]; }

int new_label(void) { return ++g.labels; }

void emit(const char *fmt, ...)
{
    char line[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_printf(g.out, "\t%s\n", line);
}

void emit_label(int label) { buf_printf(g.out, ".L%d:\n", label); }

static int push_reg(int line)
{
    if (g.depth == GEN_NREGS)
        error_at(line, "expression too complex: it needs more than %d registers", GEN_NREGS);
    int r = g.depth++;
    if (g.depth > g.max_depth)
        g.max_depth = g.depth;
    return r;
}

void pop_reg(void) { g.depth--; }

#define TOP  reg_name(g.depth - 1)
#define NEXT reg_name(g.depth - 2)

static bool fits12(long v) { return v >= -2048 && v <= 2047; }

static bool is_num(const struct node *n) { return n && n->op == N_NUM; }

static const char *load_op(char mt) { return mt == MT_BYTE ? "lbu" : mt == MT_WORD ? "lw" : "ld"; }
static const char *store_op(char mt) { return mt == MT_BYTE ? "sb" : mt == MT_WORD ? "sw" : "sd"; }

/*
 * Memory operands. An address that is s0 plus a small constant, or some
 * pointer plus a small constant, needs no register of its own: "base"
 * is then a register name and the offset goes in the instruction.
 */
struct mem {
    const char *base;
    long off;
    bool pushed;        /* the base is a register pushed for it */
};

static struct mem address(const struct node *a)
{
    struct mem m = { "s0", 0, false };
    if (a->op == N_LADDR && fits12(a->val)) {
        m.off = a->val;
        return m;
    }
    if (a->op == N_ADD && is_num(a->b) && fits12(a->b->val)) {
        m.off = a->b->val;
        a = a->a;
    }
    gen_expr(a);
    m.base = TOP;
    m.pushed = true;
    return m;
}

/* dst = src + k, whatever the size of k; "w": the 32-bit form. */
static void add_const(const char *dst, const char *src, long k, bool w, int line)
{
    if (fits12(k)) {
        emit("addi%s %s, %s, %ld", w ? "w" : "", dst, src, k);
        return;
    }
    int t = push_reg(line);
    emit("li %s, %ld", reg_name(t), k);
    emit("add%s %s, %s, %s", w ? "w" : "", dst, src, reg_name(t));
    pop_reg();
}

/* Brings a value of machine type mt, computed in a register, back to
 * its canonical form: a char zero-extended, an int sign-extended. */
static void normalize(const char *r, char mt)
{
    if (mt == MT_BYTE)
        emit("andi %s, %s, 255", r, r);
    else if (mt == MT_WORD)
        emit("sext.w %s, %s", r, r);
}

static const char *arith_name(int op)
{
    switch (op) {
    case N_ADD: return "add";
    case N_SUB: return "sub";
    case N_MUL: return "mul";
    case N_DIV: return "div";
    case N_MOD: return "rem";
    case N_BAND: return "and";
    case N_BOR: return "or";
    case N_BXOR: return "xor";
    case N_SHL: return "sll";
    case N_SHR: return "sra";
    default: return NULL;
    }
}

static bool has_w_form(int op)
{
    return op != N_BAND && op != N_BOR && op != N_BXOR;
}

static int log2_exact(long v)
{
    for (int k = 0; k < 63; k++)
        if (v == 1L << k)
            return k;
    return -1;
}

/* TOP = TOP op b, in 32 bits (w) or 64; b is consumed. */
static void arith(int op, const struct node *b, bool w)
{
    const char *sfx = w && has_w_form(op) ? "w" : "";
    if (is_num(b)) {
        long k = b->val;
        int shift = log2_exact(k);
        if ((op == N_ADD && fits12(k)) || (op == N_SUB && fits12(-k))) {
            emit("addi%s %s, %s, %ld", w ? "w" : "", TOP, TOP, op == N_ADD ? k : -k);
            return;
        }
        if ((op == N_BAND || op == N_BOR || op == N_BXOR) && fits12(k)) {
            emit("%si %s, %s, %ld", arith_name(op), TOP, TOP, k);
            return;
        }
        if (op == N_SHL || op == N_SHR || (op == N_MUL && shift >= 0)) {
            long amount = op == N_MUL ? shift : (k & (w ? 31 : 63));
            emit("%s%s %s, %s, %ld", op == N_SHR ? "srai" : "slli", w ? "w" : "", TOP, TOP, amount);
            return;
        }
    }
    gen_expr(b);
    emit("%s%s %s, %s, %s", arith_name(op), sfx, NEXT, NEXT, TOP);
    pop_reg();
}

static void compare(const struct node *n)
{
    gen_expr(n->a);
    const struct node *b = n->b;
    if ((n->op == N_EQ || n->op == N_NE) && is_num(b) && fits12(b->val)) {
        if (b->val)
            emit("xori %s, %s, %ld", TOP, TOP, b->val);
        emit("%s %s, %s", n->op == N_EQ ? "seqz" : "snez", TOP, TOP);
        return;
    }
    if ((n->op == N_LT || n->op == N_GE) && is_num(b) && fits12(b->val)) {
        emit("slti %s, %s, %ld", TOP, TOP, b->val);
    } else {
        gen_expr(b);
        switch (n->op) {
        case N_EQ: case N_NE: emit("sub %s, %s, %s", NEXT, NEXT, TOP); break;
        case N_LT: case N_GE: emit("slt %s, %s, %s", NEXT, NEXT, TOP); break;
        case N_GT: case N_LE: emit("slt %s, %s, %s", NEXT, TOP, NEXT); break;
        }
        pop_reg();
    }
    if (n->op == N_EQ)
        emit("seqz %s, %s", TOP, TOP);
    else if (n->op == N_NE)
        emit("snez %s, %s", TOP, TOP);
    else if (n->op == N_GE || n->op == N_LE)
        emit("xori %s, %s, 1", TOP, TOP);
}

/* A 0-or-1 value from a condition, by branching. */
static void boolean(const struct node *n)
{
    int lfalse = new_label(), lend = new_label();
    gen_branch(n, lfalse, false);
    int r = push_reg(n->line);
    emit("li %s, 1", reg_name(r));
    emit("j .L%d", lend);
    emit_label(lfalse);
    emit("li %s, 0", reg_name(r));
    emit_label(lend);
}

static void call(const struct node *n)
{
    int base = g.depth, nargs = 0;
    for (const struct node *a = n->a; a; a = a->next, nargs++) {
        if (nargs == CC_MAX_ARGS)
            error_at(n->line, "more than %d arguments", CC_MAX_ARGS);
        gen_expr(a);
    }
    /* Temporaries below the arguments hold values of the enclosing
     * expression: keep them across the call. */
    int spill = base < GEN_NTEMPS ? base : GEN_NTEMPS;
    if (spill > g.max_spill)
        g.max_spill = spill;
    for (int i = 0; i < spill; i++)
        emit("sd %s, %d(sp)", reg_name(i), 8 * i);
    for (int i = 0; i < nargs; i++)
        emit("mv a%d, %s", i, reg_name(base + i));
    g.depth = base;
    emit("call %s", n->name);
    for (int i = 0; i < spill; i++)
        emit("ld %s, %d(sp)", reg_name(i), 8 * i);
    int r = push_reg(n->line);
    emit("mv %s, a0", reg_name(r));
}

/* x op= v, ++x, x++: the old value is loaded, changed, stored back. */
static void update(const struct node *n)
{
    struct mem m = address(n->a);
    int v = push_reg(n->line);
    const char *rv = reg_name(v);
    emit("%s %s, %ld(%s)", load_op(n->mt), rv, m.off, m.base);
    const char *result = rv;
    if (n->op == N_ASGOP) {
        bool w = n->mt != MT_DWORD && n->b->mt != MT_DWORD;
        arith((int)n->val, n->b, w);
        if (n->mt == MT_BYTE || (n->mt == MT_WORD && !w))
            normalize(rv, n->mt);
        emit("%s %s, %ld(%s)", store_op(n->mt), rv, m.off, m.base);
    } else {
        int t = push_reg(n->line);
        const char *rt = reg_name(t);
        add_const(rt, rv, n->val, n->mt == MT_WORD, n->line);
        if (n->mt == MT_BYTE)
            normalize(rt, MT_BYTE);
        emit("%s %s, %ld(%s)", store_op(n->mt), rt, m.off, m.base);
        if (n->op == N_PREINC)
            emit("mv %s, %s", rv, rt);
        pop_reg();
    }
    if (m.pushed) {
        emit("mv %s, %s", m.base, result);
        pop_reg();
    }
}

static void load(const struct node *n)
{
    struct mem m = address(n->a);
    if (!m.pushed)
        push_reg(n->line);
    emit("%s %s, %ld(%s)", load_op(n->mt), TOP, m.off, m.base);
}

static void store(const struct node *n)
{
    gen_expr(n->b);
    struct mem m = address(n->a);
    const char *value = reg_name(g.depth - 1 - m.pushed);
    emit("%s %s, %ld(%s)", store_op(n->mt), value, m.off, m.base);
    if (m.pushed)
        pop_reg();
}

void gen_expr(const struct node *n)
{
    switch (n->op) {
    case N_NUM:
        emit("li %s, %ld", reg_name(push_reg(n->line)), n->val);
        return;
    case N_LADDR:
        push_reg(n->line);
        add_const(TOP, "s0", n->val, false, n->line);
        return;
    case N_GADDR:
        emit("la %s, %s", reg_name(push_reg(n->line)), n->name);
        return;
    case N_LOAD:    load(n); return;
    case N_STORE:   store(n); return;
    case N_ASGOP:
    case N_PREINC:
    case N_POSTINC: update(n); return;
    case N_CALL:    call(n); return;
    case N_EQ: case N_NE: case N_LT: case N_LE: case N_GT: case N_GE:
        compare(n);
        return;
    case N_LAND:
    case N_LOR:
        boolean(n);
        return;
    case N_NOT:
        gen_expr(n->a);
        emit("seqz %s, %s", TOP, TOP);
        return;
    case N_NEG:
        gen_expr(n->a);
        emit("neg%s %s, %s", n->mt == MT_WORD ? "w" : "", TOP, TOP);
        return;
    case N_BNOT:
        gen_expr(n->a);
        emit("not %s, %s", TOP, TOP);
        return;
    case N_CONV:
        gen_expr(n->a);
        normalize(TOP, n->mt);
        return;
    case N_COMMA:
        gen_expr(n->a);
        pop_reg();
        gen_expr(n->b);
        return;
    case N_COND: {
        int lelse = new_label(), lend = new_label();
        gen_branch(n->a, lelse, false);
        gen_expr(n->b);
        pop_reg();                 /* both branches leave their value in the same register */
        emit("j .L%d", lend);
        emit_label(lelse);
        gen_expr(n->c);
        emit_label(lend);
        return;
    }
    default:
        if (arith_name(n->op)) {
            gen_expr(n->a);
            arith(n->op, n->b, n->mt != MT_DWORD);
            return;
        }
        error_at(n->line, "operator '%s' is not an expression", op_name(n->op));
    }
}

static int invert(int op)
{
    switch (op) {
    case N_EQ: return N_NE;
    case N_NE: return N_EQ;
    case N_LT: return N_GE;
    case N_GE: return N_LT;
    case N_GT: return N_LE;
    default:   return N_GT;   /* N_LE */
    }
}

void gen_branch(const struct node *n, int label, bool when)
{
    switch (n->op) {
    case N_NUM:
        if ((n->val != 0) == when)
            emit("j .L%d", label);
        return;
    case N_NOT:
        gen_branch(n->a, label, !when);
        return;
    case N_LAND:
    case N_LOR: {
        /* "a && b" is false as soon as a is; "a || b" true as soon as a is. */
        bool shortcut = n->op == N_LOR;
        if (when == shortcut) {
            gen_branch(n->a, label, when);
            gen_branch(n->b, label, when);
        } else {
            int skip = new_label();
            gen_branch(n->a, skip, !when);
            gen_branch(n->b, label, when);
            emit_label(skip);
        }
        return;
    }
    case N_EQ: case N_NE: case N_LT: case N_LE: case N_GT: case N_GE: {
        static const char *const names[] = { [N_EQ] = "beq", [N_NE] = "bne", [N_LT] = "blt",
                                             [N_LE] = "ble", [N_GT] = "bgt", [N_GE] = "bge" };
        int op = when ? n->op : invert(n->op);
        gen_expr(n->a);
        if (is_num(n->b) && n->b->val == 0) {
            emit("%s %s, zero, .L%d", names[op], TOP, label);
            pop_reg();
            return;
        }
        gen_expr(n->b);
        emit("%s %s, %s, .L%d", names[op], NEXT, TOP, label);
        pop_reg();
        pop_reg();
        return;
    }
    default:
        gen_expr(n);
        emit("%s %s, .L%d", when ? "bnez" : "beqz", TOP, label);
        pop_reg();
    }
}
