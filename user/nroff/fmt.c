/*
 * The driver: one input line at a time.
 *
 * A line starting with '.' or '\'' is a control line: a man macro (with
 * -man), else a basic request, else it is reported and skipped. A blank
 * line breaks and spaces one line. Anything else is text. Diagnostics
 * name the file and line: "nroff: FILE:LINE: what".
 */
#include "nroff.h"

#define DIAG_MAX 256           /* a message; the line adds the file name and number */

struct env env;
void (*fmt_text_hook)(void);

static struct fmt_options options;
static const char *file_name = "-";
static int line_number;
static int warnings;
static glyph decoded[LINE_GLYPHS];

void warn(const char *fmt, ...)
{
    char what[DIAG_MAX], line[2 * DIAG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "nroff: %s:%d: %s\n", file_name, line_number, what);
    nroff_diag(line);
    warnings++;
}

int fmt_warnings(void)
{
    return warnings;
}

void fmt_begin(const struct fmt_options *opts)
{
    options = *opts;
    env = (struct env){
        .fill = true,
        .adjust = true,
        .adj_mode = ADJ_BOTH,
        .ll = DEFAULT_LL, .ll_prev = DEFAULT_LL,
        .in = 0, .in_prev = 0,
        .ti = -1,
        .font = FONT_R, .font_prev = FONT_R,
    };
    warnings = 0;
    line_number = 0;
    file_name = "-";
    fmt_text_hook = NULL;
    out_begin(opts->overstrike);
    page_begin();
    line_begin();
    if (opts->man)
        man_begin();
}

void fmt_file(const char *name)
{
    file_name = name;
    line_number = 0;
}

void fmt_text_glyphs(const glyph *g, int n, bool sentence_end)
{
    struct text_info info = { .sentence_end = sentence_end, .join = false };
    line_text(g, n, &info);
    if (fmt_text_hook)
        fmt_text_hook();
}

static bool blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0';
}

static void control(char *line)
{
    struct request rq;
    if (!req_parse(line, &rq))
        return;                          /* "." alone, or a comment */
    if (options.man && man_run(&rq))
        return;
    if (req_run(&rq))
        return;
    warn("unknown request '%c%s': skipped", line[0], rq.name);
}

void fmt_line(char *line)
{
    line_number++;
    if (line[0] == '.' || line[0] == '\'') {
        control(line);
        return;
    }
    if (blank(line)) {
        line_break();
        page_space(1);
        return;
    }
    struct text_info info;
    int n = text_decode(line, decoded, LINE_GLYPHS, &info);
    line_text(decoded, n, &info);
    if (fmt_text_hook)
        fmt_text_hook();
}

void fmt_end(void)
{
    line_break();
    page_finish();
    out_flush();
}
