/*
 * Pages: the vertical layout.
 *
 * Without titles a page is just .pl lines (default 66): .bp fills the rest
 * of the page with blank lines, and the last page is not padded.
 *
 * Once titles are set (the man macros' .TH does it), every page is laid
 * out as nroff -man laid out the UNIX manual, at 6 lines an inch:
 *
 *   3 blank lines, the header, 3 blank lines       (.5i, title, .5i)
 *   the text, up to 6 lines from the bottom
 *   3 blank lines, the footer, 2 blank lines       (.5i, title, to the end)
 *
 * and the last page is filled out to its footer. A title has three parts,
 * left, centered and right, in the title width; '%' in it is the page
 * number. Blank lines asked for at the top of a page's text, and those
 * that would run past its end, are dropped, as the man macros' traps did;
 * so are those asked for in no-space mode (page_nospace), which lasts
 * until the next line of text.
 */
#include "nroff.h"

#define TITLE_TOP    3   /* blank lines above the header */
#define TITLE_GAP    3   /* blank lines between the header and the text */
#define FOOT_GAP     3   /* blank lines between the text and the footer */
#define FOOT_BOTTOM  2   /* blank lines below the footer */
#define TEXT_TOP     (TITLE_TOP + 1 + TITLE_GAP)
#define FOOT_LINES   (FOOT_GAP + 1 + FOOT_BOTTOM)
#define PAGE_NUMBER_DIGITS 20

static struct {
    int  pl;
    int  line;          /* lines output on this page so far */
    int  number;        /* of this page */
    bool started;       /* something (a header, a line) is on this page */
    bool titled;
    bool nospace;       /* the text of a titled page has not begun */
} pg;

static struct titles titles;
/* Three parts of at most LL_MAX, and the spaces between them. */
static glyph title_line[3 * LL_MAX + 2];

void page_begin(void)
{
    memset(&pg, 0, sizeof pg);
    pg.pl = DEFAULT_PL;
    pg.number = 1;
}

int page_number(void)
{
    return pg.number;
}

static int text_top(void)
{
    return pg.titled ? TEXT_TOP : 0;
}

static int text_end(void)
{
    return pg.titled ? pg.pl - FOOT_LINES : pg.pl;
}

/* Copies a title part, '%' replaced by the page number, into at most
 * LL_MAX glyphs. */
static int expand(const glyph *src, int n, glyph *dst)
{
    char digits[PAGE_NUMBER_DIGITS];
    int nd = snprintf(digits, sizeof digits, "%d", pg.number);
    int len = 0;
    for (int i = 0; i < n && len < LL_MAX; i++) {
        if (GLYPH_CHAR(src[i]) == '%') {
            for (int d = 0; d < nd && len < LL_MAX; d++)
                dst[len++] = GLYPH(digits[d], GLYPH_FONT(src[i]));
        } else {
            dst[len++] = src[i];
        }
    }
    return len;
}

static void put_title(glyph parts[3][LL_MAX], const int *nparts)
{
    static glyph text[3][LL_MAX];
    int n[3];
    for (int p = 0; p < 3; p++)
        n[p] = expand(parts[p], nparts[p], text[p]);

    int width = titles.width;
    int center = (width - n[1]) / 2;
    if (n[1] && center < n[0] + 1)
        center = n[0] + 1;
    int center_end = n[1] ? center + n[1] : n[0];
    int right = width - n[2];
    if (n[2] && right < center_end + 1)
        right = center_end + 1;

    int len = 0;
    int starts[3] = { 0, center, right };
    for (int p = 0; p < 3; p++) {
        if (!n[p])
            continue;
        while (len < starts[p])
            title_line[len++] = GLYPH(' ', FONT_R);
        for (int i = 0; i < n[p]; i++)
            title_line[len++] = text[p][i];
    }
    out_line(title_line, len);
}

static void start_page(void)
{
    if (pg.started)
        return;
    pg.started = true;
    pg.line = 0;
    if (pg.titled) {
        out_blank(TITLE_TOP);
        put_title(titles.head, titles.head_n);
        out_blank(TITLE_GAP);
        pg.line = TEXT_TOP;
        pg.nospace = true;
    }
}

static void end_page(void)
{
    if (!pg.started)
        return;
    if (pg.titled) {
        if (pg.line < text_end())
            out_blank(text_end() - pg.line);
        out_blank(FOOT_GAP);
        put_title(titles.foot, titles.foot_n);
        out_blank(FOOT_BOTTOM);
    } else if (pg.line < pg.pl) {
        out_blank(pg.pl - pg.line);
    }
    pg.started = false;
    pg.number++;
}

void page_line(const glyph *g, int n)
{
    if (pg.started && pg.line >= text_end())
        end_page();
    start_page();
    out_line(g, n);
    pg.line++;
    pg.nospace = false;
    if (pg.line >= text_end())
        end_page();
}

void page_space(int lines)
{
    if (lines <= 0 || pg.nospace || (pg.titled && !pg.started))
        return;
    start_page();
    int room = text_end() - pg.line;
    if (lines > room)
        lines = room;
    out_blank(lines);
    pg.line += lines;
    if (pg.line >= text_end())
        end_page();
}

void page_nospace(void)
{
    pg.nospace = true;
}

void page_eject(void)
{
    if (pg.started && !pg.nospace && pg.line > text_top())
        end_page();
}

void page_need(int lines)
{
    if (pg.started && !pg.nospace && text_end() - pg.line < lines)
        end_page();
}

/* The shortest page that leaves a line of text between the titles. */
static int min_length(void)
{
    return pg.titled ? TEXT_TOP + FOOT_LINES + 1 : 1;
}

void page_set_length(int lines)
{
    if (lines < min_length()) {
        warn("page length %d too short; using %d", lines, min_length());
        lines = min_length();
    }
    if (lines > PL_MAX) {
        warn("page length %d too long; using %d", lines, PL_MAX);
        lines = PL_MAX;
    }
    pg.pl = lines;
}

void page_set_titles(const struct titles *t)
{
    titles = *t;
    if (titles.width > LL_MAX)
        titles.width = LL_MAX;
    pg.titled = true;
    if (pg.pl < min_length())
        page_set_length(min_length());
}

void page_finish(void)
{
    if (pg.titled)
        end_page();
}
