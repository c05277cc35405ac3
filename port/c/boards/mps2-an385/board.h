/* The mps2-an385 board's pieces, as main.c puts them together (docs/port.md, "The
 * mps2-an385 board"): the link on UART0, diagnostics on UART1, the tick from SysTick,
 * flash pages emulated in a host file through semihosting. */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

#include "hsx_hal.h"

/* -- UART0: the link (uart.c) -------------------------------------------------------- */
extern const hsx_link uart_link;
void uart_link_init(uint32_t baud);
/* Set by the receive interrupt; read and cleared with interrupts off before sleeping. */
extern volatile uint8_t uart_rx_arrived;

/* -- UART1: diagnostics, polled (uart.c) ------------------------------------------------ */
void uart_diag_init(uint32_t baud);
void uart_diag_write(const char *text);
void board_diagnostic(const char *text);            /* "hsx-mps2: TEXT\n" */
/* "NAME 0x1234ABCD" into out (at least strlen(name) + 12 bytes); returns out's end. */
char *board_hex(char *out, const char *name, uint32_t value);

/* -- the tick (main.c) ------------------------------------------------------------------- */
uint32_t board_now_ms(void);

/* -- semihosting (semihost.c): calls to the debugger or QEMU, -1 when there is none ------- */
int semihost_open(const char *path, int mode);      /* mode: 0 "r" ... 3 "r+b", 7 "w+b" */
int semihost_close(int file);
int semihost_read(int file, void *out, uint32_t len);           /* bytes NOT read */
int semihost_write(int file, const void *data, uint32_t len);   /* bytes NOT written */
int semihost_seek(int file, uint32_t position);                 /* 0 */
int semihost_length(int file);
int semihost_cmdline(char *out, uint32_t size);                 /* 0: got it */
int semihost_time(void);                                        /* seconds since 1970, or -1 */
/* The hard fault handler's part: a semihosting call (BKPT 0xAB) with no debugger or
 * QEMU to take it faults; it then returns -1 instead. Non-zero when it was one. */
int semihost_fault_skip(uint32_t *frame);

/* -- persistence (flash.c): NOR flash pages mirrored in RAM, kept in a host file -------- */
/* The store for hsx_hal.persist, or NULL when the command line names no file (or
 * semihosting is off): values then do not persist. */
const hsx_persist *flash_open(void);

#endif
