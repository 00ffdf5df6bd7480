/* Calls into the SBI firmware (OpenSBI). */
#ifndef ARCH_SBI_H
#define ARCH_SBI_H

#ifndef __ASSEMBLY__
#include "types.h"
#endif

#define SBI_EXT_LEGACY_PUTCHAR  0x01
#define SBI_EXT_TIME            0x54494D45   /* "TIME" */
#define SBI_EXT_IPI             0x735049     /* "sPI" */
#define SBI_EXT_HSM             0x48534D     /* "HSM" */
#define SBI_EXT_SRST            0x53525354   /* "SRST" */

#define SBI_HSM_HART_START      0
#define SBI_HSM_HART_STOP       1
#define SBI_HSM_HART_STATUS     2
#define SBI_HSM_STATE_STARTED   0
#define SBI_HSM_STATE_STOPPED   1
#define SBI_SRST_SHUTDOWN       0
#define SBI_SRST_REASON_NONE    0
#define SBI_SRST_REASON_FAILURE 1

#ifndef __ASSEMBLY__
struct sbiret { long error; long value; };

struct sbiret sbi_call(uint64_t ext, uint64_t fid, uint64_t a0, uint64_t a1, uint64_t a2);
void sbi_console_putchar(int c);
#endif

#endif
