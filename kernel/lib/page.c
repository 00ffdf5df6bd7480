/* Copying and clearing whole pages: fork copies every resident page,
 * new kernel stacks and demand-zero faults clear theirs. Host-tested
 * (tests/host/test_page.c). */
#include "kstring.h"
#include "config.h"

/* Whole pages, 256 bytes a round: the loop's counter and test cost 3
 * instructions a round, so at 64 bytes a round they were a sixth of a
 * copy and a fifth of a clear; here they are under a twentieth. fork
 * copies every resident page, and new kernel stacks and demand-zero
 * faults clear theirs. A round of the copy loads 16 words, then stores
 * them, twice: 16 live values fit in the caller-saved registers. */
#define PAGE_ROUND_WORDS 32

void copy_page(void *dst, const void *src)
{
    uint64_t *d = dst, *end = d + PAGE_SIZE / sizeof *d;
    const uint64_t *s = src;
    for (; d < end; d += PAGE_ROUND_WORDS, s += PAGE_ROUND_WORDS) {
        for (int half = 0; half < PAGE_ROUND_WORDS; half += 16) {
            uint64_t w0 = s[half + 0], w1 = s[half + 1], w2 = s[half + 2], w3 = s[half + 3];
            uint64_t w4 = s[half + 4], w5 = s[half + 5], w6 = s[half + 6], w7 = s[half + 7];
            uint64_t w8 = s[half + 8], w9 = s[half + 9], wa = s[half + 10], wb = s[half + 11];
            uint64_t wc = s[half + 12], wd = s[half + 13], we = s[half + 14], wf = s[half + 15];
            d[half + 0] = w0; d[half + 1] = w1; d[half + 2] = w2; d[half + 3] = w3;
            d[half + 4] = w4; d[half + 5] = w5; d[half + 6] = w6; d[half + 7] = w7;
            d[half + 8] = w8; d[half + 9] = w9; d[half + 10] = wa; d[half + 11] = wb;
            d[half + 12] = wc; d[half + 13] = wd; d[half + 14] = we; d[half + 15] = wf;
        }
    }
}

void zero_page(void *page)
{
    uint64_t *p = page, *end = p + PAGE_SIZE / sizeof *p;
    for (; p < end; p += PAGE_ROUND_WORDS) {
        /* Written out: the compiler keeps an inner loop as a loop. */
        p[0] = 0;  p[1] = 0;  p[2] = 0;  p[3] = 0;  p[4] = 0;  p[5] = 0;  p[6] = 0;  p[7] = 0;
        p[8] = 0;  p[9] = 0;  p[10] = 0; p[11] = 0; p[12] = 0; p[13] = 0; p[14] = 0; p[15] = 0;
        p[16] = 0; p[17] = 0; p[18] = 0; p[19] = 0; p[20] = 0; p[21] = 0; p[22] = 0; p[23] = 0;
        p[24] = 0; p[25] = 0; p[26] = 0; p[27] = 0; p[28] = 0; p[29] = 0; p[30] = 0; p[31] = 0;
    }
}
