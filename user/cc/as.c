/*
 * as, the last pass of cc: assembles RISC-V assembly files, in order, into
 * one static ELF executable (see asm.h for the two passes). The program
 * starts at the label _start.
 *
 *   as [-v] [-o out] file.s...
 */
#include "asm.h"

void asm_error(const struct stmt *s, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cc_file = s->file;
    error_at(s->line, "%s", msg);
}

static long align_up(long v, long a) { return (v + a - 1) / a * a; }

/* The symbol a statement refers to, checked to be defined. */
static struct symbol *target_of(const struct stmt *s)
{
    struct symbol *sym = NULL;
    if (s->kind == ST_INSN)
        sym = insn_target(s);
    else if (s->kind == ST_DATA && s->ops[0].kind == OPND_SYM)
        sym = s->ops[0].sym;
    if (sym && !sym->defined)
        asm_error(s, "undefined symbol '%s'", sym->name);
    return sym;
}

/*
 * Pass 1: offsets. The first round takes every branch as short; later
 * rounds lengthen those that cannot reach, until a round changes nothing.
 * Offsets only grow, so this ends, and a forward target read from the
 * round before is never farther than it will be.
 */
static void place(struct stmt *list, long size[NSECTIONS])
{
    for (int round = 0;; round++) {
        bool changed = false;
        memset(size, 0, sizeof(long) * NSECTIONS);
        for (struct stmt *s = list; s; s = s->next) {
            long *off = &size[s->section];
            switch (s->kind) {
            case ST_LABEL:
                s->ops[0].sym->offset = *off;
                break;
            case ST_ALIGN:
                s->size = align_up(*off, s->width) - *off;
                break;
            case ST_INSN: {
                struct symbol *t = round ? target_of(s) : NULL;
                bool near = t && t->section == SEC_TEXT;
                long n = insn_size(s, *off, near ? t->offset : 0, near);
                if (n != s->size)
                    changed = true;
                s->size = n;
                break;
            }
            default:
                break;
            }
            s->offset = *off;
            *off += s->size;
        }
        if (round && !changed)
            return;
    }
}

static long address_of(const struct image *img, const struct symbol *sym)
{
    return img->addr[sym->section] + sym->offset;
}

/* Pass 2: every statement into its section's bytes. */
static void encode(const struct stmt *list, struct image *img)
{
    for (int s = SEC_TEXT; s <= SEC_DATA; s++)
        img->bytes[s] = cc_alloc((size_t)img->size[s] + 1);
    for (const struct stmt *s = list; s; s = s->next) {
        if (s->section == SEC_BSS)
            continue;
        uint8_t *at = img->bytes[s->section] + s->offset;
        long pc = img->addr[s->section] + s->offset;
        struct symbol *t = target_of(s);
        switch (s->kind) {
        case ST_INSN:
            if (t && t->section != SEC_TEXT && insn_jumps(s))
                asm_error(s, "'%s' is not in .text: it cannot be a jump target", t->name);
            insn_encode(s, pc, t ? address_of(img, t) : 0, at);
            break;
        case ST_DATA: {
            uint64_t v = t ? (uint64_t)address_of(img, t) : (uint64_t)s->ops[0].imm;
            for (int i = 0; i < s->width; i++)
                at[i] = (uint8_t)(v >> (8 * i));
            break;
        }
        case ST_BYTES:
            memcpy(at, s->bytes, (size_t)s->size);
            break;
        default:                /* labels take no room; zeros and padding are zero */
            break;
        }
    }
}

int main(int argc, char *argv[])
{
    cc_pass = "as";
    const char *out = "a.out";
    bool verbose = false;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-v") == 0)
            verbose = true;
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else
            fatal("usage: as [-v] [-o out] file.s...");
    }
    if (i == argc)
        fatal("usage: as [-v] [-o out] file.s...");

    struct stmt *list = NULL, **tail = &list;
    for (; i < argc; i++) {
        size_t len;
        char *text = read_whole_file(argv[i], &len);
        cc_file = argv[i];
        if (strlen(text) != len)
            error_at(0, "the file holds a NUL byte: not assembly text");
        tail = asm_parse(argv[i], text, tail);
    }

    struct image img = { 0 };
    place(list, img.size);
    elf_layout(&img);
    struct symbol *start = sym_lookup("_start", false);
    if (!start || !start->defined || start->section != SEC_TEXT)
        fatal("no _start label in .text: where should the program begin?");
    img.entry = address_of(&img, start);
    encode(list, &img);

    size_t len;
    uint8_t *file = elf_write(&img, &len);
    write_whole_file(out, file, len);
    if (verbose)
        report_sizes(out);
    return 0;
}
