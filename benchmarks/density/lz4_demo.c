/* The density benchmark's compression program (benchmarks/density_bench.py): lz4's
 * block, high-compression and frame formats over a generated text, each checked by
 * decompressing, with the ratios printed as floats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lz4.h"
#include "lz4hc.h"
#include "lz4frame.h"

#define SIZE 8192

static void report(const char *what, int packed)
{
    printf("%-6s %5d -> %5d bytes (%.2f%%)\n", what, SIZE, packed, 100.0 * packed / SIZE);
}

int main(void)
{
    static const char *words[] = {"sensor", "reading", "valve", "open", "closed", "fault",
                                  "pressure", "ok", "retry", "timeout"};
    char *text = malloc(SIZE), *packed = malloc(LZ4F_compressFrameBound(SIZE, NULL)),
         *back = malloc(SIZE);
    unsigned seed = 12345;
    for (int i = 0; i < SIZE; i++) {
        seed = seed * 1103515245u + 12345u;
        const char *w = words[(seed >> 16) % 10];
        for (; *w && i < SIZE; w++)
            text[i++] = *w;
        if (i < SIZE)
            text[i] = (seed & 0x100) ? '\n' : ' ';
    }
    int n = LZ4_compress_default(text, packed, SIZE, LZ4_compressBound(SIZE));
    int ok = LZ4_decompress_safe(packed, back, n, SIZE) == SIZE && !memcmp(text, back, SIZE);
    report("block", n);
    n = LZ4_compress_HC(text, packed, SIZE, LZ4_compressBound(SIZE), LZ4HC_CLEVEL_DEFAULT);
    ok &= LZ4_decompress_safe(packed, back, n, SIZE) == SIZE && !memcmp(text, back, SIZE);
    report("hc", n);
    size_t framed = LZ4F_compressFrame(packed, LZ4F_compressFrameBound(SIZE, NULL), text,
                                       SIZE, NULL);
    LZ4F_dctx *dctx;
    LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION);
    size_t out = SIZE, in = framed;
    LZ4F_decompress(dctx, back, &out, packed, &in, NULL);
    LZ4F_freeDecompressionContext(dctx);
    ok &= out == SIZE && !memcmp(text, back, SIZE);
    report("frame", (int)framed);
    printf("%s\n", ok ? "round trips ok" : "MISMATCH");
    return !ok;
}
