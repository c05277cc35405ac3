/* Test-only entry points into hsx_cbor.c and hsx_frame.c for tests/port/test_codec.py
 * (loaded with ctypes): a capture link for sent frames, and a CBOR transcoder that reads
 * any item with the reader and writes it again with the writer. */
#include <stddef.h>
#include <stdint.h>

#include "hsx_cbor.h"
#include "hsx_frame.h"

static uint8_t *sent;
static uint32_t sent_len, sent_cap;

static int capture(void *ctx, const uint8_t *data, uint32_t len)
{
    (void)ctx;
    for (uint32_t i = 0; i < len && sent_len < sent_cap; i++)
        sent[sent_len++] = data[i];
    return 0;
}

static const hsx_link capture_link = {0, capture, NULL};

uint32_t shim_send(uint8_t kind, uint8_t seq, const uint8_t *payload, uint32_t len,
                   uint8_t *out, uint32_t cap)
{
    sent = out;
    sent_len = 0;
    sent_cap = cap;
    hsx_frame_send(&capture_link, kind, seq, payload, len);
    return sent_len;
}

/* One received frame (or damage report): status; kind/seq/payload copied out. */
int shim_receive(uint8_t *kind, uint8_t *seq, uint8_t *payload, uint32_t *len)
{
    hsx_rx_frame frame;
    hsx_rx_status status = hsx_frame_receive(&frame);
    *kind = frame.kind;
    *seq = status == HSX_RX_NONE ? 0 : frame.seq;
    *len = status == HSX_RX_FRAME ? frame.len : 0;
    for (uint32_t i = 0; i < *len; i++)
        payload[i] = frame.payload[i];
    return (int)status;
}

static int transcode(hsx_cbor_reader *r, hsx_cbor_writer *w, int depth)
{
    hsx_cbor_item item;
    if (depth > 64 || hsx_cbor_read(r, &item) < 0)
        return -1;
    switch (item.type) {
    case HSX_CBOR_UINT: hsx_cbor_put_uint(w, item.value); return 0;
    case HSX_CBOR_NINT: {
        if (item.value <= (uint64_t)INT64_MAX) {
            hsx_cbor_put_int(w, -1 - (int64_t)item.value);
            return 0;
        }
        /* -1 - value beyond int64: write the head as read */
        uint8_t head[9] = {0x3B};
        for (int i = 0; i < 8; i++)
            head[8 - i] = (uint8_t)(item.value >> (8 * i));
        hsx_cbor_put_raw(w, head, 9);
        return 0;
    }
    case HSX_CBOR_BYTES: hsx_cbor_put_bytes(w, item.data, (uint32_t)item.value); return 0;
    case HSX_CBOR_TEXT: hsx_cbor_put_text(w, (const char *)item.data, (uint32_t)item.value); return 0;
    case HSX_CBOR_ARRAY:
    case HSX_CBOR_MAP: {
        uint64_t n = item.type == HSX_CBOR_MAP ? item.value * 2 : item.value;
        /* indefinite form on odd depths, so both writer forms are checked */
        if (depth & 1) {
            if (item.type == HSX_CBOR_MAP) hsx_cbor_open_map(w); else hsx_cbor_open_array(w);
        } else if (item.type == HSX_CBOR_MAP) {
            hsx_cbor_put_map(w, (uint32_t)item.value);
        } else {
            hsx_cbor_put_array(w, (uint32_t)item.value);
        }
        for (uint64_t i = 0; i < n; i++)
            if (transcode(r, w, depth + 1) < 0)
                return -1;
        if (depth & 1)
            hsx_cbor_put_end(w);
        return 0;
    }
    case HSX_CBOR_FALSE: hsx_cbor_put_bool(w, 0); return 0;
    case HSX_CBOR_TRUE: hsx_cbor_put_bool(w, 1); return 0;
    case HSX_CBOR_NULL: hsx_cbor_put_null(w); return 0;
    case HSX_CBOR_UNDEFINED: { uint8_t u = 0xF7; hsx_cbor_put_raw(w, &u, 1); return 0; }
    case HSX_CBOR_FLOAT: hsx_cbor_put_float_bits(w, item.value, item.float_size); return 0;
    }
    return -1;
}

/* -1: malformed input; -2: the output did not fit; else the bytes written. */
int32_t shim_transcode(const uint8_t *in, uint32_t len, uint8_t *out, uint32_t cap)
{
    hsx_cbor_reader r = {in, in + len};
    hsx_cbor_writer w;
    hsx_cbor_writer_init(&w, out, cap);
    if (transcode(&r, &w, 0) < 0 || r.p != r.end)
        return -1;
    return w.overflow ? -2 : (int32_t)(w.p - out);
}

int shim_skip(const uint8_t *in, uint32_t len)
{
    hsx_cbor_reader r = {in, in + len};
    return hsx_cbor_skip(&r) == 0 ? (int)(r.p - in) : -1;
}

int shim_check_map(const uint8_t *in, uint32_t len) { return hsx_cbor_check_map(in, len); }

/* The writer through a small buffer that flushes into `out`: the same bytes as a fixed
 * buffer gives. */
static uint8_t *chunk_out;
static uint32_t chunk_len;

static void chunk_flush(hsx_cbor_writer *w)
{
    for (uint8_t *q = w->start; q < w->p; q++)
        chunk_out[chunk_len++] = *q;
    w->p = w->start;
}

int32_t shim_transcode_chunked(const uint8_t *in, uint32_t len, uint8_t *out, uint32_t chunk)
{
    uint8_t small[64];
    hsx_cbor_reader r = {in, in + len};
    hsx_cbor_writer w;
    hsx_cbor_writer_init(&w, small, chunk < sizeof small ? chunk : sizeof small);
    w.flush = chunk_flush;
    chunk_out = out;
    chunk_len = 0;
    if (transcode(&r, &w, 0) < 0 || r.p != r.end)
        return -1;
    chunk_flush(&w);
    return (int32_t)chunk_len;
}
