/*
 * usertests: memory: sbrk, malloc, and anonymous mmap and munmap.
 */
#include "usertests.h"

#define SBRK_GROW         (64 * 1024)
#define HUGE_HEAP         (1L << 40)   /* more than user space holds */
#define MALLOC_CHUNK      (1024 * 1024)
#define MALLOC_MEM_FACTOR 4        /* stop after 4x RAM, in case the kernel overcommits */
#define MMAP_PAGES        16
#define MMAP_SMALL_PAGES  4
#define MMAP_SPLIT_PAGES  8        /* munmappartial: a hole of ... */
#define MMAP_HOLE_FIRST   3        /* ... pages 3 and 4 */
#define MMAP_HOLE_PAGES   2
#define MMAP_UNKNOWN_PROT 0x8      /* no FL_PROT_* bit */
#define MMAP_UNKNOWN_FLAG 0x1000   /* no FL_MAP_* bit */
#define MMAP_MAX_TRIES    256      /* above any region table */
#define HUGE_MAP          (1UL << 40)   /* more than the mmap window and memory */

/* ------------------------------------------------------------ memory */

void sbrkgrow(void)
{
    char *old = sbrk(0);
    CHECK(!ptr_error(old), "sbrk(0): %s", strerror((int)ptr_error(old)));
    char *p = sbrk(SBRK_GROW);
    expect("sbrk(grow) returns the old break", (long)p, (long)old);
    expect("break after growing", (long)sbrk(0), (long)(old + SBRK_GROW));
    for (long i = 0; i < SBRK_GROW; i++)
        p[i] = (char)(i * 7);
    for (long i = 0; i < SBRK_GROW; i++)
        CHECK(p[i] == (char)(i * 7), "heap byte %ld changed", i);

    expect("sbrk(-grow) returns the old break", (long)sbrk(-SBRK_GROW), (long)(old + SBRK_GROW));
    expect("break after shrinking", (long)sbrk(0), (long)old);
}

static char *released_page;

static void touch_released_page(void)
{
    *(volatile char *)released_page = 1;
}

void sbrkshrink(void)
{
    char *old = sbrk(0);
    char *first_whole = (char *)(((uintptr_t)old + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1));
    char *p = sbrk(SBRK_GROW);
    CHECK(!ptr_error(p), "sbrk(grow): %s", strerror((int)ptr_error(p)));
    memset(p, 0x5a, SBRK_GROW);
    sbrk(-SBRK_GROW);

    /* Whole pages above the break are gone ... */
    released_page = first_whole;
    expect_killed("store above the break", touch_released_page, SIGSEGV);

    /* ... and come back zeroed, not with the old contents. */
    p = sbrk(SBRK_GROW);
    CHECK(!ptr_error(p), "sbrk(regrow): %s", strerror((int)ptr_error(p)));
    for (char *q = first_whole; q < old + SBRK_GROW; q++)
        CHECK(*q == 0, "regrown heap not zeroed at offset %ld", (long)(q - old));
}

void sbrkhuge(void)
{
    char *before = sbrk(0);
    expect("sbrk(1 TiB)", ptr_error(sbrk(HUGE_HEAP)), -ENOMEM);
    expect("sbrk(2^62)", ptr_error(sbrk((long)HUGE_LEN)), -ENOMEM);
    expect("break after failed sbrk", (long)sbrk(0), (long)before);

    char *p = sbrk((long)PAGE_SIZE);
    CHECK(!ptr_error(p), "sbrk(page) after failure: %s", strerror((int)ptr_error(p)));
    p[0] = p[PAGE_SIZE - 1] = 1;
    char *q = malloc(100);
    CHECK(q != NULL, "malloc after a failed sbrk");
    free(q);
}

void mallocall(void)
{
    struct fl_sysinfo info;
    expect("sysinfo", sysinfo(&info), 0);
    unsigned long limit = MALLOC_MEM_FACTOR * info.frames_total * info.page_size;

    struct chunk { struct chunk *next; } *list = NULL;
    unsigned long total = 0;
    bool failed = false;
    while (total < limit) {
        struct chunk *c = malloc(MALLOC_CHUNK);
        if (!c) {
            failed = true;
            break;
        }
        ((volatile char *)c)[MALLOC_CHUNK - 1] = 1;   /* touch both ends */
        c->next = list;
        list = c;
        total += MALLOC_CHUNK;
    }
    CHECK(total > 0, "not even one %d-byte malloc succeeded", MALLOC_CHUNK);
    if (!failed)
        printf("mallocall: no failure within %lu MiB (the kernel overcommits)\n",
               total / MALLOC_CHUNK);

    while (list) {
        struct chunk *next = list->next;
        free(list);
        list = next;
    }
    /* With everything free, half of it in one piece must be available again. */
    void *big = malloc(total / 2);
    CHECK(big != NULL, "malloc(%lu) after freeing %lu", total / 2, total);
    free(big);
}

#define SMALL_BLOCK  1000
#define MERGED_BLOCK 1900

/* Address-ordered first fit merges neighbours: this is a libc test. */
void mallocmerge(void)
{
    char *a = malloc(SMALL_BLOCK), *b = malloc(SMALL_BLOCK), *c = malloc(SMALL_BLOCK);
    CHECK(a && b && c, "malloc failed");
    CHECK(a < b && b < c, "fresh blocks not in address order");
    memset(a, 1, SMALL_BLOCK);
    memset(b, 2, SMALL_BLOCK);
    free(a);
    free(b);
    char *d = malloc(MERGED_BLOCK);
    CHECK(d == a, "freed neighbours were not merged (%p, expected %p)", (void *)d, (void *)a);
    char *e = realloc(c, 2 * SMALL_BLOCK);
    CHECK(e != NULL, "realloc failed");
    char *z = calloc(SMALL_BLOCK, 1);
    CHECK(z != NULL, "calloc failed");
    for (int i = 0; i < SMALL_BLOCK; i++)
        CHECK(z[i] == 0, "calloc memory not zeroed");
    free(d);
    free(e);
    free(z);
}


/* ------------------------------------------------------------- mmap */

#define ANON_RW  (FL_PROT_READ | FL_PROT_WRITE)

/* The caller's resident memory, as procinfo reports it. */
static uint64_t own_mem_bytes(void)
{
    static struct fl_procinfo procs[PROCINFO_MAX];
    int n = procinfo(procs, PROCINFO_MAX);
    CHECK(n > 0, "procinfo = %d", n);
    int me = getpid();
    for (int i = 0; i < n; i++)
        if (procs[i].pid == me)
            return procs[i].mem_bytes;
    fail("own pid %d not listed by procinfo", me);
}

/* An anonymous read-write mapping of pages pages; fails the test if refused. */
static char *map_anon(size_t pages)
{
    char *p = mmap(NULL, pages * PAGE_SIZE, ANON_RW, FL_MAP_ANON);
    CHECK(!ptr_error(p), "mmap(%lu pages): %s", (unsigned long)pages, strerror((int)ptr_error(p)));
    CHECK((uintptr_t)p % PAGE_SIZE == 0, "mmap returned unaligned %p", (void *)p);
    return p;
}

static char *touched_page;

static void store_touched_page(void)
{
    *(volatile char *)touched_page = 1;
}

static void load_touched_page(void)
{
    (void)*(volatile char *)touched_page;
}

void mmapbasic(void)
{
    own_mem_bytes();   /* its own buffer and stack are resident from here on */
    uint64_t before = own_mem_bytes();
    char *p = map_anon(MMAP_PAGES);
    expect("resident bytes right after mmap", (long)own_mem_bytes(), (long)before);

    for (size_t i = 0; i < MMAP_PAGES * PAGE_SIZE; i += PAGE_SIZE / 2)
        CHECK(((volatile char *)p)[i] == 0, "fresh mapping not zero at offset %lu", (unsigned long)i);
    /* Read, the pages are the shared zero page: nothing of their own. */
    expect("resident bytes after reading", (long)own_mem_bytes(), (long)before);

    for (size_t i = 0; i < MMAP_PAGES * PAGE_SIZE; i++)
        p[i] = (char)(i * 13);
    uint64_t touched = own_mem_bytes();
    CHECK(touched >= before + MMAP_PAGES * PAGE_SIZE,
          "resident bytes grew by %lu after writing %d pages", (unsigned long)(touched - before), MMAP_PAGES);
    for (size_t i = 0; i < MMAP_PAGES * PAGE_SIZE; i++)
        CHECK(p[i] == (char)(i * 13), "mapped byte %lu changed", (unsigned long)i);

    expect("munmap", munmap(p, MMAP_PAGES * PAGE_SIZE), 0);
    expect("resident bytes after munmap", (long)own_mem_bytes(), (long)before);
    touched_page = p;
    expect_killed("load from an unmapped mapping", load_touched_page, SIGSEGV);

    /* The rights asked for are the rights given. */
    char *ro = mmap(NULL, PAGE_SIZE, FL_PROT_READ, FL_MAP_ANON);
    CHECK(!ptr_error(ro), "mmap(read-only): %s", strerror((int)ptr_error(ro)));
    CHECK(*(volatile char *)ro == 0, "read-only mapping not zero");
    touched_page = ro;
    expect_killed("store to a read-only mapping", store_touched_page, SIGSEGV);
    char *none = mmap(NULL, PAGE_SIZE, FL_PROT_NONE, FL_MAP_ANON);
    CHECK(!ptr_error(none), "mmap(PROT_NONE): %s", strerror((int)ptr_error(none)));
    touched_page = none;
    expect_killed("load from a PROT_NONE mapping", load_touched_page, SIGSEGV);
    expect("munmap(read-only)", munmap(ro, PAGE_SIZE), 0);
    expect("munmap(PROT_NONE)", munmap(none, PAGE_SIZE), 0);
}

void mmapfixed(void)
{
    size_t len = MMAP_SMALL_PAGES * PAGE_SIZE;
    /* Find a free place by mapping and unmapping. */
    char *spot = map_anon(MMAP_SMALL_PAGES);
    expect("munmap", munmap(spot, len), 0);

    char *p = mmap(spot, len, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED);
    expect("mmap(FIXED at a free place)", (long)p, (long)spot);
    memset(p, 0x42, len);
    CHECK(p[len - 1] == 0x42, "fixed mapping lost a store");
    expect("mmap(FIXED over a mapping)",
           ptr_error(mmap(p + PAGE_SIZE, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    char *text = (char *)((uintptr_t)mmapfixed & ~(PAGE_SIZE - 1));
    expect("mmap(FIXED over text)",
           ptr_error(mmap(text, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    char local = 0;
    char *stack = (char *)((uintptr_t)&local & ~(PAGE_SIZE - 1));
    expect("mmap(FIXED over the stack)",
           ptr_error(mmap(stack, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    CHECK(p[0] == 0x42, "a refused mmap changed the mapping");

    /* Without FIXED the address is only a hint: a taken one is no error. */
    char *q = mmap(p, PAGE_SIZE, ANON_RW, FL_MAP_ANON);
    CHECK(!ptr_error(q), "mmap(hint over a mapping): %s", strerror((int)ptr_error(q)));
    CHECK(q + PAGE_SIZE <= p || q >= p + len, "hinted mapping %p overlaps %p", (void *)q, (void *)p);
    expect("munmap(hinted)", munmap(q, PAGE_SIZE), 0);
    expect("munmap(fixed)", munmap(p, len), 0);
}

void munmappartial(void)
{
    size_t len = MMAP_SPLIT_PAGES * PAGE_SIZE;
    char *p = map_anon(MMAP_SPLIT_PAGES);
    for (size_t i = 0; i < len; i++)
        p[i] = (char)(i * 5);
    char *hole = p + MMAP_HOLE_FIRST * PAGE_SIZE;
    size_t hole_len = MMAP_HOLE_PAGES * PAGE_SIZE;
    expect("munmap(middle)", munmap(hole, hole_len), 0);

    touched_page = hole;
    expect_killed("store to the hole's first page", store_touched_page, SIGSEGV);
    touched_page = hole + hole_len - PAGE_SIZE;
    expect_killed("load from the hole's last page", load_touched_page, SIGSEGV);
    for (size_t i = 0; i < len; i++) {
        if (p + i >= hole && p + i < hole + hole_len)
            continue;
        CHECK(p[i] == (char)(i * 5), "byte %lu changed by munmap of the hole", (unsigned long)i);
        p[i] = (char)~p[i];   /* still writable on both sides */
    }
    expect("munmap(the hole again: nothing mapped)", munmap(hole, hole_len), 0);
    /* An unaligned length covers the page it ends in. */
    expect("munmap(first page, short length)", munmap(p, 1), 0);
    touched_page = p;
    expect_killed("load from the unmapped first page", load_touched_page, SIGSEGV);
    CHECK(p[PAGE_SIZE] == (char)~(char)(PAGE_SIZE * 5), "second page changed");
    /* Across the hole and the first page: both pieces go. */
    expect("munmap(whole range)", munmap(p, len), 0);
    touched_page = p + len - PAGE_SIZE;
    expect_killed("load from the unmapped last page", load_touched_page, SIGSEGV);

    /* Only mappings may be unmapped: not the heap, stack or image. */
    char *heap = last_heap_page();
    expect("munmap(heap)", munmap(heap, PAGE_SIZE), -EINVAL);
    char local = 0;
    expect("munmap(stack)", munmap((char *)((uintptr_t)&local & ~(PAGE_SIZE - 1)), PAGE_SIZE), -EINVAL);
    expect("munmap(text)", munmap((char *)((uintptr_t)munmappartial & ~(PAGE_SIZE - 1)), PAGE_SIZE), -EINVAL);
    heap[0] = 1;
    local = heap[0];
    CHECK(local == 1, "heap page lost after a refused munmap");
}

void mmaperrors(void)
{
    expect("mmap(len 0)", ptr_error(mmap(NULL, 0, ANON_RW, FL_MAP_ANON)), -EINVAL);
    expect("mmap(no MAP_ANON)", ptr_error(mmap(NULL, PAGE_SIZE, ANON_RW, 0)), -EINVAL);
    expect("mmap(unknown flag)",
           ptr_error(mmap(NULL, PAGE_SIZE, ANON_RW, FL_MAP_ANON | MMAP_UNKNOWN_FLAG)), -EINVAL);
    expect("mmap(unknown prot)",
           ptr_error(mmap(NULL, PAGE_SIZE, ANON_RW | MMAP_UNKNOWN_PROT, FL_MAP_ANON)), -EINVAL);
    char *spot = map_anon(1);
    expect("munmap", munmap(spot, PAGE_SIZE), 0);
    expect("mmap(FIXED, unaligned)",
           ptr_error(mmap(spot + 1, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    expect("mmap(FIXED at NULL)",
           ptr_error(mmap(NULL, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    expect("mmap(FIXED across the top)",
           ptr_error(mmap((void *)ACROSS_TOP_ADDR, ACROSS_TOP_LEN, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    expect("mmap(FIXED at a kernel address)",
           ptr_error(mmap(kernel_ptr(), PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);

    /* More than memory and swap together hold is refused up front, not
     * on first touch. */
    struct fl_vmstat vm;
    expect("vmstat", vmstat(&vm), 0);
    expect("mmap(more than memory and swap)",
           ptr_error(mmap(NULL, (vm.frames_total + vm.swap_total + 1) * PAGE_SIZE, ANON_RW,
                          FL_MAP_ANON)), -ENOMEM);
    expect("mmap(1 TiB)", ptr_error(mmap(NULL, HUGE_MAP, ANON_RW, FL_MAP_ANON)), -ENOMEM);
    expect("mmap(2^62)", ptr_error(mmap(NULL, HUGE_LEN, ANON_RW, FL_MAP_ANON)), -ENOMEM);

    expect("munmap(unaligned)", munmap(spot + 1, PAGE_SIZE), -EINVAL);
    expect("munmap(len 0)", munmap(spot, 0), -EINVAL);
    expect("munmap(across the top)", munmap((void *)ACROSS_TOP_ADDR, ACROSS_TOP_LEN), -EINVAL);

    /* The region table is finite: mapping until refused ends in -ENOMEM,
     * and everything mapped on the way can be unmapped. Each call makes
     * a region of its own, even next to another one. */
    static char *maps[MMAP_MAX_TRIES];
    int n = 0;
    long err = 0;
    while (n < MMAP_MAX_TRIES) {
        char *m = mmap(NULL, PAGE_SIZE, ANON_RW, FL_MAP_ANON);
        err = ptr_error(m);
        if (err)
            break;
        maps[n++] = m;
    }
    expect("mmap once the region table is full", err, -ENOMEM);
    CHECK(n > 0, "no mapping fitted at all");
    for (int i = 0; i < n; i++)
        expect("munmap of a table-filling page", munmap(maps[i], PAGE_SIZE), 0);
    char *again = map_anon(1);
    expect("munmap after refilling", munmap(again, PAGE_SIZE), 0);
}

static char *fork_map;

#define FORK_PATTERN(i)  ((char)((i) * 3 + 1))
#define FORK_CHILD_BYTE  0x77

static void mmapfork_child(void)
{
    size_t touched = MMAP_SMALL_PAGES / 2 * PAGE_SIZE;
    for (size_t i = 0; i < touched; i++)
        CHECK(fork_map[i] == FORK_PATTERN(i), "child sees byte %lu changed", (unsigned long)i);
    for (size_t i = touched; i < MMAP_SMALL_PAGES * PAGE_SIZE; i++)
        CHECK(fork_map[i] == 0, "child sees untouched byte %lu non-zero", (unsigned long)i);
    memset(fork_map, FORK_CHILD_BYTE, MMAP_SMALL_PAGES * PAGE_SIZE);
    CHECK(fork_map[0] == FORK_CHILD_BYTE, "child's store lost");
}

void mmapfork(void)
{
    size_t len = MMAP_SMALL_PAGES * PAGE_SIZE, touched = len / 2;
    fork_map = map_anon(MMAP_SMALL_PAGES);
    for (size_t i = 0; i < touched; i++)
        fork_map[i] = FORK_PATTERN(i);

    int status = status_of_child(mmapfork_child);
    CHECK(FL_WIFEXITED(status), "child killed by signal %d", FL_WTERMSIG(status));
    expect("child exit status", FL_WEXITSTATUS(status), 0);

    /* The child's stores went to its own copies. */
    for (size_t i = 0; i < touched; i++)
        CHECK(fork_map[i] == FORK_PATTERN(i), "parent byte %lu changed by the child", (unsigned long)i);
    for (size_t i = touched; i < len; i++)
        CHECK(fork_map[i] == 0, "parent untouched byte %lu changed by the child", (unsigned long)i);
    expect("munmap", munmap(fork_map, len), 0);
}
