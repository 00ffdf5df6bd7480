/*
 * usertests [NAME...]: in-guest tests of the kernel's system calls.
 *
 * The tests run under the shared runner (lib/testrun.h): each in a forked
 * child, reporting "NAME: OK" or "NAME: FAILED why". The last line is
 * "ALL TESTS PASSED" or "SOME TESTS FAILED".
 *
 * Leak check: the free-frame count is read before and after the whole run
 * (once every child is reaped) and must be equal; a difference counts as
 * the failed test "leaks". The runner itself never uses the heap, and its
 * own pages are touched before each reading (prefault_self), so that its
 * demand-paged text, data and stack do not move the count.
 *
 * Expected error codes, where the headers leave a choice, are stated next
 * to each check. The general rules this file assumes of the kernel:
 *   - a user pointer is checked over its whole range before any byte
 *     moves: NULL, a kernel address, a range running past the top of user
 *     space or wrapping around, or memory the access may not touch (text
 *     for a kernel write) give -EFAULT, and nothing is partly copied;
 *   - a path is copied up to FL_PATH_MAX bytes: no NUL within them is
 *     -ENAMETOOLONG, running into unmapped memory first is -EFAULT;
 *   - fds share an offset across dup() and fork(), as in UNIX.
 */
#include "ulib.h"
#include "testrun.h"

/* ---- machine facts the tests aim at ---- */
#define USER_TOP          0x4000000000UL          /* Sv39: user space is [0, 256 GiB) */
#define KERNEL_ADDR       0xffffffc080200000UL    /* kernel text, mapped but not for users */
#define PAGE_SIZE         4096UL
#define ACROSS_TOP_ADDR   (USER_TOP - PAGE_SIZE)  /* last user page ... */
#define ACROSS_TOP_LEN    (2 * PAGE_SIZE)         /* ... and the first page past it */
#define HUGE_LEN          (1UL << 62)             /* beyond any address space */
#define BOGUS_ID          1000000                 /* no process or thread has this id */
#define BAD_FD            99                      /* above any per-process fd table */
#define UNUSED_FD         10                      /* in range, but never opened here */
#define UNKNOWN_SYSCALL   9999

/* ---- runner ---- */
#define SETTLE_TRIES      50       /* frees can lag the last wait: retry the count */
#define SETTLE_MS         100
#define STACK_PREFAULT    (32 * 1024)
#define EXIT_CODE_MASK    0xff     /* an exit status keeps 8 bits of the code */
#define US_PER_MS         1000L
#define CLOCK_SLACK_MS    1000     /* two clock readings a few calls apart */
#define READ_CHUNK        512

/* ---- test sizes ---- */
#define SLEEP_FOREVER_MS  1000000
#define MAX_FORKS         256      /* well above any process table */
#define SBRK_GROW         (64 * 1024)
#define HUGE_HEAP         (1L << 40)   /* more than user space holds */
#define MALLOC_CHUNK      (1024 * 1024)
#define MALLOC_MEM_FACTOR 4        /* stop after 4x RAM, in case the kernel overcommits */
#define NTHREADS          4
#define THREAD_INCREMENTS 10000
#define SLEEP_MS          50
#define KILL_DEADLINE_MS  5000     /* a killed sleeper must be gone well before it would wake */
#define RAMFILE_SIZE      10000    /* spans three pages */
#define RAMFILE_CHUNK     3000     /* not a divisor of the page size */
#define DIRENT_FILE_SIZE  123
#define MAX_DIR_ENTRIES   1024
#define MAX_FDS_TRIED     64
#define EXEC_FAILED       127
#define PROCINFO_MAX      128
#define MMAP_PAGES        16
#define MMAP_SMALL_PAGES  4
#define MMAP_SPLIT_PAGES  8        /* munmappartial: a hole of ... */
#define MMAP_HOLE_FIRST   3        /* ... pages 3 and 4 */
#define MMAP_HOLE_PAGES   2
#define MMAP_UNKNOWN_PROT 0x8      /* no FL_PROT_* bit */
#define MMAP_UNKNOWN_FLAG 0x1000   /* no FL_MAP_* bit */
#define MMAP_MAX_TRIES    256      /* above any region table */
#define HUGE_MAP          (1UL << 40)   /* more than the mmap window and memory */

static int runner_pid;

/* ---------------------------------------------------------------- checks */

static const struct { int number; const char *name; } errno_names[] = {
    { EPERM, "EPERM" },   { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },   { EINTR, "EINTR" },
    { EIO, "EIO" },       { E2BIG, "E2BIG" },   { ENOEXEC, "ENOEXEC" }, { EBADF, "EBADF" },
    { ECHILD, "ECHILD" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" }, { EFAULT, "EFAULT" },
    { EBUSY, "EBUSY" },   { EEXIST, "EEXIST" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
    { EINVAL, "EINVAL" }, { ENFILE, "ENFILE" }, { EMFILE, "EMFILE" }, { EFBIG, "EFBIG" },
    { ENOSPC, "ENOSPC" }, { EROFS, "EROFS" },   { ERANGE, "ERANGE" }, { EDEADLK, "EDEADLK" },
    { ENAMETOOLONG, "ENAMETOOLONG" }, { ENOSYS, "ENOSYS" },
};

/* "-EFAULT" for a known error, the number otherwise: how expect() shows
 * system call results here. */
static const char *result_name(long r, char *buf, size_t size)
{
    for (size_t i = 0; r < 0 && i < ARRAY_SIZE(errno_names); i++) {
        if (-r == errno_names[i].number) {
            snprintf(buf, size, "-%s", errno_names[i].name);
            return buf;
        }
    }
    snprintf(buf, size, "%ld", r);
    return buf;
}

static void expect_either(const char *what, long got, long want1, long want2)
{
    if (got != want1 && got != want2) {
        char g[TEST_RESULT_NAME_MAX], w1[TEST_RESULT_NAME_MAX], w2[TEST_RESULT_NAME_MAX];
        fail("%s: got %s, expected %s or %s", what, result_name(got, g, sizeof g),
             result_name(want1, w1, sizeof w1), result_name(want2, w2, sizeof w2));
    }
}

/* exec() in a child, so that an exec that wrongly succeeds cannot replace
 * the test. The child reports exec's error as its exit status; an exec
 * that succeeded shows up as the status of the program that ran. */
static void expect_exec_error(const char *what, const char *path, char *const argv[], long want)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        int err = exec(path, argv);
        exit(err < 0 ? -err : 0);
    }
    int status = 0;
    expect("wait_pid for exec child", wait_pid(pid, &status, 0), pid);
    CHECK(FL_WIFEXITED(status), "%s: exec child killed by signal %d", what, FL_WTERMSIG(status));
    CHECK(FL_WEXITSTATUS(status) != 0, "%s: exec succeeded", what);
    expect(what, -FL_WEXITSTATUS(status), want);
}

static void *kernel_ptr(void)
{
    return (void *)KERNEL_ADDR;
}

/* A page at the top of the heap: the page after it is unmapped, so a string
 * or array ending on its last byte runs into memory the kernel may not read. */
static char *last_heap_page(void)
{
    char *brk = sbrk(0);
    CHECK(!ptr_error(brk), "sbrk(0): %s", strerror((int)ptr_error(brk)));
    size_t pad = (PAGE_SIZE - (uintptr_t)brk % PAGE_SIZE) % PAGE_SIZE;
    char *p = sbrk((long)(pad + PAGE_SIZE));
    CHECK(!ptr_error(p), "sbrk: %s", strerror((int)ptr_error(p)));
    char *page = p + pad;
    memset(page, 'a', PAGE_SIZE);   /* also makes the page resident */
    return page;
}

#define UNTERMINATED_LEN 8

/* A string of 'a's with no NUL before the unmapped page. */
static char *unterminated_string(void)
{
    return last_heap_page() + PAGE_SIZE - UNTERMINATED_LEN;
}

/* A path of `len` characters: "/" and then 'a's. */
static char *long_path(size_t len)
{
    static char path[2 * FL_PATH_MAX];
    CHECK(len < sizeof path, "long_path(%lu) too long for its buffer", (unsigned long)len);
    memset(path, 'a', len);
    path[0] = '/';
    path[len] = '\0';
    return path;
}

static int open_checked(const char *path, int flags)
{
    int fd = open(path, flags);
    CHECK(fd >= 0, "open(%s, %#x): %s", path, flags, strerror(fd));
    return fd;
}

/* Reads a whole file (up to size bytes) into buf; returns the length. */
static long read_file(const char *path, char *buf, size_t size)
{
    int fd = open_checked(path, O_RDONLY);
    long total = 0;
    for (;;) {
        long n = read(fd, buf + total, size - (size_t)total);
        CHECK(n >= 0, "read(%s): %s", path, strerror((int)n));
        if (n == 0)
            break;
        total += n;
    }
    close(fd);
    return total;
}

static void write_all(int fd, const void *buf, size_t n, const char *what)
{
    expect(what, write(fd, buf, n), (long)n);
}

/* Names from readdir may or may not carry the leading '/'. */
static const char *bare(const char *name)
{
    while (*name == '/')
        name++;
    return name;
}

/* ------------------------------------------------------ processes, exec */

static void getpidtest(void)
{
    int pid = getpid();
    CHECK(pid > 0, "getpid() = %d", pid);
    expect("getpid() again", getpid(), pid);
    CHECK(pid != runner_pid, "child has its parent's pid %d", pid);
    int tid = gettid();
    CHECK(tid > 0, "gettid() = %d", tid);
    expect("gettid() again", gettid(), tid);

    /* The child's own getpid must match what fork told the parent; an exit
     * status carries 8 bits of it. */
    int child = fork();
    CHECK(child >= 0, "fork: %s", strerror(child));
    if (child == 0)
        exit(getpid() & EXIT_CODE_MASK);
    int status;
    expect("wait", wait(&status), child);
    CHECK(FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == (child & EXIT_CODE_MASK),
          "child's getpid does not match fork's result %d", child);
}

static void forkexit(void)
{
    static const int codes[] = { 0, 1, 42, 255 };
    for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
        int pid = fork();
        CHECK(pid >= 0, "fork: %s", strerror(pid));
        if (pid == 0)
            exit(codes[i]);
        int status = -1;
        expect("wait", wait(&status), pid);
        CHECK(FL_WIFEXITED(status), "exit(%d) reported as signal %d", codes[i], FL_WTERMSIG(status));
        expect("exit status", FL_WEXITSTATUS(status), codes[i]);
    }

    /* wait_pid picks the named child even when another has exited first. */
    enum { FIRST_CODE = 3, SECOND_CODE = 4 };
    int first = fork();
    if (first == 0)
        exit(FIRST_CODE);
    int second = fork();
    if (second == 0)
        exit(SECOND_CODE);
    CHECK(first > 0 && second > 0, "fork failed");
    int status;
    expect("wait_pid(second)", wait_pid(second, &status, 0), second);
    expect("second's status", FL_WEXITSTATUS(status), SECOND_CODE);
    expect("wait_pid(first)", wait_pid(first, &status, 0), first);
    expect("first's status", FL_WEXITSTATUS(status), FIRST_CODE);

    int pid = fork();
    if (pid == 0)
        exit(0);
    expect("wait(NULL)", wait(NULL), pid);
}

static void forkmany(void)
{
    static int pids[MAX_FORKS];
    int n = 0;
    int err = 0;
    while (!err) {
        CHECK(n < MAX_FORKS, "fork never failed in %d tries", MAX_FORKS);
        int pid = fork();
        if (pid == 0)
            for (;;)
                sleep(SLEEP_FOREVER_MS);
        if (pid < 0)
            err = pid;
        else
            pids[n++] = pid;
    }
    /* The process table is full: -EAGAIN. Under a small mem= memory may
     * run out first, which is -ENOMEM. */
    if (err != -EAGAIN && err != -ENOMEM) {
        for (int i = 0; i < n; i++)
            kill(pids[i], SIGKILL);
        expect_either("fork at the limit", err, -EAGAIN, -ENOMEM);
    }
    CHECK(n > 0, "not even one fork succeeded");

    for (int i = 0; i < n; i++)
        expect("kill(child, SIGKILL)", kill(pids[i], SIGKILL), 0);
    for (int i = 0; i < n; i++) {
        int status;
        int pid = wait(&status);
        CHECK(pid > 0, "wait after %d of %d children: %s", i, n, strerror(pid));
        CHECK(!FL_WIFEXITED(status) && FL_WTERMSIG(status) == SIGKILL,
              "child %d: status %#x, expected SIGKILL", pid, status);
    }
    expect("wait with all reaped", wait(NULL), -ECHILD);

    int pid = fork();
    CHECK(pid >= 0, "fork after reaping: %s", strerror(pid));
    if (pid == 0)
        exit(0);
    expect("wait", wait(NULL), pid);
}

static void waitnochild(void)
{
    int status;
    expect("wait(&status)", wait(&status), -ECHILD);
    expect("wait(NULL)", wait(NULL), -ECHILD);
    expect("wait_pid(-1, WNOHANG)", wait_pid(-1, &status, WNOHANG), -ECHILD);
    /* A process that exists but is not our child, and one that does not
     * exist: both -ECHILD, as in POSIX. */
    expect("wait_pid(parent)", wait_pid(runner_pid, &status, 0), -ECHILD);
    expect("wait_pid(no such pid)", wait_pid(BOGUS_ID, &status, 0), -ECHILD);

    /* WNOHANG with a live child: 0, not an error. */
    int pid = fork();
    if (pid == 0) {
        sleep(SLEEP_MS);
        exit(0);
    }
    CHECK(pid > 0, "fork: %s", strerror(pid));
    expect("wait_pid(child, WNOHANG) while it sleeps", wait_pid(pid, &status, WNOHANG), 0);
    expect("wait_pid(child)", wait_pid(pid, &status, 0), pid);
}

static void execerrors(void)
{
    char *argv[] = { "x", NULL };
    expect_exec_error("exec(missing file)", "/no-such-program", argv, -ENOENT);
    expect_exec_error("exec(\"\")", "", argv, -ENOENT);
    /* Files the initrd builder provides for this: text, and a damaged ELF. */
    expect_exec_error("exec(/notelf)", "/notelf", argv, -ENOEXEC);
    expect_exec_error("exec(/badelf)", "/badelf", argv, -ENOEXEC);

    /* More argv entries than FL_ARG_MAX: -E2BIG. */
    static char *many[FL_ARG_MAX + 2];
    for (int i = 0; i <= FL_ARG_MAX; i++)
        many[i] = "arg";
    many[FL_ARG_MAX + 1] = NULL;
    expect_exec_error("exec with FL_ARG_MAX+1 args", "/echo", many, -E2BIG);

    /* A failed exec leaves the caller intact. */
    expect("exec(missing) in this process", exec("/no-such-program", argv), -ENOENT);
    CHECK(getpid() > 0, "process broken after a failed exec");
}

#define EXEC_OUT "/ut-exec-out"

/* Runs /echo with argv, its stdout in EXEC_OUT; returns what it wrote. */
static long run_echo(char *const argv[], char *out, size_t size)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        close(STDOUT_FILENO);
        int fd = open(EXEC_OUT, O_WRONLY | O_CREAT | O_TRUNC);   /* lowest free fd: 1 */
        if (fd != STDOUT_FILENO)
            exit(EXEC_FAILED);
        exec("/echo", argv);
        exit(EXEC_FAILED);
    }
    int status;
    expect("wait", wait_pid(pid, &status, 0), pid);
    CHECK(FL_WIFEXITED(status), "echo killed by signal %d", FL_WTERMSIG(status));
    expect("echo's exit status", FL_WEXITSTATUS(status), 0);
    long n = read_file(EXEC_OUT, out, size - 1);
    out[n] = '\0';
    return n;
}

static void execargs(void)
{
    static char out[1024];
    char *argv[] = { "echo", "exec", "ok", "a b", "", "end", NULL };
    run_echo(argv, out, sizeof out);
    CHECK(strcmp(out, "exec ok a b  end\n") == 0, "echo wrote \"%s\"", out);

    /* FL_ARG_MAX - 1 entries: within the limit however it counts the NULL. */
    static char *many[FL_ARG_MAX];
    static char numbers[FL_ARG_MAX][4];
    char expected[FL_ARG_MAX * 4] = "";
    many[0] = "echo";
    for (int i = 1; i < FL_ARG_MAX - 1; i++) {
        snprintf(numbers[i], sizeof numbers[i], "%d", i);
        many[i] = numbers[i];
        strcat(expected, numbers[i]);
        strcat(expected, i < FL_ARG_MAX - 2 ? " " : "\n");
    }
    many[FL_ARG_MAX - 1] = NULL;
    run_echo(many, out, sizeof out);
    CHECK(strcmp(out, expected) == 0, "echo of %d args wrote \"%s\"", FL_ARG_MAX - 2, out);
    expect("unlink", unlink(EXEC_OUT), 0);
}

/* ------------------------------------------------------------ memory */

static void sbrkgrow(void)
{
    char *old = sbrk(0);
    CHECK(!ptr_error(old), "sbrk(0): %s", strerror((int)ptr_error(old)));
    char *p = sbrk(SBRK_GROW);
    expect("sbrk(grow) returns the old break", (long)p, (long)old);
    expect("break after growing", (long)sbrk(0), (long)(old + SBRK_GROW));
    for (long i = 0; i < SBRK_GROW; i++)
        p[i] = (char)(i * 7);
    for (long i = 0; i < SBRK_GROW; i++)
        CHECK(p[i] == (char)(i * 7), "heap byte %ld changed", i);

    expect("sbrk(-grow) returns the old break", (long)sbrk(-SBRK_GROW), (long)(old + SBRK_GROW));
    expect("break after shrinking", (long)sbrk(0), (long)old);
}

static char *released_page;

static void touch_released_page(void)
{
    *(volatile char *)released_page = 1;
}

static void sbrkshrink(void)
{
    char *old = sbrk(0);
    char *first_whole = (char *)(((uintptr_t)old + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1));
    char *p = sbrk(SBRK_GROW);
    CHECK(!ptr_error(p), "sbrk(grow): %s", strerror((int)ptr_error(p)));
    memset(p, 0x5a, SBRK_GROW);
    sbrk(-SBRK_GROW);

    /* Whole pages above the break are gone ... */
    released_page = first_whole;
    expect_killed("store above the break", touch_released_page, SIGSEGV);

    /* ... and come back zeroed, not with the old contents. */
    p = sbrk(SBRK_GROW);
    CHECK(!ptr_error(p), "sbrk(regrow): %s", strerror((int)ptr_error(p)));
    for (char *q = first_whole; q < old + SBRK_GROW; q++)
        CHECK(*q == 0, "regrown heap not zeroed at offset %ld", (long)(q - old));
}

static void sbrkhuge(void)
{
    char *before = sbrk(0);
    expect("sbrk(1 TiB)", ptr_error(sbrk(HUGE_HEAP)), -ENOMEM);
    expect("sbrk(2^62)", ptr_error(sbrk((long)HUGE_LEN)), -ENOMEM);
    expect("break after failed sbrk", (long)sbrk(0), (long)before);

    char *p = sbrk((long)PAGE_SIZE);
    CHECK(!ptr_error(p), "sbrk(page) after failure: %s", strerror((int)ptr_error(p)));
    p[0] = p[PAGE_SIZE - 1] = 1;
    char *q = malloc(100);
    CHECK(q != NULL, "malloc after a failed sbrk");
    free(q);
}

static void mallocall(void)
{
    struct fl_sysinfo info;
    expect("sysinfo", sysinfo(&info), 0);
    unsigned long limit = MALLOC_MEM_FACTOR * info.frames_total * info.page_size;

    struct chunk { struct chunk *next; } *list = NULL;
    unsigned long total = 0;
    bool failed = false;
    while (total < limit) {
        struct chunk *c = malloc(MALLOC_CHUNK);
        if (!c) {
            failed = true;
            break;
        }
        ((volatile char *)c)[MALLOC_CHUNK - 1] = 1;   /* touch both ends */
        c->next = list;
        list = c;
        total += MALLOC_CHUNK;
    }
    CHECK(total > 0, "not even one %d-byte malloc succeeded", MALLOC_CHUNK);
    if (!failed)
        printf("mallocall: no failure within %lu MiB (the kernel overcommits)\n",
               total / MALLOC_CHUNK);

    while (list) {
        struct chunk *next = list->next;
        free(list);
        list = next;
    }
    /* With everything free, half of it in one piece must be available again. */
    void *big = malloc(total / 2);
    CHECK(big != NULL, "malloc(%lu) after freeing %lu", total / 2, total);
    free(big);
}

#define SMALL_BLOCK  1000
#define MERGED_BLOCK 1900

/* Address-ordered first fit merges neighbours: this is a libc test. */
static void mallocmerge(void)
{
    char *a = malloc(SMALL_BLOCK), *b = malloc(SMALL_BLOCK), *c = malloc(SMALL_BLOCK);
    CHECK(a && b && c, "malloc failed");
    CHECK(a < b && b < c, "fresh blocks not in address order");
    memset(a, 1, SMALL_BLOCK);
    memset(b, 2, SMALL_BLOCK);
    free(a);
    free(b);
    char *d = malloc(MERGED_BLOCK);
    CHECK(d == a, "freed neighbours were not merged (%p, expected %p)", (void *)d, (void *)a);
    char *e = realloc(c, 2 * SMALL_BLOCK);
    CHECK(e != NULL, "realloc failed");
    char *z = calloc(SMALL_BLOCK, 1);
    CHECK(z != NULL, "calloc failed");
    for (int i = 0; i < SMALL_BLOCK; i++)
        CHECK(z[i] == 0, "calloc memory not zeroed");
    free(d);
    free(e);
    free(z);
}

/* ------------------------------------------------------- bad pointers */

static long return_arg(void *arg);

#define RW_FILE "/ut-badptr"

static void badreadwrite(void)
{
    char buf[16];
    int in = open_checked("/echo", O_RDONLY);
    expect("read(NULL)", read(in, NULL, 10), -EFAULT);
    expect("read(kernel address)", read(in, kernel_ptr(), 10), -EFAULT);
    expect("read(across the top of user space)",
           read(in, (void *)ACROSS_TOP_ADDR, ACROSS_TOP_LEN), -EFAULT);
    expect("read(huge length)", read(in, buf, HUGE_LEN), -EFAULT);
    expect("read(length wrapping the address space)", read(in, buf, (size_t)0 - 8), -EFAULT);

    /* The kernel must honour page permissions when it writes for us. */
    static const char rodata_bytes[16] = "read-only bytes";
    char text_before[16];
    memcpy(text_before, (const void *)badreadwrite, sizeof text_before);
    expect("read into text", read(in, (void *)badreadwrite, sizeof buf), -EFAULT);
    CHECK(memcmp(text_before, (const void *)badreadwrite, sizeof text_before) == 0,
          "read into text changed the code");
    expect("read into rodata", read(in, (void *)rodata_bytes, sizeof rodata_bytes), -EFAULT);
    close(in);

    /* Writes go to a RAM file: the kernel must copy them (/dev/null might
     * not look at the buffer at all). */
    int out = open_checked(RW_FILE, O_WRONLY | O_CREAT | O_TRUNC);
    expect("write(NULL)", write(out, NULL, 10), -EFAULT);
    expect("write(kernel address)", write(out, kernel_ptr(), 10), -EFAULT);
    expect("write(across the top of user space)",
           write(out, (void *)ACROSS_TOP_ADDR, ACROSS_TOP_LEN), -EFAULT);
    expect("write(huge length)", write(out, buf, HUGE_LEN), -EFAULT);
    close(out);
    struct fl_stat st;
    int fd = open_checked(RW_FILE, O_RDONLY);
    expect("fstat", fstat(fd, &st), 0);
    expect("size of the file after failed writes", (long)st.size, 0);
    close(fd);
    expect("unlink", unlink(RW_FILE), 0);
}

static void badpath(void)
{
    expect("open(NULL)", open(NULL, O_RDONLY), -EFAULT);
    expect("open(kernel address)", open(kernel_ptr(), O_RDONLY), -EFAULT);
    expect("open(unterminated)", open(unterminated_string(), O_RDONLY), -EFAULT);
    expect("open(FL_PATH_MAX chars)", open(long_path(FL_PATH_MAX), O_RDONLY), -ENAMETOOLONG);
    expect("open(FL_PATH_MAX chars, O_CREAT)",
           open(long_path(FL_PATH_MAX), O_WRONLY | O_CREAT), -ENAMETOOLONG);
    /* The longest legal path is just a name that does not exist. */
    expect("open(FL_PATH_MAX-1 chars)", open(long_path(FL_PATH_MAX - 1), O_RDONLY), -ENOENT);

    expect("unlink(NULL)", unlink(NULL), -EFAULT);
    expect("unlink(kernel address)", unlink(kernel_ptr()), -EFAULT);
    expect("unlink(unterminated)", unlink(unterminated_string()), -EFAULT);
    expect("unlink(FL_PATH_MAX chars)", unlink(long_path(FL_PATH_MAX)), -ENAMETOOLONG);
}

static void badexec(void)
{
    char *argv[] = { "echo", NULL };
    expect_exec_error("exec(NULL)", NULL, argv, -EFAULT);
    expect_exec_error("exec(kernel address)", kernel_ptr(), argv, -EFAULT);
    expect_exec_error("exec(unterminated)", unterminated_string(), argv, -EFAULT);
    expect_exec_error("exec(FL_PATH_MAX chars)", long_path(FL_PATH_MAX), argv, -ENAMETOOLONG);

    expect_exec_error("exec(argv = kernel address)", "/echo", kernel_ptr(), -EFAULT);
    char *bad_entry[] = { "echo", kernel_ptr(), NULL };
    expect_exec_error("exec(argv[1] = kernel address)", "/echo", bad_entry, -EFAULT);
    char *null_page_entry[] = { "echo", (char *)1, NULL };
    expect_exec_error("exec(argv[1] = 1)", "/echo", null_page_entry, -EFAULT);
    char *unterminated_entry[] = { "echo", unterminated_string(), NULL };
    expect_exec_error("exec(argv[1] unterminated)", "/echo", unterminated_entry, -EFAULT);

    /* An argv array with no NULL before the unmapped page. */
    char **open_ended = (char **)(last_heap_page() + PAGE_SIZE - 2 * sizeof(char *));
    open_ended[0] = "echo";
    open_ended[1] = "x";
    expect_exec_error("exec(argv without NULL)", "/echo", open_ended, -EFAULT);
}

/* Forks a child that exits at once; returns its pid. */
static int fork_exiting_child(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0)
        exit(0);
    return pid;
}

/* Whether a failed wait consumed the child is the kernel's choice: either
 * it is still there to reap, or it is gone. */
static void reap_if_still_there(int pid)
{
    int r = wait(NULL);
    CHECK(r == pid || r == -ECHILD, "wait after a failed wait: %d", r);
}

static void badwait(void)
{
    int pid = fork_exiting_child();
    expect("wait(kernel address)", wait(kernel_ptr()), -EFAULT);
    reap_if_still_there(pid);

    pid = fork_exiting_child();
    expect("wait_pid(child, text address)", wait_pid(pid, (int *)(uintptr_t)badwait, 0), -EFAULT);
    reap_if_still_there(pid);

    pid = fork_exiting_child();
    expect("wait_pid(-1, across the top)",
           wait_pid(-1, (int *)(USER_TOP - sizeof(int) / 2), 0), -EFAULT);
    reap_if_still_there(pid);
}

static void badstructs(void)
{
    void *across_top = (void *)(USER_TOP - sizeof(uint64_t));  /* struct runs past the top */
    void *rodata = (void *)"a string constant in rodata, long enough for any of the structs, "
                           "which is what the kernel must refuse to write through.....";

    expect("procinfo(NULL)", procinfo(NULL, 4), -EFAULT);
    expect("procinfo(kernel address)", procinfo(kernel_ptr(), 4), -EFAULT);
    expect("procinfo(across the top)", procinfo(across_top, 4), -EFAULT);
    expect("procinfo(rodata)", procinfo(rodata, 1), -EFAULT);

    expect("times(NULL)", times(NULL), -EFAULT);
    expect("times(kernel address)", times(kernel_ptr()), -EFAULT);
    expect("times(across the top)", times(across_top), -EFAULT);
    expect("times(rodata)", times(rodata), -EFAULT);

    int fd = open_checked("/echo", O_RDONLY);
    expect("fstat(NULL)", fstat(fd, NULL), -EFAULT);
    expect("fstat(kernel address)", fstat(fd, kernel_ptr()), -EFAULT);
    expect("fstat(across the top)", fstat(fd, across_top), -EFAULT);
    close(fd);

    expect("readdir(NULL)", readdir(0, NULL), -EFAULT);
    expect("readdir(kernel address)", readdir(0, kernel_ptr()), -EFAULT);
    expect("readdir(across the top)", readdir(0, across_top), -EFAULT);

    expect("sysinfo(NULL)", sysinfo(NULL), -EFAULT);
    expect("sysinfo(kernel address)", sysinfo(kernel_ptr()), -EFAULT);
    expect("sysinfo(across the top)", sysinfo(across_top), -EFAULT);
    expect("sysinfo(rodata)", sysinfo(rodata), -EFAULT);

    /* Whether a join that could not store the value still consumed the
     * thread is the kernel's choice, as for wait. */
    int tid = thread_create(return_arg, NULL);
    CHECK(tid > 0, "thread_create: %s", strerror(tid));
    expect("thread_join(tid, kernel address)", sys_thread_join(tid, kernel_ptr()), -EFAULT);
    int r = thread_join(tid, NULL);
    CHECK(r == 0 || r == -ESRCH, "thread_join after a failed join: %d", r);
}

static void badfd(void)
{
    char c = 0;
    struct fl_stat st;
    expect("read(99)", read(BAD_FD, &c, 1), -EBADF);
    expect("read(-1)", read(-1, &c, 1), -EBADF);
    expect("read(unused fd)", read(UNUSED_FD, &c, 1), -EBADF);
    expect("write(99)", write(BAD_FD, &c, 1), -EBADF);
    expect("write(-1)", write(-1, &c, 1), -EBADF);
    expect("close(99)", close(BAD_FD), -EBADF);
    expect("close(unused fd)", close(UNUSED_FD), -EBADF);
    expect("dup(99)", dup(BAD_FD), -EBADF);
    expect("fstat(99)", fstat(BAD_FD, &st), -EBADF);

    /* The access mode counts: reading a write-only fd and the reverse. */
    int ro = open_checked("/echo", O_RDONLY);
    expect("write to an O_RDONLY fd", write(ro, &c, 1), -EBADF);
    expect("close", close(ro), 0);
    expect("close twice", close(ro), -EBADF);
    expect("read after close", read(ro, &c, 1), -EBADF);

    int wo = open_checked("/dev/null", O_WRONLY);
    expect("read from an O_WRONLY fd", read(wo, &c, 1), -EBADF);
    close(wo);
}

static void badsyscall(void)
{
    expect("syscall 9999", raw_syscall(UNKNOWN_SYSCALL, 0, 0, 0, 0, 0, 0), -ENOSYS);
    expect("syscall 0", raw_syscall(0, 0, 0, 0, 0, 0, 0), -ENOSYS);
    expect("syscall SYS_COUNT", raw_syscall(SYS_COUNT, 0, 0, 0, 0, 0, 0), -ENOSYS);
    expect("syscall -1", raw_syscall(-1, 0, 0, 0, 0, 0, 0), -ENOSYS);
    CHECK(getpid() > 0, "process broken after unknown system calls");
}

/* ------------------------------------------------------------ faults */

/* Pointers pass through volatile variables: a constant NULL or kernel
 * address would let GCC see undefined behaviour and emit a trap
 * instruction instead of the access we mean to test. */
static void load_null(void)
{
    volatile int *volatile p = NULL;   /* volatile target too, or the load is dropped */
    (void)*p;
}

static void store_null(void)
{
    volatile int *volatile p = NULL;
    *p = 1;
}

static void load_kernel(void)
{
    volatile long *volatile p = kernel_ptr();
    (void)*p;
}

static void illegal_instruction(void)
{
    __asm__ volatile(".word 0");   /* the all-zero encoding is always illegal */
}

static void store_text(void)
{
    volatile uint32_t *volatile p = (uint32_t *)(uintptr_t)store_text;
    *p = 0;
}

static const int constant_in_rodata = 42;

static void store_rodata(void)
{
    volatile int *volatile p = (int *)&constant_in_rodata;
    *p = 0;
}

static void jump_kernel(void)
{
    void (*volatile fn)(void) = (void (*)(void))KERNEL_ADDR;
    fn();
}

#define RISCV_RET 0x00008067u   /* jalr x0, 0(ra) */
static uint32_t code_in_data[] = { RISCV_RET };

static void jump_data(void)
{
    void (*volatile fn)(void) = (void (*)(void))(uintptr_t)code_in_data;
    fn();
}

static void faults(void)
{
    expect_killed("load from NULL", load_null, SIGSEGV);
    expect_killed("store to NULL", store_null, SIGSEGV);
    expect_killed("load from a kernel address", load_kernel, SIGSEGV);
    expect_killed("illegal instruction", illegal_instruction, SIGILL);
    expect_killed("store to text", store_text, SIGSEGV);
    expect_killed("store to rodata", store_rodata, SIGSEGV);
    expect_killed("jump to a kernel address", jump_kernel, SIGSEGV);
    expect_killed("jump into data", jump_data, SIGSEGV);
}

/* ------------------------------------------------------------ signals */

static void killsleeper(void)
{
    static const int sigs[] = { SIGKILL, SIGTERM };
    for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
        int pid = fork();
        CHECK(pid >= 0, "fork: %s", strerror(pid));
        if (pid == 0) {
            sleep(SLEEP_FOREVER_MS);
            exit(0);
        }
        sleep(SLEEP_MS);   /* let it fall asleep */
        long start = uptime();
        expect("kill", kill(pid, sigs[i]), 0);
        int status;
        expect("wait_pid", wait_pid(pid, &status, 0), pid);
        CHECK(!FL_WIFEXITED(status), "killed sleeper exited with %d", FL_WEXITSTATUS(status));
        /* Until full signals land every signal kills, and the status names it. */
        expect("signal in the status", FL_WTERMSIG(status), sigs[i]);
        CHECK(uptime() - start < KILL_DEADLINE_MS, "kill did not wake the sleeper");
    }

    expect("kill(no such pid)", kill(BOGUS_ID, SIGKILL), -ESRCH);
    expect("kill(self, NSIG)", kill(getpid(), NSIG), -EINVAL);
    expect("kill(self, -1)", kill(getpid(), -1), -EINVAL);
}

static void spin_forever(void)
{
    for (;;)
        ;
}

/* A thread running in user mode, maybe on another hart, must be stopped. */
static void killspinner(void)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0)
        spin_forever();
    sleep(SLEEP_MS);
    expect("kill", kill(pid, SIGKILL), 0);
    int status;
    expect("wait_pid", wait_pid(pid, &status, 0), pid);
    expect("signal in the status", FL_WTERMSIG(status), SIGKILL);
}

/* ------------------------------------------------------------ threads */

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

static void threadcount(void)
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

static long return_arg(void *arg)
{
    return (long)(uintptr_t)arg;
}

#define JOIN_VALUE 5

static void threadjoin(void)
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
static void threadexit(void)
{
    int status = status_of_child(exit_from_thread);
    CHECK(FL_WIFEXITED(status), "killed by signal %d", FL_WTERMSIG(status));
    expect("exit status set by a non-main thread", FL_WEXITSTATUS(status), THREAD_EXIT_CODE);

    status = status_of_child(exit_with_spinning_thread);
    CHECK(FL_WIFEXITED(status), "killed by signal %d", FL_WTERMSIG(status));
    expect("exit status with a thread still spinning", FL_WEXITSTATUS(status), 0);
}

static void affinity(void)
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

/* --------------------------------------------------------------- time */

static void sleeptime(void)
{
    long t0 = uptime();
    expect("sleep(50)", sleep(SLEEP_MS), 0);
    long t1 = uptime();
    CHECK(t1 - t0 >= SLEEP_MS, "sleep(%d) took %ld ms", SLEEP_MS, t1 - t0);
    expect("sleep(0)", sleep(0), 0);

    struct fl_times a, b;
    expect("times", times(&a), 0);
    sleep(SLEEP_MS);
    expect("times", times(&b), 0);
    CHECK(b.uptime_us - a.uptime_us >= SLEEP_MS * (unsigned long)US_PER_MS,
          "times' uptime advanced %lu us over sleep(%d)",
          (unsigned long)(b.uptime_us - a.uptime_us), SLEEP_MS);
}

/* -------------------------------------------------------------- files */

static void initrdread(void)
{
    int fd = open_checked("/echo", O_RDONLY);
    struct fl_stat st;
    expect("fstat", fstat(fd, &st), 0);
    expect("type of /echo", st.type, FL_T_FILE);
    CHECK(st.flags & FL_STAT_READONLY, "/echo not marked read-only");
    CHECK(st.size > 4, "/echo size %lu", (unsigned long)st.size);

    unsigned char magic[4];
    expect("read(4)", read(fd, magic, sizeof magic), sizeof magic);
    CHECK(memcmp(magic, "\x7f" "ELF", sizeof magic) == 0, "/echo does not start with the ELF magic");

    static char buf[READ_CHUNK];
    uint64_t total = sizeof magic;
    long n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        total += (uint64_t)n;
    expect("read at the end", n, 0);
    expect("bytes read", (long)total, (long)st.size);
    expect("read past the end", read(fd, buf, 1), 0);
    expect("close", close(fd), 0);

    /* Two opens have two offsets. */
    int a = open_checked("/echo", O_RDONLY), b = open_checked("/echo", O_RDONLY);
    unsigned char ma[4], mb[4];
    expect("read a", read(a, ma, 4), 4);
    expect("read b", read(b, mb, 4), 4);
    CHECK(memcmp(ma, mb, 4) == 0, "two opens of /echo share an offset");
    close(a);
    close(b);
}

#define RAMFILE "/ut-ramfile"

static void ramfile(void)
{
    static char data[RAMFILE_SIZE], back[2 * RAMFILE_SIZE];
    unlink(RAMFILE);   /* left over from an interrupted run, or absent */
    for (int i = 0; i < RAMFILE_SIZE; i++)
        data[i] = (char)('a' + i % 23);

    int fd = open_checked(RAMFILE, O_WRONLY | O_CREAT | O_TRUNC);
    for (int off = 0; off < RAMFILE_SIZE; off += RAMFILE_CHUNK) {
        int n = RAMFILE_SIZE - off < RAMFILE_CHUNK ? RAMFILE_SIZE - off : RAMFILE_CHUNK;
        write_all(fd, data + off, (size_t)n, "write chunk");
    }
    expect("close", close(fd), 0);

    fd = open_checked(RAMFILE, O_RDONLY);
    struct fl_stat st;
    expect("fstat", fstat(fd, &st), 0);
    expect("type", st.type, FL_T_FILE);
    CHECK(!(st.flags & FL_STAT_READONLY), "RAM file marked read-only");
    expect("size", (long)st.size, RAMFILE_SIZE);
    close(fd);
    expect("bytes read back", read_file(RAMFILE, back, sizeof back), RAMFILE_SIZE);
    CHECK(memcmp(data, back, RAMFILE_SIZE) == 0, "read back different data");

    fd = open_checked(RAMFILE, O_WRONLY | O_APPEND);
    write_all(fd, "tail", 4, "append");
    close(fd);
    expect("size after append", read_file(RAMFILE, back, sizeof back), RAMFILE_SIZE + 4);
    CHECK(memcmp(back + RAMFILE_SIZE, "tail", 4) == 0, "appended bytes not at the end");

    fd = open_checked(RAMFILE, O_WRONLY | O_TRUNC);
    expect("fstat", fstat(fd, &st), 0);
    expect("size after O_TRUNC", (long)st.size, 0);
    close(fd);

    expect("open(missing) without O_CREAT", open("/ut-no-such-file", O_RDONLY), -ENOENT);
    expect("unlink", unlink(RAMFILE), 0);
    expect("open after unlink", open(RAMFILE, O_RDONLY), -ENOENT);
    expect("unlink twice", unlink(RAMFILE), -ENOENT);
}

/* Opening an initrd file for writing may fail at once (-EROFS) or give an
 * fd whose writes fail (-EROFS, or -EBADF as for a read-only open). */
static void try_write_initrd(int flags)
{
    int fd = open("/echo", flags);
    if (fd < 0) {
        expect("open(/echo) for writing", fd, -EROFS);
        return;
    }
    expect_either("write to /echo", write(fd, "x", 1), -EROFS, -EBADF);
    close(fd);
}

static void initrdwrite(void)
{
    int fd = open_checked("/echo", O_RDONLY);
    struct fl_stat before;
    expect("fstat", fstat(fd, &before), 0);
    close(fd);

    try_write_initrd(O_WRONLY);
    try_write_initrd(O_RDWR);
    try_write_initrd(O_WRONLY | O_TRUNC);
    try_write_initrd(O_WRONLY | O_CREAT | O_TRUNC);
    try_write_initrd(O_WRONLY | O_APPEND);
    expect("unlink(/echo)", unlink("/echo"), -EROFS);

    fd = open_checked("/echo", O_RDONLY);
    struct fl_stat after;
    expect("fstat", fstat(fd, &after), 0);
    expect("size of /echo after the attempts", (long)after.size, (long)before.size);
    unsigned char magic[4];
    expect("read", read(fd, magic, 4), 4);
    CHECK(memcmp(magic, "\x7f" "ELF", 4) == 0, "/echo changed");
    close(fd);
}

static void devnull(void)
{
    char buf[100];
    memset(buf, 'x', sizeof buf);
    int fd = open_checked("/dev/null", O_RDWR);
    expect("read(/dev/null)", read(fd, buf, sizeof buf), 0);
    expect("write(/dev/null)", write(fd, buf, sizeof buf), sizeof buf);
    expect("write(/dev/null, 0 bytes)", write(fd, buf, 0), 0);
    expect("close", close(fd), 0);
}

static void fstattypes(void)
{
    struct fl_stat st;
    int fd = open_checked("/dev/null", O_RDONLY);
    expect("fstat(/dev/null)", fstat(fd, &st), 0);
    expect("type of /dev/null", st.type, FL_T_DEV);
    close(fd);

    fd = open_checked("/sh", O_RDONLY);
    expect("fstat(/sh)", fstat(fd, &st), 0);
    expect("type of /sh", st.type, FL_T_FILE);
    CHECK(st.flags & FL_STAT_READONLY, "/sh not read-only");
    CHECK(st.size > 0, "/sh is empty");
    close(fd);

    fd = open_checked("/ut-fstat", O_WRONLY | O_CREAT | O_TRUNC);
    write_all(fd, "12345", 5, "write");
    expect("fstat(RAM file)", fstat(fd, &st), 0);
    expect("type of a RAM file", st.type, FL_T_FILE);
    CHECK(!(st.flags & FL_STAT_READONLY), "RAM file read-only");
    expect("size of a RAM file, while open", (long)st.size, 5);
    close(fd);
    expect("unlink", unlink("/ut-fstat"), 0);
}

#define DIRENT_FILE "/ut-dirent"

/* Looks name up with readdir; returns true and fills *out if present. */
static bool find_entry(const char *name, struct fl_dirent *out)
{
    static struct fl_dirent d;
    bool found = false;
    unsigned long i;
    int r = 0;
    for (i = 0; i < MAX_DIR_ENTRIES && (r = readdir(i, &d)) > 0; i++) {
        CHECK(r == 1, "readdir(%lu) = %d", i, r);
        d.name[sizeof d.name - 1] = '\0';
        if (strcmp(bare(d.name), bare(name)) == 0) {
            *out = d;
            found = true;
        }
    }
    CHECK(r == 0, "readdir(%lu): %s", i, strerror(r));
    expect("readdir past the end, again", readdir(i, &d), 0);
    return found;
}

static void readdirlist(void)
{
    struct fl_dirent d;
    CHECK(find_entry("sh", &d), "\"sh\" not listed");
    expect("type of sh", d.type, FL_T_FILE);
    CHECK(d.size > 0, "sh listed with size 0");
    CHECK(d.flags & FL_STAT_READONLY, "sh not listed read-only");
    CHECK(find_entry("usertests", &d), "\"usertests\" not listed");

    int fd = open_checked(DIRENT_FILE, O_WRONLY | O_CREAT | O_TRUNC);
    static char bytes[DIRENT_FILE_SIZE];
    write_all(fd, bytes, sizeof bytes, "write");
    close(fd);
    CHECK(find_entry(DIRENT_FILE, &d), "new RAM file not listed");
    expect("listed size of the RAM file", (long)d.size, DIRENT_FILE_SIZE);
    expect("listed type of the RAM file", d.type, FL_T_FILE);
    expect("unlink", unlink(DIRENT_FILE), 0);
    CHECK(!find_entry(DIRENT_FILE, &d), "unlinked file still listed");
    expect("readdir(huge index)", readdir(~0UL, &d), 0);
}

static void duptest(void)
{
    int fd = open_checked("/echo", O_RDONLY);
    int copy = dup(fd);
    CHECK(copy >= 0 && copy != fd, "dup(%d) = %d", fd, copy);

    /* A dup shares the offset: reading through both continues the file. */
    unsigned char first[4], second[4], expected[8];
    expect("read via fd", read(fd, first, 4), 4);
    expect("read via dup", read(copy, second, 4), 4);
    int fresh = open_checked("/echo", O_RDONLY);
    expect("read fresh", read(fresh, expected, 8), 8);
    close(fresh);
    CHECK(memcmp(first, expected, 4) == 0 && memcmp(second, expected + 4, 4) == 0,
          "dup does not share the file offset");

    expect("close original", close(fd), 0);
    expect("read via dup after closing the original", read(copy, second, 4), 4);
    close(copy);

    /* dup takes the lowest free fd. */
    int a = open_checked("/dev/null", O_RDONLY);
    int b = open_checked("/dev/null", O_RDONLY);
    CHECK(b > a, "open did not take the lowest free fd (%d after %d)", b, a);
    close(a);
    expect("dup into the lowest free fd", dup(b), a);
    close(a);
    close(b);
}

static void fdlimit(void)
{
    static int fds[MAX_FDS_TRIED];
    int n = 0, err = 0;
    while (n < MAX_FDS_TRIED) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd < 0) {
            err = fd;
            break;
        }
        fds[n++] = fd;
    }
    CHECK(n > 0, "could not open /dev/null: %s", strerror(err));
    expect("open beyond the per-process limit", err, -EMFILE);
    expect("dup beyond the limit", dup(0), -EMFILE);
    for (int i = 0; i < n; i++)
        expect("close", close(fds[i]), 0);
    int fd = open_checked("/dev/null", O_RDONLY);
    close(fd);
}

#define FORKFD_FILE "/ut-forkfd"

/* fork copies the fd table; the copies share offsets, as in UNIX. */
static void forkfd(void)
{
    int fd = open_checked(FORKFD_FILE, O_WRONLY | O_CREAT | O_TRUNC);
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0)
        exit(write(fd, "child\n", 6) == 6 ? 0 : 1);
    int status;
    expect("wait", wait_pid(pid, &status, 0), pid);
    expect("child's write via the inherited fd", status, 0);
    write_all(fd, "parent\n", 7, "parent's write");
    close(fd);

    static char back[64];
    long n = read_file(FORKFD_FILE, back, sizeof back - 1);
    back[n] = '\0';
    CHECK(strcmp(back, "child\nparent\n") == 0, "file holds \"%s\"", back);
    expect("unlink", unlink(FORKFD_FILE), 0);
}

/* ------------------------------------------------------------- mmap */

#define ANON_RW  (FL_PROT_READ | FL_PROT_WRITE)

/* The caller's resident memory, as procinfo reports it. */
static uint64_t own_mem_bytes(void)
{
    static struct fl_procinfo procs[PROCINFO_MAX];
    int n = procinfo(procs, PROCINFO_MAX);
    CHECK(n > 0, "procinfo = %d", n);
    int me = getpid();
    for (int i = 0; i < n; i++)
        if (procs[i].pid == me)
            return procs[i].mem_bytes;
    fail("own pid %d not listed by procinfo", me);
}

/* An anonymous read-write mapping of pages pages; fails the test if refused. */
static char *map_anon(size_t pages)
{
    char *p = mmap(NULL, pages * PAGE_SIZE, ANON_RW, FL_MAP_ANON);
    CHECK(!ptr_error(p), "mmap(%lu pages): %s", (unsigned long)pages, strerror((int)ptr_error(p)));
    CHECK((uintptr_t)p % PAGE_SIZE == 0, "mmap returned unaligned %p", (void *)p);
    return p;
}

static char *touched_page;

static void store_touched_page(void)
{
    *(volatile char *)touched_page = 1;
}

static void load_touched_page(void)
{
    (void)*(volatile char *)touched_page;
}

static void mmapbasic(void)
{
    own_mem_bytes();   /* its own buffer and stack are resident from here on */
    uint64_t before = own_mem_bytes();
    char *p = map_anon(MMAP_PAGES);
    expect("resident bytes right after mmap", (long)own_mem_bytes(), (long)before);

    for (size_t i = 0; i < MMAP_PAGES * PAGE_SIZE; i += PAGE_SIZE / 2)
        CHECK(((volatile char *)p)[i] == 0, "fresh mapping not zero at offset %lu", (unsigned long)i);
    uint64_t touched = own_mem_bytes();
    CHECK(touched >= before + MMAP_PAGES * PAGE_SIZE,
          "resident bytes grew by %lu after touching %d pages", (unsigned long)(touched - before), MMAP_PAGES);

    for (size_t i = 0; i < MMAP_PAGES * PAGE_SIZE; i++)
        p[i] = (char)(i * 13);
    for (size_t i = 0; i < MMAP_PAGES * PAGE_SIZE; i++)
        CHECK(p[i] == (char)(i * 13), "mapped byte %lu changed", (unsigned long)i);

    expect("munmap", munmap(p, MMAP_PAGES * PAGE_SIZE), 0);
    expect("resident bytes after munmap", (long)own_mem_bytes(), (long)before);
    touched_page = p;
    expect_killed("load from an unmapped mapping", load_touched_page, SIGSEGV);

    /* The rights asked for are the rights given. */
    char *ro = mmap(NULL, PAGE_SIZE, FL_PROT_READ, FL_MAP_ANON);
    CHECK(!ptr_error(ro), "mmap(read-only): %s", strerror((int)ptr_error(ro)));
    CHECK(*(volatile char *)ro == 0, "read-only mapping not zero");
    touched_page = ro;
    expect_killed("store to a read-only mapping", store_touched_page, SIGSEGV);
    char *none = mmap(NULL, PAGE_SIZE, FL_PROT_NONE, FL_MAP_ANON);
    CHECK(!ptr_error(none), "mmap(PROT_NONE): %s", strerror((int)ptr_error(none)));
    touched_page = none;
    expect_killed("load from a PROT_NONE mapping", load_touched_page, SIGSEGV);
    expect("munmap(read-only)", munmap(ro, PAGE_SIZE), 0);
    expect("munmap(PROT_NONE)", munmap(none, PAGE_SIZE), 0);
}

static void mmapfixed(void)
{
    size_t len = MMAP_SMALL_PAGES * PAGE_SIZE;
    /* Find a free place by mapping and unmapping. */
    char *spot = map_anon(MMAP_SMALL_PAGES);
    expect("munmap", munmap(spot, len), 0);

    char *p = mmap(spot, len, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED);
    expect("mmap(FIXED at a free place)", (long)p, (long)spot);
    memset(p, 0x42, len);
    CHECK(p[len - 1] == 0x42, "fixed mapping lost a store");
    expect("mmap(FIXED over a mapping)",
           ptr_error(mmap(p + PAGE_SIZE, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    char *text = (char *)((uintptr_t)mmapfixed & ~(PAGE_SIZE - 1));
    expect("mmap(FIXED over text)",
           ptr_error(mmap(text, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    char local = 0;
    char *stack = (char *)((uintptr_t)&local & ~(PAGE_SIZE - 1));
    expect("mmap(FIXED over the stack)",
           ptr_error(mmap(stack, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    CHECK(p[0] == 0x42, "a refused mmap changed the mapping");

    /* Without FIXED the address is only a hint: a taken one is no error. */
    char *q = mmap(p, PAGE_SIZE, ANON_RW, FL_MAP_ANON);
    CHECK(!ptr_error(q), "mmap(hint over a mapping): %s", strerror((int)ptr_error(q)));
    CHECK(q + PAGE_SIZE <= p || q >= p + len, "hinted mapping %p overlaps %p", (void *)q, (void *)p);
    expect("munmap(hinted)", munmap(q, PAGE_SIZE), 0);
    expect("munmap(fixed)", munmap(p, len), 0);
}

static void munmappartial(void)
{
    size_t len = MMAP_SPLIT_PAGES * PAGE_SIZE;
    char *p = map_anon(MMAP_SPLIT_PAGES);
    for (size_t i = 0; i < len; i++)
        p[i] = (char)(i * 5);
    char *hole = p + MMAP_HOLE_FIRST * PAGE_SIZE;
    size_t hole_len = MMAP_HOLE_PAGES * PAGE_SIZE;
    expect("munmap(middle)", munmap(hole, hole_len), 0);

    touched_page = hole;
    expect_killed("store to the hole's first page", store_touched_page, SIGSEGV);
    touched_page = hole + hole_len - PAGE_SIZE;
    expect_killed("load from the hole's last page", load_touched_page, SIGSEGV);
    for (size_t i = 0; i < len; i++) {
        if (p + i >= hole && p + i < hole + hole_len)
            continue;
        CHECK(p[i] == (char)(i * 5), "byte %lu changed by munmap of the hole", (unsigned long)i);
        p[i] = (char)~p[i];   /* still writable on both sides */
    }
    expect("munmap(the hole again: nothing mapped)", munmap(hole, hole_len), 0);
    /* An unaligned length covers the page it ends in. */
    expect("munmap(first page, short length)", munmap(p, 1), 0);
    touched_page = p;
    expect_killed("load from the unmapped first page", load_touched_page, SIGSEGV);
    CHECK(p[PAGE_SIZE] == (char)~(char)(PAGE_SIZE * 5), "second page changed");
    /* Across the hole and the first page: both pieces go. */
    expect("munmap(whole range)", munmap(p, len), 0);
    touched_page = p + len - PAGE_SIZE;
    expect_killed("load from the unmapped last page", load_touched_page, SIGSEGV);

    /* Only mappings may be unmapped: not the heap, stack or image. */
    char *heap = last_heap_page();
    expect("munmap(heap)", munmap(heap, PAGE_SIZE), -EINVAL);
    char local = 0;
    expect("munmap(stack)", munmap((char *)((uintptr_t)&local & ~(PAGE_SIZE - 1)), PAGE_SIZE), -EINVAL);
    expect("munmap(text)", munmap((char *)((uintptr_t)munmappartial & ~(PAGE_SIZE - 1)), PAGE_SIZE), -EINVAL);
    heap[0] = 1;
    local = heap[0];
    CHECK(local == 1, "heap page lost after a refused munmap");
}

static void mmaperrors(void)
{
    expect("mmap(len 0)", ptr_error(mmap(NULL, 0, ANON_RW, FL_MAP_ANON)), -EINVAL);
    expect("mmap(no MAP_ANON)", ptr_error(mmap(NULL, PAGE_SIZE, ANON_RW, 0)), -EINVAL);
    expect("mmap(unknown flag)",
           ptr_error(mmap(NULL, PAGE_SIZE, ANON_RW, FL_MAP_ANON | MMAP_UNKNOWN_FLAG)), -EINVAL);
    expect("mmap(unknown prot)",
           ptr_error(mmap(NULL, PAGE_SIZE, ANON_RW | MMAP_UNKNOWN_PROT, FL_MAP_ANON)), -EINVAL);
    char *spot = map_anon(1);
    expect("munmap", munmap(spot, PAGE_SIZE), 0);
    expect("mmap(FIXED, unaligned)",
           ptr_error(mmap(spot + 1, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    expect("mmap(FIXED at NULL)",
           ptr_error(mmap(NULL, PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    expect("mmap(FIXED across the top)",
           ptr_error(mmap((void *)ACROSS_TOP_ADDR, ACROSS_TOP_LEN, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);
    expect("mmap(FIXED at a kernel address)",
           ptr_error(mmap(kernel_ptr(), PAGE_SIZE, ANON_RW, FL_MAP_ANON | FL_MAP_FIXED)), -EINVAL);

    /* More than memory and swap together hold is refused up front, not
     * on first touch. */
    struct fl_vmstat vm;
    expect("vmstat", vmstat(&vm), 0);
    expect("mmap(more than memory and swap)",
           ptr_error(mmap(NULL, (vm.frames_total + vm.swap_total + 1) * PAGE_SIZE, ANON_RW,
                          FL_MAP_ANON)), -ENOMEM);
    expect("mmap(1 TiB)", ptr_error(mmap(NULL, HUGE_MAP, ANON_RW, FL_MAP_ANON)), -ENOMEM);
    expect("mmap(2^62)", ptr_error(mmap(NULL, HUGE_LEN, ANON_RW, FL_MAP_ANON)), -ENOMEM);

    expect("munmap(unaligned)", munmap(spot + 1, PAGE_SIZE), -EINVAL);
    expect("munmap(len 0)", munmap(spot, 0), -EINVAL);
    expect("munmap(across the top)", munmap((void *)ACROSS_TOP_ADDR, ACROSS_TOP_LEN), -EINVAL);

    /* The region table is finite: mapping until refused ends in -ENOMEM,
     * and everything mapped on the way can be unmapped. Each call makes
     * a region of its own, even next to another one. */
    static char *maps[MMAP_MAX_TRIES];
    int n = 0;
    long err = 0;
    while (n < MMAP_MAX_TRIES) {
        char *m = mmap(NULL, PAGE_SIZE, ANON_RW, FL_MAP_ANON);
        err = ptr_error(m);
        if (err)
            break;
        maps[n++] = m;
    }
    expect("mmap once the region table is full", err, -ENOMEM);
    CHECK(n > 0, "no mapping fitted at all");
    for (int i = 0; i < n; i++)
        expect("munmap of a table-filling page", munmap(maps[i], PAGE_SIZE), 0);
    char *again = map_anon(1);
    expect("munmap after refilling", munmap(again, PAGE_SIZE), 0);
}

static char *fork_map;

#define FORK_PATTERN(i)  ((char)((i) * 3 + 1))
#define FORK_CHILD_BYTE  0x77

static void mmapfork_child(void)
{
    size_t touched = MMAP_SMALL_PAGES / 2 * PAGE_SIZE;
    for (size_t i = 0; i < touched; i++)
        CHECK(fork_map[i] == FORK_PATTERN(i), "child sees byte %lu changed", (unsigned long)i);
    for (size_t i = touched; i < MMAP_SMALL_PAGES * PAGE_SIZE; i++)
        CHECK(fork_map[i] == 0, "child sees untouched byte %lu non-zero", (unsigned long)i);
    memset(fork_map, FORK_CHILD_BYTE, MMAP_SMALL_PAGES * PAGE_SIZE);
    CHECK(fork_map[0] == FORK_CHILD_BYTE, "child's store lost");
}

static void mmapfork(void)
{
    size_t len = MMAP_SMALL_PAGES * PAGE_SIZE, touched = len / 2;
    fork_map = map_anon(MMAP_SMALL_PAGES);
    for (size_t i = 0; i < touched; i++)
        fork_map[i] = FORK_PATTERN(i);

    int status = status_of_child(mmapfork_child);
    CHECK(FL_WIFEXITED(status), "child killed by signal %d", FL_WTERMSIG(status));
    expect("child exit status", FL_WEXITSTATUS(status), 0);

    /* The child's stores went to its own copies. */
    for (size_t i = 0; i < touched; i++)
        CHECK(fork_map[i] == FORK_PATTERN(i), "parent byte %lu changed by the child", (unsigned long)i);
    for (size_t i = touched; i < len; i++)
        CHECK(fork_map[i] == 0, "parent untouched byte %lu changed by the child", (unsigned long)i);
    expect("munmap", munmap(fork_map, len), 0);
}

/* ---------------------------------------------------- information */

static void procinfotest(void)
{
    static struct fl_procinfo procs[PROCINFO_MAX];
    expect("set_affinity(self, 0)", set_affinity(0, 0), 0);
    int n = procinfo(procs, PROCINFO_MAX);
    CHECK(n >= 2, "procinfo = %d", n);
    int me = getpid();
    const struct fl_procinfo *mine = NULL;
    bool runner_seen = false;
    for (int i = 0; i < n; i++) {
        if (procs[i].pid == me)
            mine = &procs[i];
        if (procs[i].pid == runner_pid)
            runner_seen = true;
    }
    CHECK(mine != NULL, "own pid %d not listed", me);
    CHECK(runner_seen, "parent %d not listed", runner_pid);
    expect("own ppid", mine->ppid, runner_pid);
    expect("own state", mine->state, FL_PS_RUNNING);
    expect("own thread count", mine->nthreads, 1);
    expect("own hart", mine->hart, 0);
    CHECK(mine->mem_bytes > 0, "own mem_bytes is 0");
    char name[FL_NAME_MAX + 1];
    memcpy(name, mine->name, FL_NAME_MAX);
    name[FL_NAME_MAX] = '\0';
    CHECK(strcmp(bare(name), "usertests") == 0, "own name \"%s\"", name);

    expect("procinfo(max 1)", procinfo(procs, 1), 1);
    expect("procinfo(max 0)", procinfo(procs, 0), 0);
    set_affinity(0, -1);
}

static void sysinfotest(void)
{
    struct fl_sysinfo info;
    expect("sysinfo", sysinfo(&info), 0);
    expect("page_size", (long)info.page_size, (long)PAGE_SIZE);
    CHECK(info.frames_total > 0, "frames_total = 0");
    CHECK(info.frames_free <= info.frames_total, "more frames free (%lu) than exist (%lu)",
          (unsigned long)info.frames_free, (unsigned long)info.frames_total);
    CHECK(info.nharts >= 1, "nharts = %u", (unsigned)info.nharts);
    CHECK(info.nprocs >= 2, "nprocs = %u with this test and its parent alive", (unsigned)info.nprocs);
    CHECK(info.timebase_hz > 0, "timebase_hz = 0");

    struct fl_times t;
    expect("times", times(&t), 0);
    long up_ms = uptime();
    long times_ms = (long)t.uptime_us / US_PER_MS;
    CHECK(up_ms >= times_ms && up_ms - times_ms < CLOCK_SLACK_MS,
          "uptime() %ld ms and times().uptime_us %ld ms disagree", up_ms, times_ms);
}

/* ------------------------------------------------------------- runner */

static const struct test tests[] = {
    TEST(getpidtest),  TEST(forkexit),    TEST(forkmany),     TEST(waitnochild),
    TEST(execerrors),  TEST(execargs),    TEST(sbrkgrow),     TEST(sbrkshrink),
    TEST(sbrkhuge),    TEST(mallocall),   TEST(mallocmerge),  TEST(badreadwrite),
    TEST(badpath),     TEST(badexec),     TEST(badwait),      TEST(badstructs),
    TEST(badfd),       TEST(badsyscall),  TEST(faults),       TEST(killsleeper),
    TEST(killspinner), TEST(threadcount), TEST(threadjoin),   TEST(threadexit),
    TEST(affinity),    TEST(sleeptime),   TEST(initrdread),   TEST(ramfile),
    TEST(initrdwrite), TEST(devnull),     TEST(fstattypes),   TEST(readdirlist),
    TEST(duptest),     TEST(fdlimit),     TEST(forkfd),       TEST(procinfotest),
    TEST(sysinfotest), TEST(mmapbasic),   TEST(mmapfixed),    TEST(munmappartial),
    TEST(mmaperrors),  TEST(mmapfork),
};

extern char __text_start[], __data_start[], _end[];

/* Makes every page of this program resident (and its stack down to a
 * depth the runner never exceeds), so a free-frame reading is not moved
 * by the runner's own first touches. Data is written back unchanged:
 * a write is what allocates a private page. */
static void __attribute__((noinline)) prefault_self(void)
{
    for (volatile char *p = __text_start; p < __data_start; p += PAGE_SIZE)
        (void)*p;
    for (volatile char *p = __data_start; p < _end; p += PAGE_SIZE)
        *p = *p;
    volatile char stack[STACK_PREFAULT];
    for (size_t i = 0; i < sizeof stack; i += PAGE_SIZE)
        stack[i] = 0;
}

static uint64_t free_frames(void)
{
    struct fl_sysinfo info;
    int err = sysinfo(&info);
    if (err < 0) {
        printf("usertests: sysinfo: %s\n", strerror(err));
        return 0;
    }
    return info.frames_free;
}

#define TEST_FILE_PREFIX "ut-"

/* Removes the RAM files tests create (all named "/ut-..."), in case a
 * failed test left one behind: its pages would otherwise count as a leak
 * on top of the failure itself. */
static void remove_test_files(void)
{
    static struct fl_dirent d;
    static char path[FL_PATH_MAX + 1];
    for (unsigned long i = 0; i < MAX_DIR_ENTRIES && readdir(i, &d) > 0; i++) {
        d.name[sizeof d.name - 1] = '\0';
        const char *name = bare(d.name);
        if (strncmp(name, TEST_FILE_PREFIX, strlen(TEST_FILE_PREFIX)) != 0)
            continue;
        snprintf(path, sizeof path, "/%s", name);
        if (unlink(path) == 0) {
            printf("usertests: removed %s left by a failed test\n", path);
            i = (unsigned long)-1;   /* the listing has shifted: start over */
        }
    }
}

/* A child that does nothing, so that whatever the kernel sets up lazily
 * on a first fork and exit is in place before the first reading. */
static void warm_up(void)
{
    int pid = fork();
    if (pid == 0)
        exit(0);
    if (pid > 0)
        wait_pid(pid, NULL, 0);
}

int main(int argc, char *argv[])
{
    runner_pid = getpid();
    current_test = "usertests";
    test_result_name = result_name;
    printf("usertests starting\n");
    warm_up();
    prefault_self();
    /* The warm-up child's last thread frees its kernel stack on whichever
     * hart switches away from it, a moment after wait() returns: read
     * until two readings agree. */
    uint64_t before = free_frames();
    for (int try = 0; try < SETTLE_TRIES; try++) {
        sleep(SETTLE_MS);
        uint64_t again = free_frames();
        if (again == before)
            break;
        before = again;
    }

    int failed = run_tests(tests, ARRAY_SIZE(tests), argc, argv);

    remove_test_files();

    /* Every child has been reaped, but the kernel may finish freeing a
     * little later (another hart, a reaper thread): give it time. */
    uint64_t after = 0;
    for (int try = 0; try < SETTLE_TRIES; try++) {
        prefault_self();
        after = free_frames();
        if (after == before)
            break;
        sleep(SETTLE_MS);
    }
    printf("usertests: free frames before %lu after %lu\n",
           (unsigned long)before, (unsigned long)after);
    if (after != before) {
        printf("leaks: FAILED %ld frames not returned\n", (long)(before - after));
        failed++;
    } else {
        printf("leaks: OK\n");
    }

    return tests_summary(failed);
}
