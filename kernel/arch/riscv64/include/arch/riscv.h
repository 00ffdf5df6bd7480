/* RISC-V privileged-architecture constants and CSR access (S-mode). */
#ifndef ARCH_RISCV_H
#define ARCH_RISCV_H

/* sstatus */
#define SSTATUS_SIE   (1UL << 1)
#define SSTATUS_SPIE  (1UL << 5)
#define SSTATUS_SPP   (1UL << 8)
#define SSTATUS_FS    (3UL << 13)
#define SSTATUS_SUM   (1UL << 18)
#define SSTATUS_MXR   (1UL << 19)

/* sie / sip bits */
#define IRQ_S_SOFT    1
#define IRQ_S_TIMER   5
#define IRQ_S_EXT     9
#define SIE_SSIE      (1UL << IRQ_S_SOFT)
#define SIE_STIE      (1UL << IRQ_S_TIMER)
#define SIE_SEIE      (1UL << IRQ_S_EXT)

/* scause */
#define SCAUSE_INTERRUPT        (1UL << 63)
#define EXC_INST_MISALIGNED     0
#define EXC_INST_ACCESS         1
#define EXC_ILLEGAL_INST        2
#define EXC_BREAKPOINT          3
#define EXC_LOAD_MISALIGNED     4
#define EXC_LOAD_ACCESS         5
#define EXC_STORE_MISALIGNED    6
#define EXC_STORE_ACCESS        7
#define EXC_ECALL_U             8
#define EXC_ECALL_S             9
#define EXC_INST_PAGE_FAULT     12
#define EXC_LOAD_PAGE_FAULT     13
#define EXC_STORE_PAGE_FAULT    15

/* satp */
#define SATP_MODE_SV39  (8UL << 60)
#define SATP_PPN_MASK   ((1UL << 44) - 1)

/* scounteren: let user mode read cycle, time, instret */
#define SCOUNTEREN_CY   (1U << 0)
#define SCOUNTEREN_TM   (1U << 1)
#define SCOUNTEREN_IR   (1U << 2)

#ifndef __ASSEMBLY__
#include <stdint.h>

#define csr_read(csr) ({ uint64_t v__; __asm__ volatile("csrr %0, " #csr : "=r"(v__)); v__; })
#define csr_write(csr, val) __asm__ volatile("csrw " #csr ", %0" :: "rK"((uint64_t)(val)))
#define csr_set(csr, bits) __asm__ volatile("csrs " #csr ", %0" :: "rK"((uint64_t)(bits)))
#define csr_clear(csr, bits) __asm__ volatile("csrc " #csr ", %0" :: "rK"((uint64_t)(bits)))

static inline void sfence_vma_all(void) { __asm__ volatile("sfence.vma zero, zero" ::: "memory"); }
static inline void sfence_vma_page(uint64_t va) { __asm__ volatile("sfence.vma %0, zero" :: "r"(va) : "memory"); }
#endif

#endif
