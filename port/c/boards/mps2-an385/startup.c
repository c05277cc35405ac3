/* mps2-an385 startup: the vector table, the reset handler (copy .data, clear .bss, run
 * main) and the fault handlers. No C library: what C needs before main is done here.
 *
 * A fault of the firmware itself (not of a guest task: the VM catches those) is reported
 * on the diagnostics UART with the registers that say where, and the board resets, as a
 * watchdog would: the host sees a new hello and tells the user. */
#include <stdint.h>

#include "board.h"
#include "mps2.h"

int main(void);

/* From the linker script (mps2.ld). */
extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern uint32_t __stack_top[];

void Reset_Handler(void);
void HardFault_Handler(void);
void UART0_RX_Handler(void);
void UART0_TX_Handler(void);
void SysTick_Handler(void);

static void fault_report(const char *what, uint32_t *frame);

/* An exception nobody expects: report it and reset. */
static void Unexpected_Handler(void)
{
    uint32_t ipsr;
    char text[40], *p;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    p = board_hex(text, "unexpected exception", ipsr);
    *p = 0;
    fault_report(text, 0);
}

__attribute__((naked)) static void MemManage_Handler(void)
{
    __asm volatile("tst lr, #4\n\tite eq\n\tmrseq r0, msp\n\tmrsne r0, psp\n\tb memmanage_fault");
}
__attribute__((naked)) static void BusFault_Handler(void)
{
    __asm volatile("tst lr, #4\n\tite eq\n\tmrseq r0, msp\n\tmrsne r0, psp\n\tb bus_fault");
}
__attribute__((naked)) static void UsageFault_Handler(void)
{
    __asm volatile("tst lr, #4\n\tite eq\n\tmrseq r0, msp\n\tmrsne r0, psp\n\tb usage_fault");
}
/* The stacked registers (r0-r3, r12, lr, pc, xpsr) of whatever was interrupted. */
__attribute__((naked)) void HardFault_Handler(void)
{
    __asm volatile("tst lr, #4\n\tite eq\n\tmrseq r0, msp\n\tmrsne r0, psp\n\tb hard_fault");
}

__attribute__((used)) void hard_fault(uint32_t *frame)
{
    if (semihost_fault_skip(frame))
        return;                         /* a semihosting call nobody took: it returns -1 */
    fault_report("hard fault", frame);
}
__attribute__((used)) void memmanage_fault(uint32_t *frame) { fault_report("memory fault", frame); }
__attribute__((used)) void bus_fault(uint32_t *frame) { fault_report("bus fault", frame); }
__attribute__((used)) void usage_fault(uint32_t *frame) { fault_report("usage fault", frame); }

static void fault_report(const char *what, uint32_t *frame)
{
    char text[96], *p = text;
    mps2_irq_disable();
    while (*what)
        *p++ = *what++;
    if (frame) {
        *p++ = ':';
        *p++ = ' ';
        p = board_hex(p, "pc", frame[6]);
        *p++ = ' ';
        p = board_hex(p, "lr", frame[5]);
    }
    *p++ = ' ';
    p = board_hex(p, "cfsr", SCB_CFSR);
    *p++ = ' ';
    p = board_hex(p, "hfsr", SCB_HFSR);
    *p = 0;
    board_diagnostic(text);
    board_diagnostic("resetting");
    SCB_AIRCR = SCB_AIRCR_RESET;
    for (;;)
        ;
}

void Reset_Handler(void)
{
    uint32_t *from = __data_load, *to = __data_start;
    while (to < __data_end)
        *to++ = *from++;
    for (to = __bss_start; to < __bss_end;)
        *to++ = 0;
    SCB_SHCSR |= 7u << 16;              /* memory, bus and usage faults get their own handlers */
    main();
    for (;;)
        mps2_wait_for_interrupt();
}

typedef void (*vector)(void);
#define UNUSED Unexpected_Handler

/* ARMv7-M: the initial stack pointer, 15 system exceptions, then the board's 32 IRQs
 * (AN385: UART0 receive 0, send 1; the rest unused here). */
__attribute__((section(".vectors"), used)) const vector vectors[16 + 32] = {
    (vector)(uintptr_t)__stack_top,
    Reset_Handler,
    Unexpected_Handler,                 /* NMI */
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    0, 0, 0, 0,
    Unexpected_Handler,                 /* SVCall */
    Unexpected_Handler,                 /* debug monitor */
    0,
    Unexpected_Handler,                 /* PendSV */
    SysTick_Handler,
    UART0_RX_Handler, UART0_TX_Handler, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED,
    UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED,
    UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED,
    UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED,
};
