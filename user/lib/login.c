/*
 * Login sessions: what `who` counts as a user. A user is a session (POSIX
 * setsid) whose leader recorded a login name: one line "SID NAME" appended
 * to the ram file LOGIN_FILE. A session is logged in while any process of
 * it is alive; stale lines are never removed, who skips them (sids are
 * pids, which the kernel does not reuse while the system is up).
 *
 * One write() with O_APPEND adds the whole line, so concurrent logins do
 * not mix their lines.
 */
#include "ulib.h"

int login_session(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= LOGIN_NAME_MAX)
        return -EINVAL;
    for (size_t i = 0; i < n; i++)
        if (isspace(name[i]))
            return -EINVAL;
    int sid = setsid();
    if (sid < 0)
        return sid;
    char line[LOGIN_NAME_MAX + 16];
    int len = snprintf(line, sizeof line, "%d %s\n", sid, name);
    int fd = open(LOGIN_FILE, O_WRONLY | O_CREAT | O_APPEND);
    if (fd < 0)
        return fd;
    long w = write(fd, line, (size_t)len);
    close(fd);
    if (w != len)
        return w < 0 ? (int)w : -EIO;
    return sid;
}
