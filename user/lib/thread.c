/*
 * Threads over the raw thread_create/thread_join system calls.
 *
 * The kernel knows nothing of user stacks, so this file owns them: each
 * stack is a malloc'ed block whose lowest bytes hold a record (tid, list
 * link) and whose top is the initial sp. thread_join frees the stack once
 * the kernel reports the thread gone, which is the first moment nothing
 * can still be running on it. A thread that is never joined keeps its stack.
 */
#include "ulib.h"

#define STACK_ALIGNMENT 16   /* the RISC-V ABI's sp alignment */

struct stack_record {
    struct stack_record *next;
    int                  tid;
};

static struct stack_record *stacks;
static struct ulock stacks_lock = ULOCK_INIT;

extern char thread_entry[];   /* lib/thread_entry.S: calls fn(arg), then thread_exit */

int thread_create(thread_fn fn, void *arg)
{
    struct stack_record *rec = malloc(THREAD_STACK_SIZE);
    if (!rec)
        return -ENOMEM;
    uintptr_t top = ((uintptr_t)rec + THREAD_STACK_SIZE) & ~(uintptr_t)(STACK_ALIGNMENT - 1);

    int tid = sys_thread_create(thread_entry, (void *)top, (long)fn, (long)arg);
    if (tid < 0) {
        free(rec);
        return tid;
    }
    rec->tid = tid;
    ulock_acquire(&stacks_lock);
    rec->next = stacks;
    stacks = rec;
    ulock_release(&stacks_lock);
    return tid;
}

static void free_stack_of(int tid)
{
    ulock_acquire(&stacks_lock);
    for (struct stack_record **link = &stacks; *link; link = &(*link)->next) {
        struct stack_record *rec = *link;
        if (rec->tid == tid) {
            *link = rec->next;
            ulock_release(&stacks_lock);
            free(rec);
            return;
        }
    }
    ulock_release(&stacks_lock);   /* not ours: made with sys_thread_create */
}

int thread_join(int tid, long *value)
{
    int r = sys_thread_join(tid, value);
    if (r == 0)
        free_stack_of(tid);
    return r;
}
