/*
 * exec: builds a new address space from an ELF file, then switches the
 * process to it. Everything that can fail happens before the switch, so a
 * failed exec leaves the caller running its old program.
 *
 * A program comes from the initrd or from a ram file (what cc writes).
 * The initrd stays in memory, so its bytes are the origin of the image's
 * pages: they are faulted in on demand, or all loaded now under mm=swap.
 * A ram file may be rewritten or removed while its program runs, so it
 * cannot be an origin: its program is copied in whole at exec, under
 * either manager, and the copies are marked dirty, so that both managers
 * write them to the swap device rather than drop them.
 */
#include "ulf.h"
#include "exec.h"
#include "elf.h"
#include "initrd.h"
#include "file.h"
#include "aspace.h"
#include "proc.h"
#include "signal.h"
#include "printk.h"
#include "kstring.h"
#include "usercopy.h"
#include "frame.h"
#include "mm.h"
#include <faultline/abi.h>
#include <faultline/errno.h>

#define EXEC_ARG_BYTES  PAGE_SIZE      /* argv strings and pointers together */
#define ARGV_BYTES      ((FL_ARG_MAX + 1) * sizeof(char *))

static unsigned seg_prot(uint32_t flags)
{
    unsigned p = 0;
    if (flags & ELF_SEG_R) p |= PROT_R;
    if (flags & ELF_SEG_W) p |= PROT_W;
    if (flags & ELF_SEG_X) p |= PROT_X;
    return p;
}

/* Where the program's bytes are: one of the two. */
struct image_src {
    const uint8_t *initrd;         /* the file, in place in the initrd */
    const struct ramfile *ram;     /* a ram file; the fs lock is held */
};

/* The bytes of a segment, copied from a ram file page by page. */
static int copy_from_ram(struct aspace *as, const struct ramfile *r, const struct elf_segment *s)
{
    for (uint64_t done = 0; done < s->filesz;) {
        uint64_t pos = s->offset + done, in = pos % PAGE_SIZE;
        uint64_t chunk = MIN(s->filesz - done, PAGE_SIZE - in);
        int rc = aspace_write(as, s->vaddr + done, ramfs_page(r, pos / PAGE_SIZE) + in, chunk);
        if (rc)
            return rc;
        done += chunk;
    }
    return 0;
}

/*
 * Each segment becomes an image region. From the initrd, its pages come
 * from the file's bytes: the paging manager leaves them to be faulted in
 * (text is paged from the initrd on demand, as BSD paged it from the file
 * system); the swap manager loads the whole image now, as V7 read the
 * whole program in. From a ram file, the region has no origin but zeros
 * and the file's bytes are written in now (see the top of this file).
 */
static int load_segments(struct aspace *as, const struct image_src *src,
                         const struct elf_image *img, vaddr_t *image_end)
{
    *image_end = USER_BASE;
    for (int i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->seg[i];
        vaddr_t start = ALIGN_DOWN(s->vaddr, PAGE_SIZE);
        vaddr_t end = ALIGN_UP(s->vaddr + s->memsz, PAGE_SIZE);
        int rc;
        if (src->ram) {
            rc = aspace_add_image(as, start, end, seg_prot(s->flags), NULL, s->vaddr, 0);
            if (!rc)
                rc = copy_from_ram(as, src->ram, s);
        } else {
            rc = aspace_add_image(as, start, end, seg_prot(s->flags),
                                  src->initrd + s->offset, s->vaddr, s->filesz);
            /* Loading all of it only while it fits in free memory: making
             * room for a space that is not the process's yet would swap out
             * the image it is about to drop. Pages not loaded come on demand. */
            uint64_t pages = (end - start) >> PAGE_SHIFT;
            bool load = mm->load_image_at_exec && frames_free_count() > USER_FRAME_RESERVE + pages;
            for (vaddr_t va = start; va < end && !rc && load; va += PAGE_SIZE)
                rc = aspace_make_present(as, va, NULL);
        }
        if (rc)
            return rc;
        if (end > *image_end)
            *image_end = end;
    }
    return 0;
}

/* Pages the image's segments span: what the new program holds from the
 * start, before any heap or stack. */
static uint64_t image_pages(const struct elf_image *img)
{
    uint64_t pages = 0;
    for (int i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->seg[i];
        pages += (ALIGN_UP(s->vaddr + s->memsz, PAGE_SIZE) - ALIGN_DOWN(s->vaddr, PAGE_SIZE)) >> PAGE_SHIFT;
    }
    return pages;
}

struct new_image {
    struct aspace *as;
    vaddr_t image_end;
    uint64_t entry;
};

/* A new address space holding the program; head is its first head_len bytes. */
static int build_image(const struct image_src *src, const uint8_t *head, uint64_t head_len,
                       uint64_t size, struct new_image *out)
{
    struct elf_image img;
    if (elf_parse_head(head, head_len, size, USER_BASE, USER_HEAP_LIMIT, &img))
        return -ENOEXEC;
    /* A program that could never be wholly in memory (mm=swap) is refused
     * here, not killed when the swapper finds it cannot bring it in; like
     * a promise (aspace_may_grow), with room left for its page tables. */
    if (!mm_process_fits(image_pages(&img) + COMMIT_RESERVE_FRAMES))
        return -ENOMEM;
    struct aspace *as = aspace_create();
    if (!as)
        return -ENOMEM;
    /* Nobody else knows this space yet, but the replacement clock finds
     * its frames through the core map: it must see it locked. Fresh: a
     * fault in it may make room by sending out the current image, whose
     * lock it then takes (mm=swap, lockrank.h). */
    sleeplock_acquire_fresh(&as->lock);
    int rc = load_segments(as, src, &img, &out->image_end);
    sleeplock_release(&as->lock);
    if (rc) {
        aspace_destroy(as);
        return rc;
    }
    out->as = as;
    out->entry = img.entry;
    return 0;
}

/* Under the fs lock (rootfs_with_ram_file). The ELF and program headers
 * must be in the first page, which is all of the file at hand at once. */
static int build_from_ram(struct ramfile *r, void *ctx)
{
    uint64_t size = ramfs_size(r);
    struct image_src src = { NULL, r };
    return build_image(&src, ramfs_page(r, 0), MIN(size, PAGE_SIZE), size, ctx);
}

/* Lays out argv at the top of the new stack; returns the initial sp. */
static int push_args(struct aspace *as, int argc, char *const argv[], uint64_t *sp_out, uint64_t *argv_out)
{
    uint64_t ptrs[FL_ARG_MAX + 1];
    uint64_t sp = USER_STACK_TOP;
    for (int i = argc - 1; i >= 0; i--) {
        uint64_t len = strlen(argv[i]) + 1;
        sp -= len;
        if (aspace_write(as, sp, argv[i], len))
            return -ENOMEM;
        ptrs[i] = sp;
    }
    ptrs[argc] = 0;
    sp = ALIGN_DOWN(sp, 16) - (uint64_t)(argc + 1) * sizeof(uint64_t);
    sp = ALIGN_DOWN(sp, 16);
    if (aspace_write(as, sp, ptrs, (uint64_t)(argc + 1) * sizeof(uint64_t)))
        return -ENOMEM;
    *sp_out = sp;
    *argv_out = sp;
    return 0;
}

static const char *basename_of(const char *path)
{
    const char *b = path;
    for (const char *s = path; *s; s++)
        if (*s == '/')
            b = s + 1;
    return b;
}

long exec_kernel_argv(const char *path, char *const argv[])
{
    int argc = 0;
    while (argv[argc]) {
        if (++argc > FL_ARG_MAX)
            return -E2BIG;
    }
    struct new_image ni;
    struct initrd_file f;
    int rc = rootfs_find_program(path, &f);
    if (rc == 0) {
        struct image_src src = { f.data, NULL };
        rc = build_image(&src, f.data, f.size, f.size, &ni);
    } else if (rc == -ENOENT) {
        rc = rootfs_with_ram_file(path, build_from_ram, &ni);
    }
    if (rc)
        return rc;

    struct aspace *as = ni.as;
    vaddr_t image_end = ni.image_end;
    uint64_t sp, uargv;
    sleeplock_acquire_fresh(&as->lock);   /* still only ours, as above */
    rc = aspace_add_region(as, image_end, image_end, PROT_R | PROT_W, REGION_HEAP);
    if (!rc)
        rc = aspace_add_region(as, USER_STACK_TOP - USER_STACK_MAX, USER_STACK_TOP,
                               PROT_R | PROT_W, REGION_STACK);
    if (!rc)
        rc = push_args(as, argc, argv, &sp, &uargv);
    sleeplock_release(&as->lock);
    if (rc) {
        aspace_destroy(as);
        return rc;
    }
    as->heap_start = as->brk = image_end;

    /* The other threads leave first; if the process is killed meanwhile,
     * the new image is dropped and the caller leaves on its way out. */
    struct thread *t = current_thread();
    struct proc *p = t->proc;
    rc = proc_stop_others_for_exec(p);
    if (rc) {
        aspace_destroy(as);
        return rc;
    }
    /* Point of no return. */
    ulf_exec(p, as);
    struct aspace *old = p->as;
    p->as = as;
    irq_save();
    mmu_activate(as->root);
    this_cpu()->active_root = as->root;
    irq_restore();
    aspace_destroy(old);
    signal_exec_reset(p);
    kstrlcpy(p->name, basename_of(path), sizeof p->name);
    kstrlcpy(t->name, p->name, sizeof t->name);
    arch_trapframe_init(&t->tf, ni.entry, sp, (uint64_t)argc, uargv);
    return argc;
}

/* Copies the argv array and strings into buf: strings from the start,
 * the pointer array in the last ARGV_BYTES. Returns argc or -errno. */
static long gather_args(char *buf, uint64_t uargv)
{
    char **argv = (char **)(buf + EXEC_ARG_BYTES - ARGV_BYTES);
    uint64_t used = 0, room = EXEC_ARG_BYTES - ARGV_BYTES;
    int argc = 0;
    for (;; argc++) {
        uint64_t uptr;
        if (copy_from_user(&uptr, uargv + (uint64_t)argc * sizeof(uint64_t), sizeof uptr))
            return -EFAULT;
        if (!uptr)
            break;
        if (argc == FL_ARG_MAX)
            return -E2BIG;
        if (used == room)
            return -E2BIG;
        long len = copy_string_from_user(buf + used, uptr, room - used);
        if (len == -ENAMETOOLONG)
            return -E2BIG;
        if (len < 0)
            return len;
        argv[argc] = buf + used;
        used += (uint64_t)len + 1;
    }
    argv[argc] = NULL;
    return argc;
}

long sys_exec(uint64_t upath, uint64_t uargv)
{
    char path[FL_PATH_MAX];
    long n = copy_string_from_user(path, upath, sizeof path);
    if (n < 0)
        return n;
    /* The strings are gathered in one borrowed frame: too big for the
     * kernel stack, and exec may run on several harts at once. */
    paddr_t page = frame_alloc(FRAME_KERNEL);
    if (!page)
        return -ENOMEM;
    char *buf = (char *)PA_TO_KVA(page);
    long rc = gather_args(buf, uargv);
    if (rc >= 0)
        rc = exec_kernel_argv(path, (char *const *)(buf + EXEC_ARG_BYTES - ARGV_BYTES));
    frame_free(page);
    return rc;
}
