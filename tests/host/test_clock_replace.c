/* Host unit test of the clock page-replacement sweep (kernel/mm/clock_replace.c). */
#include <stdlib.h>

#include "check.h"
#include "clock_replace.h"

#define TEST_BASE_PFN 0x80000u
#define TEST_NFRAMES  8u
#define MAX_OFFERS    (2 * TEST_NFRAMES)   /* what one sweep may offer at most */
#define OWNER_TAG     ((void *)0x1000)      /* any non-NULL "address space" */

static struct frame records[TEST_NFRAMES];

/* What the examine callback saw, and which frames it should call busy. */
struct examiner {
    bool     busy[TEST_NFRAMES];
    uint32_t offered[MAX_OFFERS + 1];       /* one spare, to catch an overrun */
    uint32_t noffered;
    int      bad_pointer;                   /* f was not &records[index] */
};

/* A simulated reference bit in the frame flags, as mm_paging.c may keep it:
 * referenced -> clear it and pass; busy -> pass; otherwise take. */
static enum clock_verdict examine(struct frame *f, uint32_t index, void *ctx)
{
    struct examiner *ex = ctx;
    if (index >= TEST_NFRAMES || f != &records[index])
        ex->bad_pointer++;
    if (ex->noffered < ARRAY_SIZE(ex->offered))
        ex->offered[ex->noffered] = index;
    ex->noffered++;
    if (index < TEST_NFRAMES && ex->busy[index])
        return CLOCK_BUSY;
    if (f->flags & FRAME_F_REFERENCED) {
        f->flags &= (uint8_t)~FRAME_F_REFERENCED;
        return CLOCK_SECOND_CHANCE;
    }
    return CLOCK_TAKE;
}

/* nframes records, all user frames, unreferenced, unpinned. */
static void user_map(struct coremap *cm, uint32_t nframes)
{
    coremap_init(cm, records, TEST_BASE_PFN, nframes);
    for (uint32_t i = 0; i < nframes; i++) {
        records[i].state = FRAME_USER;
        records[i].owner = OWNER_TAG;
        records[i].vpn = i;
    }
}

static void fresh(struct examiner *ex, struct clock_hand *h, uint32_t hand)
{
    memset(ex, 0, sizeof *ex);
    h->hand = hand;
    h->scanned = 0;
}

/* The offers ex saw are exactly want[0..n). */
static bool offers_are(const struct examiner *ex, const uint32_t *want, uint32_t n)
{
    if (ex->noffered != n)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (ex->offered[i] != want[i])
            return false;
    return true;
}

static void test_takes_unreferenced_in_order(void)
{
    struct coremap cm;
    struct clock_hand h;
    struct examiner ex;
    user_map(&cm, TEST_NFRAMES);
    fresh(&ex, &h, 0);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 0);
    CHECK_EQ(h.hand, 1);
    CHECK_EQ(h.scanned, 1);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 1);
    CHECK_EQ(h.hand, 2);
    CHECK_EQ(h.scanned, 2);                     /* accumulates across calls */
    CHECK_EQ(ex.bad_pointer, 0);
}

static void test_second_chance(void)
{
    struct coremap cm;
    struct clock_hand h;
    struct examiner ex;
    user_map(&cm, 4);
    records[0].flags = FRAME_F_REFERENCED | FRAME_F_DIRTY;
    records[1].flags = FRAME_F_REFERENCED;
    fresh(&ex, &h, 0);

    /* 0 and 1 are passed over once (bits cleared), 2 is the victim */
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 2);
    static const uint32_t first[] = { 0, 1, 2 };
    CHECK(offers_are(&ex, first, 3));
    CHECK_EQ(records[0].flags, FRAME_F_DIRTY);  /* only the reference bit went */
    CHECK_EQ(records[1].flags, 0);
    CHECK_EQ(h.hand, 3);
    CHECK_EQ(h.scanned, 3);

    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 3);
    CHECK_EQ(h.hand, 0);                        /* past the last record: wraps */
    /* their second chance used up, 0 and 1 are taken when the hand returns */
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 0);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 1);
    CHECK_EQ(h.hand, 2);
    CHECK_EQ(h.scanned, 6);
    CHECK_EQ(ex.bad_pointer, 0);
}

static void test_busy_passed_over(void)
{
    struct coremap cm;
    struct clock_hand h;
    struct examiner ex;
    user_map(&cm, TEST_NFRAMES);
    fresh(&ex, &h, 5);
    ex.busy[5] = true;
    ex.busy[6] = true;
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 7);
    static const uint32_t want[] = { 5, 6, 7 };
    CHECK(offers_are(&ex, want, 3));
    CHECK_EQ(h.hand, 0);
    CHECK_EQ(h.scanned, 3);

    /* still busy when the hand comes round: passed over again */
    ex.noffered = 0;
    ex.busy[0] = true;
    h.hand = 6;
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 7);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 1);
    CHECK_EQ(h.hand, 2);
}

static void test_only_unpinned_user_frames_offered(void)
{
    struct coremap cm;
    struct clock_hand h;
    struct examiner ex;
    user_map(&cm, TEST_NFRAMES);
    records[0].state = FRAME_RESERVED;
    records[1].state = FRAME_FREE;
    records[2].state = FRAME_KERNEL;
    records[3].state = FRAME_PAGETABLE;
    records[4].pins = 1;                        /* user, but I/O in flight */
    records[5].pins = UINT16_MAX;
    records[6].state = FRAME_KERNEL;
    for (uint32_t i = 0; i < 6; i++)
        records[i].flags = 0;                   /* they would be taken if offered */
    fresh(&ex, &h, 0);

    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 7);
    static const uint32_t want[] = { 7 };
    CHECK(offers_are(&ex, want, 1));
    CHECK_EQ(h.hand, 0);
    CHECK_EQ(h.scanned, 8);                     /* every record passed counts */

    /* the only candidate referenced: found clear on the second turn */
    records[7].flags = FRAME_F_REFERENCED;
    fresh(&ex, &h, 0);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 7);
    static const uint32_t twice[] = { 7, 7 };
    CHECK(offers_are(&ex, twice, 2));
    CHECK_EQ(h.scanned, 2 * TEST_NFRAMES);
    CHECK_EQ(h.hand, 0);
}

static void test_all_referenced(void)
{
    struct coremap cm;
    struct clock_hand h;
    struct examiner ex;
    const uint32_t n = 5;
    user_map(&cm, n);
    for (uint32_t i = 0; i < n; i++)
        records[i].flags = FRAME_F_REFERENCED;
    fresh(&ex, &h, 2);

    /* first turn clears every bit; the victim is where the hand started */
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 2);
    static const uint32_t want[] = { 2, 3, 4, 0, 1, 2 };
    CHECK(offers_are(&ex, want, 6));
    CHECK_EQ(h.scanned, n + 1);
    CHECK_EQ(h.hand, 3);
    for (uint32_t i = 0; i < n; i++)
        CHECK_EQ(records[i].flags & FRAME_F_REFERENCED, 0);
}

static void test_nothing_eligible(void)
{
    struct coremap cm;
    struct clock_hand h;
    struct examiner ex;

    /* nothing offered at all: two turns, then give up, hand unchanged */
    user_map(&cm, TEST_NFRAMES);
    for (uint32_t i = 0; i < TEST_NFRAMES; i++)
        records[i].state = (i % 2) ? FRAME_KERNEL : FRAME_FREE;
    fresh(&ex, &h, 3);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), FRAME_NONE);
    CHECK_EQ(ex.noffered, 0);
    CHECK_EQ(h.scanned, 2 * TEST_NFRAMES);
    CHECK_EQ(h.hand, 3);

    /* candidates that are all busy: each offered once per turn, no more */
    user_map(&cm, TEST_NFRAMES);
    records[1].pins = 2;
    fresh(&ex, &h, 6);
    for (uint32_t i = 0; i < TEST_NFRAMES; i++)
        ex.busy[i] = true;
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), FRAME_NONE);
    CHECK_EQ(ex.noffered, 2 * (TEST_NFRAMES - 1));
    CHECK_EQ(h.scanned, 2 * TEST_NFRAMES);
    CHECK_EQ(h.hand, 6);
    CHECK_EQ(ex.bad_pointer, 0);
    /* and a second call costs another two turns, counted on top */
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), FRAME_NONE);
    CHECK_EQ(h.scanned, 4 * TEST_NFRAMES);
}

static void test_edges(void)
{
    struct coremap cm;
    struct clock_hand h;
    struct examiner ex;

    /* an empty map has no victim and costs nothing */
    coremap_init(&cm, records, TEST_BASE_PFN, 0);
    fresh(&ex, &h, 0);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), FRAME_NONE);
    CHECK_EQ(h.scanned, 0);
    CHECK_EQ(ex.noffered, 0);

    /* a hand out of range starts at record 0 */
    user_map(&cm, TEST_NFRAMES);
    fresh(&ex, &h, TEST_NFRAMES + 3);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 0);
    CHECK_EQ(h.hand, 1);

    /* a victim in the last record leaves the hand at 0 */
    fresh(&ex, &h, TEST_NFRAMES - 1);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), TEST_NFRAMES - 1);
    CHECK_EQ(h.hand, 0);

    /* one frame, referenced: cleared, then taken on the second look */
    user_map(&cm, 1);
    records[0].flags = FRAME_F_REFERENCED;
    fresh(&ex, &h, 0);
    CHECK_EQ(clock_select(&cm, &h, examine, &ex), 0);
    CHECK_EQ(ex.noffered, 2);
    CHECK_EQ(h.scanned, 2);
    CHECK_EQ(h.hand, 0);
}

int main(void)
{
    test_takes_unreferenced_in_order();
    test_second_chance();
    test_busy_passed_over();
    test_only_unpinned_user_frames_offered();
    test_all_referenced();
    test_nothing_eligible();
    test_edges();
    return check_summary("clock_replace");
}
