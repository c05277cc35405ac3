/* HSX C executive: ISO-TP on classic CAN (hsx_isotp.h).
 *
 *   single frame       0x0L  data (L <= 7)
 *   first frame        0x1H LL  6 bytes        (length HLL <= 4095)
 *   consecutive frame  0x2N  7 bytes           (N = 1, 2, ... 15, 0, 1, ...)
 *   flow control       0x3S BS STmin           (S: 0 go on, 1 wait, 2 overflow)
 *
 * Frames are padded to 8 bytes with 0xCC. */
#include "hsx_isotp.h"

#define PAD 0xCC

static int send_frame(const hsx_isotp *link, const uint8_t *head, uint32_t head_len,
                      const uint8_t *data, uint32_t len)
{
    uint8_t frame[8];
    uint32_t i;
    for (i = 0; i < 8; i++)
        frame[i] = PAD;
    for (i = 0; i < head_len; i++)
        frame[i] = head[i];
    for (i = 0; i < len; i++)
        frame[head_len + i] = data[i];
    return link->can->send(link->can->ctx, link->tx_id, frame, 8) < 0 ? -HSX_EIO : 0;
}

/* The next frame from the peer (others are passed over) before `deadline`; its length,
 * or -HSX_ETIMEDOUT. */
static int next_frame(const hsx_isotp *link, uint8_t *frame, uint32_t deadline)
{
    for (;;) {
        uint32_t id, len = 8;
        int r = link->can->recv(link->can->ctx, &id, frame, &len);
        if (r == 0 && id == link->rx_id && len >= 1)
            return (int)len;
        if (r < 0 && r != -HSX_EAGAIN)
            return -HSX_EIO;
        if ((int32_t)(link->now_ms() - deadline) >= 0)
            return -HSX_ETIMEDOUT;
    }
}

/* Wait for the peer's flow control; its block size (0: no more), or an error. */
static int flow_control(const hsx_isotp *link)
{
    uint8_t frame[8];
    for (;;) {
        int n = next_frame(link, frame, link->now_ms() + link->timeout_ms);
        if (n < 0)
            return n;
        if ((frame[0] >> 4) != 3 || n < 3)
            continue;                           /* not flow control: not ours to take */
        if ((frame[0] & 0xF) == 0)
            return frame[1];
        if ((frame[0] & 0xF) != 1)
            return -HSX_EIO;                    /* overflow: the peer cannot take it */
    }
}

int hsx_isotp_send(const hsx_isotp *link, const uint8_t *data, uint32_t len)
{
    uint8_t head[2];
    uint32_t at, sent_in_block = 0;
    int block, r;
    if (len > HSX_ISOTP_MAX)
        return -HSX_EINVAL;
    if (len <= 7) {
        head[0] = (uint8_t)len;
        return send_frame(link, head, 1, data, len);
    }
    head[0] = (uint8_t)(0x10 | (len >> 8));
    head[1] = (uint8_t)len;
    if ((r = send_frame(link, head, 2, data, 6)) < 0 || (block = flow_control(link)) < 0)
        return r < 0 ? r : block;
    for (at = 6; at < len; at += 7) {
        uint32_t part = len - at < 7 ? len - at : 7;
        head[0] = (uint8_t)(0x20 | (((at - 6) / 7 + 1) & 0xF));
        if ((r = send_frame(link, head, 1, data + at, part)) < 0)
            return r;
        if (block && ++sent_in_block == (uint32_t)block && at + part < len) {
            if ((block = flow_control(link)) < 0)
                return block;
            sent_in_block = 0;
        }
    }
    return 0;
}

int hsx_isotp_recv(const hsx_isotp *link, uint8_t *out, uint32_t size)
{
    uint8_t frame[8];
    static const uint8_t go_on[3] = {0x30, 0, 0};
    uint32_t len, got, i, sequence = 1;
    int n = next_frame(link, frame, link->now_ms() + link->timeout_ms);
    while (n >= 0 && (frame[0] >> 4) > 1)       /* a stray consecutive or flow frame */
        n = next_frame(link, frame, link->now_ms() + link->timeout_ms);
    if (n < 0)
        return n;
    if ((frame[0] >> 4) == 0) {
        len = frame[0] & 0xF;
        if (len > size || len + 1 > (uint32_t)n)
            return -HSX_EIO;
        for (i = 0; i < len; i++)
            out[i] = frame[1 + i];
        return (int)len;
    }
    len = ((uint32_t)(frame[0] & 0xF) << 8) | frame[1];
    if (len > size || len < 8)
        return -HSX_EIO;
    for (got = 0; got < 6; got++)
        out[got] = frame[2 + got];
    if (send_frame(link, go_on, 3, 0, 0) < 0)
        return -HSX_EIO;
    while (got < len) {
        if ((n = next_frame(link, frame, link->now_ms() + link->timeout_ms)) < 0)
            return n;
        if ((frame[0] >> 4) != 2 || (frame[0] & 0xF) != (sequence & 0xF))
            return -HSX_EIO;                    /* missing, repeated or out of order */
        sequence++;
        for (i = 1; i < (uint32_t)n && got < len; i++)
            out[got++] = frame[i];
    }
    return (int)len;
}

void hsx_isotp_drain(const hsx_isotp *link)
{
    uint8_t frame[8];
    uint32_t id, len = 8;
    while (link->can->recv(link->can->ctx, &id, frame, &len) == 0)
        len = 8;
}
