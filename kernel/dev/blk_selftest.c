/*
 * selftest=blk: exercises the block driver end to end once the scheduler
 * runs (the "boot" kernel thread calls it before init starts).
 *
 * It writes a distinct pattern to BLK_SELFTEST_PAGES pages spread evenly
 * over the disk (first, middle and last page among them) with every request
 * submitted before the first wait, so several are on the device at once
 * and, as there are more pages than chains, submitters also sleep for a
 * free chain. It reads them back the same way, compares every byte, and
 * checks that requests past the end or of a bad length are refused with
 * -EINVAL. It prints exactly one result line (docs/protocol.md), with the
 * time the transfers took.
 */
#include "blk_selftest.h"
#include "blk.h"
#include "config.h"
#include "frame.h"
#include "printk.h"
#include "kstring.h"
#include "ktime.h"
#include <arch/arch.h>
#include <faultline/errno.h>

#define SECTORS_PER_PAGE    (PAGE_SIZE / BLK_SECTOR_SIZE)
#define PATTERN_SEED        0x9e3779b97f4a7c15UL  /* odd, bit-rich: neighbours differ */
#define PATTERN_PAGE_SHIFT  32
#define BAD_LENGTH          (BLK_SECTOR_SIZE / 2) /* not a multiple of a sector */
#define WHAT_MAX            160

struct page_io {
    uint64_t sector;
    uint8_t *wbuf, *rbuf;
    struct blk_req req;
};

static struct page_io io[BLK_SELFTEST_PAGES];

#define TAG "faultline: selftest: blk: "

/* Every 8-byte word names its page and its place: a page read from the
 * wrong sector, or a word from the wrong offset, cannot match. */
static void fill_pattern(uint64_t *w, uint64_t sector)
{
    for (uint64_t i = 0; i < PAGE_SIZE / sizeof *w; i++)
        w[i] = ((sector << PATTERN_PAGE_SHIFT) | i) * PATTERN_SEED;
}

/* n pages spread evenly from the first page to the last. */
static int plan(uint64_t disk_pages)
{
    int n = (int)MIN((uint64_t)BLK_SELFTEST_PAGES, disk_pages);
    for (int i = 0; i < n; i++) {
        uint64_t page = n > 1 ? (uint64_t)i * (disk_pages - 1) / (uint64_t)(n - 1) : 0;
        io[i].sector = page * SECTORS_PER_PAGE;
    }
    return n;
}

static bool buffers_alloc(int n)
{
    for (int i = 0; i < n; i++) {
        paddr_t w = frame_alloc_zeroed(FRAME_KERNEL);
        paddr_t r = frame_alloc_zeroed(FRAME_KERNEL);
        io[i].wbuf = w ? (uint8_t *)PA_TO_KVA(w) : NULL;
        io[i].rbuf = r ? (uint8_t *)PA_TO_KVA(r) : NULL;
        if (!w || !r)
            return false;
    }
    return true;
}

static void buffers_free(int n)
{
    for (int i = 0; i < n; i++) {
        if (io[i].wbuf)
            frame_free(KVA_TO_PA(io[i].wbuf));
        if (io[i].rbuf)
            frame_free(KVA_TO_PA(io[i].rbuf));
        io[i].wbuf = io[i].rbuf = NULL;
    }
}

/* Submits all n, then waits for every one that was submitted (the device
 * may still be writing our buffers). The first failure goes into what. */
static bool run_batch(int n, bool write, char *what, size_t len)
{
    const char *verb = write ? "write" : "read";
    int submitted = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        io[i].req = (struct blk_req){ .sector = io[i].sector, .len = PAGE_SIZE, .write = write,
                                      .buf = write ? io[i].wbuf : io[i].rbuf };
        int err = blk_submit(&io[i].req);
        if (err) {
            if (!failed++)
                ksnprintf(what, len, "%s of sector %lu refused: errno %d", verb,
                          io[i].sector, -err);
            break;
        }
        submitted++;
    }
    for (int i = 0; i < submitted; i++) {
        int err = blk_wait(&io[i].req);
        if (err && !failed++)
            ksnprintf(what, len, "%s of sector %lu: I/O error (errno %d)", verb,
                      io[i].sector, -err);
    }
    if (failed > 1) {
        size_t used = strlen(what);
        ksnprintf(what + used, len - used, "; %d of %d requests failed", failed, n);
    }
    return failed == 0;
}

static bool verify(int n, char *what, size_t len)
{
    for (int i = 0; i < n; i++) {
        for (size_t b = 0; b < PAGE_SIZE; b++) {
            if (io[i].rbuf[b] != io[i].wbuf[b]) {
                ksnprintf(what, len, "sector %lu byte %lu read back 0x%02x, wrote 0x%02x",
                          io[i].sector + b / BLK_SECTOR_SIZE, (uint64_t)(b % BLK_SECTOR_SIZE),
                          io[i].rbuf[b], io[i].wbuf[b]);
                return false;
            }
        }
    }
    return true;
}

/* Requests the driver must refuse before they reach the device. */
static bool refusals(uint8_t *buf, char *what, size_t len)
{
    uint64_t cap = blk_capacity();
    static const struct { const char *name; int64_t sector_from_end; uint32_t len; } bad[] = {
        { "past the end", 0, BLK_SECTOR_SIZE },
        { "across the end", 1, 2 * BLK_SECTOR_SIZE },
        { "of a bad length", -1, BAD_LENGTH },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        /* sector_from_end -1 means sector 0 (a length test, not a range test) */
        uint64_t sector = bad[i].sector_from_end < 0 ? 0 : cap - (uint64_t)bad[i].sector_from_end;
        struct blk_req r = { .sector = sector, .buf = buf, .len = bad[i].len, .write = false };
        int err = blk_submit(&r);
        int status = blk_wait(&r);
        if (err != -EINVAL || status != -EINVAL) {
            ksnprintf(what, len, "a request %s (sector %lu, %u bytes) returned %d, status %d, "
                      "not -EINVAL", bad[i].name, sector, bad[i].len, err, status);
            return false;
        }
    }
    return true;
}

static bool run(int n, char *what, size_t len)
{
    if (!buffers_alloc(n)) {
        ksnprintf(what, len, "out of memory for %d page buffers", 2 * n);
        return false;
    }
    for (int i = 0; i < n; i++)
        fill_pattern((uint64_t *)io[i].wbuf, io[i].sector);
    return refusals(io[0].rbuf, what, len) &&
           run_batch(n, true, what, len) &&
           run_batch(n, false, what, len) &&
           verify(n, what, len);
}

void blk_selftest(void)
{
    if (!blk_present()) {
        kprintf(TAG "no disk\n");
        return;
    }
    uint64_t disk_pages = blk_capacity() / SECTORS_PER_PAGE;
    if (disk_pages == 0) {
        kprintf(TAG "FAILED: the disk (%lu sectors) is smaller than a page\n", blk_capacity());
        return;
    }
    int n = plan(disk_pages);
    char what[WHAT_MAX] = "";
    /* The elapsed time shows the latency model (disklat=) at work: every
     * request of a batch queues behind the one before. */
    uint64_t t0 = time_now_us();
    bool ok = run(n, what, sizeof what);
    uint64_t elapsed = time_now_us() - t0;
    buffers_free(n);
    if (ok)
        kprintf(TAG "ok: %d pages written and read back, %u in flight, %lu us\n", n,
                blk_inflight_peak(), elapsed);
    else
        kprintf(TAG "FAILED: %s\n", what);
}
