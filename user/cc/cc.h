/*
 * cc: a compiler for a small subset of C, in passes as UNIX cc had them.
 *
 *   c0   tokenize, parse into a tree, check it; writes the checked,
 *        lowered tree of the whole program to a text file      (lex.c,
 *        parse*.c, type.c, check*.c, tree.c, c0.c)
 *   c1   reads that tree and emits RISC-V assembly text          (tree.c,
 *        gen*.c, c1.c)
 *   as   assembles the text into a static ELF executable          (asm*.c,
 *        elf.c, as.c)
 *   cc   the driver: runs c0, c1 and as in turn through temporary
 *        files, as V7's cc ran c0, c1, as and ld                  (cc.c)
 *
 * Each pass is its own program, so the memory manager sees what a 1979
 * machine saw: several medium-size processes in turn rather than one
 * big one. docs/cc.md describes the language and the passes.
 *
 * This header is shared by every pass. The passes are plain C over a few
 * library calls, so they also build on the host (FAULTLINE_HOST) for the
 * unit tests in tests/host/.
 */
#ifndef CC_H
#define CC_H

#ifdef FAULTLINE_HOST
#define _POSIX_C_SOURCE 200809L     /* open, read, write, unlink */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#else
#include "ulib.h"
#endif

/* ---- limits: each is a clear error when reached, never a crash ---- */
#define CC_MAX_DEPTH     200    /* nesting of expressions and statements */
#define CC_MAX_ARGS      8      /* arguments in a call: a0..a7 */
#define CC_MAX_NAME      63     /* characters in an identifier */
#define CC_MAX_FRAME     (512 * 1024)   /* a function's locals: half the 1 MiB user stack */

/* ---- util.c: memory, messages, files, buffers ---- */

/* Every pass allocates from one arena and never frees: a pass is a short
 * program, and its tables live until it exits. */
void *cc_alloc(size_t n);                 /* zeroed; "out of memory" is fatal */
char *cc_strndup(const char *s, size_t n);
size_t cc_allocated(void);                /* bytes handed out so far */

/* The pass's name ("c0", "as"...) for messages, and the file being read. */
extern const char *cc_pass;
extern const char *cc_file;

/* "file:line: error: ..." on stderr, then exit(1). line 0: no line. */
_Noreturn void error_at(int line, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));
/* "pass: ..." on stderr, then exit(1). */
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));

/* A growing text or byte buffer. */
struct buf {
    char *p;
    size_t len, cap;
};
void buf_add(struct buf *b, const void *data, size_t n);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));

/* Reads a whole file into a NUL-terminated buffer; fatal if it cannot. */
char *read_whole_file(const char *path, size_t *len);
/* Writes a buffer to a file, replacing it; fatal if it cannot. */
void write_whole_file(const char *path, const void *data, size_t len);

/* With -v: one line of the pass's sizes (text, data, bss, heap, resident
 * memory) on stderr, so experiments can see its working set. */
void report_sizes(const char *what);

/* ---- the tree: c0 builds it, check lowers it, tree.c writes and reads it ---- */

/*
 * Operators. The first group is what c0's checker hands to c1 (the
 * "lowered" tree: addresses and loads are explicit, pointer arithmetic is
 * scaled, conversions are nodes); each has a name in the tree file. The
 * second group exists only between parse and check.
 */
#define CC_LOWERED_OPS(X) \
    X(NUM, "num")   X(LADDR, "laddr") X(GADDR, "gaddr") X(LOAD, "load") \
    X(STORE, "store") X(ASGOP, "asgop") X(PREINC, "preinc") X(POSTINC, "postinc") \
    X(ADD, "add")   X(SUB, "sub")     X(MUL, "mul")     X(DIV, "div") \
    X(MOD, "mod")   X(BAND, "and")    X(BOR, "or")      X(BXOR, "xor") \
    X(SHL, "shl")   X(SHR, "shr")     X(EQ, "eq")       X(NE, "ne") \
    X(LT, "lt")     X(LE, "le")       X(GT, "gt")       X(GE, "ge") \
    X(LAND, "land") X(LOR, "lor")     X(NOT, "not")     X(NEG, "neg") \
    X(BNOT, "bnot") X(COND, "cond")   X(CALL, "call")   X(CONV, "conv") \
    X(COMMA, "comma") \
    X(BLOCK, "block") X(EXPR, "expr") X(IF, "if")       X(WHILE, "while") \
    X(DO, "do")     X(FOR, "for")     X(RETURN, "return") X(BREAK, "break") \
    X(CONTINUE, "continue") \
    X(FUNC, "func") X(PARAM, "param") X(GVAR, "gvar")   X(INIT, "init") \
    X(STR, "str")

#define CC_OP_ENUM(op, name) N_##op,
enum {
    CC_LOWERED_OPS(CC_OP_ENUM)
    N_LOWERED_COUNT,
    /* parse tree only */
    P_IDENT = N_LOWERED_COUNT, P_STRING, P_ASSIGN, P_ADDR, P_DEREF, P_INDEX,
    P_SIZEOF_EXPR, P_SIZEOF_TYPE, P_CAST, P_PLUS, P_DECL, P_INITLIST,
    P_FUNCDEF,
};

/*
 * Machine types, all c1 knows of C's types: 'b' a byte (char, held
 * zero-extended), 'w' a 32-bit int (held sign-extended), 'd' a 64-bit
 * long or pointer, 'v' no value. '-' for statements.
 */
enum { MT_BYTE = 'b', MT_WORD = 'w', MT_DWORD = 'd', MT_VOID = 'v', MT_NONE = '-' };

struct type;

/*
 * One node. In the lowered tree the fields mean:
 *   NUM val                 LADDR val = offset from the frame pointer
 *   GADDR name              LOAD a = address, mt = width
 *   STORE a = address, b = value, mt = width; its value is b's
 *   ASGOP a = address, b = operand, val = operator (N_ADD...), mt = width
 *   PREINC/POSTINC a = address, val = step (negative: decrement)
 *   binary ops a, b; COND a ? b : c; CALL name, a = arguments (a list)
 *   CONV a to mt; COMMA a, b
 *   BLOCK a = statements; EXPR a; IF a b c; WHILE a b; DO a = body b = cond
 *   FOR a = init, b = cond, c = step, d = body (any may be NULL); RETURN a
 *   FUNC name, val = bytes of locals, a = PARAMs, b = body
 *   PARAM val = offset, mt; GVAR name, val = size, a = INITs (none: bss)
 *   INIT val = offset, mt = width, a = NUM or GADDR
 *   STR val = label number, name = bytes (len of them)
 * Lists (statements, arguments, top-level items) chain through next.
 */
struct node {
    int op;
    char mt;
    int line;
    long val;
    char *name;
    int len;
    struct node *a, *b, *c, *d;
    struct node *next;
    struct type *ty;        /* c0: the C type */
};

struct node *new_node(int op, int line);
const char *op_name(int op);            /* NULL for parse-only operators */
int op_by_name(const char *s);          /* -1 if unknown */

/* tree.c: the intermediate file between c0 and c1, one node per line. */
void tree_write(struct buf *out, const char *source, const struct node *list);
/* The tree, and the source file it came from; a damaged file is an error. */
struct node *tree_read(const char *text, const char **source);

/* String-literal labels, shared by c0 (which numbers them) and c1. */
#define STR_LABEL_FMT ".S%ld"

#endif
