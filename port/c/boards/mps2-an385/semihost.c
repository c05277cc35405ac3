/* ARM semihosting: the firmware asks the debugger -- here QEMU, started with
 * `-semihosting-config enable=on,target=native` -- to work on a file of the host.
 * A call is `BKPT 0xAB` with the operation in r0 and its argument block in r1; the
 * answer comes back in r0. With nobody to take it, the BKPT faults: the hard fault
 * handler then skips it with r0 = -1 (semihost_fault_skip), so the same firmware runs
 * without semihosting, its values not persisting. */
#include "board.h"
#include "mps2.h"

enum { SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITE = 0x05, SYS_READ = 0x06,
       SYS_SEEK = 0x0A, SYS_FLEN = 0x0C, SYS_TIME = 0x11, SYS_GET_CMDLINE = 0x15 };

static int call(uint32_t operation, const void *argument)
{
    register uint32_t r0 __asm("r0") = operation;
    register const void *r1 __asm("r1") = argument;
    __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return (int)r0;
}

int semihost_fault_skip(uint32_t *frame)
{
    uint16_t *pc = (uint16_t *)frame[6];
    if (*pc != 0xBEAB)                  /* BKPT 0xAB */
        return 0;
    frame[0] = (uint32_t)-1;            /* r0: the call failed */
    frame[6] += 2;                      /* on past it */
    SCB_HFSR = 1u << 31;                /* DEBUGEVT: handled */
    return 1;
}

int semihost_open(const char *path, int mode)
{
    uint32_t length = 0;
    while (path[length])
        length++;
    const uint32_t block[3] = {(uint32_t)path, (uint32_t)mode, length};
    return call(SYS_OPEN, block);
}

int semihost_close(int file)
{
    const uint32_t block[1] = {(uint32_t)file};
    return call(SYS_CLOSE, block);
}

int semihost_read(int file, void *out, uint32_t len)
{
    const uint32_t block[3] = {(uint32_t)file, (uint32_t)out, len};
    return call(SYS_READ, block);
}

int semihost_write(int file, const void *data, uint32_t len)
{
    const uint32_t block[3] = {(uint32_t)file, (uint32_t)data, len};
    return call(SYS_WRITE, block);
}

int semihost_seek(int file, uint32_t position)
{
    const uint32_t block[2] = {(uint32_t)file, position};
    return call(SYS_SEEK, block);
}

int semihost_length(int file)
{
    const uint32_t block[1] = {(uint32_t)file};
    return call(SYS_FLEN, block);
}

int semihost_cmdline(char *out, uint32_t size)
{
    uint32_t block[2] = {(uint32_t)out, size};
    return call(SYS_GET_CMDLINE, block);
}

int semihost_time(void) { return call(SYS_TIME, 0); }
