/* uptime: time since boot, and how many processes and free frames there are. */
#include "ulib.h"

#define MS_PER_SECOND 1000

int main(void)
{
    struct fl_sysinfo si;
    long ms = uptime();
    if (ms < 0 || sysinfo(&si) < 0) {
        fprintf(STDERR_FILENO, "uptime: cannot read the system state\n");
        return 1;
    }
    printf("up %ld.%03lds, %u processes, %lu of %lu frames free, %u harts\n",
           ms / MS_PER_SECOND, ms % MS_PER_SECOND, si.nprocs,
           (unsigned long)si.frames_free, (unsigned long)si.frames_total, si.nharts);
    return 0;
}
