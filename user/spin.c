/* spin [MS]: burns CPU in user mode for MS milliseconds, or forever.
 * A load for background-job, scheduling and ps tests. */
#include "ulib.h"

#define MS_PER_SEC 1000

int main(int argc, char *argv[])
{
    if (argc < 2)
        for (;;)
            ;

    char *end;
    long ms = strtol(argv[1], &end, 10);
    if (*end || end == argv[1] || ms < 0)
        die("usage: spin [milliseconds]");

    /* The clock is read with rdtime rather than uptime(), so the loop
     * stays in user mode instead of mostly making system calls. */
    struct fl_sysinfo info;
    int err = sysinfo(&info);
    if (err < 0)
        die("spin: sysinfo: %s", strerror(err));
    uint64_t deadline = rdtime() + (uint64_t)ms * info.timebase_hz / MS_PER_SEC;
    while (rdtime() < deadline)
        ;
    return 0;
}
