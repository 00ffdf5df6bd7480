/*
 * Boot parameters from the kernel command line ("key=value key=value").
 * Pure code with a table of known keys; host unit tested.
 *
 * An unknown key, or a value outside a key's documented choices, is an
 * error: the parser writes a message naming the valid choices and the
 * kernel stops the boot with it.
 */
#ifndef FAULTLINE_PARAM_H
#define FAULTLINE_PARAM_H

#include "types.h"

enum mm_kind  { MM_SWAP, MM_PAGING };
enum pc_kind  { PC_INLINE, PC_DAEMON };
enum refbits_kind { REFBITS_HW, REFBITS_SW };
/* Deliberate kernel failures, so tests can check the panic path; blk runs
 * the block-device selftest once the scheduler runs; lockorder takes two
 * locks against their ranks (a debug build panics, naming both). */
enum selftest_kind { SELFTEST_NONE, SELFTEST_PANIC, SELFTEST_KFAULT, SELFTEST_BLK,
                     SELFTEST_LOCKORDER };
enum meters_kind { METERS_ON, METERS_OFF };
enum lightsys_kind { LIGHTSYS_ON, LIGHTSYS_OFF };
enum pcmeters_kind { PCMETERS_OFF, PCMETERS_ON };

struct boot_params {
    enum mm_kind  mm;          /* mm=swap|paging, default paging */
    enum pc_kind  pc;          /* pc=inline|daemon (daemon: mm=paging only), default inline */
    uint32_t      freemin;     /* freemin=N frames: pc=daemon's low mark; 0 = default */
    uint32_t      freemax;     /* freemax=N frames: its high mark; 0 = default */
    enum pcmeters_kind pcmeters; /* pcmeters=on|off, default off: page control's CPU meters
                                    (pcmeter.h), which cost every context switch a little */
    enum refbits_kind refbits; /* refbits=hw|sw, default hw */
    uint64_t      mem_limit;   /* mem=SIZE in bytes (K, M, G suffixes); 0 = no cap */
    char          init[64];    /* init=PATH, default "/init" */
    bool          quiet;       /* quiet: no banner details */
    enum selftest_kind selftest; /* selftest=none|panic|kfault|blk|lockorder, default none */
    enum meters_kind meters;   /* meters=on|off, default on: in-kernel latency meters */
    enum lightsys_kind lightsys; /* lightsys=on|off, default on: getpid & co. answered in the vector */
    uint32_t      disklat_us;  /* disklat=TIME (us or ms): the disk's modelled service
                                  time per request, 0 = off (kernel/dev/blk_latency.c) */
    uint64_t      pd_size;     /* pd=SIZE in bytes: a paging device between memory and the
                                  disk (mm=paging pc=daemon only); 0 = none */
    uint32_t      pdlat_us;    /* pdlat=TIME: the paging device's service time (pd= only) */
};

/* Parses cmdline into *out (which it first fills with defaults).
 * Returns 0, or -1 with a human-readable message in err (NUL-terminated,
 * truncated to errlen) that names the offending key or value and lists the
 * valid choices. */
int params_parse(const char *cmdline, struct boot_params *out, char *err, size_t errlen);

/* Writes "mm=paging pc=inline ..." describing *p, for the banner. */
void params_describe(const struct boot_params *p, char *buf, size_t len);

/* Parses "64M", "512K", "1G", "4096" into bytes. Returns 0 on success. */
int params_parse_size(const char *s, size_t len, uint64_t *out);

/* A boot that cannot go on because of how it was started (a parameter,
 * or a machine too small for what it was given): one line that says
 * why, then QEMU exits with EXIT_CODE_BADPARAM (kernel/main.c). */
_Noreturn __attribute__((format(printf, 1, 2))) void boot_refused(const char *fmt, ...);

/* The parameters this boot runs with (kernel/main.c). */
extern struct boot_params params;

#endif
