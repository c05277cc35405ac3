/* HSX C executive: the CBOR reader and writer (hsx_cbor.h). */
#include "hsx_cbor.h"
#include "hsx_config.h"

#include <stddef.h>

HSX_COLD_CODE_BEGIN

enum { MAJOR_UINT, MAJOR_NINT, MAJOR_BYTES, MAJOR_TEXT, MAJOR_ARRAY, MAJOR_MAP, MAJOR_TAG,
       MAJOR_SIMPLE };

/* -- reader ----------------------------------------------------------------------------- */

int hsx_cbor_read(hsx_cbor_reader *r, hsx_cbor_item *item)
{
    for (;;) {
        if (r->p >= r->end)
            return -1;
        uint8_t head = *r->p++;
        uint8_t major = head >> 5, info = head & 31;
        uint64_t value = info;
        uint32_t size = 0;
        if (info >= 24) {
            if (info > 27)
                return -1;          /* indefinite lengths (31) and reserved values */
            size = 1u << (info - 24);
            if ((uint32_t)(r->end - r->p) < size)
                return -1;
            value = 0;
            for (uint32_t i = 0; i < size; i++)
                value = value << 8 | *r->p++;
        }
        item->value = value;
        item->data = NULL;
        item->float_size = 0;
        switch (major) {
        case MAJOR_UINT: item->type = HSX_CBOR_UINT; return 0;
        case MAJOR_NINT: item->type = HSX_CBOR_NINT; return 0;
        case MAJOR_BYTES:
        case MAJOR_TEXT:
            if ((uint64_t)(r->end - r->p) < value)
                return -1;
            item->type = major == MAJOR_BYTES ? HSX_CBOR_BYTES : HSX_CBOR_TEXT;
            item->data = r->p;
            r->p += value;
            return 0;
        case MAJOR_ARRAY:
        case MAJOR_MAP:
            item->type = major == MAJOR_ARRAY ? HSX_CBOR_ARRAY : HSX_CBOR_MAP;
            item->data = r->p;      /* where the contents start */
            return 0;
        case MAJOR_TAG: continue;   /* the tagged item stands for itself */
        default:
            if (size >= 2) {
                item->type = HSX_CBOR_FLOAT;
                item->float_size = (uint8_t)size;
                return 0;
            }
            if (value == 20 || value == 21)
                item->type = value == 21 ? HSX_CBOR_TRUE : HSX_CBOR_FALSE;
            else if (value == 22)
                item->type = HSX_CBOR_NULL;
            else if (value == 23)
                item->type = HSX_CBOR_UNDEFINED;
            else
                return -1;          /* other simple values mean nothing to protocol v1 */
            return 0;
        }
    }
}

int hsx_cbor_skip(hsx_cbor_reader *r)
{
    /* Items still to skip: a container adds its contents. Every item takes at least one
     * byte, so a count larger than what is left is malformed (and cannot overflow). */
    uint64_t pending = 1;
    while (pending) {
        hsx_cbor_item item;
        if (hsx_cbor_read(r, &item) < 0)
            return -1;
        pending--;
        if (item.type == HSX_CBOR_ARRAY || item.type == HSX_CBOR_MAP) {
            uint64_t left = (uint64_t)(r->end - r->p);
            uint64_t add = item.type == HSX_CBOR_MAP ? item.value * 2 : item.value;
            if (item.value > left || add > left || pending + add > left)
                return -1;
            pending += add;
        }
    }
    return 0;
}

int hsx_cbor_check_map(const uint8_t *data, uint32_t len)
{
    hsx_cbor_reader r = {data, data + len};
    hsx_cbor_item item;
    hsx_cbor_reader peek = r;
    if (hsx_cbor_read(&peek, &item) < 0 || item.type != HSX_CBOR_MAP)
        return -1;
    return hsx_cbor_skip(&r) == 0 && r.p == r.end ? 0 : -1;
}

/* -- writer ------------------------------------------------------------------------------ */

void hsx_cbor_writer_init(hsx_cbor_writer *w, uint8_t *buffer, uint32_t size)
{
    w->start = w->p = buffer;
    w->end = buffer + size;
    w->overflow = 0;
    w->flush = NULL;
    w->ctx = NULL;
}

static void put(hsx_cbor_writer *w, const uint8_t *data, uint32_t len)
{
    if (w->overflow)
        return;
    if (!w->flush && (uint32_t)(w->end - w->p) < len) {
        w->overflow = 1;
        return;
    }
    for (uint32_t i = 0; i < len; i++) {
        if (w->p == w->end)
            w->flush(w);
        *w->p++ = data[i];
    }
}

/* A head: the major type and the shortest argument encoding of `value`. */
static void put_head(hsx_cbor_writer *w, uint8_t major, uint64_t value)
{
    uint8_t out[9];
    uint32_t size = value < 24 ? 0 : value <= 0xFF ? 1 : value <= 0xFFFF ? 2
                  : value <= 0xFFFFFFFFu ? 4 : 8;
    out[0] = (uint8_t)(major << 5 | (size == 0 ? value : size == 1 ? 24 : size == 2 ? 25
                                     : size == 4 ? 26 : 27));
    for (uint32_t i = 0; i < size; i++)
        out[size - i] = (uint8_t)(value >> (8 * i));
    put(w, out, size + 1);
}

void hsx_cbor_put_uint(hsx_cbor_writer *w, uint64_t value) { put_head(w, MAJOR_UINT, value); }

void hsx_cbor_put_int(hsx_cbor_writer *w, int64_t value)
{
    if (value >= 0)
        put_head(w, MAJOR_UINT, (uint64_t)value);
    else
        put_head(w, MAJOR_NINT, (uint64_t)(-1 - value));
}

void hsx_cbor_put_bytes(hsx_cbor_writer *w, const uint8_t *data, uint32_t len)
{
    put_head(w, MAJOR_BYTES, len);
    put(w, data, len);
}

void hsx_cbor_put_text(hsx_cbor_writer *w, const char *text, uint32_t len)
{
    put_head(w, MAJOR_TEXT, len);
    put(w, (const uint8_t *)text, len);
}

void hsx_cbor_put_str(hsx_cbor_writer *w, const char *text)
{
    uint32_t len = 0;
    while (text[len])
        len++;
    hsx_cbor_put_text(w, text, len);
}

void hsx_cbor_put_bytes_start(hsx_cbor_writer *w, uint32_t len) { put_head(w, MAJOR_BYTES, len); }
void hsx_cbor_put_text_start(hsx_cbor_writer *w, uint32_t len) { put_head(w, MAJOR_TEXT, len); }
void hsx_cbor_put_array(hsx_cbor_writer *w, uint32_t items) { put_head(w, MAJOR_ARRAY, items); }
void hsx_cbor_put_map(hsx_cbor_writer *w, uint32_t pairs) { put_head(w, MAJOR_MAP, pairs); }
void hsx_cbor_put_tag(hsx_cbor_writer *w, uint32_t tag) { put_head(w, MAJOR_TAG, tag); }

HSX_NOINLINE static void put_byte(hsx_cbor_writer *w, uint8_t byte) { put(w, &byte, 1); }

void hsx_cbor_open_map(hsx_cbor_writer *w) { put_byte(w, MAJOR_MAP << 5 | 31); }
void hsx_cbor_open_array(hsx_cbor_writer *w) { put_byte(w, MAJOR_ARRAY << 5 | 31); }
void hsx_cbor_put_end(hsx_cbor_writer *w) { put_byte(w, 0xFF); }
void hsx_cbor_put_bool(hsx_cbor_writer *w, int value) { put_byte(w, value ? 0xF5 : 0xF4); }
void hsx_cbor_put_null(hsx_cbor_writer *w) { put_byte(w, 0xF6); }

void hsx_cbor_put_float_bits(hsx_cbor_writer *w, uint64_t bits, int size)
{
    uint8_t out[9];
    out[0] = (uint8_t)(MAJOR_SIMPLE << 5 | (size == 2 ? 25 : size == 4 ? 26 : 27));
    for (int i = 0; i < size; i++)
        out[size - i] = (uint8_t)(bits >> (8 * i));
    put(w, out, (uint32_t)size + 1);
}

void hsx_cbor_put_half(hsx_cbor_writer *w, uint16_t bits) { hsx_cbor_put_float_bits(w, bits, 2); }

void hsx_cbor_put_raw(hsx_cbor_writer *w, const uint8_t *data, uint32_t len) { put(w, data, len); }

HSX_COLD_CODE_END
