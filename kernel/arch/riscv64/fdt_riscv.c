/*
 * The riscv64 half of the device-tree interpretation (the arch_fdt_*
 * hooks of kernel/fdt/fdt_internal.h), into struct arch_board
 * (<arch/board.h>): the PLIC and its S-mode contexts, the ACLINT SSWI and
 * its per-hart registers, the cpus' interrupt controllers those are wired
 * to, and the ISA string. Pure code like the rest of the reader: the host
 * unit tests compile it with kernel/fdt/.
 */
#include "../../fdt/fdt_internal.h"

static const char *const plic_compatible[] = { "riscv,plic0", "sifive,plic-1.0.0" };
static const char *const sswi_compatible[] = { "riscv,aclint-sswi" };
static const char *const cpu_intc_compatible[] = { "riscv,cpu-intc" };

static const char isa_extension_sstc[] = "sstc";
static const char isa_extension_zbb[] = "zbb";
#define ISA_EXTENSION_SEPARATOR '_'

/* Local interrupt numbers (RISC-V privileged spec): the PLIC context wired
 * to a hart's supervisor external interrupt is its S-mode one; the SSWI
 * register wired to its supervisor software interrupt is its IPI doorbell. */
#define RISCV_IRQ_S_SOFTWARE 1u
#define RISCV_IRQ_S_EXTERNAL 9u

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

/* A cpu's "riscv,cpu-intc" child: remember which hart its phandle names. */
static int finish_cpu_intc(struct fdt_scan *s, const struct fdt_node *cpu, const struct fdt_node *n)
{
    const struct fdt_blob *b = s->blob;
    if (!value_present(n->prop[PROP_PHANDLE]) || !value_present(cpu->prop[PROP_REG]) ||
        s->depth < 2 || s->arch.nintc == MAX_CPU_INTCS)
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
    s->arch.intc[s->arch.nintc].phandle = (uint32_t)phandle;
    s->arch.intc[s->arch.nintc].hartid = (uint32_t)hart;
    s->arch.nintc++;
    return 0;
}

int arch_fdt_cpu(struct fdt_scan *s, const struct fdt_node *n, bool first)
{
    if (first) {
        const char *isa = value_string(s->blob, n->prop[PROP_ISA]);
        s->out->arch.has_sstc = isa && isa_has_extension(isa, isa_extension_sstc);
        s->out->arch.has_zbb = isa && isa_has_extension(isa, isa_extension_zbb);
    }
    return 0;
}

static int finish_plic(struct fdt_scan *s, const struct fdt_node *parent, const struct fdt_node *n)
{
    struct arch_board *out = &s->out->arch;
    int rc = fdt_describe_device(s->blob, parent, n, &out->plic);
    s->arch.plic_contexts = n->prop[PROP_INTERRUPTS_EXT];
    if (rc == 0 && value_present(n->prop[PROP_NDEV])) {
        uint64_t ndev = 0;
        rc = value_number(s->blob, n->prop[PROP_NDEV], &ndev);
        if (rc == 0 && ndev > UINT32_MAX)
            rc = FDT_ERR_STRUCTURE;
        out->plic_ndev = (uint32_t)ndev;
    }
    return rc;
}

int arch_fdt_node(struct fdt_scan *s, const struct fdt_node *parent, const struct fdt_node *n)
{
    const struct fdt_blob *b = s->blob;
    struct arch_board *out = &s->out->arch;
    int rc;

    if (parent->kind == NODE_CPU_CHILD &&
        compatible_with(b, n, cpu_intc_compatible, ARRAY_SIZE(cpu_intc_compatible)))
        return finish_cpu_intc(s, parent, n);
    if (!value_present(n->prop[PROP_COMPATIBLE]) || !value_present(n->prop[PROP_REG]) ||
        !node_enabled(b, n))
        return 0;
    if (!out->sswi.present && compatible_with(b, n, sswi_compatible, ARRAY_SIZE(sswi_compatible))) {
        s->arch.sswi_regs = n->prop[PROP_INTERRUPTS_EXT];
        rc = fdt_describe_device(b, parent, n, &out->sswi);
        return rc < 0 ? rc : 1;
    }
    if (!out->plic.present && compatible_with(b, n, plic_compatible, ARRAY_SIZE(plic_compatible))) {
        rc = finish_plic(s, parent, n);
        return rc < 0 ? rc : 1;
    }
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
        for (int k = 0; k < s->arch.nintc; k++) {
            if (s->arch.intc[k].phandle != phandle)
                continue;
            for (int h = 0; h < out->nharts; h++)
                if (out->hart_ids[h] == s->arch.intc[k].hartid)
                    per_hart[h] = o;
        }
    }
    return 0;
}

/* The PLIC context wired to a hart's S-mode external interrupt is its
 * S-mode context. */
static int resolve_plic_contexts(struct fdt_scan *s)
{
    return resolve_outputs(s, s->arch.plic_contexts, RISCV_IRQ_S_EXTERNAL, s->out->arch.plic_s_context,
                           FDT_NO_CONTEXT);
}

/* The SSWI register wired to a hart's S-mode software interrupt raises it.
 * A register beyond the device's reg range would be a write into whatever
 * lies after it, so such a tree is refused. */
static int resolve_sswi_regs(struct fdt_scan *s)
{
    struct board_info *out = s->out;
    int rc = resolve_outputs(s, s->arch.sswi_regs, RISCV_IRQ_S_SOFTWARE, out->arch.sswi_reg,
                             FDT_NO_SSWI_REG);
    for (int h = 0; rc == 0 && h < out->nharts; h++)
        if (out->arch.sswi_reg[h] != FDT_NO_SSWI_REG &&
            ((uint64_t)out->arch.sswi_reg[h] + 1) * SSWI_REG_BYTES > out->arch.sswi.size)
            rc = FDT_ERR_STRUCTURE;
    return rc;
}

int arch_fdt_finish(struct fdt_scan *s)
{
    int rc = resolve_plic_contexts(s);
    if (rc == 0)
        rc = resolve_sswi_regs(s);
    return rc;
}
