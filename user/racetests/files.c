/*
 * racetests: races on ram files opened by two processes, and on one
 * descriptor table shared by several threads.
 */
#include "racetests.h"

#define ROUNDS_OPEN       3000     /* open/close pairs per child (openclose) */
#define ROUNDS_FD         20000    /* iterations per thread in the fd-table races */
#define ROUNDS_CLOSE      1500     /* rounds of two threads closing one fd */
#define READ_CHUNK        16
#define FILE_BYTES        64       /* what readreopen's file holds */

/* ------------------------------------------------ files of two processes */

#define OPENCLOSE_FILE "race-openclose"

static void openclose_child(void)
{
    for (int i = 0; i < ROUNDS_OPEN; i++) {
        int fd = open(OPENCLOSE_FILE, O_RDWR | O_CREAT);
        CHECK(fd >= 0, "open round %d: %s", i, strerror(fd));
        expect("close", close(fd), 0);
    }
}

/* Two processes open and close one ram file as fast as they can: the last
 * reference to an open file must be dropped with the file still whole. */
void openclose(void)
{
    int pids[2];
    for (int i = 0; i < 2; i++) {
        pids[i] = fork();
        CHECK(pids[i] >= 0, "fork: %s", strerror(pids[i]));
        if (pids[i] == 0) {
            openclose_child();
            exit(0);
        }
    }
    for (int i = 0; i < 2; i++)
        expect_exit("opener", wait_deadline(pids[i], DEADLINE_MS), 0);
    expect("unlink", unlink(OPENCLOSE_FILE), 0);
}

/* ------------------------------------------ one fd table, several threads */

#define REOPEN_FILE "race-reopen"

struct reopen { int fd; int stop; int bad; long got; };

static long reader(void *arg)
{
    struct reopen *r = arg;
    char buf[READ_CHUNK];
    while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
        long n = read(r->fd, buf, sizeof buf);
        if (n != -EBADF && (n < 0 || n > READ_CHUNK))
            r->got = n, r->bad++;
    }
    return 0;
}

/* One thread reads an fd while another closes it and opens the file again
 * (which takes the same, lowest free, number): a read in progress must
 * keep its file alive until it is done. */
void readreopen(void)
{
    int fd = open(REOPEN_FILE, O_RDWR | O_CREAT | O_TRUNC);
    CHECK(fd >= 0, "open: %s", strerror(fd));
    char data[FILE_BYTES];
    memset(data, 'r', sizeof data);
    expect("write", write(fd, data, sizeof data), sizeof data);
    struct reopen r = { .fd = fd };
    int tid = start_thread(reader, &r);
    for (int i = 0; i < ROUNDS_FD; i++) {
        expect("close", close(fd), 0);
        expect("reopen (the lowest free fd)", open(REOPEN_FILE, O_RDONLY), fd);
    }
    __atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
    join(tid, 0);
    CHECK(r.bad == 0, "%d reads returned something other than data or EBADF (last %ld)", r.bad, r.got);
    expect("close", close(fd), 0);
    expect("unlink", unlink(REOPEN_FILE), 0);
}

struct installer { const char *name; int bad; char why[80]; };

static long install_loop(void *arg)
{
    struct installer *in = arg;
    for (int i = 0; i < ROUNDS_FD && !in->bad; i++) {
        int fd = open(in->name, O_WRONLY | O_CREAT | O_APPEND);
        int copy = fd >= 0 ? dup(fd) : -1;
        long w = copy >= 0 ? write(copy, "x", 1) : -1;
        int c1 = fd >= 0 ? close(fd) : -1;
        int c2 = copy >= 0 ? close(copy) : -1;
        if (fd < 0 || copy < 0 || w != 1 || c1 != 0 || c2 != 0) {
            snprintf(in->why, sizeof in->why, "round %d: open %d dup %d write %ld close %d %d",
                     i, fd, copy, w, c1, c2);
            in->bad = 1;
        }
    }
    return 0;
}

/* Two threads open, dup, write and close their own files at once: an fd
 * number is never handed to both, so every byte lands in its own file and
 * every close finds what it opened. */
void fdinstall(void)
{
    struct installer a = { .name = "race-install-a" }, b = { .name = "race-install-b" };
    unlink(a.name);
    unlink(b.name);
    int ta = start_thread(install_loop, &a), tb = start_thread(install_loop, &b);
    join(ta, 0);
    join(tb, 0);
    CHECK(!a.bad, "thread a: %s", a.why);
    CHECK(!b.bad, "thread b: %s", b.why);
    expect("bytes in file a", file_size(a.name), ROUNDS_FD);
    expect("bytes in file b", file_size(b.name), ROUNDS_FD);
    expect("unlink a", unlink(a.name), 0);
    expect("unlink b", unlink(b.name), 0);
}

struct closer { struct barrier *bar; int *fd; int ok; };

static long close_loop(void *arg)
{
    struct closer *c = arg;
    for (int i = 0; i < ROUNDS_CLOSE; i++) {
        barrier_wait(c->bar, 3);          /* the main thread opened the fd */
        if (close(*c->fd) == 0)
            c->ok++;
        barrier_wait(c->bar, 3);          /* both closed */
    }
    return 0;
}

/* Two threads close the same fd at the same moment: exactly one close
 * succeeds, and the reference a dup holds is left alone. */
void closetwice(void)
{
    const char *name = "race-closetwice";
    int keep = open(name, O_RDWR | O_CREAT | O_TRUNC);
    CHECK(keep >= 0, "open: %s", strerror(keep));
    struct barrier bar = { 0, 0 };
    int fd = -1;
    struct closer a = { &bar, &fd, 0 }, b = { &bar, &fd, 0 };
    int ta = start_thread(close_loop, &a), tb = start_thread(close_loop, &b);
    for (int i = 0; i < ROUNDS_CLOSE; i++) {
        fd = dup(keep);
        CHECK(fd >= 0, "dup: %s", strerror(fd));
        barrier_wait(&bar, 3);
        barrier_wait(&bar, 3);
        CHECK(a.ok + b.ok == i + 1, "round %d: %d closes of one fd succeeded", i, a.ok + b.ok - i);
        expect("write through the kept fd", write(keep, "k", 1), 1);
    }
    join(ta, 0);
    join(tb, 0);
    expect("bytes written through the kept fd", file_size(name), ROUNDS_CLOSE);
    expect("close", close(keep), 0);
    expect("unlink", unlink(name), 0);
}
