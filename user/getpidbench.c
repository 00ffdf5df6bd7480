/*
 * getpidbench: the cost of a null system call, getpid, as seen from user
 * mode, in retired instructions and in cycles.
 *
 * Each call is timed on its own between two counter readings, so the
 * distribution (not only the mean) is visible. The cost of the readings
 * themselves is measured with empty pairs and subtracted. Prints one line
 * per counter:
 *   FL-JSON {"bench":"getpid","unit":"instructions","n":1000,"min":..,
 *            "median":..,"mean":..,"max":..,"overhead":..}
 */
#include "ulib.h"

#define WARMUP      100    /* untimed first calls: fill caches, TLB, branch state */
#define SAMPLES     1000
#define CENTI       100    /* the mean is printed with two decimals */

enum counter { COUNTER_INSTRET, COUNTER_CYCLE };

static const char *const unit_names[] = {
    [COUNTER_INSTRET] = "instructions",
    [COUNTER_CYCLE]   = "cycles",
};

static uint64_t samples[SAMPLES];

static inline uint64_t read_counter(enum counter c)
{
    return c == COUNTER_INSTRET ? rdinstret() : rdcycle();
}

/* getpid made inline (syscall_inline0), not through the stub. */
static inline __attribute__((always_inline)) void getpid_inline(void)
{
    (void)syscall_inline0(SYS_getpid);
}

/* The counter is a parameter known at each (inlined) call site, so the
 * branch in read_counter folds away and the pair is two instructions. */
static inline __attribute__((always_inline)) uint64_t time_one_call(enum counter c, bool empty)
{
    uint64_t before = read_counter(c);
    if (!empty)
        getpid_inline();
    uint64_t after = read_counter(c);
    return after - before;
}

static void sort(uint64_t *v, int n)
{
    /* Insertion sort: n is small and this runs once. */
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* The reading overhead is a fixed cost, so the smallest empty pair is the
 * best estimate of it: anything more was an interrupt or a cache miss,
 * which belongs to neither the overhead nor the call. */
static uint64_t measure_overhead(enum counter c)
{
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < WARMUP + SAMPLES; i++) {
        uint64_t d = c == COUNTER_INSTRET ? time_one_call(COUNTER_INSTRET, true)
                                          : time_one_call(COUNTER_CYCLE, true);
        if (i >= WARMUP && d < least)
            least = d;
    }
    return least;
}

static void measure_calls(enum counter c)
{
    for (int i = 0; i < WARMUP; i++)
        getpid_inline();
    for (int i = 0; i < SAMPLES; i++)
        samples[i] = c == COUNTER_INSTRET ? time_one_call(COUNTER_INSTRET, false)
                                          : time_one_call(COUNTER_CYCLE, false);
}

static void report(enum counter c)
{
    uint64_t overhead = measure_overhead(c);
    measure_calls(c);

    uint64_t sum = 0;
    for (int i = 0; i < SAMPLES; i++) {
        samples[i] = samples[i] > overhead ? samples[i] - overhead : 0;
        sum += samples[i];
    }
    sort(samples, SAMPLES);
    /* SAMPLES is even: the median is the mean of the two middle values,
     * rounded down so it stays an integer count. */
    uint64_t median = (samples[SAMPLES / 2 - 1] + samples[SAMPLES / 2]) / 2;
    uint64_t mean_centi = sum * CENTI / SAMPLES;

    printf("FL-JSON {\"bench\":\"getpid\",\"unit\":\"%s\",\"n\":%d,\"min\":%lu,\"median\":%lu,"
           "\"mean\":%lu.%02lu,\"max\":%lu,\"overhead\":%lu}\n",
           unit_names[c], SAMPLES, (unsigned long)samples[0], (unsigned long)median,
           (unsigned long)(mean_centi / CENTI), (unsigned long)(mean_centi % CENTI),
           (unsigned long)samples[SAMPLES - 1], (unsigned long)overhead);
}

int main(void)
{
    report(COUNTER_INSTRET);
    report(COUNTER_CYCLE);
    return 0;
}
