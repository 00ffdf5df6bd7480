/*
 * Host unit test of the formatter behind user/nroff/ (everything but
 * main.c): numbers and control lines, escapes, how adjusting spreads
 * spaces, and whole documents through fill, no-fill, centering, indents,
 * the man macros and the page layout. Built with tests/host/ulib_shim in
 * place of the user library; the two hooks below catch the output.
 */
#include "check.h"
#include "nroff.h"

#define OUT_MAX   (1 << 20)
#define DIAG_LOG  (1 << 16)
#define FUZZ_DOCS 300
#define FUZZ_LINES 60

static char out[OUT_MAX];
static size_t out_len;
static char diag[DIAG_LOG];
static size_t diag_len;

void nroff_write(const char *bytes, size_t n)
{
    if (out_len + n >= sizeof out) {
        fprintf(stderr, "test output buffer full\n");
        exit(2);
    }
    memcpy(out + out_len, bytes, n);
    out_len += n;
    out[out_len] = '\0';
}

void nroff_diag(const char *message)
{
    size_t n = strlen(message);
    if (diag_len + n < sizeof diag) {
        memcpy(diag + diag_len, message, n + 1);
        diag_len += n;
    }
}

/* Formats doc (lines separated by '\n') and returns the output. */
static const char *format(const char *doc, bool man, bool overstrike)
{
    struct fmt_options opts = { .man = man, .overstrike = overstrike };
    out_len = diag_len = 0;
    out[0] = diag[0] = '\0';
    fmt_begin(&opts);
    fmt_file("test");
    size_t size = strlen(doc) + 1;
    char *copy = malloc(size);
    memcpy(copy, doc, size);
    for (char *line = copy, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (next || *line)
            fmt_line(line);
    }
    free(copy);
    fmt_end();
    return out;
}

/* Line n (from 0) of text, without its newline, in a static buffer. */
static const char *line_of(const char *text, int n)
{
    static char buf[1024];
    for (; n > 0 && text; n--) {
        text = strchr(text, '\n');
        if (text)
            text++;
    }
    if (!text || !*text)
        return NULL;
    size_t len = strcspn(text, "\n");
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    return buf;
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* ------------------------------------------------------------ numbers */

static void test_numbers(void)
{
    int v;
    const char *end;
    CHECK(parse_units("5", AXIS_H, &v, &end) && v == 5);
    CHECK(parse_units(".5i", AXIS_H, &v, &end) && v == 5);
    CHECK(parse_units(".5i", AXIS_V, &v, &end) && v == 3);
    CHECK(parse_units("1i", AXIS_V, &v, &end) && v == 6);
    CHECK(parse_units("6.5i", AXIS_H, &v, &end) && v == 65);
    CHECK(parse_units("1c", AXIS_H, &v, &end) && v == 4);      /* 3.94 columns */
    CHECK(parse_units("12p", AXIS_V, &v, &end) && v == 1);     /* a 12-point line */
    CHECK(parse_units("48u", AXIS_H, &v, &end) && v == 2);
    CHECK(parse_units("3n", AXIS_H, &v, &end) && v == 3 && *end == '\0');
    CHECK(parse_units("7x", AXIS_H, &v, &end) && v == 7 && *end == 'x');
    CHECK(!parse_units("i", AXIS_H, &v, &end));
    CHECK(!parse_units("99999999999999", AXIS_H, &v, &end));

    struct fmt_options opts = { false, false };
    fmt_begin(&opts);
    diag_len = 0;
    CHECK(req_number("+3", AXIS_H, 5, &v) && v == 8);
    CHECK(req_number("-2", AXIS_H, 5, &v) && v == 3);
    CHECK(req_number("4", AXIS_H, 5, &v) && v == 4);
    CHECK_EQ(diag_len, 0);
    CHECK(!req_number("x", AXIS_H, 5, &v));
    CHECK(!req_number("3z", AXIS_H, 5, &v));
    CHECK_CONTAINS(diag, "bad number '3z'");
}

/* ------------------------------------------------------------ control lines */

static void test_request_parsing(void)
{
    struct request rq;
    char l1[] = ".TP 8";
    CHECK(req_parse(l1, &rq));
    CHECK_STR(rq.name, "TP");
    CHECK_EQ(rq.argc, 1);
    CHECK_STR(rq.argv[0], "8");
    CHECK(!rq.nobreak);

    char l2[] = ".B  \"a b\"   c\tdd";
    CHECK(req_parse(l2, &rq));
    CHECK_EQ(rq.argc, 3);
    CHECK_STR(rq.argv[0], "a b");
    CHECK_STR(rq.argv[1], "c");
    CHECK_STR(rq.argv[2], "dd");

    char l3[] = ".IP \"say \"\"hi\"\"\" 4";
    CHECK(req_parse(l3, &rq));
    CHECK_EQ(rq.argc, 2);
    CHECK_STR(rq.argv[0], "say \"hi\"");
    CHECK_STR(rq.argv[1], "4");

    char l4[] = ".SH NAME \\\" a comment";
    CHECK(req_parse(l4, &rq));
    CHECK_EQ(rq.argc, 1);
    CHECK_STR(rq.argv[0], "NAME");

    char l5[] = "'br";
    CHECK(req_parse(l5, &rq) && rq.nobreak);
    CHECK_STR(rq.name, "br");

    char l6[] = ".", l7[] = ".\\\" comment", l8[] = ".   ";
    CHECK(!req_parse(l6, &rq));
    CHECK(!req_parse(l7, &rq));
    CHECK(!req_parse(l8, &rq));

    char l9[] = ".B a\\ b \"q\"x";        /* an escaped space stays in its word */
    CHECK(req_parse(l9, &rq));
    CHECK_EQ(rq.argc, 3);
    CHECK_STR(rq.argv[0], "a\\ b");
    CHECK_STR(rq.argv[1], "q");               /* a closing quote ends the argument */
    CHECK_STR(rq.argv[2], "x");
    char l10[] = ".  ll   40";
    CHECK(req_parse(l10, &rq));
    CHECK_STR(rq.name, "ll");
    CHECK_STR(rq.argv[0], "40");
}

/* ------------------------------------------------------------ escapes */

static int decode(const char *s, glyph *g, struct text_info *info)
{
    return text_decode(s, g, LINE_GLYPHS, info);
}

static void test_escapes(void)
{
    struct fmt_options opts = { false, true };
    fmt_begin(&opts);
    glyph g[LINE_GLYPHS];
    struct text_info info;

    int n = decode("a\\fBb\\fIc\\fPd\\fRe", g, &info);
    CHECK_EQ(n, 5);
    CHECK_EQ(GLYPH_FONT(g[0]), FONT_R);
    CHECK_EQ(GLYPH_FONT(g[1]), FONT_B);
    CHECK_EQ(GLYPH_FONT(g[2]), FONT_I);
    CHECK_EQ(GLYPH_FONT(g[3]), FONT_B);    /* \fP: back to the previous */
    CHECK_EQ(GLYPH_FONT(g[4]), FONT_R);

    n = decode("\\-x\\e\\&y\\(em\\(bu", g, &info);
    CHECK_EQ(n, 7);
    CHECK_EQ(GLYPH_CHAR(g[0]), '-');
    CHECK_EQ(GLYPH_CHAR(g[2]), '\\');
    CHECK_EQ(GLYPH_CHAR(g[3]), 'y');       /* \& is nothing */
    CHECK_EQ(GLYPH_CHAR(g[4]), '-');
    CHECK_EQ(GLYPH_CHAR(g[5]), '-');
    CHECK_EQ(GLYPH_CHAR(g[6]), 'o');

    decode("The end.", g, &info);
    CHECK(info.sentence_end);
    decode("(the end.)\"", g, &info);
    CHECK(info.sentence_end);
    decode("e.g.\\&", g, &info);
    CHECK(!info.sentence_end);
    decode("3.5 volts", g, &info);
    CHECK(!info.sentence_end);

    n = decode("kept \\\" dropped", g, &info);
    CHECK_EQ(n, 5);
    n = decode("a\\ b", g, &info);
    CHECK_EQ(n, 3);
    CHECK_EQ(GLYPH_CHAR(g[1]), CH_NBSP);
    decode("joined\\c", g, &info);
    CHECK(info.join);

    diag_len = 0;
    fmt_file("esc");
    n = decode("\\q\\(zz\\fZ", g, &info);
    CHECK_CONTAINS(diag, "unknown escape \\q");
    CHECK_CONTAINS(diag, "unknown character \\(zz");
    CHECK_CONTAINS(diag, "unknown font 'Z'");
    CHECK_EQ(n, 1);                        /* the unknown escape's character */

    n = decode("\\s-1small\\s0", g, &info);
    CHECK_EQ(n, 5);
}

/* ------------------------------------------------------------ adjusting */

static void test_spread(void)
{
    int add[8];
    line_spread(7, 3, true, add);
    CHECK(add[0] == 2 && add[1] == 2 && add[2] == 3);
    line_spread(7, 3, false, add);
    CHECK(add[0] == 3 && add[1] == 2 && add[2] == 2);
    line_spread(2, 4, true, add);
    CHECK(add[0] == 0 && add[1] == 0 && add[2] == 1 && add[3] == 1);
    line_spread(0, 2, false, add);
    CHECK(add[0] == 0 && add[1] == 0);
    line_spread(9, 1, false, add);
    CHECK_EQ(add[0], 9);
}

static void test_fill_and_adjust(void)
{
    const char *o = format(".ll 20\naaa bbb ccc ddd eee\nfff ggg hhh iii jjj kkk lll\nmmm", false, false);
    /* Adjusted lines are exactly 20 columns; the odd spaces go right,
     * then left, then right; the last line is not spread. */
    CHECK_STR(line_of(o, 0), "aaa bbb ccc ddd  eee");
    CHECK_STR(line_of(o, 1), "fff  ggg hhh iii jjj");
    CHECK_STR(line_of(o, 2), "kkk lll mmm");
    CHECK_EQ(count_lines(o), 3);

    o = format(".ll 20\n.na\naaa bbb ccc ddd eee fff", false, false);
    CHECK_STR(line_of(o, 0), "aaa bbb ccc ddd eee");
    o = format(".ll 20\n.ad l\naaa bbb ccc ddd eee fff\n.ad\n.ad b", false, false);
    CHECK_STR(line_of(o, 0), "aaa bbb ccc ddd eee");
    o = format(".ll 20\n.ad r\naaa bbb ccc ddd eee fff", false, false);
    CHECK_STR(line_of(o, 0), " aaa bbb ccc ddd eee");
    char right[32];
    snprintf(right, sizeof right, "%20s", "fff");
    CHECK_STR(line_of(o, 1), right);
    o = format(".ll 20\n.ad c\naaa bbb", false, false);
    CHECK_STR(line_of(o, 0), "      aaa bbb");

    /* Two spaces after a sentence that ends an input line. */
    o = format(".ll 40\nOne.\nTwo? Three\nfour", false, false);
    CHECK_STR(line_of(o, 0), "One.  Two? Three four");

    /* A word longer than the line gets a line of its own. */
    o = format(".ll 10\nab abcdefghijklmno cd", false, false);
    CHECK_STR(line_of(o, 0), "ab");
    CHECK_STR(line_of(o, 1), "abcdefghijklmno");
    CHECK_STR(line_of(o, 2), "cd");

    /* Leading spaces break and stay; a blank line leaves a blank line. */
    o = format("one\n  two\n\nthree", false, false);
    CHECK_STR(line_of(o, 0), "one");
    CHECK_STR(line_of(o, 1), "  two");
    CHECK_STR(line_of(o, 2), "");
    CHECK_STR(line_of(o, 3), "three");

    /* \c joins the next line without a space; \ is an unpaddable space. */
    o = format(".ll 12\nfoo\\c\nbar x\\ y zz qq", false, false);
    CHECK_STR(line_of(o, 0), "foobar   x y");   /* the unpaddable space kept its width */
    CHECK_STR(line_of(o, 1), "zz qq");
}

static void test_nofill_center_indent(void)
{
    const char *o = format(".ll 20\n.nf\n  a   b\nx\ty\nthis line is longer than twenty\n.fi\nc d", false, false);
    CHECK_STR(line_of(o, 0), "  a   b");
    CHECK_STR(line_of(o, 1), "x       y");
    CHECK_STR(line_of(o, 2), "this line is longer than twenty");
    CHECK_STR(line_of(o, 3), "c d");

    o = format(".ll 20\n.ce 2\nab\nabcd\nleft", false, false);
    CHECK_STR(line_of(o, 0), "         ab");
    CHECK_STR(line_of(o, 1), "        abcd");
    CHECK_STR(line_of(o, 2), "left");

    o = format(".ll 20\n.in 4\naaa bbb ccc ddd eee\n.ti -2\nx\n.in +2\ny\n.in\nz\n.br\n.sp 2\nw", false, false);
    CHECK_STR(line_of(o, 0), "    aaa bbb ccc  ddd");
    CHECK_STR(line_of(o, 1), "    eee");
    CHECK_STR(line_of(o, 2), "  x");
    CHECK_STR(line_of(o, 3), "      y");
    CHECK_STR(line_of(o, 4), "    z");
    CHECK_STR(line_of(o, 5), "");
    CHECK_STR(line_of(o, 6), "");
    CHECK_STR(line_of(o, 7), "    w");

    /* 'br does not break: the words stay on one line. */
    o = format("a\n'br\nb\n.br\nc", false, false);
    CHECK_STR(line_of(o, 0), "a b");
    CHECK_STR(line_of(o, 1), "c");
}

static void test_fonts_and_overstrike(void)
{
    const char *o = format("\\fBab\\fR \\fIc d\\fP e", false, true);
    CHECK_STR(line_of(o, 0), "a\bab\bb _\bc _\bd e");
    o = format(".ft B\nx\n.ft\ny\n.ft I\nz", false, true);
    CHECK_STR(line_of(o, 0), "x\bx y _\bz");
    o = format("\\fBab\\fR", false, false);
    CHECK_STR(line_of(o, 0), "ab");
}

static void test_diagnostics(void)
{
    format("text\n.XX 1 2\n.sp x\n.ti\nmore", false, false);
    CHECK_CONTAINS(diag, "nroff: test:2: unknown request '.XX': skipped");
    CHECK_CONTAINS(diag, "nroff: test:3: bad number 'x'");
    CHECK_CONTAINS(diag, "nroff: test:4: .ti needs an indent");
    CHECK_STR(line_of(out, 0), "text");              /* .sp breaks, even when its number is bad */
    CHECK_STR(line_of(out, 1), "more");

    /* Without -man the man macros are unknown requests. */
    format(".TH X 1\n.SH NAME", false, false);
    CHECK_CONTAINS(diag, "test:1: unknown request '.TH'");
    CHECK_CONTAINS(diag, "test:2: unknown request '.SH'");

    format(".RE\n.ll 100000\n.pl 1\n.ad q", true, false);
    CHECK_CONTAINS(diag, "test:1: .RE without .RS");
    CHECK_CONTAINS(diag, "test:2: line length 100000 out of range");
    CHECK_CONTAINS(diag, "test:4: unknown adjust mode 'q'");
}

/* ------------------------------------------------------------ pages */

static void test_pages_without_titles(void)
{
    const char *o = format(".pl 5\na\n.bp\nb\n.bp\n.bp", false, false);
    /* a page of 5 lines, then b's page: the last one is not padded, and a
     * .bp on an empty page does nothing */
    CHECK_STR(o, "a\n\n\n\n\nb\n\n\n\n\n");
    o = format(".pl 3\n.nf\n1\n2\n3\n4", false, false);
    CHECK_STR(o, "1\n2\n3\n4\n");
}

static const char page_doc[] =
    ".TH TEST 1 \"May 2026\" src\n"
    ".SH NAME\n"
    "test \\- a test\n"
    ".SH \"SEE ALSO\"\n"
    ".PP\n"
    "x\n";

static void test_man_page_layout(void)
{
    const char *o = format(page_doc, true, false);
    CHECK_EQ(count_lines(o), DEFAULT_PL);
    CHECK_STR(line_of(o, 0), "");
    CHECK_STR(line_of(o, 3), "TEST(1)           faultline Programmer's Manual           TEST(1)");
    CHECK_STR(line_of(o, 7), "NAME");
    CHECK_STR(line_of(o, 8), "     test - a test");
    CHECK_STR(line_of(o, 9), "");
    CHECK_STR(line_of(o, 10), "SEE ALSO");
    CHECK_STR(line_of(o, 11), "     x");       /* no blank line after a heading */
    CHECK_STR(line_of(o, 63), "src                         May 2026                            1");
    CHECK_EQ(diag_len, 0);

    /* Bold headings as overstrikes. */
    o = format(page_doc, true, true);
    CHECK_STR(line_of(o, 7), "N\bNA\bAM\bME\bE");

    /* Page breaks: a 20-line page holds 7 lines of text. */
    static char doc[4096];
    int n = snprintf(doc, sizeof doc, ".pl 20\n.TH P 1\n.nf\n");
    for (int i = 1; i <= 10; i++)
        n += snprintf(doc + n, sizeof doc - (size_t)n, "line %d\n", i);
    o = format(doc, true, false);
    CHECK_EQ(count_lines(o), 40);
    CHECK_STR(line_of(o, 7), "     line 1");
    CHECK_STR(line_of(o, 13), "     line 7");
    char footer[80];
    snprintf(footer, sizeof footer, "%-64s1", "faultline");   /* no date given */
    CHECK_STR(line_of(o, 17), footer);
    CHECK_STR(line_of(o, 23), "P(1)              faultline Programmer's Manual              P(1)");
    CHECK_STR(line_of(o, 27), "     line 8");
    CHECK_STR(line_of(o, 29), "     line 10");
    CHECK_STR(line_of(o, 30), "");
    snprintf(footer, sizeof footer, "%-64s2", "faultline");
    CHECK_STR(line_of(o, 37), footer);
}

static void test_man_paragraphs(void)
{
    const char *o = format(
        ".TH T 1\n"
        ".SH OPTIONS\n"
        ".TP\n"
        ".B \\-a\n"
        "short tag.\n"
        ".TP\n"
        ".B \\-\\-longer\n"
        "own line.\n"
        ".IP \\(bu 3\n"
        "bullet\n"
        ".RS\n"
        "inner\n"
        ".RE\n"
        "outer\n"
        ".HP 4\n"
        "hanging text that wraps onto a second line of the page right here\n"
        ".PP\n"
        ".BR ls (1),\n"
        ".IR file .\n", true, false);
    CHECK_STR(line_of(o, 8), "     -a   short tag.");
    CHECK_STR(line_of(o, 9), "");
    CHECK_STR(line_of(o, 10), "     --longer");
    CHECK_STR(line_of(o, 11), "          own line.");
    CHECK_STR(line_of(o, 13), "     o  bullet");
    CHECK_STR(line_of(o, 14), "        inner");      /* .RS: the margin moves by the indent, 3 */
    CHECK_STR(line_of(o, 15), "     outer");
    CHECK_STR(line_of(o, 17), "     hanging text that wraps onto a second line of the page right");
    CHECK_STR(line_of(o, 18), "         here");
    CHECK_STR(line_of(o, 20), "     ls(1), file.");
    CHECK_EQ(diag_len, 0);

    /* .B without arguments: the next line, then roman again. */
    o = format(".TH T 1\n.SH X\n.B\nbold\nplain", true, true);
    CHECK_STR(line_of(o, 8), "     b\bbo\bol\bld\bd plain");
}

/* ------------------------------------------------------------ robustness */

static unsigned long rng = 12345;

static unsigned next_rand(void)
{
    rng = rng * 6364136223846793005UL + 1442695040888963407UL;
    return (unsigned)(rng >> 33);
}

/* Random documents of requests, macros, escapes and text: nothing may
 * crash, overrun (the sanitizers watch) or loop. */
static void test_fuzz(void)
{
    static const char *const pieces[] = {
        ".TH", ".SH", ".SS", ".TP", ".IP", ".HP", ".RS", ".RE", ".PP", ".B", ".I", ".BR",
        ".br", ".sp", ".bp", ".ne", ".pl", ".ll", ".in", ".ti", ".ce", ".ft", ".nf", ".fi",
        ".ad", ".na", ".PD", "'sp", ".XX", ".", "\\f", "\\fB", "\\(", "\\(em", "\\s+", "\\",
        "\\c", "\\&", "\\ ", "\"", "\"\"", " ", "  ", "\t", "word", "x.", "-3", "+9", "99999",
        "0", "1i", ".5", "longwordlongwordlongwordlongwordlongwordlongwordlongword", "%",
    };
    static char doc[FUZZ_LINES * 200];
    for (int d = 0; d < FUZZ_DOCS; d++) {
        size_t len = 0;
        int lines = 1 + (int)(next_rand() % FUZZ_LINES);
        for (int l = 0; l < lines; l++) {
            int words = (int)(next_rand() % 8);
            for (int w = 0; w < words; w++) {
                const char *p = pieces[next_rand() % ARRAY_SIZE(pieces)];
                size_t n = strlen(p);
                memcpy(doc + len, p, n);
                len += n;
                if (next_rand() % 2)
                    doc[len++] = ' ';
            }
            doc[len++] = '\n';
        }
        doc[len] = '\0';
        format(doc, d % 2 == 0, d % 3 == 0);
    }
    /* The sanitizers stop the run at the first overrun: getting here is
     * the first half of the test. The second: the formatter still works. */
    const char *o = format(".ll 20\naaa bbb ccc ddd eee\nfff", false, false);
    CHECK_STR(line_of(o, 0), "aaa bbb ccc ddd  eee");

    /* One very long input line. */
    static char longline[3 * LINE_GLYPHS];
    memset(longline, 'x', sizeof longline - 1);
    format(longline, false, false);
    CHECK_CONTAINS(diag, "text line longer than");
    memset(longline, ' ', sizeof longline - 1);
    longline[0] = '.';
    longline[1] = 'B';
    format(longline, true, false);
}

int main(void)
{
    test_numbers();
    test_request_parsing();
    test_escapes();
    test_spread();
    test_fill_and_adjust();
    test_nofill_center_indent();
    test_fonts_and_overstrike();
    test_diagnostics();
    test_pages_without_titles();
    test_man_page_layout();
    test_man_paragraphs();
    test_fuzz();
    return check_summary("nroff");
}
