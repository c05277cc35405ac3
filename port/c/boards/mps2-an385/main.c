/* The mps2-an385 firmware: the C executive serving the framed protocol (docs/wire.md)
 * on UART0 (docs/port.md, "The mps2-an385 board").
 *
 * The main loop polls the executive and sleeps (WFI) when it has nothing to do; the
 * UART's receive interrupt and the 1 ms SysTick wake it. The boot number of the hello
 * is a counter in RAM that no reset clears (.noinit), seeded at power-on from the
 * semihosting clock, so every reset shows the host a different one. */
#include "board.h"
#include "hsx_exec.h"
#include "mps2.h"

#ifndef LINK_BAUD                       /* the link UART's baud rate */
#define LINK_BAUD 115200u
#endif
#define BOOT_MAGIC 0x48535842u          /* "HSXB": the counter below is set */

static volatile uint32_t ticks_ms;

/* Survives a reset (not in .bss, so the startup code leaves it alone). */
__attribute__((section(".noinit"))) static struct { uint32_t magic, count; } boot_record;

void SysTick_Handler(void) { ticks_ms++; }

uint32_t board_now_ms(void) { return ticks_ms; }

static void tick_init(void)
{
    SYST_RVR = MPS2_SYSCLK_HZ / 1000u - 1u;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CPU_CLOCK;
}

static uint32_t next_boot(void)
{
    if (boot_record.magic != BOOT_MAGIC) {        /* power-on: RAM holds nothing of ours */
        boot_record.magic = BOOT_MAGIC;
        boot_record.count = (uint32_t)semihost_time() * 2654435761u;
    }
    boot_record.count++;
    return boot_record.count ? boot_record.count : ++boot_record.count;
}

static hsx_hal hal;

int main(void)
{
    uart_diag_init(LINK_BAUD);
    tick_init();
    hal.now_ms = board_now_ms;
    hal.link = &uart_link;
    hal.persist = flash_open();
    hal.diagnostic = board_diagnostic;
    hal.board = "mps2-an385";
    hal.boot = next_boot();
    hsx_exec_init(&hal);
    uart_link_init(LINK_BAUD);
    board_diagnostic(hal.persist ? "ready (values persist)" : "ready");
    for (;;) {
        if (hsx_exec_poll())
            continue;
        mps2_irq_disable();             /* a byte arriving now must not be slept through */
        if (!uart_rx_arrived && hsx_exec_idle_ms() != 0)
            mps2_wait_for_interrupt();
        uart_rx_arrived = 0;
        mps2_irq_enable();
    }
}
