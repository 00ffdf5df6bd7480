/* Host unit test of the core map (kernel/mm/coremap.c). */
#include <stdlib.h>

#include "check.h"
#include "coremap.h"

#define TEST_BASE_PFN 0x80000u   /* 0x80000000 >> 12: QEMU virt RAM */
#define TEST_NFRAMES  16u

static struct frame records[TEST_NFRAMES];

static void fresh_map(struct coremap *cm)
{
    coremap_init(cm, records, TEST_BASE_PFN, TEST_NFRAMES);
}

static void test_init_all_reserved(void)
{
    struct coremap cm;
    uint32_t counts[5];

    memset(records, 0xa5, sizeof records);   /* init must not trust old contents */
    fresh_map(&cm);
    CHECK_EQ(cm.nfree, 0);
    CHECK_EQ(cm.nmanaged, 0);
    CHECK_EQ(cm.free_head, FRAME_NONE);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    CHECK_EQ(counts[FRAME_RESERVED], TEST_NFRAMES);
    CHECK_EQ(counts[FRAME_FREE], 0);
    CHECK_EQ(records[3].next, FRAME_NONE);
    CHECK(records[3].owner == NULL);
    CHECK_EQ(coremap_alloc(&cm, FRAME_USER), 0);
}

static void test_release_ranges(void)
{
    struct coremap cm;
    uint32_t counts[5];

    fresh_map(&cm);
    /* a range that starts below the map and ends inside it is clipped */
    CHECK_EQ(coremap_release(&cm, TEST_BASE_PFN - 5, TEST_BASE_PFN + 4), 4);
    /* releasing the same frames again releases nothing */
    CHECK_EQ(coremap_release(&cm, TEST_BASE_PFN, TEST_BASE_PFN + 4), 0);
    /* a range past the end is clipped at the end */
    CHECK_EQ(coremap_release(&cm, TEST_BASE_PFN + 12, TEST_BASE_PFN + 100), 4);
    /* wholly outside, and empty */
    CHECK_EQ(coremap_release(&cm, TEST_BASE_PFN + 100, TEST_BASE_PFN + 200), 0);
    CHECK_EQ(coremap_release(&cm, TEST_BASE_PFN + 6, TEST_BASE_PFN + 6), 0);
    CHECK_EQ(coremap_release(&cm, TEST_BASE_PFN + 7, TEST_BASE_PFN + 6), 0);

    CHECK_EQ(cm.nfree, 8);
    CHECK_EQ(cm.nmanaged, 8);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    CHECK_EQ(counts[FRAME_FREE], 8);
    CHECK_EQ(counts[FRAME_RESERVED], 8);
    CHECK_EQ(coremap_frame(&cm, TEST_BASE_PFN + 4)->state, FRAME_RESERVED);
    CHECK_EQ(coremap_frame(&cm, TEST_BASE_PFN + 12)->state, FRAME_FREE);
}

static void test_pfn_zero_never_handed_out(void)
{
    struct coremap cm;
    coremap_init(&cm, records, 0, 4);
    CHECK_EQ(coremap_release(&cm, 0, 4), 3);
    for (int i = 0; i < 3; i++)
        CHECK(coremap_alloc(&cm, FRAME_KERNEL) != 0);
    CHECK_EQ(coremap_alloc(&cm, FRAME_KERNEL), 0);
    CHECK_EQ(coremap_frame(&cm, 0)->state, FRAME_RESERVED);
}

static void test_alloc_until_exhausted(void)
{
    struct coremap cm;
    uint32_t counts[5];
    bool seen[TEST_NFRAMES] = { false };

    fresh_map(&cm);
    coremap_release(&cm, TEST_BASE_PFN, TEST_BASE_PFN + TEST_NFRAMES);
    for (uint32_t i = 0; i < TEST_NFRAMES; i++) {
        pfn_t pfn = coremap_alloc(&cm, FRAME_USER);
        CHECK(pfn >= TEST_BASE_PFN && pfn < TEST_BASE_PFN + TEST_NFRAMES);
        if (pfn < TEST_BASE_PFN || pfn >= TEST_BASE_PFN + TEST_NFRAMES)
            continue;
        CHECK(!seen[pfn - TEST_BASE_PFN]);
        seen[pfn - TEST_BASE_PFN] = true;
        CHECK_EQ(coremap_frame(&cm, pfn)->state, FRAME_USER);
    }
    /* boot-time allocations come out in address order */
    CHECK_EQ(records[0].state, FRAME_USER);
    CHECK_EQ(cm.nfree, 0);
    CHECK_EQ(coremap_alloc(&cm, FRAME_USER), 0);
    CHECK_EQ(coremap_alloc(&cm, FRAME_KERNEL), 0);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    CHECK_EQ(counts[FRAME_USER], TEST_NFRAMES);
}

static void test_alloc_order_and_lifo_reuse(void)
{
    struct coremap cm;

    fresh_map(&cm);
    coremap_release(&cm, TEST_BASE_PFN, TEST_BASE_PFN + TEST_NFRAMES);
    pfn_t a = coremap_alloc(&cm, FRAME_KERNEL);
    pfn_t b = coremap_alloc(&cm, FRAME_PAGETABLE);
    pfn_t c = coremap_alloc(&cm, FRAME_USER);
    CHECK_EQ(a, TEST_BASE_PFN);
    CHECK_EQ(b, TEST_BASE_PFN + 1);
    CHECK_EQ(c, TEST_BASE_PFN + 2);

    CHECK_EQ(coremap_free(&cm, b), 0);
    CHECK_EQ(coremap_free(&cm, a), 0);
    /* last freed, first reused */
    CHECK_EQ(coremap_alloc(&cm, FRAME_USER), a);
    CHECK_EQ(coremap_alloc(&cm, FRAME_USER), b);
    CHECK_EQ(coremap_alloc(&cm, FRAME_USER), TEST_BASE_PFN + 3);
    CHECK_EQ(coremap_check(&cm, NULL), 0);
}

static void test_alloc_rejects_free_and_reserved_states(void)
{
    struct coremap cm;

    fresh_map(&cm);
    coremap_release(&cm, TEST_BASE_PFN, TEST_BASE_PFN + TEST_NFRAMES);
    CHECK_EQ(coremap_alloc(&cm, FRAME_FREE), 0);
    CHECK_EQ(coremap_alloc(&cm, FRAME_RESERVED), 0);
    CHECK_EQ(cm.nfree, TEST_NFRAMES);   /* a refused request takes nothing */
}

static void test_alloc_and_free_reset_fields(void)
{
    struct coremap cm;

    fresh_map(&cm);
    coremap_release(&cm, TEST_BASE_PFN, TEST_BASE_PFN + 2);
    pfn_t pfn = coremap_alloc(&cm, FRAME_USER);
    struct frame *f = coremap_frame(&cm, pfn);
    CHECK_EQ(f->flags, 0);   /* released frames are not known zeroed */
    CHECK(f->owner == NULL);
    CHECK_EQ(f->vpn, 0);

    int owner_token;
    f->owner = &owner_token;
    f->vpn = 0x1234;
    f->flags = FRAME_F_DIRTY | FRAME_F_REFERENCED;
    CHECK_EQ(coremap_free(&cm, pfn), 0);
    CHECK_EQ(f->state, FRAME_FREE);
    CHECK_EQ(f->flags, 0);
    CHECK(f->owner == NULL);
    CHECK_EQ(f->vpn, 0);

    /* a frame comes out with no flags, whatever was set while free */
    CHECK_EQ(coremap_alloc(&cm, FRAME_KERNEL), pfn);
    CHECK_EQ(coremap_free(&cm, pfn), 0);
    f->flags = FRAME_F_DIRTY;
    CHECK_EQ(coremap_alloc(&cm, FRAME_USER), pfn);
    CHECK_EQ(f->flags, 0);
}

static void test_free_errors(void)
{
    struct coremap cm;
    uint32_t counts[5];

    fresh_map(&cm);
    coremap_release(&cm, TEST_BASE_PFN + 1, TEST_BASE_PFN + TEST_NFRAMES);
    pfn_t pfn = coremap_alloc(&cm, FRAME_USER);
    CHECK_EQ(coremap_free(&cm, pfn), 0);
    CHECK_EQ(coremap_free(&cm, pfn), -1);            /* double free */
    CHECK_EQ(coremap_free(&cm, TEST_BASE_PFN), -1);  /* reserved */
    CHECK_EQ(coremap_free(&cm, TEST_BASE_PFN - 1), -1);
    CHECK_EQ(coremap_free(&cm, TEST_BASE_PFN + TEST_NFRAMES), -1);
    CHECK_EQ(coremap_free(&cm, 0), -1);
    CHECK_EQ(coremap_free(&cm, UINT64_MAX), -1);
    CHECK(coremap_frame(&cm, TEST_BASE_PFN - 1) == NULL);
    CHECK(coremap_frame(&cm, TEST_BASE_PFN + TEST_NFRAMES) == NULL);
    CHECK(coremap_frame(&cm, TEST_BASE_PFN + TEST_NFRAMES - 1) == &records[TEST_NFRAMES - 1]);

    pfn_t pinned = coremap_alloc(&cm, FRAME_USER);
    coremap_frame(&cm, pinned)->pins = 1;
    CHECK_EQ(coremap_free(&cm, pinned), -1);
    CHECK_EQ(coremap_frame(&cm, pinned)->state, FRAME_USER);  /* refused: untouched */
    coremap_frame(&cm, pinned)->pins = 0;
    CHECK_EQ(coremap_free(&cm, pinned), 0);

    /* none of the refused frees damaged the list */
    CHECK_EQ(coremap_check(&cm, counts), 0);
    CHECK_EQ(counts[FRAME_FREE], TEST_NFRAMES - 1);
    CHECK_EQ(counts[FRAME_RESERVED], 1);
}

static void test_check_counts_states(void)
{
    struct coremap cm;
    uint32_t counts[5];

    fresh_map(&cm);
    coremap_release(&cm, TEST_BASE_PFN + 2, TEST_BASE_PFN + TEST_NFRAMES);
    coremap_alloc(&cm, FRAME_KERNEL);
    coremap_alloc(&cm, FRAME_PAGETABLE);
    coremap_alloc(&cm, FRAME_PAGETABLE);
    coremap_alloc(&cm, FRAME_USER);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    CHECK_EQ(counts[FRAME_RESERVED], 2);
    CHECK_EQ(counts[FRAME_FREE], TEST_NFRAMES - 2 - 4);
    CHECK_EQ(counts[FRAME_KERNEL], 1);
    CHECK_EQ(counts[FRAME_PAGETABLE], 2);
    CHECK_EQ(counts[FRAME_USER], 1);
}

/* A map with 8 free frames, for the corruption tests. */
static void corruptible_map(struct coremap *cm)
{
    fresh_map(cm);
    coremap_release(cm, TEST_BASE_PFN, TEST_BASE_PFN + 8);
    CHECK_EQ(coremap_check(cm, NULL), 0);
}

static void test_check_detects_corruption(void)
{
    struct coremap cm;
    uint32_t counts[5];

    /* a cycle: the last free frame points back to the head */
    corruptible_map(&cm);
    records[7].next = cm.free_head;
    CHECK_EQ(coremap_check(&cm, counts), -1);

    /* a cycle that skips frames: head -> 1 -> 0 -> 1 ... */
    corruptible_map(&cm);
    records[1].next = 0;
    CHECK_EQ(coremap_check(&cm, counts), -1);

    /* a FREE frame that is not on the list */
    corruptible_map(&cm);
    records[10].state = FRAME_FREE;
    CHECK_EQ(coremap_check(&cm, counts), -1);

    /* the same, with nfree bumped so the counts agree */
    corruptible_map(&cm);
    records[10].state = FRAME_FREE;
    cm.nfree++;
    CHECK_EQ(coremap_check(&cm, counts), -1);

    /* an allocated frame still on the list */
    corruptible_map(&cm);
    records[3].state = FRAME_USER;
    CHECK_EQ(coremap_check(&cm, counts), -1);

    /* a link out of the map */
    corruptible_map(&cm);
    records[7].next = TEST_NFRAMES + 3;
    CHECK_EQ(coremap_check(&cm, counts), -1);

    /* nfree disagreeing with the frames */
    corruptible_map(&cm);
    cm.nfree--;
    CHECK_EQ(coremap_check(&cm, counts), -1);

    /* a state that does not exist */
    corruptible_map(&cm);
    records[12].state = 9;
    CHECK_EQ(coremap_check(&cm, counts), -1);
}

/* Water marks: one WATER_LOW when free frames fall to the low mark, one
 * WATER_HIGH when they are back at the high mark, nothing in between
 * however often the count crosses low again (hysteresis), and nothing
 * at all while no marks are set. */
static void test_water_marks(void)
{
    struct coremap cm;
    pfn_t taken[TEST_NFRAMES];

    fresh_map(&cm);
    coremap_release(&cm, TEST_BASE_PFN, TEST_BASE_PFN + TEST_NFRAMES);
    /* No marks: even exhausting memory reports nothing. */
    for (uint32_t i = 0; i < TEST_NFRAMES; i++) {
        taken[i] = coremap_alloc(&cm, FRAME_USER);
        CHECK_EQ(coremap_water(&cm), WATER_NONE);
    }
    for (uint32_t i = 0; i < TEST_NFRAMES; i++)
        CHECK_EQ(coremap_free(&cm, taken[i]), 0);

    coremap_set_water(&cm, 4, 8);
    int lows = 0, highs = 0;
    /* Down to 4 free: the 12th allocation reaches the low mark. */
    for (uint32_t i = 0; i < 12; i++) {
        taken[i] = coremap_alloc(&cm, FRAME_USER);
        enum water_event ev = coremap_water(&cm);
        if (ev == WATER_LOW) {
            lows++;
            CHECK_EQ(cm.nfree, 4);
        }
        CHECK(ev != WATER_HIGH);
    }
    CHECK_EQ(lows, 1);
    /* Up to 7 and down to 3 again: still the same shortage. */
    for (uint32_t i = 11; i >= 9; i--) {
        CHECK_EQ(coremap_free(&cm, taken[i]), 0);
        CHECK_EQ(coremap_water(&cm), WATER_NONE);
    }
    for (uint32_t i = 9; i < 13; i++) {
        taken[i] = coremap_alloc(&cm, FRAME_USER);
        CHECK_EQ(coremap_water(&cm), WATER_NONE);
    }
    /* Back to 8 free: over, once. */
    for (uint32_t i = 12; i >= 8; i--) {
        CHECK_EQ(coremap_free(&cm, taken[i]), 0);
        enum water_event ev = coremap_water(&cm);
        if (ev == WATER_HIGH) {
            highs++;
            CHECK_EQ(cm.nfree, 8);
        }
        CHECK(ev != WATER_LOW);
    }
    CHECK_EQ(highs, 1);
    /* A high mark at or below the low one is moved above it. */
    coremap_set_water(&cm, 6, 3);
    CHECK_EQ(cm.high_water, 7);
}

/* pc=daemon's pre-zeroing: frames taken off to be zeroed stay counted
 * free, come back on the zeroed list, and go first only to whoever asks
 * for a zeroed frame; a plain allocation takes them only when nothing
 * else is left. */
static void test_zeroed_list(void)
{
    struct coremap cm;
    uint32_t counts[5];

    fresh_map(&cm);
    coremap_release(&cm, TEST_BASE_PFN, TEST_BASE_PFN + 4);
    pfn_t z = coremap_take_unzeroed(&cm);
    CHECK_EQ(z, TEST_BASE_PFN);
    CHECK_EQ(cm.nfree, 4);
    CHECK(coremap_check(&cm, counts) != 0);      /* off every list: not consistent */
    coremap_put_zeroed(&cm, z);
    CHECK_EQ(cm.nzero, 1);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    CHECK_EQ(counts[FRAME_FREE], 4);

    /* Plain allocations leave the zeroed frame for last. */
    pfn_t a = coremap_alloc(&cm, FRAME_USER);
    CHECK(a != z);
    CHECK_EQ(records[a - TEST_BASE_PFN].flags & FRAME_F_ZEROED, 0);
    /* A zeroed one first, marked so. */
    pfn_t b = coremap_alloc_zeroed(&cm, FRAME_USER);
    CHECK_EQ(b, z);
    CHECK(records[b - TEST_BASE_PFN].flags & FRAME_F_ZEROED);
    CHECK_EQ(cm.nzero, 0);
    /* None zeroed left: a zeroed-first allocation takes a plain one. */
    pfn_t c = coremap_alloc_zeroed(&cm, FRAME_USER);
    CHECK(c != 0);
    CHECK_EQ(records[c - TEST_BASE_PFN].flags & FRAME_F_ZEROED, 0);
    /* Freed, a zeroed frame is of unknown contents again. */
    CHECK_EQ(coremap_free(&cm, b), 0);
    CHECK_EQ(cm.nzero, 0);
    CHECK_EQ(records[b - TEST_BASE_PFN].flags & FRAME_F_ZEROED, 0);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    /* The last plain frame zeroed: a plain allocation then takes it. */
    pfn_t d = coremap_take_unzeroed(&cm);
    pfn_t e = coremap_take_unzeroed(&cm);
    CHECK(d != 0 && e != 0);
    CHECK_EQ(coremap_take_unzeroed(&cm), 0);
    coremap_put_zeroed(&cm, d);
    coremap_put_zeroed(&cm, e);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    CHECK(coremap_alloc(&cm, FRAME_KERNEL) != 0);
    CHECK_EQ(cm.nzero, 1);
    /* A zeroed frame marked on the plain list is caught. */
    records[d - TEST_BASE_PFN].flags = 0;
    records[e - TEST_BASE_PFN].flags = 0;
    CHECK(coremap_check(&cm, counts) != 0);
}

/* A frame freed as zeroed (a page table left empty) is on the zeroed
 * list, counted free and zeroed, and the next zeroed-first allocation
 * takes it marked so; the errors of a plain free are errors here too. */
static void test_free_zeroed(void)
{
    struct coremap cm;
    uint32_t counts[5];

    fresh_map(&cm);
    coremap_release(&cm, TEST_BASE_PFN, TEST_BASE_PFN + 4);
    pfn_t t = coremap_alloc(&cm, FRAME_PAGETABLE);
    pfn_t u = coremap_alloc(&cm, FRAME_USER);
    CHECK(t != 0 && u != 0);
    CHECK_EQ(cm.nfree, 2);
    CHECK_EQ(coremap_free_zeroed(&cm, t), 0);
    CHECK_EQ(cm.nfree, 3);
    CHECK_EQ(cm.nzero, 1);
    CHECK_EQ(records[t - TEST_BASE_PFN].state, FRAME_FREE);
    CHECK(records[t - TEST_BASE_PFN].flags & FRAME_F_ZEROED);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    CHECK_EQ(counts[FRAME_FREE], 3);
    /* Twice, out of the map, or pinned: refused, nothing changed. */
    CHECK_EQ(coremap_free_zeroed(&cm, t), -1);
    CHECK_EQ(coremap_free_zeroed(&cm, TEST_BASE_PFN + TEST_NFRAMES), -1);
    records[u - TEST_BASE_PFN].pins = 1;
    CHECK_EQ(coremap_free_zeroed(&cm, u), -1);
    records[u - TEST_BASE_PFN].pins = 0;
    CHECK_EQ(cm.nfree, 3);
    CHECK_EQ(cm.nzero, 1);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    /* Plain allocations leave it for last; a zeroed-first one takes it. */
    pfn_t a = coremap_alloc(&cm, FRAME_USER);
    CHECK(a != t);
    pfn_t b = coremap_alloc_zeroed(&cm, FRAME_PAGETABLE);
    CHECK_EQ(b, t);
    CHECK(records[b - TEST_BASE_PFN].flags & FRAME_F_ZEROED);
    CHECK_EQ(cm.nzero, 0);
    CHECK_EQ(coremap_check(&cm, counts), 0);
}

/* coremap_alloc_user: the record written in one go (owner, vpn, the
 * flags asked for, no pins, off the lists), the list it came off
 * reported, the counts kept as coremap_alloc's, and the same order:
 * zeroed first or last as asked, the other list when one is empty. */
static void test_alloc_user(void)
{
    struct coremap cm;
    uint32_t counts[5];
    int owner;
    bool z = true;

    memset(records, 0xa5, sizeof records);
    fresh_map(&cm);
    CHECK_EQ(coremap_alloc_user(&cm, true, &owner, 7, 0, &z), 0);   /* nothing free */
    coremap_release(&cm, TEST_BASE_PFN, TEST_BASE_PFN + 3);
    pfn_t zp = coremap_take_unzeroed(&cm);
    coremap_put_zeroed(&cm, zp);
    CHECK_EQ(cm.nfree, 3);
    CHECK_EQ(cm.nzero, 1);

    pfn_t a = coremap_alloc_user(&cm, false, &owner, 0x123, FRAME_F_DIRTY, &z);
    CHECK(a != 0 && a != zp);
    CHECK(!z);
    struct frame *f = &records[a - TEST_BASE_PFN];
    CHECK_EQ(f->state, FRAME_USER);
    CHECK_EQ(f->flags, FRAME_F_DIRTY);
    CHECK_EQ(f->pins, 0);
    CHECK_EQ(f->next, FRAME_NONE);
    CHECK(f->owner == &owner);
    CHECK_EQ(f->vpn, 0x123);
    CHECK_EQ(cm.nfree, 2);
    CHECK_EQ(cm.nzero, 1);
    CHECK_EQ(coremap_check(&cm, counts), 0);

    pfn_t b = coremap_alloc_user(&cm, true, &owner, 0x124, 0, &z);
    CHECK_EQ(b, zp);
    CHECK(z);
    CHECK_EQ(records[b - TEST_BASE_PFN].flags, 0);   /* ZEROED is reported, not kept */
    CHECK_EQ(cm.nzero, 0);
    CHECK_EQ(cm.nfree, 1);

    /* The zeroed list empty: a zeroed-first allocation takes a plain frame. */
    pfn_t c = coremap_alloc_user(&cm, true, &owner, 0x125, 0, &z);
    CHECK(c != 0 && c != a && c != b);
    CHECK(!z);
    CHECK_EQ(cm.nfree, 0);
    CHECK_EQ(coremap_alloc_user(&cm, false, &owner, 0x126, 0, &z), 0);
    CHECK_EQ(coremap_check(&cm, counts), 0);
    CHECK_EQ(counts[FRAME_USER], 3);

    /* The plain list empty: a plain-first allocation takes a zeroed frame. */
    CHECK_EQ(coremap_free_zeroed(&cm, b), 0);
    pfn_t d = coremap_alloc_user(&cm, false, &owner, 0x127, 0, &z);
    CHECK_EQ(d, b);
    CHECK(z);
    CHECK_EQ(cm.nzero, 0);
    CHECK_EQ(coremap_check(&cm, counts), 0);
}

int main(void)
{
    test_init_all_reserved();
    test_release_ranges();
    test_pfn_zero_never_handed_out();
    test_alloc_until_exhausted();
    test_alloc_order_and_lifo_reuse();
    test_alloc_rejects_free_and_reserved_states();
    test_alloc_and_free_reset_fields();
    test_free_errors();
    test_check_counts_states();
    test_check_detects_corruption();
    test_water_marks();
    test_zeroed_list();
    test_free_zeroed();
    test_alloc_user();
    return check_summary("coremap");
}
