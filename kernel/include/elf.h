/*
 * ELF64 executable parser (RISC-V, little endian, ET_EXEC). Pure code:
 * it validates an image held in memory (all of it, or its headers and
 * its size: elf_parse_head) and lists its loadable segments;
 * loading them into an address space is exec's job.
 */
#ifndef FAULTLINE_ELF_H
#define FAULTLINE_ELF_H

#include "types.h"

#define ELF_MAX_SEGMENTS 8

#define ELF_SEG_R 4   /* same values as p_flags PF_R, PF_W, PF_X */
#define ELF_SEG_W 2
#define ELF_SEG_X 1

struct elf_segment {
    uint64_t vaddr;      /* page-aligned or not; exec aligns */
    uint64_t memsz;      /* >= filesz; the rest is zero-filled */
    uint64_t offset;     /* in the file */
    uint64_t filesz;
    uint32_t flags;      /* ELF_SEG_* */
};

struct elf_image {
    uint64_t entry;
    int      nsegments;
    struct elf_segment seg[ELF_MAX_SEGMENTS];
};

/* Errors: each is a distinct negative number so tests can tell them apart */
#define ELF_ERR_SHORT     (-1)  /* file smaller than its headers claim */
#define ELF_ERR_MAGIC     (-2)  /* not an ELF file */
#define ELF_ERR_CLASS     (-3)  /* not 64-bit little-endian */
#define ELF_ERR_MACHINE   (-4)  /* not RISC-V */
#define ELF_ERR_TYPE      (-5)  /* not an executable */
#define ELF_ERR_SEGMENT   (-6)  /* segment out of the file, memsz<filesz, overflow, or too many */
#define ELF_ERR_ADDRESS   (-7)  /* segment or entry outside [user_lo, user_hi) */
#define ELF_ERR_ENTRY     (-8)  /* entry point not inside an executable segment */
#define ELF_ERR_OVERLAP   (-9)  /* two segments share a page */
#define ELF_ERR_HEADERS   (-10) /* program headers beyond the bytes given (elf_parse_head) */

int elf_parse(const void *file, uint64_t size, uint64_t user_lo, uint64_t user_hi,
              struct elf_image *out);
/* The same for a file of `size` bytes of which only the first head_len
 * are at hand (exec of a ram file has its first page): the ELF header and
 * program headers must lie in them; segments are checked against size. */
int elf_parse_head(const void *head, uint64_t head_len, uint64_t size,
                   uint64_t user_lo, uint64_t user_hi, struct elf_image *out);
const char *elf_strerror(int err);

#endif
