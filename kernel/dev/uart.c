/*
 * ns16550a UART (QEMU virt): output by polling the transmit-holding-empty
 * bit, so kernel messages survive anything; input by interrupt.
 */
#include "uart.h"
#include "console.h"
#include <arch/arch.h>

#define UART_RBR  0   /* receive buffer (read) */
#define UART_THR  0   /* transmit holding (write) */
#define UART_IER  1   /* interrupt enable */
#define UART_FCR  2   /* FIFO control */
#define UART_LCR  3   /* line control */
#define UART_LSR  5   /* line status */

#define IER_RX_AVAILABLE  0x01
#define FCR_ENABLE_CLEAR  0x07   /* enable FIFOs, clear both */
#define LCR_8N1           0x03
#define LSR_DATA_READY    0x01
#define LSR_THR_EMPTY     0x20

static volatile uint8_t *uart;

static inline uint8_t rd(int reg) { return uart[reg]; }
static inline void wr(int reg, uint8_t v) { uart[reg] = v; }

void uart_init(paddr_t base)
{
    uart = (volatile uint8_t *)PA_TO_KVA(base);
    wr(UART_IER, 0);
    wr(UART_LCR, LCR_8N1);
    wr(UART_FCR, FCR_ENABLE_CLEAR);
    wr(UART_IER, IER_RX_AVAILABLE);
}

bool uart_ready(void) { return uart != NULL; }

void uart_putc(int c)
{
    while (!(rd(UART_LSR) & LSR_THR_EMPTY))
        ;
    wr(UART_THR, (uint8_t)c);
}

void uart_interrupt(void)
{
    while (rd(UART_LSR) & LSR_DATA_READY)
        console_input(rd(UART_RBR));
}
