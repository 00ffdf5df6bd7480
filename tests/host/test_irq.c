/*
 * Host unit test of device-interrupt routing (kernel/dev/irq.c), against a
 * stand-in interrupt controller: which lines get enabled, which handler
 * runs for a claimed line and with what argument, and that every claimed
 * line is completed exactly once, handled or not.
 */
#include "check.h"
#include "config.h"
#include "irq.h"
#include <faultline/errno.h>

/* --- the stand-in controller --- */
static int enable_result;              /* what arch_irq_enable answers */
static uint32_t enabled[IRQ_LINES];    /* times each line was enabled */
static uint32_t pending;               /* what the next claim returns */
static uint32_t completed[IRQ_LINES + 8];
static int claims;

const char *arch_irq_init(void) { return NULL; }
void arch_irq_hart_init(struct cpu *c) { (void)c; }
int arch_irq_enable(uint32_t irq)
{
    if (enable_result == 0)
        enabled[irq]++;
    return enable_result;
}
uint32_t arch_irq_claim(void)
{
    claims++;
    uint32_t irq = pending;
    pending = 0;
    return irq;
}
void arch_irq_complete(uint32_t irq) { completed[irq]++; }

/* --- handlers that record their calls --- */
static int calls_a, calls_b;
static void *last_arg;
static void handler_a(void *arg) { calls_a++; last_arg = arg; }
static void handler_b(void *arg) { calls_b++; last_arg = arg; }

static void fire(uint32_t irq)
{
    pending = irq;
    irq_handle();
}

static void test_register_checks(void)
{
    CHECK_EQ(irq_register(0, handler_a, NULL), -EINVAL);           /* line 0 means none */
    CHECK_EQ(irq_register(IRQ_LINES, handler_a, NULL), -EINVAL);   /* beyond the table */
    CHECK_EQ(irq_register(3, NULL, NULL), -EINVAL);
    CHECK_EQ(enabled[3], 0);
}

static void test_dispatch(void)
{
    int tag_a, tag_b;
    CHECK_EQ(irq_register(10, handler_a, &tag_a), 0);
    CHECK_EQ(enabled[10], 1);
    CHECK_EQ(irq_register(8, handler_b, &tag_b), 0);
    CHECK_EQ(enabled[8], 1);

    fire(10);
    CHECK_EQ(calls_a, 1);
    CHECK_EQ(calls_b, 0);
    CHECK(last_arg == &tag_a);
    CHECK_EQ(completed[10], 1);

    fire(8);
    CHECK_EQ(calls_b, 1);
    CHECK(last_arg == &tag_b);
    CHECK_EQ(completed[8], 1);
}

static void test_busy_line(void)
{
    /* The first handler keeps the line; the line is not enabled again. */
    CHECK_EQ(irq_register(10, handler_b, NULL), -EBUSY);
    CHECK_EQ(enabled[10], 1);
    fire(10);
    CHECK_EQ(calls_a, 2);
    CHECK_EQ(calls_b, 1);
}

static void test_enable_refused(void)
{
    /* A line the controller refuses stays free for a later attempt. */
    enable_result = -ENODEV;
    CHECK_EQ(irq_register(5, handler_a, NULL), -ENODEV);
    enable_result = -EINVAL;
    CHECK_EQ(irq_register(5, handler_a, NULL), -EINVAL);
    enable_result = 0;
    CHECK_EQ(irq_register(5, handler_b, NULL), 0);
    CHECK_EQ(enabled[5], 1);
}

static void test_unhandled(void)
{
    uint64_t before = irq_unhandled();
    int a = calls_a, b = calls_b;
    fire(7);                         /* nobody registered it */
    CHECK_EQ(completed[7], 1);       /* still completed, or the line stays masked */
    fire(IRQ_LINES + 3);             /* a line beyond the table */
    CHECK_EQ(completed[IRQ_LINES + 3], 1);
    CHECK_EQ(irq_unhandled(), before + 2);
    CHECK_EQ(calls_a, a);
    CHECK_EQ(calls_b, b);
}

static void test_nothing_pending(void)
{
    uint32_t before[IRQ_LINES + 8];
    memcpy(before, completed, sizeof before);
    int c = claims;
    fire(0);                         /* claimed nothing: nothing to complete */
    CHECK_EQ(claims, c + 1);
    CHECK(memcmp(before, completed, sizeof before) == 0);
}

int main(void)
{
    test_register_checks();
    test_dispatch();
    test_busy_line();
    test_enable_refused();
    test_unhandled();
    test_nothing_pending();
    return check_summary("irq");
}
