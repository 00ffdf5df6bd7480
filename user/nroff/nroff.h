/*
 * nroff: a small formatter in the manner of UNIX nroff, for a terminal of
 * fixed-width characters, with the man macros built in (-man).
 *
 * The input goes through four layers, each in its own file:
 *
 *   fmt.c      input lines: control lines to requests, text lines to text;
 *              diagnostics with the file and line
 *   request.c  parsing control lines and numbers; the basic requests
 *   man.c      the man macros (.TH .SH .TP ...), built on the requests
 *   text.c     escapes (\fB \- \e ...) -> glyphs
 *   line.c     filling, adjusting, centering, no-fill lines
 *   page.c     page length, headers and footers, vertical space
 *   out.c      glyphs -> bytes, bold and italic as overstrikes
 *
 * Everything except main.c is pure: it reads no file and writes through
 * two hooks, nroff_write() and nroff_diag(), so the host unit tests
 * (tests/host/test_nroff.c) run the same code on the host.
 */
#ifndef NROFF_H
#define NROFF_H

#include "ulib.h"

/* ---- glyphs: one character cell of output, with its font ---- */
typedef uint16_t glyph;

enum font { FONT_R, FONT_I, FONT_B };

#define GLYPH_FONT_SHIFT 8
#define GLYPH(c, f)      ((glyph)((unsigned char)(c) | ((unsigned)(f) << GLYPH_FONT_SHIFT)))
#define GLYPH_CHAR(g)    ((unsigned char)((g) & 0xff))
#define GLYPH_FONT(g)    ((enum font)((g) >> GLYPH_FONT_SHIFT))

/* Codes that input text never yields (control characters are dropped). */
#define CH_NBSP  0x01    /* an unpaddable space: never stretched, never broken at */
#define CH_GAP   0x02    /* the space between two words of a filled line: stretchable */

/* ---- limits ---- */
#define LINE_GLYPHS   1024  /* glyphs in one output line */
#define LL_MAX        500   /* longest line length (.ll), in columns */
#define PL_MAX        10000 /* longest page (.pl), in lines */
#define TAB_WIDTH     8     /* tab stops every 8 columns from the indent, as nroff's 0.8i */
#define ARGS_MAX      32    /* arguments of one request or macro */
#define NAME_LEN_MAX  15    /* a request or macro name */

/* ---- defaults (nroff's, for a 10-pitch terminal at 6 lines an inch) ---- */
#define DEFAULT_LL    65    /* 6.5i */
#define DEFAULT_PL    66    /* 11i */

/* ---- the environment: what requests change and text obeys ---- */
enum adjust { ADJ_LEFT, ADJ_BOTH, ADJ_CENTER, ADJ_RIGHT };

struct env {
    bool        fill;        /* .fi / .nf */
    bool        adjust;      /* .ad / .na */
    enum adjust adj_mode;    /* .ad l|b|n|c|r */
    int         ll, ll_prev; /* line length, columns */
    int         in, in_prev; /* indent, columns */
    int         ti;          /* temporary indent of the next line, or -1 */
    int         ce;          /* input lines still to center */
    enum font   font, font_prev;
};

extern struct env env;

/* ---- fmt.c: the driver ---- */
struct fmt_options {
    bool man;          /* -man: the man macros */
    bool overstrike;   /* bold and italic as overstrikes (else plain text) */
};

void fmt_begin(const struct fmt_options *opts);
void fmt_file(const char *name);          /* where diagnostics say we are */
void fmt_line(char *line);                /* one input line, without its newline */
void fmt_end(void);                       /* finish the last page, flush */
/* Text that a macro makes, formatted like an input text line. */
void fmt_text_glyphs(const glyph *g, int n, bool sentence_end);
/* Called after every line of text (the man macros' input trap). */
extern void (*fmt_text_hook)(void);
void warn(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));
int  fmt_warnings(void);

/* ---- hooks the program (main.c) or a test provides ---- */
void nroff_write(const char *bytes, size_t n);   /* formatted output */
void nroff_diag(const char *message);            /* one diagnostic line, with its newline */

/* ---- request.c ---- */
struct request {
    char  name[NAME_LEN_MAX + 1];
    int   argc;
    char *argv[ARGS_MAX];
    bool  nobreak;        /* called with ' instead of . */
};

/* Splits a control line (in place) into name and arguments. Returns false
 * for a line with no name (".", ". \" comment"). */
bool req_parse(char *line, struct request *rq);
/* Runs a basic request; false if there is none by that name. */
bool req_run(struct request *rq);

enum axis { AXIS_H, AXIS_V };
/* A number with an optional unit (i c p P m n v); "+N" and "-N" are
 * relative to base. Returns false (and warns) if arg is not a number. */
bool req_number(const char *arg, enum axis axis, int base, int *out);
/* Parses a magnitude with an optional fraction and unit into columns or
 * lines, rounding to the nearest; *end is where parsing stopped. */
bool parse_units(const char *s, enum axis axis, int *out, const char **end);

/* ---- man.c ---- */
void man_begin(void);
bool man_run(struct request *rq);   /* false if rq is not a man macro */

/* ---- text.c ---- */
struct text_info {
    bool sentence_end;   /* the text ends a sentence: .?! then only )]"'* */
    bool join;           /* ended in \c: the next text continues this word */
};
/* Decodes s (escapes, font changes) into at most max glyphs. Input
 * spaces stay ' ' and tabs '\t'. Returns the glyph count. */
int text_decode(const char *s, glyph *out, int max, struct text_info *info);
/* R I B (or 1 2 3, and BI CW CR CB CI as the nearest of those). */
bool font_by_name(const char *name, enum font *f);

/* ---- line.c ---- */
void line_begin(void);
void line_text(const glyph *g, int n, const struct text_info *info);
void line_break(void);          /* output the partial line as it is */
bool line_empty(void);
int  line_width(void);          /* columns in the partial line, past its indent */
/* Fixes the partial line's spaces and pads it with fixed spaces to
 * `column` past its indent; the next word joins there without a space. */
void line_pad_to(int column);
/* How adjusting spreads `extra` spaces over `gaps` gaps: add[i] for each
 * gap, the odd one out from the right or the left. */
void line_spread(int extra, int gaps, bool from_right, int *add);

/* ---- page.c ---- */
struct titles {
    glyph head[3][LL_MAX];  int head_n[3];  /* left, center, right */
    glyph foot[3][LL_MAX];  int foot_n[3];  /* '%' is the page number */
    int   width;
};
void page_begin(void);
void page_line(const glyph *g, int n);  /* one line of body text */
void page_space(int lines);             /* blank lines, not across a page end */
void page_nospace(void);                /* no spacing until the next text line */
void page_eject(void);                  /* .bp */
void page_need(int lines);              /* .ne */
void page_set_length(int lines);        /* .pl */
void page_set_titles(const struct titles *t);
void page_finish(void);
int  page_number(void);

/* ---- out.c ---- */
void out_begin(bool overstrike);
void out_line(const glyph *g, int n);   /* one output line and its newline */
void out_blank(int lines);
void out_flush(void);

#endif
