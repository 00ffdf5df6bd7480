/*
 * The core map algorithm: frame records and the LIFO free list.
 *
 * The free list is threaded through frame.next by index. Errors that mean
 * a caller bug (double free, freeing a reserved or pinned frame) are
 * reported, not repaired: the wrapper in frame.c panics with the pfn, which
 * is far easier to debug than a corrupted list found much later.
 */
#include "coremap.h"
#include "kstring.h"

#define COREMAP_STATES (FRAME_USER + 1)   /* size of coremap_check's counts[] */
_Static_assert(COREMAP_STATES == 5, "coremap_check's counts[5] needs one slot per frame state");

static void frame_reset(struct frame *f, enum frame_state state)
{
    f->state = (uint8_t)state;
    f->flags = 0;
    f->pins = 0;
    f->next = FRAME_NONE;
    f->owner = NULL;
    f->vpn = 0;
}

/* Index of pfn in the map, or FRAME_NONE if outside it. */
static uint32_t frame_index(const struct coremap *cm, pfn_t pfn)
{
    if (pfn < cm->base_pfn || pfn - cm->base_pfn >= cm->nframes)
        return FRAME_NONE;
    return (uint32_t)(pfn - cm->base_pfn);
}

static void push_free(struct coremap *cm, uint32_t idx)
{
    cm->frames[idx].next = cm->free_head;
    cm->free_head = idx;
    cm->nfree++;
}

void coremap_init(struct coremap *cm, struct frame *records, pfn_t base_pfn, uint32_t nframes)
{
    /* FRAME_NONE doubles as the end-of-list marker, so it cannot be an index */
    if (nframes == FRAME_NONE)
        nframes--;
    cm->frames = records;
    cm->base_pfn = base_pfn;
    cm->nframes = nframes;
    cm->free_head = cm->zero_head = FRAME_NONE;
    cm->nfree = cm->nzero = 0;
    cm->nmanaged = 0;
    cm->low_water = cm->high_water = 0;
    cm->below_low = false;
    for (uint32_t i = 0; i < nframes; i++)
        frame_reset(&records[i], FRAME_RESERVED);
}

uint32_t coremap_release(struct coremap *cm, pfn_t pfn_lo, pfn_t pfn_hi)
{
    pfn_t map_end = cm->base_pfn + cm->nframes;
    pfn_t lo = MAX(pfn_lo, cm->base_pfn);
    pfn_t hi = MIN(pfn_hi, map_end);
    uint32_t released = 0;

    /* pfn 0 is the allocator's "none", so it must never be handed out */
    if (lo == 0)
        lo = 1;
    /* Pushed from the top down so that the lowest frame of the range is
     * allocated first: allocations from one released range then come out
     * in address order, which makes dumps easier to read. */
    for (pfn_t pfn = hi; pfn > lo; pfn--) {
        uint32_t idx = (uint32_t)(pfn - 1 - cm->base_pfn);
        if (cm->frames[idx].state != FRAME_RESERVED)
            continue;
        frame_reset(&cm->frames[idx], FRAME_FREE);
        push_free(cm, idx);
        released++;
    }
    cm->nmanaged += released;
    return released;
}

void coremap_set_water(struct coremap *cm, uint32_t low, uint32_t high)
{
    cm->low_water = low;
    cm->high_water = high > low ? high : low + 1;
    cm->below_low = false;
}

/* Pops the head of one of the lists; FRAME_NONE if it is empty. */
static uint32_t pop(struct coremap *cm, bool zeroed)
{
    uint32_t *head = zeroed ? &cm->zero_head : &cm->free_head;
    uint32_t idx = *head;
    if (idx == FRAME_NONE)
        return FRAME_NONE;
    *head = cm->frames[idx].next;
    cm->frames[idx].next = FRAME_NONE;
    cm->nfree--;
    if (zeroed)
        cm->nzero--;
    return idx;
}

static pfn_t alloc_from(struct coremap *cm, enum frame_state state, bool zeroed_first)
{
    if (state == FRAME_FREE || state == FRAME_RESERVED || state >= COREMAP_STATES)
        return 0;
    bool zeroed = zeroed_first;
    uint32_t idx = pop(cm, zeroed);
    if (idx == FRAME_NONE) {
        zeroed = !zeroed;
        idx = pop(cm, zeroed);
    }
    if (idx == FRAME_NONE)
        return 0;
    struct frame *f = &cm->frames[idx];
    frame_reset(f, state);
    if (zeroed)
        f->flags = FRAME_F_ZEROED;
    return cm->base_pfn + idx;
}

pfn_t coremap_alloc(struct coremap *cm, enum frame_state state)
{
    return alloc_from(cm, state, false);
}

pfn_t coremap_alloc_zeroed(struct coremap *cm, enum frame_state state)
{
    return alloc_from(cm, state, true);
}

pfn_t coremap_take_unzeroed(struct coremap *cm)
{
    uint32_t idx = pop(cm, false);
    if (idx == FRAME_NONE)
        return 0;
    cm->nfree++;              /* still free, only off the list while zeroed */
    return cm->base_pfn + idx;
}

void coremap_put_zeroed(struct coremap *cm, pfn_t pfn)
{
    uint32_t idx = frame_index(cm, pfn);
    struct frame *f = &cm->frames[idx];
    f->flags = FRAME_F_ZEROED;
    f->next = cm->zero_head;
    cm->zero_head = idx;
    cm->nzero++;
}

/* The record of an allocated, unpinned frame reset to FREE; FRAME_NONE if
 * pfn is not one. */
static uint32_t release_one(struct coremap *cm, pfn_t pfn)
{
    uint32_t idx = frame_index(cm, pfn);
    if (idx == FRAME_NONE)
        return FRAME_NONE;
    struct frame *f = &cm->frames[idx];
    if (f->state == FRAME_FREE || f->state == FRAME_RESERVED || f->pins > 0)
        return FRAME_NONE;
    frame_reset(f, FRAME_FREE);
    return idx;
}

int coremap_free(struct coremap *cm, pfn_t pfn)
{
    uint32_t idx = release_one(cm, pfn);
    if (idx == FRAME_NONE)
        return -1;
    /* contents unknown from here on: only the caller may vouch for zeros */
    push_free(cm, idx);
    return 0;
}

int coremap_free_zeroed(struct coremap *cm, pfn_t pfn)
{
    uint32_t idx = release_one(cm, pfn);
    if (idx == FRAME_NONE)
        return -1;
    cm->nfree++;
    coremap_put_zeroed(cm, pfn);
    return 0;
}

static int count_states(const struct coremap *cm, uint32_t counts[COREMAP_STATES])
{
    memset(counts, 0, COREMAP_STATES * sizeof counts[0]);
    for (uint32_t i = 0; i < cm->nframes; i++) {
        uint8_t state = cm->frames[i].state;
        if (state >= COREMAP_STATES)
            return -1;
        counts[state]++;
    }
    return 0;
}

/* Walks one free list. Every entry must be a FREE frame, marked zeroed
 * exactly when the list is the zeroed one; a list that is longer than the
 * number of FREE frames must visit one twice, and since links are
 * followed deterministically that means a cycle. Returns the entries, or
 * -1. */
static int64_t walk_free_list(const struct coremap *cm, uint32_t head, bool zeroed,
                              uint32_t nfree_frames)
{
    uint32_t steps = 0;
    for (uint32_t idx = head; idx != FRAME_NONE; idx = cm->frames[idx].next) {
        if (idx >= cm->nframes || cm->frames[idx].state != FRAME_FREE)
            return -1;
        if (!(cm->frames[idx].flags & FRAME_F_ZEROED) != !zeroed)
            return -1;
        if (++steps > nfree_frames)
            return -1;
    }
    return steps;
}

/* The two lists hold exactly nfree_frames FREE entries, each once. */
static int check_free_list(const struct coremap *cm, uint32_t nfree_frames)
{
    int64_t plain = walk_free_list(cm, cm->free_head, false, nfree_frames);
    int64_t zeroed = walk_free_list(cm, cm->zero_head, true, nfree_frames);
    if (plain < 0 || zeroed < 0 || zeroed != cm->nzero)
        return -1;
    return plain + zeroed == nfree_frames ? 0 : -1;
}

int coremap_check(const struct coremap *cm, uint32_t counts[5])
{
    uint32_t local[COREMAP_STATES];
    uint32_t *c = counts ? counts : local;

    if (count_states(cm, c) != 0)
        return -1;
    if (c[FRAME_FREE] != cm->nfree)
        return -1;
    return check_free_list(cm, c[FRAME_FREE]);
}
