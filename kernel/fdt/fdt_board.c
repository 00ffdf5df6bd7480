/*
 * Interpreting device-tree nodes as they close: memory, reserved memory,
 * cpus and their interrupt controllers, /chosen, and the devices faultline
 * drives, into struct board_info. The walk itself is in fdt.c.
 */
#include "fdt_internal.h"

/* Device classes recognised by compatible string. */
static const char *const uart_compatible[] = { "ns16550a" };
static const char *const plic_compatible[] = { "riscv,plic0", "sifive,plic-1.0.0" };
static const char *const test_compatible[] = { "sifive,test0" };
static const char *const sswi_compatible[] = { "riscv,aclint-sswi" };
static const char *const virtio_compatible[] = { "virtio,mmio" };
static const char *const cpu_intc_compatible[] = { "riscv,cpu-intc" };

static const char isa_extension_sstc[] = "sstc";

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
    if (!out->sswi.present && compatible_with(b, n, sswi_compatible, ARRAY_SIZE(sswi_compatible))) {
        s->sswi_regs = n->prop[PROP_INTERRUPTS_EXT];
        return describe_device(b, parent, n, &out->sswi);
    }
    if (!out->plic.present && compatible_with(b, n, plic_compatible, ARRAY_SIZE(plic_compatible))) {
        int rc = describe_device(b, parent, n, &out->plic);
        s->plic_contexts = n->prop[PROP_INTERRUPTS_EXT];
        if (rc == 0 && value_present(n->prop[PROP_NDEV])) {
            uint64_t ndev = 0;
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

/*
 * An interrupts-extended property lists (phandle, irq) pairs, one per
 * output of its device in output order: PLIC contexts, SSWI registers. The
 * output whose pair names a cpu controller's local interrupt `irq` belongs
 * to that controller's hart: per_hart[i] (for hart_ids[i]) becomes its index,
 * or stays `none` if no output names that hart.
 */
static int resolve_outputs(struct fdt_scan *s, struct fdt_value v, uint32_t irq,
                           uint32_t *per_hart, uint32_t none)
{
    struct board_info *out = s->out;
    for (int i = 0; i < MAX_HARTS; i++)
        per_hart[i] = none;
    if (!value_present(v))
        return 0;
    if (v.len % (2 * FDT_CELL_BYTES))
        return FDT_ERR_STRUCTURE;
    const uint8_t *p = value_ptr(s->blob, v);
    for (uint32_t o = 0; o < v.len / (2 * FDT_CELL_BYTES); o++) {
        uint32_t phandle = be32(p + o * 2 * FDT_CELL_BYTES);
        if (be32(p + o * 2 * FDT_CELL_BYTES + FDT_CELL_BYTES) != irq)
            continue;
        for (int k = 0; k < s->nintc; k++) {
            if (s->intc[k].phandle != phandle)
                continue;
            for (int h = 0; h < out->nharts; h++)
                if (out->hart_ids[h] == s->intc[k].hartid)
                    per_hart[h] = o;
        }
    }
    return 0;
}

/* The PLIC context wired to a hart's S-mode external interrupt is its
 * S-mode context. */
static int resolve_plic_contexts(struct fdt_scan *s)
{
    return resolve_outputs(s, s->plic_contexts, RISCV_IRQ_S_EXTERNAL, s->out->plic_s_context,
                           FDT_NO_CONTEXT);
}

/* The SSWI register wired to a hart's S-mode software interrupt raises it.
 * A register beyond the device's reg range would be a write into whatever
 * lies after it, so such a tree is refused. */
static int resolve_sswi_regs(struct fdt_scan *s)
{
    struct board_info *out = s->out;
    int rc = resolve_outputs(s, s->sswi_regs, RISCV_IRQ_S_SOFTWARE, out->sswi_reg,
                             FDT_NO_SSWI_REG);
    for (int h = 0; rc == 0 && h < out->nharts; h++)
        if (out->sswi_reg[h] != FDT_NO_SSWI_REG &&
            ((uint64_t)out->sswi_reg[h] + 1) * SSWI_REG_BYTES > out->sswi.size)
            rc = FDT_ERR_STRUCTURE;
    return rc;
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
        rc = resolve_plic_contexts(s);
    if (rc == 0)
        rc = resolve_sswi_regs(s);
    return rc;
}
