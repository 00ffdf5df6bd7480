/* signal(): sigaction with the library's trampoline as the restorer. */
#include "ulib.h"

int signal(int sig, sighandler_t handler)
{
    struct fl_sigaction act = {
        .handler = (uint64_t)(uintptr_t)handler,
        .restorer = (uint64_t)(uintptr_t)__sigreturn_trampoline,
    };
    return sigaction(sig, &act, NULL);
}
