/*
 * The instructions as knows (RV64I, the M extension's multiply and
 * divide, and the usual pseudo-instructions), their operands, sizes and
 * encodings. Only 32-bit encodings are produced (no compressed ones).
 */
#include "asm.h"

enum fmt {
    F_R,        /* rd, rs1, rs2 */
    F_I,        /* rd, rs1, imm12 */
    F_SH,       /* rd, rs1, shamt (0..63) */
    F_SHW,      /* rd, rs1, shamt (0..31) */
    F_LOAD,     /* rd, imm(rs1) */
    F_STORE,    /* rs2, imm(rs1) */
    F_BRANCH,   /* rs1, rs2, label */
    F_BSWAP,    /* bgt a, b, L = blt b, a, L */
    F_BZ1,      /* beqz rs, L = beq rs, zero, L: rs is rs1 */
    F_BZ2,      /* blez rs, L = bge zero, rs, L: rs is rs2 */
    F_U,        /* rd, imm20 */
    F_JAL,      /* [rd,] label */
    F_JALR,     /* rs | rd, imm(rs1) */
    F_SYS,      /* no operands */
    F_LI,       /* rd, any 64-bit constant */
    F_LA,       /* rd, symbol: auipc + addi */
    F_UN1,      /* rd, rs, with rs as rs1 of the real instruction (mv, not...) */
    F_UN2,      /* rd, rs, with rs as rs2 (neg, snez...) */
    F_J,        /* label */
    F_JR,       /* rs */
    F_CALL,     /* symbol: jal ra, symbol */
};

struct insn {
    const char *name;
    enum fmt fmt;
    uint32_t match;     /* the fixed bits: opcode, funct3, funct7, fixed operands */
};

#define OP_IMM 0x13
#define OP_JAL 0x6f
#define OP_AUIPC 0x17
#define OP_LUI 0x37
#define OP_ADDIW 0x1b
#define SLLI_MATCH 0x1013
#define REG_ZERO 0
#define REG_RA 1

static const struct insn insns[] = {
    { "add", F_R, 0x00000033 },   { "sub", F_R, 0x40000033 },  { "sll", F_R, 0x00001033 },
    { "slt", F_R, 0x00002033 },   { "sltu", F_R, 0x00003033 }, { "xor", F_R, 0x00004033 },
    { "srl", F_R, 0x00005033 },   { "sra", F_R, 0x40005033 },  { "or", F_R, 0x00006033 },
    { "and", F_R, 0x00007033 },   { "mul", F_R, 0x02000033 },  { "mulh", F_R, 0x02001033 },
    { "div", F_R, 0x02004033 },   { "divu", F_R, 0x02005033 }, { "rem", F_R, 0x02006033 },
    { "remu", F_R, 0x02007033 },  { "addw", F_R, 0x0000003b }, { "subw", F_R, 0x4000003b },
    { "sllw", F_R, 0x0000103b },  { "srlw", F_R, 0x0000503b }, { "sraw", F_R, 0x4000503b },
    { "mulw", F_R, 0x0200003b },  { "divw", F_R, 0x0200403b }, { "divuw", F_R, 0x0200503b },
    { "remw", F_R, 0x0200603b },  { "remuw", F_R, 0x0200703b },
    { "addi", F_I, 0x00000013 },  { "slti", F_I, 0x00002013 }, { "sltiu", F_I, 0x00003013 },
    { "xori", F_I, 0x00004013 },  { "ori", F_I, 0x00006013 },  { "andi", F_I, 0x00007013 },
    { "addiw", F_I, 0x0000001b },
    { "slli", F_SH, 0x00001013 }, { "srli", F_SH, 0x00005013 }, { "srai", F_SH, 0x40005013 },
    { "slliw", F_SHW, 0x0000101b }, { "srliw", F_SHW, 0x0000501b }, { "sraiw", F_SHW, 0x4000501b },
    { "lb", F_LOAD, 0x00000003 }, { "lh", F_LOAD, 0x00001003 }, { "lw", F_LOAD, 0x00002003 },
    { "ld", F_LOAD, 0x00003003 }, { "lbu", F_LOAD, 0x00004003 }, { "lhu", F_LOAD, 0x00005003 },
    { "lwu", F_LOAD, 0x00006003 },
    { "sb", F_STORE, 0x00000023 }, { "sh", F_STORE, 0x00001023 }, { "sw", F_STORE, 0x00002023 },
    { "sd", F_STORE, 0x00003023 },
    { "beq", F_BRANCH, 0x00000063 }, { "bne", F_BRANCH, 0x00001063 },
    { "blt", F_BRANCH, 0x00004063 }, { "bge", F_BRANCH, 0x00005063 },
    { "bltu", F_BRANCH, 0x00006063 }, { "bgeu", F_BRANCH, 0x00007063 },
    { "bgt", F_BSWAP, 0x00004063 },  { "ble", F_BSWAP, 0x00005063 },
    { "bgtu", F_BSWAP, 0x00006063 }, { "bleu", F_BSWAP, 0x00007063 },
    { "beqz", F_BZ1, 0x00000063 },   { "bnez", F_BZ1, 0x00001063 },
    { "bltz", F_BZ1, 0x00004063 },   { "bgez", F_BZ1, 0x00005063 },
    { "blez", F_BZ2, 0x00005063 },   { "bgtz", F_BZ2, 0x00004063 },
    { "lui", F_U, OP_LUI },          { "auipc", F_U, OP_AUIPC },
    { "jal", F_JAL, OP_JAL },        { "jalr", F_JALR, 0x00000067 },
    { "ecall", F_SYS, 0x00000073 },  { "ebreak", F_SYS, 0x00100073 },
    { "nop", F_SYS, 0x00000013 },    { "ret", F_SYS, 0x00008067 },
    { "li", F_LI, 0 },               { "la", F_LA, 0 },
    { "mv", F_UN1, 0x00000013 },     { "not", F_UN1, 0xfff04013 },
    { "sext.w", F_UN1, 0x0000001b }, { "seqz", F_UN1, 0x00103013 },
    { "sltz", F_UN1, 0x00002033 },   { "neg", F_UN2, 0x40000033 },
    { "negw", F_UN2, 0x4000003b },   { "snez", F_UN2, 0x00003033 },
    { "sgtz", F_UN2, 0x00002033 },
    { "j", F_J, OP_JAL },            { "jr", F_JR, 0x00000067 },
    { "call", F_CALL, OP_JAL },
};

const struct insn *insn_find(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(insns); i++)
        if (strcmp(insns[i].name, name) == 0)
            return &insns[i];
    return NULL;
}

static bool fits(long v, int bits)
{
    return v >= -(1L << (bits - 1)) && v < (1L << (bits - 1));
}

/* ---- operand checks ---- */

/* Operand kinds per format: r register, i immediate, m memory, s symbol. */
static const char *operand_kinds(enum fmt f)
{
    switch (f) {
    case F_R: return "rrr";
    case F_I: case F_SH: case F_SHW: return "rri";
    case F_LOAD: case F_STORE: return "rm";
    case F_BRANCH: case F_BSWAP: return "rrs";
    case F_BZ1: case F_BZ2: case F_LA: return "rs";
    case F_U: case F_LI: return "ri";
    case F_UN1: case F_UN2: return "rr";
    case F_J: case F_CALL: return "s";
    case F_JR: return "r";
    default: return "";
    }
}

void insn_check(const struct stmt *cs)
{
    struct stmt *s = (struct stmt *)cs;
    const char *want = operand_kinds(s->insn->fmt);
    if (s->insn->fmt == F_JAL)
        want = s->nops == 2 ? "rs" : "s";
    if (s->insn->fmt == F_JALR)
        want = s->nops == 2 ? "rm" : "r";
    if (s->nops != (int)strlen(want))
        asm_error(s, "'%s' takes %d operands", s->insn->name, (int)strlen(want));
    for (int i = 0; i < s->nops; i++) {
        struct operand *op = &s->ops[i];
        /* A symbol may be spelled like a register (a C global named a0). */
        if (want[i] == 's' && op->kind == OPND_REG) {
            op->kind = OPND_SYM;
            op->sym = sym_lookup_n(op->text, (size_t)op->textlen, true);
        }
        static const char kinds[] = { [OPND_REG] = 'r', [OPND_IMM] = 'i', [OPND_SYM] = 's',
                                      [OPND_MEM] = 'm' };
        static const char *const what[] = { [OPND_REG] = "a register", [OPND_IMM] = "a number",
                                            [OPND_SYM] = "a label", [OPND_MEM] = "offset(register)" };
        if (kinds[op->kind] != want[i]) {
            enum operand_kind k = want[i] == 'r' ? OPND_REG : want[i] == 'i' ? OPND_IMM :
                                  want[i] == 's' ? OPND_SYM : OPND_MEM;
            asm_error(s, "operand %d of '%s' must be %s", i + 1, s->insn->name, what[k]);
        }
    }
    long imm = s->nops ? s->ops[s->nops - 1].imm : 0;
    switch (s->insn->fmt) {
    case F_I: case F_LOAD: case F_STORE: case F_JALR:
        if (!fits(imm, 12))
            asm_error(s, "offset or immediate %ld does not fit in 12 bits", imm);
        break;
    case F_SH:
    case F_SHW:
        if (imm < 0 || imm > (s->insn->fmt == F_SH ? 63 : 31))
            asm_error(s, "shift amount %ld out of range", imm);
        break;
    case F_U:
        if (imm < 0 || imm > 0xfffff)
            asm_error(s, "immediate %ld does not fit in 20 bits", imm);
        break;
    default:
        break;
    }
}

/* ---- encodings ---- */

static uint32_t enc_r(uint32_t match, int rd, int rs1, int rs2)
{
    return match | (uint32_t)rd << 7 | (uint32_t)rs1 << 15 | (uint32_t)rs2 << 20;
}

static uint32_t enc_i(uint32_t match, int rd, int rs1, long imm)
{
    return match | (uint32_t)rd << 7 | (uint32_t)rs1 << 15 | ((uint32_t)imm & 0xfff) << 20;
}

static uint32_t enc_s(uint32_t match, int rs2, int rs1, long imm)
{
    uint32_t u = (uint32_t)imm;
    return match | (u & 0x1f) << 7 | (uint32_t)rs1 << 15 | (uint32_t)rs2 << 20 | (u >> 5 & 0x7f) << 25;
}

static uint32_t enc_b(uint32_t match, int rs1, int rs2, long off)
{
    uint32_t u = (uint32_t)off;
    return match | (u >> 11 & 1) << 7 | (u >> 1 & 0xf) << 8 | (uint32_t)rs1 << 15 |
           (uint32_t)rs2 << 20 | (u >> 5 & 0x3f) << 25 | (u >> 12 & 1) << 31;
}

static uint32_t enc_j(int rd, long off)
{
    uint32_t u = (uint32_t)off;
    return OP_JAL | (uint32_t)rd << 7 | (u >> 12 & 0xff) << 12 | (u >> 11 & 1) << 20 |
           (u >> 1 & 0x3ff) << 21 | (u >> 20 & 1) << 31;
}

static uint32_t enc_u(uint32_t match, int rd, long imm20)
{
    return match | (uint32_t)rd << 7 | ((uint32_t)imm20 & 0xfffff) << 12;
}

/*
 * li: the shortest usual sequence. A 32-bit value is lui and/or addiw
 * (addi alone when it fits 12 bits); a wider one is the sequence for its
 * upper part, shifted left, plus its low 12 bits.
 */
static int li_sequence(long v, int rd, uint32_t *out)
{
    if (fits(v, 12)) {
        out[0] = enc_i(OP_IMM, rd, REG_ZERO, v);
        return 1;
    }
    long lo = (long)((unsigned long)v << 52) >> 52;              /* sign-extended low 12 bits */
    if (fits(v, 32)) {
        /* addiw, not addi: it wraps in 32 bits, which lui's sign extension needs. */
        long hi = ((v - lo) >> 12) & 0xfffff;
        int n = 0;
        out[n++] = enc_u(OP_LUI, rd, hi);
        if (lo)
            out[n++] = enc_i(OP_ADDIW, rd, rd, lo);
        return n;
    }
    long hi = (long)(((unsigned long)v - (unsigned long)lo)) >> 12;
    int shift = 12;
    while (!(hi & 1)) {
        hi >>= 1;
        shift++;
    }
    int n = li_sequence(hi, rd, out);
    out[n++] = enc_i(SLLI_MATCH, rd, rd, shift);
    if (lo)
        out[n++] = enc_i(OP_IMM, rd, rd, lo);
    return n;
}

#define LI_MAX 8

struct symbol *insn_target(const struct stmt *s)
{
    switch (s->insn->fmt) {
    case F_BRANCH: case F_BSWAP: return s->ops[2].sym;
    case F_BZ1: case F_BZ2: case F_LA: return s->ops[1].sym;
    case F_JAL: return s->ops[s->nops - 1].sym;
    case F_J: case F_CALL: return s->ops[0].sym;
    default: return NULL;
    }
}

static bool is_branch(enum fmt f)
{
    return f == F_BRANCH || f == F_BSWAP || f == F_BZ1 || f == F_BZ2;
}

bool insn_jumps(const struct stmt *s)
{
    enum fmt f = s->insn->fmt;
    return is_branch(f) || f == F_JAL || f == F_J || f == F_CALL;
}

long insn_size(const struct stmt *s, long pc, long target, bool has_target)
{
    uint32_t tmp[LI_MAX];
    switch (s->insn->fmt) {
    case F_LI:
        return 4L * li_sequence(s->ops[1].imm, s->ops[0].reg, tmp);
    case F_LA:
        return 8;
    default:
        if (!is_branch(s->insn->fmt))
            return 4;
        /* Once long, always long: so the passes settle. */
        if (s->size == 8 || (has_target && !fits(target - pc, 13)))
            return 8;
        return 4;
    }
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void branch(const struct stmt *s, int rs1, int rs2, long pc, long target, uint8_t *out)
{
    if (s->size == 4) {
        put32(out, enc_b(s->insn->match, rs1, rs2, target - pc));
        return;
    }
    /* Out of reach: the opposite branch skips a jump (funct3 ^ 1 inverts it). */
    long off = target - (pc + 4);
    if (!fits(off, 21))
        asm_error(s, "branch target too far away");
    put32(out, enc_b(s->insn->match ^ (1u << 12), rs1, rs2, 8));
    put32(out + 4, enc_j(REG_ZERO, off));
}

static void jump(const struct stmt *s, int rd, long off, uint8_t *out)
{
    if (!fits(off, 21))
        asm_error(s, "jump target '%s' too far away", insn_target(s)->name);
    put32(out, enc_j(rd, off));
}

void insn_encode(const struct stmt *s, long pc, long target, uint8_t *out)
{
    const struct operand *o = s->ops;
    uint32_t m = s->insn->match;
    switch (s->insn->fmt) {
    case F_R:      put32(out, enc_r(m, o[0].reg, o[1].reg, o[2].reg)); break;
    case F_I:
    case F_SH:
    case F_SHW:    put32(out, enc_i(m, o[0].reg, o[1].reg, o[2].imm)); break;
    case F_LOAD:   put32(out, enc_i(m, o[0].reg, o[1].reg, o[1].imm)); break;
    case F_STORE:  put32(out, enc_s(m, o[0].reg, o[1].reg, o[1].imm)); break;
    case F_BRANCH: branch(s, o[0].reg, o[1].reg, pc, target, out); break;
    case F_BSWAP:  branch(s, o[1].reg, o[0].reg, pc, target, out); break;
    case F_BZ1:    branch(s, o[0].reg, REG_ZERO, pc, target, out); break;
    case F_BZ2:    branch(s, REG_ZERO, o[0].reg, pc, target, out); break;
    case F_U:      put32(out, enc_u(m, o[0].reg, o[1].imm)); break;
    case F_JAL:    jump(s, s->nops == 2 ? o[0].reg : REG_RA, target - pc, out); break;
    case F_J:      jump(s, REG_ZERO, target - pc, out); break;
    case F_CALL:   jump(s, REG_RA, target - pc, out); break;
    case F_JALR:
        if (s->nops == 1)
            put32(out, enc_i(m, REG_RA, o[0].reg, 0));
        else
            put32(out, enc_i(m, o[0].reg, o[1].reg, o[1].imm));
        break;
    case F_JR:     put32(out, enc_i(m, REG_ZERO, o[0].reg, 0)); break;
    case F_SYS:    put32(out, m); break;
    case F_UN1:    put32(out, enc_r(m, o[0].reg, o[1].reg, 0)); break;
    case F_UN2:    put32(out, enc_r(m, o[0].reg, 0, o[1].reg)); break;
    case F_LI: {
        uint32_t seq[LI_MAX];
        int n = li_sequence(o[1].imm, o[0].reg, seq);
        for (int i = 0; i < n; i++)
            put32(out + 4 * i, seq[i]);
        break;
    }
    case F_LA: {
        long delta = target - pc;
        if (!fits(delta, 32))
            asm_error(s, "'%s' is too far away for la", o[1].sym->name);
        long hi = (delta + 0x800) >> 12;
        long lo = delta - hi * 4096;
        put32(out, enc_u(OP_AUIPC, o[0].reg, hi));
        put32(out + 4, enc_i(OP_IMM, o[0].reg, o[0].reg, lo));
        break;
    }
    }
}
