/* signal() and sigaction_info(): sigaction with the library's trampoline
 * as the restorer; pause(). */
#include "ulib.h"

int signal(int sig, sighandler_t handler)
{
    struct fl_sigaction act = {
        .handler = (uint64_t)(uintptr_t)handler,
        .restorer = (uint64_t)(uintptr_t)__sigreturn_trampoline,
    };
    return sigaction(sig, &act, NULL);
}

int sigaction_info(int sig, siginfo_handler_t handler, uint64_t mask, uint32_t flags)
{
    struct fl_sigaction act = {
        .handler = (uint64_t)(uintptr_t)handler,
        .restorer = (uint64_t)(uintptr_t)__sigreturn_trampoline,
        .mask = mask,
        .flags = flags | FL_SA_SIGINFO,
    };
    return sigaction(sig, &act, NULL);
}

/* Only the thread itself changes its mask, and a handler that runs in
 * between restores it on return: the mask read here is still the mask
 * when sigsuspend replaces it. */
int pause(void)
{
    uint64_t mask;
    int rc = sigprocmask(SIG_BLOCK, NULL, &mask);
    return rc < 0 ? rc : sigsuspend(&mask);
}
