#ifndef FAULTLINE_EXEC_H
#define FAULTLINE_EXEC_H
#include "types.h"
/* Replaces the calling process's image with the program at path. argv are
 * kernel strings. Returns argc (the new a0) or -errno; on error the old image
 * is untouched. */
long exec_kernel_argv(const char *path, char *const argv[]);
long sys_exec(uint64_t upath, uint64_t uargv);
#endif
