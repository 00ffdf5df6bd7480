/* Host unit test of the swap-slot bitmap (kernel/mm/swapmap.c). */
#include <stdlib.h>

#include "check.h"
#include "swapmap.h"

#define WORD_BITS     64u
#define MAX_TEST_SLOTS 320u             /* five words: the largest map below */
#define ODD_SLOTS     130u              /* two words and two slots: a partial last word */
#define FRAG_SLOTS    256u
#define FRAG_RUN      32u
#define FRAG_RUNS     (FRAG_SLOTS / FRAG_RUN)
#define GARBAGE       0xa5              /* init must not trust old contents */

static uint64_t bits[SWAPMAP_WORDS(MAX_TEST_SLOTS)];

static void fresh_map(struct swapmap *m, uint32_t nslots)
{
    memset(bits, GARBAGE, sizeof bits);
    swapmap_init(m, bits, nslots);
}

/* The bitmap and counters, to show that a refused call changed nothing. */
struct snapshot {
    uint64_t bits[SWAPMAP_WORDS(MAX_TEST_SLOTS)];
    struct swapmap m;
};

static void take_snapshot(const struct swapmap *m, struct snapshot *s)
{
    memcpy(s->bits, bits, sizeof bits);
    s->m = *m;
}

static bool unchanged(const struct swapmap *m, const struct snapshot *s)
{
    return memcmp(s->bits, bits, sizeof bits) == 0 && s->m.nfree == m->nfree &&
           s->m.hint == m->hint && s->m.nslots == m->nslots;
}

/* true if slots [slot, slot + n) are all in use (want) or all free (!want) */
static bool range_is(const struct swapmap *m, uint32_t slot, uint32_t n, bool want)
{
    for (uint32_t i = slot; i < slot + n; i++)
        if (swapmap_in_use(m, i) != want)
            return false;
    return true;
}

static void test_init(void)
{
    struct swapmap m;
    fresh_map(&m, ODD_SLOTS);
    CHECK_EQ(m.nslots, ODD_SLOTS);
    CHECK_EQ(m.nfree, ODD_SLOTS);
    CHECK_EQ(m.hint, 0);
    CHECK_EQ(bits[0], 0);
    CHECK_EQ(bits[2], 0);                       /* the partial last word too */
    CHECK_EQ(bits[3], UINT64_C(0xa5a5a5a5a5a5a5a5)); /* and nothing past it */
    CHECK(range_is(&m, 0, ODD_SLOTS, false));
    CHECK_EQ(swapmap_largest_free(&m), ODD_SLOTS);
    CHECK_EQ(swapmap_check(&m), 0);
    CHECK(!swapmap_in_use(&m, ODD_SLOTS));      /* out of range is not in use */
    CHECK(!swapmap_in_use(&m, UINT32_MAX));
}

static void test_empty_map(void)
{
    struct swapmap m;
    swapmap_init(&m, NULL, 0);
    CHECK_EQ(swapmap_alloc(&m, 1), SWAP_NONE);
    CHECK_EQ(swapmap_free(&m, 0, 1), -1);
    CHECK_EQ(swapmap_largest_free(&m), 0);
    CHECK_EQ(swapmap_check(&m), 0);
}

static void test_bad_sizes(void)
{
    struct swapmap m;
    fresh_map(&m, ODD_SLOTS);
    CHECK_EQ(swapmap_alloc(&m, 0), SWAP_NONE);
    CHECK_EQ(swapmap_alloc(&m, ODD_SLOTS + 1), SWAP_NONE);
    CHECK_EQ(swapmap_alloc(&m, UINT32_MAX), SWAP_NONE);
    CHECK_EQ(m.nfree, ODD_SLOTS);
    /* the whole map is one extent */
    CHECK_EQ(swapmap_alloc(&m, ODD_SLOTS), 0);
    CHECK_EQ(m.nfree, 0);
    CHECK_EQ(m.hint, 0);                        /* past the end wraps */
    CHECK_EQ(swapmap_check(&m), 0);
}

static void test_exhaustion_single_slots(void)
{
    struct swapmap m;
    fresh_map(&m, ODD_SLOTS);
    for (uint32_t i = 0; i < ODD_SLOTS; i++)
        CHECK_EQ(swapmap_alloc(&m, 1), i);      /* in order: the hint rotates */
    CHECK_EQ(m.nfree, 0);
    CHECK_EQ(swapmap_alloc(&m, 1), SWAP_NONE);
    CHECK_EQ(swapmap_largest_free(&m), 0);
    CHECK_EQ(swapmap_check(&m), 0);
    CHECK_EQ(bits[2], 0x3);                     /* slots 128, 129; padding clear */

    /* one hole: the only slot there is, found across the wrap of the hint */
    CHECK_EQ(swapmap_free(&m, 70, 1), 0);
    CHECK_EQ(swapmap_largest_free(&m), 1);
    CHECK_EQ(swapmap_alloc(&m, 2), SWAP_NONE);
    CHECK_EQ(swapmap_alloc(&m, 1), 70);
    CHECK_EQ(swapmap_alloc(&m, 1), SWAP_NONE);
    CHECK_EQ(swapmap_check(&m), 0);
}

static void test_word_boundaries(void)
{
    struct swapmap m;
    fresh_map(&m, MAX_TEST_SLOTS);
    CHECK_EQ(swapmap_alloc(&m, 60), 0);
    CHECK_EQ(swapmap_alloc(&m, 10), 60);        /* slots 60..69 straddle word 0/1 */
    CHECK(swapmap_in_use(&m, 59));
    CHECK(range_is(&m, 60, 10, true));
    CHECK(!swapmap_in_use(&m, 70));
    CHECK_EQ(bits[0], UINT64_MAX);
    CHECK_EQ(bits[1], 0x3f);
    CHECK_EQ(swapmap_check(&m), 0);

    /* exactly one word, unaligned: 70..133 */
    CHECK_EQ(swapmap_alloc(&m, WORD_BITS), 70);
    CHECK_EQ(bits[1], UINT64_MAX);
    CHECK_EQ(bits[2], 0x3f);
    /* more than two words at once, spanning three: 134..263 */
    CHECK_EQ(swapmap_alloc(&m, 130), 134);
    CHECK(range_is(&m, 134, 130, true));
    CHECK(!swapmap_in_use(&m, 264));
    CHECK_EQ(swapmap_check(&m), 0);

    /* freeing the straddling extent clears both words' parts, and only them */
    CHECK_EQ(swapmap_free(&m, 60, 10), 0);
    CHECK_EQ(bits[0], (UINT64_C(1) << 60) - 1);
    CHECK_EQ(bits[1], ~UINT64_C(0x3f));
    CHECK(range_is(&m, 60, 10, false));
    CHECK(swapmap_in_use(&m, 59));
    CHECK(swapmap_in_use(&m, 70));
    /* a free run ending exactly at a word boundary, and one starting on it */
    CHECK_EQ(swapmap_free(&m, 70, WORD_BITS), 0);
    CHECK_EQ(swapmap_largest_free(&m), 10 + WORD_BITS);
    CHECK_EQ(swapmap_check(&m), 0);
}

static void test_end_of_map(void)
{
    struct swapmap m;

    /* 70 slots: the last word has 6 real slots and 58 padding bits, which
     * look free but must never be handed out */
    fresh_map(&m, 70);
    CHECK_EQ(swapmap_alloc(&m, 65), 0);
    CHECK_EQ(swapmap_alloc(&m, 6), SWAP_NONE);
    CHECK_EQ(swapmap_largest_free(&m), 5);
    CHECK_EQ(swapmap_alloc(&m, 5), 65);
    CHECK_EQ(m.hint, 0);
    CHECK_EQ(bits[1], 0x3f);
    CHECK_EQ(swapmap_check(&m), 0);

    /* a run that fits only at the very end */
    fresh_map(&m, ODD_SLOTS);
    CHECK_EQ(swapmap_alloc(&m, 128), 0);
    CHECK_EQ(swapmap_free(&m, 10, 1), 0);       /* a 1-slot hole that does not fit */
    CHECK_EQ(swapmap_alloc(&m, 3), SWAP_NONE);  /* 2 left at the end */
    CHECK_EQ(swapmap_alloc(&m, 2), 128);
    CHECK(range_is(&m, 128, 2, true));
    CHECK_EQ(swapmap_check(&m), 0);
}

static void test_hint_rotates(void)
{
    struct swapmap m;
    fresh_map(&m, WORD_BITS);
    CHECK_EQ(swapmap_alloc(&m, 10), 0);
    CHECK_EQ(swapmap_alloc(&m, 10), 10);
    CHECK_EQ(m.hint, 20);
    CHECK_EQ(swapmap_free(&m, 0, 10), 0);
    /* next fit: the hole behind the hint waits until the search wraps */
    CHECK_EQ(swapmap_alloc(&m, 5), 20);
    CHECK_EQ(swapmap_alloc(&m, 39), 25);        /* up to the end: hint wraps to 0 */
    CHECK_EQ(m.hint, 0);
    CHECK_EQ(swapmap_alloc(&m, 5), 0);
    CHECK_EQ(swapmap_check(&m), 0);
}

static void test_fragmentation(void)
{
    struct swapmap m;
    fresh_map(&m, FRAG_SLOTS);
    for (uint32_t i = 0; i < FRAG_RUNS; i++)
        CHECK_EQ(swapmap_alloc(&m, FRAG_RUN), i * FRAG_RUN);
    CHECK_EQ(m.hint, 0);
    /* holes of one run at 32, 96, 160 and 224 */
    for (uint32_t i = 1; i < FRAG_RUNS; i += 2)
        CHECK_EQ(swapmap_free(&m, i * FRAG_RUN, FRAG_RUN), 0);
    CHECK_EQ(m.nfree, FRAG_SLOTS / 2);
    CHECK_EQ(swapmap_largest_free(&m), FRAG_RUN);
    /* half the map is free but no hole holds one slot more than a run */
    CHECK_EQ(swapmap_alloc(&m, FRAG_RUN + 1), SWAP_NONE);
    CHECK_EQ(m.nfree, FRAG_SLOTS / 2);
    CHECK_EQ(swapmap_check(&m), 0);

    /* freeing 192..223 joins the last two holes: 160..255, at the end */
    CHECK_EQ(swapmap_free(&m, 6 * FRAG_RUN, FRAG_RUN), 0);
    CHECK_EQ(swapmap_largest_free(&m), 3 * FRAG_RUN);
    CHECK_EQ(swapmap_alloc(&m, 2 * FRAG_RUN), 5 * FRAG_RUN);
    CHECK_EQ(m.hint, 7 * FRAG_RUN);
    /* small requests go on from the hint, then wrap to the first hole */
    CHECK_EQ(swapmap_alloc(&m, FRAG_RUN / 2), 7 * FRAG_RUN);
    CHECK_EQ(swapmap_alloc(&m, FRAG_RUN / 2), 7 * FRAG_RUN + FRAG_RUN / 2);
    CHECK_EQ(m.hint, 0);
    CHECK_EQ(swapmap_alloc(&m, FRAG_RUN / 2), FRAG_RUN);
    CHECK_EQ(swapmap_largest_free(&m), FRAG_RUN);
    CHECK_EQ(swapmap_check(&m), 0);
}

/* The hint lies inside a free run that is too short from the hint on but
 * long enough from its real start: the search wraps and finds the run that
 * starts before the hint and crosses it. */
static void test_run_across_hint(void)
{
    struct swapmap m;
    fresh_map(&m, FRAG_SLOTS);
    CHECK_EQ(swapmap_alloc(&m, FRAG_SLOTS), 0);
    CHECK_EQ(swapmap_free(&m, 100, 40), 0);     /* hole 100..139 */
    CHECK_EQ(swapmap_alloc(&m, 20), 100);
    CHECK_EQ(m.hint, 120);
    CHECK_EQ(swapmap_free(&m, 100, 20), 0);     /* hole 100..139 again, hint at 120 */
    CHECK_EQ(swapmap_alloc(&m, 30), 100);
    CHECK_EQ(m.hint, 130);
    CHECK(range_is(&m, 130, 10, false));
    CHECK_EQ(swapmap_alloc(&m, 11), SWAP_NONE);
    CHECK_EQ(swapmap_alloc(&m, 10), 130);
    CHECK_EQ(m.nfree, 0);
    CHECK_EQ(swapmap_check(&m), 0);
}

static void test_free_validation(void)
{
    struct swapmap m;
    struct snapshot s;
    fresh_map(&m, ODD_SLOTS);
    CHECK_EQ(swapmap_alloc(&m, 10), 0);
    CHECK_EQ(swapmap_alloc(&m, 10), 10);
    CHECK_EQ(swapmap_alloc(&m, 100), 20);       /* 0..119 used, 120..129 free */
    take_snapshot(&m, &s);

    CHECK_EQ(swapmap_free(&m, ODD_SLOTS, 1), -1);       /* starts past the end */
    CHECK_EQ(swapmap_free(&m, UINT32_MAX, 1), -1);
    CHECK_EQ(swapmap_free(&m, 115, 20), -1);            /* runs past the end */
    CHECK_EQ(swapmap_free(&m, 5, UINT32_MAX), -1);      /* slot + n overflows */
    CHECK_EQ(swapmap_free(&m, 5, 0), -1);               /* no 0-slot extent exists */
    CHECK_EQ(swapmap_free(&m, 125, 1), -1);             /* never allocated */
    CHECK_EQ(swapmap_free(&m, 110, 11), -1);            /* last slot free: none freed */
    CHECK(unchanged(&m, &s));

    /* double free, whole and partial */
    CHECK_EQ(swapmap_free(&m, 10, 10), 0);
    take_snapshot(&m, &s);
    CHECK_EQ(swapmap_free(&m, 10, 10), -1);
    CHECK_EQ(swapmap_free(&m, 5, 10), -1);              /* first half used, second free */
    CHECK_EQ(swapmap_free(&m, 19, 2), -1);              /* free slot 19, used slot 20 */
    CHECK(unchanged(&m, &s));
    CHECK(range_is(&m, 0, 10, true));
    CHECK(range_is(&m, 20, 100, true));
    CHECK_EQ(m.nfree, 20);
    CHECK_EQ(swapmap_check(&m), 0);

    /* freeing part of an extent is allowed: slots, not extents, are tracked */
    CHECK_EQ(swapmap_free(&m, 60, 4), 0);
    CHECK(range_is(&m, 60, 4, false));
    CHECK(swapmap_in_use(&m, 59));
    CHECK(swapmap_in_use(&m, 64));
    CHECK_EQ(swapmap_check(&m), 0);

    /* one slot (its own short path): the first slot of a word and the
     * slot below the freed 60..63 go alone, their used neighbours stay; a
     * second free of either is refused and changes nothing */
    CHECK_EQ(swapmap_free(&m, WORD_BITS, 1), 0);
    CHECK_EQ(swapmap_free(&m, 59, 1), 0);
    CHECK(range_is(&m, 59, WORD_BITS + 1 - 59, false));
    CHECK(swapmap_in_use(&m, 58));
    CHECK(swapmap_in_use(&m, WORD_BITS + 1));
    CHECK_EQ(m.nfree, 26);
    take_snapshot(&m, &s);
    CHECK_EQ(swapmap_free(&m, WORD_BITS, 1), -1);
    CHECK_EQ(swapmap_free(&m, 59, 1), -1);
    CHECK(unchanged(&m, &s));
    CHECK_EQ(swapmap_check(&m), 0);
}

static void test_largest_free(void)
{
    struct swapmap m;
    fresh_map(&m, MAX_TEST_SLOTS);
    CHECK_EQ(swapmap_largest_free(&m), MAX_TEST_SLOTS);
    CHECK_EQ(swapmap_alloc(&m, MAX_TEST_SLOTS), 0);
    CHECK_EQ(swapmap_largest_free(&m), 0);
    CHECK_EQ(swapmap_free(&m, 3, 1), 0);
    CHECK_EQ(swapmap_largest_free(&m), 1);
    CHECK_EQ(swapmap_free(&m, 100, 90), 0);     /* across words 1..2 */
    CHECK_EQ(swapmap_free(&m, 10, 20), 0);
    CHECK_EQ(swapmap_largest_free(&m), 90);
    CHECK_EQ(swapmap_free(&m, 300, 20), 0);     /* the last run of the map */
    CHECK_EQ(swapmap_largest_free(&m), 90);
    CHECK_EQ(swapmap_free(&m, 200, 100), 0);    /* joins 300..319: 200..319 */
    CHECK_EQ(swapmap_largest_free(&m), 120);
    CHECK_EQ(swapmap_free(&m, 190, 10), 0);     /* joins the two: 100..319 */
    CHECK_EQ(swapmap_largest_free(&m), 220);
    CHECK_EQ(swapmap_check(&m), 0);
}

static void test_check_finds_damage(void)
{
    struct swapmap m;
    fresh_map(&m, ODD_SLOTS);
    CHECK_EQ(swapmap_alloc(&m, 7), 0);
    CHECK_EQ(swapmap_check(&m), 0);

    m.nfree++;                                  /* count disagrees with the bits */
    CHECK_EQ(swapmap_check(&m), -1);
    m.nfree--;

    bits[1] |= UINT64_C(1) << 5;                /* a bit set behind the count's back */
    CHECK_EQ(swapmap_check(&m), -1);
    bits[1] &= ~(UINT64_C(1) << 5);

    bits[2] |= UINT64_C(1) << 2;                /* slot 130: padding, not a slot */
    m.nfree--;                                  /* even with the count "agreeing" */
    CHECK_EQ(swapmap_check(&m), -1);
    bits[2] &= ~(UINT64_C(1) << 2);
    m.nfree++;

    m.hint = ODD_SLOTS;
    CHECK_EQ(swapmap_check(&m), -1);
    m.hint = 0;
    CHECK_EQ(swapmap_check(&m), 0);
}

/* ---------------------------------------------------------------- model */

/* A slot-by-slot reference allocator with the same contract, to compare
 * against over a long pseudo-random run. */
struct model {
    bool used[MAX_TEST_SLOTS];
    uint32_t nslots, nfree, hint;
};

static bool model_fits(const struct model *md, uint32_t start, uint32_t n)
{
    if (start + n > md->nslots)
        return false;
    for (uint32_t i = start; i < start + n; i++)
        if (md->used[i])
            return false;
    return true;
}

static uint32_t model_alloc(struct model *md, uint32_t n)
{
    if (n == 0 || n > md->nfree)
        return SWAP_NONE;
    for (uint32_t k = 0; k < md->nslots; k++) {
        uint32_t start = (md->hint + k) % md->nslots;
        if (!model_fits(md, start, n))
            continue;
        for (uint32_t i = start; i < start + n; i++)
            md->used[i] = true;
        md->nfree -= n;
        md->hint = start + n == md->nslots ? 0 : start + n;
        return start;
    }
    return SWAP_NONE;
}

static int model_free(struct model *md, uint32_t slot, uint32_t n)
{
    if (n == 0 || (uint64_t)slot + n > md->nslots)
        return -1;
    for (uint32_t i = slot; i < slot + n; i++)
        if (!md->used[i])
            return -1;
    for (uint32_t i = slot; i < slot + n; i++)
        md->used[i] = false;
    md->nfree += n;
    return 0;
}

static uint32_t model_largest(const struct model *md)
{
    uint32_t best = 0, run = 0;
    for (uint32_t i = 0; i < md->nslots; i++) {
        run = md->used[i] ? 0 : run + 1;
        best = run > best ? run : best;
    }
    return best;
}

#define RANDOM_STEPS   20000
#define RANDOM_SEED    12345u
#define LCG_MUL        6364136223846793005ULL   /* Knuth's MMIX constants */
#define LCG_ADD        1442695040888963407ULL
#define LCG_SHIFT      33
#define RANDOM_MAX_RUN 24u                       /* most requests small, some long */
#define RANDOM_LONG    97u
#define RANDOM_LONG_ODDS 8u                      /* one request in 8 may be long */

static uint64_t lcg_state;

static uint32_t random_below(uint32_t bound)
{
    lcg_state = lcg_state * LCG_MUL + LCG_ADD;
    return (uint32_t)((lcg_state >> LCG_SHIFT) % bound);
}

static void random_against_model(uint32_t nslots)
{
    struct swapmap m;
    struct model md = { .nslots = nslots, .nfree = nslots };
    int mismatches = 0;

    fresh_map(&m, nslots);
    lcg_state = RANDOM_SEED + nslots;
    for (int step = 0; step < RANDOM_STEPS && mismatches == 0; step++) {
        if (random_below(2) == 0) {
            uint32_t n = random_below(RANDOM_LONG_ODDS) == 0 ? random_below(RANDOM_LONG)
                                                             : random_below(RANDOM_MAX_RUN);
            uint32_t want = model_alloc(&md, n);
            uint32_t got = swapmap_alloc(&m, n);
            if (got != want) {
                fprintf(stderr, "step %d (%u slots): alloc(%u) = %u, model %u\n",
                        step, nslots, n, got, want);
                mismatches++;
            }
        } else {
            /* random ranges: mostly refused, sometimes a real extent */
            uint32_t slot = random_below(nslots + 2);
            uint32_t n = random_below(RANDOM_MAX_RUN);
            int want = model_free(&md, slot, n);
            int got = swapmap_free(&m, slot, n);
            if (got != want) {
                fprintf(stderr, "step %d (%u slots): free(%u, %u) = %d, model %d\n",
                        step, nslots, slot, n, got, want);
                mismatches++;
            }
        }
        if (m.nfree != md.nfree || m.hint != md.hint ||
            swapmap_largest_free(&m) != model_largest(&md) || swapmap_check(&m) != 0) {
            fprintf(stderr, "step %d (%u slots): state differs from the model\n", step, nslots);
            mismatches++;
        }
    }
    for (uint32_t i = 0; i < nslots; i++)
        if (swapmap_in_use(&m, i) != md.used[i])
            mismatches++;
    CHECK_EQ(mismatches, 0);
}

static void test_random(void)
{
    static const uint32_t sizes[] = { 1, 63, 64, 65, ODD_SLOTS, 200, MAX_TEST_SLOTS };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        random_against_model(sizes[i]);
}

int main(void)
{
    test_init();
    test_empty_map();
    test_bad_sizes();
    test_exhaustion_single_slots();
    test_word_boundaries();
    test_end_of_map();
    test_hint_rotates();
    test_fragmentation();
    test_run_across_hint();
    test_free_validation();
    test_largest_free();
    test_check_finds_damage();
    test_random();
    return check_summary("swapmap");
}
