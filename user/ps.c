/* ps: one line per process, from the kernel's procinfo table. */
#include "ulib.h"

#define US_PER_SEC    1000000UL
#define US_PER_CSEC   10000UL
#define BYTES_PER_KB  1024UL

static const char *state_name(int32_t state)
{
    switch (state) {
    case FL_PS_RUNNABLE: return "runnable";
    case FL_PS_RUNNING:  return "running";
    case FL_PS_SLEEPING: return "sleeping";
    case FL_PS_ZOMBIE:   return "zombie";
    default:             return "?";
    }
}

int main(void)
{
    struct fl_procinfo *procs = NULL;
    int n = procinfo_snapshot(&procs);
    if (n < 0) {
        print_err("ps", n);
        return 1;
    }

    printf("%5s %5s %-8s %3s %4s %8s %8s %s\n",
           "PID", "PPID", "STATE", "THR", "HART", "MEM", "TIME", "NAME");
    for (int i = 0; i < n; i++) {
        const struct fl_procinfo *p = &procs[i];
        char hart[12];
        if (p->hart < 0)
            strlcpy(hart, "-", sizeof hart);
        else
            snprintf(hart, sizeof hart, "%d", (int)p->hart);
        char name[sizeof p->name + 1];       /* the kernel's copy may fill all of it */
        memcpy(name, p->name, sizeof p->name);
        name[sizeof p->name] = '\0';
        uint64_t cpu_us = p->utime_us + p->stime_us;
        printf("%5d %5d %-8s %3d %4s %7luK %4lu.%02lu %s\n",
               (int)p->pid, (int)p->ppid, state_name(p->state), (int)p->nthreads, hart,
               (unsigned long)(p->mem_bytes / BYTES_PER_KB),
               (unsigned long)(cpu_us / US_PER_SEC),
               (unsigned long)(cpu_us % US_PER_SEC / US_PER_CSEC), name);
    }
    free(procs);
    return 0;
}
