/*
 * printf family. One formatter writes into a "sink": either a caller's
 * buffer (snprintf) or a small stack buffer that is written to an fd when
 * full and at the end (printf, fprintf).
 */
#include "ulib.h"

#define FD_SINK_BUFFER   256   /* one write() per line of ordinary length; small
                                  enough for a handler on a MINSIGSTKSZ stack. A
                                  longer line that must stay whole (another
                                  process may write to the console meanwhile)
                                  is written with one write() by its program */
#define NUMBER_DIGITS_MAX 24   /* 2^64 in octal needs 22, in decimal 20 */

struct sink {
    char  *buf;
    size_t cap;       /* bytes buf can hold */
    size_t used;      /* bytes in buf */
    size_t total;     /* bytes produced, including those that did not fit */
    int    fd;        /* -1 for a string sink */
    long   error;     /* first write() error of an fd sink */
};

static void sink_flush(struct sink *s)
{
    if (s->fd < 0 || s->used == 0)
        return;
    size_t done = 0;
    while (done < s->used && !s->error) {
        long n = write(s->fd, s->buf + done, s->used - done);
        if (n <= 0)
            s->error = n < 0 ? n : -EIO;
        else
            done += (size_t)n;
    }
    s->used = 0;
}

static void sink_put(struct sink *s, char c)
{
    s->total++;
    if (s->fd >= 0) {
        if (s->used == s->cap)
            sink_flush(s);
        s->buf[s->used++] = c;
    } else if (s->used + 1 < s->cap) {   /* keep room for the NUL */
        s->buf[s->used++] = c;
    }
}

static void sink_repeat(struct sink *s, char c, int count)
{
    while (count-- > 0)
        sink_put(s, c);
}

static void sink_string(struct sink *s, const char *str, size_t len)
{
    while (len--)
        sink_put(s, *str++);
}

struct spec {
    bool left;        /* '-' */
    bool zero;        /* '0' */
    bool alt;         /* '#' */
    char sign;        /* '+' or ' ' to mark non-negative numbers, else 0 */
    int  width;
    int  precision;   /* -1 if none */
};

static void put_padded(struct sink *s, const struct spec *sp, const char *str, size_t len)
{
    int pad = sp->width - (int)len;
    if (!sp->left)
        sink_repeat(s, ' ', pad);
    sink_string(s, str, len);
    if (sp->left)
        sink_repeat(s, ' ', pad);
}

/* hex_prefix: "0x" before the digits; C gives '#' one only for non-zero
 * values, %p always has one. */
static void put_number(struct sink *s, const struct spec *sp, unsigned long long v,
                       bool negative, unsigned base, bool upper, bool hex_prefix)
{
    const char *digit_chars = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char digits[NUMBER_DIGITS_MAX];
    int ndigits = 0;
    /* Precision 0 with value 0 prints no digits, as C says. */
    while (v || (ndigits == 0 && sp->precision != 0)) {
        digits[ndigits++] = digit_chars[v % base];
        v /= base;
    }

    char prefix[3] = "";
    if (negative)
        prefix[0] = '-';
    else if (sp->sign)
        prefix[0] = sp->sign;
    else if (hex_prefix) {
        prefix[0] = '0';
        prefix[1] = upper ? 'X' : 'x';
    }
    int prefix_len = (int)strlen(prefix);
    int zeros = sp->precision > ndigits ? sp->precision - ndigits : 0;
    int pad = sp->width - prefix_len - zeros - ndigits;
    /* '0' pads between the sign and the digits, unless overridden. */
    if (sp->zero && !sp->left && sp->precision < 0) {
        zeros += pad > 0 ? pad : 0;
        pad = 0;
    }

    if (!sp->left)
        sink_repeat(s, ' ', pad);
    sink_string(s, prefix, (size_t)prefix_len);
    sink_repeat(s, '0', zeros);
    while (ndigits)
        sink_put(s, digits[--ndigits]);
    if (sp->left)
        sink_repeat(s, ' ', pad);
}

enum size_mod { SIZE_CHAR, SIZE_SHORT, SIZE_INT, SIZE_LONG, SIZE_LONG_LONG, SIZE_SIZE_T };

/* Reads "123" or "*" (taking the value from the arguments). */
static int parse_count(const char **fmt, va_list *ap)
{
    if (**fmt == '*') {
        (*fmt)++;
        return va_arg(*ap, int);
    }
    int n = 0;
    while (isdigit(**fmt))
        n = n * 10 + (*(*fmt)++ - '0');
    return n;
}

static void format(struct sink *s, const char *fmt, va_list *ap)
{
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            sink_put(s, *fmt);
            continue;
        }
        fmt++;

        struct spec sp = { .precision = -1 };
        for (;; fmt++) {
            if (*fmt == '-')      sp.left = true;
            else if (*fmt == '0') sp.zero = true;
            else if (*fmt == '#') sp.alt = true;
            else if (*fmt == '+') sp.sign = '+';
            else if (*fmt == ' ') { if (!sp.sign) sp.sign = ' '; }
            else break;
        }
        sp.width = parse_count(&fmt, ap);
        if (sp.width < 0) {          /* a negative '*' width means left-justify */
            sp.left = true;
            sp.width = -sp.width;
        }
        if (*fmt == '.') {
            fmt++;
            sp.precision = parse_count(&fmt, ap);
        }

        enum size_mod size = SIZE_INT;
        if (*fmt == 'l') {
            fmt++;
            size = SIZE_LONG;
            if (*fmt == 'l') {
                fmt++;
                size = SIZE_LONG_LONG;
            }
        } else if (*fmt == 'z') {
            fmt++;
            size = SIZE_SIZE_T;
        } else if (*fmt == 'h') {    /* passed as int, printed as the narrower type */
            fmt++;
            size = SIZE_SHORT;
            if (*fmt == 'h') {
                fmt++;
                size = SIZE_CHAR;
            }
        }

        switch (*fmt) {
        case 'd':
        case 'i': {
            long long v = size == SIZE_LONG ? va_arg(*ap, long)
                        : size == SIZE_LONG_LONG ? va_arg(*ap, long long)
                        : size == SIZE_SIZE_T ? (long long)va_arg(*ap, size_t)
                        : va_arg(*ap, int);
            if (size == SIZE_SHORT)
                v = (short)v;
            else if (size == SIZE_CHAR)
                v = (signed char)v;
            unsigned long long mag = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
            put_number(s, &sp, mag, v < 0, 10, false, false);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            unsigned long long v = size == SIZE_LONG ? va_arg(*ap, unsigned long)
                                 : size == SIZE_LONG_LONG ? va_arg(*ap, unsigned long long)
                                 : size == SIZE_SIZE_T ? va_arg(*ap, size_t)
                                 : va_arg(*ap, unsigned int);
            if (size == SIZE_SHORT)
                v = (unsigned short)v;
            else if (size == SIZE_CHAR)
                v = (unsigned char)v;
            bool hex = *fmt != 'u';
            sp.sign = 0;                 /* '+' and ' ' are for signed conversions */
            put_number(s, &sp, v, false, hex ? 16 : 10, *fmt == 'X', hex && sp.alt && v != 0);
            break;
        }
        case 'p':
            put_number(s, &sp, (uintptr_t)va_arg(*ap, void *), false, 16, false, true);
            break;
        case 's': {
            const char *str = va_arg(*ap, const char *);
            if (!str)
                str = "(null)";
            size_t len = sp.precision >= 0 ? strnlen(str, (size_t)sp.precision) : strlen(str);
            put_padded(s, &sp, str, len);
            break;
        }
        case 'c': {
            char c = (char)va_arg(*ap, int);
            put_padded(s, &sp, &c, 1);
            break;
        }
        case '%':
            sink_put(s, '%');
            break;
        case '\0':                   /* lone '%' at the end */
            return;
        default:                     /* unknown: show it rather than guess */
            sink_put(s, '%');
            sink_put(s, *fmt);
            break;
        }
    }
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct sink s = { .buf = buf, .cap = size, .fd = -1 };
    va_list copy;
    va_copy(copy, ap);
    format(&s, fmt, &copy);
    va_end(copy);
    if (size)
        buf[s.used] = '\0';
    return (int)s.total;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

/* Returns the number of bytes produced, or -errno if a write failed. */
int vfprintf(int fd, const char *fmt, va_list ap)
{
    char buf[FD_SINK_BUFFER];
    struct sink s = { .buf = buf, .cap = sizeof buf, .fd = fd };
    va_list copy;
    va_copy(copy, ap);
    format(&s, fmt, &copy);
    va_end(copy);
    sink_flush(&s);
    return s.error ? (int)s.error : (int)s.total;
}

int fprintf(int fd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(fd, fmt, ap);
    va_end(ap);
    return n;
}

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(STDOUT_FILENO, fmt, ap);
    va_end(ap);
    return n;
}

int puts(const char *s)
{
    return printf("%s\n", s);
}

int putchar(int c)
{
    unsigned char byte = (unsigned char)c;
    long n = write(STDOUT_FILENO, &byte, 1);
    return n == 1 ? byte : (int)n;
}
