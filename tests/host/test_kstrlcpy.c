/* Host unit test of kstrlcpy (kernel/lib/kstrlcpy.c). */
#include "check.h"
#include "kstring.h"

#define GUARD 'G'

static void test_fits(void)
{
    char buf[8];
    memset(buf, GUARD, sizeof buf);
    CHECK_EQ(kstrlcpy(buf, "abc", sizeof buf), 3);
    CHECK_STR(buf, "abc");
    CHECK_EQ(buf[4], GUARD);   /* nothing written past the terminator */
}

static void test_exact_fit(void)
{
    char buf[4];
    CHECK_EQ(kstrlcpy(buf, "abc", sizeof buf), 3);
    CHECK_STR(buf, "abc");
}

static void test_truncates(void)
{
    char buf[5];
    memset(buf, GUARD, sizeof buf);
    /* the return value is the source length, so truncation shows */
    CHECK_EQ(kstrlcpy(buf, "abcdefgh", sizeof buf), 8);
    CHECK_STR(buf, "abcd");
}

static void test_tiny_buffers(void)
{
    char one[1] = { GUARD };
    CHECK_EQ(kstrlcpy(one, "abc", sizeof one), 3);
    CHECK_EQ(one[0], '\0');

    char none[1] = { GUARD };
    CHECK_EQ(kstrlcpy(none, "abc", 0), 3);
    CHECK_EQ(none[0], GUARD);   /* size 0: not even a terminator */
}

static void test_empty_source(void)
{
    char buf[4];
    memset(buf, GUARD, sizeof buf);
    CHECK_EQ(kstrlcpy(buf, "", sizeof buf), 0);
    CHECK_STR(buf, "");
    CHECK_EQ(buf[1], GUARD);
}

int main(void)
{
    test_fits();
    test_exact_fit();
    test_truncates();
    test_tiny_buffers();
    test_empty_source();
    return check_summary("kstrlcpy");
}
