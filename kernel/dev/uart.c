/*
 * ns16550a UART (QEMU virt): output by polling the transmit-holding-empty
 * bit, so kernel messages survive anything; input by interrupt, taken by
 * the console (console_receive), which may mask the receive interrupt
 * while it has no room.
 */
#include "uart.h"
#include "console.h"
#include "irq.h"
#include "printk.h"
#include <arch/arch.h>

#define UART_RBR  0   /* receive buffer (read) */
#define UART_THR  0   /* transmit holding (write) */
#define UART_IER  1   /* interrupt enable */
#define UART_FCR  2   /* FIFO control (write) */
#define UART_LCR  3   /* line control */
#define UART_LSR  5   /* line status */

#define IER_RX_AVAILABLE  0x01
#define FCR_ENABLE        0x01   /* FIFOs on; the clear bits (0x02, 0x04) stay 0 */
#define LCR_8N1           0x03
#define LSR_DATA_READY    0x01
#define LSR_THR_EMPTY     0x20

static volatile uint8_t *uart;

static inline uint8_t rd(int reg) { return uart[reg]; }
static inline void wr(int reg, uint8_t v) { uart[reg] = v; }

/*
 * The firmware has already set the UART up (8N1, FIFOs on) and printed
 * through it, and bytes typed since then wait in its receive FIFO. Nothing
 * here may clear that FIFO: the FIFO-clear bits are left 0, and the FIFO
 * enable bit is written 1, as OpenSBI left it (QEMU also empties the
 * FIFOs when that bit changes; firmware that left the FIFOs off would
 * lose what it held here). QEMU hands the UART more host input only
 * after the guest reads a byte, so a byte cleared here would also leave
 * the rest of a pasted line stuck in QEMU until the next key.
 */
void uart_init(paddr_t base)
{
    uart = (volatile uint8_t *)PA_TO_KVA(base);
    wr(UART_IER, 0);
    wr(UART_LCR, LCR_8N1);
    wr(UART_FCR, FCR_ENABLE);
    wr(UART_IER, IER_RX_AVAILABLE);
}

bool uart_ready(void) { return uart != NULL; }

void uart_putc(int c)
{
    while (!(rd(UART_LSR) & LSR_THR_EMPTY))
        ;
    wr(UART_THR, (uint8_t)c);
}

int uart_getc(void)
{
    if (!uart || !(rd(UART_LSR) & LSR_DATA_READY))
        return -1;
    return rd(UART_RBR);
}

void uart_rx_interrupts(bool on)
{
    if (uart)
        wr(UART_IER, on ? IER_RX_AVAILABLE : 0);
}

/* The UART's line fired: the console takes what was received. */
static void uart_interrupt(void *arg)
{
    (void)arg;
    console_receive();
}

void uart_attach_irq(uint32_t irq)
{
    int rc = irq_register(irq, uart_interrupt, NULL);
    if (rc)
        kprintf("faultline: console: interrupt line %u refused (error %d): no console input\n",
                irq, rc);
}
