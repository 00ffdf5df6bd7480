#ifndef FAULTLINE_KSYSCALL_H
#define FAULTLINE_KSYSCALL_H
#include "arch_api.h"
/* Runs the system call described by tf and stores its result in tf.
 * Returns the cycle count when the handler returned (for the meters). */
uint64_t syscall_dispatch(struct trapframe *tf);
#endif
