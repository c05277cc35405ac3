/* HSX C executive: a non-allocating CBOR (RFC 8949) reader and writer (docs/wire.md).
 *
 * The reader is a pull parser over a buffer: hsx_cbor_read() returns one item's head
 * (a number, a string's bytes in place, a container's count) and leaves the reader at
 * what follows. It takes what the host's cbor2 writes: definite lengths, integers up to
 * 64 bits, half/single/double floats, tags (skipped); indefinite lengths are refused.
 * The writer appends to a caller's buffer and remembers an overflow instead of writing
 * past its end, so a reply is built without checking every call.
 */
#ifndef HSX_CBOR_H
#define HSX_CBOR_H

#include <stdint.h>

typedef enum hsx_cbor_type {
    HSX_CBOR_UINT,      /* value = n */
    HSX_CBOR_NINT,      /* the integer -1 - value */
    HSX_CBOR_BYTES,     /* data, value = length */
    HSX_CBOR_TEXT,      /* data, value = length (UTF-8, not checked) */
    HSX_CBOR_ARRAY,     /* value = items; data = where they start */
    HSX_CBOR_MAP,       /* value = pairs; data = where they start */
    HSX_CBOR_FALSE, HSX_CBOR_TRUE, HSX_CBOR_NULL, HSX_CBOR_UNDEFINED,
    HSX_CBOR_FLOAT      /* value = the raw bits, float_size 2, 4 or 8 bytes */
} hsx_cbor_type;

typedef struct hsx_cbor_item {
    hsx_cbor_type type;
    uint8_t float_size;
    uint64_t value;
    const uint8_t *data;
} hsx_cbor_item;

typedef struct hsx_cbor_reader {
    const uint8_t *p, *end;
} hsx_cbor_reader;

/* One item's head; 0, or -1 when the input is malformed or ends early. */
int hsx_cbor_read(hsx_cbor_reader *r, hsx_cbor_item *item);
/* Skip one whole item (a container with everything in it); 0 or -1. */
int hsx_cbor_skip(hsx_cbor_reader *r);
/* 0 when data[0..len) is exactly one well-formed map; -1 otherwise. */
int hsx_cbor_check_map(const uint8_t *data, uint32_t len);
typedef struct hsx_cbor_writer {
    uint8_t *start, *p, *end;
    uint8_t overflow;       /* set when something did not fit: the output is incomplete */
    /* NULL: a fixed buffer. Else called with the buffer full, to pass [start, p) on
     * (and set p = start): output of any length through a small buffer. */
    void (*flush)(struct hsx_cbor_writer *w);
    void *ctx;
} hsx_cbor_writer;

/* A fixed buffer (flush NULL, ctx NULL). */
void hsx_cbor_writer_init(hsx_cbor_writer *w, uint8_t *buffer, uint32_t size);
void hsx_cbor_put_uint(hsx_cbor_writer *w, uint64_t value);
void hsx_cbor_put_int(hsx_cbor_writer *w, int64_t value);
void hsx_cbor_put_bytes(hsx_cbor_writer *w, const uint8_t *data, uint32_t len);
void hsx_cbor_put_text(hsx_cbor_writer *w, const char *text, uint32_t len);
void hsx_cbor_put_str(hsx_cbor_writer *w, const char *text);   /* NUL-terminated */
void hsx_cbor_put_array(hsx_cbor_writer *w, uint32_t items);
void hsx_cbor_put_map(hsx_cbor_writer *w, uint32_t pairs);
void hsx_cbor_put_tag(hsx_cbor_writer *w, uint32_t tag);      /* the item after it is tagged */
/* An indefinite-length map or array, ended by hsx_cbor_put_end(): for replies whose
 * length is known only once written. */
void hsx_cbor_open_map(hsx_cbor_writer *w);
void hsx_cbor_open_array(hsx_cbor_writer *w);
void hsx_cbor_put_end(hsx_cbor_writer *w);
void hsx_cbor_put_bool(hsx_cbor_writer *w, int value);
void hsx_cbor_put_null(hsx_cbor_writer *w);
void hsx_cbor_put_half(hsx_cbor_writer *w, uint16_t bits);
void hsx_cbor_put_float_bits(hsx_cbor_writer *w, uint64_t bits, int size); /* 2, 4, 8 */
/* Only the head of a byte or text string of `len` bytes: put_raw writes its content. */
void hsx_cbor_put_bytes_start(hsx_cbor_writer *w, uint32_t len);
void hsx_cbor_put_text_start(hsx_cbor_writer *w, uint32_t len);
/* Bytes of raw, already encoded CBOR (one or more whole items). */
void hsx_cbor_put_raw(hsx_cbor_writer *w, const uint8_t *data, uint32_t len);

#endif
