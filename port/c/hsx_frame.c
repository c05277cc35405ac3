/* HSX C executive: COBS frames with a CRC-32 on a byte stream (hsx_frame.h). */
#include "hsx_frame.h"

#include <stddef.h>

/* -- the receive ring ------------------------------------------------------------------------ */

/* Positions run over [0, 2 * HSX_RX_WINDOW) so that a full ring and an empty one differ
 * (used = head - tail) without a shared counter: the producer writes only `head`, the
 * consumer only `tail`. The bytes are volatile so that the producer's stores are not
 * moved after its store of `head`. */
#define RING HSX_RX_WINDOW
static volatile uint8_t ring[RING];
static volatile uint32_t ring_head, ring_tail;
static volatile uint32_t ring_dropped;

static uint32_t ring_used(uint32_t head, uint32_t tail)
{
    return head >= tail ? head - tail : head + 2 * RING - tail;
}

static uint32_t ring_next(uint32_t pos)
{
    return pos + 1 == 2 * RING ? 0 : pos + 1;
}

void hsx_frame_push(const uint8_t *data, uint32_t len)
{
    uint32_t head = ring_head, used = ring_used(head, ring_tail);
    uint32_t i = 0;
    for (; i < len && used < RING; i++, used++) {
        ring[head < RING ? head : head - RING] = data[i];
        head = ring_next(head);
    }
    ring_head = head;
    ring_dropped += len - i;
}

HSX_COLD_FUNCTION uint32_t hsx_frame_pending(void)
{
    return ring_used(ring_head, ring_tail);
}
uint32_t hsx_frame_dropped(void) { return ring_dropped; }

/* -- frame assembly ------------------------------------------------------------------------- */

/* COBS is decoded as bytes arrive: a code byte n says n - 1 data bytes follow, then a zero
 * unless n is 0xFF or the frame ends there. */
static uint8_t body[HSX_MAX_FRAME];
static uint32_t body_len;
static uint8_t block_left;          /* data bytes left in the current COBS block */
static uint8_t zero_pending;        /* the block ended by a zero that is not yet written */
static uint8_t too_long;            /* the frame outgrew body: wait for its end */
static uint8_t in_frame;            /* bytes seen since the last delimiter */

static void body_put(uint8_t byte)
{
    if (body_len < sizeof body)
        body[body_len++] = byte;
    else
        too_long = 1;
}

static void decode_byte(uint8_t byte)
{
    in_frame = 1;
    if (block_left) {
        body_put(byte);
        block_left--;
        return;
    }
    if (zero_pending)
        body_put(0);
    block_left = (uint8_t)(byte - 1);
    zero_pending = byte != 0xFF;
}

/* A guess at the seq of a damaged frame: the host retries that request at once instead
 * of waiting for its timeout (a wrong guess costs a duplicate, which is harmless). */
static uint8_t guessed_seq(void)
{
    return body_len >= 2 && body[0] == 'Q' ? body[1] : 0;
}

static hsx_rx_status frame_end(hsx_rx_frame *out)
{
    hsx_rx_status status;
    out->kind = 0;
    out->seq = guessed_seq();
    out->payload = body + 2;
    out->len = 0;
    if (too_long) {
        status = HSX_RX_TOO_LONG;
    } else if (block_left || body_len < HSX_FRAME_OVERHEAD) {
        status = HSX_RX_BAD_CRC;    /* cut short inside a block, or too short for a CRC */
    } else {
        uint32_t n = body_len - 4;
        uint32_t crc = (uint32_t)body[n] | (uint32_t)body[n + 1] << 8 |
                       (uint32_t)body[n + 2] << 16 | (uint32_t)body[n + 3] << 24;
        if (hsx_crc32(0, body, n) != crc) {
            status = HSX_RX_BAD_CRC;
        } else {
            status = HSX_RX_FRAME;
            out->kind = body[0];
            out->seq = body[1];
            out->len = n - 2;
        }
    }
    body_len = 0;
    block_left = zero_pending = too_long = in_frame = 0;
    return status;
}

HSX_COLD_FUNCTION hsx_rx_status hsx_frame_receive(hsx_rx_frame *out)
{
    uint32_t tail = ring_tail, head = ring_head;
    while (tail != head) {
        uint8_t byte = ring[tail < RING ? tail : tail - RING];
        tail = ring_next(tail);
        if (byte != 0) {
            decode_byte(byte);
            continue;
        }
        if (!in_frame)
            continue;               /* a delimiter before a frame, or two in a row */
        ring_tail = tail;
        return frame_end(out);
    }
    ring_tail = tail;
    return HSX_RX_NONE;
}

/* -- sending -------------------------------------------------------------------------------- */

/* The COBS encoder gathers one block (up to 254 non-zero bytes) behind its code byte and
 * writes it when a zero or the 254th byte ends it: a frame goes out without a copy of it. */
HSX_NOINLINE static void flush_block(hsx_frame_tx *tx)
{
    tx->block[0] = (uint8_t)(tx->n + 1);
    tx->link->write(tx->link->ctx, tx->block, tx->n + 1);
    tx->n = 0;
}

static void encode(hsx_frame_tx *tx, const uint8_t *data, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++) {
        if (data[i] == 0) {
            flush_block(tx);
            continue;
        }
        tx->block[++tx->n] = data[i];
        if (tx->n == 254)
            flush_block(tx);        /* code 0xFF: no zero follows */
    }
}

static const uint8_t delimiter = 0;

void hsx_frame_begin(hsx_frame_tx *tx, const hsx_link *link, uint8_t kind, uint8_t seq)
{
    uint8_t head[2] = {kind, seq};
    tx->link = link;
    tx->n = 0;
    tx->crc = 0;
    if (kind == 'H')                /* a hello may follow noise (a reset): end that first */
        link->write(link->ctx, &delimiter, 1);
    hsx_frame_feed(tx, head, 2);
}

HSX_NOINLINE void hsx_frame_feed(hsx_frame_tx *tx, const uint8_t *data, uint32_t len)
{
    tx->crc = hsx_crc32(tx->crc, data, len);
    encode(tx, data, len);
}

void hsx_frame_end(hsx_frame_tx *tx)
{
    uint8_t crc[4];
    for (int i = 0; i < 4; i++)
        crc[i] = (uint8_t)(tx->crc >> (8 * i));
    encode(tx, crc, 4);
    flush_block(tx);
    tx->link->write(tx->link->ctx, &delimiter, 1);
}

void hsx_frame_send(const hsx_link *link, uint8_t kind, uint8_t seq,
                    const uint8_t *payload, uint32_t len)
{
    hsx_frame_tx tx;
    hsx_frame_begin(&tx, link, kind, seq);
    hsx_frame_feed(&tx, payload, len);
    hsx_frame_end(&tx);
}
