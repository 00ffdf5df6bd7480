/*
 * Shell variables and the script's arguments. Programs have no
 * environment on faultline, so variables live only in the shell (and
 * in the copies fork makes for background jobs).
 */
#include "sh.h"

#define VARS_MAX  128   /* variables a shell can hold */

/* $RANDOM: the C standard's example generator (15 bits out of 32), so a
 * script's sequence after RANDOM=seed is the same on every run. Each
 * shell starts from its pid. */
#define RANDOM_NAME  "RANDOM"
#define RANDOM_MUL   1103515245u
#define RANDOM_ADD   12345u
#define RANDOM_SHIFT 16
#define RANDOM_MASK  0x7fffu

static uint32_t random_state;
static bool     random_seeded;
static char     random_text[8];

struct var {
    char  name[SH_NAME_MAX];
    char *value;         /* malloc'ed */
};

static struct var vars[VARS_MAX];
static int        nvars;

static char **args;       /* args[0] is $0 */
static int    nargs;      /* $# + 1 */

int last_status;
int last_background;

static struct var *find(const char *name)
{
    for (int i = 0; i < nvars; i++)
        if (strcmp(vars[i].name, name) == 0)
            return &vars[i];
    return NULL;
}

static const char *next_random(void)
{
    if (!random_seeded) {
        random_state = (uint32_t)getpid();
        random_seeded = true;
    }
    random_state = random_state * RANDOM_MUL + RANDOM_ADD;
    snprintf(random_text, sizeof random_text, "%u",
             (unsigned)(random_state >> RANDOM_SHIFT) & RANDOM_MASK);
    return random_text;
}

const char *var_get(const char *name)
{
    if (strcmp(name, RANDOM_NAME) == 0)
        return next_random();
    const struct var *v = find(name);
    return v ? v->value : NULL;
}

int var_set(const char *name, const char *value)
{
    size_t len = strlen(name);
    if (!is_name(name, len) || len >= SH_NAME_MAX)
        return -1;
    if (strcmp(name, RANDOM_NAME) == 0) {   /* a new seed */
        random_state = (uint32_t)strtoul(value, NULL, 10);
        random_seeded = true;
        return 0;
    }
    char *copy = malloc(strlen(value) + 1);
    if (!copy)
        return -1;
    strcpy(copy, value);
    struct var *v = find(name);
    if (!v) {
        if (nvars == VARS_MAX) {
            free(copy);
            return -1;
        }
        v = &vars[nvars++];
        strlcpy(v->name, name, sizeof v->name);
    } else {
        free(v->value);
    }
    v->value = copy;
    return 0;
}

void args_set(int argc, char **argv)
{
    args = argv;
    nargs = argc;
}

int args_count(void)
{
    return nargs - 1;
}

const char *arg_get(int i)
{
    return i >= 0 && i < nargs ? args[i] : NULL;
}

int args_shift(int n)
{
    if (n < 0 || n > nargs - 1)
        return -1;
    /* $0 stays: the rest moves down over the first n arguments */
    memmove(&args[1], &args[1 + n], (size_t)(nargs - 1 - n) * sizeof *args);
    nargs -= n;
    return 0;
}
