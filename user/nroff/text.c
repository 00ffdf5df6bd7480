/*
 * Escapes: turns a line of input text into glyphs.
 *
 *   \fB \fI \fR \fP \f1 \f2 \f3 \f(XX   font (P: the previous one)
 *   \- \e \\ \' \` \.                   minus, backslash, quotes, period
 *   \& \| \^ \) \%                      nothing (\& also hides a sentence end)
 *   \(space) \0 \~                      an unpaddable space
 *   \(XX                                a named character: \(em \(bu ...
 *   \sN \s+N \s-N                       size changes: ignored on a terminal
 *   \t                                  a tab
 *   \c                                  at the end: the next line continues
 *   \"                                  a comment to the end of the line
 *
 * An unknown escape is reported and its character printed. The font is
 * part of the environment, so a \fB carries over to the next line.
 */
#include "nroff.h"

/* Characters after which a sentence may still end: "end.)" ends one. */
static bool transparent(char c)
{
    return c == ')' || c == ']' || c == '"' || c == '\'' || c == '*';
}

static bool sentence_char(char c)
{
    return c == '.' || c == '?' || c == '!';
}

/* Named characters as a terminal shows them. */
static const struct {
    char name[3];
    const char *text;
} named_chars[] = {
    { "em", "--" }, { "en", "-" },  { "hy", "-" },  { "mi", "-" },  { "bu", "o" },
    { "lq", "\"" }, { "rq", "\"" }, { "dq", "\"" }, { "aq", "'" },  { "oq", "`" },
    { "cq", "'" },  { "rs", "\\" }, { "sl", "/" },  { "ul", "_" },  { "ru", "_" },
    { "ba", "|" },  { "br", "|" },  { "or", "|" },  { "ti", "~" },  { "ha", "^" },
    { "pl", "+" },  { "eq", "=" },  { "mu", "x" },  { "**", "*" },  { "->", "->" },
    { "<-", "<-" }, { "<=", "<=" }, { ">=", ">=" }, { "!=", "!=" }, { "co", "(C)" },
    { "rg", "(R)" }, { "tm", "(TM)" }, { "de", "o" }, { "+-", "+-" },
};

struct decoder {
    glyph *out;
    int    n, max;
    bool   overflow;
};

static void put(struct decoder *d, char c)
{
    if (d->n < d->max)
        d->out[d->n++] = GLYPH(c, env.font);
    else
        d->overflow = true;
}

static void put_string(struct decoder *d, const char *s)
{
    while (*s)
        put(d, *s++);
}

static void set_font(enum font f)
{
    env.font_prev = env.font;
    env.font = f;
}

/* Font names: one character after \f, or two after \f( (bold-italic and
 * the constant-width fonts map to what a terminal has). */
bool font_by_name(const char *name, enum font *f)
{
    static const struct { const char *name; enum font font; } fonts[] = {
        { "R", FONT_R }, { "1", FONT_R }, { "I", FONT_I }, { "2", FONT_I },
        { "B", FONT_B }, { "3", FONT_B }, { "BI", FONT_B }, { "4", FONT_B },
        { "CW", FONT_R }, { "CR", FONT_R }, { "CB", FONT_B }, { "CI", FONT_I },
    };
    for (size_t i = 0; i < ARRAY_SIZE(fonts); i++) {
        if (strcmp(name, fonts[i].name) == 0) {
            *f = fonts[i].font;
            return true;
        }
    }
    return false;
}

/* \f...: returns the characters it used after the 'f'. */
static int font_escape(const char *s)
{
    char name[3] = { 0 };
    int used;
    if (s[0] == '(' && s[1] && s[2]) {
        name[0] = s[1];
        name[1] = s[2];
        used = 3;
    } else if (s[0]) {
        name[0] = s[0];
        used = 1;
    } else {
        warn("\\f at the end of a line");
        return 0;
    }
    enum font f;
    if (name[0] == 'P' && !name[1]) {
        enum font prev = env.font_prev;
        set_font(prev);
    } else if (font_by_name(name, &f)) {
        set_font(f);
    } else {
        warn("unknown font '%s'", name);
    }
    return used;
}

/* \(XX: returns the characters it used after the '('. */
static int named_escape(struct decoder *d, const char *s)
{
    if (!s[0] || !s[1]) {
        warn("\\( needs a two-character name");
        return s[0] ? 1 : 0;
    }
    for (size_t i = 0; i < ARRAY_SIZE(named_chars); i++) {
        if (named_chars[i].name[0] == s[0] && named_chars[i].name[1] == s[1]) {
            put_string(d, named_chars[i].text);
            return 2;
        }
    }
    warn("unknown character \\(%c%c", s[0], s[1]);
    return 2;
}

/* \s: a sign and up to two digits, all ignored. */
static int size_escape(const char *s)
{
    int used = 0;
    if (s[used] == '+' || s[used] == '-')
        used++;
    for (int digits = 0; digits < 2 && isdigit(s[used]); digits++)
        used++;
    return used;
}

int text_decode(const char *s, glyph *out, int max, struct text_info *info)
{
    struct decoder d = { out, 0, max, false };
    bool sentence = false;
    info->join = false;

    while (*s) {
        char c = *s++;
        if (c != '\\') {
            if ((unsigned char)c < ' ' && c != '\t') {
                warn("control character 0x%02x ignored", (unsigned char)c);
                continue;
            }
            put(&d, c);
            if (sentence_char(c))
                sentence = true;
            else if (!transparent(c))
                sentence = false;
            continue;
        }
        char e = *s;
        if (e == '\0') {
            /* a backslash ending the line joins it to the next, as \c */
            info->join = true;
            break;
        }
        s++;
        switch (e) {
        case '"':
            goto done;                 /* comment */
        case 'c':
            if (*s == '\0')
                info->join = true;
            goto done;
        case 'f':
            s += font_escape(s);
            break;
        case '(':
            s += named_escape(&d, s);
            sentence = false;
            break;
        case 's':
            s += size_escape(s);
            break;
        case '-':
            put(&d, '-');
            sentence = false;
            break;
        case 'e': case '\\':
            put(&d, '\\');
            sentence = false;
            break;
        case '\'': case '`': case '.':
            put(&d, e);
            sentence = false;
            break;
        case '&': case '|': case '^': case ')': case '%':
            sentence = false;          /* zero width; \& hides a sentence end */
            break;
        case ' ': case '0': case '~':
            put(&d, CH_NBSP);
            sentence = false;
            break;
        case 't':
            put(&d, '\t');
            sentence = false;
            break;
        default:
            warn("unknown escape \\%c", e);
            put(&d, e);
            sentence = false;
            break;
        }
    }
done:
    if (d.overflow)
        warn("text line longer than %d characters: cut", max);
    info->sentence_end = sentence;
    return d.n;
}
