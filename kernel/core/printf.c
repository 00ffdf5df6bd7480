/*
 * Kernel formatted output: a small vsnprintf (%d %i %u %x %p %s %c %%, with
 * l/ll/z length, width, '0' and '-' flags) and kprintf, which formats into a
 * buffer on the stack and writes the line to the console in one piece so
 * lines from different harts do not interleave.
 */
#include "printk.h"
#include "console.h"
#include "kstring.h"

#define KPRINTF_BUF 256

struct outbuf { char *buf; size_t len, pos; };

static void put(struct outbuf *o, char c)
{
    if (o->pos + 1 < o->len) o->buf[o->pos] = c;
    o->pos++;
}

static void put_padded(struct outbuf *o, const char *s, size_t n, int width, bool left, char pad)
{
    int fill = width > (int)n ? width - (int)n : 0;
    if (!left) while (fill-- > 0) put(o, pad);
    for (size_t i = 0; i < n; i++) put(o, s[i]);
    if (left) while (fill-- > 0) put(o, ' ');
}

static void put_number(struct outbuf *o, uint64_t v, bool neg, unsigned base, int width, bool left, char pad)
{
    char digits[24];
    int n = 0;
    do { digits[n++] = "0123456789abcdef"[v % base]; v /= base; } while (v);
    if (neg) {
        if (pad == '0') { put(o, '-'); width--; }
        else digits[n++] = '-';
    }
    char out[24];
    for (int i = 0; i < n; i++) out[i] = digits[n - 1 - i];
    put_padded(o, out, n, width, left, pad);
}

int kvsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
    struct outbuf o = { buf, len, 0 };
    for (; *fmt; fmt++) {
        if (*fmt != '%') { put(&o, *fmt); continue; }
        fmt++;
        bool left = false;
        char pad = ' ';
        for (;; fmt++) {
            if (*fmt == '-') left = true;
            else if (*fmt == '0') pad = '0';
            else break;
        }
        int width = 0;
        while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
        int lng = 0;
        while (*fmt == 'l' || *fmt == 'z') { lng++; fmt++; }
        switch (*fmt) {
        case 'd': case 'i': {
            int64_t v = lng ? va_arg(ap, int64_t) : va_arg(ap, int);
            put_number(&o, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 10, width, left, pad);
            break;
        }
        case 'u': case 'x': {
            uint64_t v = lng ? va_arg(ap, uint64_t) : va_arg(ap, unsigned);
            put_number(&o, v, false, *fmt == 'x' ? 16 : 10, width, left, pad);
            break;
        }
        case 'p':
            put(&o, '0'); put(&o, 'x');
            put_number(&o, (uint64_t)va_arg(ap, void *), false, 16, width, left, pad);
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            put_padded(&o, s, strlen(s), width, left, ' ');
            break;
        }
        case 'c': {
            char c = (char)va_arg(ap, int);
            put_padded(&o, &c, 1, width, left, ' ');
            break;
        }
        case '%': put(&o, '%'); break;
        case '\0': fmt--; break;
        default: put(&o, '%'); put(&o, *fmt); break;
        }
    }
    if (len) buf[o.pos < len ? o.pos : len - 1] = '\0';
    return (int)o.pos;
}

int ksnprintf(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return n;
}

void kprintf(const char *fmt, ...)
{
    char buf[KPRINTF_BUF];
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof buf) n = sizeof buf - 1;
    console_write(buf, (size_t)n);
}
