/*
 * exectests [name...]: exec of programs from ram files (what cc writes).
 *
 * A ram file holds at most 64 KiB, and the programs of the initrd carry
 * their debug sections, so a test copies only a program's loadable part:
 * the headers and the bytes its PT_LOAD segments name, which is all exec
 * reads. The output format is testrun's ("NAME: OK", "ALL TESTS PASSED").
 */
#include "ulib.h"
#include "testrun.h"

#define PROG      "/ex-prog"
#define OUT       "/ex-out"
#define SELF      "/ex-self"
#define FILE_MAX  (64 * 1024)            /* a ram file's size limit */
#define PAGE      4096
#define CHILD_ARG "--paged-out-child"
#define EXEC_FAILED 127
#define SETTLE_TRIES 50
#define SETTLE_MS 20

/* ELF64 offsets (the header, then program headers) */
#define E_PHOFF     32
#define E_PHNUM     56
#define PH_SIZE     56
#define PH_TYPE     0
#define PH_OFFSET   8
#define PH_FILESZ   32
#define PT_LOAD     1

static uint8_t image[FILE_MAX + PAGE];

static uint64_t get(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static long read_all(const char *path, uint8_t *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0, "open %s: %s", path, strerror(fd));
    long n = 0, r;
    while ((size_t)n < size && (r = read(fd, buf + n, size - (size_t)n)) > 0)
        n += r;
    close(fd);
    return n;
}

static void write_file(const char *path, const void *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC);
    CHECK(fd >= 0, "create %s: %s", path, strerror(fd));
    expect("bytes written", write(fd, data, n), (long)n);
    close(fd);
}

/* The loadable prefix of an initrd program, into image[]; its length. */
static long loadable(const char *path)
{
    static uint8_t whole[256 * 1024];
    long n = read_all(path, whole, sizeof whole);
    CHECK(n > 64 && memcmp(whole, "\177ELF", 4) == 0, "%s is not an ELF file", path);
    uint64_t phoff = get(whole + E_PHOFF, 8), phnum = get(whole + E_PHNUM, 2), end = 0;
    for (uint64_t i = 0; i < phnum; i++) {
        const uint8_t *ph = whole + phoff + i * PH_SIZE;
        uint64_t e = get(ph + PH_OFFSET, 8) + get(ph + PH_FILESZ, 8);
        if (get(ph + PH_TYPE, 4) == PT_LOAD && e > end)
            end = e;
    }
    CHECK(end <= FILE_MAX, "%s's loadable part is %lu bytes, more than a ram file holds",
          path, (unsigned long)end);
    memcpy(image, whole, end);
    return (long)end;
}

/* Runs path with argv, stdout into OUT; the wait status, and OUT in out. */
static int run(const char *path, char *const argv[], char *out, size_t size)
{
    int pid = fork();
    CHECK(pid >= 0, "fork: %s", strerror(pid));
    if (pid == 0) {
        close(STDOUT_FILENO);
        if (open(OUT, O_WRONLY | O_CREAT | O_TRUNC) != STDOUT_FILENO)
            exit(EXEC_FAILED);
        exec(path, argv);
        exit(EXEC_FAILED);
    }
    int status;
    expect("wait", wait_pid(pid, &status, 0), pid);
    long n = read_all(OUT, (uint8_t *)out, size - 1);
    out[n] = '\0';
    return status;
}

static void ramprogram(void)
{
    long n = loadable("/echo");
    write_file(PROG, image, (size_t)n);
    char out[128];
    char *argv[] = { "ex-prog", "from", "a ram file", NULL };
    int status = run(PROG, argv, out, sizeof out);
    CHECK(FL_WIFEXITED(status), "killed by signal %d", FL_WTERMSIG(status));
    expect("exit status", FL_WEXITSTATUS(status), 0);
    CHECK(strcmp(out, "from a ram file\n") == 0, "it printed \"%s\"", out);
    unlink(PROG);
    unlink(OUT);
}

static void expect_noexec(const char *what, const void *data, size_t n)
{
    write_file(PROG, data, n);
    char *argv[] = { "ex-prog", NULL };
    expect(what, exec(PROG, argv), -ENOEXEC);
}

static void rambad(void)
{
    char *argv[] = { "x", NULL };
    expect("exec of a missing ram file", exec("/ex-none", argv), -ENOENT);
    expect_noexec("exec of a text file", "#!/bin/sh\necho no\n", 18);
    expect_noexec("exec of an empty file", "", 0);
    long n = loadable("/echo");
    expect_noexec("exec of the first 100 bytes", image, 100);
    expect_noexec("exec of all but the last byte", image, (size_t)n - 1);
    /* The program headers copied past the first page, and e_phoff pointed
     * at them: a whole ELF, but exec of a ram file has only page 0 at hand. */
    uint64_t phoff = get(image + E_PHOFF, 8), phnum = get(image + E_PHNUM, 2);
    long at = (n + 7) / 8 * 8;
    CHECK(at >= PAGE && at + (long)(phnum * PH_SIZE) <= (long)sizeof image, "echo is too small");
    memcpy(image + at, image + phoff, phnum * PH_SIZE);
    put(image + E_PHOFF, (uint64_t)at, 8);
    expect_noexec("exec with program headers beyond the first page", image,
                  (size_t)at + phnum * PH_SIZE);
    /* A failed exec leaves the caller as it was. */
    CHECK(getpid() > 0, "process broken after a failed exec");
    unlink(PROG);
}

extern char __text_start[], __data_start[];

static unsigned long text_sum(void)
{
    unsigned long s = 0;
    for (const volatile char *p = __text_start; p < __data_start; p++)
        s = s * 31 + (unsigned char)*p;
    return s;
}

/*
 * The child of ramoutlives, running from SELF: it overwrites and removes
 * that file, then sends its own code to the swap device and runs on. Had
 * exec left the pages with the file as their origin, or dropped them as
 * clean copies of something, they would come back wrong, and the child
 * would die executing them.
 */
static int paged_out_child(void)
{
    unsigned long before = text_sum();
    static uint8_t junk[PAGE];
    memset(junk, 0xff, sizeof junk);
    int fd = open(SELF, O_WRONLY | O_TRUNC);
    if (fd < 0 || write(fd, junk, sizeof junk) != (long)sizeof junk)
        return 2;
    close(fd);
    if (unlink(SELF) != 0)
        return 3;
    unsigned long start = (unsigned long)__text_start & ~(unsigned long)(PAGE - 1);
    long paged = vmctl(FL_VMCTL_PAGEOUT, (void *)start, (unsigned long)__data_start - start);
    if (paged <= 0)
        return 4;
    vmctl(FL_VMCTL_SWAPOUT, NULL, 0);     /* whole process out and in, under mm=swap */
    return text_sum() == before ? 0 : 5;
}

static void ramoutlives(void)
{
    long n = loadable("/exectests");
    write_file(SELF, image, (size_t)n);
    char out[128];
    char *argv[] = { "exectests", CHILD_ARG, NULL };
    int status = run(SELF, argv, out, sizeof out);
    CHECK(FL_WIFEXITED(status), "the child was killed by signal %d", FL_WTERMSIG(status));
    expect("the child's exit status (2-3: file, 4: pageout, 5: code changed)",
           FL_WEXITSTATUS(status), 0);
    int fd = open(SELF, O_RDONLY);
    CHECK(fd < 0, "%s still exists after the child removed it", SELF);
    unlink(OUT);
}

static const struct test tests[] = {
    TEST(ramprogram), TEST(rambad), TEST(ramoutlives),
};

static uint64_t free_frames(void)
{
    struct fl_sysinfo info;
    return sysinfo(&info) == 0 ? info.frames_free : 0;
}

/* Two readings a moment apart that agree: nothing is being freed late. */
static uint64_t settled_free_frames(uint64_t want)
{
    uint64_t now = free_frames();
    for (int i = 0; i < SETTLE_TRIES && now != want; i++) {
        sleep(SETTLE_MS);
        uint64_t again = free_frames();
        if (again == now && want == 0)
            break;
        now = again;
    }
    return now;
}

int main(int argc, char *argv[])
{
    if (argc == 2 && strcmp(argv[1], CHILD_ARG) == 0)
        return paged_out_child();
    current_test = "exectests";
    printf("exectests starting\n");
    /* A first child, so that what the runner touches once is in place
     * before the reading; a child's frames may be freed a moment after
     * it is reaped. */
    int pid = fork();
    if (pid == 0)
        exit(0);
    if (pid > 0)
        wait_pid(pid, NULL, 0);
    uint64_t before = settled_free_frames(0);
    int failed = run_tests(tests, ARRAY_SIZE(tests), argc, argv);
    uint64_t after = settled_free_frames(before);
    if (after != before) {
        printf("leaks: FAILED free frames before %lu after %lu\n",
               (unsigned long)before, (unsigned long)after);
        failed++;
    } else {
        printf("leaks: OK\n");
    }
    return tests_summary(failed);
}
