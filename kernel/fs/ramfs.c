/*
 * Ram files: writable files kept in kernel frames, gone at power-off.
 * Each file has a small fixed page array (RAM_FILE_MAX_PAGES); pages are
 * allocated as writes reach them. All calls run under the fs sleeplock
 * (file.c), so user copies may fault and sleep safely here.
 */
#include "file.h"
#include "frame.h"
#include "kstring.h"
#include "usercopy.h"
#include "config.h"
#include <arch/arch.h>
#include <faultline/abi.h>
#include <faultline/errno.h>

struct ramfile {
    bool used;
    bool unlinked;               /* removed while open: freed at last close */
    int opens;
    char name[FL_PATH_MAX];
    uint64_t size;
    paddr_t pages[RAM_FILE_MAX_PAGES];
};

static struct ramfile ramfiles[MAX_RAM_FILES];

struct ramfile *ramfs_lookup(const char *name)
{
    for (int i = 0; i < MAX_RAM_FILES; i++)
        if (ramfiles[i].used && !ramfiles[i].unlinked && strcmp(ramfiles[i].name, name) == 0)
            return &ramfiles[i];
    return NULL;
}

struct ramfile *ramfs_create(const char *name, int *err)
{
    for (int i = 0; i < MAX_RAM_FILES; i++) {
        struct ramfile *r = &ramfiles[i];
        if (r->used)
            continue;
        memset(r, 0, sizeof *r);
        r->used = true;
        kstrlcpy(r->name, name, sizeof r->name);
        return r;
    }
    *err = -ENOSPC;
    return NULL;
}

static void release_pages(struct ramfile *r)
{
    for (int i = 0; i < RAM_FILE_MAX_PAGES; i++) {
        if (r->pages[i])
            frame_free(r->pages[i]);
        r->pages[i] = 0;
    }
    r->size = 0;
}

void ramfs_truncate(struct ramfile *r) { release_pages(r); }
uint64_t ramfs_size(const struct ramfile *r) { return r->size; }
void ramfs_open(struct ramfile *r) { r->opens++; }

void ramfs_close(struct ramfile *r)
{
    if (--r->opens == 0 && r->unlinked) {
        release_pages(r);
        r->used = false;
    }
}

int ramfs_unlink(const char *name)
{
    struct ramfile *r = ramfs_lookup(name);
    if (!r)
        return -ENOENT;
    if (r->opens) {
        r->unlinked = true;
    } else {
        release_pages(r);
        r->used = false;
    }
    return 0;
}

/* A page never written reads as zeros. */
static const uint8_t hole[PAGE_SIZE];

const uint8_t *ramfs_page(const struct ramfile *r, uint64_t i)
{
    if (i >= RAM_FILE_MAX_PAGES || !r->pages[i])
        return hole;
    return (const uint8_t *)PA_TO_KVA(r->pages[i]);
}

long ramfs_read(struct ramfile *r, uint64_t off, uint64_t uva, uint64_t n)
{
    if (off >= r->size)
        return 0;
    n = MIN(n, r->size - off);
    uint64_t done = 0;
    while (done < n) {
        uint64_t pos = off + done, page = pos / PAGE_SIZE, in = pos % PAGE_SIZE;
        uint64_t chunk = MIN(n - done, PAGE_SIZE - in);
        const uint8_t *src = ramfs_page(r, page);
        if (copy_to_user(uva + done, src + in, chunk))
            return done ? (long)done : -EFAULT;
        done += chunk;
    }
    return (long)done;
}

long ramfs_write(struct ramfile *r, uint64_t off, uint64_t uva, uint64_t n)
{
    const uint64_t max = (uint64_t)RAM_FILE_MAX_PAGES * PAGE_SIZE;
    if (off >= max)
        return n ? -EFBIG : 0;
    n = MIN(n, max - off);
    uint64_t done = 0;
    while (done < n) {
        uint64_t pos = off + done, page = pos / PAGE_SIZE, in = pos % PAGE_SIZE;
        uint64_t chunk = MIN(n - done, PAGE_SIZE - in);
        if (!r->pages[page]) {
            r->pages[page] = frame_alloc_zeroed(FRAME_KERNEL);
            if (!r->pages[page])
                return done ? (long)done : -ENOSPC;
        }
        if (copy_from_user((uint8_t *)PA_TO_KVA(r->pages[page]) + in, uva + done, chunk))
            return done ? (long)done : -EFAULT;
        done += chunk;
        if (off + done > r->size)
            r->size = off + done;
    }
    return (long)done;
}

bool ramfs_entry(int i, const char **name, uint64_t *size)
{
    for (int k = 0; k < MAX_RAM_FILES; k++) {
        if (!ramfiles[k].used || ramfiles[k].unlinked)
            continue;
        if (i-- == 0) {
            *name = ramfiles[k].name;
            *size = ramfiles[k].size;
            return true;
        }
    }
    return false;
}
