/* Host unit test of copy_page and zero_page (kernel/lib/page.c): every
 * byte of the page is copied or cleared, none outside it is touched. */
#include "check.h"
#include "kstring.h"
#include "config.h"

#define GUARD 0xa5u
#define SLACK 64          /* guard bytes on each side of a page */

static uint8_t src[PAGE_SIZE + 2 * SLACK] __attribute__((aligned(PAGE_SIZE)));
static uint8_t dst[PAGE_SIZE + 2 * SLACK] __attribute__((aligned(PAGE_SIZE)));

static void fill_pattern(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(i * 131u + seed + (i >> 8));
}

static int guards_intact(const uint8_t *buf)
{
    for (size_t i = 0; i < SLACK; i++)
        if (buf[i] != GUARD || buf[SLACK + PAGE_SIZE + i] != GUARD)
            return 0;
    return 1;
}

static void test_copy_every_byte(void)
{
    memset(dst, GUARD, sizeof dst);
    memset(src, GUARD, sizeof src);
    fill_pattern(src + SLACK, PAGE_SIZE, 7);
    copy_page(dst + SLACK, src + SLACK);
    CHECK_EQ(memcmp(dst + SLACK, src + SLACK, PAGE_SIZE), 0);
    CHECK(guards_intact(dst));
    CHECK(guards_intact(src));
    /* The last word and the first, each on its own. */
    src[SLACK + PAGE_SIZE - 1] ^= 0xff;
    src[SLACK] ^= 0xff;
    copy_page(dst + SLACK, src + SLACK);
    CHECK_EQ(dst[SLACK + PAGE_SIZE - 1], src[SLACK + PAGE_SIZE - 1]);
    CHECK_EQ(dst[SLACK], src[SLACK]);
}

static void test_zero_every_byte(void)
{
    memset(dst, GUARD, sizeof dst);
    fill_pattern(dst + SLACK, PAGE_SIZE, 3);
    for (size_t i = 0; i < PAGE_SIZE; i++)
        if (!dst[SLACK + i])
            dst[SLACK + i] = 1;             /* no zero byte before the clear */
    zero_page(dst + SLACK);
    size_t nonzero = 0;
    for (size_t i = 0; i < PAGE_SIZE; i++)
        nonzero += dst[SLACK + i] != 0;
    CHECK_EQ(nonzero, 0);
    CHECK(guards_intact(dst));
}

int main(void)
{
    test_copy_every_byte();
    test_zero_every_byte();
    return check_summary("page");
}
