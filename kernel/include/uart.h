#ifndef FAULTLINE_UART_H
#define FAULTLINE_UART_H
#include "types.h"
void uart_init(paddr_t base);       /* polled output from now on; RX interrupts enabled */
bool uart_ready(void);
void uart_putc(int c);              /* waits for room: never drops output */
void uart_interrupt(void);          /* drains received bytes into the console */
#endif
