/*
 * bigimage: a program whose image is larger than a small machine's memory
 * (its bss alone is BIG_BYTES). racetests execs it under mm=swap, where a
 * process runs only wholly in memory, so exec must refuse it with ENOMEM.
 * Where it does run, it touches one page of the array and exits with
 * BIGIMAGE_RAN, which tells the caller the exec went through.
 */
#include "ulib.h"

#define BIG_BYTES    (32L * 1024 * 1024)
#define BIGIMAGE_RAN 77

/* volatile: the array must stay in the image, untouched by the optimizer */
static volatile char big[BIG_BYTES];

int main(void)
{
    big[BIG_BYTES / 2] = 1;
    return BIGIMAGE_RAN - 1 + big[BIG_BYTES / 2];
}
