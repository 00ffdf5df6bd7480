/*
 * usertests' checks beyond testrun.h's: how a result is shown, exec in a
 * child, pointers and paths the kernel must refuse, and small file helpers.
 */
#include "usertests.h"

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
const char *result_name(long r, char *buf, size_t size)
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

void expect_either(const char *what, long got, long want1, long want2)
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
void expect_exec_error(const char *what, const char *path, char *const argv[], long want)
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

void *kernel_ptr(void)
{
    return (void *)KERNEL_ADDR;
}

/* A page at the top of the heap: the page after it is unmapped, so a string
 * or array ending on its last byte runs into memory the kernel may not read. */
char *last_heap_page(void)
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
char *unterminated_string(void)
{
    return last_heap_page() + PAGE_SIZE - UNTERMINATED_LEN;
}

/* A path of `len` characters: "/" and then 'a's. */
char *long_path(size_t len)
{
    static char path[2 * FL_PATH_MAX];
    CHECK(len < sizeof path, "long_path(%lu) too long for its buffer", (unsigned long)len);
    memset(path, 'a', len);
    path[0] = '/';
    path[len] = '\0';
    return path;
}

int open_checked(const char *path, int flags)
{
    int fd = open(path, flags);
    CHECK(fd >= 0, "open(%s, %#x): %s", path, flags, strerror(fd));
    return fd;
}

/* Reads a whole file (up to size bytes) into buf; returns the length. */
long read_file(const char *path, char *buf, size_t size)
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

void write_all(int fd, const void *buf, size_t n, const char *what)
{
    expect(what, write(fd, buf, n), (long)n);
}

/* Names from readdir may or may not carry the leading '/'. */
const char *bare(const char *name)
{
    while (*name == '/')
        name++;
    return name;
}
