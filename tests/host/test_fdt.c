/*
 * Host unit test of the device tree reader (kernel/fdt/).
 *
 * usage: test_fdt DTB [EXPECTATION...]
 *
 * The DTB is scanned and compared with the expectations (the pytest driver
 * knows what it asked QEMU or dtc for). Each is KEY=VALUE; lists are
 * comma-separated, numbers are C literals (0x... or decimal):
 *   error=N              fdt_scan must fail with N (nothing else is checked)
 *   memory=BASE:SIZE,... reserved=BASE:SIZE,...|none
 *   harts=ID,...         harts_ignored=N       timebase=HZ
 *   bootargs=TEXT        bootargs_too_long=0|1   initrd=none|size:N|START:END
 *   uart=BASE:IRQ|none   plic=BASE[:NDEV]|none  test=BASE|none
 *   virtio=BASE:IRQ,...|none                    sstc=0|1
 *   plic_contexts=CTX,...  S-mode PLIC context of each hart, in hart order
 *   sswi=BASE|none       sswi_regs=REG|-,...|none  SETSSIP register of each
 *                        hart, in hart order ("-": none; "none": no hart has one)
 * A blob that scans cleanly is then damaged in many ways: every damaged
 * copy must be refused (or, for random damage, at least not crash), and
 * sits in a heap block of exactly its claimed size so ASan sees any read
 * past totalsize.
 */
#include <stdlib.h>

#include "check.h"
#include "fdt.h"

#define HDR_MAGIC        0
#define HDR_TOTALSIZE    4
#define HDR_OFF_STRUCT   8
#define HDR_OFF_STRINGS  12
#define HDR_OFF_RSVMAP   16
#define HDR_VERSION      20
#define HDR_LAST_COMP    24
#define HDR_SIZE_STRINGS 32
#define HDR_SIZE_STRUCT  36
#define HDR_BYTES        40
#define TOKEN_BEGIN_NODE 1
#define TOKEN_END_NODE   2
#define TOKEN_PROP       3
#define TOKEN_NOP        4
#define TOKEN_END        9
#define FUZZ_ROUNDS      3000

static uint8_t *blob;
static uint32_t blob_size;
static const char *dtb_path;

static uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint32_t hdr(const uint8_t *b, int field) { return get_be32(b + field); }


/* ------------------------------------------------------------------ */
/* expectations                                                        */

static uint64_t number(const char *s, char **end)
{
    return strtoull(s, end, 0);
}

/* Parses "A:B,A:B,..." into pairs; returns the count. */
static int parse_pairs(const char *s, uint64_t pairs[][2], int max)
{
    int n = 0;
    char *end;
    if (strcmp(s, "none") == 0)
        return 0;
    while (*s && n < max) {
        pairs[n][0] = number(s, &end);
        pairs[n][1] = *end == ':' ? number(end + 1, &end) : UINT64_MAX;
        n++;
        if (*end != ',')
            break;
        s = end + 1;
    }
    return n;
}

static void check_ranges(const char *what, const struct mem_range *got, int ngot, const char *spec)
{
    uint64_t want[MAX_RESERVED_RANGES + 1][2];
    int nwant = parse_pairs(spec, want, MAX_RESERVED_RANGES + 1);
    CHECK_EQ(ngot, nwant);
    for (int i = 0; i < nwant && i < ngot; i++) {
        CHECK_EQ(got[i].base, want[i][0]);
        CHECK_EQ(got[i].size, want[i][1]);
        if (got[i].base != want[i][0] || got[i].size != want[i][1])
            fprintf(stderr, "    (%s[%d])\n", what, i);
    }
}

static void check_device(const struct mmio_dev *dev, const char *spec, bool second_is_irq)
{
    uint64_t want[1][2];
    if (parse_pairs(spec, want, 1) == 0) {
        CHECK(!dev->present);
        return;
    }
    CHECK(dev->present);
    CHECK_EQ(dev->base, want[0][0]);
    CHECK(dev->size > 0);
    if (second_is_irq && want[0][1] != UINT64_MAX)
        CHECK_EQ(dev->irq, want[0][1]);
}

static void check_expectation(const struct board_info *b, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq) {
        fprintf(stderr, "bad expectation '%s'\n", arg);
        exit(2);
    }
    size_t klen = (size_t)(eq - arg);
    const char *v = eq + 1;
#define KEY(k) (klen == strlen(k) && strncmp(arg, k, klen) == 0)

    if (KEY("memory")) {
        check_ranges("memory", b->memory, b->nmemory, v);
    } else if (KEY("reserved")) {
        check_ranges("reserved", b->reserved, b->nreserved, v);
    } else if (KEY("harts")) {
        uint64_t ids[MAX_HARTS + 1][2];
        int n = parse_pairs(v, ids, MAX_HARTS + 1);
        CHECK_EQ(b->nharts, n);
        for (int i = 0; i < n && i < b->nharts; i++)
            CHECK_EQ(b->hart_ids[i], ids[i][0]);
    } else if (KEY("harts_ignored")) {
        CHECK_EQ(b->harts_ignored, number(v, NULL));
    } else if (KEY("timebase")) {
        CHECK_EQ(b->timebase_hz, number(v, NULL));
    } else if (KEY("bootargs")) {
        CHECK_STR(b->bootargs, v);
    } else if (KEY("bootargs_too_long")) {
        CHECK_EQ(b->bootargs_too_long, number(v, NULL));
    } else if (KEY("initrd")) {
        if (strcmp(v, "none") == 0) {
            CHECK_EQ(b->initrd_start, 0);
            CHECK_EQ(b->initrd_end, 0);
        } else if (strncmp(v, "size:", 5) == 0) {
            CHECK(b->initrd_start != 0);
            CHECK(b->initrd_end > b->initrd_start);
            CHECK_EQ(b->initrd_end - b->initrd_start, number(v + 5, NULL));
        } else {
            uint64_t r[1][2];
            parse_pairs(v, r, 1);
            CHECK_EQ(b->initrd_start, r[0][0]);
            CHECK_EQ(b->initrd_end, r[0][1]);
        }
    } else if (KEY("uart")) {
        check_device(&b->uart, v, true);
    } else if (KEY("test")) {
        check_device(&b->test, v, false);
    } else if (KEY("plic")) {
        uint64_t p[1][2];
        check_device(&b->arch.plic, v, false);
        if (parse_pairs(v, p, 1) == 1) {
            if (p[0][1] != UINT64_MAX)
                CHECK_EQ(b->arch.plic_ndev, p[0][1]);
            else
                CHECK(b->arch.plic_ndev > 0);
        }
    } else if (KEY("plic_contexts")) {
        uint64_t ctx[MAX_HARTS + 1][2];
        int n = parse_pairs(v, ctx, MAX_HARTS + 1);
        CHECK_EQ(b->nharts, n);
        for (int i = 0; i < n && i < b->nharts; i++)
            CHECK_EQ(b->arch.plic_s_context[i], ctx[i][0]);
    } else if (KEY("sswi")) {
        check_device(&b->arch.sswi, v, false);
    } else if (KEY("sswi_regs")) {
        if (strcmp(v, "none") == 0) {
            for (int i = 0; i < MAX_HARTS; i++)
                CHECK_EQ(b->arch.sswi_reg[i], FDT_NO_SSWI_REG);
        } else {
            int i = 0;
            for (const char *p = v; *p && i < MAX_HARTS; i++) {
                char *end;
                uint64_t want = FDT_NO_SSWI_REG;
                if (*p == '-')
                    end = (char *)p + 1;
                else
                    want = number(p, &end);
                CHECK_EQ(b->arch.sswi_reg[i], want);
                p = *end == ',' ? end + 1 : end;
                if (*end != ',')
                    break;
            }
            CHECK_EQ(b->nharts, i + 1);
        }
    } else if (KEY("virtio")) {
        uint64_t want[9][2];
        int n = parse_pairs(v, want, 9);
        CHECK_EQ(b->nvirtio, n);
        for (int i = 0; i < n && i < b->nvirtio; i++) {
            CHECK(b->virtio[i].present);
            CHECK_EQ(b->virtio[i].base, want[i][0]);
            CHECK_EQ(b->virtio[i].irq, want[i][1]);
        }
    } else if (KEY("sstc")) {
        CHECK_EQ(b->arch.has_sstc, number(v, NULL));
    } else {
        fprintf(stderr, "unknown expectation '%s'\n", arg);
        exit(2);
    }
#undef KEY
}

/* ------------------------------------------------------------------ */
/* damaged copies                                                      */

/* A copy of the blob with room for exactly `claimed` bytes (but at least
 * the 8 bytes of magic and totalsize the reader must look at). */
static uint8_t *copy_of(uint32_t claimed)
{
    uint32_t room = claimed < 8 ? 8 : claimed;
    uint8_t *c = malloc(room);
    memcpy(c, blob, MIN(room, blob_size));
    if (room > blob_size)
        memset(c + blob_size, 0, room - blob_size);
    return c;
}

/* Scans a damaged copy; on failure board_info must come back empty. */
static int scan(const uint8_t *b)
{
    struct board_info info;
    memset(&info, 0x5a, sizeof info);
    int rc = fdt_scan(b, &info);
    if (rc != 0)
        CHECK(info.nharts == 0 && info.nmemory == 0 && !info.uart.present);
    return rc;
}

/* Offset of the first token of `kind` at or after `from` in the struct
 * block, found by walking it the simple way; 0 if none. */
static uint32_t find_token(const uint8_t *b, uint32_t kind, uint32_t from)
{
    uint32_t pos = hdr(b, HDR_OFF_STRUCT);
    uint32_t end = pos + hdr(b, HDR_SIZE_STRUCT);
    while (pos + 4 <= end) {
        uint32_t tok = get_be32(b + pos);
        if (tok == kind && pos >= from)
            return pos;
        pos += 4;
        if (tok == TOKEN_BEGIN_NODE)
            pos += ((uint32_t)strlen((const char *)b + pos) + 4) & ~3u;
        else if (tok == TOKEN_PROP)
            pos += 8 + ((get_be32(b + pos) + 3) & ~3u);
        else if (tok == TOKEN_END)
            break;
    }
    return 0;
}

static void test_header_damage(void)
{
    uint8_t *c;

    c = copy_of(blob_size);
    c[HDR_MAGIC] ^= 0x01;
    CHECK_EQ(scan(c), FDT_ERR_MAGIC);
    CHECK_EQ(fdt_total_size(c), 0);
    free(c);

    c = copy_of(blob_size);
    put_be32(c + HDR_VERSION, 15);
    CHECK_EQ(scan(c), FDT_ERR_VERSION);
    put_be32(c + HDR_VERSION, 17);
    put_be32(c + HDR_LAST_COMP, 18);
    CHECK_EQ(scan(c), FDT_ERR_VERSION);
    free(c);

    c = copy_of(blob_size);
    put_be32(c + HDR_OFF_STRUCT, hdr(blob, HDR_OFF_STRUCT) + 1);
    CHECK_EQ(scan(c), FDT_ERR_STRUCTURE);   /* tokens must be 4-aligned */
    put_be32(c + HDR_OFF_STRUCT, 8);
    CHECK_EQ(scan(c), FDT_ERR_STRUCTURE);   /* inside the header */
    put_be32(c + HDR_OFF_STRUCT, (blob_size + 8) & ~3u);   /* aligned, but past the end */
    CHECK_EQ(scan(c), FDT_ERR_TRUNCATED);
    free(c);

    c = copy_of(blob_size);
    put_be32(c + HDR_SIZE_STRUCT, blob_size);
    CHECK_EQ(scan(c), FDT_ERR_TRUNCATED);
    put_be32(c + HDR_SIZE_STRUCT, 0xfffffff0);   /* offset + size wraps */
    CHECK_EQ(scan(c), FDT_ERR_TRUNCATED);
    free(c);

    c = copy_of(blob_size);
    put_be32(c + HDR_SIZE_STRINGS, blob_size);
    CHECK_EQ(scan(c), FDT_ERR_TRUNCATED);
    free(c);

    /* a memory reservation block with no terminating entry before the end */
    c = copy_of(blob_size);
    put_be32(c + HDR_OFF_RSVMAP, (blob_size - 8) & ~7u);
    memset(c + ((blob_size - 8) & ~7u), 0xff, blob_size - ((blob_size - 8) & ~7u));
    CHECK_EQ(scan(c), FDT_ERR_TRUNCATED);
    free(c);
}

static void test_truncated_totalsize(void)
{
    uint32_t strings_end = hdr(blob, HDR_OFF_STRINGS) + hdr(blob, HDR_SIZE_STRINGS);
    uint32_t struct_end = hdr(blob, HDR_OFF_STRUCT) + hdr(blob, HDR_SIZE_STRUCT);
    uint32_t sizes[] = {
        0, 8, HDR_BYTES - 1, HDR_BYTES, blob_size / 2,
        strings_end - 1, struct_end - 1, hdr(blob, HDR_OFF_STRUCT),
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint8_t *c = copy_of(sizes[i]);
        put_be32(c + HDR_TOTALSIZE, sizes[i]);
        int rc = scan(c);
        CHECK_EQ(rc, FDT_ERR_TRUNCATED);
        if (rc != FDT_ERR_TRUNCATED)
            fprintf(stderr, "    (totalsize %u)\n", sizes[i]);
        free(c);
    }
}

static void test_structure_damage(void)
{
    uint32_t struct_off = hdr(blob, HDR_OFF_STRUCT);
    uint32_t struct_end = struct_off + hdr(blob, HDR_SIZE_STRUCT);
    uint32_t prop = find_token(blob, TOKEN_PROP, 0);
    uint8_t *c;

    CHECK(prop != 0);
    if (prop == 0)
        return;

    /* a property length that runs past the end of the block and the blob */
    c = copy_of(blob_size);
    put_be32(c + prop + 4, 0xfffffff0);
    CHECK_EQ(scan(c), FDT_ERR_TRUNCATED);
    put_be32(c + prop + 4, struct_end - (prop + 12) + 1);
    CHECK_EQ(scan(c), FDT_ERR_TRUNCATED);
    free(c);

    /* a property name outside the strings block */
    c = copy_of(blob_size);
    put_be32(c + prop + 8, hdr(blob, HDR_SIZE_STRINGS));
    CHECK_EQ(scan(c), FDT_ERR_STRUCTURE);
    put_be32(c + prop + 8, 0xffffffff);
    CHECK_EQ(scan(c), FDT_ERR_STRUCTURE);
    free(c);

    /* a property name that is not terminated inside the strings block */
    c = copy_of(blob_size);
    uint32_t strings_end = hdr(blob, HDR_OFF_STRINGS) + hdr(blob, HDR_SIZE_STRINGS);
    c[strings_end - 1] = 'x';
    put_be32(c + prop + 8, hdr(blob, HDR_SIZE_STRINGS) - 1);
    CHECK_EQ(scan(c), FDT_ERR_STRUCTURE);
    free(c);

    /* an unknown token */
    c = copy_of(blob_size);
    put_be32(c + prop, 0x7);
    CHECK_EQ(scan(c), FDT_ERR_STRUCTURE);
    free(c);

    /* no FDT_END: the walk runs into the end of the block */
    c = copy_of(blob_size);
    CHECK_EQ(get_be32(c + struct_end - 4), TOKEN_END);
    put_be32(c + struct_end - 4, TOKEN_NOP);
    CHECK_EQ(scan(c), FDT_ERR_TRUNCATED);
    free(c);

    /* the root never closed */
    c = copy_of(blob_size);
    CHECK_EQ(get_be32(c + struct_end - 8), TOKEN_END_NODE);
    put_be32(c + struct_end - 8, TOKEN_NOP);
    CHECK_EQ(scan(c), FDT_ERR_STRUCTURE);
    free(c);

    /* one END_NODE too many */
    c = copy_of(blob_size);
    put_be32(c + struct_end - 4, TOKEN_END_NODE);
    CHECK_EQ(scan(c), FDT_ERR_STRUCTURE);
    free(c);

    /* a property before any node */
    c = copy_of(blob_size);
    put_be32(c + struct_off, TOKEN_PROP);
    CHECK(scan(c) < 0);
    free(c);

    /* the block ends inside a node's name */
    uint32_t child = find_token(blob, TOKEN_BEGIN_NODE, struct_off + 4);
    CHECK(child != 0);
    c = copy_of(blob_size);
    put_be32(c + HDR_SIZE_STRUCT, child + 6 - struct_off);
    CHECK_EQ(scan(c), FDT_ERR_TRUNCATED);
    free(c);

    /* garbage over the whole structure block */
    c = copy_of(blob_size);
    uint32_t seed = 99;
    for (uint32_t i = struct_off; i < struct_end; i++) {
        seed = seed * 1103515245u + 12345u;
        c[i] = (uint8_t)(seed >> 16);
    }
    CHECK(scan(c) < 0);
    free(c);

    /* zeros are not a device tree either */
    c = copy_of(blob_size);
    memset(c + struct_off, 0, struct_end - struct_off);
    CHECK(scan(c) < 0);
    free(c);
}

/* Random damage anywhere (but in totalsize, which sizes the buffer): any
 * answer is fine as long as nothing is read out of bounds. */
static void test_fuzz(void)
{
    uint32_t seed = 2024;
    int refused = 0;

    for (int round = 0; round < FUZZ_ROUNDS; round++) {
        uint8_t *c = copy_of(blob_size);
        int flips = 1 + round % 8;
        for (int i = 0; i < flips; i++) {
            seed = seed * 1664525u + 1013904223u;
            uint32_t pos = (seed >> 4) % blob_size;
            seed = seed * 1664525u + 1013904223u;
            /* mostly in the header and the first structure bytes, where a
             * flip changes offsets and lengths rather than names */
            if (round % 2 == 0)
                pos = pos % (hdr(blob, HDR_OFF_STRUCT) + 256);
            c[pos] = (uint8_t)(seed >> 16);
        }
        memcpy(c + HDR_TOTALSIZE, blob + HDR_TOTALSIZE, 4);
        if (scan(c) < 0)
            refused++;
        free(c);
    }
    CHECK(refused > 0);
}

static void test_strerror(void)
{
    static const int codes[] = {
        FDT_ERR_MAGIC, FDT_ERR_VERSION, FDT_ERR_TRUNCATED, FDT_ERR_STRUCTURE, FDT_ERR_LIMIT,
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        for (size_t j = i + 1; j < sizeof codes / sizeof codes[0]; j++)
            CHECK(strcmp(fdt_strerror(codes[i]), fdt_strerror(codes[j])) != 0);
    CHECK(fdt_strerror(-77) != NULL);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DTB [KEY=VALUE...]\n", argv[0]);
        return 2;
    }
    dtb_path = argv[1];
    size_t file_size;
    uint8_t *file = read_test_file(dtb_path, &file_size);

    uint32_t total = file_size >= 8 ? fdt_total_size(file) : 0;
    CHECK(total >= HDR_BYTES && total <= file_size);
    if (total < HDR_BYTES || total > file_size)
        return check_summary(dtb_path);
    /* the scanner gets exactly totalsize bytes, so ASan sees any overread */
    blob_size = total;
    blob = malloc(blob_size);
    memcpy(blob, file, blob_size);
    free(file);

    struct board_info info;
    int rc = fdt_scan(blob, &info);
    const char *want_error = NULL;
    for (int i = 2; i < argc; i++)
        if (strncmp(argv[i], "error=", 6) == 0)
            want_error = argv[i] + 6;

    if (want_error) {
        CHECK_EQ(rc, strtol(want_error, NULL, 0));
    } else {
        CHECK_EQ(rc, 0);
        if (rc != 0)
            fprintf(stderr, "    fdt_scan: %s\n", fdt_strerror(rc));
        for (int i = 2; i < argc; i++)
            check_expectation(&info, argv[i]);
        if (rc == 0) {
            test_header_damage();
            test_truncated_totalsize();
            test_structure_damage();
            test_fuzz();
        }
    }
    test_strerror();
    free(blob);
    return check_summary(dtb_path);
}
