/* faultnull: dereferences NULL, so the kernel's kill message can be seen. */
#include "ulib.h"

int main(void)
{
    printf("faultnull: reading address 0\n");
    /* Through a volatile variable: a literal NULL dereference is undefined
     * behaviour that GCC may replace with a trap instruction, which would
     * test the wrong exception. */
    int *volatile null_pointer = NULL;
    int value = *null_pointer;
    printf("faultnull: still alive, read %d\n", value);
    return 1;
}
