/* Persistent values on the mps2-an385: NOR flash pages, emulated. The AN385 has no flash
 * QEMU models (its "flash" is RAM the ELF is loaded into, reloaded at every reset), so
 * the pages live in a host file that the firmware reaches through semihosting; QEMU is
 * told which one on its command line (`-semihosting-config ...,arg=hsx-mps2,
 * arg=persist=PATH`). A RAM mirror answers reads, as a real flash is read in place;
 * writes and erases go to the mirror and through to the file.
 *
 * NOR rules, as the value store expects (hsx_hal.h): a write only clears bits, an
 * erase sets a page to 0xFF. A board killed in the middle of a write leaves whatever of
 * the record the file got, as a power cut would. */
#include "board.h"

#ifndef FLASH_SIZE                      /* bytes of emulated flash for values */
#define FLASH_SIZE 16384u
#endif
#ifndef FLASH_PAGE                      /* its erase unit */
#define FLASH_PAGE 1024u
#endif

#define MODE_READ_WRITE 3               /* "r+b" */
#define MODE_CREATE 7                   /* "w+b" */

static uint8_t mirror[FLASH_SIZE];
static int file = -1;
static char cmdline[512];

static int flash_read(void *ctx, uint32_t addr, uint8_t *out, uint32_t len)
{
    (void)ctx;
    if (addr > FLASH_SIZE || len > FLASH_SIZE - addr)
        return -HSX_EIO;
    for (uint32_t i = 0; i < len; i++)
        out[i] = mirror[addr + i];
    return 0;
}

static int store(uint32_t addr, uint32_t len)
{
    if (semihost_seek(file, addr) != 0 || semihost_write(file, mirror + addr, len) != 0)
        return -HSX_EIO;
    return 0;
}

static int flash_write(void *ctx, uint32_t addr, const uint8_t *data, uint32_t len)
{
    (void)ctx;
    if (addr > FLASH_SIZE || len > FLASH_SIZE - addr)
        return -HSX_EIO;
    for (uint32_t i = 0; i < len; i++)
        mirror[addr + i] &= data[i];
    return store(addr, len);
}

static int flash_erase(void *ctx, uint32_t page_addr)
{
    (void)ctx;
    if (page_addr % FLASH_PAGE || page_addr >= FLASH_SIZE)
        return -HSX_EIO;
    for (uint32_t i = 0; i < FLASH_PAGE; i++)
        mirror[page_addr + i] = 0xFF;
    return store(page_addr, FLASH_PAGE);
}

static const hsx_persist flash = {0, FLASH_SIZE, FLASH_PAGE, flash_read, flash_write, flash_erase};

/* The file named by "persist=PATH" on the semihosting command line (the rest of it). */
static const char *persist_path(void)
{
    static const char key[] = "persist=";
    if (semihost_cmdline(cmdline, sizeof cmdline) != 0)
        return 0;
    for (char *p = cmdline; *p; p++) {
        uint32_t k = 0;
        if (p != cmdline && p[-1] != ' ')
            continue;
        while (key[k] && p[k] == key[k])
            k++;
        if (!key[k] && p[k])
            return p + k;
    }
    return 0;
}

const hsx_persist *flash_open(void)
{
    const char *path = persist_path();
    int length;
    if (!path)
        return 0;
    file = semihost_open(path, MODE_READ_WRITE);
    if (file < 0)
        file = semihost_open(path, MODE_CREATE);    /* a new flash: erased below */
    if (file < 0) {
        board_diagnostic("cannot open the flash file: values do not persist");
        return 0;
    }
    length = semihost_length(file);
    for (uint32_t i = 0; i < FLASH_SIZE; i++)
        mirror[i] = 0xFF;
    if (length > 0 && semihost_seek(file, 0) == 0)
        semihost_read(file, mirror, (uint32_t)length < FLASH_SIZE ? (uint32_t)length : FLASH_SIZE);
    if (length < (int)FLASH_SIZE && store(0, FLASH_SIZE) != 0) {
        board_diagnostic("cannot write the flash file: values do not persist");
        return 0;
    }
    return &flash;
}
