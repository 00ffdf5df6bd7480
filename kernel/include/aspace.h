/*
 * User address spaces: a page table plus the list of regions that say which
 * addresses are valid and how a missing page is filled. A page that is
 * valid but not yet present is created by the fault dispatcher (mm/fault.c)
 * on first touch: heap, stack and anonymous mappings are demand-zero.
 */
#ifndef FAULTLINE_ASPACE_H
#define FAULTLINE_ASPACE_H

#include "types.h"
#include "mmu.h"
#include "sleeplock.h"

/* Image segments, heap and stack take a handful; the rest is for mmap.
 * munmap of a hole splits one region in two, so this also bounds how
 * fragmented a program may make its mappings. */
#define ASPACE_MAX_REGIONS   32
#define USER_STACK_MAX       (1UL << 20)     /* 1 MiB of stack, demand-zero */
#define USER_HEAP_GAP        (1UL << 20)     /* heap may not grow closer than this to the mmap window */
/*
 * mmap places mappings without MAP_FIXED in a window below the stack,
 * top-down and first fit. A gap keeps a mapping from touching the stack;
 * the heap grows up from the image towards the bottom of the window, so
 * both have most of user space. See docs/architecture.md.
 */
#define USER_MMAP_GAP        (1UL << 20)
#define USER_MMAP_TOP        (USER_STACK_TOP - USER_STACK_MAX - USER_MMAP_GAP)
#define USER_MMAP_SIZE       (1UL << 36)     /* 64 GiB of the 256 GiB user space */
#define USER_MMAP_BASE       (USER_MMAP_TOP - USER_MMAP_SIZE)
/* The highest address an image or the heap may reach. */
#define USER_HEAP_LIMIT      (USER_MMAP_BASE - USER_HEAP_GAP)
#define COMMIT_RESERVE_FRAMES 64             /* kept back from sbrk promises for page tables */

enum region_kind {
    REGION_IMAGE,     /* from the executable; pages present from exec on */
    REGION_HEAP,      /* sbrk: demand-zero */
    REGION_STACK,     /* demand-zero */
    REGION_ANON,      /* mmap(MAP_ANON): demand-zero, promised like the heap */
    REGION_POOL,      /* frames granted to a fault handler (ulf_grant), present
                         from the grant on; not the memory managers' to move */
};

struct region {
    vaddr_t start, end;    /* page aligned, end exclusive */
    /* Packed into one word: every space has ASPACE_MAX_REGIONS of these,
     * and there are MAX_ASPACES spaces (a word more each is 32 KiB). */
    unsigned prot : 16;            /* PROT_R/W/X (PROT_U implied) */
    enum region_kind kind : 8;
    /* Its missing pages are a user-level fault handler's to provide
     * (kernel/ulf): a fault here goes to the space's handler, and a page
     * is present only when the handler loaded one of its frames. */
    bool managed : 1;
    /* REGION_IMAGE: the segment's file bytes in the initrd (which stays in
     * memory), placed at src_va; the rest of the region is zero. A page
     * is filled from here whenever it has no other copy. A program from a
     * ram file has no such origin (src NULL, src_len 0): exec writes its
     * bytes into pages marked dirty, which are swapped, never dropped. */
    const uint8_t *src;
    vaddr_t  src_va;
    uint64_t src_len;
};

struct aspace {
    struct sleeplock lock;       /* regions and page table changes */
    pagetable_t root;
    struct region regions[ASPACE_MAX_REGIONS];
    int nregions;
    int region_hint;              /* the slot aspace_find_region found last: a
                                     fault's page is most often in the region
                                     of the one before (checked, never trusted) */
    vaddr_t heap_start, brk;
    uint64_t resident;           /* user pages in memory (present or hidden) */
    uint64_t swapped;            /* pages in swap slots (SWAPPED entries) */
    uint64_t lazy_pages;         /* pages promised by sbrk or mmap, not yet touched */
    bool in_use;
    /* The process's user-level fault handler (kernel/ulf), or NULL:
     * managed regions of a space without one are filled by the kernel. */
    struct ulf_client *ulf;
    /* Anonymous mappings made from now on are managed regions
     * (kernel/ulf, FL_ULF_SPACE). */
    bool anon_managed;
    /* A frame granted to a fault handler has been mapped here (its pool,
     * or a loan): only then does taking a page out of the space ask
     * whether its frame is one (aspace_holds_granted). */
    bool lent;
};

enum access { ACCESS_READ, ACCESS_WRITE, ACCESS_EXEC };
struct fault_probe;
struct ulf_client;

struct aspace *aspace_create(void);
/* Frees as and everything mapped in it. No process may point to it any
 * more (it is detached), so no hart can load it again. */
void aspace_destroy(struct aspace *as);
/* The space's regions as address ranges sorted by start, empty ones left
 * out: what fork's and exit's walks visit (every page lies in a region,
 * every table page on the way to one: mmu_destroy_user). Returns n. */
int aspace_ranges(const struct aspace *as, struct mmu_range out[ASPACE_MAX_REGIONS]);
int  aspace_add_region(struct aspace *as, vaddr_t start, vaddr_t end, unsigned prot, enum region_kind kind);
struct region *aspace_find_region(struct aspace *as, vaddr_t va);
/* An image region whose pages come from src (see struct region). */
int  aspace_add_image(struct aspace *as, vaddr_t start, vaddr_t end, unsigned prot,
                      const uint8_t *src, vaddr_t src_va, uint64_t src_len);
/* Makes the page at va present whatever the region's rights (as->lock
 * held): for the kernel's own writes (exec's argv) and for loading a whole
 * image. *pa (may be NULL) is its frame. 0 or -errno. */
int  aspace_make_present(struct aspace *as, vaddr_t va, paddr_t *pa);
int  aspace_clone(struct aspace *src, struct aspace **out);
long aspace_sbrk(struct aspace *as, long increment);
/* Anonymous demand-zero mapping of len bytes (rounded up to pages) with
 * rights prot (PROT_R/W/X). fixed: exactly at addr, which must be page
 * aligned and free; else anywhere in the mmap window. Address or -errno. */
long aspace_mmap_anon(struct aspace *as, vaddr_t addr, uint64_t len, unsigned prot, bool fixed);
/* The same for a region whose pages a user-level fault handler provides
 * (kernel/ulf): at addr (fixed) if not 0, else anywhere in the window. */
long aspace_mmap_managed(struct aspace *as, vaddr_t addr, uint64_t len, unsigned prot);
/* A REGION_POOL region of size bytes in the mmap window (as locked), for
 * the frames granted to a fault handler: its address or -errno. */
long aspace_place_pool_locked(struct aspace *as, uint64_t size);
/* Forgets the region starting at start (as locked; its pages gone). */
void aspace_remove_region_locked(struct aspace *as, vaddr_t start);
/* Removes [addr, addr + len) from the anonymous regions it meets; any other
 * kind of region in the range is -EINVAL. 0 or -errno. */
int  aspace_munmap(struct aspace *as, vaddr_t addr, uint64_t len);
/* Copies into as (which need not be the active one; its lock held) through
 * the direct map, creating pages as the regions allow. For exec. */
int  aspace_write(struct aspace *as, vaddr_t va, const void *src, uint64_t n);
/* Gives back whatever a leaf holds (as->lock held): its swap slot at once,
 * or its frame, which it returns for the caller to let go of with
 * aspace_release_frame once no TLB can reach it; 0 if none. The leaf is
 * left EMPTY. */
paddr_t aspace_drop_leaf(struct aspace *as, void *leaf);
/* Whether the frame pa, mapped in as, was granted to a fault handler
 * (kernel/ulf): such a frame is not the memory managers' to move. */
bool aspace_holds_granted(const struct aspace *as, paddr_t pa);
/* A frame aspace_drop_leaf took from as: freed, or, if a fault handler
 * owns it (kernel/ulf), handed back to the handler. */
void aspace_release_frame(struct aspace *as, paddr_t pa);
/* Sums of resident and swapped pages over every live space (vmstat). */
void aspace_totals(uint64_t *resident, uint64_t *swapped);
/* Makes every hart that may cache translations of as flush them, and waits. */
void aspace_shootdown(struct aspace *as);

/* The shared zero page: one frame of zeros, never freed, that a read of
 * an untouched heap or mmap page maps read-only; the first write gives
 * the page a frame of its own (fault.c). A leaf that maps it is PRESENT
 * but owns no frame and is still a promise (lazy_pages), so every walker
 * that frees, copies, evicts or swaps pages asks first. */
extern paddr_t zero_frame_pa;
static inline bool maps_zero_frame(const struct leaf_info *li)
{
    return li->pa == zero_frame_pa;
}
void zero_frame_init(void);

/* Heap and anonymous pages are demand-zero, but sbrk and mmap promise
 * them: the sum of promised, untouched pages never exceeds the free frames
 * and swap slots (less a reserve), and no one process is promised more
 * than the memory manager can ever hold of it (aspace_may_grow: under
 * mm=swap, all of it in memory), so a program gets -ENOMEM from sbrk or
 * mmap instead of being killed on first touch. */
int  commit_pages(uint64_t n);          /* 0 or -ENOMEM */
void uncommit_pages(uint64_t n);
/* What as holds or has been promised: resident, swapped and lazy pages. */
uint64_t aspace_pages(const struct aspace *as);
/* Whether as may be promised n more pages (its process's size bound). */
bool aspace_may_grow(const struct aspace *as, uint64_t n);

/* Probe points of a fault, in cycles (meters); 0 = not reached. The
 * caller keeps one record across the retries of one fault. */
struct fault_probe {
    uint64_t frame_at;     /* a frame was obtained */
    uint64_t zeroed_at;    /* it was filled (zeroed, or read from its slot) */
    uint64_t mapped_at;    /* the mapping was installed */
    uint64_t off_at_entry; /* the thread's offcpu_cycles at fault entry: had
                              it grown, the fault left the hart (trap.c) */
    uint32_t room_waits;   /* times it waited for the manager to make room */
};

/*
 * What vm_fault decided. The trap code acts on it; vm_fault itself never
 * signals or kills, and never sleeps for another thread while it holds
 * the space's lock: what it must wait for (the page in transit to or from
 * the device, the manager making room) it waits for after letting go of
 * the lock, and then says FAULT_RETRY.
 */
enum fault_resolution {
    FAULT_MAPPED,    /* the page is present with the access allowed: resume */
    FAULT_RETRY,     /* something was waited for, the lock let go meanwhile:
                        run vm_fault again (the entry may have changed) */
    FAULT_SIGNAL,    /* the access is an error: post outcome.sig, which a
                        handler may catch */
    FAULT_KILL,      /* the process cannot go on (no memory, no swap): end
                        it with outcome.sig, outcome.why in the kill line */
    FAULT_FORWARD,   /* a managed region (kernel/ulf): the fault goes to the
                        space's user-level fault handler (ulf_fault) */
};

struct fault_outcome {
    int sig;             /* FAULT_SIGNAL, FAULT_KILL */
    const char *why;     /* for the kill line; NULL: the trap's own name */
    void *transit_leaf;  /* vm_fault's own: the entry in transit it waits for */
};

/* The fault dispatcher. probe is the caller's record of this fault
 * (zeroed before its first try); out is filled for FAULT_SIGNAL and
 * FAULT_KILL. */
enum fault_resolution vm_fault(struct aspace *as, vaddr_t va, enum access access,
                               struct fault_probe *probe, struct fault_outcome *out);

#endif
