/*
 * Host unit test of the ELF parser (kernel/lib/elf.c).
 *
 * usage: test_elf EXE ENTRY LOAD...
 *   EXE    a small static RISC-V executable
 *   ENTRY  its entry point (hex), as the toolchain reports it
 *   LOAD   one "vaddr:memsz:offset:filesz:flags" per PT_LOAD, in file order,
 *          hex numbers and flags as readelf prints them (e.g. "R E")
 * The real file is checked first, then copies of it damaged in one field
 * each, then small ELF images built here for cases the toolchain would not
 * produce.
 */
#include <stdlib.h>

#include "check.h"
#include "elf.h"

#define USER_LO        0x1000ull
#define USER_HI        0x4000000000ull   /* the Sv39 user half */

/* field offsets we damage (ELF-64 object file format) */
#define OFF_CLASS      4
#define OFF_DATA       5
#define OFF_TYPE       16
#define OFF_MACHINE    18
#define OFF_ENTRY      24
#define OFF_PHOFF      32
#define OFF_PHENTSIZE  54
#define OFF_PHNUM      56
#define EHDR_SIZE      64
#define PHDR_SIZE      56
#define PH_TYPE        0
#define PH_FLAGS       4
#define PH_OFFSET      8
#define PH_VADDR       16
#define PH_PADDR       24
#define PH_FILESZ      32
#define PH_MEMSZ       40
#define PH_ALIGN       48
#define PT_LOAD        1
#define PT_INTERP      3
#define PT_NOTE        4
#define EM_X86_64      62
#define ET_DYN         3
#define FUZZ_ROUNDS    4000

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }

/* --- the real executable --- */

static uint8_t *exe;
static size_t exe_size;
static uint64_t exe_entry;
static struct elf_segment expected[ELF_MAX_SEGMENTS];
static int nexpected;
static uint8_t *load_ph[ELF_MAX_SEGMENTS];   /* PT_LOAD headers in a working copy */


static uint32_t parse_flags(const char *s)
{
    uint32_t flags = 0;
    for (; *s; s++) {
        if (*s == 'R') flags |= ELF_SEG_R;
        if (*s == 'W') flags |= ELF_SEG_W;
        if (*s == 'E') flags |= ELF_SEG_X;
    }
    return flags;
}

static void parse_load_arg(const char *arg, struct elf_segment *s)
{
    char flags[8] = "";
    unsigned long long v, m, o, f;
    if (sscanf(arg, "%llx:%llx:%llx:%llx:%7[RWE ]", &v, &m, &o, &f, flags) < 4) {
        fprintf(stderr, "bad segment argument '%s'\n", arg);
        exit(2);
    }
    s->vaddr = v;
    s->memsz = m;
    s->offset = o;
    s->filesz = f;
    s->flags = parse_flags(flags);
}

/* A fresh heap copy of the executable, exactly `size` bytes long so ASan
 * catches reads past the end; also points load_ph[] into it. */
static uint8_t *working_copy(size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    memcpy(copy, exe, MIN(size, exe_size));
    uint64_t phoff = get64(exe + OFF_PHOFF);
    int n = 0;
    for (uint16_t i = 0; i < get16(exe + OFF_PHNUM) && n < ELF_MAX_SEGMENTS; i++) {
        uint64_t at = phoff + (uint64_t)i * PHDR_SIZE;
        /* damaged only in full-size copies; a short copy gets no pointers */
        if (get32(exe + at + PH_TYPE) == PT_LOAD)
            load_ph[n++] = at + PHDR_SIZE <= size ? copy + at : NULL;
    }
    return copy;
}

static int parse_copy(const uint8_t *copy, size_t size)
{
    struct elf_image img;
    return elf_parse(copy, size, USER_LO, USER_HI, &img);
}

static void test_real_executable(void)
{
    struct elf_image img;
    uint8_t *copy = working_copy(exe_size);

    CHECK_EQ(elf_parse(copy, exe_size, USER_LO, USER_HI, &img), 0);
    CHECK_EQ(img.entry, exe_entry);
    CHECK_EQ(img.nsegments, nexpected);
    for (int i = 0; i < nexpected && i < img.nsegments; i++) {
        CHECK_EQ(img.seg[i].vaddr, expected[i].vaddr);
        CHECK_EQ(img.seg[i].memsz, expected[i].memsz);
        CHECK_EQ(img.seg[i].offset, expected[i].offset);
        CHECK_EQ(img.seg[i].filesz, expected[i].filesz);
        CHECK_EQ(img.seg[i].flags, expected[i].flags);
    }
    /* the test program has code and data, so the interesting checks apply */
    CHECK(nexpected >= 2);
    CHECK_EQ(img.seg[0].flags & ELF_SEG_X, ELF_SEG_X);

    /* the parser must not care about the buffer's alignment (initrd data
     * is only 4-byte aligned) */
    uint8_t *shifted = malloc(exe_size + 1);
    memcpy(shifted + 1, exe, exe_size);
    CHECK_EQ(elf_parse(shifted + 1, exe_size, USER_LO, USER_HI, &img), 0);
    CHECK_EQ(img.entry, exe_entry);
    free(shifted);

    /* a user window that only just holds the pages */
    uint64_t lo = expected[0].vaddr & ~0xfffull;
    uint64_t last = expected[nexpected - 1].vaddr + expected[nexpected - 1].memsz;
    uint64_t hi = (last + 0xfff) & ~0xfffull;
    CHECK_EQ(elf_parse(copy, exe_size, lo, hi, &img), 0);
    CHECK_EQ(elf_parse(copy, exe_size, lo + 0x1000, hi, &img), ELF_ERR_ADDRESS);
    CHECK_EQ(elf_parse(copy, exe_size, lo, hi - 0x1000, &img), ELF_ERR_ADDRESS);
    CHECK_EQ(elf_parse(copy, exe_size, USER_HI, USER_LO, &img), ELF_ERR_ADDRESS);
    free(copy);
}

static void test_identification(void)
{
    uint8_t *c;

    c = working_copy(exe_size);
    c[1] = 'X';
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_MAGIC);
    free(c);

    c = working_copy(exe_size);
    c[OFF_CLASS] = 1;   /* ELFCLASS32 */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_CLASS);
    free(c);

    c = working_copy(exe_size);
    c[OFF_DATA] = 2;    /* big endian */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_CLASS);
    free(c);

    c = working_copy(exe_size);
    put16(c + OFF_MACHINE, EM_X86_64);
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_MACHINE);
    free(c);

    c = working_copy(exe_size);
    put16(c + OFF_TYPE, ET_DYN);
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_TYPE);
    free(c);

    static const char text[] = "#!/bin/sh\necho this is a script, not a program\n";
    CHECK_EQ(parse_copy((const uint8_t *)text, sizeof text), ELF_ERR_MAGIC);
}

static void test_truncated(void)
{
    uint64_t table_end = get64(exe + OFF_PHOFF) + (uint64_t)get16(exe + OFF_PHNUM) * PHDR_SIZE;
    static const size_t header_cuts[] = { 63, 40, 16, 4 };

    for (size_t i = 0; i < sizeof header_cuts / sizeof header_cuts[0]; i++) {
        uint8_t *c = working_copy(header_cuts[i]);
        CHECK_EQ(parse_copy(c, header_cuts[i]), ELF_ERR_SHORT);
        free(c);
    }
    uint8_t *c = working_copy(0);
    CHECK_EQ(parse_copy(c, 0), ELF_ERR_MAGIC);
    free(c);

    c = working_copy(table_end - 1);
    CHECK_EQ(parse_copy(c, table_end - 1), ELF_ERR_SHORT);
    free(c);

    /* headers intact, but the last segment's bytes are cut off */
    const struct elf_segment *last = &expected[nexpected - 1];
    size_t cut = last->offset + last->filesz - 1;
    c = working_copy(cut);
    CHECK_EQ(parse_copy(c, cut), ELF_ERR_SEGMENT);
    free(c);

    /* every prefix is refused, whatever the reason */
    int accepted = 0;
    for (size_t n = 0; n < (size_t)(last->offset + last->filesz); n++) {
        c = working_copy(n);
        accepted += parse_copy(c, n) == 0;
        free(c);
    }
    CHECK_EQ(accepted, 0);
}

static void test_program_header_table(void)
{
    uint8_t *c;

    c = working_copy(exe_size);
    put64(c + OFF_PHOFF, exe_size);
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SHORT);
    put64(c + OFF_PHOFF, exe_size - PHDR_SIZE + 1);
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SHORT);
    put64(c + OFF_PHOFF, UINT64_MAX - 8);   /* phoff + table size wraps */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SHORT);
    free(c);

    static const uint16_t bad_phnum[] = { 0xffff, 1000, 65, 0 };
    for (size_t i = 0; i < sizeof bad_phnum / sizeof bad_phnum[0]; i++) {
        c = working_copy(exe_size);
        put16(c + OFF_PHNUM, bad_phnum[i]);
        CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SEGMENT);
        free(c);
    }

    static const uint16_t bad_entsize[] = { 0, 32, 55, 57, 64 };
    for (size_t i = 0; i < sizeof bad_entsize / sizeof bad_entsize[0]; i++) {
        c = working_copy(exe_size);
        put16(c + OFF_PHENTSIZE, bad_entsize[i]);
        CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SEGMENT);
        free(c);
    }
}

static void test_segment_bounds(void)
{
    uint8_t *c;
    int data = nexpected - 1;   /* the last (data) segment */

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_FILESZ, expected[data].memsz + 1);
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SEGMENT);   /* filesz > memsz */
    free(c);

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_OFFSET, UINT64_MAX - 1);      /* offset + filesz wraps */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SEGMENT);
    free(c);

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_OFFSET, exe_size);            /* starts at the end */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SEGMENT);
    free(c);

    c = working_copy(exe_size);
    put64(load_ph[0] + PH_VADDR, UINT64_MAX - 0x10);       /* vaddr + memsz wraps */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SEGMENT);
    free(c);

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_MEMSZ, UINT64_MAX);           /* huge bss wraps too */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_SEGMENT);
    free(c);
}

static void test_segment_addresses(void)
{
    uint8_t *c;
    int data = nexpected - 1;

    c = working_copy(exe_size);
    put64(load_ph[0] + PH_VADDR, 0);                       /* page 0: below user */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_ADDRESS);
    free(c);

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_VADDR, USER_HI - 0x10);       /* straddles the top */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_ADDRESS);
    free(c);

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_VADDR, USER_HI);              /* just above */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_ADDRESS);
    free(c);

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_VADDR, 0xffffffc000000000ull); /* kernel half */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_ADDRESS);
    free(c);
}

static void test_entry(void)
{
    uint8_t *c;
    int data = nexpected - 1;

    c = working_copy(exe_size);
    put64(c + OFF_ENTRY, expected[data].vaddr);            /* in data: not executable */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_ENTRY);
    put64(c + OFF_ENTRY, expected[0].vaddr + expected[0].memsz);   /* one past code */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_ENTRY);
    put64(c + OFF_ENTRY, expected[0].vaddr + expected[0].memsz - 1);
    CHECK_EQ(parse_copy(c, exe_size), 0);
    put64(c + OFF_ENTRY, expected[0].vaddr);
    CHECK_EQ(parse_copy(c, exe_size), 0);
    put64(c + OFF_ENTRY, 0);                                /* outside user memory */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_ADDRESS);
    put64(c + OFF_ENTRY, USER_HI);
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_ADDRESS);
    free(c);

    /* take X away from the code segment: nothing is executable */
    c = working_copy(exe_size);
    put32(load_ph[0] + PH_FLAGS, 4);
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_ENTRY);
    free(c);
}

static void test_overlap(void)
{
    uint8_t *c;
    int data = nexpected - 1;
    uint64_t code_end = expected[0].vaddr + expected[0].memsz;

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_VADDR, expected[0].vaddr);    /* same bytes */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_OVERLAP);
    free(c);

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_VADDR, code_end);             /* same page only */
    CHECK_EQ(parse_copy(c, exe_size), ELF_ERR_OVERLAP);
    free(c);

    c = working_copy(exe_size);
    put64(load_ph[data] + PH_VADDR, (code_end + 0xfff) & ~0xfffull);   /* next page: fine */
    CHECK_EQ(parse_copy(c, exe_size), 0);
    free(c);
}

/* Random damage in the headers must give an answer, never a bad read. */
static void test_fuzz(void)
{
    uint64_t table_end = get64(exe + OFF_PHOFF) + (uint64_t)get16(exe + OFF_PHNUM) * PHDR_SIZE;
    uint32_t seed = 4242;
    int refused = 0;

    for (int round = 0; round < FUZZ_ROUNDS; round++) {
        uint8_t *c = working_copy(exe_size);
        for (int i = 0; i <= round % 3; i++) {
            seed = seed * 1664525u + 1013904223u;
            c[(seed >> 8) % table_end] ^= (uint8_t)(1u << ((seed >> 4) & 7));
        }
        struct elf_image img;
        int rc = elf_parse(c, exe_size, USER_LO, USER_HI, &img);
        if (rc != 0)
            refused++;
        else
            CHECK(img.nsegments > 0 && img.nsegments <= ELF_MAX_SEGMENTS);
        free(c);
    }
    CHECK(refused > 0);
}

/* --- small images built here --- */

struct phdr_spec {
    uint32_t type;
    uint32_t flags;
    uint64_t vaddr;
    uint64_t memsz;
};

#define BUILT_MAX_PHDRS 16
#define BUILT_PAYLOAD   16   /* bytes of file data per segment */

/* An ELF with the given program headers, each loading BUILT_PAYLOAD bytes. */
static size_t build_elf(uint8_t *buf, size_t cap, const struct phdr_spec *ph, int n, uint64_t entry)
{
    size_t table = EHDR_SIZE;
    size_t data = table + (size_t)n * PHDR_SIZE;
    size_t size = data + (size_t)n * BUILT_PAYLOAD;
    if (size > cap) {
        fprintf(stderr, "build_elf: buffer too small\n");
        exit(2);
    }
    memset(buf, 0, size);
    memcpy(buf, "\x7f" "ELF", 4);
    buf[OFF_CLASS] = 2;
    buf[OFF_DATA] = 1;
    buf[6] = 1;
    put16(buf + OFF_TYPE, 2);
    put16(buf + OFF_MACHINE, 243);
    put32(buf + 20, 1);
    put64(buf + OFF_ENTRY, entry);
    put64(buf + OFF_PHOFF, table);
    put16(buf + 52, EHDR_SIZE);
    put16(buf + OFF_PHENTSIZE, PHDR_SIZE);
    put16(buf + OFF_PHNUM, (uint16_t)n);
    for (int i = 0; i < n; i++) {
        uint8_t *p = buf + table + (size_t)i * PHDR_SIZE;
        uint64_t filesz = MIN(ph[i].memsz, (uint64_t)BUILT_PAYLOAD);
        put32(p + PH_TYPE, ph[i].type);
        put32(p + PH_FLAGS, ph[i].flags);
        put64(p + PH_OFFSET, data + (size_t)i * BUILT_PAYLOAD);
        put64(p + PH_VADDR, ph[i].vaddr);
        put64(p + PH_PADDR, ph[i].vaddr);
        put64(p + PH_FILESZ, filesz);
        put64(p + PH_MEMSZ, ph[i].memsz);
        put64(p + PH_ALIGN, 0x1000);
    }
    return size;
}

static void test_built_images(void)
{
    uint8_t buf[EHDR_SIZE + BUILT_MAX_PHDRS * (PHDR_SIZE + BUILT_PAYLOAD)];
    struct phdr_spec ph[BUILT_MAX_PHDRS];
    struct elf_image img;
    size_t n;

    /* ELF_MAX_SEGMENTS loads on separate pages are fine; one more is not */
    for (int i = 0; i <= ELF_MAX_SEGMENTS; i++)
        ph[i] = (struct phdr_spec){ PT_LOAD, i == 0 ? 5 : 6, 0x10000 + 0x1000ull * i, 0x800 };
    n = build_elf(buf, sizeof buf, ph, ELF_MAX_SEGMENTS, 0x10000);
    CHECK_EQ(elf_parse(buf, n, USER_LO, USER_HI, &img), 0);
    CHECK_EQ(img.nsegments, ELF_MAX_SEGMENTS);
    CHECK_EQ(img.seg[3].vaddr, 0x13000);
    CHECK_EQ(img.seg[3].memsz, 0x800);
    CHECK_EQ(img.seg[3].filesz, BUILT_PAYLOAD);
    CHECK_EQ(img.seg[3].flags, ELF_SEG_R | ELF_SEG_W);
    n = build_elf(buf, sizeof buf, ph, ELF_MAX_SEGMENTS + 1, 0x10000);
    CHECK_EQ(elf_parse(buf, n, USER_LO, USER_HI, &img), ELF_ERR_SEGMENT);
    CHECK_EQ(img.nsegments, 0);   /* a refused image is not half described */

    /* non-LOAD headers are skipped, and empty LOADs load nothing */
    ph[0] = (struct phdr_spec){ PT_NOTE, 4, 0, 0x10 };
    ph[1] = (struct phdr_spec){ PT_LOAD, 5, 0x20000, 0x100 };
    ph[2] = (struct phdr_spec){ PT_LOAD, 6, 0x20000, 0 };
    n = build_elf(buf, sizeof buf, ph, 3, 0x20010);
    CHECK_EQ(elf_parse(buf, n, USER_LO, USER_HI, &img), 0);
    CHECK_EQ(img.nsegments, 1);
    CHECK_EQ(img.entry, 0x20010);

    /* a program that wants a dynamic linker */
    ph[0] = (struct phdr_spec){ PT_INTERP, 4, 0, 0x10 };
    n = build_elf(buf, sizeof buf, ph, 2, 0x20010);
    CHECK_EQ(elf_parse(buf, n, USER_LO, USER_HI, &img), ELF_ERR_TYPE);

    /* nothing to load */
    ph[0] = (struct phdr_spec){ PT_NOTE, 4, 0, 0x10 };
    n = build_elf(buf, sizeof buf, ph, 1, 0x20010);
    CHECK_EQ(elf_parse(buf, n, USER_LO, USER_HI, &img), ELF_ERR_SEGMENT);

    /* three segments where only the first and the last share a page */
    ph[0] = (struct phdr_spec){ PT_LOAD, 5, 0x30000, 0x100 };
    ph[1] = (struct phdr_spec){ PT_LOAD, 6, 0x31000, 0x1000 };
    ph[2] = (struct phdr_spec){ PT_LOAD, 6, 0x30f00, 0x10 };
    n = build_elf(buf, sizeof buf, ph, 3, 0x30000);
    CHECK_EQ(elf_parse(buf, n, USER_LO, USER_HI, &img), ELF_ERR_OVERLAP);
    /* a segment ending exactly at a page boundary does not touch the next page */
    ph[2] = (struct phdr_spec){ PT_LOAD, 6, 0x32000, 0x10 };
    n = build_elf(buf, sizeof buf, ph, 3, 0x30000);
    CHECK_EQ(elf_parse(buf, n, USER_LO, USER_HI, &img), 0);

    /* a segment that starts in the partial page below an unaligned user_lo */
    ph[0] = (struct phdr_spec){ PT_LOAD, 5, 0x10800, 0x100 };
    n = build_elf(buf, sizeof buf, ph, 1, 0x10800);
    CHECK_EQ(elf_parse(buf, n, 0x10800, USER_HI, &img), ELF_ERR_ADDRESS);
    CHECK_EQ(elf_parse(buf, n, 0x10000, USER_HI, &img), 0);
}

/* elf_parse_head: only the first head_len bytes are read; the headers
 * must be in them, the segments are checked against the whole size. */
static void test_head_only(void)
{
    struct elf_image whole, head;
    uint8_t *copy = working_copy(exe_size);
    uint64_t phoff = get64(exe + OFF_PHOFF);
    size_t table_end = phoff + (size_t)get16(exe + OFF_PHNUM) * PHDR_SIZE;

    /* The same answer as elf_parse, from just the headers (the rest of
     * the buffer is poisoned: nothing past head_len may matter). */
    uint8_t *short_copy = malloc(table_end);
    memcpy(short_copy, exe, table_end);
    CHECK_EQ(elf_parse(copy, exe_size, USER_LO, USER_HI, &whole), 0);
    CHECK_EQ(elf_parse_head(short_copy, table_end, exe_size, USER_LO, USER_HI, &head), 0);
    CHECK_EQ(head.entry, whole.entry);
    CHECK_EQ(head.nsegments, whole.nsegments);
    CHECK(memcmp(head.seg, whole.seg, sizeof head.seg) == 0);

    /* One byte of the table missing from the head: refused, not read. */
    CHECK_EQ(elf_parse_head(short_copy, table_end - 1, exe_size, USER_LO, USER_HI, &head),
             ELF_ERR_HEADERS);
    CHECK_EQ(head.nsegments, 0);
    /* Segments are still checked against the file's real size. */
    CHECK_EQ(elf_parse_head(short_copy, table_end, table_end, USER_LO, USER_HI, &head),
             ELF_ERR_SEGMENT);
    /* A head longer than the file is the caller's mistake. */
    CHECK_EQ(elf_parse_head(copy, exe_size, exe_size - 1, USER_LO, USER_HI, &head), ELF_ERR_SHORT);
    /* A short file is still "short", not "headers beyond the head". */
    CHECK_EQ(elf_parse_head(short_copy, 40, 40, USER_LO, USER_HI, &head), ELF_ERR_SHORT);
    free(short_copy);
    free(copy);
}

static void test_strerror(void)
{
    static const int codes[] = {
        ELF_ERR_SHORT, ELF_ERR_MAGIC, ELF_ERR_CLASS, ELF_ERR_MACHINE, ELF_ERR_TYPE,
        ELF_ERR_SEGMENT, ELF_ERR_ADDRESS, ELF_ERR_ENTRY, ELF_ERR_OVERLAP, ELF_ERR_HEADERS,
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        for (size_t j = i + 1; j < sizeof codes / sizeof codes[0]; j++)
            CHECK(strcmp(elf_strerror(codes[i]), elf_strerror(codes[j])) != 0);
    CHECK(elf_strerror(-100) != NULL);
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc - 3 > ELF_MAX_SEGMENTS) {
        fprintf(stderr, "usage: %s EXE ENTRY vaddr:memsz:offset:filesz:flags...\n", argv[0]);
        return 2;
    }
    exe = read_test_file(argv[1], &exe_size);
    exe_entry = strtoull(argv[2], NULL, 16);
    for (int i = 3; i < argc; i++)
        parse_load_arg(argv[i], &expected[nexpected++]);

    test_real_executable();
    test_identification();
    test_truncated();
    test_program_header_table();
    test_segment_bounds();
    test_segment_addresses();
    test_entry();
    test_overlap();
    test_fuzz();
    test_built_images();
    test_head_only();
    test_strerror();
    free(exe);
    return check_summary("elf");
}
