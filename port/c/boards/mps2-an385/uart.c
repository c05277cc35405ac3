/* The mps2-an385 UARTs: UART0 carries the link (docs/wire.md), interrupt-driven; UART1
 * takes diagnostics, polled.
 *
 * Receiving: each byte's interrupt hands it to the executive's receive window
 * (hsx_link_received: a ring of HSX_RX_WINDOW bytes, the window the hello advertises, so
 * the host never sends more than fits). The CMSDK UART holds one byte: the interrupt
 * must take it before the next arrives (QEMU's model instead waits to deliver it).
 *
 * Sending: the executive's bytes go into a ring that the send interrupt drains a byte at
 * a time; a write waits (asleep) only while the ring is full, and `room` tells the
 * executive how much fits, so events wait for room instead of stalling a task. */
#include "board.h"
#include "hsx_exec.h"
#include "mps2.h"

#ifndef UART_TX_RING                    /* bytes queued for sending (a power of two) */
#define UART_TX_RING 1024u
#endif

static volatile uint8_t tx_ring[UART_TX_RING];
static volatile uint32_t tx_head, tx_tail;  /* free-running: used = head - tail */
static volatile uint8_t tx_busy;            /* a byte is in the UART: its interrupt comes */
volatile uint8_t uart_rx_arrived;

void uart_link_init(uint32_t baud)
{
    cmsdk_uart *u = MPS2_UART0;
    u->bauddiv = MPS2_SYSCLK_HZ / baud;
    u->ctrl = UART_CTRL_TX_EN | UART_CTRL_RX_EN | UART_CTRL_TX_INT | UART_CTRL_RX_INT;
    NVIC_ISER0 = 1u << MPS2_UART0_RX_IRQ | 1u << MPS2_UART0_TX_IRQ;
}

void UART0_RX_Handler(void)
{
    cmsdk_uart *u = MPS2_UART0;
    u->intstatus = UART_INT_RX;
    while (u->state & UART_STATE_RX_FULL) {
        uint8_t byte = (uint8_t)u->data;
        hsx_link_received(&byte, 1);
    }
    uart_rx_arrived = 1;
}

/* The UART took the last byte: give it the next one. */
void UART0_TX_Handler(void)
{
    cmsdk_uart *u = MPS2_UART0;
    u->intstatus = UART_INT_TX;
    if (tx_head != tx_tail) {
        u->data = tx_ring[tx_tail % UART_TX_RING];
        tx_tail++;
    } else {
        tx_busy = 0;
    }
}

static int link_write(void *ctx, const uint8_t *data, uint32_t len)
{
    (void)ctx;
    while (len) {
        mps2_irq_disable();
        while (len && tx_head - tx_tail < UART_TX_RING) {
            tx_ring[tx_head % UART_TX_RING] = *data++;
            tx_head++;
            len--;
        }
        if (!tx_busy && tx_head != tx_tail) {   /* start the chain of send interrupts */
            tx_busy = 1;
            MPS2_UART0->data = tx_ring[tx_tail % UART_TX_RING];
            tx_tail++;
        }
        if (len)
            mps2_wait_for_interrupt();      /* woken by the send interrupt freeing room */
        mps2_irq_enable();
    }
    return 0;
}

static uint32_t link_room(void *ctx)
{
    (void)ctx;
    return UART_TX_RING - (tx_head - tx_tail);
}

const hsx_link uart_link = {0, link_write, link_room};

/* -- diagnostics ------------------------------------------------------------------------- */

void uart_diag_init(uint32_t baud)
{
    MPS2_UART1->bauddiv = MPS2_SYSCLK_HZ / baud;
    MPS2_UART1->ctrl = UART_CTRL_TX_EN;
}

void uart_diag_write(const char *text)
{
    cmsdk_uart *u = MPS2_UART1;
    for (; *text; text++) {
        while (u->state & UART_STATE_TX_FULL)
            ;
        u->data = (uint8_t)*text;
    }
}

void board_diagnostic(const char *text)
{
    uart_diag_write("hsx-mps2: ");
    uart_diag_write(text);
    uart_diag_write("\n");
}

char *board_hex(char *out, const char *name, uint32_t value)
{
    static const char digits[] = "0123456789ABCDEF";
    while (*name)
        *out++ = *name++;
    *out++ = ' ';
    *out++ = '0';
    *out++ = 'x';
    for (int shift = 28; shift >= 0; shift -= 4)
        *out++ = digits[(value >> shift) & 15];
    return out;
}
