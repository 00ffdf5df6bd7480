/*
 * cpubound: the CPU-bound task of the paged-versus-swapped UNIX study:
 * two nested loops around a block of 9 integer-arithmetic statements,
 * run OUTER * INNER = 100,000 times, in a program of about 2 KB of code
 * (so it is almost never paged or swapped out). It prints a checksum of
 * the arithmetic, which also keeps the compiler from dropping the work.
 *
 * The program avoids printf (a few KiB of code) and formats the checksum
 * itself, so that its text stays near the task's 2 KB: `size` of the
 * linked program gives it (tests/test_shell_script.py checks the bound).
 */
#include "ulib.h"

#define OUTER   100
#define INNER   1000        /* OUTER * INNER = 100,000 runs of the block */
#define DIGITS  24          /* a 64-bit number in decimal, and a newline */

/* The starting values, read through volatile so the compiler cannot
 * fold the loops into a constant at build time. */
static volatile long seed_a = 7, seed_b = 3;

static long work(void)
{
    long a = seed_a, b = seed_b, c = 0, d = 1, e = 0;
    for (int i = 0; i < OUTER; i++) {
        for (int j = 0; j < INNER; j++) {
            /* the block: 9 statements of integer arithmetic */
            a = a + j;
            b = b * 3 + i;
            c = a - b;
            d = d + c % 7;
            e = e ^ (a + d);
            a = a % 100003;
            b = b % 65521;
            c = c / 3 + e % 11;
            d = d + c - b;
        }
    }
    return a + b + c + d + e;
}

/* n in decimal and a newline into buf (from the end); returns the start. */
static char *format(long n, char *end)
{
    unsigned long u = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;
    *--end = '\n';
    do {
        *--end = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (n < 0)
        *--end = '-';
    return end;
}

int main(void)
{
    char buf[DIGITS];
    char *s = format(work(), buf + sizeof buf);
    write(STDOUT_FILENO, "cpubound ", 9);
    write(STDOUT_FILENO, s, (size_t)(buf + sizeof buf - s));
    return 0;
}
