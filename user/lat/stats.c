/*
 * lat's statistics: a benchmark's samples sorted into its result line,
 * and parts taken from the kernel's meters (the output format is in
 * main.c's comment and docs/protocol.md).
 */
#include "lat.h"

void sort(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static unsigned bucket_of(uint64_t v)
{
    unsigned b = 0;
    while (v >>= 1)
        b++;
    return b;
}

void print_hist(const uint64_t *counts)
{
    printf("\"hist\":[");
    bool first = true;
    for (int b = 0; b < HIST_BUCKETS; b++) {
        if (!counts[b])
            continue;
        uint64_t lo = b ? 1UL << b : 0, hi = (1UL << (b + 1)) - 1;
        printf("%s[%lu,%lu,%lu]", first ? "" : ",", lo, hi, counts[b]);
        first = false;
    }
    printf("]");
}

/* Prints the line for `name`, leaving it open for parts when asked. */
void report_unit(const char *name, const char *unit, int warmup, uint64_t *v, int n, bool more)
{
    sort(v, n);
    uint64_t sum = 0, hist[HIST_BUCKETS] = { 0 };
    for (int i = 0; i < n; i++) {
        sum += v[i];
        hist[bucket_of(v[i])]++;
    }
    uint64_t mean_x100 = sum * PERCENT / (uint64_t)n;
    printf("FL-JSON {\"bench\":\"%s\",\"unit\":\"%s\",\"n\":%d,\"warmup\":%d,"
           "\"overhead\":%lu,\"min\":%lu,\"median\":%lu,\"mean\":%lu.%02lu,\"p90\":%lu,"
           "\"max\":%lu,",
           name, unit, n, warmup, overhead, v[0], v[n / 2],
           mean_x100 / PERCENT, mean_x100 % PERCENT, v[(n * PERCENT_90) / PERCENT], v[n - 1]);
    print_hist(hist);
    printf(more ? "," : "}\n");
}

void report_meter_part_of(const struct fl_meter *m, long n, const char *part,
                          enum fl_meter_event e, bool last)
{
    if (n <= (long)e || m[e].count == 0) {
        printf("\"%s\":null%s", part, last ? "" : ",");
        return;
    }
    uint64_t mean_x100 = m[e].sum * PERCENT / m[e].count;
    printf("\"%s\":{\"unit\":\"%s\",\"n\":%lu,\"min\":%lu,\"mean\":%lu.%02lu,\"max\":%lu}%s",
           part, cycle_unit, m[e].count, m[e].min, mean_x100 / PERCENT, mean_x100 % PERCENT, m[e].max,
           last ? "" : ",");
}
