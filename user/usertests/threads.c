/*
 * usertests: threads: a shared counter, join, exit from a thread, affinity.
 */
#include "usertests.h"

#define NTHREADS          4
#define THREAD_INCREMENTS 10000

#define THREAD_RESULT_BASE 1000

static long shared_counter;
static int thread_tids[NTHREADS];

static long count_up(void *arg)
{
    long index = (long)(uintptr_t)arg;
    thread_tids[index] = gettid();
    for (int i = 0; i < THREAD_INCREMENTS; i++)
        __atomic_fetch_add(&shared_counter, 1, __ATOMIC_RELAXED);
    return THREAD_RESULT_BASE + index;
}

void threadcount(void)
{
    int tids[NTHREADS];
    for (long i = 0; i < NTHREADS; i++) {
        tids[i] = thread_create(count_up, (void *)(uintptr_t)i);
        CHECK(tids[i] > 0, "thread_create: %s", strerror(tids[i]));
        CHECK(tids[i] != gettid(), "new thread has the creator's tid");
    }
    for (int i = 0; i < NTHREADS; i++) {
        long value = -1;
        expect("thread_join", thread_join(tids[i], &value), 0);
        expect("joined value", value, THREAD_RESULT_BASE + i);
        expect("tid seen by the thread", thread_tids[i], tids[i]);
    }
    expect("shared counter", __atomic_load_n(&shared_counter, __ATOMIC_RELAXED),
           (long)NTHREADS * THREAD_INCREMENTS);
}

long return_arg(void *arg)
{
    return (long)(uintptr_t)arg;
}

#define JOIN_VALUE 5

void threadjoin(void)
{
    expect("thread_join(self)", thread_join(gettid(), NULL), -EDEADLK);
    expect("thread_join(no such tid)", thread_join(BOGUS_ID, NULL), -ESRCH);

    int tid = thread_create(return_arg, (void *)(uintptr_t)JOIN_VALUE);
    CHECK(tid > 0, "thread_create: %s", strerror(tid));
    long value;
    expect("thread_join", thread_join(tid, &value), 0);
    expect("joined value", value, JOIN_VALUE);
    expect("thread_join twice", thread_join(tid, NULL), -ESRCH);

    tid = thread_create(return_arg, NULL);
    CHECK(tid > 0, "thread_create: %s", strerror(tid));
    expect("thread_join(tid, NULL)", thread_join(tid, NULL), 0);
}

#define THREAD_EXIT_CODE 9

static long exit_process(void *arg)
{
    (void)arg;
    exit(THREAD_EXIT_CODE);
}

static long spin_thread(void *arg)
{
    (void)arg;
    spin_forever();
    return 0;
}

static void exit_from_thread(void)
{
    if (thread_create(exit_process, NULL) < 0)
        exit(EXEC_FAILED);
    for (;;)
        sleep(SLEEP_FOREVER_MS);
}

static void exit_with_spinning_thread(void)
{
    if (thread_create(spin_thread, NULL) < 0)
        exit(EXEC_FAILED);
    sleep(SLEEP_MS);
}

/* exit() ends the whole process, whichever thread calls it. */
void threadexit(void)
{
    int status = status_of_child(exit_from_thread);
    CHECK(FL_WIFEXITED(status), "killed by signal %d", FL_WTERMSIG(status));
    expect("exit status set by a non-main thread", FL_WEXITSTATUS(status), THREAD_EXIT_CODE);

    status = status_of_child(exit_with_spinning_thread);
    CHECK(FL_WIFEXITED(status), "killed by signal %d", FL_WTERMSIG(status));
    expect("exit status with a thread still spinning", FL_WEXITSTATUS(status), 0);
}

void affinity(void)
{
    struct fl_sysinfo info;
    expect("sysinfo", sysinfo(&info), 0);
    int nharts = (int)info.nharts;
    CHECK(nharts >= 1, "nharts = %d", nharts);
    /* set_affinity on oneself moves the caller before it returns. */
    for (int h = 0; h < nharts; h++) {
        expect("set_affinity(self, hart)", set_affinity(0, h), 0);
        expect("gethart() after set_affinity", gethart(), h);
        yield();
        expect("gethart() after yield", gethart(), h);
    }
    expect("set_affinity(self, nharts)", set_affinity(0, nharts), -EINVAL);
    expect("set_affinity(self, -2)", set_affinity(0, -2), -EINVAL);
    expect("set_affinity(no such tid)", set_affinity(BOGUS_ID, 0), -ESRCH);
    expect("set_affinity(self, any)", set_affinity(0, -1), 0);
    int h = gethart();
    CHECK(h >= 0 && h < nharts, "gethart() = %d with %d harts", h, nharts);
}
