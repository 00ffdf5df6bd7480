/* ktext: the bounded message writer (ktext.h). */
#include "ktext.h"
#include "kstring.h"

#define DECIMAL_BASE       10u
#define U64_DECIMAL_DIGITS 20   /* 18446744073709551615 */

struct text text_start(char *buf, size_t cap)
{
    struct text t = { buf, cap, 0 };
    if (cap > 0)
        buf[0] = '\0';
    return t;
}

void text_putn(struct text *t, const char *s, size_t n)
{
    if (t->cap == 0)
        return;
    for (size_t i = 0; i < n && t->len + 1 < t->cap; i++)
        t->buf[t->len++] = s[i];
    t->buf[t->len] = '\0';
}

void text_put(struct text *t, const char *s)
{
    text_putn(t, s, strlen(s));
}

void text_put_u64(struct text *t, uint64_t v)
{
    char digits[U64_DECIMAL_DIGITS];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % DECIMAL_BASE);
        v /= DECIMAL_BASE;
    } while (v != 0);
    while (n > 0)
        text_putn(t, &digits[--n], 1);
}
