/*
 * Process groups, sessions and the console's foreground group.
 *
 * A job (one command, later every process of a pipeline) is one process
 * group: the shell puts its processes in a group named after the first
 * one's pid, makes that group the console's foreground group while the
 * job runs, and takes the console back when it is done. ^C and ^\ on the
 * console signal every process of the foreground group (console.c), and
 * kill(-pgid, sig) signals a group from anywhere.
 *
 * The rules are POSIX's, less what needs users or job stops:
 * - setpgid(pid, pgid) acts on the caller or one of its children, in the
 *   caller's session, that does not lead a session; pgid is the target's
 *   own pid (a new group) or an existing group of that session.
 *   (POSIX also refuses a child that has called exec: not enforced.)
 * - setsid() makes the caller the leader of a new session and group,
 *   unless it already leads a group; the new session has no controlling
 *   terminal.
 * - The console is the controlling terminal of init's session. Only its
 *   processes may ask for or set the foreground group, which must be a
 *   group of that session. Without job stops there is no SIGTTOU: any
 *   process of the session may set it.
 *
 * Lock: wait_lock for every pgid and sid (fork sets the child's under it
 * too); the console's lock is taken inside it (docs/architecture.md).
 */
#include "pgrp.h"
#include "proc.h"
#include "console.h"
#include "file.h"
#include <faultline/errno.h>

static int console_sid;      /* the session the console belongs to: init's */

void pgrp_init_first(struct proc *p)
{
    p->pgid = p->sid = p->pid;
    console_sid = p->sid;
}

void pgrp_fork(const struct proc *parent, struct proc *child)
{
    child->pgid = parent->pgid;
    child->sid = parent->sid;
}

/* The live (not zombie) process with this pid. Caller holds wait_lock. */
static struct proc *find_alive(int pid)
{
    for (int i = 0; i < MAX_PROCS; i++)
        if (procs[i].state == P_ALIVE && procs[i].pid == pid)
            return &procs[i];
    return NULL;
}

/* Whether some live process of session sid is in group pgid. Caller holds wait_lock. */
static bool group_in_session(int pgid, int sid)
{
    for (int i = 0; i < MAX_PROCS; i++)
        if (procs[i].state == P_ALIVE && procs[i].pgid == pgid && procs[i].sid == sid)
            return true;
    return false;
}

/* The process a pid argument names: 0 = the caller. Caller holds wait_lock. */
static struct proc *named(struct proc *self, int pid)
{
    return pid == 0 || pid == self->pid ? self : find_alive(pid);
}

long pgrp_kill(int pgid, int sig, int from)
{
    if (sig < 0 || sig >= NSIG)
        return -EINVAL;
    if (pgid <= 0)
        return -ESRCH;
    bool sent = false, refused = false;
    spin_lock(&wait_lock);
    for (int i = 0; i < MAX_PROCS; i++) {
        struct proc *p = &procs[i];
        if (p->state != P_ALIVE || p->pgid != pgid)
            continue;
        spin_lock(&p->lock);
        if (p->state == P_ALIVE) {
            if (proc_is_init(p)) {
                refused = true;
            } else {
                if (sig)                  /* 0: only whether there is one to signal */
                    proc_post_signal(p, sig, from);
                sent = true;
            }
        }
        spin_unlock(&p->lock);
    }
    spin_unlock(&wait_lock);
    return sent ? 0 : refused ? -EPERM : -ESRCH;
}

long sys_setpgid(uint64_t upid, uint64_t upgid)
{
    int pid = (int)upid, pgid = (int)upgid;
    if (pid < 0 || pgid < 0)
        return -EINVAL;
    struct proc *self = current_proc();
    long rc = 0;
    spin_lock(&wait_lock);
    struct proc *t = named(self, pid);
    if (!t || (t != self && t->parent != self))
        rc = -ESRCH;                 /* neither the caller nor its child */
    else if (t->sid != self->sid || t->sid == t->pid)
        rc = -EPERM;                 /* another session's, or a session leader */
    else if (pgid != 0 && pgid != t->pid && !group_in_session(pgid, self->sid))
        rc = -EPERM;                 /* no such group in this session */
    else   /* atomic: the console reads a reader's pgid without wait_lock */
        __atomic_store_n(&t->pgid, pgid ? pgid : t->pid, __ATOMIC_RELAXED);
    spin_unlock(&wait_lock);
    if (rc == 0)
        console_wake_readers();      /* it may have joined or left the foreground */
    return rc;
}

long sys_getpgid(uint64_t upid)
{
    int pid = (int)upid;
    if (pid < 0)
        return -ESRCH;
    spin_lock(&wait_lock);
    struct proc *t = named(current_proc(), pid);
    long rc = t ? t->pgid : -ESRCH;
    spin_unlock(&wait_lock);
    return rc;
}

long sys_setsid(void)
{
    struct proc *self = current_proc();
    long rc;
    spin_lock(&wait_lock);
    if (self->pgid == self->pid) {
        rc = -EPERM;                 /* a group leader would leave its group behind */
    } else {
        __atomic_store_n(&self->pgid, self->pid, __ATOMIC_RELAXED);
        __atomic_store_n(&self->sid, self->pid, __ATOMIC_RELAXED);
        rc = self->pid;
    }
    spin_unlock(&wait_lock);
    if (rc > 0)
        console_wake_readers();
    return rc;
}

long sys_getsid(uint64_t upid)
{
    int pid = (int)upid;
    if (pid < 0)
        return -ESRCH;
    spin_lock(&wait_lock);
    struct proc *t = named(current_proc(), pid);
    long rc = t ? t->sid : -ESRCH;
    spin_unlock(&wait_lock);
    return rc;
}

/* 0 if fd is the console and it is the caller's controlling terminal. */
static long check_terminal(uint64_t fd, const struct proc *self)
{
    long rc = files_fd_is_console(fd);
    if (rc == 0 && __atomic_load_n(&self->sid, __ATOMIC_RELAXED) != console_sid)
        rc = -ENOTTY;
    return rc;
}

long sys_tcgetpgrp(uint64_t fd)
{
    long rc = check_terminal(fd, current_proc());
    return rc ? rc : console_foreground();
}

long sys_tcsetpgrp(uint64_t fd, uint64_t upgid)
{
    struct proc *self = current_proc();
    int pgid = (int)upgid;
    long rc = check_terminal(fd, self);
    if (rc)
        return rc;
    if (pgid <= 0)
        return -EINVAL;
    spin_lock(&wait_lock);
    if (!group_in_session(pgid, console_sid))
        rc = -EPERM;
    else
        console_set_foreground(pgid);
    spin_unlock(&wait_lock);
    return rc;
}
