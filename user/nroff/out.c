/*
 * Output: glyphs to bytes, buffered.
 *
 * A terminal has one font, so nroff showed the others by overstriking, and
 * so does this one unless told not to (-p, plain): a bold character is
 * printed, backspaced over and printed again ("B\bB"), an italic one is
 * underlined ("_\bI"). Spaces are never struck over. A terminal shows the
 * last character struck, so the text reads right either way; a printer
 * (or a pager that knows) shows the emphasis.
 */
#include "nroff.h"

#define OUT_BUFFER 4096     /* one write per this many bytes */

static char buffer[OUT_BUFFER];
static size_t used;
static bool overstrike;

void out_begin(bool strike)
{
    used = 0;
    overstrike = strike;
}

void out_flush(void)
{
    if (used)
        nroff_write(buffer, used);
    used = 0;
}

static void put(char c)
{
    if (used == sizeof buffer)
        out_flush();
    buffer[used++] = c;
}

void out_line(const glyph *g, int n)
{
    while (n > 0 && GLYPH_CHAR(g[n - 1]) == ' ')
        n--;
    for (int i = 0; i < n; i++) {
        char c = (char)GLYPH_CHAR(g[i]);
        enum font f = GLYPH_FONT(g[i]);
        if (overstrike && c != ' ' && f == FONT_B) {
            put(c);
            put('\b');
        } else if (overstrike && c != ' ' && f == FONT_I) {
            put('_');
            put('\b');
        }
        put(c);
    }
    put('\n');
}

void out_blank(int lines)
{
    while (lines-- > 0)
        put('\n');
}
