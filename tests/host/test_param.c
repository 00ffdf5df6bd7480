/* Host unit test of the boot parameter parser (kernel/core/param.c). */
#include "check.h"
#include "config.h"
#include "param.h"

#define ERR_LEN 256

/* The kernel defines this global in main.c; the host test is its own program. */
struct boot_params params;
static char err[ERR_LEN];

static int parse(const char *cmdline)
{
    memset(err, 'x', sizeof err - 1);   /* prove the parser terminates err */
    err[sizeof err - 1] = '\0';
    return params_parse(cmdline, &params, err, sizeof err);
}

static void check_defaults(const struct boot_params *p)
{
    CHECK_EQ(p->mm, MM_PAGING);
    CHECK_EQ(p->pc, PC_INLINE);
    CHECK_EQ(p->refbits, REFBITS_HW);
    CHECK_EQ(p->mem_limit, 0);
    CHECK_STR(p->init, "/init");
    CHECK(!p->quiet);
}

static void test_defaults(void)
{
    CHECK_EQ(parse(""), 0);
    check_defaults(&params);
    CHECK_STR(err, "");
    CHECK_EQ(parse("   \t  "), 0);
    check_defaults(&params);
}

static void test_choice_values(void)
{
    CHECK_EQ(parse("mm=swap"), 0);
    CHECK_EQ(params.mm, MM_SWAP);
    CHECK_EQ(parse("mm=paging"), 0);
    CHECK_EQ(params.mm, MM_PAGING);
    CHECK_EQ(parse("pc=daemon"), 0);
    CHECK_EQ(params.pc, PC_DAEMON);
    CHECK_EQ(parse("pc=inline"), 0);
    CHECK_EQ(params.pc, PC_INLINE);
    CHECK_EQ(parse("refbits=sw"), 0);
    CHECK_EQ(params.refbits, REFBITS_SW);
    CHECK_EQ(parse("refbits=hw"), 0);
    CHECK_EQ(params.refbits, REFBITS_HW);
}

static void test_every_key_together(void)
{
    CHECK_EQ(parse("mm=paging pc=inline refbits=sw mem=8M init=/bin/sh quiet"), 0);
    CHECK_EQ(params.mm, MM_PAGING);
    CHECK_EQ(params.pc, PC_INLINE);
    CHECK_EQ(params.refbits, REFBITS_SW);
    CHECK_EQ(params.mem_limit, 8388608);
    CHECK_STR(params.init, "/bin/sh");
    CHECK(params.quiet);
}

/* Values that only mm=paging gives a meaning are refused with mm=swap,
 * whichever key comes first, naming why and what is valid instead. */
static void test_keys_checked_across(void)
{
    CHECK_EQ(parse("mm=swap refbits=sw"), -1);
    CHECK_CONTAINS(err, "refbits=sw needs mm=paging");
    CHECK_CONTAINS(err, "no replacement clock");
    CHECK_CONTAINS(err, "valid with mm=swap: refbits=hw");
    CHECK_EQ(parse("refbits=sw mm=swap"), -1);
    CHECK_CONTAINS(err, "refbits=sw needs mm=paging");
    /* The defaults of such keys are fine with mm=swap: nothing reads them. */
    CHECK_EQ(parse("mm=swap refbits=hw pc=inline"), 0);
    CHECK_EQ(params.mm, MM_SWAP);
    CHECK_EQ(parse("mm=paging refbits=sw"), 0);
    CHECK_EQ(params.refbits, REFBITS_SW);
    /* The last mm= wins before the check. */
    CHECK_EQ(parse("mm=swap refbits=sw mm=paging"), 0);
    CHECK_EQ(parse("mm=paging refbits=sw mm=swap"), -1);
}

/* pc=daemon needs mm=paging, and its water marks need it. */
static void test_pc_daemon_and_free_marks(void)
{
    CHECK_EQ(parse("mm=swap pc=daemon"), -1);
    CHECK_CONTAINS(err, "pc=daemon needs mm=paging");
    CHECK_CONTAINS(err, "valid with mm=swap: pc=inline");
    CHECK_EQ(parse("pc=daemon mm=swap"), -1);
    CHECK_EQ(parse("pc=daemon freemin=64 freemax=200"), 0);
    CHECK_EQ(params.freemin, 64);
    CHECK_EQ(params.freemax, 200);
    CHECK_EQ(parse("pc=daemon"), 0);
    CHECK_EQ(params.freemin, 0);           /* 0: the default, from the water marks */
    CHECK_EQ(parse("freemin=64"), -1);
    CHECK_CONTAINS(err, "needs pc=daemon");
    CHECK_EQ(parse("pc=daemon freemin=100 freemax=100"), -1);
    CHECK_CONTAINS(err, "freemin=100 is not below freemax=100");
    CHECK_CONTAINS(err, "valid: a number of frames from 33 to 65536");
    CHECK_EQ(parse("pc=daemon freemin=3"), -1);
    CHECK_CONTAINS(err, "bad value '3' for freemin: out of range");
    CHECK_EQ(parse("pc=daemon freemax=65537"), -1);
    CHECK_EQ(parse("pc=daemon freemax=12K"), -1);
    CHECK_EQ(parse("pc=daemon freemax="), -1);
    CHECK_EQ(parse("pc=daemon freemax"), -1);
    CHECK_CONTAINS(err, "missing value for freemax");
}

/* disklat=: a time with a unit (us or ms), or 0; the banner shows it
 * back in the larger unit that keeps it whole. */
static void test_disk_latency(void)
{
    char buf[128];

    CHECK_EQ(parse(""), 0);
    CHECK_EQ(params.disklat_us, 0);
    CHECK_EQ(parse("disklat=30ms"), 0);
    CHECK_EQ(params.disklat_us, 30000);
    CHECK_EQ(parse("disklat=250us"), 0);
    CHECK_EQ(params.disklat_us, 250);
    CHECK_EQ(parse("disklat=0"), 0);
    CHECK_EQ(params.disklat_us, 0);
    CHECK_EQ(parse("mm=swap disklat=1000ms"), 0);      /* the disk is every manager's */
    CHECK_EQ(params.disklat_us, BLK_LATENCY_MAX_US);

    CHECK_EQ(parse("disklat=30"), -1);
    CHECK_CONTAINS(err, "bad value '30' for disklat: the unit is missing");
    CHECK_CONTAINS(err, "us or ms, up to 1000ms");
    CHECK_EQ(parse("disklat=1001ms"), -1);
    CHECK_CONTAINS(err, "bad value '1001ms' for disklat: out of range");
    CHECK_EQ(parse("disklat=1000001us"), -1);
    CHECK_CONTAINS(err, "out of range");
    CHECK_EQ(parse("disklat=99999999999999999999ms"), -1);   /* overflows u64 */
    CHECK_EQ(parse("disklat=5s"), -1);
    CHECK_CONTAINS(err, "valid: 0 (off), or a time with a unit");
    CHECK_EQ(parse("disklat=ms"), -1);
    CHECK_EQ(parse("disklat=5m"), -1);
    CHECK_EQ(parse("disklat=5msx"), -1);
    CHECK_EQ(parse("disklat="), -1);
    CHECK_EQ(parse("disklat"), -1);
    CHECK_CONTAINS(err, "missing value for disklat");

    CHECK_EQ(parse("disklat=30ms"), 0);
    params_describe(&params, buf, sizeof buf);
    CHECK_CONTAINS(buf, " disklat=30ms");
    CHECK_EQ(parse("disklat=1500us"), 0);
    params_describe(&params, buf, sizeof buf);
    CHECK_CONTAINS(buf, " disklat=1500us");
    CHECK_EQ(parse(strstr(buf, "disklat=")), 0);           /* and reads back */
    CHECK_EQ(params.disklat_us, 1500);
    CHECK_EQ(parse("disklat=0"), 0);
    params_describe(&params, buf, sizeof buf);
    CHECK(strstr(buf, "disklat") == NULL);                 /* off: not shown */
}

/* pd=SIZE and pdlat=TIME: only with mm=paging pc=daemon, and pdlat only
 * with pd. */
static void test_paging_device(void)
{
    char buf[160];

    CHECK_EQ(parse("pc=daemon pd=1M"), 0);
    CHECK_EQ(params.pd_size, 1024 * 1024);
    CHECK_EQ(params.pdlat_us, 0);
    CHECK_EQ(parse("pc=daemon pd=768K pdlat=50us"), 0);
    CHECK_EQ(params.pd_size, 768 * 1024);
    CHECK_EQ(params.pdlat_us, 50);
    params_describe(&params, buf, sizeof buf);
    CHECK_CONTAINS(buf, " pd=768K pdlat=50us");
    CHECK_EQ(parse("pc=daemon pd=4M"), 0);
    params_describe(&params, buf, sizeof buf);
    CHECK_CONTAINS(buf, " pd=4M");
    CHECK_EQ(parse("pd=64M pc=daemon"), 0);                 /* order does not matter */
    CHECK_EQ(params.pd_size, PD_MAX_SIZE);
    CHECK_EQ(parse("pc=daemon pd=256K"), 0);
    CHECK_EQ(params.pd_size, PD_MIN_SIZE);

    CHECK_EQ(parse("pd=1M"), -1);
    CHECK_CONTAINS(err, "pd= needs mm=paging pc=daemon");
    CHECK_EQ(parse("mm=swap pd=1M"), -1);
    CHECK_CONTAINS(err, "pd= needs mm=paging pc=daemon");
    CHECK_EQ(parse("pc=daemon pd=1"), -1);
    CHECK_CONTAINS(err, "bad value '1' for pd: the unit is missing");
    CHECK_EQ(parse("pc=daemon pd=252K"), -1);
    CHECK_CONTAINS(err, "bad value '252K' for pd: out of range; valid: a size with a unit, K or M, "
                        "whole pages from 256K to 64M");
    CHECK_EQ(parse("pc=daemon pd=65M"), -1);
    CHECK_EQ(parse("pc=daemon pd=1026K"), -1);            /* not whole pages */
    CHECK_EQ(parse("pc=daemon pd=1G"), -1);
    CHECK_EQ(parse("pc=daemon pd"), -1);
    CHECK_EQ(parse("pc=daemon pdlat=1ms"), -1);
    CHECK_CONTAINS(err, "pdlat= needs pd=");
    CHECK_EQ(parse("pc=daemon pd=1M pdlat=1"), -1);
    CHECK_CONTAINS(err, "bad value '1' for pdlat: the unit is missing");
}

static void test_defaults_restored_each_parse(void)
{
    CHECK_EQ(parse("mm=swap quiet mem=1G"), 0);
    CHECK_EQ(parse("pc=inline"), 0);
    CHECK_EQ(params.mm, MM_PAGING);
    CHECK(!params.quiet);
    CHECK_EQ(params.mem_limit, 0);
}

static void test_bad_choice_values(void)
{
    CHECK_EQ(parse("mm=x"), -1);
    CHECK_CONTAINS(err, "bad value 'x' for mm");
    CHECK_CONTAINS(err, "swap, paging");

    CHECK_EQ(parse("pc=later"), -1);
    CHECK_CONTAINS(err, "'later'");
    CHECK_CONTAINS(err, "pc");
    CHECK_CONTAINS(err, "inline");

    CHECK_EQ(parse("refbits=HW"), -1);   /* choices are case-sensitive */
    CHECK_CONTAINS(err, "refbits");
    CHECK_CONTAINS(err, "hw, sw");

    /* prefixes and extensions of a choice are not the choice */
    CHECK_EQ(parse("mm=swa"), -1);
    CHECK_EQ(parse("mm=swapping"), -1);
    CHECK_EQ(parse("mm="), -1);
    CHECK_CONTAINS(err, "bad value '' for mm");
    CHECK_EQ(parse("mm"), -1);
    CHECK_CONTAINS(err, "mm");
    CHECK_CONTAINS(err, "swap, paging");
}

static void test_unknown_key(void)
{
    CHECK_EQ(parse("foo=1"), -1);
    CHECK_CONTAINS(err, "unknown boot parameter 'foo'");
    CHECK_CONTAINS(err, "valid keys: mm, pc, refbits, mem, init, quiet");

    CHECK_EQ(parse("mm=swap verbose"), -1);
    CHECK_CONTAINS(err, "'verbose'");
    CHECK_EQ(parse("MM=swap"), -1);
    CHECK_CONTAINS(err, "'MM'");
    CHECK_EQ(parse("=swap"), -1);
    CHECK_CONTAINS(err, "unknown boot parameter ''");
    CHECK_EQ(parse("m=swap"), -1);       /* a key prefix is not a key */
    CHECK_EQ(parse("mmm=swap"), -1);
}

static uint64_t size_of(const char *s)
{
    uint64_t v = 0xdeadbeef;
    CHECK_EQ(params_parse_size(s, strlen(s), &v), 0);
    return v;
}

static int size_rejected(const char *s)
{
    uint64_t v = 0xdeadbeef;
    int rc = params_parse_size(s, strlen(s), &v);
    return rc != 0 && v == 0xdeadbeef;
}

static void test_sizes(void)
{
    CHECK_EQ(size_of("8M"), 8388608);
    CHECK_EQ(size_of("512K"), 524288);
    CHECK_EQ(size_of("1G"), 1073741824);
    CHECK_EQ(size_of("4096"), 4096);
    CHECK_EQ(size_of("8m"), 8388608);
    CHECK_EQ(size_of("512k"), 524288);
    CHECK_EQ(size_of("2g"), 2147483648u);
    CHECK_EQ(size_of("0"), 0);
    CHECK_EQ(size_of("18446744073709551615"), UINT64_MAX);
    CHECK_EQ(size_of("17179869183G"), 17179869183ull << 30);

    CHECK(size_rejected(""));
    CHECK(size_rejected("M"));
    CHECK(size_rejected("8Q"));
    CHECK(size_rejected("8MB"));
    CHECK(size_rejected("8 M"));
    CHECK(size_rejected("-8M"));
    CHECK(size_rejected("0x100"));
    CHECK(size_rejected("18446744073709551616"));   /* UINT64_MAX + 1 */
    CHECK(size_rejected("99999999999999999999999"));
    CHECK(size_rejected("17179869184G"));           /* 2^64 bytes */
    CHECK(size_rejected("18014398509481984K"));     /* 2^64 bytes */

    /* the length bounds the parse: "8M" inside a longer string */
    uint64_t v = 0;
    CHECK_EQ(params_parse_size("8Mxyz", 2, &v), 0);
    CHECK_EQ(v, 8388608);
}

static void test_mem_key(void)
{
    CHECK_EQ(parse("mem=8M"), 0);
    CHECK_EQ(params.mem_limit, 8388608);
    CHECK_EQ(parse("mem=512k"), 0);
    CHECK_EQ(params.mem_limit, 524288);
    CHECK_EQ(parse("mem=1G"), 0);
    CHECK_EQ(params.mem_limit, 1073741824);

    CHECK_EQ(parse("mem=0"), -1);
    CHECK_CONTAINS(err, "bad value '0' for mem");
    CHECK_CONTAINS(err, "K, M or G");

    /* a bare number is not taken as bytes: the unit is asked for */
    CHECK_EQ(parse("mem=8"), -1);
    CHECK_CONTAINS(err, "bad value '8' for mem: the unit is missing; valid: ");
    CHECK_CONTAINS(err, "(e.g. 8M)");
    CHECK_EQ(parse("mem=8388608"), -1);
    CHECK_CONTAINS(err, "unit is missing");
    CHECK_EQ(parse("mem=8Q"), -1);
    CHECK(strstr(err, "unit is missing") == NULL);   /* a wrong unit is another error */
    CHECK_EQ(parse("mem=0M"), -1);
    CHECK_EQ(parse("mem=8Q"), -1);
    CHECK_CONTAINS(err, "'8Q'");
    CHECK_EQ(parse("mem=99999999999999999999"), -1);
    CHECK_EQ(parse("mem=17179869184G"), -1);
    CHECK_EQ(parse("mem="), -1);
    CHECK_EQ(parse("mem"), -1);
}

static void test_spacing_and_repeats(void)
{
    CHECK_EQ(parse("  mm=swap    pc=inline\t\tquiet \n"), 0);
    CHECK_EQ(params.mm, MM_SWAP);
    CHECK_EQ(params.pc, PC_INLINE);
    CHECK(params.quiet);

    CHECK_EQ(parse("mm=swap mm=paging"), 0);
    CHECK_EQ(params.mm, MM_PAGING);
    CHECK_EQ(parse("mem=1G mem=8M"), 0);
    CHECK_EQ(params.mem_limit, 8388608);

    /* the first bad token stops the parse and is the one reported */
    CHECK_EQ(parse("mm=bad pc=worse"), -1);
    CHECK_CONTAINS(err, "'bad'");
    CHECK(strstr(err, "worse") == NULL);
}

static void test_quiet_flag(void)
{
    CHECK_EQ(parse("quiet"), 0);
    CHECK(params.quiet);
    CHECK_EQ(parse("quiet=1"), -1);
    CHECK_CONTAINS(err, "bad value '1' for quiet");
    CHECK_CONTAINS(err, "flag");
    CHECK_EQ(parse("quiet="), -1);
}

static void test_init_path(void)
{
    char cmd[128];
    char path[80];

    CHECK_EQ(parse("init=/bin/lat"), 0);
    CHECK_STR(params.init, "/bin/lat");

    /* the longest path that fits, then one character more */
    size_t max = sizeof params.init - 1;
    memset(path, 'a', max);
    path[0] = '/';
    path[max] = '\0';
    snprintf(cmd, sizeof cmd, "init=%s", path);
    CHECK_EQ(parse(cmd), 0);
    CHECK_STR(params.init, path);

    path[max] = 'b';
    path[max + 1] = '\0';
    snprintf(cmd, sizeof cmd, "init=%s", path);
    CHECK_EQ(parse(cmd), -1);
    CHECK_CONTAINS(err, "for init");
    CHECK_CONTAINS(err, "63 characters");

    CHECK_EQ(parse("init="), -1);
}

static void test_error_buffer_is_bounded(void)
{
    char small[16];
    memset(small, 'z', sizeof small);
    CHECK_EQ(params_parse("nonsense=1", &params, small, sizeof small), -1);
    CHECK_EQ(strlen(small), sizeof small - 1);
    CHECK_EQ(memcmp(small, "unknown boot pa", sizeof small - 1), 0);

    char none[1] = { 'q' };
    CHECK_EQ(params_parse("nonsense=1", &params, none, 0), -1);
    CHECK_EQ(none[0], 'q');   /* errlen 0: nothing written */
}

static void test_describe(void)
{
    char buf[128];

    CHECK_EQ(parse(""), 0);
    params_describe(&params, buf, sizeof buf);
    CHECK_STR(buf, "mm=paging pc=inline refbits=hw init=/init");

    CHECK_EQ(parse("mm=paging pc=inline refbits=sw mem=8M init=/sh quiet"), 0);
    params_describe(&params, buf, sizeof buf);
    CHECK_STR(buf, "mm=paging pc=inline refbits=sw mem=8M init=/sh quiet");

    CHECK_EQ(parse("mem=1536K"), 0);
    params_describe(&params, buf, sizeof buf);
    CHECK_CONTAINS(buf, "mem=1536K");
    CHECK_EQ(parse("mem=2G"), 0);
    params_describe(&params, buf, sizeof buf);
    CHECK_CONTAINS(buf, "mem=2G");
    CHECK_EQ(parse("mem=1000K"), 0);
    params_describe(&params, buf, sizeof buf);
    CHECK_CONTAINS(buf, "mem=1000K ");

    /* what describe prints parses back to the same parameters */
    struct boot_params before;
    CHECK_EQ(parse("mm=swap refbits=hw mem=12M quiet"), 0);
    before = params;
    params_describe(&before, buf, sizeof buf);
    CHECK_EQ(parse(buf), 0);
    CHECK_EQ(params.mm, before.mm);
    CHECK_EQ(params.pc, before.pc);
    CHECK_EQ(params.refbits, before.refbits);
    CHECK_EQ(params.mem_limit, before.mem_limit);
    CHECK_STR(params.init, before.init);
    CHECK_EQ(params.quiet, before.quiet);

    char tiny[8];
    params_describe(&params, tiny, sizeof tiny);
    CHECK_STR(tiny, "mm=swap");
}

int main(void)
{
    test_defaults();
    test_choice_values();
    test_every_key_together();
    test_keys_checked_across();
    test_pc_daemon_and_free_marks();
    test_disk_latency();
    test_paging_device();
    test_defaults_restored_each_parse();
    test_bad_choice_values();
    test_unknown_key();
    test_sizes();
    test_mem_key();
    test_spacing_and_repeats();
    test_quiet_flag();
    test_init_path();
    test_error_buffer_is_bounded();
    test_describe();
    return check_summary("param");
}
