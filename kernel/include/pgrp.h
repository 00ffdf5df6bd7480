/*
 * Process groups and sessions (pgrp.c), as in POSIX: a process belongs to
 * a group (pgid), a group to a session (sid); fork inherits both. The
 * console is the controlling terminal of init's session and has one
 * foreground group, which gets ^C and ^\ and may read.
 *
 * Lock: wait_lock guards every pgid and sid (and the parent links that
 * setpgid checks); console_set_foreground is called under it.
 */
#ifndef FAULTLINE_PGRP_H
#define FAULTLINE_PGRP_H

#include "types.h"

struct proc;

/* init: leader of group and session 1, the console's session. */
void pgrp_init_first(struct proc *p);
/* fork: the child joins the parent's group and session. Caller holds wait_lock. */
void pgrp_fork(const struct proc *parent, struct proc *child);
/* kill(-pgid, sig): sig to every live process of the group but init.
 * 0, -EINVAL (bad signal), -ESRCH (no such group), -EPERM (only init).
 * sig 0 sends nothing (the same answers). from: the sender's pid, 0 for
 * the kernel. Safe from interrupt context (the console's ^C). */
long pgrp_kill(int pgid, int sig, int from);

long sys_setpgid(uint64_t pid, uint64_t pgid);
long sys_getpgid(uint64_t pid);
long sys_setsid(void);
long sys_getsid(uint64_t pid);
long sys_tcsetpgrp(uint64_t fd, uint64_t pgid);
long sys_tcgetpgrp(uint64_t fd);

#endif
