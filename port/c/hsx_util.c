/* HSX C executive: freestanding helpers its files share (no libc: copies, strings,
 * little-endian fields, CRC-32 -- the link's too) and the detail of the last refusal. */
#include "hsx_kernel.h"

static char detail[40];
/* ---- small helpers ------------------------------------------------------------------ */

void hsx_k_copy(void *dst, const void *src, uint32_t n)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else if (d > s) {
        while (n--)
            d[n] = s[n];
    }
}

void hsx_k_fill(void *dst, uint8_t value, uint32_t n)
{
    volatile uint8_t *d = (volatile uint8_t *)dst;   /* volatile: never turned into memset */
    while (n--)
        *d++ = value;
}

uint32_t hsx_k_strlen(const char *s, uint32_t max)
{
    uint32_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

int hsx_k_streq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

void hsx_k_strcpy(char *dst, const char *src, uint32_t size)
{
    uint32_t n = 0;
    if (!size)
        return;
    while (src && src[n] && n + 1 < size) {
        dst[n] = src[n];
        n++;
    }
    dst[n] = 0;
}

uint16_t hsx_k_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

uint32_t hsx_k_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

void hsx_k_put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

void hsx_k_put32(uint8_t *p, uint32_t v)
{
    hsx_k_put16(p, v);
    hsx_k_put16(p + 2, v >> 16);
}

uint32_t hsx_crc32(uint32_t crc, const uint8_t *data, uint32_t len)
{
    /* bitwise: 30 bytes of code instead of a table; a UART byte takes longer */
    int bit;
    crc = ~crc;
    while (len--) {
        crc ^= *data++;
        for (bit = 0; bit < 8; bit++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

int hsx_k_due(uint32_t deadline, uint32_t now) { return (int32_t)(now - deadline) >= 0; }

HSX_COLD_FUNCTION void hsx_k_set_detail(const char *text)
{
    hsx_k_strcpy(detail, text, sizeof detail);
}

HSX_COLD_FUNCTION uint32_t hsx_k_decimal(char *out, uint32_t number)
{
    char digits[10];
    uint32_t n = 0, i = 0;
    do {
        digits[n++] = (char)('0' + number % 10);
        number /= 10;
    } while (number);
    while (n)
        out[i++] = digits[--n];
    out[i] = 0;
    return i;
}

HSX_COLD_FUNCTION void hsx_k_set_detail_number(uint32_t number) { hsx_k_decimal(detail, number); }

const char *hsx_exec_last_detail(void) { return detail; }
