/*
 * The lexer: text -> tokens. A word keeps its quotes, backslashes and $
 * expressions as written; expand.c interprets them when the command runs.
 * Here they only decide where the word ends: a blank or an operator ends
 * it unless quoted, and $( ), $(( )) and ${ } run to their closing
 * bracket, blanks and all.
 */
#include "sh.h"

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool is_operator_char(char c)
{
    return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' ||
           c == ')' || c == '\n';
}

struct lexer {
    const char      *p;
    int              line;
    struct token    *tokens;
    int              n, cap;
    struct sh_error *err;
};

static void push(struct lexer *lx, enum tok_kind kind, const char *text, int io_fd)
{
    if (lx->n == lx->cap) {
        int cap = lx->cap ? 2 * lx->cap : 64;
        struct token *t = arena_alloc((size_t)cap * sizeof *t);
        if (lx->n)
            memcpy(t, lx->tokens, (size_t)lx->n * sizeof *t);
        lx->tokens = t;
        lx->cap = cap;
    }
    lx->tokens[lx->n++] = (struct token){ kind, text, io_fd, lx->line };
}

static const char *skip_bracketed(const char *p);

/* Skips a quoted string starting at the quote *p; returns the character
 * after the closing quote, or NULL if the line ends first. Inside double
 * quotes a $( ) or ${ } runs to its own closing bracket, quotes and all:
 * "a $(echo "b") c" is one string. */
static const char *skip_quoted(const char *p)
{
    char q = *p++;
    while (*p && *p != '\n' && *p != q) {
        if (q == '"' && *p == '\\' && p[1] && p[1] != '\n') {
            p += 2;
        } else if (q == '"' && *p == '$' && (p[1] == '(' || p[1] == '{')) {
            p = skip_bracketed(p + 1);
            if (!p)
                return NULL;
        } else {
            p++;
        }
    }
    return *p == q ? p + 1 : NULL;
}

/* Skips $( ... ), $(( ... )) or ${ ... } starting at the bracket; returns
 * the character after the closing one, or NULL if the line ends first. */
static const char *skip_bracketed(const char *p)
{
    char open = *p, close = open == '(' ? ')' : '}';
    int depth = 0;
    while (*p && *p != '\n') {
        if (*p == '\'' || *p == '"') {
            p = skip_quoted(p);
            if (!p)
                return NULL;
            continue;
        }
        if (*p == open)
            depth++;
        else if (*p == close && --depth == 0)
            return p + 1;
        p++;
    }
    return NULL;
}

/* The word at lx->p; returns -1 on an unterminated quote or bracket. */
static int lex_word(struct lexer *lx)
{
    const char *start = lx->p, *p = lx->p;
    while (*p && !is_blank(*p) && !is_operator_char(*p)) {
        const char *next;
        if (*p == '\'' || *p == '"') {
            next = skip_quoted(p);
            if (!next) {
                sh_set_error(lx->err, lx->line, "unterminated quote");
                return -1;
            }
        } else if (*p == '\\') {
            next = p[1] ? p + 2 : p + 1;
            if (p[1] == '\n')
                lx->line++;
        } else if (*p == '$' && (p[1] == '(' || p[1] == '{')) {
            next = skip_bracketed(p + 1);
            if (!next) {
                sh_set_error(lx->err, lx->line, "unterminated %s",
                             p[1] == '{' ? "${" : "$(");
                return -1;
            }
        } else {
            next = p + 1;
        }
        p = next;
    }
    push(lx, TK_WORD, arena_strndup(start, (size_t)(p - start)), -1);
    lx->p = p;
    return 0;
}

/* The operator at lx->p (after an optional fd digit). */
static void lex_operator(struct lexer *lx, int io_fd)
{
    const char *p = lx->p;
    enum tok_kind kind;
    int len = 1;
    switch (*p) {
    case '\n': kind = TK_NEWLINE; break;
    case ';':  kind = TK_SEMI; break;
    case '(':  kind = TK_LPAREN; break;
    case ')':  kind = TK_RPAREN; break;
    case '&':
        if (p[1] == '&') { kind = TK_AND_IF; len = 2; } else kind = TK_AMP;
        break;
    case '|':
        if (p[1] == '|') { kind = TK_OR_IF; len = 2; } else kind = TK_PIPE;
        break;
    case '<':
        if (p[1] == '&') { kind = TK_LESSAND; len = 2; } else kind = TK_LESS;
        break;
    default:   /* '>' */
        if (p[1] == '>') { kind = TK_DGREAT; len = 2; }
        else if (p[1] == '&') { kind = TK_GREATAND; len = 2; }
        else kind = TK_GREAT;
        break;
    }
    push(lx, kind, arena_strndup(p, (size_t)len), io_fd);
    if (kind == TK_NEWLINE)
        lx->line++;
    lx->p = p + len;
}

int lex(const char *text, int first_line, struct token **out, struct sh_error *err)
{
    struct lexer lx = { .p = text, .line = first_line, .err = err };
    for (;;) {
        while (is_blank(*lx.p))
            lx.p++;
        if (*lx.p == '\\' && lx.p[1] == '\n') {   /* a line continued */
            lx.p += 2;
            lx.line++;
            continue;
        }
        if (*lx.p == '\0')
            break;
        if (*lx.p == '#') {                       /* a comment, to the line's end */
            while (*lx.p && *lx.p != '\n')
                lx.p++;
            continue;
        }
        if (isdigit(*lx.p) && (lx.p[1] == '<' || lx.p[1] == '>')) {
            int fd = *lx.p - '0';
            lx.p++;
            lex_operator(&lx, fd);
        } else if (is_operator_char(*lx.p)) {
            lex_operator(&lx, -1);
        } else if (lex_word(&lx) < 0) {
            return -1;
        }
    }
    /* The end is on the last line, not on the empty one after its newline. */
    if (lx.p > text && lx.p[-1] == '\n' && lx.line > first_line)
        lx.line--;
    push(&lx, TK_END, "end of file", -1);
    *out = lx.tokens;
    return lx.n;
}

const char *bracket_end(const char *p)
{
    const char *after = skip_bracketed(p);
    return after ? after - 1 : p + strlen(p);
}

const char *token_spelling(const struct token *t)
{
    return t->kind == TK_NEWLINE ? "newline" : t->text;
}
