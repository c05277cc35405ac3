/* hsx_mailbox.h: mailbox IPC (SVC module 0x05) and `.mailbox` metadata from C. */
#ifndef _HSX_MAILBOX_H
#define _HSX_MAILBOX_H
#include <hsx_sys.h>

#define HSX_MBX_FN_OPEN 0x00
#define HSX_MBX_FN_BIND 0x01
#define HSX_MBX_FN_SEND 0x02
#define HSX_MBX_FN_RECV 0x03
#define HSX_MBX_FN_PEEK 0x04
#define HSX_MBX_FN_TAP 0x05
#define HSX_MBX_FN_CLOSE 0x06
#define HSX_MBX_FN_SEND_WAIT 0x07

#define HSX_MBX_MODE_RDONLY 0x01
#define HSX_MBX_MODE_WRONLY 0x02
#define HSX_MBX_MODE_RDWR 0x03
#define HSX_MBX_MODE_TAP 0x04
#define HSX_MBX_MODE_FANOUT 0x08
#define HSX_MBX_MODE_FANOUT_DROP 0x10
#define HSX_MBX_MODE_FANOUT_BLOCK 0x20

#define HSX_MBX_STATUS_OK 0x0000
#define HSX_MBX_STATUS_WOULDBLOCK 0x0001
#define HSX_MBX_STATUS_INVALID_HANDLE 0x0002
#define HSX_MBX_STATUS_NO_DATA 0x0003
#define HSX_MBX_STATUS_MSG_TOO_LARGE 0x0004
#define HSX_MBX_STATUS_NO_DESCRIPTOR 0x0005
#define HSX_MBX_STATUS_TIMEOUT 0x0007
#define HSX_MBX_STATUS_INVALID_ARGUMENT 0x0008
#define HSX_MBX_STATUS_ACCESS_DENIED 0x0009
#define HSX_MBX_STATUS_INTERNAL_ERROR 0x00FF

/* RECV and SEND_WAIT timeouts: poll, wait for ever, or a limit in milliseconds. */
#define HSX_MBX_TIMEOUT_POLL 0x0000
#define HSX_MBX_TIMEOUT_INFINITE 0xFFFF

/* OPEN flags: the access the handle gets (0 = whatever the mailbox allows), and TAP. */
#define HSX_MBX_OPEN_RDONLY 0x01
#define HSX_MBX_OPEN_WRONLY 0x02
#define HSX_MBX_OPEN_RDWR 0x03
#define HSX_MBX_OPEN_TAP 0x04

/* Declare a mailbox in the image's metadata, e.g.
 *   HSX_MAILBOX("app:telemetry", 96, "RDWR");                                      */
#define HSX_MAILBOX(target, capacity, mode) \
    __asm__(".mailbox {\"target\": \"" target "\", \"capacity\": " #capacity \
            ", \"mode\": \"" mode "\"}")
/* Any `.mailbox` record written as JSON text. */
#define HSX_MAILBOX_JSON(json) __asm__(".mailbox " json)

typedef struct {
    unsigned length, flags, channel, src_pid;
} hsx_mbx_info;

/* Each call returns the SVC status (0 = OK); results go through the pointers. */
static inline unsigned hsx_mbx_open(const char *target, unsigned flags, unsigned *handle) {
    unsigned status, h;
    __asm__ volatile(HSX_SVC_TEXT(5, 0) : "=r"(status), "=r"(h) : "r"(target), "r"(flags)
                     : "memory");
    if (handle) *handle = h;
    return status;
}

static inline unsigned hsx_mbx_bind(const char *target, unsigned capacity, unsigned mode) {
    return HSX_SVC3(5, 1, target, capacity, mode);
}

static inline unsigned hsx_mbx_send(unsigned handle, const void *data, unsigned length,
                                    unsigned flags, unsigned channel) {
    return HSX_SVC5(5, 2, handle, data, length, flags, channel);
}

/* SEND that waits for room: up to `timeout` ms (HSX_MBX_TIMEOUT_INFINITE: for ever),
 * status HSX_MBX_STATUS_TIMEOUT when the limit expires.  The timeout goes in R0. */
static inline unsigned hsx_mbx_send_wait(unsigned handle, const void *data, unsigned length,
                                         unsigned flags, unsigned channel,
                                         unsigned timeout) {
    unsigned status;
    __asm__ volatile(HSX_SVC_TEXT(5, 7) : "=r"(status)
                     : "r"(handle), "r"(data), "r"(length), "r"(flags), "r"(channel),
                       "0"(timeout)
                     : "memory");
    return status;
}

/* Receive into `buffer` (at most `max_length` bytes), waiting up to `timeout` ms
 * (HSX_MBX_TIMEOUT_POLL: not at all, status NO_DATA; HSX_MBX_TIMEOUT_INFINITE: for
 * ever).  `info` (may be 0) gets the length, flags, channel and sender. */
static inline unsigned hsx_mbx_recv(unsigned handle, void *buffer, unsigned max_length,
                                    unsigned timeout, hsx_mbx_info *info) {
    unsigned status, length, flags, channel, src;
    __asm__ volatile(HSX_SVC_TEXT(5, 3)
                     : "=r"(status), "=r"(length), "=r"(flags), "=r"(channel), "=r"(src)
                     : "r"(handle), "r"(buffer), "r"(max_length), "r"(timeout), "r"(0)
                     : "memory");
    if (info) {
        info->length = length;
        info->flags = flags;
        info->channel = channel;
        info->src_pid = src;
    }
    return status;
}

typedef struct {
    unsigned messages, bytes_used, next_length;
} hsx_mbx_peek_info;

/* Messages this handle can receive now, bytes queued, length of the next message. */
static inline unsigned hsx_mbx_peek(unsigned handle, hsx_mbx_peek_info *out) {
    unsigned status, messages, used, next;
    __asm__ volatile(HSX_SVC_TEXT(5, 4) : "=r"(status), "=r"(messages), "=r"(used),
                     "=r"(next) : "r"(handle) : "memory");
    if (out) {
        out->messages = messages;
        out->bytes_used = used;
        out->next_length = next;
    }
    return status;
}

static inline unsigned hsx_mbx_tap(unsigned handle, unsigned enable) {
    return HSX_SVC2(5, 5, handle, enable);
}

static inline unsigned hsx_mbx_close(unsigned handle) { return HSX_SVC1(5, 6, handle); }
#endif
