/* String to number conversions. No errno: out-of-range values saturate. */
#include "ulib.h"

#define ULONG_MAX_VALUE  (~0UL)
#define LONG_MAX_VALUE   ((long)(ULONG_MAX_VALUE >> 1))
#define LONG_MIN_VALUE   (-LONG_MAX_VALUE - 1)
#define MAX_BASE         36

static int digit_value(int c)
{
    if (isdigit(c))
        return c - '0';
    if (isalpha(c))
        return (c | 0x20) - 'a' + 10;   /* | 0x20 folds to lower case */
    return MAX_BASE;                    /* larger than any valid digit */
}

/* Parses the magnitude after the sign; sets *overflow instead of wrapping. */
static unsigned long parse_magnitude(const char *s, char **end, int base, bool *overflow)
{
    if ((base == 0 || base == 16) && s[0] == '0' && (s[1] | 0x20) == 'x'
        && digit_value(s[2]) < 16) {
        s += 2;
        base = 16;
    } else if (base == 0) {
        base = s[0] == '0' ? 8 : 10;
    }

    unsigned long v = 0;
    const char *start = s;
    *overflow = false;
    for (int d; (d = digit_value(*s)) < base; s++) {
        if (v > (ULONG_MAX_VALUE - (unsigned long)d) / (unsigned long)base)
            *overflow = true;
        else
            v = v * (unsigned long)base + (unsigned long)d;
    }
    if (end)
        *end = (char *)s;
    return s == start ? 0 : v;
}

static const char *skip_space_and_sign(const char *s, bool *negative)
{
    while (isspace(*s))
        s++;
    *negative = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    return s;
}

long strtol(const char *s, char **end, int base)
{
    bool negative, overflow;
    const char *digits = skip_space_and_sign(s, &negative);
    char *stop;
    unsigned long mag = parse_magnitude(digits, &stop, base, &overflow);
    if (end)
        *end = stop == digits ? (char *)s : stop;   /* no digits: nothing consumed */
    if (negative) {
        if (overflow || mag > (unsigned long)LONG_MAX_VALUE + 1)
            return LONG_MIN_VALUE;
        return (long)(0 - mag);
    }
    if (overflow || mag > (unsigned long)LONG_MAX_VALUE)
        return LONG_MAX_VALUE;
    return (long)mag;
}

unsigned long strtoul(const char *s, char **end, int base)
{
    bool negative, overflow;
    const char *digits = skip_space_and_sign(s, &negative);
    char *stop;
    unsigned long mag = parse_magnitude(digits, &stop, base, &overflow);
    if (end)
        *end = stop == digits ? (char *)s : stop;
    if (overflow)
        return ULONG_MAX_VALUE;
    return negative ? 0 - mag : mag;
}

int atoi(const char *s)
{
    return (int)strtol(s, NULL, 10);
}
