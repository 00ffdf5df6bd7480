/*
 * Files: the root file system is flat. It holds the initrd's files
 * (read-only, read in place), writable in-memory "ram files" created with
 * O_CREAT, and two devices, /dev/console and /dev/null.
 *
 * Ownership: the file table owns struct file (reference counted; fork and
 * dup share one, as in UNIX, offset included); a process owns its fd slots.
 */
#ifndef FAULTLINE_FILE_H
#define FAULTLINE_FILE_H

#include "types.h"
#include "initrd.h"

struct proc;
struct ramfile;

enum file_kind { FILE_CONSOLE, FILE_NULL, FILE_INITRD, FILE_RAM };

struct file {
    int refs;                    /* under the file-table lock */
    enum file_kind kind;
    bool readable, writable, append;
    uint64_t offset;             /* under the fs lock */
    struct initrd_file image;    /* FILE_INITRD */
    struct ramfile *ram;         /* FILE_RAM */
};

void files_init(const void *initrd, uint64_t initrd_size);
int  files_open_console(struct proc *p);        /* fds 0, 1, 2 */
void files_fork(struct proc *parent, struct proc *child);
void files_close_all(struct proc *p);
/* An executable regular file from the initrd. 0, -ENOENT or -EISDIR. */
int  rootfs_find_program(const char *path, struct initrd_file *out);
/* Runs fn on the ram file at path with the fs lock held, so that its
 * contents stay as they are (exec copies a program out of it). fn's
 * result, or -ENOENT if there is no such ram file. */
int  rootfs_with_ram_file(const char *path, int (*fn)(struct ramfile *r, void *ctx), void *ctx);
int  rootfs_initrd_count(void);
/* 0 if fd is open on the console, -EBADF if not open, -ENOTTY if another file. */
long files_fd_is_console(uint64_t fd);

long sys_open(uint64_t upath, uint64_t flags);
long sys_close(uint64_t fd);
long sys_read(uint64_t fd, uint64_t ubuf, uint64_t n);
long sys_write(uint64_t fd, uint64_t ubuf, uint64_t n);
long sys_dup(uint64_t fd);
long sys_fstat(uint64_t fd, uint64_t ustat);
long sys_readdir(uint64_t index, uint64_t udirent);
long sys_unlink(uint64_t upath);

/* --- ram files (ramfs.c), called with the fs lock held --- */
struct ramfile *ramfs_lookup(const char *name);
struct ramfile *ramfs_create(const char *name, int *err);
long ramfs_read(struct ramfile *r, uint64_t off, uint64_t uva, uint64_t n);
long ramfs_write(struct ramfile *r, uint64_t off, uint64_t uva, uint64_t n);
void ramfs_truncate(struct ramfile *r);
uint64_t ramfs_size(const struct ramfile *r);
/* Page i of the contents, in the kernel's view (zeros for a hole). */
const uint8_t *ramfs_page(const struct ramfile *r, uint64_t i);
void ramfs_open(struct ramfile *r);
void ramfs_close(struct ramfile *r);
int  ramfs_unlink(const char *name);
/* Name and size of the i-th live ram file; false past the end. */
bool ramfs_entry(int i, const char **name, uint64_t *size);

#endif
