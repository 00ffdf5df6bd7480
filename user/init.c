/*
 * init: the first process. The kernel has opened the console as fds 0, 1
 * and 2. init keeps a shell running and, as every orphan's new parent,
 * reaps whatever else exits.
 */
#include "ulib.h"

#define SHELL_PATH        "/sh"
#define RETRY_DELAY_MS    1000   /* after a failed fork or a shell that could not start */
#define EXEC_FAILED       127    /* the shell's convention for "could not run" */

static int start_shell(void)
{
    printf("init: starting sh\n");
    int pid = fork();
    if (pid == 0) {
        char *argv[] = { "sh", NULL };
        int err = exec(SHELL_PATH, argv);
        fprintf(STDERR_FILENO, "init: exec %s: %s\n", SHELL_PATH, strerror(err));
        exit(EXEC_FAILED);
    }
    return pid;
}

int main(void)
{
    for (;;) {
        int shell = start_shell();
        if (shell < 0) {
            print_err("init: fork", shell);
            sleep(RETRY_DELAY_MS);
            continue;
        }

        /* Reap until the shell itself ends; other children are orphans.
         * Only -ECHILD means the shell is gone: after any other error it
         * may still run, and a second shell would fight it for the console. */
        int status = 0;
        for (;;) {
            int pid = wait(&status);
            if (pid == shell || pid == -ECHILD)
                break;
        }

        /* Do not spin restarting a shell that cannot start at all. */
        if (FL_WIFEXITED(status) && FL_WEXITSTATUS(status) == EXEC_FAILED)
            sleep(RETRY_DELAY_MS);
    }
}
