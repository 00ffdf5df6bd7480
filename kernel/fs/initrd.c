/*
 * cpio "newc" reader.
 *
 * Each record is a 110-byte ASCII header (magic "070701" then thirteen
 * 8-digit hex fields), the NUL-terminated name padded so that header+name
 * is a multiple of 4, then the data padded to 4. The archive ends with a
 * record named "TRAILER!!!". Offsets are relative to the archive start, so
 * the archive itself may sit at any address.
 */
#include "initrd.h"
#include "kstring.h"

#define CPIO_HEADER_SIZE     110
#define CPIO_MAGIC           "070701"
#define CPIO_MAGIC_LEN       6
#define CPIO_FIELD_DIGITS    8
#define CPIO_ALIGN           4u
#define CPIO_TRAILER         "TRAILER!!!"

/* field offsets inside the header (magic, then 8-digit fields) */
#define CPIO_FIELD(n)        (CPIO_MAGIC_LEN + (n) * CPIO_FIELD_DIGITS)
#define CPIO_OFF_MODE        CPIO_FIELD(1)
#define CPIO_OFF_FILESIZE    CPIO_FIELD(6)
#define CPIO_OFF_NAMESIZE    CPIO_FIELD(11)

#define HEX_DIGIT_BITS       4
#define HEX_LETTER_BASE      10

/* One record, located and checked. */
struct cpio_record {
    struct initrd_file file;
    const char *raw_name;     /* as stored, before stripping */
    uint64_t next;            /* offset of the following record */
};

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + HEX_LETTER_BASE;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + HEX_LETTER_BASE;
    return -1;
}

static int parse_hex_field(const uint8_t *p, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < CPIO_FIELD_DIGITS; i++) {
        int d = hex_value((char)p[i]);
        if (d < 0)
            return INITRD_ERR_FORMAT;
        v = (v << HEX_DIGIT_BITS) | (uint32_t)d;
    }
    *out = v;
    return 0;
}

static uint64_t align4(uint64_t x)
{
    return (x + CPIO_ALIGN - 1) & ~(uint64_t)(CPIO_ALIGN - 1);
}

/* Archive names are written "./bin/sh", "/bin/sh" or "bin/sh" depending on
 * the tool; callers see them all as "bin/sh". */
static const char *strip_prefix(const char *name)
{
    for (;;) {
        if (name[0] == '/')
            name++;
        else if (name[0] == '.' && name[1] == '/')
            name += 2;
        else
            return name;
    }
}

/* Reads the record at pos, checking that all of it lies inside the archive. */
static int read_record(const uint8_t *base, uint64_t size, uint64_t pos, struct cpio_record *rec)
{
    const uint8_t *h = base + pos;
    uint32_t mode, filesize, namesize;

    if (pos > size || size - pos < CPIO_HEADER_SIZE)
        return INITRD_ERR_TRUNCATED;
    if (memcmp(h, CPIO_MAGIC, CPIO_MAGIC_LEN) != 0)
        return INITRD_ERR_MAGIC;
    if (parse_hex_field(h + CPIO_OFF_MODE, &mode) != 0 ||
        parse_hex_field(h + CPIO_OFF_FILESIZE, &filesize) != 0 ||
        parse_hex_field(h + CPIO_OFF_NAMESIZE, &namesize) != 0)
        return INITRD_ERR_FORMAT;
    if (namesize == 0)
        return INITRD_ERR_FORMAT;   /* no room even for the NUL */

    uint64_t name_off = pos + CPIO_HEADER_SIZE;
    if (namesize > size - name_off)
        return INITRD_ERR_TRUNCATED;
    const char *name = (const char *)base + name_off;
    /* the NUL must be the last byte counted, and the only one */
    if (strnlen(name, namesize) != namesize - 1)
        return INITRD_ERR_FORMAT;

    uint64_t data_off = align4(name_off + namesize);
    if (filesize > 0 && (data_off > size || filesize > size - data_off))
        return INITRD_ERR_TRUNCATED;
    /* An empty entry may end the archive without its padding (some tools
     * write the trailer that way); its data pointer must still not point
     * past the end. */
    if (data_off > size)
        data_off = size;

    rec->raw_name = name;
    rec->file.name = strip_prefix(name);
    rec->file.data = base + data_off;
    rec->file.size = filesize;
    rec->file.mode = mode;
    rec->next = align4(data_off + filesize);
    return 0;
}

int initrd_walk(const void *base, uint64_t size,
                int (*visit)(const struct initrd_file *f, void *ctx), void *ctx)
{
    uint64_t pos = 0;
    int count = 0;

    for (;;) {
        struct cpio_record rec;
        int rc = read_record(base, size, pos, &rec);
        if (rc != 0)
            return rc;
        if (strcmp(rec.raw_name, CPIO_TRAILER) == 0)
            return count;
        count++;
        if (visit && visit(&rec.file, ctx) != 0)
            return count;
        pos = rec.next;
    }
}

struct lookup_ctx {
    const char *want;
    struct initrd_file *out;
    bool found;
};

static int match_name(const struct initrd_file *f, void *ctx)
{
    struct lookup_ctx *lc = ctx;
    if (strcmp(f->name, lc->want) != 0)
        return 0;
    *lc->out = *f;
    lc->found = true;
    return 1;
}

int initrd_lookup(const void *base, uint64_t size, const char *path, struct initrd_file *out)
{
    struct lookup_ctx lc = { strip_prefix(path), out, false };
    int rc = initrd_walk(base, size, match_name, &lc);
    if (rc < 0)
        return rc;
    return lc.found ? 0 : INITRD_NOT_FOUND;
}

const char *initrd_strerror(int err)
{
    switch (err) {
    case 0:                    return "no error";
    case INITRD_NOT_FOUND:     return "no such file in the initrd";
    case INITRD_ERR_MAGIC:     return "initrd is not a newc cpio archive (bad magic)";
    case INITRD_ERR_TRUNCATED: return "initrd truncated";
    case INITRD_ERR_FORMAT:    return "malformed initrd header";
    default:                   return "unknown initrd error";
    }
}
