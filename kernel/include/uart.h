#ifndef FAULTLINE_UART_H
#define FAULTLINE_UART_H
#include "types.h"
void uart_init(paddr_t base);       /* polled output from now on; RX interrupts enabled,
                                       bytes already received are kept */
bool uart_ready(void);
void uart_putc(int c);              /* waits for room: never drops output */
int  uart_getc(void);               /* the next received byte, or -1 if none */
void uart_rx_interrupts(bool on);   /* masks or unmasks the receive interrupt */
void uart_interrupt(void);          /* the UART's PLIC line fired: the console takes input */
#endif
