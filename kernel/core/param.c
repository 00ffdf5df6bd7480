/*
 * Boot parameter parser.
 *
 * Every key is one row of param_table: its name, how its value is parsed,
 * and how its valid values are described. Error messages and the banner are
 * generated from the same rows, so adding a key or a choice cannot leave a
 * message out of date.
 */
#include "param.h"
#include "config.h"
#include "kstring.h"
#include "ktext.h"

#define PARAM_ASSIGN      '='
#define DEFAULT_INIT_PATH "/init"

#define SIZE_SHIFT_K      10
#define SIZE_SHIFT_M      20
#define SIZE_SHIFT_G      30
#define DECIMAL_BASE      10u

/* ------------------------------------------------------------------ */
/* the table                                                           */

struct param_choice {
    const char *name;
    int value;
    /* Non-NULL: the choice means something only under mm=paging, and this
     * says why (the boot refuses it with mm=swap). */
    const char *paging_only;
};

struct param_spec;

/* Parses a value into *p. has_value is false for a bare "key" token. On
 * failure it may set *why to what exactly is wrong (the message then says
 * it before listing what is valid). */
typedef int (*param_apply_fn)(const struct param_spec *spec, struct boot_params *p,
                              const char *value, size_t len, bool has_value,
                              const char **why);
/* Appends what values are valid, for error messages. */
typedef void (*param_valid_fn)(const struct param_spec *spec, struct text *t);
/* Appends "key=value" for the banner, or nothing if the key is at rest. */
typedef void (*param_show_fn)(const struct param_spec *spec, const struct boot_params *p,
                              struct text *t);

struct param_spec {
    const char *key;
    param_apply_fn apply;
    param_valid_fn valid;
    param_show_fn show;
    /* for keys with named choices */
    const struct param_choice *choices;
    size_t nchoices;
    void (*set_choice)(struct boot_params *p, int value);
    int  (*get_choice)(const struct boot_params *p);
    /* for keys of one uint32_t field (freemin, freemax, disklat, pdlat):
     * its offset in struct boot_params, so one parser serves each kind */
    size_t field;
};

static uint32_t *spec_field(const struct param_spec *spec, struct boot_params *p)
{
    return (uint32_t *)((char *)p + spec->field);
}

static uint32_t spec_value(const struct param_spec *spec, const struct boot_params *p)
{
    return *(const uint32_t *)((const char *)p + spec->field);
}

/* enum fields have distinct types, so each gets a tiny accessor pair */
static void set_mm(struct boot_params *p, int v)      { p->mm = (enum mm_kind)v; }
static int  get_mm(const struct boot_params *p)       { return (int)p->mm; }
static void set_pc(struct boot_params *p, int v)      { p->pc = (enum pc_kind)v; }
static int  get_pc(const struct boot_params *p)       { return (int)p->pc; }
static void set_refbits(struct boot_params *p, int v) { p->refbits = (enum refbits_kind)v; }
static int  get_refbits(const struct boot_params *p)  { return (int)p->refbits; }

static const struct param_choice mm_choices[] = {
    { "swap", MM_SWAP, NULL }, { "paging", MM_PAGING, NULL },
};
/* pc=daemon is paging-only: mm=swap has no page control to choose. */
static const struct param_choice pc_choices[] = {
    { "inline", PC_INLINE, NULL },
    { "daemon", PC_DAEMON, "mm=swap moves whole processes and has no page control "
                           "to hand to a page daemon" },
};
/* The default of a key needing mm=paging is harmless elsewhere: nothing
 * reads it. Only a value that asks for something is refused. */
#define SWAP_HAS_NO_CLOCK "mm=swap moves whole processes and runs no replacement clock"
static const struct param_choice refbits_choices[] = {
    { "hw", REFBITS_HW, NULL }, { "sw", REFBITS_SW, SWAP_HAS_NO_CLOCK },
};
static void set_selftest(struct boot_params *p, int v) { p->selftest = (enum selftest_kind)v; }
static int  get_selftest(const struct boot_params *p)  { return (int)p->selftest; }
static void set_meters(struct boot_params *p, int v) { p->meters = (enum meters_kind)v; }
static int  get_meters(const struct boot_params *p)  { return (int)p->meters; }
static const struct param_choice meters_choices[] = {
    { "on", METERS_ON, NULL }, { "off", METERS_OFF, NULL },
};
static void set_lightsys(struct boot_params *p, int v) { p->lightsys = (enum lightsys_kind)v; }
static int  get_lightsys(const struct boot_params *p)  { return (int)p->lightsys; }
static const struct param_choice lightsys_choices[] = {
    { "on", LIGHTSYS_ON, NULL }, { "off", LIGHTSYS_OFF, NULL },
};
static void set_pcmeters(struct boot_params *p, int v) { p->pcmeters = (enum pcmeters_kind)v; }
static int  get_pcmeters(const struct boot_params *p)  { return (int)p->pcmeters; }
static const struct param_choice pcmeters_choices[] = {
    { "off", PCMETERS_OFF, NULL }, { "on", PCMETERS_ON, NULL },
};
static const struct param_choice selftest_choices[] = {
    { "none", SELFTEST_NONE, NULL }, { "panic", SELFTEST_PANIC, NULL },
    { "kfault", SELFTEST_KFAULT, NULL }, { "blk", SELFTEST_BLK, NULL },
    { "lockorder", SELFTEST_LOCKORDER, NULL },
};

/* --- choice keys --- */

static bool token_is(const char *value, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(value, word, len) == 0;
}

static int apply_choice(const struct param_spec *spec, struct boot_params *p,
                        const char *value, size_t len, bool has_value, const char **why)
{
    (void)why;
    if (!has_value)
        return -1;
    for (size_t i = 0; i < spec->nchoices; i++) {
        if (token_is(value, len, spec->choices[i].name)) {
            spec->set_choice(p, spec->choices[i].value);
            return 0;
        }
    }
    return -1;
}

static void valid_choice(const struct param_spec *spec, struct text *t)
{
    for (size_t i = 0; i < spec->nchoices; i++) {
        if (i > 0)
            text_put(t, ", ");
        text_put(t, spec->choices[i].name);
    }
}

static void show_choice(const struct param_spec *spec, const struct boot_params *p, struct text *t)
{
    int current = spec->get_choice(p);
    for (size_t i = 0; i < spec->nchoices; i++) {
        if (spec->choices[i].value == current) {
            text_put(t, spec->key);
            text_put(t, "=");
            text_put(t, spec->choices[i].name);
            return;
        }
    }
}

/* Like show_choice, but silent at the default (the first choice): for keys
 * that are off in every ordinary boot. */
static void show_choice_if_set(const struct param_spec *spec, const struct boot_params *p,
                               struct text *t)
{
    if (spec->get_choice(p) != spec->choices[0].value)
        show_choice(spec, p, t);
}

/* --- mem=SIZE --- */

static bool all_digits(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return len > 0;
}

static int apply_mem(const struct param_spec *spec, struct boot_params *p,
                     const char *value, size_t len, bool has_value, const char **why)
{
    uint64_t bytes;
    (void)spec;
    /* A bare number is refused, not read as bytes: mem=8 is someone who
     * meant 8M far more often than someone who wants 8 bytes. */
    if (has_value && all_digits(value, len)) {
        *why = "the unit is missing";
        return -1;
    }
    /* 0 would read as "no cap", which nobody who types mem= means */
    if (!has_value || params_parse_size(value, len, &bytes) != 0 || bytes == 0)
        return -1;
    p->mem_limit = bytes;
    return 0;
}

static void valid_mem(const struct param_spec *spec, struct text *t)
{
    (void)spec;
    text_put(t, "a size above 0 with a unit, K, M or G (e.g. 8M)");
}

static void show_mem(const struct param_spec *spec, const struct boot_params *p, struct text *t)
{
    /* mem= always has a unit, so the value is a whole number of KiB */
    static const struct { int shift; const char *suffix; } units[] = {
        { SIZE_SHIFT_G, "G" }, { SIZE_SHIFT_M, "M" }, { SIZE_SHIFT_K, "K" },
    };
    uint64_t v = p->mem_limit;
    if (v == 0)
        return;
    text_put(t, spec->key);
    text_put(t, "=");
    for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
        uint64_t unit = (uint64_t)1 << units[i].shift;
        if (v % unit == 0) {
            text_put_u64(t, v / unit);
            text_put(t, units[i].suffix);
            return;
        }
    }
}

/* --- freemin=N, freemax=N: pc=daemon's free-list water marks, in frames --- */

static int apply_frames(const struct param_spec *spec, struct boot_params *p,
                        const char *value, size_t len, bool has_value, const char **why)
{
    uint64_t v;
    if (!has_value || !all_digits(value, len) || params_parse_size(value, len, &v) != 0)
        return -1;
    if (v < PC_FREE_MIN_FRAMES || v > PC_FREE_MAX_FRAMES) {
        *why = "out of range";
        return -1;
    }
    *spec_field(spec, p) = (uint32_t)v;
    return 0;
}

static void valid_frames(const struct param_spec *spec, struct text *t)
{
    (void)spec;
    text_put(t, "a number of frames from ");
    text_put_u64(t, PC_FREE_MIN_FRAMES);
    text_put(t, " to ");
    text_put_u64(t, PC_FREE_MAX_FRAMES);
    text_put(t, ", freemin below freemax, with pc=daemon (the boot also keeps freemax "
                "to at most a quarter of memory)");
}
static void show_frames(const struct param_spec *spec, const struct boot_params *p,
                        struct text *t)
{
    uint32_t v = spec_value(spec, p);
    if (!v)
        return;
    text_put(t, spec->key);
    text_put(t, "=");
    text_put_u64(t, v);
}
/* --- disklat=TIME, pdlat=TIME: a block device's modelled service time --- */

#define US_PER_MS 1000u

/* "0", or digits followed by "us" or "ms", into microseconds. A bare
 * non-zero number is refused: 30 means 30ms to one reader and 30us to the
 * next. */
static int apply_latency(const struct param_spec *spec, struct boot_params *p,
                         const char *value, size_t len, bool has_value, const char **why)
{
    uint32_t *field = spec_field(spec, p);
    if (!has_value)
        return -1;
    if (len == 1 && value[0] == '0') {
        *field = 0;
        return 0;
    }
    size_t digits = 0;
    while (digits < len && value[digits] >= '0' && value[digits] <= '9')
        digits++;
    if (digits == len && digits > 0) {
        *why = "the unit is missing";
        return -1;
    }
    uint64_t v, scale;
    if (digits == 0 || len - digits != 2 || params_parse_size(value, digits, &v) != 0)
        return -1;
    if (token_is(value + digits, 2, "us"))
        scale = 1;
    else if (token_is(value + digits, 2, "ms"))
        scale = US_PER_MS;
    else
        return -1;
    if (v > BLK_LATENCY_MAX_US / scale) {
        *why = "out of range";
        return -1;
    }
    *field = (uint32_t)(v * scale);
    return 0;
}

static void valid_latency(const struct param_spec *spec, struct text *t)
{
    (void)spec;
    text_put(t, "0 (off), or a time with a unit, us or ms, up to ");
    text_put_u64(t, BLK_LATENCY_MAX_US / US_PER_MS);
    text_put(t, "ms (e.g. 30ms, 250us)");
}

static void show_latency(const struct param_spec *spec, const struct boot_params *p,
                         struct text *t)
{
    uint32_t us = spec_value(spec, p);
    if (!us)
        return;
    text_put(t, spec->key);
    text_put(t, "=");
    text_put_u64(t, us % US_PER_MS ? us : us / US_PER_MS);
    text_put(t, us % US_PER_MS ? "us" : "ms");
}

/* --- pd=SIZE: the paging device --- */

static int apply_pd(const struct param_spec *spec, struct boot_params *p,
                    const char *value, size_t len, bool has_value, const char **why)
{
    uint64_t bytes;
    (void)spec;
    if (has_value && all_digits(value, len)) {
        *why = "the unit is missing";
        return -1;
    }
    if (!has_value || params_parse_size(value, len, &bytes) != 0)
        return -1;
    if (bytes < PD_MIN_SIZE || bytes > PD_MAX_SIZE || bytes % PAGE_SIZE) {
        *why = "out of range";
        return -1;
    }
    p->pd_size = bytes;
    return 0;
}

static void valid_pd(const struct param_spec *spec, struct text *t)
{
    (void)spec;
    text_put(t, "a size with a unit, K or M, whole pages from ");
    text_put_u64(t, PD_MIN_SIZE >> SIZE_SHIFT_K);
    text_put(t, "K to ");
    text_put_u64(t, PD_MAX_SIZE >> SIZE_SHIFT_M);
    text_put(t, "M, with mm=paging pc=daemon (e.g. pd=1M)");
}

static void show_pd(const struct param_spec *spec, const struct boot_params *p, struct text *t)
{
    if (!p->pd_size)
        return;
    bool whole_mib = p->pd_size % ((uint64_t)1 << SIZE_SHIFT_M) == 0;
    text_put(t, spec->key);
    text_put(t, "=");
    text_put_u64(t, p->pd_size >> (whole_mib ? SIZE_SHIFT_M : SIZE_SHIFT_K));
    text_put(t, whole_mib ? "M" : "K");
}

/* --- init=PATH --- */

static int apply_init(const struct param_spec *spec, struct boot_params *p,
                      const char *value, size_t len, bool has_value, const char **why)
{
    (void)spec;
    (void)why;
    if (!has_value || len == 0 || len >= sizeof p->init)
        return -1;
    memcpy(p->init, value, len);
    p->init[len] = '\0';
    return 0;
}

static void valid_init(const struct param_spec *spec, struct text *t)
{
    (void)spec;
    text_put(t, "a path of 1 to ");
    text_put_u64(t, sizeof ((struct boot_params *)0)->init - 1);
    text_put(t, " characters");
}

static void show_init(const struct param_spec *spec, const struct boot_params *p, struct text *t)
{
    text_put(t, spec->key);
    text_put(t, "=");
    text_put(t, p->init);
}

/* --- quiet --- */

static int apply_quiet(const struct param_spec *spec, struct boot_params *p,
                       const char *value, size_t len, bool has_value, const char **why)
{
    (void)spec;
    (void)why;
    (void)value;
    (void)len;
    if (has_value)
        return -1;
    p->quiet = true;
    return 0;
}

static void valid_quiet(const struct param_spec *spec, struct text *t)
{
    text_put(t, "no value (");
    text_put(t, spec->key);
    text_put(t, " is a flag)");
}

static void show_quiet(const struct param_spec *spec, const struct boot_params *p, struct text *t)
{
    if (p->quiet)
        text_put(t, spec->key);
}

#define CHOICE_KEY(name, table, setter, getter) \
    { name, apply_choice, valid_choice, show_choice, table, ARRAY_SIZE(table), setter, getter, 0 }
#define CUSTOM_KEY(name, stem) \
    { name, apply_##stem, valid_##stem, show_##stem, NULL, 0, NULL, NULL, 0 }
#define FIELD_KEY(name, kind, member) \
    { name, apply_##kind, valid_##kind, show_##kind, NULL, 0, NULL, NULL, \
      offsetof(struct boot_params, member) }

static const struct param_spec param_table[] = {
    CHOICE_KEY("mm", mm_choices, set_mm, get_mm),
    CHOICE_KEY("pc", pc_choices, set_pc, get_pc),
    CHOICE_KEY("refbits", refbits_choices, set_refbits, get_refbits),
    CUSTOM_KEY("mem", mem),
    CUSTOM_KEY("init", init),
    CUSTOM_KEY("quiet", quiet),
    { "meters", apply_choice, valid_choice, show_choice_if_set, meters_choices,
      ARRAY_SIZE(meters_choices), set_meters, get_meters, 0 },
    { "lightsys", apply_choice, valid_choice, show_choice_if_set, lightsys_choices,
      ARRAY_SIZE(lightsys_choices), set_lightsys, get_lightsys, 0 },
    { "selftest", apply_choice, valid_choice, show_choice_if_set, selftest_choices,
      ARRAY_SIZE(selftest_choices), set_selftest, get_selftest, 0 },
    FIELD_KEY("freemin", frames, freemin),
    FIELD_KEY("freemax", frames, freemax),
    FIELD_KEY("disklat", latency, disklat_us),
    CUSTOM_KEY("pd", pd),
    FIELD_KEY("pdlat", latency, pdlat_us),
    { "pcmeters", apply_choice, valid_choice, show_choice_if_set, pcmeters_choices,
      ARRAY_SIZE(pcmeters_choices), set_pcmeters, get_pcmeters, 0 },
};

/* ------------------------------------------------------------------ */
/* parsing                                                             */

static void set_defaults(struct boot_params *p)
{
    memset(p, 0, sizeof *p);
    p->mm = MM_PAGING;
    p->pc = PC_INLINE;
    p->refbits = REFBITS_HW;
    p->mem_limit = 0;
    kstrlcpy(p->init, DEFAULT_INIT_PATH, sizeof p->init);
    p->quiet = false;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static const struct param_spec *find_key(const char *key, size_t len)
{
    for (size_t i = 0; i < ARRAY_SIZE(param_table); i++)
        if (token_is(key, len, param_table[i].key))
            return &param_table[i];
    return NULL;
}

static void explain_unknown_key(struct text *t, const char *key, size_t len)
{
    text_put(t, "unknown boot parameter '");
    text_putn(t, key, len);
    text_put(t, "'; valid keys: ");
    for (size_t i = 0; i < ARRAY_SIZE(param_table); i++) {
        if (i > 0)
            text_put(t, ", ");
        text_put(t, param_table[i].key);
    }
}

static void explain_bad_value(struct text *t, const struct param_spec *spec,
                              const char *value, size_t len, bool has_value,
                              const char *why)
{
    if (has_value) {
        text_put(t, "bad value '");
        text_putn(t, value, len);
        text_put(t, "' for ");
    } else {
        text_put(t, "missing value for ");
    }
    text_put(t, spec->key);
    if (why) {
        text_put(t, ": ");
        text_put(t, why);
    }
    text_put(t, "; valid: ");
    spec->valid(spec, t);
}

/* Applies one "key" or "key=value" token. */
static int apply_token(const char *tok, size_t len, struct boot_params *out, struct text *err)
{
    size_t key_len = 0;
    while (key_len < len && tok[key_len] != PARAM_ASSIGN)
        key_len++;
    bool has_value = key_len < len;
    const char *value = has_value ? tok + key_len + 1 : tok + len;
    size_t value_len = has_value ? len - key_len - 1 : 0;

    const struct param_spec *spec = find_key(tok, key_len);
    if (!spec) {
        explain_unknown_key(err, tok, key_len);
        return -1;
    }
    const char *why = NULL;
    if (spec->apply(spec, out, value, value_len, has_value, &why) != 0) {
        explain_bad_value(err, spec, value, value_len, has_value, why);
        return -1;
    }
    return 0;
}

/* The choice a key has now, or NULL (not a choice key). */
static const struct param_choice *current_choice(const struct param_spec *spec,
                                                 const struct boot_params *p)
{
    if (!spec->get_choice)
        return NULL;
    int v = spec->get_choice(p);
    for (size_t i = 0; i < spec->nchoices; i++)
        if (spec->choices[i].value == v)
            return &spec->choices[i];
    return NULL;
}

/* Keys checked against each other once all are read, so that the order
 * on the command line does not matter: a value that only mm=paging gives
 * a meaning is refused with any other manager rather than ignored. */
static int check_free_marks(const struct boot_params *p, struct text *err)
{
    if ((p->freemin || p->freemax) && p->pc != PC_DAEMON) {
        text_put(err, p->freemin ? "freemin=" : "freemax=");
        text_put(err, " needs pc=daemon: only the page daemon keeps a free list; valid: ");
        valid_frames(NULL, err);
        return -1;
    }
    if (p->freemin && p->freemax && p->freemin >= p->freemax) {
        text_put(err, "freemin=");
        text_put_u64(err, p->freemin);
        text_put(err, " is not below freemax=");
        text_put_u64(err, p->freemax);
        text_put(err, "; valid: ");
        valid_frames(NULL, err);
        return -1;
    }
    return 0;
}

/* pd= is a level of pc=daemon's paging-device manager; pdlat= a time of
 * that device. */
static int check_pd(const struct boot_params *p, struct text *err)
{
    if (p->pd_size && (p->mm != MM_PAGING || p->pc != PC_DAEMON)) {
        text_put(err, "pd= needs mm=paging pc=daemon: the paging device is a level the "
                      "paging-device manager keeps between memory and the disk; valid: ");
        valid_pd(NULL, err);
        return -1;
    }
    if (p->pdlat_us && !p->pd_size) {
        text_put(err, "pdlat= needs pd=: it is the paging device's service time; valid: ");
        valid_latency(NULL, err);
        return -1;
    }
    return 0;
}

static int check_across_keys(const struct boot_params *p, struct text *err)
{
    if (p->mm == MM_PAGING)
        return check_free_marks(p, err) ? -1 : check_pd(p, err);
    for (size_t i = 0; i < ARRAY_SIZE(param_table); i++) {
        const struct param_spec *spec = &param_table[i];
        const struct param_choice *c = current_choice(spec, p);
        if (!c || !c->paging_only)
            continue;
        text_put(err, spec->key);
        text_put(err, "=");
        text_put(err, c->name);
        text_put(err, " needs mm=paging: ");
        text_put(err, c->paging_only);
        text_put(err, "; valid with mm=swap: ");
        bool first = true;
        for (size_t j = 0; j < spec->nchoices; j++) {
            if (spec->choices[j].paging_only)
                continue;
            if (!first)
                text_put(err, ", ");
            text_put(err, spec->key);
            text_put(err, "=");
            text_put(err, spec->choices[j].name);
            first = false;
        }
        return -1;
    }
    return check_free_marks(p, err) ? -1 : check_pd(p, err);
}

int params_parse(const char *cmdline, struct boot_params *out, char *err, size_t errlen)
{
    struct text msg = text_start(err, errlen);
    const char *p = cmdline;

    set_defaults(out);
    for (;;) {
        while (is_space(*p))
            p++;
        if (*p == '\0')
            return check_across_keys(out, &msg);
        const char *tok = p;
        while (*p != '\0' && !is_space(*p))
            p++;
        if (apply_token(tok, (size_t)(p - tok), out, &msg) != 0)
            return -1;
    }
}

void params_describe(const struct boot_params *p, char *buf, size_t len)
{
    struct text t = text_start(buf, len);
    for (size_t i = 0; i < ARRAY_SIZE(param_table); i++) {
        size_t before = t.len;
        if (before > 0)
            text_put(&t, " ");
        size_t after_space = t.len;
        param_table[i].show(&param_table[i], p, &t);
        if (t.len == after_space) {
            /* key at rest: take back the separator */
            t.len = before;
            if (t.cap > 0)
                t.buf[t.len] = '\0';
        }
    }
}

static int size_suffix_shift(char c)
{
    switch (c) {
    case 'k': case 'K': return SIZE_SHIFT_K;
    case 'm': case 'M': return SIZE_SHIFT_M;
    case 'g': case 'G': return SIZE_SHIFT_G;
    default:            return -1;
    }
}

int params_parse_size(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;

    while (i < len && s[i] >= '0' && s[i] <= '9') {
        uint64_t digit = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - digit) / DECIMAL_BASE)
            return -1;
        v = v * DECIMAL_BASE + digit;
        i++;
    }
    if (i == 0)
        return -1;
    if (i < len) {
        int shift = size_suffix_shift(s[i]);
        if (shift < 0 || i + 1 != len)
            return -1;
        if (v > (UINT64_MAX >> shift))
            return -1;
        v <<= shift;
    }
    *out = v;
    return 0;
}
