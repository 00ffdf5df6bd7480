/* spin [-d DUTY] [MS]: burns CPU in user mode for MS milliseconds, or
 * forever. With -d, busy only DUTY percent of each SPIN_PERIOD_MS period
 * and asleep the rest: a background load of a chosen duty cycle (the
 * page-control idle-time experiment, tools/multics.py). A load for
 * background-job, scheduling and ps tests. */
#include "ulib.h"

#define MS_PER_SEC     1000
#define SPIN_PERIOD_MS 20
#define PERCENT        100
#define MS_MAX         (1L << 40)    /* any run anyone waits for */

static void usage(void)
{
    die("usage: spin [-d duty-percent 1..100] [milliseconds]");
}

static long number(const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || end == s || v < lo || v > hi)
        usage();
    return v;
}

int main(int argc, char *argv[])
{
    long duty = PERCENT, ms = -1;
    int i = 1;
    if (i < argc && strcmp(argv[i], "-d") == 0) {
        if (i + 1 >= argc)
            usage();
        duty = number(argv[i + 1], 1, PERCENT);
        i += 2;
    }
    if (i < argc)
        ms = number(argv[i++], 0, MS_MAX);
    if (i < argc)
        usage();

    /* The clock is read with rdtime rather than uptime(), so the loop
     * stays in user mode instead of mostly making system calls. */
    struct fl_sysinfo info;
    int err = sysinfo(&info);
    if (err < 0)
        die("spin: sysinfo: %s", strerror(err));
    uint64_t per_ms = info.timebase_hz / MS_PER_SEC;
    uint64_t deadline = ms < 0 ? UINT64_MAX : rdtime() + (uint64_t)ms * per_ms;
    if (duty == PERCENT) {
        while (rdtime() < deadline)
            ;
        return 0;
    }
    uint64_t busy = (uint64_t)SPIN_PERIOD_MS * (uint64_t)duty * per_ms / PERCENT;
    while (rdtime() < deadline) {
        uint64_t until = rdtime() + busy;
        while (rdtime() < until)
            ;
        sleep((unsigned long)(SPIN_PERIOD_MS - SPIN_PERIOD_MS * duty / PERCENT));
    }
    return 0;
}
