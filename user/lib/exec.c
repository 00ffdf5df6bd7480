/* Running a command by name. The file system is one flat directory, so a
 * command name maps to a single path: no search list is needed. */
#include "ulib.h"

int exec_command(const char *name, char *const argv[])
{
    if (strchr(name, '/'))
        return exec(name, argv);
    char path[FL_PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "/%s", name) >= sizeof path)
        return -ENAMETOOLONG;
    return exec(path, argv);
}
