/*
 * c0, the first pass: tokens, the C types, the parser and the checker.
 */
#ifndef C0_H
#define C0_H

#include "cc.h"

/* ---- lex.c ---- */

enum tok_kind { T_EOF, T_IDENT, T_KEYWORD, T_PUNCT, T_NUM, T_CHAR, T_STR };

struct token {
    enum tok_kind kind;
    int line;
    long val;           /* T_NUM, T_CHAR */
    bool is_long;       /* T_NUM: an L suffix, or too big for int */
    const char *s;      /* T_IDENT, T_KEYWORD, T_PUNCT: the text; T_STR: the bytes */
    int len;            /* T_STR: byte count (the bytes may hold NULs) */
};

/* The whole file as tokens, ending with T_EOF. #define NAME tokens is
 * expanded here; any other preprocessor line is an error. */
struct token *lex(const char *src);

/* ---- type.c ---- */

enum type_kind { TY_VOID, TY_CHAR, TY_INT, TY_LONG, TY_PTR, TY_ARRAY, TY_FUNC };

struct type {
    enum type_kind kind;
    long size;              /* bytes; arrays of unknown length: 0 */
    long align;
    struct type *base;      /* pointer target, array element */
    long len;               /* array length, -1 while unknown */
    struct type *ret;       /* function return type */
    struct type **params;   /* function parameter types */
    int nparams;
};

extern struct type *ty_void, *ty_char, *ty_int, *ty_long;
struct type *pointer_to(struct type *base);
struct type *array_of(struct type *base, long len);
struct type *func_type(struct type *ret, struct type **params, int nparams);
bool is_integer(const struct type *t);
bool is_pointer(const struct type *t);         /* pointers, and arrays (which decay) */
bool is_scalar(const struct type *t);
bool same_type(const struct type *a, const struct type *b);
char machine_type(const struct type *t);        /* MT_*: arrays and functions are addresses */
/* "int", "char *", "int [10]", ... for messages. */
const char *type_name(const struct type *t);

/* ---- parse.c, parse_expr.c: tokens to a parse tree ---- */

/*
 * Parse-tree nodes use struct node with the P_* operators and the C
 * operators shared with the lowered tree:
 *   P_IDENT name; NUM val, ty; P_STRING name/len; P_ASSIGN a = b;
 *   ASGOP a op= b (val = N_ADD...); PREINC/POSTINC a, val = +1/-1;
 *   P_ADDR, P_DEREF, NEG, NOT, BNOT, P_PLUS a; P_INDEX a[b];
 *   CALL name, a = arguments; COND, COMMA; P_SIZEOF_EXPR a;
 *   P_SIZEOF_TYPE ty; P_CAST ty, a
 *   P_DECL name, ty, a = initializer (an expression or a P_INITLIST whose
 *   a is the list of expressions), val = 1 for static
 *   P_FUNCDEF name, ty, a = parameter P_DECLs, b = body (BLOCK)
 *   statements as in the lowered tree, with P_DECL among them
 */
struct parser {
    struct token *tok;      /* the current token */
    int depth;              /* nesting, to bound recursion */
};

struct node *parse_program(struct token *tokens);
/* For parse.c and parse_expr.c only. */
struct node *parse_expr(struct parser *p);
struct node *parse_assign(struct parser *p);
bool is_type_token(const struct token *t);        /* int, long, char, void */
struct type *parse_abstract_type(struct parser *p);   /* "int *", for casts and sizeof */
bool tok_is(const struct parser *p, const char *s);
bool tok_accept(struct parser *p, const char *s);
void tok_expect(struct parser *p, const char *s);
void enter(struct parser *p);
void leave(struct parser *p);

/* ---- check.c, check_expr.c: the parse tree to the lowered tree ---- */

struct node *check_program(struct node *parsed);

/* For check.c and check_expr.c only. */
enum sym_kind { SYM_GLOBAL, SYM_LOCAL, SYM_FUNC };

struct sym {
    const char *name;
    enum sym_kind kind;
    struct type *ty;
    long offset;            /* SYM_LOCAL: from the frame pointer */
    int depth;              /* block nesting where declared (0: file scope) */
    int line;
    bool defined;           /* has a body, or storage */
    bool runtime;           /* a function of the runtime (crt.s) */
    int used_line;          /* first call, for "never defined" */
    struct sym *next;
};

struct sym *lookup(const char *name);
/* An expression lowered without decay: an array stays an array (its
 * address), an lvalue is a LOAD of its address. */
struct node *lower_expr(const struct node *n);
/* Lowered, then arrays decayed to pointers: a value. */
struct node *rvalue(const struct node *n);
/* n converted for assignment to an object of type ty ("what" names the
 * destination in messages). */
struct node *assign_conv(struct node *n, struct type *ty, const char *what);
struct node *make_num(long v, struct type *ty, int line);
/* A string literal as a label in the program's read-only data. */
struct node *string_literal(const struct node *p);

#endif
