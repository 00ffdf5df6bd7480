#ifndef FAULTLINE_KSYSCALL_H
#define FAULTLINE_KSYSCALL_H
#include "arch_api.h"
/* Runs the system call described by tf and stores its result in tf.
 * Returns the cycle count when the handler returned (for the meters). */
uint64_t syscall_dispatch(struct trapframe *tf);
/* Runs the call in tf through the table and returns its result, storing
 * nothing: for an emulator's FL_ULF_PASS (kernel/ulf). */
long syscall_call(struct trapframe *tf);
#endif
