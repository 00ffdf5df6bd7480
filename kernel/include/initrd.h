/*
 * The initial RAM disk: a cpio archive in "newc" format (magic 070701), as
 * built by tools/mkinitrd.py. Pure code: the archive is read in place; no
 * file is copied until a program reads it.
 */
#ifndef FAULTLINE_INITRD_H
#define FAULTLINE_INITRD_H

#include "types.h"

struct initrd_file {
    const char *name;      /* without a leading "./" or "/", NUL-terminated in the archive */
    const uint8_t *data;
    uint64_t size;
    uint32_t mode;         /* cpio mode bits: 0100000 regular, 0040000 directory */
};

/* Calls visit() for each entry up to the TRAILER!!! record, stops early if
 * it returns non-zero. Returns the number of entries visited, or a negative
 * code: INITRD_ERR_MAGIC / INITRD_ERR_TRUNCATED / INITRD_ERR_FORMAT.
 * (-1 is kept for initrd_lookup's "no such file", so the damage codes start
 * at -2 and a caller can tell the two apart.) */
#define INITRD_NOT_FOUND     (-1)
#define INITRD_ERR_MAGIC     (-2)
#define INITRD_ERR_TRUNCATED (-3)
#define INITRD_ERR_FORMAT    (-4)

int initrd_walk(const void *base, uint64_t size,
                int (*visit)(const struct initrd_file *f, void *ctx), void *ctx);

/* Finds a file by path: leading "/" and "./" are ignored on both sides, so
 * "/sh", "sh" and "./sh" all match the archive's "sh" (and "/bin/sh" its
 * "bin/sh"). Returns 0 and fills *out, or INITRD_NOT_FOUND (-1) if absent,
 * or a negative INITRD_ERR_* for a damaged archive. */
int initrd_lookup(const void *base, uint64_t size, const char *path, struct initrd_file *out);

const char *initrd_strerror(int err);

#endif
