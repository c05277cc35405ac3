/* HSX C executive: frames on a byte stream (docs/wire.md).
 *
 *   wire:  COBS(body) 0x00        body: kind(1) seq(1) payload(n) crc32(4, little-endian)
 *
 * Receiving: bytes go into a ring of HSX_RX_WINDOW bytes (hsx_frame_push, from an
 * interrupt if the board likes: one producer, one consumer) and come out as whole,
 * checked frames (hsx_frame_receive, from the main loop). Sending: hsx_frame_send
 * COBS-encodes a frame straight onto the link, a block at a time.
 */
#ifndef HSX_FRAME_H
#define HSX_FRAME_H

#include <stdint.h>

#include "hsx_config.h"
#include "hsx_hal.h"

#define HSX_FRAME_OVERHEAD 6u       /* kind, seq and the CRC around a payload */

/* CRC-32 of IEEE 802.3 as zlib.crc32: start with crc = 0, chain calls over pieces (one
 * for the executive and the link: hsx_util.c). */
uint32_t hsx_crc32(uint32_t crc, const uint8_t *data, uint32_t len);

/* Received bytes into the ring; what does not fit is dropped (counted). */
void hsx_frame_push(const uint8_t *data, uint32_t len);

typedef enum hsx_rx_status {
    HSX_RX_NONE,        /* no complete frame yet (the ring is empty) */
    HSX_RX_FRAME,       /* a frame with a good CRC: kind, seq, payload */
    HSX_RX_BAD_CRC,     /* a damaged frame (COBS, length or CRC); seq is a guess, or 0 */
    HSX_RX_TOO_LONG     /* longer than HSX_MAX_FRAME; seq is a guess, or 0 */
} hsx_rx_status;

typedef struct hsx_rx_frame {
    uint8_t kind, seq;
    const uint8_t *payload;         /* valid until the next hsx_frame_receive */
    uint32_t len;
} hsx_rx_frame;

/* Take bytes from the ring until a frame ends (or the ring is empty). */
hsx_rx_status hsx_frame_receive(hsx_rx_frame *out);
/* Bytes waiting in the ring. */
uint32_t hsx_frame_pending(void);
/* Bytes dropped because the ring was full, since start. */
uint32_t hsx_frame_dropped(void);

/* Send one frame: COBS(kind seq payload crc) and a delimiter (a hello: one before too). */
void hsx_frame_send(const hsx_link *link, uint8_t kind, uint8_t seq,
                    const uint8_t *payload, uint32_t len);

/* The same a piece at a time, for a payload written as it is sent (a reply longer than
 * any buffer): begin, feed any number of times, end. */
typedef struct hsx_frame_tx {
    const hsx_link *link;
    uint8_t block[255];             /* the COBS block being gathered; block[0]: its code */
    uint32_t n;                     /* data bytes in it */
    uint32_t crc;
} hsx_frame_tx;

void hsx_frame_begin(hsx_frame_tx *tx, const hsx_link *link, uint8_t kind, uint8_t seq);
void hsx_frame_feed(hsx_frame_tx *tx, const uint8_t *data, uint32_t len);
void hsx_frame_end(hsx_frame_tx *tx);

#endif
