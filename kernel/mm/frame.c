/*
 * The frame allocator: the pure core map (coremap.c) plus the "frames"
 * spinlock, page zeroing, and the boot-time layout of the records.
 */
#include "frame.h"
#include "fdt.h"
#include "spinlock.h"
#include "printk.h"
#include "kstring.h"
#include "clock_replace.h"
#include <arch/arch.h>

static struct coremap core;
static struct spinlock frames_lock = SPINLOCK_INIT("frames", LOCK_RANK_FRAMES);
/* Page control's water-mark hook (frames_set_water); called with no lock
 * held, from whichever thread's allocation or free crossed the mark. */
static void (*water_hook)(enum water_event);
static uint32_t zeroed_low;       /* WATER_ZEROED_LOW at this many; 0: never */

void frames_set_zeroed_low(uint32_t n)
{
    zeroed_low = n;
}

void frames_set_water(uint32_t low, uint32_t high, void (*hook)(enum water_event))
{
    spin_lock(&frames_lock);
    coremap_set_water(&core, low, high);
    water_hook = hook;
    spin_unlock(&frames_lock);
}

uint32_t frames_managed(void)
{
    return core.nmanaged;
}

static inline void water_report(enum water_event ev)
{
    if (ev != WATER_NONE && water_hook)
        water_hook(ev);
}

static bool overlaps(paddr_t a, paddr_t b, const struct mem_range *r)
{
    return a < r->base + r->size && r->base < b;
}

void frames_init(paddr_t ram_base, paddr_t ram_top, paddr_t first_free,
                 const struct mem_range *reserved, int nreserved)
{
    uint32_t nframes = (uint32_t)((ram_top - ram_base) >> PAGE_SHIFT);
    size_t records_bytes = ALIGN_UP((uint64_t)nframes * sizeof(struct frame), PAGE_SIZE);
    paddr_t records_pa = ALIGN_UP(first_free, PAGE_SIZE);
    if (records_pa + records_bytes > ram_top)
        panic("frames: memory too small for the core map (%lu frames)", (uint64_t)nframes);

    coremap_init(&core, (struct frame *)PA_TO_KVA(records_pa), ram_base >> PAGE_SHIFT, nframes);

    /* Release page by page so any reserved range, however it is aligned,
     * keeps every frame it touches. */
    paddr_t usable = records_pa + records_bytes;
    for (paddr_t pa = usable; pa < ram_top; pa += PAGE_SIZE) {
        bool skip = false;
        for (int i = 0; i < nreserved && !skip; i++)
            skip = overlaps(pa, pa + PAGE_SIZE, &reserved[i]);
        if (!skip)
            coremap_release(&core, pa >> PAGE_SHIFT, (pa >> PAGE_SHIFT) + 1);
    }
}

paddr_t frame_alloc(enum frame_state state)
{
    spin_lock(&frames_lock);
    pfn_t pfn = coremap_alloc(&core, state);
    enum water_event ev = coremap_water(&core);
    spin_unlock(&frames_lock);
    water_report(ev);
    return (paddr_t)pfn << PAGE_SHIFT;
}

paddr_t frame_alloc_zeroed(enum frame_state state)
{
    spin_lock(&frames_lock);
    pfn_t pfn = coremap_alloc_zeroed(&core, state);
    struct frame *f = pfn ? coremap_frame(&core, pfn) : NULL;
    bool zeroed = f && (f->flags & FRAME_F_ZEROED);
    if (f)
        f->flags = 0;
    enum water_event ev = coremap_water(&core);
    spin_unlock(&frames_lock);
    water_report(ev);
    paddr_t pa = (paddr_t)pfn << PAGE_SHIFT;
    if (pa && !zeroed)
        zero_page((void *)PA_TO_KVA(pa));
    return pa;
}

static void free_one(paddr_t pa, bool zeroed)
{
    spin_lock(&frames_lock);
    pfn_t pfn = pa >> PAGE_SHIFT;
    int rc = zeroed ? coremap_free_zeroed(&core, pfn) : coremap_free(&core, pfn);
    enum water_event ev = coremap_water(&core);
    spin_unlock(&frames_lock);
    water_report(ev);
    if (rc)
        panic("frames: bad free of %lx (double free, pinned or not RAM)", (uint64_t)pa);
}

void frame_free(paddr_t pa)
{
    free_one(pa, false);
}

void frame_free_zeroed(paddr_t pa)
{
    free_one(pa, true);
}

void frame_free_many(const paddr_t *pa, int n)
{
    spin_lock(&frames_lock);
    for (int i = 0; i < n; i++)
        if (coremap_free(&core, pa[i] >> PAGE_SHIFT))
            panic("frames: bad free of %lx (double free, pinned or not RAM)", (uint64_t)pa[i]);
    enum water_event ev = coremap_water(&core);
    spin_unlock(&frames_lock);
    water_report(ev);
}

/* A user frame with its core-map owner set in the same lock hold, if
 * more than `keep` frames are free. Inline in each: the demand-zero fault
 * takes its frame here. */
static inline __attribute__((always_inline)) paddr_t
alloc_user(void *owner, uint64_t vpn, uint64_t keep, bool *zeroed, uint8_t flags)
{
    enum water_event zero_ev = WATER_NONE;
    bool z = false;
    spin_lock(&frames_lock);
    pfn_t pfn = 0;
    if (core.nfree > keep)
        pfn = coremap_alloc_user(&core, zeroed != NULL, owner, vpn, flags, &z);
    if (z && zeroed_low && core.nzero == zeroed_low - 1)
        zero_ev = WATER_ZEROED_LOW;
    enum water_event ev = coremap_water(&core);
    spin_unlock(&frames_lock);
    if (zeroed)
        *zeroed = z;
    water_report(ev);
    water_report(zero_ev);
    return (paddr_t)pfn << PAGE_SHIFT;
}

paddr_t frame_alloc_user_keeping(void *owner, uint64_t vpn, uint64_t keep, bool *zeroed)
{
    return alloc_user(owner, vpn, keep, zeroed, 0);
}

paddr_t frame_alloc_user(void *owner, uint64_t vpn)
{
    return alloc_user(owner, vpn, USER_FRAME_RESERVE, NULL, 0);
}

paddr_t frame_alloc_user_dirty(void *owner, uint64_t vpn)
{
    return alloc_user(owner, vpn, USER_FRAME_RESERVE, NULL, FRAME_F_DIRTY);
}

bool frames_zero_one(void)
{
    spin_lock(&frames_lock);
    pfn_t pfn = coremap_take_unzeroed(&core);
    spin_unlock(&frames_lock);
    if (!pfn)
        return false;
    /* Off every list, still counted free: nobody else can reach it. */
    zero_page((void *)PA_TO_KVA((paddr_t)pfn << PAGE_SHIFT));
    spin_lock(&frames_lock);
    coremap_put_zeroed(&core, pfn);
    spin_unlock(&frames_lock);
    return true;
}

uint64_t frames_zeroed_count(void) { return core.nzero; }

static struct frame *frame_of(paddr_t pa)
{
    struct frame *f = coremap_frame(&core, pa >> PAGE_SHIFT);
    if (!f || f->state != FRAME_USER)
        panic("frames: %lx is not a user frame", (uint64_t)pa);
    return f;
}

void frame_set_tag(paddr_t pa, const void *tag, uint64_t index)
{
    spin_lock(&frames_lock);
    struct frame *f = coremap_frame(&core, pa >> PAGE_SHIFT);
    if (!f || f->state != FRAME_KERNEL)
        panic("frames: tagging %lx, which is not a kernel frame", (uint64_t)pa);
    f->owner = (void *)tag;
    f->vpn = index;
    spin_unlock(&frames_lock);
}

bool frame_has_tag(paddr_t pa, const void *tag, uint64_t *index)
{
    /* No lock: whoever asks holds a mapping of the frame, so it cannot be
     * freed or tagged anew meanwhile. */
    const struct frame *f = coremap_frame(&core, pa >> PAGE_SHIFT);
    if (!f || f->state != FRAME_KERNEL || f->owner != tag)
        return false;
    *index = f->vpn;
    return true;
}

void frame_set_dirty(paddr_t pa, bool dirty)
{
    spin_lock(&frames_lock);
    struct frame *f = frame_of(pa);
    if (dirty)
        f->flags |= FRAME_F_DIRTY;
    else
        f->flags &= ~FRAME_F_DIRTY;
    spin_unlock(&frames_lock);
}

/* Atomics, not the frames lock: a pin is taken and dropped by the one
 * thread whose transit it is, on a user frame it holds; the clock and
 * frame_free read it under the lock and see it set or not, either being
 * right at that instant. */
void frame_pin(paddr_t pa)
{
    __atomic_fetch_add(&frame_of(pa)->pins, 1, __ATOMIC_ACQ_REL);
}

static void unpin(paddr_t pa, struct frame *f)
{
    if (__atomic_fetch_sub(&f->pins, 1, __ATOMIC_ACQ_REL) == 0)
        panic("frames: unpin of %lx, which is not pinned", (uint64_t)pa);
}

void frame_unpin(paddr_t pa)
{
    unpin(pa, frame_of(pa));
}

void frame_unpin_dirty(paddr_t pa, bool dirty)
{
    struct frame *f = frame_of(pa);
    /* A plain write, before the pin goes: the pin keeps every other
     * writer of the flags away (the clock skips it, nobody frees or
     * allocates it). A frame that was not pinned is not checked for
     * first: unpin panics on it at once, and the flag it got meanwhile
     * outlives nothing. */
    if (dirty)
        f->flags |= FRAME_F_DIRTY;
    unpin(pa, f);
}

bool frame_is_dirty(paddr_t pa)
{
    spin_lock(&frames_lock);
    bool dirty = frame_of(pa)->flags & FRAME_F_DIRTY;
    spin_unlock(&frames_lock);
    return dirty;
}

paddr_t frame_choose_victim(struct clock_hand *h,
                            enum clock_verdict (*examine)(struct frame *f, uint32_t index, void *ctx),
                            void *ctx, void **owner, uint64_t *vpn)
{
    spin_lock(&frames_lock);
    uint32_t i = clock_select(&core, h, examine, ctx);
    paddr_t pa = 0;
    if (i != FRAME_NONE) {
        struct frame *f = &core.frames[i];
        *owner = f->owner;
        *vpn = f->vpn;
        pa = (core.base_pfn + i) << PAGE_SHIFT;
    }
    spin_unlock(&frames_lock);
    return pa;
}

paddr_t frame_pa_of(uint32_t index)
{
    return (core.base_pfn + index) << PAGE_SHIFT;
}

uint64_t frames_user_count(void)
{
    uint64_t n = 0;
    spin_lock(&frames_lock);
    for (uint32_t i = 0; i < core.nframes; i++)
        n += core.frames[i].state == FRAME_USER;
    spin_unlock(&frames_lock);
    return n;
}

/* In one hold of the lock, so that a frame moving between the two (an exit
 * or a swap-out frees hundreds of user frames at once) is counted once:
 * a free count read before a walk of the user frames would miss every
 * frame freed during the walk, and make memory look hundreds of frames
 * smaller than it is. */
uint64_t frames_free_plus_user_count(void)
{
    spin_lock(&frames_lock);
    uint64_t n = core.nfree;
    for (uint32_t i = 0; i < core.nframes; i++)
        n += core.frames[i].state == FRAME_USER;
    spin_unlock(&frames_lock);
    return n;
}

uint64_t frames_free_count(void)  { return core.nfree; }
uint64_t frames_total_count(void) { return core.nmanaged; }
