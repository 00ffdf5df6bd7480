/* SBI calls: ecall into M-mode firmware with the extension id in a7 and
 * the function id in a6 (SBI specification v1.0, binary encoding). */
#include "arch_api.h"
#include <arch/sbi.h>

struct sbiret sbi_call(uint64_t ext, uint64_t fid, uint64_t a0, uint64_t a1, uint64_t a2)
{
    register uint64_t r_a0 __asm__("a0") = a0;
    register uint64_t r_a1 __asm__("a1") = a1;
    register uint64_t r_a2 __asm__("a2") = a2;
    register uint64_t r_a6 __asm__("a6") = fid;
    register uint64_t r_a7 __asm__("a7") = ext;
    __asm__ volatile("ecall"
                     : "+r"(r_a0), "+r"(r_a1)
                     : "r"(r_a2), "r"(r_a6), "r"(r_a7)
                     : "memory");
    return (struct sbiret){ .error = (long)r_a0, .value = (long)r_a1 };
}

/* Used only before the UART is known (a damaged device tree). */
void sbi_console_putchar(int c)
{
    sbi_call(SBI_EXT_LEGACY_PUTCHAR, 0, (uint64_t)c, 0, 0);
}

/* The early console (arch_api.h): the firmware's. */
void arch_early_putchar(int c)
{
    sbi_console_putchar(c);
}
