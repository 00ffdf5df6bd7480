/*
 * The tokenizer: source text to an array of tokens, all at once, as a
 * first scan over the file. It also does the one preprocessor feature cc
 * has, object-like macros (#define NAME tokens...), so that programs can
 * name their constants. A macro's body is expanded when it is defined,
 * and its tokens take the line of the use.
 */
#include "c0.h"

static const char *const keywords[] = {
    "int", "long", "char", "void", "if", "else", "while", "do", "for",
    "return", "break", "continue", "sizeof", "static",
};

/* Longest first, so that "<<=" is not read as "<<" then "=". */
static const char *const puncts[] = {
    "<<=", ">>=", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "+", "-", "*", "/", "%",
    "&", "|", "^", "~", "!", "=", "<", ">", "?", ":", ";", ",", "(", ")",
    "[", "]", "{", "}",
};

/* Names every program has, from the system-call ABI. */
static const char builtin_defines[] =
    "#define NULL 0\n"
    "#define EOF (-1)\n"
    "#define O_RDONLY 0\n"
    "#define O_WRONLY 1\n"
    "#define O_RDWR 2\n"
    "#define O_CREAT 64\n"
    "#define O_TRUNC 512\n"
    "#define O_APPEND 1024\n";

struct macro {
    const char *name;
    struct token *body;
    int len;
    struct macro *next;
};

struct lexer {
    const char *p;
    int line;
    struct token *toks;
    int ntoks, cap;
    struct macro *macros;
};

static struct token *push(struct lexer *lx, enum tok_kind kind)
{
    if (lx->ntoks == lx->cap) {
        int cap = lx->cap ? lx->cap * 2 : 1024;
        struct token *t = malloc((size_t)cap * sizeof *t);
        if (!t)
            fatal("out of memory");
        if (lx->ntoks)
            memcpy(t, lx->toks, (size_t)lx->ntoks * sizeof *t);
        free(lx->toks);
        lx->toks = t;
        lx->cap = cap;
    }
    struct token *t = &lx->toks[lx->ntoks++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->line = lx->line;
    return t;
}

static bool is_ident_start(int c) { return isalpha(c) || c == '_'; }
static bool is_ident_char(int c) { return is_ident_start(c) || isdigit(c); }

static int hex_digit(int c)
{
    if (isdigit(c))
        return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One character of a char or string literal, escapes included. */
static int read_char(struct lexer *lx)
{
    int c = (unsigned char)*lx->p;
    if (c == '\n' || c == '\0')
        error_at(lx->line, "unterminated literal");
    lx->p++;
    if (c != '\\')
        return c;
    c = (unsigned char)*lx->p++;
    switch (c) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'a': return 7;
    case 'b': return 8;
    case 'f': return 12;
    case 'v': return 11;
    case '\\': case '\'': case '"': case '?': return c;
    case 'x': {
        int v = 0, n = 0;
        while (hex_digit(*lx->p) >= 0 && n < 2) {
            v = v * 16 + hex_digit(*lx->p++);
            n++;
        }
        if (!n)
            error_at(lx->line, "\\x needs hex digits");
        return v;
    }
    default:
        if (c >= '0' && c <= '7') {
            int v = c - '0';
            for (int n = 1; n < 3 && *lx->p >= '0' && *lx->p <= '7'; n++)
                v = v * 8 + (*lx->p++ - '0');
            if (v > 255)
                error_at(lx->line, "octal escape out of range");
            return v;
        }
        error_at(lx->line, "unknown escape sequence '\\%c'", c ? c : '0');
    }
}

static void lex_number(struct lexer *lx, struct token *t)
{
    const char *p = lx->p;
    int base = 10;
    if (p[0] == '0' && (p[1] | 0x20) == 'x') {
        base = 16;
        p += 2;
    } else if (p[0] == '0') {
        base = 8;
    }
    unsigned long v = 0;
    bool any = false, overflow = false;
    for (;; p++) {
        int d = hex_digit(*p);
        if (d < 0 || d >= base)
            break;
        if (v > (0x7fffffffffffffffUL - (unsigned long)d) / (unsigned long)base)
            overflow = true;
        v = v * (unsigned long)base + (unsigned long)d;
        any = true;
    }
    if (base == 16 && !any)
        error_at(lx->line, "hex constant needs digits");
    if (overflow)
        error_at(lx->line, "integer constant too large");
    if ((*p | 0x20) == 'l') {
        t->is_long = true;
        p++;
    }
    if (is_ident_char(*p))
        error_at(lx->line, "bad number: unexpected '%c'", *p);
    t->val = (long)v;
    t->is_long = t->is_long || v > 0x7fffffffUL;
    lx->p = p;
}

static void skip_space(struct lexer *lx, bool stop_at_newline)
{
    for (;;) {
        const char *p = lx->p;
        if (*p == '\n' && stop_at_newline)
            return;
        if (*p == '\n') {
            lx->line++;
            lx->p++;
        } else if (isspace(*p)) {
            lx->p++;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*lx->p && *lx->p != '\n')
                lx->p++;
        } else if (p[0] == '/' && p[1] == '*') {
            int start = lx->line;
            lx->p += 2;
            while (!(lx->p[0] == '*' && lx->p[1] == '/')) {
                if (!*lx->p)
                    error_at(start, "unterminated comment");
                if (*lx->p == '\n')
                    lx->line++;
                lx->p++;
            }
            lx->p += 2;
        } else if (p[0] == '\\' && p[1] == '\n') {
            lx->line++;
            lx->p += 2;
        } else {
            return;
        }
    }
}

static struct macro *find_macro(struct lexer *lx, const char *name, int len)
{
    for (struct macro *m = lx->macros; m; m = m->next)
        if ((int)strlen(m->name) == len && memcmp(m->name, name, (size_t)len) == 0)
            return m;
    return NULL;
}

static void lex_token(struct lexer *lx);

/* #define NAME tokens...: the body is lexed (and expanded) like any other
 * tokens, then moved from the token array into the macro. */
static void lex_directive(struct lexer *lx)
{
    int line = lx->line;
    lx->p++;                                  /* '#' */
    skip_space(lx, true);
    const char *w = lx->p;
    while (is_ident_char(*lx->p))
        lx->p++;
    if (lx->p - w != 6 || memcmp(w, "define", 6) != 0)
        error_at(line, "unsupported preprocessor line '#%.*s' (cc knows only #define NAME value)",
                 (int)(lx->p - w), w);
    skip_space(lx, true);
    const char *name = lx->p;
    if (!is_ident_start(*name))
        error_at(line, "#define needs a name");
    while (is_ident_char(*lx->p))
        lx->p++;
    int len = (int)(lx->p - name);
    if (*lx->p == '(')
        error_at(line, "macros with parameters are not supported");
    if (find_macro(lx, name, len))
        error_at(line, "'%.*s' is already defined", len, name);
    int first = lx->ntoks;
    for (;;) {
        skip_space(lx, true);
        if (*lx->p == '\n' || *lx->p == '\0')
            break;
        lex_token(lx);
    }
    struct macro *m = cc_alloc(sizeof *m);
    m->name = cc_strndup(name, (size_t)len);
    m->len = lx->ntoks - first;
    m->body = cc_alloc(sizeof(struct token) * (size_t)(m->len + 1));
    memcpy(m->body, &lx->toks[first], sizeof(struct token) * (size_t)m->len);
    lx->ntoks = first;
    m->next = lx->macros;
    lx->macros = m;
}

static void lex_ident(struct lexer *lx)
{
    const char *s = lx->p;
    while (is_ident_char(*lx->p))
        lx->p++;
    int len = (int)(lx->p - s);
    struct macro *m = find_macro(lx, s, len);
    if (m) {
        for (int i = 0; i < m->len; i++) {
            struct token *t = push(lx, m->body[i].kind);
            int line = t->line;
            *t = m->body[i];
            t->line = line;
        }
        return;
    }
    if (len > CC_MAX_NAME)
        error_at(lx->line, "identifier longer than %d characters", CC_MAX_NAME);
    struct token *t = push(lx, T_IDENT);
    t->s = cc_strndup(s, (size_t)len);
    for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
        if (strcmp(t->s, keywords[i]) == 0)
            t->kind = T_KEYWORD;
}

static void lex_string(struct lexer *lx)
{
    struct buf b = { 0 };
    lx->p++;
    while (*lx->p != '"') {
        char c = (char)read_char(lx);
        buf_add(&b, &c, 1);
    }
    lx->p++;
    /* "ab" "cd" is one literal: join it to the one before. */
    struct token *prev = lx->ntoks ? &lx->toks[lx->ntoks - 1] : NULL;
    if (prev && prev->kind == T_STR) {
        char *s = cc_alloc((size_t)prev->len + b.len + 1);
        memcpy(s, prev->s, (size_t)prev->len);
        if (b.len)
            memcpy(s + prev->len, b.p, b.len);
        prev->s = s;
        prev->len += (int)b.len;
    } else {
        struct token *t = push(lx, T_STR);
        t->s = b.len ? cc_strndup(b.p, b.len) : "";
        t->len = (int)b.len;
    }
    free(b.p);
}

static void lex_token(struct lexer *lx)
{
    int c = (unsigned char)*lx->p;
    if (is_ident_start(c)) {
        lex_ident(lx);
    } else if (isdigit(c)) {
        lex_number(lx, push(lx, T_NUM));
    } else if (c == '\'') {
        struct token *t = push(lx, T_CHAR);
        lx->p++;
        if (*lx->p == '\'')
            error_at(lx->line, "empty character constant");
        t->val = read_char(lx);
        if (*lx->p != '\'')
            error_at(lx->line, "character constant has more than one character");
        lx->p++;
    } else if (c == '"') {
        lex_string(lx);
    } else {
        for (size_t i = 0; i < ARRAY_SIZE(puncts); i++) {
            size_t n = strlen(puncts[i]);
            if (strncmp(lx->p, puncts[i], n) == 0) {
                push(lx, T_PUNCT)->s = puncts[i];
                lx->p += n;
                return;
            }
        }
        if (c >= ' ' && c < 127)
            error_at(lx->line, "unexpected character '%c'", c);
        error_at(lx->line, "unexpected byte 0x%02x", c);
    }
}

static void lex_text(struct lexer *lx, const char *src)
{
    lx->p = src;
    lx->line = 1;
    bool line_start = true;
    for (;;) {
        int before = lx->line;
        skip_space(lx, false);
        if (lx->line != before)
            line_start = true;
        if (!*lx->p)
            return;
        if (*lx->p == '#') {
            if (!line_start)
                error_at(lx->line, "'#' in the middle of a line");
            lex_directive(lx);
            continue;
        }
        line_start = false;
        lex_token(lx);
    }
}

struct token *lex(const char *src)
{
    static struct lexer lx;
    const char *file = cc_file;
    cc_file = "<built-in>";
    lex_text(&lx, builtin_defines);
    cc_file = file;
    lex_text(&lx, src);
    push(&lx, T_EOF);
    return lx.toks;
}
