/*
 * c1's code generator: the lowered tree to RISC-V assembly text.
 *
 * Expressions are evaluated into a stack of registers: the value of the
 * k-th pending subexpression lives in reg_name(k). The first seven are
 * the temporaries t0-t6; deeper ones use the callee-saved s1-s11, which a
 * function then saves in its prologue. Around a call the live
 * temporaries are spilled to slots at the bottom of the frame (the
 * s-registers survive calls by the ABI). Arguments go in a0-a7, the
 * result comes back in a0.
 */
#ifndef GEN_H
#define GEN_H

#include "cc.h"

#define GEN_NREGS    18   /* t0-t6, s1-s11 */
#define GEN_NTEMPS   7    /* the caller-saved ones: t0-t6 */

struct gen {
    struct buf *out;      /* the current function's body */
    int depth;            /* registers in use */
    int max_depth;
    int max_spill;        /* temporaries spilled around a call, at most */
    int labels;           /* label counter, for the whole file */
    int ret_label;
};

extern struct gen g;

const char *reg_name(int i);
int  new_label(void);
void emit(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));
void emit_label(int label);

/* gen.c: an expression's value into a new register (depth + 1). */
void gen_expr(const struct node *n);
/* gen.c: jump to label if the value of n is nonzero (when) or zero (!when). */
void gen_branch(const struct node *n, int label, bool when);
void pop_reg(void);

/* gen_stmt.c */
void gen_program(struct buf *out, const struct node *list);

#endif
