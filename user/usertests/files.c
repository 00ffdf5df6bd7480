/*
 * usertests: files: initrd and RAM files, /dev/null, fstat, readdir, dup,
 * the descriptor limit, and descriptors shared across fork.
 */
#include "usertests.h"

#define READ_CHUNK        512
#define RAMFILE_SIZE      10000    /* spans three pages */
#define RAMFILE_CHUNK     3000     /* not a divisor of the page size */
#define DIRENT_FILE_SIZE  123
#define MAX_FDS_TRIED     64

void initrdread(void)
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

void ramfile(void)
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

void initrdwrite(void)
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

void devnull(void)
{
    char buf[100];
    memset(buf, 'x', sizeof buf);
    int fd = open_checked("/dev/null", O_RDWR);
    expect("read(/dev/null)", read(fd, buf, sizeof buf), 0);
    expect("write(/dev/null)", write(fd, buf, sizeof buf), sizeof buf);
    expect("write(/dev/null, 0 bytes)", write(fd, buf, 0), 0);
    expect("close", close(fd), 0);
}

void fstattypes(void)
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

void readdirlist(void)
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

void duptest(void)
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

void fdlimit(void)
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
void forkfd(void)
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
