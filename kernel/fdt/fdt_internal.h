/*
 * Shared by the device-tree walker (fdt.c) and the interpretation of its
 * nodes (fdt_board.c): the format constants, the scan state, and the
 * bounds-checked readers. Internal to those two files.
 */
#ifndef FAULTLINE_FDT_INTERNAL_H
#define FAULTLINE_FDT_INTERNAL_H

#include "fdt.h"
#include "kstring.h"

/* --- format constants (devicetree specification, chapter 5) --- */
#define FDT_MAGIC                 0xd00dfeedU
#define FDT_HEADER_SIZE           40u   /* ten 32-bit words in a v17 header */
#define FDT_OLDEST_VERSION        16u   /* earlier layouts lack fields we rely on */
#define FDT_NEWEST_COMPAT         17u   /* last_comp_version we understand */
#define FDT_VERSION_STRUCT_SIZE   17u   /* first version with size_dt_struct */

#define FDT_HDR_MAGIC             0u
#define FDT_HDR_TOTALSIZE         4u
#define FDT_HDR_OFF_STRUCT        8u
#define FDT_HDR_OFF_STRINGS       12u
#define FDT_HDR_OFF_RSVMAP        16u
#define FDT_HDR_VERSION           20u
#define FDT_HDR_LAST_COMP         24u
#define FDT_HDR_SIZE_STRINGS      32u
#define FDT_HDR_SIZE_STRUCT       36u

#define FDT_TOKEN_BEGIN_NODE      0x1u
#define FDT_TOKEN_END_NODE        0x2u
#define FDT_TOKEN_PROP            0x3u
#define FDT_TOKEN_NOP             0x4u
#define FDT_TOKEN_END             0x9u

#define FDT_CELL_BYTES            4u
#define FDT_TOKEN_ALIGN           4u
#define FDT_RSVMAP_ALIGN          8u
#define FDT_RSVMAP_ENTRY_BYTES    16u   /* two 64-bit words: address, size */
#define FDT_PROP_HEADER_BYTES     8u    /* len, nameoff */

#define FDT_DEFAULT_ADDRESS_CELLS 2u    /* spec defaults when a parent says nothing */
#define FDT_DEFAULT_SIZE_CELLS    1u
#define FDT_MAX_VALUE_CELLS       2u    /* wider numbers do not fit in uint64_t */

/* QEMU virt nests four levels (/cpus/cpu-map/cluster0/core0); real boards a
 * few more. A fixed bound keeps the walk's stack use known. */
#define FDT_MAX_DEPTH             12

/* --- the properties faultline reads, remembered per open node --- */
#define ARCH_PROP_SLOT(slot, name) slot,
enum prop_slot {
    PROP_REG,
    PROP_INTERRUPTS,
    PROP_COMPATIBLE,
    PROP_STATUS,
    PROP_DEVICE_TYPE,
    PROP_TIMEBASE,
    PROP_BOOTARGS,
    PROP_INITRD_START,
    PROP_INITRD_END,
    PROP_ADDRESS_CELLS,
    PROP_SIZE_CELLS,
    PROP_PHANDLE,
    PROP_INTERRUPTS_EXT,
    ARCH_FDT_PROPS(ARCH_PROP_SLOT)      /* the port's (<arch/board.h>) */
    PROP_SLOTS
};
#undef ARCH_PROP_SLOT

#define ARCH_PROP_NAME(slot, name) [slot] = name,
static const char *const prop_names[PROP_SLOTS] = {
    [PROP_REG]           = "reg",
    [PROP_INTERRUPTS]    = "interrupts",
    [PROP_COMPATIBLE]    = "compatible",
    [PROP_STATUS]        = "status",
    [PROP_DEVICE_TYPE]   = "device_type",
    [PROP_TIMEBASE]      = "timebase-frequency",
    [PROP_BOOTARGS]      = "bootargs",
    [PROP_INITRD_START]  = "linux,initrd-start",
    [PROP_INITRD_END]    = "linux,initrd-end",
    [PROP_ADDRESS_CELLS] = "#address-cells",
    [PROP_SIZE_CELLS]    = "#size-cells",
    [PROP_PHANDLE]       = "phandle",
    [PROP_INTERRUPTS_EXT] = "interrupts-extended",
    ARCH_FDT_PROPS(ARCH_PROP_NAME)
};
#undef ARCH_PROP_NAME

/* What a node is, as far as its name and its parent tell. */
enum node_kind {
    NODE_OTHER,
    NODE_ROOT,
    NODE_MEMORY_NAMED,      /* /memory or /memory@...; device_type may also say so */
    NODE_RESERVED_MEMORY,   /* /reserved-memory */
    NODE_RESERVED_REGION,   /* a child of /reserved-memory */
    NODE_CPUS,              /* /cpus */
    NODE_CPU_CHILD,         /* a child of /cpus: a cpu unless it is cpu-map & co */
    NODE_CHOSEN,            /* /chosen */
};

/* struct fdt_value (a property's place in the blob) is in fdt.h. */

struct fdt_node {
    enum node_kind kind;
    uint32_t name_off;
    struct fdt_value prop[PROP_SLOTS];
};

struct fdt_blob {
    const uint8_t *base;
    uint32_t total;
    uint32_t struct_off, struct_end;
    uint32_t strings_off, strings_size;
    uint32_t rsvmap_off;
};

struct fdt_scan {
    const struct fdt_blob *blob;
    struct board_info *out;
    struct fdt_node stack[FDT_MAX_DEPTH];
    int depth;                    /* index of the innermost open node, -1 if none */
    bool saw_root;
    bool have_initrd_start, have_initrd_end;
    uint64_t first_cpu_timebase;  /* used when /cpus has no timebase-frequency */
    struct arch_fdt_scan arch;    /* the port's own (<arch/board.h>) */
};

/* ------------------------------------------------------------------ */
/* byte-level access                                                   */

static inline uint32_t be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
           ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline uint64_t be64(const uint8_t *p)
{
    return ((uint64_t)be32(p) << 32) | be32(p + FDT_CELL_BYTES);
}

/* Big-endian number of ncells (<= FDT_MAX_VALUE_CELLS) cells. */
static inline uint64_t read_cells(const uint8_t *p, uint32_t ncells)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < ncells; i++)
        v = (v << 32) | be32(p + i * FDT_CELL_BYTES);
    return v;
}

static inline uint64_t align_up64(uint64_t x, uint64_t a)
{
    return (x + a - 1) & ~(a - 1);
}

/* Reads a 32-bit word at pos if it lies wholly below limit. */
static inline bool read_u32_below(const struct fdt_blob *b, uint64_t pos, uint64_t limit, uint32_t *v)
{
    if (pos > limit || limit - pos < FDT_CELL_BYTES)
        return false;
    *v = be32(b->base + pos);
    return true;
}

static const uint8_t *value_ptr(const struct fdt_blob *b, struct fdt_value v)
{
    return b->base + v.off;
}

static inline bool value_present(struct fdt_value v)
{
    return v.off != 0;
}

/* A string property must hold its terminating NUL. */
static const char *value_string(const struct fdt_blob *b, struct fdt_value v)
{
    if (!value_present(v) || v.len == 0)
        return NULL;
    const char *s = (const char *)value_ptr(b, v);
    if (strnlen(s, v.len) == v.len)
        return NULL;
    return s;
}

/* A one-cell or two-cell number (e.g. linux,initrd-start, timebase). */
static inline int value_number(const struct fdt_blob *b, struct fdt_value v, uint64_t *out)
{
    if (v.len == FDT_CELL_BYTES)
        *out = be32(value_ptr(b, v));
    else if (v.len == 2 * FDT_CELL_BYTES)
        *out = be64(value_ptr(b, v));
    else
        return FDT_ERR_STRUCTURE;
    return 0;
}

/* ------------------------------------------------------------------ */
/* strings                                                             */

/* Is `want` one of the NUL-separated entries of a stringlist value? The
 * last entry is compared by length, so a list without its final NUL is
 * still read safely. */
static inline bool stringlist_has(const uint8_t *list, uint32_t len, const char *want)
{
    size_t want_len = strlen(want);
    uint32_t pos = 0;

    while (pos < len) {
        const char *entry = (const char *)list + pos;
        size_t entry_len = strnlen(entry, len - pos);
        if (entry_len == want_len && memcmp(entry, want, want_len) == 0)
            return true;
        pos += (uint32_t)entry_len + 1;
    }
    return false;
}

static inline bool compatible_with(const struct fdt_blob *b, const struct fdt_node *n,
                            const char *const *names, size_t count)
{
    struct fdt_value v = n->prop[PROP_COMPATIBLE];
    if (!value_present(v))
        return false;
    for (size_t i = 0; i < count; i++)
        if (stringlist_has(value_ptr(b, v), v.len, names[i]))
            return true;
    return false;
}

/* "memory" matches node names "memory" and "memory@80000000". */
static inline bool node_name_is(const char *name, const char *base)
{
    size_t n = strlen(base);
    return strncmp(name, base, n) == 0 && (name[n] == '\0' || name[n] == '@');
}

static inline char ascii_lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static inline bool node_enabled(const struct fdt_blob *b, const struct fdt_node *n)
{
    if (!value_present(n->prop[PROP_STATUS]))
        return true;
    const char *status = value_string(b, n->prop[PROP_STATUS]);
    /* "ok" is the pre-standard spelling some firmware still writes */
    return status && (strcmp(status, "okay") == 0 || strcmp(status, "ok") == 0);
}

static inline bool device_type_is(const struct fdt_blob *b, const struct fdt_node *n, const char *type)
{
    const char *dt = value_string(b, n->prop[PROP_DEVICE_TYPE]);
    return dt && strcmp(dt, type) == 0;
}

/* ------------------------------------------------------------------ */
/* reg decoding                                                        */

struct reg_format {
    uint32_t address_cells;
    uint32_t size_cells;
};

static inline int cells_property(const struct fdt_blob *b, struct fdt_value v, uint32_t fallback,
                          uint32_t *out)
{
    if (!value_present(v)) {
        *out = fallback;
        return 0;
    }
    if (v.len != FDT_CELL_BYTES)
        return FDT_ERR_STRUCTURE;
    *out = be32(value_ptr(b, v));
    return 0;
}

/* The format of reg in the children of `parent`. */
static inline int reg_format_of(const struct fdt_blob *b, const struct fdt_node *parent,
                         struct reg_format *fmt)
{
    int rc = cells_property(b, parent->prop[PROP_ADDRESS_CELLS],
                            FDT_DEFAULT_ADDRESS_CELLS, &fmt->address_cells);
    if (rc == 0)
        rc = cells_property(b, parent->prop[PROP_SIZE_CELLS],
                            FDT_DEFAULT_SIZE_CELLS, &fmt->size_cells);
    if (rc == 0 && (fmt->address_cells == 0 || fmt->address_cells > FDT_MAX_VALUE_CELLS ||
                    fmt->size_cells > FDT_MAX_VALUE_CELLS))
        rc = FDT_ERR_STRUCTURE;
    return rc;
}

/* Number of (address, size) entries in a reg value, or an error if the
 * value is not a whole number of entries. */
static inline int reg_entries(struct fdt_value reg, const struct reg_format *fmt, uint32_t *count)
{
    uint32_t entry_bytes = (fmt->address_cells + fmt->size_cells) * FDT_CELL_BYTES;
    if (reg.len == 0 || reg.len % entry_bytes != 0)
        return FDT_ERR_STRUCTURE;
    *count = reg.len / entry_bytes;
    return 0;
}

static inline struct mem_range reg_entry(const struct fdt_blob *b, struct fdt_value reg,
                                  const struct reg_format *fmt, uint32_t index)
{
    uint32_t entry_bytes = (fmt->address_cells + fmt->size_cells) * FDT_CELL_BYTES;
    const uint8_t *p = value_ptr(b, reg) + index * entry_bytes;
    struct mem_range r;
    r.base = read_cells(p, fmt->address_cells);
    r.size = read_cells(p + fmt->address_cells * FDT_CELL_BYTES, fmt->size_cells);
    return r;
}

/* Appends a range. Running out of room is harmless for memory (some RAM
 * goes unused) but not for reserved ranges (the allocator would hand out
 * firmware memory), hence the caller's choice. */
static inline int add_range(struct mem_range *ranges, int *n, int max, struct mem_range r,
                     bool overflow_is_error)
{
    if (r.size == 0)
        return 0;
    if (r.base + r.size < r.base)
        return FDT_ERR_STRUCTURE;
    if (*n >= max)
        return overflow_is_error ? FDT_ERR_LIMIT : 0;
    ranges[(*n)++] = r;
    return 0;
}

/* Adds every reg entry of node n (whose parent is `parent`) to ranges. */
static inline int add_reg_ranges(const struct fdt_blob *b, const struct fdt_node *parent,
                          const struct fdt_node *n, struct mem_range *ranges, int *count,
                          int max, bool overflow_is_error)
{
    struct reg_format fmt;
    uint32_t entries = 0;     /* -Og cannot see that rc != 0 skips the loop */
    int rc = reg_format_of(b, parent, &fmt);
    if (rc == 0)
        rc = reg_entries(n->prop[PROP_REG], &fmt, &entries);
    for (uint32_t i = 0; rc == 0 && i < entries; i++)
        rc = add_range(ranges, count, max, reg_entry(b, n->prop[PROP_REG], &fmt, i),
                       overflow_is_error);
    return rc;
}

/* fdt_board.c: interprets the innermost open node as it closes, and
 * checks what can only be checked once the whole tree has been read. */
int fdt_finish_node(struct fdt_scan *s);
int fdt_finish_scan(struct fdt_scan *s);

/* A device node's first reg range and first interrupt into *dev
 * (fdt_board.c; the port describes its own devices with it too). */
int fdt_describe_device(const struct fdt_blob *b, const struct fdt_node *parent,
                        const struct fdt_node *n, struct mmio_dev *dev);

/* --- the port's half of the interpretation (kernel/arch/<arch>/fdt_*.c) --- */
/* An enabled cpu node closed; first: the first one, which speaks for its
 * siblings (the same design on the boards faultline runs on). 0 or an
 * FDT_ERR_* code. */
int arch_fdt_cpu(struct fdt_scan *s, const struct fdt_node *n, bool first);
/* Any node closed: 1 if it was one of the port's devices (the portable
 * device table is then not consulted), 0 if not, or an FDT_ERR_* code. */
int arch_fdt_node(struct fdt_scan *s, const struct fdt_node *parent, const struct fdt_node *n);
/* After the walk: what needed the whole tree (which hart an output of an
 * interrupt controller reaches). 0 or an FDT_ERR_* code. */
int arch_fdt_finish(struct fdt_scan *s);

#endif
