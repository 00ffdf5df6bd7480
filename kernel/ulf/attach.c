/*
 * Who manages whom (ulf_internal.h): ulf_attach makes the caller the
 * handler of a child's managed memory or the emulator of its system
 * calls; fork passes it on to the child's children, exec carries it over
 * to a new image; exit ends it from either side.
 */
#include "ulf_internal.h"
#include "printk.h"
#include "kstring.h"
#include <faultline/errno.h>

struct ulf_handler ulf_handlers[MAX_PROCS];
struct ulf_client ulf_clients[MAX_PROCS];

struct ulf_handler *ulf_handler_of(const struct proc *p)
{
    struct ulf_handler *h = &ulf_handlers[p - procs];
    return h->proc == p ? h : NULL;
}

struct ulf_handler *ulf_handler_self(void)
{
    struct proc *p = current_proc();
    struct ulf_handler *h = &ulf_handlers[p - procs];
    if (h->proc != p)
        *h = (struct ulf_handler){ .proc = p };
    return h;
}

struct ulf_client *ulf_client_get(int pid, int *err)
{
    spin_lock(&ulf_lock);
    struct ulf_handler *h = ulf_handler_of(current_proc());
    struct ulf_client *found = NULL, *c = h ? h->last_client : NULL;
    /* The client of the last call, usually the one again (ulf_load is
     * measured); else a look through them all. */
    if (c && c->h == h && c->proc && c->proc->pid == pid && c->as)
        found = c;
    for (int i = 0; h && i < MAX_PROCS && !found; i++) {
        c = &ulf_clients[i];
        if (c->h == h && c->proc && c->proc->pid == pid && c->as)
            found = c;
    }
    if (found) {
        found->busy++;
        h->last_client = found;
    }
    spin_unlock(&ulf_lock);
    if (!found)
        *err = -ESRCH;              /* not a space the caller manages */
    return found;
}

void ulf_client_put(struct ulf_client *c)
{
    spin_lock(&ulf_lock);
    if (--c->busy == 0 && !c->as)
        wakeup(c);                  /* exec or exit waits for the last use */
    spin_unlock(&ulf_lock);
}

/* Lock held: waits until no handler call works in c's space. */
static void client_quiesce(struct ulf_client *c)
{
    struct aspace *as = c->as;
    c->as = NULL;                   /* no new use */
    while (c->busy)
        sleep_on(c, &ulf_lock);
    c->as = as;
}

bool ulf_light_allowed(const struct proc *p)
{
    const struct ulf_client *c = client_of(p);
    return !(c->proc == p && c->syscalls);
}

/* The heap of as managed, and with space its stack and anonymous
 * mappings, those to come too; as locked. */
static void mark_managed(struct aspace *as, bool space)
{
    for (int i = 0; i < as->nregions; i++) {
        enum region_kind k = as->regions[i].kind;
        if (k == REGION_HEAP || (space && (k == REGION_STACK || k == REGION_ANON)))
            as->regions[i].managed = true;
    }
    as->anon_managed |= space;
}

/* The live child pid of the caller, its lock held; NULL if none. */
static struct proc *child_locked(int pid)
{
    struct proc *self = current_proc(), *found = NULL;
    spin_lock(&wait_lock);
    for (int i = 0; i < MAX_PROCS && !found; i++)
        if (procs[i].pid == pid && procs[i].parent == self && procs[i].state == P_ALIVE)
            found = &procs[i];
    if (found)
        spin_lock(&found->lock);
    spin_unlock(&wait_lock);
    if (found && (found->exiting || !found->as)) {
        spin_unlock(&found->lock);
        found = NULL;
    }
    return found;
}

/* Turns off the light system calls of p's threads, so that each call
 * reaches syscall_dispatch and is forwarded. */
static void threads_full_path(struct proc *p)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        spin_lock(&t->lock);
        if (t->proc == p)
            __atomic_store_n(&t->tf.light, 0, __ATOMIC_RELAXED);
        spin_unlock(&t->lock);
    }
}

long sys_ulf_attach(uint64_t pid, uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags)
{
    const uint64_t rwx = FL_PROT_READ | FL_PROT_WRITE | FL_PROT_EXEC;
    if (flags & ~(uint64_t)(FL_ULF_HEAP | FL_ULF_SYSCALLS | FL_ULF_SPACE))
        return -EINVAL;
    if (flags == FL_ULF_REGION && (!len || !prot || (prot & ~rwx)))
        return -EINVAL;
    if (flags != FL_ULF_REGION && (addr || len || prot))
        return -EINVAL;
    if (pid > INT32_MAX)
        return -ESRCH;
    struct proc *target = child_locked((int)pid);
    if (!target)
        return -ESRCH;              /* only a live child may be managed */
    spin_lock(&ulf_lock);
    struct ulf_handler *h = ulf_handler_self();
    struct ulf_client *c = client_of(target);
    long rc = 0;
    if (c->proc == target && c->h != h) {
        rc = -EBUSY;                /* another handler has it (or had: it is dying) */
    } else if (c->proc != target) {
        *c = (struct ulf_client){ .proc = target, .h = h, .as = target->as };
        target->as->ulf = c;
        h->nclients++;
    }
    if (!rc) {
        c->busy++;
        if (flags & FL_ULF_SYSCALLS)
            c->syscalls = true;
        if (flags & (FL_ULF_HEAP | FL_ULF_SPACE))
            c->heap = true;
        if (flags & FL_ULF_SPACE)
            c->space = true;
    }
    struct aspace *as = c->as;
    spin_unlock(&ulf_lock);
    spin_unlock(&target->lock);
    if (rc)
        return rc;
    if (flags & FL_ULF_SYSCALLS)
        threads_full_path(target);
    if (flags & (FL_ULF_HEAP | FL_ULF_SPACE)) {
        sleeplock_acquire(&as->lock);
        mark_managed(as, flags & FL_ULF_SPACE);
        sleeplock_release(&as->lock);
    }
    if (flags == FL_ULF_REGION)
        rc = aspace_mmap_managed(as, addr, len, (unsigned)prot);
    ulf_client_put(c);
    return rc;
}

void ulf_fork(struct proc *parent, struct proc *child)
{
    spin_lock(&ulf_lock);
    struct ulf_client *pc = client_of(parent);
    if (pc->proc == parent && pc->h) {
        struct ulf_client *cc = client_of(child);
        *cc = (struct ulf_client){ .proc = child, .h = pc->h, .heap = pc->heap,
                                   .space = pc->space, .syscalls = pc->syscalls,
                                   .as = child->as };
        child->as->ulf = cc;
        child->as->anon_managed = pc->space;   /* its regions came with the copy */
        pc->h->nclients++;
    }
    spin_unlock(&ulf_lock);
}

void ulf_exec(struct proc *p, struct aspace *new_as)
{
    spin_lock(&ulf_lock);
    struct ulf_handler *h = ulf_handler_of(p);
    if (h)
        h->pool_as = NULL;          /* the pool goes with the old image */
    spin_unlock(&ulf_lock);
    struct ulf_client *c = client_of(p);
    if (c->proc != p)
        return;
    if (c->heap) {
        /* No one reaches the new space yet: marked before it is published. */
        sleeplock_acquire(&new_as->lock);
        mark_managed(new_as, c->space);
        sleeplock_release(&new_as->lock);
    }
    spin_lock(&ulf_lock);
    client_quiesce(c);
    c->as = new_as;
    new_as->ulf = c;
    spin_unlock(&ulf_lock);
}

/* Lock held: whether a thread of q waits on h (it then prints its own
 * kill line). */
static bool waits_on(const struct ulf_handler *h, const struct proc *q)
{
    for (const struct ulf_wait *w = h->head; w; w = w->next)
        if (w->t->proc == q)
            return true;
    for (const struct ulf_wait *w = h->taken; w; w = w->next)
        if (w->t->proc == q)
            return true;
    return false;
}

void ulf_exit(struct proc *p)
{
    int victims[MAX_PROCS];
    char names[MAX_PROCS][FL_NAME_MAX];
    int nvictims = 0;
    spin_lock(&ulf_lock);
    struct ulf_client *c = client_of(p);
    if (c->proc == p) {
        client_quiesce(c);
        if (c->h) {
            c->h->nclients--;
            ulf_wake_receivers(c->h);  /* recv ends when nothing is left */
        }
        *c = (struct ulf_client){ 0 };
    }
    struct ulf_handler *h = ulf_handler_of(p);
    if (h) {
        /* Its clients' memory (or system calls) had no one else: they end.
         * A thread waiting on it says so itself, with its fault's address. */
        for (int i = 0; i < MAX_PROCS; i++) {
            struct ulf_client *ci = &ulf_clients[i];
            if (ci->h != h)
                continue;
            ci->h = NULL;
            if (!waits_on(h, ci->proc)) {
                victims[nvictims] = ci->proc->pid;
                kstrlcpy(names[nvictims++], ci->proc->name, FL_NAME_MAX);
            }
        }
        ulf_orphan_waiters(h);
        ulf_grants_orphan(h);
        *h = (struct ulf_handler){ 0 };
    }
    spin_unlock(&ulf_lock);
    for (int i = 0; i < nvictims; i++) {
        kprintf("faultline: killed pid=%d name=%s cause=its fault handler exited "
                "sepc=0x0 stval=0x0\n",
                victims[i], names[i]);
        proc_kill(victims[i], SIGKILL);
    }
}
