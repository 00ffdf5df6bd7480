#ifndef FAULTLINE_UART_H
#define FAULTLINE_UART_H
#include "types.h"
void uart_init(paddr_t base);       /* polled output from now on; RX interrupts enabled,
                                       bytes already received are kept */
bool uart_ready(void);
void uart_putc(int c);              /* waits for room: never drops output */
int  uart_getc(void);               /* the next received byte, or -1 if none */
void uart_rx_interrupts(bool on);   /* masks or unmasks the receive interrupt */
/* Registers the receive interrupt on line irq (the device tree's); says
 * on the console if it cannot, as input is then lost. */
void uart_attach_irq(uint32_t irq);
#endif
