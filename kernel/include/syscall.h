#ifndef FAULTLINE_KSYSCALL_H
#define FAULTLINE_KSYSCALL_H
#include "arch_api.h"
/* Runs the system call described by tf and stores its result in tf. */
void syscall_dispatch(struct trapframe *tf);
#endif
