/*
 * procinfo_snapshot: the process table as one malloc'd array, for ps and
 * who. The kernel fills at most the entries it is given, and a full buffer
 * may mean some were left out, so the buffer grows until one is left over.
 */
#include "ulib.h"

#define SNAPSHOT_FIRST_GUESS  32     /* entries; doubled while the kernel fills them all */
#define SNAPSHOT_MAX_ENTRIES  4096   /* give up growing past this */

int procinfo_snapshot(struct fl_procinfo **out)
{
    for (unsigned long cap = SNAPSHOT_FIRST_GUESS; cap <= SNAPSHOT_MAX_ENTRIES; cap *= 2) {
        struct fl_procinfo *buf = calloc(cap, sizeof *buf);
        if (!buf)
            return -ENOMEM;
        int n = procinfo(buf, cap);
        if (n < 0 || (unsigned long)n < cap) {
            *out = buf;
            return n;
        }
        free(buf);
    }
    return -ERANGE;
}
