/*
 * Output lines: filling, adjusting, centering and no-fill text.
 *
 * In fill mode words are collected into the partial line until the next
 * one would pass the line length; then the line goes out, adjusted, and
 * the word starts the next. Between words sits a CH_GAP, the only space
 * adjusting may widen. A word that ends a sentence at the end of an input
 * line gets a second, fixed space after it, as in nroff. Lines are never
 * hyphenated: a word longer than the line gets a line of its own.
 *
 * Adjusting both margins spreads the missing columns over the gaps as
 * evenly as possible; the gaps that get one more alternate between the
 * right and the left end from line to line, as nroff does, so that the
 * wide gaps do not pile up on one side of a paragraph.
 */
#include "nroff.h"

enum emit_kind {
    EMIT_FULL,      /* a filled line that ran out of room: adjust it */
    EMIT_LAST,      /* a break: the last line of a paragraph, not spread */
    EMIT_CENTER,    /* .ce */
};

static struct {
    glyph g[LINE_GLYPHS];
    int   n;           /* glyphs (each one column wide) */
    int   gaps;        /* CH_GAP glyphs among them */
    int   indent;      /* of this line, taken when it started */
    bool  started;
    bool  join;        /* the next word attaches without a space */
    bool  sentence;    /* the last word ended a sentence */
    bool  warned;      /* "line too long" said once per line */
} cur;

static int adjusted;  /* lines adjusted so far: alternates the odd gaps */

/* The rendered line: indent, shift and widened gaps included. */
static glyph rendered[LINE_GLYPHS + 3 * LL_MAX];
static int   spread_add[LINE_GLYPHS];

void line_begin(void)
{
    memset(&cur, 0, sizeof cur);
    adjusted = 0;
}

bool line_empty(void)
{
    return !cur.started;
}

int line_width(void)
{
    return cur.started ? cur.n : 0;
}

static bool is_space(glyph g)
{
    char c = GLYPH_CHAR(g);
    return c == ' ' || c == CH_GAP || c == CH_NBSP;
}

static void start(void)
{
    if (cur.started)
        return;
    cur.started = true;
    cur.indent = env.ti >= 0 ? env.ti : env.in;
    env.ti = -1;
}

static void append(glyph g)
{
    if (cur.n == LINE_GLYPHS) {
        if (!cur.warned)
            warn("output line longer than %d characters: cut", LINE_GLYPHS);
        cur.warned = true;
        return;
    }
    cur.g[cur.n++] = g;
    if (GLYPH_CHAR(g) == CH_GAP)
        cur.gaps++;
}

static int avail(void)
{
    return env.ll > cur.indent ? env.ll - cur.indent : 0;
}

void line_spread(int extra, int gaps, bool from_right, int *add)
{
    int each = extra / gaps, odd = extra % gaps;
    for (int i = 0; i < gaps; i++) {
        bool more = from_right ? i >= gaps - odd : i < odd;
        add[i] = each + (more ? 1 : 0);
    }
}

static void emit(enum emit_kind kind)
{
    while (cur.n > 0 && is_space(cur.g[cur.n - 1])) {
        if (GLYPH_CHAR(cur.g[cur.n - 1]) == CH_GAP)
            cur.gaps--;
        cur.n--;
    }
    int extra = avail() - cur.n;
    int shift = 0;
    bool spread = false;
    if (kind == EMIT_CENTER) {
        shift = extra > 0 ? extra / 2 : 0;
    } else if (env.fill && env.adjust && extra > 0) {
        if (env.adj_mode == ADJ_CENTER)
            shift = extra / 2;
        else if (env.adj_mode == ADJ_RIGHT)
            shift = extra;
        else if (env.adj_mode == ADJ_BOTH && kind == EMIT_FULL && cur.gaps > 0) {
            line_spread(extra, cur.gaps, adjusted++ % 2 == 0, spread_add);
            spread = true;
        }
    }

    int len = 0, gap = 0;
    for (int i = 0; i < cur.indent + shift; i++)
        rendered[len++] = GLYPH(' ', FONT_R);
    for (int i = 0; i < cur.n; i++) {
        glyph g = cur.g[i];
        char c = GLYPH_CHAR(g);
        if (c == CH_GAP) {
            int width = 1 + (spread ? spread_add[gap] : 0);
            gap++;
            while (width-- > 0)
                rendered[len++] = GLYPH(' ', FONT_R);
        } else {
            rendered[len++] = c == CH_NBSP ? GLYPH(' ', FONT_R) : g;
        }
    }
    page_line(rendered, len);
    cur.started = cur.join = cur.sentence = cur.warned = false;
    cur.n = cur.gaps = 0;
}

void line_break(void)
{
    if (cur.started)
        emit(EMIT_LAST);
}

/* Fixed spaces from the current position to the next tab stop. */
static void tab(void)
{
    start();
    int next = (cur.n / TAB_WIDTH + 1) * TAB_WIDTH;
    while (cur.n < next && cur.n < LINE_GLYPHS)
        append(GLYPH(CH_NBSP, FONT_R));
}

static void add_word(const glyph *w, int len, int spaces)
{
    if (!cur.started || cur.join) {
        start();
    } else {
        int sentence = cur.sentence ? 1 : 0;
        if (cur.n + sentence + spaces + len > avail()) {
            emit(EMIT_FULL);
            start();
        } else {
            if (sentence)
                append(GLYPH(CH_NBSP, FONT_R));
            for (int i = 0; i < spaces; i++)
                append(GLYPH(CH_GAP, FONT_R));
        }
    }
    for (int i = 0; i < len; i++)
        append(w[i]);
    cur.join = cur.sentence = false;
}

static void fill_text(const glyph *g, int n, const struct text_info *info)
{
    int i = 0;
    /* Leading spaces break the line and are kept, as in nroff. */
    if (n > 0 && GLYPH_CHAR(g[0]) == ' ') {
        line_break();
        start();
        for (; i < n && GLYPH_CHAR(g[i]) == ' '; i++)
            append(GLYPH(CH_NBSP, FONT_R));
        cur.join = true;
    }
    int spaces = 1;          /* the end of the previous input line */
    while (i < n) {
        char c = GLYPH_CHAR(g[i]);
        if (c == ' ') {
            spaces++;
            i++;
            continue;
        }
        if (c == '\t') {
            tab();
            cur.join = true;
            spaces = 0;
            i++;
            continue;
        }
        int first = i;
        while (i < n && GLYPH_CHAR(g[i]) != ' ' && GLYPH_CHAR(g[i]) != '\t')
            i++;
        add_word(g + first, i - first, spaces);
        spaces = 0;
    }
    if (n > 0 && cur.started) {
        cur.sentence = info->sentence_end;
        cur.join = cur.join || info->join;
    }
}

/* No-fill and centered lines: the text as it is, tabs expanded. */
static void copy_text(const glyph *g, int n)
{
    start();
    for (int i = 0; i < n; i++) {
        if (GLYPH_CHAR(g[i]) == '\t')
            tab();
        else
            append(GLYPH_CHAR(g[i]) == ' ' ? GLYPH(CH_NBSP, FONT_R) : g[i]);
    }
}

void line_text(const glyph *g, int n, const struct text_info *info)
{
    if (env.ce > 0) {
        line_break();
        copy_text(g, n);
        env.ce--;
        emit(EMIT_CENTER);
    } else if (!env.fill) {
        copy_text(g, n);
        if (!info->join)
            emit(EMIT_LAST);
    } else {
        fill_text(g, n, info);
    }
}

void line_pad_to(int column)
{
    start();
    for (int i = 0; i < cur.n; i++)
        if (GLYPH_CHAR(cur.g[i]) == CH_GAP)
            cur.g[i] = GLYPH(CH_NBSP, FONT_R);
    cur.gaps = 0;
    while (cur.n < column && cur.n < LINE_GLYPHS)
        append(GLYPH(CH_NBSP, FONT_R));
    cur.join = true;
    cur.sentence = false;
}
