/* HSX C executive: ISO-TP (ISO 15765-2) on classic CAN, the small part a request and its
 * answer need: single frames, a first frame with consecutive frames, flow control (the
 * peer's block size honoured; ours 0: send everything). Blocking, with a deadline on the
 * board's tick; frames of other ids are passed over. */
#ifndef HSX_ISOTP_H
#define HSX_ISOTP_H

#include "hsx_hal.h"

#define HSX_ISOTP_MAX 4095
#define HSX_ETIMEDOUT 110            /* as Linux numbers it, as the Python executive answers */

typedef struct hsx_isotp {
    const hsx_can *can;
    uint32_t (*now_ms)(void);
    uint32_t tx_id, rx_id;
    uint32_t timeout_ms;            /* the longest wait for the peer's next frame */
} hsx_isotp;

/* Send one message; 0, -HSX_ETIMEDOUT (no flow control: nobody listens) or -HSX_EIO. */
int hsx_isotp_send(const hsx_isotp *link, const uint8_t *data, uint32_t len);

/* Receive one message into out[size]; its length, -HSX_ETIMEDOUT when nothing (or not all
 * of it) came in time, -HSX_EIO for a broken transfer (a consecutive frame missing or
 * twice) or one longer than `size`. */
int hsx_isotp_recv(const hsx_isotp *link, uint8_t *out, uint32_t size);

/* Drop what is waiting on the bus (late answers to earlier requests). */
void hsx_isotp_drain(const hsx_isotp *link);

#endif
