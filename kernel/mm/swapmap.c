/*
 * The swap-slot map: a bitmap of the swap space's page slots, contiguous
 * extents handed out first fit from a rotating hint (the locking and the
 * I/O are swapspace.c's).
 *
 * Layout invariant: bit i of word i / 64 is slot i, 1 = in use, and the
 * padding bits of the last word (slots >= nslots) are always 0. Keeping the
 * padding clear means the count of set bits is exactly the slots in use;
 * every search is bounded by nslots so the padding is never handed out.
 *
 * All searches go a word at a time: a full word (no free slot) or an empty
 * word (no used slot) is passed over with one compare, so a mostly-full
 * map of a few thousand slots costs a few dozen loads, not thousands.
 *
 * Pure algorithm, compiled both into the kernel and into the host tests.
 */
#include "swapmap.h"

#define WORD_BITS      64u
#define WORD_ALL_USED  UINT64_MAX

/* SWAP_NONE doubles as "no slot" in results, so it cannot be a slot index. */
#define SWAPMAP_MAX_SLOTS (SWAP_NONE - 1u)

static inline uint64_t word_of(uint64_t slot) { return slot / WORD_BITS; }
static inline unsigned bit_of(uint64_t slot) { return (unsigned)(slot % WORD_BITS); }

/* Bits bit..63 of a word. */
static inline uint64_t mask_from(unsigned bit)
{
    return WORD_ALL_USED << bit;
}

/* Bits 0..bit-1 of a word; bit == WORD_BITS means the whole word (a shift
 * by 64 would be undefined). */
static inline uint64_t mask_below(unsigned bit)
{
    return bit >= WORD_BITS ? WORD_ALL_USED : ((uint64_t)1 << bit) - 1;
}

/* Index of the lowest set bit of x (x != 0). Written out because the
 * compiler builtin becomes a libgcc call, and the kernel's libgcc is built
 * for another float ABI; six halving steps cost little next to a word scan. */
static unsigned lowest_set_bit(uint64_t x)
{
    unsigned index = 0;
    for (unsigned half = WORD_BITS / 2; half > 0; half /= 2) {
        if ((x & mask_below(half)) == 0) {
            index += half;
            x >>= half;
        }
    }
    return index;
}

/* Set bits in x; each step clears the lowest one (used only by the check). */
static unsigned count_set_bits(uint64_t x)
{
    unsigned count = 0;
    for (; x != 0; x &= x - 1)
        count++;
    return count;
}

/* Bits of word `w` that lie in slots [lo, hi), with lo < hi. */
static uint64_t range_mask(uint64_t w, uint64_t lo, uint64_t hi)
{
    uint64_t first = w * WORD_BITS;
    uint64_t from = lo > first ? lo - first : 0;
    uint64_t to = hi - first < WORD_BITS ? hi - first : WORD_BITS;
    return mask_from((unsigned)from) & mask_below((unsigned)to);
}

/* The first free slot in [from, limit), or limit if there is none.
 * limit <= nslots. */
static uint64_t next_free(const struct swapmap *m, uint64_t from, uint64_t limit)
{
    uint64_t w = word_of(from);
    if (from >= limit)
        return limit;
    uint64_t free_bits = ~m->bits[w] & mask_from(bit_of(from));
    uint64_t last = word_of(limit - 1);
    while (free_bits == 0) {
        if (++w > last)
            return limit;
        free_bits = ~m->bits[w];
    }
    uint64_t slot = w * WORD_BITS + lowest_set_bit(free_bits);
    return slot < limit ? slot : limit;
}

/* The first used slot in [from, limit), or limit if there is none.
 * limit <= nslots, and padding bits are clear, so they never count. */
static uint64_t next_used(const struct swapmap *m, uint64_t from, uint64_t limit)
{
    uint64_t w = word_of(from);
    if (from >= limit)
        return limit;
    uint64_t used_bits = m->bits[w] & mask_from(bit_of(from));
    uint64_t last = word_of(limit - 1);
    while (used_bits == 0) {
        if (++w > last)
            return limit;
        used_bits = m->bits[w];
    }
    uint64_t slot = w * WORD_BITS + lowest_set_bit(used_bits);
    return slot < limit ? slot : limit;
}

/* First fit: the lowest start in [from, start_limit) of n free slots that
 * also end inside the map, or SWAP_NONE. A run may extend past
 * start_limit; only its first slot is bounded. */
static uint32_t find_run(const struct swapmap *m, uint64_t from, uint64_t start_limit, uint32_t n)
{
    uint64_t p = from;
    while (p < start_limit) {
        p = next_free(m, p, start_limit);
        if (p >= start_limit || n > m->nslots - p)
            return SWAP_NONE;
        uint64_t used = next_used(m, p, p + n);
        if (used == p + n)
            return (uint32_t)p;
        /* nothing starting at or before `used` can hold the run */
        p = used + 1;
    }
    return SWAP_NONE;
}

/* Sets (used = true) or clears the bits of [slot, slot + n). */
static void mark(struct swapmap *m, uint64_t slot, uint64_t n, bool used)
{
    uint64_t end = slot + n;
    for (uint64_t w = word_of(slot); w <= word_of(end - 1); w++) {
        uint64_t mask = range_mask(w, slot, end);
        if (used)
            m->bits[w] |= mask;
        else
            m->bits[w] &= ~mask;
    }
}

/* true if every slot of [slot, slot + n) is in use (n > 0, range valid). */
static bool all_used(const struct swapmap *m, uint64_t slot, uint64_t n)
{
    uint64_t end = slot + n;
    for (uint64_t w = word_of(slot); w <= word_of(end - 1); w++) {
        uint64_t mask = range_mask(w, slot, end);
        if ((m->bits[w] & mask) != mask)
            return false;
    }
    return true;
}

void swapmap_init(struct swapmap *m, uint64_t *bits, uint32_t nslots)
{
    if (nslots > SWAPMAP_MAX_SLOTS)
        nslots = SWAPMAP_MAX_SLOTS;
    m->bits = bits;
    m->nslots = nslots;
    m->nfree = nslots;
    m->hint = 0;
    for (uint64_t w = 0; w < SWAPMAP_WORDS((uint64_t)nslots); w++)
        bits[w] = 0;
}

uint32_t swapmap_alloc(struct swapmap *m, uint32_t n)
{
    if (n == 0 || n > m->nfree)
        return SWAP_NONE;
    uint32_t hint = m->hint < m->nslots ? m->hint : 0;
    /* From the hint to the end, then the runs that start before the hint
     * (a run cannot wrap: the device's last slot is not next to its first). */
    uint32_t slot = find_run(m, hint, m->nslots, n);
    if (slot == SWAP_NONE)
        slot = find_run(m, 0, hint, n);
    if (slot == SWAP_NONE)
        return SWAP_NONE;

    mark(m, slot, n, true);
    m->nfree -= n;
    /* The next search starts past this extent, so consecutive allocations
     * lie in order on the device and freed holes behind the hint are left
     * to merge with their neighbours for a while. */
    uint64_t next = (uint64_t)slot + n;
    m->hint = next >= m->nslots ? 0 : (uint32_t)next;
    return slot;
}

int swapmap_free(struct swapmap *m, uint32_t slot, uint32_t n)
{
    /* n == 0 is refused: no extent of 0 slots is ever allocated, so it is
     * a caller bug like any other bad free. */
    if (n == 0 || slot >= m->nslots || n > m->nslots - slot)
        return -1;
    if (n == 1) {
        /* One slot, a page-in's: one bit, without the extent's masks. */
        uint64_t bit = (uint64_t)1 << bit_of(slot);
        if (!(m->bits[word_of(slot)] & bit))
            return -1;
        m->bits[word_of(slot)] &= ~bit;
        m->nfree++;
        return 0;
    }
    /* validate the whole extent before touching any of it */
    if (!all_used(m, slot, n))
        return -1;
    mark(m, slot, n, false);
    m->nfree += n;
    return 0;
}

bool swapmap_in_use(const struct swapmap *m, uint32_t slot)
{
    if (slot >= m->nslots)
        return false;
    return (m->bits[word_of(slot)] >> bit_of(slot)) & 1;
}

uint32_t swapmap_largest_free(const struct swapmap *m)
{
    uint64_t best = 0;
    uint64_t p = 0;
    while (p < m->nslots) {
        uint64_t start = next_free(m, p, m->nslots);
        if (start >= m->nslots)
            break;
        uint64_t end = next_used(m, start, m->nslots);
        if (end - start > best)
            best = end - start;
        p = end;
    }
    return (uint32_t)best;
}

int swapmap_check(const struct swapmap *m)
{
    uint64_t nwords = SWAPMAP_WORDS((uint64_t)m->nslots);
    uint64_t used = 0;
    if (m->nslots > SWAPMAP_MAX_SLOTS || m->nfree > m->nslots)
        return -1;
    if (m->nslots > 0 && m->hint >= m->nslots)
        return -1;
    for (uint64_t w = 0; w < nwords; w++)
        used += count_set_bits(m->bits[w]);
    /* padding bits past the last slot must stay clear (see the top) */
    if (nwords > 0 && bit_of(m->nslots) != 0 &&
        (m->bits[nwords - 1] & mask_from(bit_of(m->nslots))) != 0)
        return -1;
    return used + m->nfree == m->nslots ? 0 : -1;
}
