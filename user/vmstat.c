/*
 * vmstat: the memory manager's counters (struct fl_vmstat).
 *
 *   vmstat        one "name value" line per counter
 *   vmstat -j     one FL-JSON line with every field (docs/protocol.md):
 *                 FL-JSON {"vmstat":"counters","uptime_ms":..,"mm":"..","page_size":..,...}
 *   vmstat N      N samples 1 s apart, one table row each: free frames and
 *                 swap slots in use as they are, the event counters as the
 *                 change since the row before (the first row: since boot)
 *   vmstat -j N   N FL-JSON lines 1 s apart (totals, not changes)
 *
 * Exits 1 with a message if the kernel cannot give the counters (-ENOSYS
 * before the memory managers have the call), 2 on bad arguments.
 */
#include "ulib.h"

#define MAX_SAMPLES   3600          /* an hour of samples */
#define SAMPLE_MS     1000
#define USAGE_EXIT    2
#define HEADER_EVERY  20            /* rows between repeated table headers */
#define JSON_LINE_MAX 2560          /* about 30 bytes per field, 54 fields */
#define ROW_MAX       256           /* 19 columns of 8 */
#define COLUMN_WIDTH  8

struct counter {
    const char *name;               /* field name, in text and JSON alike */
    const char *column;             /* table heading; NULL: not in the table */
    size_t      offset;             /* of the uint64_t in struct fl_vmstat */
    bool        level;              /* a level (print as is), not an event count */
};

#define COUNTER(field, column, level) { #field, column, offsetof(struct fl_vmstat, field), level }

/* In the order of struct fl_vmstat, so the text output reads like the ABI. */
static const struct counter counters[] = {
    COUNTER(page_size,     NULL,      true),
    COUNTER(frames_total,  NULL,      true),
    COUNTER(frames_free,   "free",    true),
    COUNTER(swap_total,    NULL,      true),
    COUNTER(swap_used,     "swused",  true),
    COUNTER(faults,        "faults",  false),
    COUNTER(zero_fills,    "zero",    false),
    COUNTER(image_fills,   "image",   false),
    COUNTER(minor_faults,  "minor",   false),
    COUNTER(pageins,       "pgin",    false),
    COUNTER(pageouts,      "pgout",   false),
    COUNTER(reclaims,      "reclaim", false),
    COUNTER(clock_scans,   "scans",   false),
    COUNTER(swapins,       "swpin",   false),
    COUNTER(swapouts,      "swpout",  false),
    COUNTER(swapin_pages,  NULL,      false),
    COUNTER(swapout_pages, NULL,      false),
    COUNTER(io_errors,     "ioerr",   false),
    COUNTER(oom_kills,     "oom",     false),
    COUNTER(low_water,     NULL,      false),
    COUNTER(high_water,    NULL,      false),
    COUNTER(frames_user,   NULL,      true),
    COUNTER(resident_total, NULL,     true),
    COUNTER(swap_owned,    NULL,      true),
    COUNTER(zero_maps,     NULL,      false),
    COUNTER(ulf_frames,    NULL,      true),
    COUNTER(core_waits,    "cwait",   false),
    COUNTER(cm_passes,     "cmpass",  false),
    COUNTER(cm_freed,      "cmfree",  false),
    COUNTER(cm_handoffs,   NULL,      false),
    COUNTER(pd_batches,    NULL,      false),
    COUNTER(pd_writes,     "pdwrite", false),
    COUNTER(prezeroed,     "prezero", false),
    COUNTER(zeroed_fills,  NULL,      false),
    COUNTER(frames_zeroed, NULL,      true),
    COUNTER(pd_records,         NULL, true),
    COUNTER(pd_free,            NULL, true),
    COUNTER(pd_stores,          NULL, false),
    COUNTER(pd_reads,           NULL, false),
    COUNTER(rws_moves,          NULL, false),
    COUNTER(pd_reclaimed,       NULL, false),
    COUNTER(pd_full,            NULL, false),
    COUNTER(slots_reaped,       NULL, false),
    COUNTER(pcm_fault_cycles,   NULL, false),
    COUNTER(pcm_faults,         NULL, false),
    COUNTER(pcm_coremgr_cycles, NULL, false),
    COUNTER(pcm_coremgr_runs,   NULL, false),
    COUNTER(pcm_pdmgr_cycles,   NULL, false),
    COUNTER(pcm_pdmgr_runs,     NULL, false),
    COUNTER(pcm_diskirq_cycles, NULL, false),
    COUNTER(pcm_diskirqs,       NULL, false),
    COUNTER(pcm_rws_cycles,     NULL, false),
    COUNTER(pcm_rws_runs,       NULL, false),
    COUNTER(sw_other,           NULL, false),
    COUNTER(sw_other_cycles,    NULL, false),
    COUNTER(sw_core_wait,       NULL, false),
    COUNTER(sw_core_wait_cycles, NULL, false),
    COUNTER(sw_disk,            NULL, false),
    COUNTER(sw_disk_cycles,     NULL, false),
    COUNTER(sw_coremgr,         NULL, false),
    COUNTER(sw_coremgr_cycles,  NULL, false),
    COUNTER(sw_pdmgr,           NULL, false),
    COUNTER(sw_pdmgr_cycles,    NULL, false),
    COUNTER(sw_preempt,         NULL, false),
    COUNTER(sw_preempt_cycles,  NULL, false),
    COUNTER(pcm_fault_delay_cycles, NULL, false),
    COUNTER(idle_cycles,        NULL, false),
    COUNTER(clock_cycles,       NULL, true),
};

static uint64_t value_of(const struct fl_vmstat *st, const struct counter *c)
{
    uint64_t v;
    memcpy(&v, (const char *)st + c->offset, sizeof v);
    return v;
}

/* st->mm need not be NUL-terminated if the name fills it. */
static int mm_name_len(const struct fl_vmstat *st)
{
    return (int)strnlen(st->mm, sizeof st->mm);
}

/* Reads the counters; on failure prints why and returns false. */
static bool read_counters(struct fl_vmstat *st)
{
    int err = vmstat(st);
    if (err == 0)
        return true;
    if (err == -ENOSYS)
        fprintf(STDERR_FILENO, "vmstat: this kernel has no vmstat system call (ENOSYS)\n");
    else
        print_err("vmstat: vmstat", err);
    return false;
}

static void print_text(const struct fl_vmstat *st)
{
    printf("%-14s %.*s\n", "mm", mm_name_len(st), st->mm);
    for (size_t i = 0; i < ARRAY_SIZE(counters); i++)
        printf("%-14s %lu\n", counters[i].name, value_of(st, &counters[i]));
}

/* Built in a buffer and written at once, so the line stays whole. */
static void print_json(const struct fl_vmstat *st)
{
    char line[JSON_LINE_MAX];
    size_t len = 0;
    len += (size_t)snprintf(line, sizeof line, "FL-JSON {\"vmstat\":\"counters\","
                            "\"uptime_ms\":%ld,\"mm\":\"%.*s\"", uptime(), mm_name_len(st),
                            st->mm);
    for (size_t i = 0; i < ARRAY_SIZE(counters) && len < sizeof line; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, ",\"%s\":%lu",
                                counters[i].name, value_of(st, &counters[i]));
    if (len < sizeof line)
        len += (size_t)snprintf(line + len, sizeof line - len, "}\n");
    /* One write(): printf would cut a line this long into pieces, and the
     * shell's "[pid]" of a background vmstat could land between them. */
    write(1, line, len < sizeof line ? len : sizeof line - 1);
}

static void print_header(void)
{
    char line[ROW_MAX];
    size_t len = 0;
    line[0] = '\0';
    for (size_t i = 0; i < ARRAY_SIZE(counters); i++)
        if (counters[i].column && len < sizeof line)
            len += (size_t)snprintf(line + len, sizeof line - len, "%*s", COLUMN_WIDTH,
                                    counters[i].column);
    puts(line);
}

/* One table row: levels as they are, counters as the change since prev. */
static void print_row(const struct fl_vmstat *st, const struct fl_vmstat *prev)
{
    char line[ROW_MAX];
    size_t len = 0;
    line[0] = '\0';
    for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
        const struct counter *c = &counters[i];
        if (!c->column || len >= sizeof line)
            continue;
        uint64_t v = value_of(st, c);
        if (!c->level)
            v -= value_of(prev, c);
        len += (size_t)snprintf(line + len, sizeof line - len, "%*lu", COLUMN_WIDTH, v);
    }
    puts(line);
}

static int run(bool json, long samples, bool table)
{
    struct fl_vmstat st, prev;
    memset(&prev, 0, sizeof prev);       /* the first row is since boot */
    for (long i = 0; i < samples; i++) {
        if (i > 0)
            sleep(SAMPLE_MS);
        if (!read_counters(&st))
            return 1;
        if (json)
            print_json(&st);
        else if (!table)
            print_text(&st);
        else {
            if (i % HEADER_EVERY == 0)
                print_header();
            print_row(&st, &prev);
        }
        prev = st;
    }
    return 0;
}

static _Noreturn void usage(void)
{
    fprintf(STDERR_FILENO, "usage: vmstat [-j] [N]   (N samples 1 s apart, 1..%d)\n",
            MAX_SAMPLES);
    exit(USAGE_EXIT);
}

int main(int argc, char *argv[])
{
    bool json = false;
    long samples = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-j") == 0 && !json) {
            json = true;
            continue;
        }
        char *end;
        if (samples != 0 || !isdigit(argv[i][0]))
            usage();
        samples = strtol(argv[i], &end, 10);
        if (*end != '\0' || samples < 1 || samples > MAX_SAMPLES)
            usage();
    }
    return run(json, samples ? samples : 1, samples != 0);
}
