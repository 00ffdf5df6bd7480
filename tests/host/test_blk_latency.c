/* Host unit test of the block device's service-time model (kernel/dev/blk_latency.c). */
#include "check.h"
#include "blk_latency.h"

#define SERVICE  300000u     /* 30 ms at QEMU virt's 10 MHz timebase */
#define START    1000u

/* Off: every request may end as soon as the device says. */
static void test_off(void)
{
    struct blk_arm a;
    blk_arm_init(&a, 0);
    CHECK_EQ(blk_arm_issue(&a, START), 0);
    CHECK(!blk_arm_early(blk_arm_issue(&a, START), START));
}

/* An idle arm starts at once; a busy one queues each request behind the
 * one before, so n requests issued together end n service times later. */
static void test_queue(void)
{
    struct blk_arm a;
    blk_arm_init(&a, SERVICE);
    CHECK_EQ(blk_arm_issue(&a, START), START + SERVICE);
    CHECK_EQ(blk_arm_issue(&a, START), START + 2 * SERVICE);
    CHECK_EQ(blk_arm_issue(&a, START + 1), START + 3 * SERVICE);
    /* issued after the arm went idle: starts then, not when it freed */
    uint64_t later = START + 10 * SERVICE;
    CHECK_EQ(blk_arm_issue(&a, later), later + SERVICE);
    /* issued exactly as the arm frees */
    CHECK_EQ(blk_arm_issue(&a, later + SERVICE), later + 2 * SERVICE);
}

static void test_early(void)
{
    CHECK(blk_arm_early(START + 1, START));
    CHECK(!blk_arm_early(START, START));       /* due now: delivered */
    CHECK(!blk_arm_early(START, START + 1));
    CHECK(!blk_arm_early(0, START));           /* the model off */
}

int main(void)
{
    test_off();
    test_queue();
    test_early();
    return check_summary("blk_latency");
}
