/*
 * who [-c]: the users logged in, and their processes.
 *
 * A user is a login session (lib/login.c): a session whose leader recorded
 * a name in LOGIN_FILE with login_session(), and that still has a live
 * process. A user process is a live (not zombie) process in a login
 * session: what the users' commands started. init, the console's shell
 * and what runs from the console (a probe script, who itself) are not
 * users' processes and are not counted.
 *
 *   who      one line per user: NAME SID PROCS
 *   who -c   one line: "users N procs M"
 */
#include "ulib.h"

#define MAX_LOGINS    256     /* lines of LOGIN_FILE looked at (the last ones win) */
#define LINE_MAX      64

struct login {
    int  sid;
    char name[LOGIN_NAME_MAX];
    int  procs;               /* live processes in the session */
};

static struct login logins[MAX_LOGINS];
static int          nlogins;

/* The login lines; a later line for the same sid replaces an earlier one. */
static void read_logins(void)
{
    int fd = open(LOGIN_FILE, O_RDONLY);
    if (fd < 0)
        return;               /* nobody has logged in yet */
    char line[LINE_MAX];
    long n;
    while ((n = read_line(fd, line, sizeof line)) >= 0) {
        char *end;
        long sid = strtol(line, &end, 10);
        if (end == line || *end != ' ' || sid <= 0 || n >= (long)sizeof line)
            continue;         /* not a line login_session wrote */
        struct login *l = NULL;
        for (int i = 0; i < nlogins; i++)
            if (logins[i].sid == sid)
                l = &logins[i];
        if (!l) {
            if (nlogins == MAX_LOGINS)
                continue;
            l = &logins[nlogins++];
        }
        l->sid = (int)sid;
        strlcpy(l->name, end + 1, sizeof l->name);
    }
    close(fd);
}

int main(int argc, char *argv[])
{
    bool counts = false;
    if (argc == 2 && strcmp(argv[1], "-c") == 0)
        counts = true;
    else if (argc != 1)
        die("usage: who [-c]");

    read_logins();
    struct fl_procinfo *procs;
    int n = procinfo_snapshot(&procs);
    if (n < 0)
        die("who: procinfo: %s", strerror(n));
    for (int i = 0; i < n; i++) {
        if (procs[i].state == FL_PS_ZOMBIE)
            continue;
        int sid = getsid(procs[i].pid);
        if (sid < 0)
            continue;         /* it ended since the snapshot */
        for (int j = 0; j < nlogins; j++)
            if (logins[j].sid == sid)
                logins[j].procs++;
    }
    free(procs);

    int users = 0, user_procs = 0;
    for (int j = 0; j < nlogins; j++) {
        if (logins[j].procs == 0)
            continue;         /* logged out: every process of it has ended */
        users++;
        user_procs += logins[j].procs;
    }
    if (counts) {
        printf("users %d procs %d\n", users, user_procs);
        return 0;
    }
    printf("%-*s %5s %5s\n", LOGIN_NAME_MAX - 1, "NAME", "SID", "PROCS");
    for (int j = 0; j < nlogins; j++)
        if (logins[j].procs > 0)
            printf("%-*s %5d %5d\n", LOGIN_NAME_MAX - 1, logins[j].name, logins[j].sid,
                   logins[j].procs);
    return 0;
}
