/* Host unit test of the cpio newc reader (kernel/fs/initrd.c). */
#include <stdlib.h>

#include "check.h"
#include "initrd.h"

#define MODE_FILE    0100644u
#define MODE_DIR     0040755u
#define HEADER_SIZE  110
#define ARCHIVE_MAX  4096
#define FUZZ_ROUNDS  3000

/* --- a small newc writer, the way tools/mkinitrd.py lays archives out --- */

struct archive {
    uint8_t buf[ARCHIVE_MAX];
    size_t len;
};

static void put_bytes(struct archive *a, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (a->len + n > sizeof a->buf) {
        fprintf(stderr, "test archive too big\n");
        exit(2);
    }
    memcpy(a->buf + a->len, p, n);
    a->len += n;
}

static void pad4(struct archive *a)
{
    static const uint8_t zeros[4];
    put_bytes(a, zeros, (4 - a->len % 4) % 4);
}

/* Offset of the header of the entry just added, for tests that damage it. */
static size_t add_entry(struct archive *a, const char *name, uint32_t mode,
                        const void *data, uint32_t size)
{
    char header[HEADER_SIZE + 1];
    size_t at = a->len;
    uint32_t namesize = (uint32_t)strlen(name) + 1;
    static uint32_t ino = 1;

    snprintf(header, sizeof header,
             "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
             ino++, mode, 0u, 0u, 1u, 0u, size, 0u, 0u, 0u, 0u, namesize, 0u);
    put_bytes(a, header, HEADER_SIZE);
    put_bytes(a, name, namesize);
    pad4(a);
    put_bytes(a, data, size);
    pad4(a);
    return at;
}

static void add_trailer(struct archive *a)
{
    add_entry(a, "TRAILER!!!", 0, NULL, 0);
}

static const char sh_data[] = "\x7f" "ELF pretend shell";
static const char init_data[] = "init!";
static const char lat_data[] = "lat lat lat";

/* Names in three styles, as different cpio tools write them. */
static void standard_archive(struct archive *a)
{
    memset(a, 0, sizeof *a);
    add_entry(a, ".", MODE_DIR, NULL, 0);
    add_entry(a, "./init", MODE_FILE, init_data, sizeof init_data - 1);
    add_entry(a, "sh", MODE_FILE, sh_data, sizeof sh_data - 1);
    add_entry(a, "/bin", MODE_DIR, NULL, 0);
    add_entry(a, "/bin/lat", MODE_FILE, lat_data, sizeof lat_data - 1);
    add_entry(a, "empty", MODE_FILE, NULL, 0);
    add_trailer(a);
}

/* The archive in a heap block of exactly its size, so that ASan reports
 * any read past the end. */
static uint8_t *exact_copy(const uint8_t *p, size_t n)
{
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, p, n);
    return copy;
}

struct walk_log {
    int count;
    const char *names[16];
    uint32_t modes[16];
    int stop_after;
};

static int log_entry(const struct initrd_file *f, void *ctx)
{
    struct walk_log *log = ctx;
    if (log->count < 16) {
        log->names[log->count] = f->name;
        log->modes[log->count] = f->mode;
    }
    log->count++;
    return log->stop_after && log->count >= log->stop_after;
}

static void test_walk_order(void)
{
    struct archive a;
    struct walk_log log = { 0 };

    standard_archive(&a);
    uint8_t *copy = exact_copy(a.buf, a.len);
    CHECK_EQ(initrd_walk(copy, a.len, log_entry, &log), 6);
    CHECK_EQ(log.count, 6);
    CHECK_STR(log.names[0], ".");
    CHECK_STR(log.names[1], "init");
    CHECK_STR(log.names[2], "sh");
    CHECK_STR(log.names[3], "bin");
    CHECK_STR(log.names[4], "bin/lat");
    CHECK_STR(log.names[5], "empty");
    CHECK_EQ(log.modes[0], MODE_DIR);
    CHECK_EQ(log.modes[2], MODE_FILE);

    /* a visitor can stop the walk */
    struct walk_log early = { .stop_after = 2 };
    CHECK_EQ(initrd_walk(copy, a.len, log_entry, &early), 2);
    CHECK_EQ(early.count, 2);

    /* no visitor: just count */
    CHECK_EQ(initrd_walk(copy, a.len, NULL, NULL), 6);
    free(copy);
}

static void test_empty_archive(void)
{
    struct archive a = { .len = 0 };
    add_trailer(&a);
    uint8_t *copy = exact_copy(a.buf, a.len);
    CHECK_EQ(initrd_walk(copy, a.len, NULL, NULL), 0);
    struct initrd_file f;
    CHECK_EQ(initrd_lookup(copy, a.len, "init", &f), INITRD_NOT_FOUND);
    free(copy);
}

static void check_found(const uint8_t *base, size_t len, const char *path,
                        const char *name, const char *data, size_t size)
{
    struct initrd_file f;
    memset(&f, 0, sizeof f);
    int rc = initrd_lookup(base, len, path, &f);
    CHECK_EQ(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "    looking up \"%s\"\n", path);
        return;
    }
    CHECK_STR(f.name, name);
    CHECK_EQ(f.size, size);
    CHECK(f.data >= base && f.data + f.size <= base + len);
    CHECK(size == 0 || memcmp(f.data, data, size) == 0);
    CHECK_EQ(f.mode, MODE_FILE);
}

static void test_lookup(void)
{
    struct archive a;
    standard_archive(&a);
    uint8_t *copy = exact_copy(a.buf, a.len);
    size_t n = a.len;

    check_found(copy, n, "sh", "sh", sh_data, sizeof sh_data - 1);
    check_found(copy, n, "/sh", "sh", sh_data, sizeof sh_data - 1);
    check_found(copy, n, "./sh", "sh", sh_data, sizeof sh_data - 1);
    check_found(copy, n, "/init", "init", init_data, sizeof init_data - 1);
    check_found(copy, n, "init", "init", init_data, sizeof init_data - 1);
    check_found(copy, n, "/bin/lat", "bin/lat", lat_data, sizeof lat_data - 1);
    check_found(copy, n, "./bin/lat", "bin/lat", lat_data, sizeof lat_data - 1);
    check_found(copy, n, "bin/lat", "bin/lat", lat_data, sizeof lat_data - 1);
    check_found(copy, n, "/empty", "empty", NULL, 0);

    struct initrd_file f;
    CHECK_EQ(initrd_lookup(copy, n, "/bin", &f), 0);
    CHECK_EQ(f.mode, MODE_DIR);

    CHECK_EQ(initrd_lookup(copy, n, "/missing", &f), INITRD_NOT_FOUND);
    CHECK_EQ(initrd_lookup(copy, n, "s", &f), INITRD_NOT_FOUND);
    CHECK_EQ(initrd_lookup(copy, n, "shx", &f), INITRD_NOT_FOUND);
    CHECK_EQ(initrd_lookup(copy, n, "lat", &f), INITRD_NOT_FOUND);
    CHECK_EQ(initrd_lookup(copy, n, "TRAILER!!!", &f), INITRD_NOT_FOUND);
    free(copy);
}

static void test_unaligned_base(void)
{
    struct archive a;
    standard_archive(&a);
    uint8_t *shifted = malloc(a.len + 1);
    memcpy(shifted + 1, a.buf, a.len);
    check_found(shifted + 1, a.len, "/sh", "sh", sh_data, sizeof sh_data - 1);
    free(shifted);
}

static void test_lowercase_hex(void)
{
    struct archive a = { .len = 0 };
    static const char data[] = "0123456789abcdef";   /* size 0x10 */
    size_t at = add_entry(&a, "hex", MODE_FILE, data, 16);
    add_trailer(&a);
    /* mode 0100644 = 0x81A4: write its letters in lower case */
    memcpy(a.buf + at + 6 + 8, "000081a4", 8);
    struct initrd_file f;
    CHECK_EQ(initrd_lookup(a.buf, a.len, "hex", &f), 0);
    CHECK_EQ(f.mode, MODE_FILE);
    CHECK_EQ(f.size, 16);
}

static void test_truncated_everywhere(void)
{
    struct archive a;
    standard_archive(&a);
    /* the trailer's name ends here; only its padding follows */
    size_t trailer_name_end = a.len - 3;
    CHECK_EQ(memcmp(a.buf + trailer_name_end - 11, "TRAILER!!!", 11), 0);
    int bad = 0;
    for (size_t cut = 0; cut < a.len; cut++) {
        uint8_t *copy = exact_copy(a.buf, cut);
        /* a prefix that cuts into any record is damaged; losing only the
         * trailer's padding is tolerated, as some tools do not write it */
        int want = cut < trailer_name_end ? INITRD_ERR_TRUNCATED : 6;
        int rc = initrd_walk(copy, cut, NULL, NULL);
        if (rc != want) {
            bad++;
            fprintf(stderr, "    cut at %zu: rc %d, want %d\n", cut, rc, want);
        }
        struct initrd_file f;
        rc = initrd_lookup(copy, cut, "missing", &f);
        if (rc != (want < 0 ? want : INITRD_NOT_FOUND))
            bad++;
        free(copy);
    }
    CHECK_EQ(bad, 0);
}

static void test_bad_magic(void)
{
    struct archive a;
    standard_archive(&a);
    uint8_t *copy = exact_copy(a.buf, a.len);
    copy[5] = '2';   /* "070702" is the crc variant, not ours */
    CHECK_EQ(initrd_walk(copy, a.len, NULL, NULL), INITRD_ERR_MAGIC);
    free(copy);

    /* damage in a later header is found when the walk gets there */
    memset(&a, 0, sizeof a);
    add_entry(&a, "one", MODE_FILE, "1", 1);
    size_t second = add_entry(&a, "two", MODE_FILE, "2", 1);
    add_trailer(&a);
    a.buf[second] = 'X';
    struct initrd_file f;
    CHECK_EQ(initrd_lookup(a.buf, a.len, "one", &f), 0);   /* found before the damage */
    CHECK_EQ(initrd_lookup(a.buf, a.len, "two", &f), INITRD_ERR_MAGIC);
    CHECK_EQ(initrd_walk(a.buf, a.len, NULL, NULL), INITRD_ERR_MAGIC);

    static const char text[] = "this is not a cpio archive at all, just some text that is long enough "
                               "to hold a whole header and then some more bytes";
    CHECK_EQ(initrd_walk(text, sizeof text, NULL, NULL), INITRD_ERR_MAGIC);
}

static void test_bad_hex_digit(void)
{
    struct archive a;
    static const size_t field_offsets[] = { 6 + 8, 6 + 6 * 8, 6 + 11 * 8 };  /* mode, filesize, namesize */
    static const char bad_digits[] = { 'g', ' ', 'x', '-' };

    for (size_t i = 0; i < sizeof field_offsets / sizeof field_offsets[0]; i++) {
        for (size_t j = 0; j < sizeof bad_digits; j++) {
            memset(&a, 0, sizeof a);
            size_t at = add_entry(&a, "f", MODE_FILE, "data", 4);
            add_trailer(&a);
            a.buf[at + field_offsets[i] + 3] = (uint8_t)bad_digits[j];
            uint8_t *copy = exact_copy(a.buf, a.len);
            CHECK_EQ(initrd_walk(copy, a.len, NULL, NULL), INITRD_ERR_FORMAT);
            free(copy);
        }
    }
}

static void set_hex_field(uint8_t *field, uint32_t v)
{
    char text[9];
    snprintf(text, sizeof text, "%08X", v);
    memcpy(field, text, 8);
}

static void test_sizes_past_the_end(void)
{
    struct archive a;
    const size_t namesize_off = 6 + 11 * 8, filesize_off = 6 + 6 * 8;

    /* name length running past the end */
    memset(&a, 0, sizeof a);
    size_t at = add_entry(&a, "f", MODE_FILE, "data", 4);
    add_trailer(&a);
    set_hex_field(a.buf + at + namesize_off, 0x7fffffff);
    uint8_t *copy = exact_copy(a.buf, a.len);
    CHECK_EQ(initrd_walk(copy, a.len, NULL, NULL), INITRD_ERR_TRUNCATED);
    set_hex_field(copy + at + namesize_off, 0xffffffff);
    CHECK_EQ(initrd_walk(copy, a.len, NULL, NULL), INITRD_ERR_TRUNCATED);
    free(copy);

    /* file size running past the end, including the largest a field holds */
    memset(&a, 0, sizeof a);
    at = add_entry(&a, "f", MODE_FILE, "data", 4);
    add_trailer(&a);
    copy = exact_copy(a.buf, a.len);
    set_hex_field(copy + at + filesize_off, (uint32_t)a.len);
    CHECK_EQ(initrd_walk(copy, a.len, NULL, NULL), INITRD_ERR_TRUNCATED);
    set_hex_field(copy + at + filesize_off, 0xffffffff);
    CHECK_EQ(initrd_walk(copy, a.len, NULL, NULL), INITRD_ERR_TRUNCATED);
    free(copy);
}

static void test_bad_names(void)
{
    struct archive a;
    const size_t namesize_off = 6 + 11 * 8;

    /* namesize 0: not even room for the NUL */
    memset(&a, 0, sizeof a);
    size_t at = add_entry(&a, "name", MODE_FILE, "d", 1);
    add_trailer(&a);
    set_hex_field(a.buf + at + namesize_off, 0);
    CHECK_EQ(initrd_walk(a.buf, a.len, NULL, NULL), INITRD_ERR_FORMAT);

    /* namesize one short: the name's NUL is not where the header says */
    memset(&a, 0, sizeof a);
    at = add_entry(&a, "name", MODE_FILE, "d", 1);
    add_trailer(&a);
    set_hex_field(a.buf + at + namesize_off, 4);
    CHECK_EQ(initrd_walk(a.buf, a.len, NULL, NULL), INITRD_ERR_FORMAT);

    /* a NUL inside the counted name */
    memset(&a, 0, sizeof a);
    at = add_entry(&a, "name", MODE_FILE, "d", 1);
    add_trailer(&a);
    a.buf[at + HEADER_SIZE + 1] = '\0';
    CHECK_EQ(initrd_walk(a.buf, a.len, NULL, NULL), INITRD_ERR_FORMAT);
}

static void test_no_trailer(void)
{
    struct archive a = { .len = 0 };
    add_entry(&a, "only", MODE_FILE, "x", 1);
    uint8_t *copy = exact_copy(a.buf, a.len);
    CHECK_EQ(initrd_walk(copy, a.len, NULL, NULL), INITRD_ERR_TRUNCATED);
    free(copy);
}

/* Random damage must give an answer, never a read outside the archive. */
static void test_fuzz(void)
{
    struct archive a;
    standard_archive(&a);
    uint32_t seed = 12345;
    int ok = 0, damaged = 0;

    for (int round = 0; round < FUZZ_ROUNDS; round++) {
        uint8_t *copy = exact_copy(a.buf, a.len);
        int flips = 1 + round % 4;
        for (int i = 0; i < flips; i++) {
            seed = seed * 1103515245u + 12345u;
            size_t pos = (seed >> 8) % a.len;
            seed = seed * 1103515245u + 12345u;
            /* half the time a hex digit, so fields get plausible values */
            copy[pos] = (seed & 0x100) ? (uint8_t)"0123456789ABCDEF"[(seed >> 12) & 15]
                                       : (uint8_t)(seed >> 16);
        }
        struct initrd_file f;
        int rc = initrd_walk(copy, a.len, NULL, NULL);
        if (rc >= 0)
            ok++;
        else
            damaged++;
        initrd_lookup(copy, a.len, "bin/lat", &f);
        free(copy);
    }
    CHECK(damaged > 0);
    CHECK_EQ(ok + damaged, FUZZ_ROUNDS);
}

static void test_strerror(void)
{
    CHECK_CONTAINS(initrd_strerror(INITRD_ERR_MAGIC), "magic");
    CHECK_CONTAINS(initrd_strerror(INITRD_ERR_TRUNCATED), "truncated");
    CHECK(strcmp(initrd_strerror(INITRD_ERR_FORMAT), initrd_strerror(INITRD_ERR_MAGIC)) != 0);
    CHECK(initrd_strerror(-99) != NULL);
}

int main(void)
{
    test_walk_order();
    test_empty_archive();
    test_lookup();
    test_unaligned_base();
    test_lowercase_hex();
    test_truncated_everywhere();
    test_bad_magic();
    test_bad_hex_digit();
    test_sizes_past_the_end();
    test_bad_names();
    test_no_trailer();
    test_fuzz();
    test_strerror();
    return check_summary("initrd");
}
