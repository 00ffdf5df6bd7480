/*
 * Interpreting device-tree nodes as they close: memory, reserved memory,
 * cpus, /chosen, and the devices faultline drives, into struct
 * board_info. The walk itself is in fdt.c; what only one architecture
 * has (on riscv64: the PLIC, the ACLINT SSWI, the cpus' interrupt
 * controllers and ISA string) is the port's (arch_fdt_*, fdt_internal.h).
 */
#include "fdt_internal.h"

/* Device classes recognised by compatible string. */
static const char *const uart_compatible[] = { "ns16550a" };
static const char *const test_compatible[] = { "sifive,test0" };
static const char *const virtio_compatible[] = { "virtio,mmio" };

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
        rc = arch_fdt_cpu(s, n, true);
        if (rc != 0)
            return rc;
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
        /* a silently shortened command line would drop parameters: keep
         * none, and let the boot refuse it with a message (which a failed
         * scan could not give: without the tree there is no exit device) */
        if (kstrlcpy(s->out->bootargs, args, sizeof s->out->bootargs) >= sizeof s->out->bootargs) {
            s->out->bootargs[0] = '\0';
            s->out->bootargs_too_long = true;
        }
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

int fdt_describe_device(const struct fdt_blob *b, const struct fdt_node *parent,
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
        return fdt_describe_device(b, parent, n, &out->uart);
    if (!out->test.present && compatible_with(b, n, test_compatible, ARRAY_SIZE(test_compatible)))
        return fdt_describe_device(b, parent, n, &out->test);
    if (out->nvirtio < (int)ARRAY_SIZE(out->virtio) &&
        compatible_with(b, n, virtio_compatible, ARRAY_SIZE(virtio_compatible)))
        return fdt_describe_device(b, parent, n, &out->virtio[out->nvirtio++]);
    return 0;
}

int fdt_finish_node(struct fdt_scan *s)
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
        if (parent->kind == NODE_ROOT &&
            (n->kind == NODE_MEMORY_NAMED || device_type_is(s->blob, n, "memory")))
            rc = finish_memory(s, parent, n);
        break;
    }
    if (rc == 0)
        rc = arch_fdt_node(s, parent, n);
    if (rc == 0)
        rc = finish_device(s, parent, n);
    return rc < 0 ? rc : 0;
}

static int check_initrd(struct fdt_scan *s)
{
    struct board_info *out = s->out;
    if (s->have_initrd_start != s->have_initrd_end || out->initrd_end < out->initrd_start)
        return FDT_ERR_STRUCTURE;
    return 0;
}

int fdt_finish_scan(struct fdt_scan *s)
{
    int rc = check_initrd(s);
    if (rc == 0)
        rc = arch_fdt_finish(s);
    return rc;
}
