/*
 * The shared zero page: a read of an untouched heap or mmap page maps one
 * read-only frame of zeros; the first write, by the process, a thread of
 * it, a forked child or the kernel on its behalf, gives the page a frame
 * of its own, and nobody else sees the write.
 */
#include "usertests.h"

#define ZP_PAGES      16
#define ZP_BYTE       0x5a
#define ZP_CHILD_BYTE 0x6b
#define ZP_TABLE_SLACK 2        /* a read may need a page-table page or two */
#define ZP_FILE       "/ut-zeropage"
#define ZP_TEXT       "read into the zero page"

static char *zp;

static char *map_pages(size_t n)
{
    char *p = mmap(NULL, n * PAGE_SIZE, FL_PROT_READ | FL_PROT_WRITE, FL_MAP_ANON);
    CHECK(!ptr_error(p), "mmap: %s", strerror((int)ptr_error(p)));
    return p;
}

static bool page_is_zero(const char *p)
{
    for (size_t i = 0; i < PAGE_SIZE; i++)
        if (p[i])
            return false;
    return true;
}

static void zp_child(void)
{
    for (int i = 0; i < ZP_PAGES; i++)
        CHECK(page_is_zero(zp + i * PAGE_SIZE), "child: page %d not zero", i);
    memset(zp, ZP_CHILD_BYTE, ZP_PAGES * PAGE_SIZE);
    CHECK(zp[PAGE_SIZE * (ZP_PAGES - 1)] == ZP_CHILD_BYTE, "child's write lost");
}

static long zp_writer(void *arg)
{
    ((volatile char *)arg)[0] = ZP_BYTE;
    return 0;
}

void zeropage(void)
{
    struct fl_vmstat before, after;
    zp = map_pages(ZP_PAGES);
    expect("vmstat", vmstat(&before), 0);
    for (int i = 0; i < ZP_PAGES; i++)
        CHECK(page_is_zero(zp + i * PAGE_SIZE), "untouched page %d not zero", i);
    expect("vmstat", vmstat(&after), 0);
    CHECK(after.zero_maps - before.zero_maps == ZP_PAGES, "%lu zero maps for %d reads",
          (unsigned long)(after.zero_maps - before.zero_maps), ZP_PAGES);
    CHECK(before.frames_free - after.frames_free <= ZP_TABLE_SLACK,
          "reading %d untouched pages took %ld frames", ZP_PAGES,
          (long)(before.frames_free - after.frames_free));

    /* A write makes that page private; its neighbours stay zero. */
    zp[PAGE_SIZE + 1] = ZP_BYTE;
    CHECK(zp[PAGE_SIZE + 1] == ZP_BYTE, "write to a zero-mapped page lost");
    CHECK(page_is_zero(zp) && page_is_zero(zp + 2 * PAGE_SIZE), "a write leaked to another page");
    zp[PAGE_SIZE + 1] = 0;

    /* A forked child's writes are its own. */
    int status = status_of_child(zp_child);
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == 0, "child failed: status %d", status);
    for (int i = 0; i < ZP_PAGES; i++)
        CHECK(page_is_zero(zp + i * PAGE_SIZE), "page %d changed by the child", i);

    /* Another thread's write is seen here at once, though this thread
     * read the page through the zero page first. */
    char *shared = zp + 3 * PAGE_SIZE;
    CHECK(*(volatile char *)shared == 0, "page 3 not zero");
    int tid = thread_create(zp_writer, shared);
    CHECK(tid > 0, "thread_create = %d", tid);
    expect("thread_join", thread_join(tid, NULL), 0);
    CHECK(*(volatile char *)shared == ZP_BYTE, "the thread's write is not seen");

    /* The kernel writing for us (read into the buffer) takes a page too. */
    char *buf = zp + 5 * PAGE_SIZE;
    CHECK(page_is_zero(buf), "page 5 not zero");
    int fd = open_checked(ZP_FILE, O_WRONLY | O_CREAT | O_TRUNC);
    write_all(fd, ZP_TEXT, sizeof ZP_TEXT, "zeropage file");
    close(fd);
    fd = open_checked(ZP_FILE, O_RDONLY);
    expect("read into a zero-mapped page", read(fd, buf, sizeof ZP_TEXT), (long)sizeof ZP_TEXT);
    CHECK(strcmp(buf, ZP_TEXT) == 0, "read gave '%s'", buf);
    CHECK(page_is_zero(zp + 6 * PAGE_SIZE), "read spilled into page 6");
    close(fd);
    expect("unlink", unlink(ZP_FILE), 0);

    expect("munmap", munmap(zp, ZP_PAGES * PAGE_SIZE), 0);
    /* Mapped again, the range reads as zeros, not as what was written. */
    zp = map_pages(ZP_PAGES);
    for (int i = 0; i < ZP_PAGES; i++)
        CHECK(page_is_zero(zp + i * PAGE_SIZE), "remapped page %d not zero", i);
    expect("munmap", munmap(zp, ZP_PAGES * PAGE_SIZE), 0);
}
