/*
 * as, the assembler: RISC-V assembly text (the part of GNU as syntax that
 * c1 and crt.s use) to a static ELF executable, in two passes over the
 * parsed statements:
 *
 *   1. sizes and offsets: every statement gets its place in its section;
 *      a conditional branch whose target turns out to be farther than its
 *      4 KiB reach grows into an inverted branch over a jump, and the
 *      offsets are computed again until nothing grows;
 *   2. encoding: with every label's address known, each instruction and
 *      datum is encoded into its section's bytes.
 *
 * With one source file and a runtime there is nothing to link: as lays
 * out the sections itself and writes the executable (as V7's as wrote
 * a.out).
 */
#ifndef ASM_H
#define ASM_H

#include "cc.h"

enum section { SEC_TEXT, SEC_RODATA, SEC_DATA, SEC_BSS, NSECTIONS };

struct symbol {
    const char *name;
    enum section section;
    long offset;            /* in its section */
    bool defined;
    int line;
    const char *file;
    struct symbol *next;    /* hash chain */
};

enum operand_kind { OPND_REG, OPND_IMM, OPND_SYM, OPND_MEM };

struct operand {
    enum operand_kind kind;
    int reg;                /* OPND_REG; OPND_MEM: the base */
    long imm;               /* OPND_IMM; OPND_MEM: the offset */
    struct symbol *sym;     /* OPND_SYM; ST_LABEL: the label */
    const char *text;       /* OPND_REG: as written, in case it names a symbol */
    int textlen;            /* (text points into the source, which stays in memory) */
};

enum stmt_kind { ST_LABEL, ST_INSN, ST_DATA, ST_ZERO, ST_BYTES, ST_ALIGN };

#define ASM_MAX_OPERANDS 3

struct stmt {
    enum stmt_kind kind;
    enum section section;
    int line;
    const char *file;
    long offset;            /* in its section, from pass 1 */
    long size;              /* bytes */
    const struct insn *insn;   /* ST_INSN */
    int nops;
    struct operand ops[ASM_MAX_OPERANDS];   /* ST_DATA: ops[0] is the value */
    int width;              /* ST_DATA: 1, 2, 4 or 8; ST_ALIGN: the alignment */
    const char *bytes;      /* ST_BYTES (size of them) */
    struct stmt *next;
};

/* asm_parse.c: the text of one file to statements, appended to *tail. */
struct stmt **asm_parse(const char *file, const char *text, struct stmt **tail);
struct symbol *sym_lookup(const char *name, bool create);
struct symbol *sym_lookup_n(const char *name, size_t n, bool create);
void for_each_symbol(void (*fn)(struct symbol *s));

/* asm_enc.c: the instruction table and the encoder. */
struct insn;
const struct insn *insn_find(const char *name);
/* Checks a statement's operands against what the instruction takes. */
void insn_check(const struct stmt *s);
/* Bytes the statement needs, given its distance to its target (pass 1). */
long insn_size(const struct stmt *s, long pc, long target, bool has_target);
/* The symbol an instruction's address operand names, or NULL. */
struct symbol *insn_target(const struct stmt *s);
/* Branches, jumps and calls: their target must be code. */
bool insn_jumps(const struct stmt *s);
/* Encodes into out (insn_size bytes), the statement at address pc. */
void insn_encode(const struct stmt *s, long pc, long target, uint8_t *out);

/* elf.c: the layout of the image, and the executable file. */
#define ASM_BASE     0x10000L    /* where faultline loads programs */
#define ASM_PAGE     4096L

struct image {
    long size[NSECTIONS];        /* bytes of each section */
    uint8_t *bytes[NSECTIONS];   /* contents (none for bss) */
    long addr[NSECTIONS];        /* where each starts, once laid out */
    long file_off[NSECTIONS];
    long entry;
};
void elf_layout(struct image *img);
/* The whole ELF file; its length in *len. */
uint8_t *elf_write(const struct image *img, size_t *len);

_Noreturn void asm_error(const struct stmt *s, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));

#endif
