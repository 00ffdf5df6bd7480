/*
 * ELF64 executable parser.
 *
 * The image comes from the initrd (only 4-byte aligned) or from a user, so
 * fields are read byte by byte in little-endian order and every offset, size
 * and address sum is checked for wrap-around before it is compared.
 */
#include "elf.h"
#include "config.h"
#include "kstring.h"

/* --- ELF identification (System V ABI, ELF-64 object file format) --- */
#define EI_MAG0          0
#define EI_CLASS         4
#define EI_DATA          5
#define ELF_MAGIC_LEN    4
#define ELFCLASS64       2
#define ELFDATA2LSB      1
#define ET_EXEC          2
#define EM_RISCV         243

/* --- ELF64 file header field offsets --- */
#define EH_TYPE          16
#define EH_MACHINE       18
#define EH_ENTRY         24
#define EH_PHOFF         32
#define EH_PHENTSIZE     54
#define EH_PHNUM         56
#define EH_SIZE          64

/* --- ELF64 program header field offsets --- */
#define PH_TYPE          0
#define PH_FLAGS         4
#define PH_OFFSET        8
#define PH_VADDR         16
#define PH_FILESZ        32
#define PH_MEMSZ         40
#define PH_SIZE          56

#define PT_LOAD          1
#define PT_DYNAMIC       2
#define PT_INTERP        3
#define PF_MASK          (ELF_SEG_R | ELF_SEG_W | ELF_SEG_X)

/* Program headers we are willing to scan. Toolchains emit a handful
 * (LOAD, RISCV_ATTRIBUTES, GNU_STACK, TLS...); thousands mean a hostile or
 * damaged file, and bounding the count bounds the parse time. */
#define ELF_MAX_PHDRS    64

static const uint8_t elf_magic[ELF_MAGIC_LEN] = { 0x7f, 'E', 'L', 'F' };

static uint64_t le_read(const uint8_t *p, int nbytes)
{
    uint64_t v = 0;
    for (int i = nbytes - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint16_t le16(const uint8_t *p) { return (uint16_t)le_read(p, 2); }
static uint32_t le32(const uint8_t *p) { return (uint32_t)le_read(p, 4); }
static uint64_t le64(const uint8_t *p) { return le_read(p, 8); }

static int check_ident(const uint8_t *f, uint64_t size)
{
    if (size >= ELF_MAGIC_LEN && memcmp(f + EI_MAG0, elf_magic, ELF_MAGIC_LEN) != 0)
        return ELF_ERR_MAGIC;
    if (size < EH_SIZE)
        return size < ELF_MAGIC_LEN ? ELF_ERR_MAGIC : ELF_ERR_SHORT;
    if (f[EI_CLASS] != ELFCLASS64 || f[EI_DATA] != ELFDATA2LSB)
        return ELF_ERR_CLASS;
    if (le16(f + EH_MACHINE) != EM_RISCV)
        return ELF_ERR_MACHINE;
    if (le16(f + EH_TYPE) != ET_EXEC)
        return ELF_ERR_TYPE;
    return 0;
}

/* The program header table: sane entry size, bounded count, inside the file. */
static int check_phdr_table(const uint8_t *f, uint64_t size, uint64_t *phoff, uint16_t *phnum)
{
    uint16_t entsize = le16(f + EH_PHENTSIZE);
    *phnum = le16(f + EH_PHNUM);
    *phoff = le64(f + EH_PHOFF);

    if (entsize != PH_SIZE || *phnum == 0 || *phnum > ELF_MAX_PHDRS)
        return ELF_ERR_SEGMENT;
    uint64_t table_bytes = (uint64_t)*phnum * PH_SIZE;   /* <= 64 * 56: no wrap */
    if (*phoff > size || table_bytes > size - *phoff)
        return ELF_ERR_SHORT;
    return 0;
}

/* Smallest and largest page touched by [vaddr, vaddr+memsz); memsz > 0 and
 * the sum is known not to wrap. */
static uint64_t first_page(const struct elf_segment *s)
{
    return s->vaddr >> PAGE_SHIFT;
}

static uint64_t last_page(const struct elf_segment *s)
{
    return (s->vaddr + s->memsz - 1) >> PAGE_SHIFT;
}

static int check_segment(const struct elf_segment *s, uint64_t size,
                         uint64_t user_lo, uint64_t user_hi)
{
    if (s->offset > size || s->filesz > size - s->offset)
        return ELF_ERR_SEGMENT;
    if (s->memsz < s->filesz)
        return ELF_ERR_SEGMENT;
    if (s->vaddr + s->memsz < s->vaddr)
        return ELF_ERR_SEGMENT;
    /* exec maps whole pages, so the pages, not just the bytes, must be user */
    if (s->vaddr < user_lo || s->vaddr + s->memsz > user_hi ||
        (first_page(s) << PAGE_SHIFT) < user_lo ||
        last_page(s) >= (user_hi >> PAGE_SHIFT))
        return ELF_ERR_ADDRESS;
    return 0;
}

static struct elf_segment read_segment(const uint8_t *ph)
{
    struct elf_segment s;
    s.vaddr = le64(ph + PH_VADDR);
    s.memsz = le64(ph + PH_MEMSZ);
    s.offset = le64(ph + PH_OFFSET);
    s.filesz = le64(ph + PH_FILESZ);
    s.flags = le32(ph + PH_FLAGS) & PF_MASK;
    return s;
}

static int collect_segments(const uint8_t *f, uint64_t size, uint64_t phoff, uint16_t phnum,
                            uint64_t user_lo, uint64_t user_hi, struct elf_image *out)
{
    for (uint16_t i = 0; i < phnum; i++) {
        const uint8_t *ph = f + phoff + (uint64_t)i * PH_SIZE;
        uint32_t type = le32(ph + PH_TYPE);

        /* faultline has no dynamic linker */
        if (type == PT_INTERP || type == PT_DYNAMIC)
            return ELF_ERR_TYPE;
        if (type != PT_LOAD)
            continue;
        struct elf_segment s = read_segment(ph);
        if (s.memsz == 0)
            continue;   /* loads nothing; nothing to check or map */
        int rc = check_segment(&s, size, user_lo, user_hi);
        if (rc != 0)
            return rc;
        if (out->nsegments >= ELF_MAX_SEGMENTS)
            return ELF_ERR_SEGMENT;
        out->seg[out->nsegments++] = s;
    }
    return out->nsegments > 0 ? 0 : ELF_ERR_SEGMENT;
}

/* Segments get their own pages: a shared page would need the union of two
 * segments' permissions and would be written by both loads. */
static int check_overlap(const struct elf_image *img)
{
    for (int i = 0; i < img->nsegments; i++)
        for (int j = i + 1; j < img->nsegments; j++)
            if (first_page(&img->seg[i]) <= last_page(&img->seg[j]) &&
                first_page(&img->seg[j]) <= last_page(&img->seg[i]))
                return ELF_ERR_OVERLAP;
    return 0;
}

static int check_entry(const struct elf_image *img, uint64_t user_lo, uint64_t user_hi)
{
    if (img->entry < user_lo || img->entry >= user_hi)
        return ELF_ERR_ADDRESS;
    for (int i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->seg[i];
        if ((s->flags & ELF_SEG_X) && img->entry >= s->vaddr && img->entry - s->vaddr < s->memsz)
            return 0;
    }
    return ELF_ERR_ENTRY;
}

int elf_parse_head(const void *head, uint64_t head_len, uint64_t size,
                   uint64_t user_lo, uint64_t user_hi, struct elf_image *out)
{
    const uint8_t *f = head;
    uint64_t phoff;
    uint16_t phnum;

    memset(out, 0, sizeof *out);
    if (user_lo >= user_hi)
        return ELF_ERR_ADDRESS;
    if (head_len > size)
        return ELF_ERR_SHORT;
    int rc = check_ident(f, head_len);
    if (rc == 0)
        rc = check_phdr_table(f, size, &phoff, &phnum);
    /* In the file, but beyond the bytes the caller has at hand. */
    if (rc == 0 && phoff + (uint64_t)phnum * PH_SIZE > head_len)
        rc = ELF_ERR_HEADERS;
    if (rc == 0)
        rc = collect_segments(f, size, phoff, phnum, user_lo, user_hi, out);
    if (rc == 0)
        rc = check_overlap(out);
    if (rc == 0) {
        out->entry = le64(f + EH_ENTRY);
        rc = check_entry(out, user_lo, user_hi);
    }
    if (rc != 0)
        memset(out, 0, sizeof *out);
    return rc;
}

int elf_parse(const void *file, uint64_t size, uint64_t user_lo, uint64_t user_hi,
              struct elf_image *out)
{
    return elf_parse_head(file, size, size, user_lo, user_hi, out);
}

const char *elf_strerror(int err)
{
    switch (err) {
    case 0:               return "no error";
    case ELF_ERR_SHORT:   return "file smaller than its headers claim";
    case ELF_ERR_MAGIC:   return "not an ELF file";
    case ELF_ERR_CLASS:   return "not a 64-bit little-endian ELF file";
    case ELF_ERR_MACHINE: return "not a RISC-V executable";
    case ELF_ERR_TYPE:    return "not a static executable";
    case ELF_ERR_SEGMENT: return "bad program header or segment";
    case ELF_ERR_ADDRESS: return "segment or entry outside user memory";
    case ELF_ERR_ENTRY:   return "entry point not in an executable segment";
    case ELF_ERR_OVERLAP: return "two segments share a page";
    case ELF_ERR_HEADERS: return "program headers beyond the first page";
    default:              return "unknown ELF error";
    }
}
