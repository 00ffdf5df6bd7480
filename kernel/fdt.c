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
enum prop_slot {
    PROP_REG,
    PROP_INTERRUPTS,
    PROP_COMPATIBLE,
    PROP_STATUS,
    PROP_DEVICE_TYPE,
    PROP_ISA,
    PROP_NDEV,
    PROP_TIMEBASE,
    PROP_BOOTARGS,
    PROP_INITRD_START,
    PROP_INITRD_END,
    PROP_ADDRESS_CELLS,
    PROP_SIZE_CELLS,
    PROP_PHANDLE,
    PROP_INTERRUPTS_EXT,
    PROP_SLOTS
};

static const char *const prop_names[PROP_SLOTS] = {
    [PROP_REG]           = "reg",
    [PROP_INTERRUPTS]    = "interrupts",
    [PROP_COMPATIBLE]    = "compatible",
    [PROP_STATUS]        = "status",
    [PROP_DEVICE_TYPE]   = "device_type",
    [PROP_ISA]           = "riscv,isa",
    [PROP_NDEV]          = "riscv,ndev",
    [PROP_TIMEBASE]      = "timebase-frequency",
    [PROP_BOOTARGS]      = "bootargs",
    [PROP_INITRD_START]  = "linux,initrd-start",
    [PROP_INITRD_END]    = "linux,initrd-end",
    [PROP_ADDRESS_CELLS] = "#address-cells",
    [PROP_SIZE_CELLS]    = "#size-cells",
    [PROP_PHANDLE]       = "phandle",
    [PROP_INTERRUPTS_EXT] = "interrupts-extended",
};

/* Device classes recognised by compatible string. */
static const char *const uart_compatible[] = { "ns16550a" };
static const char *const plic_compatible[] = { "riscv,plic0", "sifive,plic-1.0.0" };
static const char *const test_compatible[] = { "sifive,test0" };
static const char *const virtio_compatible[] = { "virtio,mmio" };
static const char *const cpu_intc_compatible[] = { "riscv,cpu-intc" };

/* Local interrupt number of the supervisor external interrupt (RISC-V
 * privileged spec): the PLIC context wired to it on a hart is its S-mode one. */
#define RISCV_IRQ_S_EXTERNAL 9u
#define MAX_CPU_INTCS        (2 * MAX_HARTS)

static const char isa_extension_sstc[] = "sstc";
#define ISA_EXTENSION_SEPARATOR '_'

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

/* A property value: offset of its first byte in the blob (0 = absent; a
 * value can never sit on the header) and its length. */
struct fdt_value {
    uint32_t off;
    uint32_t len;
};

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
    /* Each cpu's interrupt controller by phandle, to read the PLIC's
     * interrupts-extended (which may come before or after the cpus). */
    struct { uint32_t phandle, hartid; } intc[MAX_CPU_INTCS];
    int nintc;
    struct fdt_value plic_contexts;
};

/* ------------------------------------------------------------------ */
/* byte-level access                                                   */

static uint32_t be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
           ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static uint64_t be64(const uint8_t *p)
{
    return ((uint64_t)be32(p) << 32) | be32(p + FDT_CELL_BYTES);
}

/* Big-endian number of ncells (<= FDT_MAX_VALUE_CELLS) cells. */
static uint64_t read_cells(const uint8_t *p, uint32_t ncells)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < ncells; i++)
        v = (v << 32) | be32(p + i * FDT_CELL_BYTES);
    return v;
}

static uint64_t align_up64(uint64_t x, uint64_t a)
{
    return (x + a - 1) & ~(a - 1);
}

/* Reads a 32-bit word at pos if it lies wholly below limit. */
static bool read_u32_below(const struct fdt_blob *b, uint64_t pos, uint64_t limit, uint32_t *v)
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

static bool value_present(struct fdt_value v)
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
static int value_number(const struct fdt_blob *b, struct fdt_value v, uint64_t *out)
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
static bool stringlist_has(const uint8_t *list, uint32_t len, const char *want)
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

static bool compatible_with(const struct fdt_blob *b, const struct fdt_node *n,
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
static bool node_name_is(const char *name, const char *base)
{
    size_t n = strlen(base);
    return strncmp(name, base, n) == 0 && (name[n] == '\0' || name[n] == '@');
}

static char ascii_lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* riscv,isa is "rv64imafdch_zicsr_..._sstc": multi-letter extensions are
 * whole underscore-separated tokens, so "sstc" must not match "xsstcx". */
static bool isa_has_extension(const char *isa, const char *ext)
{
    size_t ext_len = strlen(ext);
    const char *token = isa;

    for (;;) {
        const char *end = token;
        while (*end != '\0' && *end != ISA_EXTENSION_SEPARATOR)
            end++;
        if ((size_t)(end - token) == ext_len) {
            size_t i = 0;
            while (i < ext_len && ascii_lower(token[i]) == ext[i])
                i++;
            if (i == ext_len)
                return true;
        }
        if (*end == '\0')
            return false;
        token = end + 1;
    }
}

static bool node_enabled(const struct fdt_blob *b, const struct fdt_node *n)
{
    if (!value_present(n->prop[PROP_STATUS]))
        return true;
    const char *status = value_string(b, n->prop[PROP_STATUS]);
    /* "ok" is the pre-standard spelling some firmware still writes */
    return status && (strcmp(status, "okay") == 0 || strcmp(status, "ok") == 0);
}

static bool device_type_is(const struct fdt_blob *b, const struct fdt_node *n, const char *type)
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

static int cells_property(const struct fdt_blob *b, struct fdt_value v, uint32_t fallback,
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
static int reg_format_of(const struct fdt_blob *b, const struct fdt_node *parent,
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
static int reg_entries(struct fdt_value reg, const struct reg_format *fmt, uint32_t *count)
{
    uint32_t entry_bytes = (fmt->address_cells + fmt->size_cells) * FDT_CELL_BYTES;
    if (reg.len == 0 || reg.len % entry_bytes != 0)
        return FDT_ERR_STRUCTURE;
    *count = reg.len / entry_bytes;
    return 0;
}

static struct mem_range reg_entry(const struct fdt_blob *b, struct fdt_value reg,
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
static int add_range(struct mem_range *ranges, int *n, int max, struct mem_range r,
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
static int add_reg_ranges(const struct fdt_blob *b, const struct fdt_node *parent,
                          const struct fdt_node *n, struct mem_range *ranges, int *count,
                          int max, bool overflow_is_error)
{
    struct reg_format fmt;
    uint32_t entries;
    int rc = reg_format_of(b, parent, &fmt);
    if (rc == 0)
        rc = reg_entries(n->prop[PROP_REG], &fmt, &entries);
    for (uint32_t i = 0; rc == 0 && i < entries; i++)
        rc = add_range(ranges, count, max, reg_entry(b, n->prop[PROP_REG], &fmt, i),
                       overflow_is_error);
    return rc;
}

/* ------------------------------------------------------------------ */
/* interpreting closed nodes                                           */

static int finish_memory(struct fdt_scan *s, const struct fdt_node *parent, const struct fdt_node *n)
{
    if (!value_present(n->prop[PROP_REG]))
        return 0;
    return add_reg_ranges(s->blob, parent, n, s->out->memory, &s->out->nmemory,
                          MAX_MEMORY_RANGES, false);
}

static int finish_reserved_region(struct fdt_scan *s, const struct fdt_node *parent,
                                  const struct fdt_node *n)
{
    /* regions with only "size" are allocated by the OS: nothing fixed yet */
    if (!value_present(n->prop[PROP_REG]))
        return 0;
    return add_reg_ranges(s->blob, parent, n, s->out->reserved, &s->out->nreserved,
                          MAX_RESERVED_RANGES, true);
}

static int finish_cpu(struct fdt_scan *s, const struct fdt_node *parent, const struct fdt_node *n)
{
    const struct fdt_blob *b = s->blob;
    struct board_info *out = s->out;
    struct reg_format fmt;
    uint32_t entries;

    if (!node_enabled(b, n))
        return 0;
    int rc = reg_format_of(b, parent, &fmt);
    if (rc == 0)
        rc = reg_entries(n->prop[PROP_REG], &fmt, &entries);
    if (rc != 0)
        return rc;
    uint64_t hart = reg_entry(b, n->prop[PROP_REG], &fmt, 0).base;
    if (hart > UINT32_MAX)
        return FDT_ERR_STRUCTURE;

    if (out->nharts == 0) {
        /* the boot hart's siblings are the same design on QEMU virt; the
         * first enabled cpu speaks for all of them */
        const char *isa = value_string(b, n->prop[PROP_ISA]);
        out->has_sstc = isa && isa_has_extension(isa, isa_extension_sstc);
        if (value_present(n->prop[PROP_TIMEBASE])) {
            rc = value_number(b, n->prop[PROP_TIMEBASE], &s->first_cpu_timebase);
            if (rc != 0)
                return rc;
        }
    }
    if (out->nharts < MAX_HARTS)
        out->hart_ids[out->nharts++] = (uint32_t)hart;
    else
        out->harts_ignored++;
    return 0;
}

static int finish_cpus(struct fdt_scan *s, const struct fdt_node *n)
{
    if (!value_present(n->prop[PROP_TIMEBASE]))
        return 0;
    return value_number(s->blob, n->prop[PROP_TIMEBASE], &s->out->timebase_hz);
}

static int finish_chosen(struct fdt_scan *s, const struct fdt_node *n)
{
    const struct fdt_blob *b = s->blob;
    int rc = 0;

    if (value_present(n->prop[PROP_BOOTARGS])) {
        const char *args = value_string(b, n->prop[PROP_BOOTARGS]);
        if (!args)
            return FDT_ERR_STRUCTURE;
        /* a silently shortened command line would drop parameters */
        if (kstrlcpy(s->out->bootargs, args, sizeof s->out->bootargs) >= sizeof s->out->bootargs)
            return FDT_ERR_LIMIT;
    }
    if (value_present(n->prop[PROP_INITRD_START])) {
        rc = value_number(b, n->prop[PROP_INITRD_START], &s->out->initrd_start);
        s->have_initrd_start = true;
    }
    if (rc == 0 && value_present(n->prop[PROP_INITRD_END])) {
        rc = value_number(b, n->prop[PROP_INITRD_END], &s->out->initrd_end);
        s->have_initrd_end = true;
    }
    return rc;
}

static int describe_device(const struct fdt_blob *b, const struct fdt_node *parent,
                           const struct fdt_node *n, struct mmio_dev *dev)
{
    struct reg_format fmt;
    uint32_t entries;
    int rc = reg_format_of(b, parent, &fmt);
    if (rc == 0)
        rc = reg_entries(n->prop[PROP_REG], &fmt, &entries);
    if (rc != 0)
        return rc;
    /* Addresses are taken as CPU physical addresses: on QEMU virt every bus
     * on the way has an empty ("ranges;") identity translation. */
    struct mem_range r = reg_entry(b, n->prop[PROP_REG], &fmt, 0);
    struct fdt_value irq = n->prop[PROP_INTERRUPTS];
    dev->base = r.base;
    dev->size = r.size;
    dev->irq = (value_present(irq) && irq.len >= FDT_CELL_BYTES) ? be32(value_ptr(b, irq)) : 0;
    dev->present = true;
    return 0;
}

static int finish_device(struct fdt_scan *s, const struct fdt_node *parent, const struct fdt_node *n)
{
    const struct fdt_blob *b = s->blob;
    struct board_info *out = s->out;

    if (!value_present(n->prop[PROP_COMPATIBLE]) || !value_present(n->prop[PROP_REG]) ||
        !node_enabled(b, n))
        return 0;

    if (!out->uart.present && compatible_with(b, n, uart_compatible, ARRAY_SIZE(uart_compatible)))
        return describe_device(b, parent, n, &out->uart);
    if (!out->test.present && compatible_with(b, n, test_compatible, ARRAY_SIZE(test_compatible)))
        return describe_device(b, parent, n, &out->test);
    if (!out->plic.present && compatible_with(b, n, plic_compatible, ARRAY_SIZE(plic_compatible))) {
        int rc = describe_device(b, parent, n, &out->plic);
        s->plic_contexts = n->prop[PROP_INTERRUPTS_EXT];
        if (rc == 0 && value_present(n->prop[PROP_NDEV])) {
            uint64_t ndev;
            rc = value_number(b, n->prop[PROP_NDEV], &ndev);
            if (rc == 0 && ndev > UINT32_MAX)
                rc = FDT_ERR_STRUCTURE;
            out->plic_ndev = (uint32_t)ndev;
        }
        return rc;
    }
    if (out->nvirtio < (int)ARRAY_SIZE(out->virtio) &&
        compatible_with(b, n, virtio_compatible, ARRAY_SIZE(virtio_compatible)))
        return describe_device(b, parent, n, &out->virtio[out->nvirtio++]);
    return 0;
}

/* A cpu's "riscv,cpu-intc" child: remember which hart its phandle names. */
static int finish_cpu_intc(struct fdt_scan *s, const struct fdt_node *cpu, const struct fdt_node *n)
{
    const struct fdt_blob *b = s->blob;
    if (!value_present(n->prop[PROP_PHANDLE]) || !value_present(cpu->prop[PROP_REG]) ||
        s->depth < 2 || s->nintc == MAX_CPU_INTCS)
        return 0;
    struct reg_format fmt;
    uint32_t entries;
    uint64_t phandle;
    int rc = reg_format_of(b, &s->stack[s->depth - 2], &fmt);
    if (rc == 0)
        rc = reg_entries(cpu->prop[PROP_REG], &fmt, &entries);
    if (rc == 0)
        rc = value_number(b, n->prop[PROP_PHANDLE], &phandle);
    if (rc != 0)
        return rc;
    uint64_t hart = reg_entry(b, cpu->prop[PROP_REG], &fmt, 0).base;
    s->intc[s->nintc].phandle = (uint32_t)phandle;
    s->intc[s->nintc].hartid = (uint32_t)hart;
    s->nintc++;
    return 0;
}

/* interrupts-extended of the PLIC lists (phandle, irq) per context, in
 * context order; a context whose irq is the S-mode external interrupt of
 * a cpu's controller is that hart's S-mode context. */
static int resolve_plic_contexts(struct fdt_scan *s)
{
    struct board_info *out = s->out;
    for (int i = 0; i < MAX_HARTS; i++)
        out->plic_s_context[i] = FDT_NO_CONTEXT;
    struct fdt_value v = s->plic_contexts;
    if (!value_present(v))
        return 0;
    if (v.len % (2 * FDT_CELL_BYTES))
        return FDT_ERR_STRUCTURE;
    const uint8_t *p = value_ptr(s->blob, v);
    for (uint32_t ctx = 0; ctx < v.len / (2 * FDT_CELL_BYTES); ctx++) {
        uint32_t phandle = be32(p + ctx * 2 * FDT_CELL_BYTES);
        uint32_t irq = be32(p + ctx * 2 * FDT_CELL_BYTES + FDT_CELL_BYTES);
        if (irq != RISCV_IRQ_S_EXTERNAL)
            continue;
        for (int k = 0; k < s->nintc; k++) {
            if (s->intc[k].phandle != phandle)
                continue;
            for (int h = 0; h < out->nharts; h++)
                if (out->hart_ids[h] == s->intc[k].hartid)
                    out->plic_s_context[h] = ctx;
        }
    }
    return 0;
}

static int finish_node(struct fdt_scan *s)
{
    const struct fdt_node *n = &s->stack[s->depth];
    const struct fdt_node *parent = s->depth > 0 ? &s->stack[s->depth - 1] : NULL;
    int rc = 0;

    if (!parent)
        return 0;   /* the root itself carries nothing faultline reads */

    switch (n->kind) {
    case NODE_CHOSEN:
        rc = finish_chosen(s, n);
        break;
    case NODE_CPUS:
        rc = finish_cpus(s, n);
        break;
    case NODE_RESERVED_REGION:
        rc = finish_reserved_region(s, parent, n);
        break;
    case NODE_CPU_CHILD: {
        const char *name = (const char *)s->blob->base + n->name_off;
        if (node_name_is(name, "cpu") || device_type_is(s->blob, n, "cpu"))
            rc = finish_cpu(s, parent, n);
        break;
    }
    default:
        if (parent->kind == NODE_CPU_CHILD &&
            compatible_with(s->blob, n, cpu_intc_compatible, ARRAY_SIZE(cpu_intc_compatible))) {
            rc = finish_cpu_intc(s, parent, n);
            break;
        }
        if (parent->kind == NODE_ROOT &&
            (n->kind == NODE_MEMORY_NAMED || device_type_is(s->blob, n, "memory")))
            rc = finish_memory(s, parent, n);
        break;
    }
    if (rc == 0)
        rc = finish_device(s, parent, n);
    return rc;
}

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
            rc = finish_node(s);
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

static int check_initrd(struct fdt_scan *s)
{
    struct board_info *out = s->out;
    if (s->have_initrd_start != s->have_initrd_end || out->initrd_end < out->initrd_start)
        return FDT_ERR_STRUCTURE;
    return 0;
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
        rc = check_initrd(&s);
    if (rc == 0)
        rc = resolve_plic_contexts(&s);
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
