/*
 * The executable: an ELF64 file for RISC-V with one PT_LOAD program
 * header per non-empty part (text R-X, rodata R, data and bss RW), and no
 * section headers, which a loader does not need.
 *
 * The parts follow each other in the file with no page padding, and each
 * starts on a fresh page in memory at the same offset within the page as
 * in the file (p_offset = p_vaddr mod 4096, as the ELF specification asks
 * of loadable segments); so no two segments share a page, which
 * faultline's loader requires, and the file stays small.
 */
#include "asm.h"

#define EHDR_SIZE      64
#define PHDR_SIZE      56
#define SECTION_ALIGN  16
#define EM_RISCV       243
#define ET_EXEC        2
#define PT_LOAD        1
#define PF_X 1
#define PF_W 2
#define PF_R 4

static long align_up(long v, long a) { return (v + a - 1) / a * a; }

static int segments(const struct image *img)
{
    return 1 + (img->size[SEC_RODATA] > 0) + (img->size[SEC_DATA] + img->size[SEC_BSS] > 0);
}

void elf_layout(struct image *img)
{
    long off = align_up(EHDR_SIZE + PHDR_SIZE * segments(img), SECTION_ALIGN);
    img->file_off[SEC_TEXT] = off;
    img->addr[SEC_TEXT] = ASM_BASE + off;
    long end = img->addr[SEC_TEXT] + img->size[SEC_TEXT];
    off += img->size[SEC_TEXT];
    for (int s = SEC_RODATA; s <= SEC_DATA; s++) {
        off = align_up(off, SECTION_ALIGN);
        img->file_off[s] = off;
        img->addr[s] = align_up(end, ASM_PAGE) + off % ASM_PAGE;
        if (s == SEC_RODATA && img->size[s] == 0)
            img->addr[s] = end;       /* no segment: take no page */
        end = img->addr[s] + img->size[s];
        off += img->size[s];
    }
    img->addr[SEC_BSS] = align_up(end, SECTION_ALIGN);
    img->file_off[SEC_BSS] = off;
}

static void put(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void phdr(uint8_t *p, uint32_t flags, long off, long addr, long filesz, long memsz)
{
    put(p + 0, PT_LOAD, 4);
    put(p + 4, flags, 4);
    put(p + 8, (uint64_t)off, 8);
    put(p + 16, (uint64_t)addr, 8);    /* p_vaddr */
    put(p + 24, (uint64_t)addr, 8);    /* p_paddr */
    put(p + 32, (uint64_t)filesz, 8);
    put(p + 40, (uint64_t)memsz, 8);
    put(p + 48, ASM_PAGE, 8);
}

uint8_t *elf_write(const struct image *img, size_t *len)
{
    long size = img->file_off[SEC_DATA] + img->size[SEC_DATA];
    uint8_t *f = cc_alloc((size_t)size);
    static const uint8_t ident[16] = { 0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* little endian */,
                                       1 /* version */ };
    memcpy(f, ident, sizeof ident);
    int nseg = segments(img);
    put(f + 16, ET_EXEC, 2);
    put(f + 18, EM_RISCV, 2);
    put(f + 20, 1, 4);                     /* e_version */
    put(f + 24, (uint64_t)img->entry, 8);
    put(f + 32, EHDR_SIZE, 8);             /* e_phoff */
    put(f + 40, 0, 8);                     /* e_shoff: no section headers */
    put(f + 48, 0, 4);                     /* e_flags: lp64, no compressed code */
    put(f + 52, EHDR_SIZE, 2);
    put(f + 54, PHDR_SIZE, 2);
    put(f + 56, (uint64_t)nseg, 2);

    uint8_t *ph = f + EHDR_SIZE;
    phdr(ph, PF_R | PF_X, img->file_off[SEC_TEXT], img->addr[SEC_TEXT],
         img->size[SEC_TEXT], img->size[SEC_TEXT]);
    ph += PHDR_SIZE;
    if (img->size[SEC_RODATA]) {
        phdr(ph, PF_R, img->file_off[SEC_RODATA], img->addr[SEC_RODATA],
             img->size[SEC_RODATA], img->size[SEC_RODATA]);
        ph += PHDR_SIZE;
    }
    long data_mem = img->addr[SEC_BSS] + img->size[SEC_BSS] - img->addr[SEC_DATA];
    if (img->size[SEC_DATA] + img->size[SEC_BSS])
        phdr(ph, PF_R | PF_W, img->file_off[SEC_DATA], img->addr[SEC_DATA],
             img->size[SEC_DATA], data_mem);

    for (int s = SEC_TEXT; s <= SEC_DATA; s++)
        if (img->size[s])
            memcpy(f + img->file_off[s], img->bytes[s], (size_t)img->size[s]);
    *len = (size_t)size;
    return f;
}
