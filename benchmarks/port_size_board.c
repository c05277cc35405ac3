/* The smallest board the C executive links into, for benchmarks/port_size.py: a reset
 * handler running the main loop a board has (docs/port.md, "Porting to a board"), a
 * polled UART as the link, a tick, a persistence store. The executive's code is what
 * these entry points reach (hsx_exec_init, hsx_exec_poll, hsx_exec_idle_ms,
 * hsx_link_received); this file is the part the script lists apart as the board's. */
#include <stdint.h>

#include "hsx_exec.h"

#define UART_DATA (*(volatile uint32_t *)0x40004000u)
#define UART_STATE (*(volatile uint32_t *)0x40004004u)
#define TICK_COUNT (*(volatile uint32_t *)0xE000E018u)

static uint32_t board_now_ms(void) { return TICK_COUNT; }

static int board_write(void *ctx, const uint8_t *data, uint32_t len)
{
    (void)ctx;
    while (len--) {
        while (UART_STATE & 1u)
            ;
        UART_DATA = *data++;
    }
    return 0;
}

static uint32_t board_room(void *ctx)
{
    (void)ctx;
    return UART_STATE & 1u ? 0u : 1u;
}

static int flash_read(void *ctx, uint32_t addr, uint8_t *out, uint32_t len)
{
    (void)ctx;
    while (len--)
        *out++ = *(const volatile uint8_t *)(0x00080000u + addr++);
    return 0;
}

static int flash_write(void *ctx, uint32_t addr, const uint8_t *data, uint32_t len)
{
    (void)ctx;
    while (len--)
        *(volatile uint8_t *)(0x00080000u + addr++) = *data++;
    return 0;
}

static int flash_erase(void *ctx, uint32_t page)
{
    (void)ctx;
    *(volatile uint32_t *)0x40020000u = page;
    return 0;
}

static const hsx_link board_link = {0, board_write, board_room};
static const hsx_persist board_flash = {0, 0x4000u, 0x400u, flash_read, flash_write, flash_erase};
static const hsx_hal board_hal = {board_now_ms, &board_link, &board_flash, 0, 0, 0, "size", 0};

void Reset_Handler(void)
{
    hsx_exec_init(&board_hal);
    for (;;) {
        if (UART_STATE & 2u) {
            uint8_t byte = (uint8_t)UART_DATA;
            hsx_link_received(&byte, 1);
        }
        if (!hsx_exec_poll() && hsx_exec_idle_ms() != 0)
            __asm__ volatile("wfi");
    }
}
