/* QEMU's mps2-an385 (ARM AN385: a Cortex-M3 at 25 MHz with CMSDK peripherals): the
 * registers this board's HAL uses. Addresses from QEMU's hw/arm/mps2.c and the Cortex-M3
 * Technical Reference Manual; a real board's vendor header plays this part. */
#ifndef MPS2_H
#define MPS2_H

#include <stdint.h>

#define MPS2_SYSCLK_HZ 25000000u        /* the CPU and the APB peripherals' clock */

/* CMSDK APB UART (DDI0479C 4.3): a one-byte holding register each way in QEMU. */
typedef struct cmsdk_uart {
    volatile uint32_t data;             /* write: send a byte; read: the received byte */
    volatile uint32_t state;            /* bit 0 TX full, bit 1 RX full, 2/3 overruns (write 1 clears) */
    volatile uint32_t ctrl;             /* bit 0 TX enable, 1 RX enable, 2 TX int, 3 RX int */
    volatile uint32_t intstatus;        /* bit 0 TX, bit 1 RX (write 1 clears) */
    volatile uint32_t bauddiv;          /* SYSCLK / baud, at least 16 */
} cmsdk_uart;

#define UART_STATE_TX_FULL 1u
#define UART_STATE_RX_FULL 2u
#define UART_CTRL_TX_EN 1u
#define UART_CTRL_RX_EN 2u
#define UART_CTRL_TX_INT 4u
#define UART_CTRL_RX_INT 8u
#define UART_INT_TX 1u
#define UART_INT_RX 2u

#define MPS2_UART0 ((cmsdk_uart *)0x40004000u)   /* the link: IRQ 0 receive, IRQ 1 send */
#define MPS2_UART1 ((cmsdk_uart *)0x40005000u)   /* diagnostics, polled */
#define MPS2_UART0_RX_IRQ 0
#define MPS2_UART0_TX_IRQ 1

/* System control space (ARMv7-M). */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)   /* SysTick control and status */
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)   /* reload value */
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)   /* current value */
#define SYST_CSR_ENABLE 1u
#define SYST_CSR_TICKINT 2u
#define SYST_CSR_CPU_CLOCK 4u

#define NVIC_ISER0 (*(volatile uint32_t *)0xE000E100u) /* interrupt set-enable, IRQ 0..31 */
#define SCB_VTOR (*(volatile uint32_t *)0xE000ED08u)
#define SCB_AIRCR (*(volatile uint32_t *)0xE000ED0Cu)
#define SCB_AIRCR_RESET 0x05FA0004u     /* VECTKEY | SYSRESETREQ */
#define SCB_SHCSR (*(volatile uint32_t *)0xE000ED24u)
#define SCB_CFSR (*(volatile uint32_t *)0xE000ED28u)   /* configurable fault status */
#define SCB_HFSR (*(volatile uint32_t *)0xE000ED2Cu)

static inline void mps2_irq_disable(void) { __asm volatile("cpsid i" ::: "memory"); }
static inline void mps2_irq_enable(void) { __asm volatile("cpsie i" ::: "memory"); }
static inline void mps2_wait_for_interrupt(void) { __asm volatile("dsb\n\twfi" ::: "memory"); }

#endif
