/* Host unit test of the page-state machine (kernel/mm/pagestate.c). */
#include "check.h"
#include "pagestate.h"

#define NSTATES (LEAF_OUTGOING + 1)
#define NEVENTS (PE_UNMAP + 1)

/* Every (state, event) pair the machine allows, and where it leads; any
 * pair not listed must be refused. */
static const struct { enum leaf_state from; enum page_event ev; enum leaf_state to; } allowed[] = {
    { LEAF_EMPTY,     PE_FILL,         LEAF_PRESENT },
    { LEAF_DISCARDED, PE_FILL,         LEAF_PRESENT },
    { LEAF_SWAPPED,   PE_READ_BEGIN,   LEAF_INCOMING },
    { LEAF_INCOMING,  PE_READ_DONE,    LEAF_PRESENT },
    { LEAF_INCOMING,  PE_READ_FAILED,  LEAF_SWAPPED },
    { LEAF_PRESENT,   PE_HIDE,         LEAF_HIDDEN },
    { LEAF_HIDDEN,    PE_REVEAL,       LEAF_PRESENT },
    { LEAF_PRESENT,   PE_DROP_CLEAN,   LEAF_DISCARDED },
    { LEAF_HIDDEN,    PE_DROP_CLEAN,   LEAF_DISCARDED },
    { LEAF_PRESENT,   PE_WRITE_BEGIN,  LEAF_OUTGOING },
    { LEAF_HIDDEN,    PE_WRITE_BEGIN,  LEAF_OUTGOING },
    { LEAF_OUTGOING,  PE_WRITE_DONE,   LEAF_SWAPPED },
    { LEAF_OUTGOING,  PE_WRITE_FAILED, LEAF_PRESENT },
    { LEAF_EMPTY,     PE_UNMAP,        LEAF_EMPTY },
    { LEAF_PRESENT,   PE_UNMAP,        LEAF_EMPTY },
    { LEAF_HIDDEN,    PE_UNMAP,        LEAF_EMPTY },
    { LEAF_SWAPPED,   PE_UNMAP,        LEAF_EMPTY },
    { LEAF_DISCARDED, PE_UNMAP,        LEAF_EMPTY },
};

static int expected(enum leaf_state from, enum page_event ev)
{
    for (size_t i = 0; i < ARRAY_SIZE(allowed); i++)
        if (allowed[i].from == from && allowed[i].ev == ev)
            return (int)allowed[i].to;
    return PAGESTATE_INVALID;
}

/* The whole table, both ways: what is listed happens, nothing else does. */
static void test_every_pair(void)
{
    int valid = 0;
    for (int s = 0; s < NSTATES; s++)
        for (int e = 0; e < NEVENTS; e++) {
            int want = expected((enum leaf_state)s, (enum page_event)e);
            CHECK_EQ(pagestate_next((enum leaf_state)s, (enum page_event)e), want);
            valid += want != PAGESTATE_INVALID;
        }
    CHECK_EQ(valid, (int)ARRAY_SIZE(allowed));
}

/* A page in transit leaves only by its transit's end: it cannot be
 * unmapped, hidden, filled or begin another transit meanwhile. */
static void test_transit_is_exclusive(void)
{
    CHECK(pagestate_in_transit(LEAF_INCOMING));
    CHECK(pagestate_in_transit(LEAF_OUTGOING));
    for (int s = 0; s < NSTATES; s++) {
        if (!pagestate_in_transit((enum leaf_state)s))
            continue;
        for (int e = 0; e < NEVENTS; e++) {
            int to = pagestate_next((enum leaf_state)s, (enum page_event)e);
            bool ends = e == PE_READ_DONE || e == PE_READ_FAILED ||
                        e == PE_WRITE_DONE || e == PE_WRITE_FAILED;
            if (!ends)
                CHECK_EQ(to, PAGESTATE_INVALID);
        }
    }
    for (int s = 0; s < NSTATES; s++)
        if (s != LEAF_INCOMING && s != LEAF_OUTGOING)
            CHECK(!pagestate_in_transit((enum leaf_state)s));
}

/* A round trip keeps the page: out and back in ends where it began, and
 * a failed transit puts it back where its only copy is. */
static void test_round_trips(void)
{
    int s = pagestate_next(LEAF_PRESENT, PE_WRITE_BEGIN);
    s = pagestate_next((enum leaf_state)s, PE_WRITE_DONE);
    CHECK_EQ(s, LEAF_SWAPPED);
    s = pagestate_next((enum leaf_state)s, PE_READ_BEGIN);
    s = pagestate_next((enum leaf_state)s, PE_READ_DONE);
    CHECK_EQ(s, LEAF_PRESENT);
    /* the frame still has it */
    CHECK_EQ(pagestate_next(LEAF_OUTGOING, PE_WRITE_FAILED), LEAF_PRESENT);
    /* the slot still has it */
    CHECK_EQ(pagestate_next(LEAF_INCOMING, PE_READ_FAILED), LEAF_SWAPPED);
    /* a page on the device is never filled from its origin: that would
     * lose what was written to it */
    CHECK_EQ(pagestate_next(LEAF_SWAPPED, PE_FILL), PAGESTATE_INVALID);
    CHECK_EQ(pagestate_next(LEAF_PRESENT, PE_FILL), PAGESTATE_INVALID);
}

int main(void)
{
    test_every_pair();
    test_transit_is_exclusive();
    test_round_trips();
    return check_summary("pagestate");
}
