/*
 * Shell variables and the script's arguments. Programs have no
 * environment on faultline, so variables live only in the shell (and
 * in the copies fork makes for background jobs).
 */
#include "sh.h"

#define VARS_MAX  128   /* variables a shell can hold */

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

const char *var_get(const char *name)
{
    const struct var *v = find(name);
    return v ? v->value : NULL;
}

int var_set(const char *name, const char *value)
{
    size_t len = strlen(name);
    if (!is_name(name, len) || len >= SH_NAME_MAX)
        return -1;
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
