#include <stdio.h>
#include <stdint.h>
#include <string.h>
static uint32_t table[256];
static void init(void) { for (uint32_t i = 0; i < 256; i++) { uint32_t c = i; for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1; table[i] = c; } }
static uint32_t crc(const char *s, size_t n) { uint32_t c = 0xFFFFFFFFu; for (size_t i = 0; i < n; i++) c = table[(c ^ (uint8_t)s[i]) & 0xFF] ^ (c >> 8); return c ^ 0xFFFFFFFFu; }
int main(void) {
    init();
    const char *msgs[] = {"", "a", "abc", "The quick brown fox jumps over the lazy dog", "123456789"};
    for (int i = 0; i < 5; i++) printf("%08x\n", crc(msgs[i], strlen(msgs[i])));
    return (int)(crc("x", 1) & 0x7F);
}
