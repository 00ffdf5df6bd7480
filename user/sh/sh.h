/*
 * sh: the parts of the shell and what they share. The language is in
 * main.c's header comment and in man/man1/sh.1.
 *
 * A command goes through four stages:
 *   lex.c     text -> tokens (words keep their quotes and $ for later)
 *   parse.c   tokens -> a tree of nodes (simple commands, lists, if, ...)
 *   exec.c    runs the tree; expand.c turns each word into fields when
 *             its command runs (so a loop sees the variables' new values)
 *   vars.c    the variables and the script's arguments
 * lex.c, parse.c and arith.c make no system call and print nothing: they
 * report errors in a struct sh_error, so the host tests build them too.
 */
#ifndef SH_H
#define SH_H

#include "ulib.h"

#define SH_ERROR_MAX   160   /* an error message, including the NUL */
#define SH_NAME_MAX    32    /* a variable name, including the NUL */
#define SH_LOOP_MAX    64    /* nesting of loops (break N, continue N) */

/* ---- errors (lex, parse, arith, expand) ---- */
struct sh_error {
    bool incomplete;          /* the text ended inside a construct: more may follow */
    int  line;                /* line of the error, from 1 */
    char msg[SH_ERROR_MAX];
};
void sh_set_error(struct sh_error *e, int line, const char *fmt, ...)
    __attribute__((format(__printf__, 3, 4)));

/* ---- an arena: every token and node of one command, freed together ---- */
void *arena_alloc(size_t n);          /* zeroed; never NULL (dies if memory runs out) */
char *arena_strndup(const char *s, size_t n);
void  arena_reset(void);
_Noreturn void sh_out_of_memory(void);     /* main.c: says so and exits */

/* ---- lex.c ---- */
enum tok_kind {
    TK_WORD,                  /* text: the word as written, quotes included */
    TK_NEWLINE, TK_SEMI, TK_AMP, TK_AND_IF, TK_OR_IF, TK_PIPE, TK_LPAREN, TK_RPAREN,
    TK_LESS, TK_GREAT, TK_DGREAT, TK_GREATAND, TK_LESSAND,   /* fd in io_fd, or -1 */
    TK_END
};
struct token {
    enum tok_kind kind;
    const char   *text;       /* TK_WORD: the word; others: the operator's spelling */
    int           io_fd;      /* redirections: the digit before the operator, or -1 */
    int           line;
};
/* Splits text into tokens (ending with TK_END) in the arena. Returns the
 * count, or -1 with *err set. A quote left open at the end of the text
 * is an error (quotes do not span lines). */
int lex(const char *text, int first_line, struct token **out, struct sh_error *err);
const char *token_spelling(const struct token *t);  /* for "syntax error near `x'" */
/* The bracket closing the ( or { at p, as the lexer matched it (quotes
 * and nested $( ) inside skipped), or the end of the string. */
const char *bracket_end(const char *p);

/* ---- parse.c ---- */
enum redir_kind { R_IN, R_OUT, R_APPEND, R_DUP };
struct redir {
    enum redir_kind kind;
    int             fd;       /* the fd redirected */
    const char     *word;     /* file name, or for R_DUP the fd copied (unexpanded) */
    struct redir   *next;
};

enum node_kind { N_SIMPLE, N_LIST, N_AND, N_OR, N_NOT, N_IF, N_WHILE, N_UNTIL, N_FOR };
struct node {
    enum node_kind kind;
    int            line;
    struct redir  *redirs;    /* N_SIMPLE and the compound commands */
    bool           background;  /* ends with & */
    union {
        struct {              /* N_SIMPLE */
            const char **words;   /* assignments first, then the command */
            int          nwords;
            int          nassign; /* leading NAME=value words */
        } simple;
        struct {              /* N_LIST: run in order */
            struct node **items;
            int           n;
        } list;
        struct {              /* N_AND, N_OR: left, then right if left succeeded / failed */
            struct node *left, *right;
        } pair;
        struct node *negated; /* N_NOT */
        struct {              /* N_IF: cond then, else (NULL, or another N_IF for elif) */
            struct node *cond, *then, *otherwise;
        } cond;
        struct {              /* N_WHILE, N_UNTIL */
            struct node *cond, *body;
        } loop;
        struct {              /* N_FOR */
            const char  *name;
            const char **words;   /* NULL: "$@" */
            int          nwords;
            struct node *body;
        } each;
    } u;
};
/* Parses a whole text of complete commands into one N_LIST. Returns NULL
 * with *err set on a syntax error; err->incomplete means the text ended
 * inside a construct (an if without fi...), so a line more may finish it. */
struct node *parse(const struct token *tokens, struct sh_error *err);
bool is_name(const char *s, size_t n);      /* a variable name: [A-Za-z_][A-Za-z0-9_]* */
bool is_assignment(const char *word);       /* NAME=... */

/* ---- arith.c: $(( )) ---- */
/* Evaluates an integer expression; names are read with lookup (NULL or
 * "" is 0). Returns 0 and *value, or -1 with *err set. */
typedef const char *(*arith_lookup)(const char *name);
int arith_eval(const char *expr, arith_lookup lookup, long *value, struct sh_error *err);

/* ---- vars.c ---- */
const char *var_get(const char *name);      /* NULL if unset */
int   var_set(const char *name, const char *value);   /* 0, or -1 (bad name, full) */
void  args_set(int argc, char **argv);      /* $0 = argv[0], $1.. = the rest */
int   args_count(void);                     /* $# */
const char *arg_get(int i);                 /* $0..$#, NULL past the end */
int   args_shift(int n);                    /* 0, or -1 if fewer than n */
extern int last_status;                     /* $? */
extern int last_background;                 /* $!, 0 if none */

/* ---- expand.c ---- */
/* Expands words into fields (variables, $(( )), quotes removed, unquoted
 * expansions split at blanks). The fields are malloc'ed into *out, in one
 * block freed with free(*out). Returns the count, or -1 after printing
 * an error (line: the command's). */
int expand_words(const char *const *words, int n, int line, char ***out);
/* One word to one string, no splitting (redirection targets, assignments). */
char *expand_one(const char *word, int line);

/* ---- exec.c ---- */
int  exec_node(struct node *n);             /* runs n, returns (and sets) $? */
void sh_report(int line, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));
extern const char *script_name;             /* NULL at the console */
extern bool interactive;
extern volatile int interrupted;            /* Ctrl-C at the console, or break/exit pending */

/* ---- builtin.c ---- */
typedef int (*builtin_fn)(int argc, char **argv);
builtin_fn builtin_find(const char *name);
int  builtin_test(int argc, char **argv);   /* test and [ */
int  builtin_break(int argc, char **argv);  /* exec.c: they know the loops */
int  builtin_continue(int argc, char **argv);

/* ---- jobs.c ---- */
struct job {
    int  pgid;                /* 0 until the first process exists */
    bool foreground;
};
extern bool job_control;
void job_control_start(void);
void job_enter(const struct job *j);        /* in the child, after fork */
void job_add(struct job *j, int pid);       /* in the parent */
void job_done(const struct job *j);         /* the foreground job is over */
int  job_wait(int pid);                     /* waits for pid; its status as $? */
void jobs_reap(void);                       /* reports background jobs that ended */
void job_report(int pid, int wait_status);  /* "[pid] done status N" */
int  status_of(int wait_status);            /* exit code, or 128 + signal */

/* ---- help.c ---- */
void help(void);

#endif
