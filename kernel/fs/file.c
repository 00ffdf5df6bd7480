/*
 * Open files, descriptors and the flat root file system.
 *
 * Locks: a process's fdtable lock (spin, proc.files_lock) guards its
 * descriptor slots, so install, dup and close are atomic between its
 * threads; ftable_lock (spin, taken inside it) guards reference counts and
 * slot use; fs_lock (sleep) guards offsets and ram-file contents, and is
 * held across user copies, which may fault. Console reads take none of
 * them while blocked.
 *
 * References: every descriptor slot holds one reference to its file, and
 * every call that uses a file through a descriptor (read, write, fstat)
 * takes one more for its own length (fget/fput, taken under the fdtable
 * lock), so a close in another thread never frees a file a call is using:
 * the last fput frees it instead.
 */
#include "file.h"
#include "proc.h"
#include "console.h"
#include "sleeplock.h"
#include "usercopy.h"
#include "kstring.h"
#include "printk.h"
#include <faultline/abi.h>
#include <faultline/errno.h>

#define CONSOLE_CHUNK 128          /* bytes copied per console write step */
#define DEV_CONSOLE "dev/console"
#define DEV_NULL    "dev/null"

static struct file ftable[MAX_FILES];
static struct spinlock ftable_lock = SPINLOCK_INIT("ftable", LOCK_RANK_FTABLE);
static struct sleeplock fs_lock;
static const void *initrd_base;
static uint64_t initrd_size;
static int initrd_entries;

static int count_entry(const struct initrd_file *f, void *ctx)
{
    (void)f;
    (*(int *)ctx)++;
    return 0;
}

void files_init(const void *initrd, uint64_t size)
{
    sleeplock_init(&fs_lock, "fs", LOCK_RANK_FS);
    initrd_base = initrd;
    initrd_size = size;
    initrd_entries = 0;
    if (initrd) {
        int rc = initrd_walk(initrd, size, count_entry, &initrd_entries);
        if (rc < 0) {
            kprintf("faultline: initrd damaged (%s); running without it\n", initrd_strerror(rc));
            initrd_base = NULL;
            initrd_entries = 0;
        }
    }
}

int rootfs_initrd_count(void) { return initrd_entries; }

static const char *strip_root(const char *path)
{
    while (*path == '/')
        path++;
    return path;
}

#define CPIO_TYPE_MASK 0170000
#define CPIO_TYPE_DIR  0040000
static bool is_dir_mode(uint32_t mode) { return (mode & CPIO_TYPE_MASK) == CPIO_TYPE_DIR; }

static bool strchr_slash(const char *s)
{
    for (; *s; s++)
        if (*s == '/')
            return true;
    return false;
}

int rootfs_find_program(const char *path, struct initrd_file *out)
{
    if (!initrd_base || initrd_lookup(initrd_base, initrd_size, path, out) != 0)
        return -ENOENT;
    return is_dir_mode(out->mode) ? -EISDIR : 0;
}

int rootfs_with_ram_file(const char *path, int (*fn)(struct ramfile *r, void *ctx), void *ctx)
{
    sleeplock_acquire(&fs_lock);
    struct ramfile *r = ramfs_lookup(strip_root(path));
    int rc = r ? fn(r, ctx) : -ENOENT;
    sleeplock_release(&fs_lock);
    return rc;
}

static struct file *file_alloc(enum file_kind kind)
{
    spin_lock(&ftable_lock);
    for (int i = 0; i < MAX_FILES; i++) {
        if (ftable[i].refs == 0) {
            struct file *f = &ftable[i];
            memset(f, 0, sizeof *f);
            f->refs = 1;
            f->kind = kind;
            spin_unlock(&ftable_lock);
            return f;
        }
    }
    spin_unlock(&ftable_lock);
    return NULL;
}

static void file_get(struct file *f)
{
    spin_lock(&ftable_lock);
    f->refs++;
    spin_unlock(&ftable_lock);
}

/* Drops a reference. The last one releases the ram file: what that needs
 * is read before the slot is marked free, since file_alloc may hand the
 * slot out (and clear it) the moment refs is 0. */
static void file_put(struct file *f)
{
    struct ramfile *ram = NULL;
    spin_lock(&ftable_lock);
    if (f->refs == 1 && f->kind == FILE_RAM)
        ram = f->ram;
    f->refs--;
    spin_unlock(&ftable_lock);
    if (ram) {
        sleeplock_acquire(&fs_lock);
        ramfs_close(ram);
        sleeplock_release(&fs_lock);
    }
}

/* The lowest free slot of p gets f. Caller holds p->files_lock. */
static int fd_install_locked(struct proc *p, struct file *f)
{
    for (int fd = 0; fd < MAX_OPEN_FILES; fd++) {
        if (!p->files[fd]) {
            p->files[fd] = f;
            return fd;
        }
    }
    return -EMFILE;
}

static int fd_install(struct proc *p, struct file *f)
{
    spin_lock(&p->files_lock);
    int fd = fd_install_locked(p, f);
    spin_unlock(&p->files_lock);
    return fd;
}

/* The file behind fd with a reference for the caller, which gives it back
 * with fput: it stays valid even if another thread closes fd meanwhile. */
static struct file *fget(uint64_t fd)
{
    struct proc *p = current_proc();
    if (fd >= MAX_OPEN_FILES)
        return NULL;
    spin_lock(&p->files_lock);
    struct file *f = p->files[fd];
    if (f)
        file_get(f);
    spin_unlock(&p->files_lock);
    return f;
}

static void fput(struct file *f)
{
    file_put(f);
}

int files_open_console(struct proc *p)
{
    struct file *f = file_alloc(FILE_CONSOLE);
    if (!f)
        return -ENFILE;
    f->readable = f->writable = true;
    f->refs = 3;
    p->files[0] = p->files[1] = p->files[2] = f;
    return 0;
}

/* The child is not running yet; the parent's other threads may be
 * opening and closing, so its table is read under its lock. */
void files_fork(struct proc *parent, struct proc *child)
{
    spin_lock(&parent->files_lock);
    for (int fd = 0; fd < MAX_OPEN_FILES; fd++) {
        if (parent->files[fd]) {
            file_get(parent->files[fd]);
            child->files[fd] = parent->files[fd];
        }
    }
    spin_unlock(&parent->files_lock);
}

void files_close_all(struct proc *p)
{
    struct file *open[MAX_OPEN_FILES];
    spin_lock(&p->files_lock);
    for (int fd = 0; fd < MAX_OPEN_FILES; fd++) {
        open[fd] = p->files[fd];
        p->files[fd] = NULL;
    }
    spin_unlock(&p->files_lock);
    /* Outside the spinlock: the last reference to a ram file sleeps for fs. */
    for (int fd = 0; fd < MAX_OPEN_FILES; fd++)
        if (open[fd])
            file_put(open[fd]);
}

static long open_ram(struct file *f, const char *name, uint64_t flags)
{
    struct ramfile *r = ramfs_lookup(name);
    int err = -ENOENT;
    if (!r && (flags & O_CREAT))
        r = ramfs_create(name, &err);
    if (!r)
        return err;
    if (flags & O_TRUNC)
        ramfs_truncate(r);
    ramfs_open(r);
    f->kind = FILE_RAM;
    f->ram = r;
    return 0;
}

long sys_open(uint64_t upath, uint64_t flags)
{
    char path[FL_PATH_MAX];
    long rc = copy_string_from_user(path, upath, sizeof path);
    if (rc < 0)
        return rc;
    uint64_t acc = flags & O_ACCMODE;
    if (acc == O_ACCMODE || (flags & ~(uint64_t)(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND)))
        return -EINVAL;
    const char *name = strip_root(path);
    if (!*name)
        return -EISDIR;

    struct file *f = file_alloc(FILE_NULL);
    if (!f)
        return -ENFILE;
    f->readable = acc != O_WRONLY;
    f->writable = acc != O_RDONLY;
    f->append = (flags & O_APPEND) != 0;

    sleeplock_acquire(&fs_lock);
    struct initrd_file img;
    if (strcmp(name, DEV_CONSOLE) == 0) {
        f->kind = FILE_CONSOLE;
        rc = 0;
    } else if (strcmp(name, DEV_NULL) == 0) {
        f->kind = FILE_NULL;
        rc = 0;
    } else if (initrd_base && initrd_lookup(initrd_base, initrd_size, name, &img) == 0) {
        if (f->writable || (flags & O_TRUNC))
            rc = -EROFS;
        else if (is_dir_mode(img.mode))
            rc = -EISDIR;
        else {
            f->kind = FILE_INITRD;
            f->image = img;
            rc = 0;
        }
    } else if (strchr_slash(name)) {
        rc = -ENOENT;              /* the root is flat: no directories */
    } else {
        rc = open_ram(f, name, flags);
    }
    sleeplock_release(&fs_lock);

    if (rc == 0) {
        rc = fd_install(current_proc(), f);
        if (rc >= 0)
            return rc;
    }
    if (f->kind == FILE_RAM && f->ram) {
        sleeplock_acquire(&fs_lock);
        ramfs_close(f->ram);
        sleeplock_release(&fs_lock);
    }
    f->kind = FILE_NULL;
    file_put(f);
    return rc;
}

long sys_close(uint64_t fd)
{
    struct proc *p = current_proc();
    if (fd >= MAX_OPEN_FILES)
        return -EBADF;
    spin_lock(&p->files_lock);
    struct file *f = p->files[fd];
    p->files[fd] = NULL;
    spin_unlock(&p->files_lock);
    if (!f)
        return -EBADF;
    file_put(f);
    return 0;
}

long sys_dup(uint64_t fd)
{
    struct proc *p = current_proc();
    if (fd >= MAX_OPEN_FILES)
        return -EBADF;
    spin_lock(&p->files_lock);
    struct file *f = p->files[fd];
    int nfd = f ? fd_install_locked(p, f) : -EBADF;
    if (nfd >= 0)
        file_get(f);
    spin_unlock(&p->files_lock);
    return nfd;
}

static long file_read(struct file *f, uint64_t ubuf, uint64_t n)
{
    if (!f->readable)
        return -EBADF;
    if (!user_range_ok(ubuf, n))
        return -EFAULT;
    switch (f->kind) {
    case FILE_CONSOLE:
        return console_read_user(ubuf, n);
    case FILE_NULL:
        return 0;
    case FILE_INITRD: {
        sleeplock_acquire(&fs_lock);
        long rc = 0;
        if (f->offset < f->image.size) {
            uint64_t chunk = MIN(n, f->image.size - f->offset);
            rc = copy_to_user(ubuf, f->image.data + f->offset, chunk) ? -EFAULT : (long)chunk;
            if (rc > 0)
                f->offset += (uint64_t)rc;
        }
        sleeplock_release(&fs_lock);
        return rc;
    }
    case FILE_RAM: {
        sleeplock_acquire(&fs_lock);
        long rc = ramfs_read(f->ram, f->offset, ubuf, n);
        if (rc > 0)
            f->offset += (uint64_t)rc;
        sleeplock_release(&fs_lock);
        return rc;
    }
    }
    return -EBADF;
}

long sys_read(uint64_t fd, uint64_t ubuf, uint64_t n)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long rc = file_read(f, ubuf, n);
    fput(f);
    return rc;
}

long files_fd_is_console(uint64_t fd)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long rc = f->kind == FILE_CONSOLE ? 0 : -ENOTTY;
    fput(f);
    return rc;
}

static long console_write_user(uint64_t ubuf, uint64_t n)
{
    char buf[CONSOLE_CHUNK];
    uint64_t done = 0;
    while (done < n) {
        uint64_t chunk = MIN(n - done, sizeof buf);
        if (copy_from_user(buf, ubuf + done, chunk))
            return done ? (long)done : -EFAULT;
        console_write(buf, chunk);
        done += chunk;
    }
    return (long)done;
}

static long file_write(struct file *f, uint64_t ubuf, uint64_t n)
{
    if (!f->writable)
        return -EBADF;
    if (!user_range_ok(ubuf, n))
        return -EFAULT;
    switch (f->kind) {
    case FILE_CONSOLE:
        return console_write_user(ubuf, n);
    case FILE_NULL:
        return (long)n;
    case FILE_INITRD:
        return -EROFS;
    case FILE_RAM: {
        sleeplock_acquire(&fs_lock);
        if (f->append)
            f->offset = ramfs_size(f->ram);
        long rc = ramfs_write(f->ram, f->offset, ubuf, n);
        if (rc > 0)
            f->offset += (uint64_t)rc;
        sleeplock_release(&fs_lock);
        return rc;
    }
    }
    return -EBADF;
}

long sys_write(uint64_t fd, uint64_t ubuf, uint64_t n)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long rc = file_write(f, ubuf, n);
    fput(f);
    return rc;
}

long sys_fstat(uint64_t fd, uint64_t ustat)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    struct fl_stat st = { 0 };
    switch (f->kind) {
    case FILE_CONSOLE:
    case FILE_NULL:
        st.type = FL_T_DEV;
        break;
    case FILE_INITRD:
        st.type = FL_T_FILE;
        st.flags = FL_STAT_READONLY;
        st.size = f->image.size;
        break;
    case FILE_RAM:
        sleeplock_acquire(&fs_lock);
        st.type = FL_T_FILE;
        st.size = ramfs_size(f->ram);
        sleeplock_release(&fs_lock);
        break;
    }
    fput(f);
    return copy_to_user(ustat, &st, sizeof st) ? -EFAULT : 0;
}

struct nth_ctx { int want; int seen; struct initrd_file found; };

static int nth_entry(const struct initrd_file *f, void *arg)
{
    struct nth_ctx *c = arg;
    if (c->seen++ == c->want) {
        c->found = *f;
        return 1;
    }
    return 0;
}

/* Directory order: the two devices, the initrd's files, then ram files. */
long sys_readdir(uint64_t index, uint64_t udirent)
{
    struct fl_dirent d = { 0 };
    static const char *const devs[] = { DEV_CONSOLE, DEV_NULL };
    if (index < ARRAY_SIZE(devs)) {
        kstrlcpy(d.name, devs[index], sizeof d.name);
        d.type = FL_T_DEV;
    } else if (index - ARRAY_SIZE(devs) < (uint64_t)initrd_entries) {
        struct nth_ctx c = { (int)(index - ARRAY_SIZE(devs)), 0, { 0 } };
        initrd_walk(initrd_base, initrd_size, nth_entry, &c);
        kstrlcpy(d.name, c.found.name, sizeof d.name);
        d.type = is_dir_mode(c.found.mode) ? FL_T_DIR : FL_T_FILE;
        d.flags = FL_STAT_READONLY;
        d.size = c.found.size;
    } else {
        const char *name;
        uint64_t size;
        sleeplock_acquire(&fs_lock);
        bool ok = index - ARRAY_SIZE(devs) - (uint64_t)initrd_entries < MAX_RAM_FILES &&
                  ramfs_entry((int)(index - ARRAY_SIZE(devs) - (uint64_t)initrd_entries), &name, &size);
        if (ok) {
            kstrlcpy(d.name, name, sizeof d.name);
            d.type = FL_T_FILE;
            d.size = size;
        }
        sleeplock_release(&fs_lock);
        if (!ok) {
            /* Still check the pointer, so bad input is reported even at the end. */
            return user_range_ok(udirent, sizeof d) ? 0 : -EFAULT;
        }
    }
    return copy_to_user(udirent, &d, sizeof d) ? -EFAULT : 1;
}

long sys_unlink(uint64_t upath)
{
    char path[FL_PATH_MAX];
    long rc = copy_string_from_user(path, upath, sizeof path);
    if (rc < 0)
        return rc;
    const char *name = strip_root(path);
    struct initrd_file img;
    if ((initrd_base && initrd_lookup(initrd_base, initrd_size, name, &img) == 0) ||
        strcmp(name, DEV_CONSOLE) == 0 || strcmp(name, DEV_NULL) == 0)
        return -EROFS;
    sleeplock_acquire(&fs_lock);
    rc = ramfs_unlink(name);
    sleeplock_release(&fs_lock);
    return rc;
}
