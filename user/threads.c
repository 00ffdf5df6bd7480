/*
 * threads [N]: starts N threads (default: one per hart), pins thread i to
 * hart i mod nharts, and reports where each one ran. Exits 1 if any thread
 * did not run on the hart it was pinned to.
 */
#include "ulib.h"

#define MAX_THREADS    16
#define WORK_LOOPS     200000   /* enough to span a few scheduler ticks */

struct job {
    int index;
    int hart;       /* requested */
    int ran_on;     /* observed after the work */
    int tid;
};

static long worker(void *arg)
{
    struct job *job = arg;
    int err = set_affinity(0, job->hart);
    if (err < 0) {
        fprintf(STDERR_FILENO, "threads: set_affinity(%d): %s\n", job->hart, strerror(err));
        return err;
    }
    volatile unsigned long sink = 0;
    for (unsigned long i = 0; i < WORK_LOOPS; i++)
        sink += i;
    job->ran_on = gethart();
    printf("thread %d (tid %d): pinned to hart %d, ran on hart %d\n",
           job->index, gettid(), job->hart, job->ran_on);
    return job->ran_on;
}

int main(int argc, char *argv[])
{
    struct fl_sysinfo info;
    int err = sysinfo(&info);
    if (err < 0)
        die("threads: sysinfo: %s", strerror(err));
    int nharts = (int)info.nharts;
    int n = argc > 1 ? atoi(argv[1]) : nharts;
    if (n < 1 || n > MAX_THREADS)
        die("usage: threads [1..%d]", MAX_THREADS);

    static struct job jobs[MAX_THREADS];
    for (int i = 0; i < n; i++) {
        jobs[i] = (struct job){ .index = i, .hart = i % nharts, .ran_on = -1 };
        jobs[i].tid = thread_create(worker, &jobs[i]);
        if (jobs[i].tid < 0)
            die("threads: thread_create: %s", strerror(jobs[i].tid));
    }

    int status = 0;
    for (int i = 0; i < n; i++) {
        long value;
        err = thread_join(jobs[i].tid, &value);
        if (err < 0) {
            fprintf(STDERR_FILENO, "threads: join %d: %s\n", jobs[i].tid, strerror(err));
            status = 1;
        } else if (value != jobs[i].hart) {
            status = 1;
        }
    }
    printf("threads: %d threads on %d harts: %s\n", n, nharts,
           status ? "some ran off their hart" : "each ran on its hart");
    return status;
}
