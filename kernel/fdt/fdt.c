/*
 * Flattened device tree reader.
 *
 * One pass over the structure block. Each open node gets a frame on a small
 * fixed stack that remembers where its interesting properties are; the node
 * is interpreted when it closes, because a node's properties may come in any
 * order (QEMU writes "reg" before "compatible") and a child's "reg" is
 * decoded with #address-cells/#size-cells of its parent, which is still open.
 *
 * The blob may come from anywhere (firmware, a test's corrupted copy), so
 * every read is checked against totalsize and done byte by byte: the DTB is
 * big-endian and QEMU only promises 8-byte alignment of the blob itself.
 */
#include "fdt_internal.h"

/* ------------------------------------------------------------------ */
/* the structure walk                                                  */

static enum node_kind classify_node(const struct fdt_scan *s, const char *name)
{
    if (s->depth < 0)
        return NODE_ROOT;
    const struct fdt_node *parent = &s->stack[s->depth];
    switch (parent->kind) {
    case NODE_ROOT:
        if (node_name_is(name, "memory"))
            return NODE_MEMORY_NAMED;
        if (strcmp(name, "reserved-memory") == 0)
            return NODE_RESERVED_MEMORY;
        if (strcmp(name, "cpus") == 0)
            return NODE_CPUS;
        if (strcmp(name, "chosen") == 0)
            return NODE_CHOSEN;
        return NODE_OTHER;
    case NODE_RESERVED_MEMORY:
        return NODE_RESERVED_REGION;
    case NODE_CPUS:
        return NODE_CPU_CHILD;
    default:
        return NODE_OTHER;
    }
}

static int begin_node(struct fdt_scan *s, uint64_t *pos)
{
    const struct fdt_blob *b = s->blob;
    const char *name = (const char *)b->base + *pos;
    size_t room = b->struct_end - *pos;
    size_t len = strnlen(name, room);

    if (len == room)
        return FDT_ERR_TRUNCATED;
    if (s->depth < 0 && s->saw_root)
        return FDT_ERR_STRUCTURE;   /* a second root */
    if (s->depth + 1 >= FDT_MAX_DEPTH)
        return FDT_ERR_STRUCTURE;

    struct fdt_node *n = &s->stack[s->depth + 1];
    memset(n, 0, sizeof *n);
    n->kind = classify_node(s, name);
    n->name_off = (uint32_t)*pos;
    s->depth++;
    s->saw_root = true;
    *pos = align_up64(*pos + len + 1, FDT_TOKEN_ALIGN);
    return 0;
}

/* The property's name from the strings block, or NULL if it is not a
 * NUL-terminated string inside that block. */
static const char *property_name(const struct fdt_blob *b, uint32_t nameoff)
{
    if (nameoff >= b->strings_size)
        return NULL;
    const char *name = (const char *)b->base + b->strings_off + nameoff;
    if (strnlen(name, b->strings_size - nameoff) == b->strings_size - nameoff)
        return NULL;
    return name;
}

static int record_property(struct fdt_scan *s, uint64_t *pos)
{
    const struct fdt_blob *b = s->blob;
    uint32_t len, nameoff;

    if (s->depth < 0)
        return FDT_ERR_STRUCTURE;
    if (!read_u32_below(b, *pos, b->struct_end, &len) ||
        !read_u32_below(b, *pos + FDT_CELL_BYTES, b->struct_end, &nameoff))
        return FDT_ERR_TRUNCATED;
    uint64_t value_off = *pos + FDT_PROP_HEADER_BYTES;
    if (len > b->struct_end - value_off)
        return FDT_ERR_TRUNCATED;
    const char *name = property_name(b, nameoff);
    if (!name)
        return FDT_ERR_STRUCTURE;

    struct fdt_node *n = &s->stack[s->depth];
    for (int slot = 0; slot < PROP_SLOTS; slot++) {
        if (strcmp(name, prop_names[slot]) == 0) {
            n->prop[slot].off = (uint32_t)value_off;
            n->prop[slot].len = len;
            break;
        }
    }
    *pos = align_up64(value_off + len, FDT_TOKEN_ALIGN);
    return 0;
}

static int walk_structure(struct fdt_scan *s)
{
    const struct fdt_blob *b = s->blob;
    uint64_t pos = b->struct_off;

    for (;;) {
        uint32_t token;
        int rc = 0;

        if (!read_u32_below(b, pos, b->struct_end, &token))
            return FDT_ERR_TRUNCATED;
        pos += FDT_CELL_BYTES;
        switch (token) {
        case FDT_TOKEN_BEGIN_NODE:
            rc = begin_node(s, &pos);
            break;
        case FDT_TOKEN_END_NODE:
            if (s->depth < 0)
                return FDT_ERR_STRUCTURE;
            rc = fdt_finish_node(s);
            s->depth--;
            break;
        case FDT_TOKEN_PROP:
            rc = record_property(s, &pos);
            break;
        case FDT_TOKEN_NOP:
            break;
        case FDT_TOKEN_END:
            return (s->saw_root && s->depth < 0) ? 0 : FDT_ERR_STRUCTURE;
        default:
            return FDT_ERR_STRUCTURE;
        }
        if (rc != 0)
            return rc;
    }
}

/* ------------------------------------------------------------------ */
/* header and memory reservation block                                 */

/* Checks that [off, off+size) lies within the blob. */
static bool block_fits(uint32_t total, uint32_t off, uint32_t size)
{
    return off <= total && size <= total - off;
}

static int read_header(const void *blob, struct fdt_blob *b)
{
    const uint8_t *p = blob;

    if (be32(p + FDT_HDR_MAGIC) != FDT_MAGIC)
        return FDT_ERR_MAGIC;
    b->base = p;
    b->total = be32(p + FDT_HDR_TOTALSIZE);
    if (b->total < FDT_HEADER_SIZE)
        return FDT_ERR_TRUNCATED;

    uint32_t version = be32(p + FDT_HDR_VERSION);
    uint32_t last_comp = be32(p + FDT_HDR_LAST_COMP);
    if (version < FDT_OLDEST_VERSION || last_comp > FDT_NEWEST_COMPAT)
        return FDT_ERR_VERSION;

    b->struct_off = be32(p + FDT_HDR_OFF_STRUCT);
    b->strings_off = be32(p + FDT_HDR_OFF_STRINGS);
    b->strings_size = be32(p + FDT_HDR_SIZE_STRINGS);
    b->rsvmap_off = be32(p + FDT_HDR_OFF_RSVMAP);
    uint32_t struct_size = version >= FDT_VERSION_STRUCT_SIZE
                         ? be32(p + FDT_HDR_SIZE_STRUCT)
                         : b->total - MIN(b->struct_off, b->total);

    if (b->struct_off < FDT_HEADER_SIZE || b->strings_off < FDT_HEADER_SIZE ||
        b->rsvmap_off < FDT_HEADER_SIZE ||
        b->struct_off % FDT_TOKEN_ALIGN != 0 || b->rsvmap_off % FDT_RSVMAP_ALIGN != 0)
        return FDT_ERR_STRUCTURE;
    if (!block_fits(b->total, b->struct_off, struct_size) ||
        !block_fits(b->total, b->strings_off, b->strings_size) ||
        !block_fits(b->total, b->rsvmap_off, 0))
        return FDT_ERR_TRUNCATED;
    b->struct_end = b->struct_off + struct_size;
    return 0;
}

static int read_memreserve(const struct fdt_blob *b, struct board_info *out)
{
    for (uint64_t pos = b->rsvmap_off;; pos += FDT_RSVMAP_ENTRY_BYTES) {
        if (b->total - pos < FDT_RSVMAP_ENTRY_BYTES)
            return FDT_ERR_TRUNCATED;
        struct mem_range r = {
            .base = be64(b->base + pos),
            .size = be64(b->base + pos + sizeof(uint64_t)),
        };
        if (r.base == 0 && r.size == 0)
            return 0;
        int rc = add_range(out->reserved, &out->nreserved, MAX_RESERVED_RANGES, r, true);
        if (rc != 0)
            return rc;
    }
}


/* ------------------------------------------------------------------ */
/* interface                                                           */

uint32_t fdt_total_size(const void *blob)
{
    const uint8_t *p = blob;
    if (be32(p + FDT_HDR_MAGIC) != FDT_MAGIC)
        return 0;
    uint32_t total = be32(p + FDT_HDR_TOTALSIZE);
    return total < FDT_HEADER_SIZE ? 0 : total;
}

int fdt_scan(const void *blob, struct board_info *out)
{
    struct fdt_blob b;
    struct fdt_scan s;

    memset(out, 0, sizeof *out);
    int rc = read_header(blob, &b);
    if (rc == 0)
        rc = read_memreserve(&b, out);
    if (rc == 0) {
        memset(&s, 0, sizeof s);
        s.blob = &b;
        s.out = out;
        s.depth = -1;
        rc = walk_structure(&s);
    }
    if (rc == 0)
        rc = fdt_finish_scan(&s);
    if (rc == 0 && out->timebase_hz == 0)
        out->timebase_hz = s.first_cpu_timebase;
    if (rc != 0) {
        /* a half-filled board_info must not be mistaken for a board */
        memset(out, 0, sizeof *out);
    }
    return rc;
}

const char *fdt_strerror(int err)
{
    switch (err) {
    case 0:                 return "no error";
    case FDT_ERR_MAGIC:     return "not a device tree (bad magic)";
    case FDT_ERR_VERSION:   return "unsupported device tree version";
    case FDT_ERR_TRUNCATED: return "device tree truncated (data past totalsize)";
    case FDT_ERR_STRUCTURE: return "malformed device tree structure";
    case FDT_ERR_LIMIT:     return "device tree exceeds a faultline limit";
    default:                return "unknown device tree error";
    }
}
