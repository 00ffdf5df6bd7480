/* illegal: executes an illegal instruction, so the kernel's kill message
 * can be seen. */
#include "ulib.h"

int main(void)
{
    printf("illegal: executing an all-zero instruction\n");
    /* The all-zero encoding is defined to be illegal in RISC-V, in both
     * the 16- and 32-bit formats. */
    __asm__ volatile(".word 0");
    printf("illegal: still alive\n");
    return 1;
}
