/*
 * User-level fault handlers and trap forwarding (kernel/ulf/, docs/ulf.md).
 *
 * A process (the handler, an "application kernel") names itself the fault
 * handler of a child's managed regions, or the emulator of its system
 * calls (ulf_attach). A fault in a managed region, or such a system call,
 * suspends the thread with no lock held and queues a message; a handler
 * thread blocked in ulf_recv takes it and answers: ulf_load maps one of
 * the frames the kernel granted it (ulf_grant, an accounted quota),
 * ulf_resume wakes the thread (retry, signal, kill, or a system call's
 * result). What the rest of the kernel calls is below.
 */
#ifndef FAULTLINE_ULF_H
#define FAULTLINE_ULF_H

#include "types.h"
#include "aspace.h"

struct proc;
struct trapframe;

/* What became of a forwarded fault (ulf_fault). */
enum ulf_verdict {
    ULF_RESUMED,     /* the handler answered: run the instruction again */
    ULF_SIGNALLED,   /* the handler refused it: *sig for the thread */
    ULF_KILLED,      /* the process is to end: *why in the kill line */
    ULF_ABANDONED,   /* the process is being killed anyway: just leave */
};

/* A fault vm_fault said FAULT_FORWARD to, from the current thread (user
 * mode, or a user copy in the kernel: entry_stamp is when it began).
 * Sleeps, holding no lock, until the handler answers. */
enum ulf_verdict ulf_fault(uint64_t addr, enum access access, uint64_t pc,
                           uint64_t entry_stamp, int *sig, const char **why);

/* Whether tf's system calls go to an emulator. Called only for a thread
 * whose trapframe has light system calls off (thread_sync_ids keeps them
 * off for emulated processes), so the common call pays nothing more. */
bool ulf_syscall_forwarded(const struct trapframe *tf);
/* Forwards the system call in tf and returns its result: the emulator's
 * answer, or what the kernel returned performing it for the emulator. */
long ulf_syscall(struct trapframe *tf);
/* Whether p's threads may take the light system calls (not emulated). */
bool ulf_light_allowed(const struct proc *p);

/* A frame taken out of as by aspace_drop_leaf: true if it is a granted
 * frame, which this then hands back (its pool or loan ends), else false:
 * the caller frees it. */
bool ulf_frame_dropped(struct aspace *as, paddr_t pa);
/* Whether pa is a granted frame (the memory managers leave those alone). */
bool ulf_frame_granted(paddr_t pa);
/* Granted frames not yet freed (vmstat). */
uint64_t ulf_frames_outstanding(void);

/* fork: the child of a managed process is managed by the same handler,
 * in the same ways (the Cache Kernel's application kernel runs all its
 * processes). Before the child first runs. */
void ulf_fork(struct proc *parent, struct proc *child);
/* exec: p is about to switch to new_as (its other threads are gone). */
void ulf_exec(struct proc *p, struct aspace *new_as);
/* p is exiting, its other threads gone, its space still attached: as a
 * client it leaves its handler; as a handler, its waiting threads and
 * clients are killed. */
void ulf_exit(struct proc *p);

long sys_ulf_attach(uint64_t pid, uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags);
long sys_ulf_grant(uint64_t nframes);
long sys_ulf_recv(uint64_t umsg);
long sys_ulf_load(uint64_t pid, uint64_t va, uint64_t frame, uint64_t prot);
long sys_ulf_unload(uint64_t pid, uint64_t va, uint64_t len);
long sys_ulf_resume(uint64_t tid, uint64_t how, uint64_t value);
long sys_ulf_regs(uint64_t tid, uint64_t uregs, uint64_t write);
long sys_ulf_reply_recv(uint64_t tid, uint64_t how, uint64_t value, uint64_t umsg);

#endif
