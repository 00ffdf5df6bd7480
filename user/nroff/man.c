/*
 * The man macros (-man), as the UNIX manual was written with them.
 *
 *   .TH NAME SECTION [DATE [SOURCE [MANUAL]]]   page titles; starts a page
 *   .SH [TEXT]     section heading (TEXT, or the next line), in bold
 *   .SS [TEXT]     subsection heading
 *   .PP .LP .P     new paragraph
 *   .TP [N]        tagged paragraph: the next line is the tag, the text
 *                  is indented N (5); a tag wider than that has a line
 *                  of its own
 *   .IP [TAG [N]]  indented paragraph, with TAG if given
 *   .HP [N]        hanging paragraph: lines after the first indented N
 *   .RS [N] .RE    move the left margin right by N (the paragraph indent)
 *                  and back
 *   .B .I .SM .SB [TEXT]          TEXT (or the next line) bold, italic,
 *                                 small (roman here), small bold
 *   .BR .BI .IB .IR .RB .RI ARGS  ARGS joined, fonts alternating
 *   .PD [N]        space before paragraphs (1 line)
 *   .DT            default tabs (they always are)
 *
 * A heading starts at the left edge and subsections 3 columns in; body
 * text is 5 columns in, as nroff -man set it (.5i). Macros that take
 * their text from the next line set an input trap: fmt_text_hook runs
 * after that line's text has been set.
 */
#include "nroff.h"

#define BODY_INDENT        5   /* text under a heading: .5i */
#define SUBHEAD_INDENT     3
#define PARA_INDENT        5   /* .TP/.IP/.HP/.RS default */
#define HEADING_NEED       3   /* a heading and two lines of text on one page */
#define RS_DEPTH_MAX       16
#define TITLE_TEXT_MAX     LL_MAX
#define DEFAULT_SOURCE     "faultline"
#define DEFAULT_MANUAL     "faultline Programmer's Manual"

static struct {
    int  margin;                 /* left margin of body text */
    int  ip;                     /* the prevailing paragraph indent */
    int  pd;                     /* lines before a paragraph */
    int  rs_margin[RS_DEPTH_MAX], rs_ip[RS_DEPTH_MAX];
    int  rs_depth;
    bool font_trap;              /* back to roman after the next text line */
    bool heading_trap;           /* the next text line is a heading */
    bool tag_trap;               /* the next text line is a .TP/.IP tag */
} man;

static glyph text[LINE_GLYPHS];

/* The indent of a paragraph's text past its tag: the margin and the
 * paragraph indent are each at most LL_MAX, and so is their sum. */
static int body_indent(void)
{
    int in = man.margin + man.ip;
    return in > LL_MAX ? LL_MAX : in;
}
static struct titles titles;

static void after_text(void)
{
    if (man.font_trap) {
        man.font_trap = false;
        env.font = FONT_R;
    }
    if (man.heading_trap) {
        man.heading_trap = false;
        line_break();
        page_nospace();          /* a paragraph right after it adds no space */
        env.font = FONT_R;
        env.in = man.margin;
    }
    if (man.tag_trap) {
        man.tag_trap = false;
        int width = line_width();
        env.in = body_indent();
        if (width < man.ip)
            line_pad_to(man.ip);
        else
            line_break();
    }
}

void man_begin(void)
{
    memset(&man, 0, sizeof man);
    man.margin = BODY_INDENT;
    man.ip = PARA_INDENT;
    man.pd = 1;
    fmt_text_hook = after_text;
}

/* Sets args[0..argc) as one text line: font f0 for the first, f1 for the
 * second, f0 again...; with a space between them if spaced. */
static void set_args(char **args, int argc, enum font f0, enum font f1, bool spaced)
{
    int n = 0;
    struct text_info info = { false, false };
    for (int i = 0; i < argc; i++) {
        if (i > 0 && spaced && n < LINE_GLYPHS)
            text[n++] = GLYPH(' ', FONT_R);
        env.font = i % 2 ? f1 : f0;
        n += text_decode(args[i], text + n, LINE_GLYPHS - n, &info);
    }
    env.font = env.font_prev = FONT_R;
    fmt_text_glyphs(text, n, info.sentence_end);
}

/* A new paragraph: what every paragraph macro starts with. */
static void paragraph(void)
{
    man.font_trap = man.heading_trap = man.tag_trap = false;
    line_break();
    page_space(man.pd);
    env.font = env.font_prev = FONT_R;
    env.ti = -1;
    env.in = man.margin;
}

/* An optional indent argument: sets the prevailing indent. */
static void indent_arg(struct request *rq, int i)
{
    int n;
    if (rq->argc > i && req_number(rq->argv[i], AXIS_H, man.ip, &n))
        man.ip = n < 0 ? 0 : n > LL_MAX ? LL_MAX : n;
}

static int decode_title(const char *s, glyph *out)
{
    struct text_info info;
    int n = text_decode(s, out, TITLE_TEXT_MAX, &info);
    env.font = env.font_prev = FONT_R;
    return n;
}

static void m_TH(struct request *rq)
{
    if (rq->argc < 2)
        warn(".TH needs a name and a section");
    const char *name = rq->argc > 0 ? rq->argv[0] : "";
    const char *section = rq->argc > 1 ? rq->argv[1] : "";
    line_break();
    page_eject();

    char both[TITLE_TEXT_MAX];
    snprintf(both, sizeof both, "%s(%s)", name, section);
    titles.head_n[0] = decode_title(both, titles.head[0]);
    titles.head_n[1] = decode_title(rq->argc > 4 ? rq->argv[4] : DEFAULT_MANUAL, titles.head[1]);
    titles.head_n[2] = decode_title(both, titles.head[2]);
    titles.foot_n[0] = decode_title(rq->argc > 3 ? rq->argv[3] : DEFAULT_SOURCE, titles.foot[0]);
    titles.foot_n[1] = decode_title(rq->argc > 2 ? rq->argv[2] : "", titles.foot[1]);
    titles.foot_n[2] = decode_title("%", titles.foot[2]);
    titles.width = env.ll;
    page_set_titles(&titles);

    man_begin();
    env.fill = env.adjust = true;
    env.adj_mode = ADJ_BOTH;
    env.in = man.margin;
    env.ti = -1;
    env.ce = 0;
}

static void heading(struct request *rq, int indent)
{
    man.font_trap = man.tag_trap = false;
    line_break();
    page_need(HEADING_NEED);
    page_space(man.pd);
    man.rs_depth = 0;
    man.margin = BODY_INDENT;
    man.ip = PARA_INDENT;
    env.fill = true;
    env.ti = -1;
    env.in = indent;
    env.font = FONT_B;
    man.heading_trap = true;
    if (rq->argc > 0)
        set_args(rq->argv, rq->argc, FONT_B, FONT_B, true);
}

static void m_SH(struct request *rq) { heading(rq, 0); }
static void m_SS(struct request *rq) { heading(rq, SUBHEAD_INDENT); }

static void m_PP(struct request *rq)
{
    (void)rq;
    paragraph();
    man.ip = PARA_INDENT;
}

static void m_TP(struct request *rq)
{
    paragraph();
    indent_arg(rq, 0);
    man.tag_trap = true;
}

static void m_IP(struct request *rq)
{
    paragraph();
    indent_arg(rq, 1);
    if (rq->argc > 0 && rq->argv[0][0]) {
        man.tag_trap = true;
        set_args(rq->argv, 1, FONT_R, FONT_R, false);
    } else {
        env.in = body_indent();
    }
}

static void m_HP(struct request *rq)
{
    paragraph();
    indent_arg(rq, 0);
    env.ti = man.margin;
    env.in = body_indent();
}

static void m_RS(struct request *rq)
{
    line_break();
    if (man.rs_depth == RS_DEPTH_MAX) {
        warn(".RS nested deeper than %d", RS_DEPTH_MAX);
        return;
    }
    int shift = man.ip;
    if (rq->argc > 0 && !req_number(rq->argv[0], AXIS_H, 0, &shift))
        shift = man.ip;
    man.rs_margin[man.rs_depth] = man.margin;
    man.rs_ip[man.rs_depth] = man.ip;
    man.rs_depth++;
    man.margin += shift;
    if (man.margin > LL_MAX)
        man.margin = LL_MAX;
    if (man.margin < 0)
        man.margin = 0;
    man.ip = PARA_INDENT;
    env.in = man.margin;
}

static void m_RE(struct request *rq)
{
    line_break();
    int levels = 1;
    if (rq->argc > 0 && !req_number(rq->argv[0], AXIS_V, 0, &levels))
        levels = 1;
    if (man.rs_depth == 0) {
        warn(".RE without .RS");
        return;
    }
    while (levels-- > 0 && man.rs_depth > 0) {
        man.rs_depth--;
        man.margin = man.rs_margin[man.rs_depth];
        man.ip = man.rs_ip[man.rs_depth];
    }
    env.in = man.margin;
}

/* .B .I .SM .SB: the arguments, or the next text line, in one font. */
static void one_font(struct request *rq, enum font f)
{
    if (rq->argc == 0) {
        env.font_prev = env.font;
        env.font = f;
        man.font_trap = true;
    } else {
        set_args(rq->argv, rq->argc, f, f, true);
    }
}

static void m_B(struct request *rq)  { one_font(rq, FONT_B); }
static void m_I(struct request *rq)  { one_font(rq, FONT_I); }
static void m_SM(struct request *rq) { one_font(rq, FONT_R); }
static void m_SB(struct request *rq) { one_font(rq, FONT_B); }

static void alternate(struct request *rq, enum font f0, enum font f1)
{
    if (rq->argc > 0)
        set_args(rq->argv, rq->argc, f0, f1, false);
}

static void m_BR(struct request *rq) { alternate(rq, FONT_B, FONT_R); }
static void m_BI(struct request *rq) { alternate(rq, FONT_B, FONT_I); }
static void m_IB(struct request *rq) { alternate(rq, FONT_I, FONT_B); }
static void m_IR(struct request *rq) { alternate(rq, FONT_I, FONT_R); }
static void m_RB(struct request *rq) { alternate(rq, FONT_R, FONT_B); }
static void m_RI(struct request *rq) { alternate(rq, FONT_R, FONT_I); }

static void m_PD(struct request *rq)
{
    int n = 1;
    if (rq->argc > 0 && !req_number(rq->argv[0], AXIS_V, 0, &n))
        return;
    man.pd = n < 0 ? 0 : n;
}

static void m_DT(struct request *rq) { (void)rq; }

static const struct {
    const char *name;
    void      (*run)(struct request *rq);
} macros[] = {
    { "TH", m_TH }, { "SH", m_SH }, { "SS", m_SS }, { "PP", m_PP }, { "LP", m_PP },
    { "P", m_PP },  { "TP", m_TP }, { "IP", m_IP }, { "HP", m_HP }, { "RS", m_RS },
    { "RE", m_RE }, { "B", m_B },   { "I", m_I },   { "SM", m_SM }, { "SB", m_SB },
    { "BR", m_BR }, { "BI", m_BI }, { "IB", m_IB }, { "IR", m_IR }, { "RB", m_RB },
    { "RI", m_RI }, { "PD", m_PD }, { "DT", m_DT },
};

bool man_run(struct request *rq)
{
    for (size_t i = 0; i < ARRAY_SIZE(macros); i++) {
        if (strcmp(rq->name, macros[i].name) == 0) {
            macros[i].run(rq);
            return true;
        }
    }
    return false;
}
