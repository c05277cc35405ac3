/* HSX C executive: the mailbox module's internals, shared by its two files --
 * hsx_mailbox.c (descriptors, handles, the message pool, delivery and wake-ups) and
 * hsx_mailbox_calls.c (stdio, SVC module 0x05, the host's API). Nothing else
 * includes it. */
#ifndef HSX_MAILBOX_H
#define HSX_MAILBOX_H

#include "hsx_kernel.h"

#define HOST_PID 0u
#define HEADER 8u                   /* the capacity cost of a message beyond its payload */
#define MAX_NAME 32u
#define RECV_INFO 20u
#define HANDLES (HSX_MAX_TASKS * HSX_MAX_HANDLES + HSX_MAX_HANDLES)   /* the host: one share */

#define RDONLY 0x01u
#define WRONLY 0x02u
#define FANOUT 0x08u
#define FANOUT_DROP 0x10u
#define FANOUT_BLOCK 0x20u
#define MODE_MASK 0x3Fu
#define FLAG_STDOUT 0x01u
#define FLAG_STDERR 0x02u
#define FLAG_OVERRUN 0x08u

enum { NS_PID, NS_SVC, NS_APP, NS_SHARED };

/* pool records: u16 queue, u16 size, u16 length, u16 flags, u16 channel, u16 sender's
 * handle, u32 sender pid, u32 sequence number, payload */
#define Q_NAME 0x4000u              /* | descriptor: its name */
#define Q_TAP 0x8000u               /* | handle: a tap's copies */
#define R_QUEUE 0
#define R_SIZE 2
#define R_LEN 4
#define R_FLAGS 6
#define R_CHANNEL 8
#define R_HANDLE 10
#define R_PID 12
#define R_SEQ 16
#define R_DATA 20u

#if HSX_MAX_TASKS > 31
#error "binders are a bit per task slot: HSX_MAX_TASKS must be at most 31"
#endif

/* Packed to 24 and 16 bytes: every task has several of each (bytes_used never exceeds the
 * 16-bit capacity). */
struct hsx_mb_box {
    uint32_t id;                    /* 0: free */
    uint32_t owner, next_seq, binders;
    uint16_t capacity, depth, bytes_used;
    uint8_t mode;
    uint8_t ns : 2, has_owner : 1;
};
extern struct hsx_mb_box hsx_mb_boxes[HSX_MAX_MAILBOXES];

struct hsx_mb_handle {
    uint32_t pid, number, cursor;
    uint16_t tap_bytes;
    uint8_t box;
    uint8_t used : 1, access : 2, tap : 1, overrun : 1;
};
extern struct hsx_mb_handle hsx_mb_handles[HANDLES];

extern uint8_t hsx_mb_pool[HSX_MAILBOX_POOL];


typedef struct hsx_mb_msg {
    uint32_t off, len, flags, channel, handle, pid, seq;
} hsx_mb_msg;

typedef struct hsx_mb_result {
    int status;
    uint32_t length, flags, channel, src_pid;
    uint8_t has_message;
} hsx_mb_result;

int32_t hsx_mb_rec_find(uint32_t queue, uint32_t from);     /* a record offset, or -1 */
void hsx_mb_msg_at(uint32_t off, hsx_mb_msg *m);
void hsx_mb_target_text(uint32_t d, char *out, uint32_t size);
int32_t hsx_mb_find_handle(uint32_t pid, uint32_t number);  /* an index, or -1 */
int32_t hsx_mb_pending(int hi);                             /* the record it would receive */
uint32_t hsx_mb_pending_count(int hi);
void hsx_mb_pop_front(uint32_t d);
int hsx_mb_tap(uint32_t pid, uint32_t number, int enable);
void hsx_mb_emit_traffic(hsx_event_type type, uint32_t pid, uint32_t d, uint32_t number,
                         const hsx_mb_msg *m);
/* Queue a message on descriptor d from (pid, handle number): a status. */
int hsx_mb_send_to(uint32_t d, uint32_t pid, uint32_t number, const uint8_t *data,
                   uint32_t len, uint32_t flags, uint32_t channel);
/* Take what handle hi has pending into dst (max_len bytes; `partial`: stdin's pieces). */
void hsx_mb_deliver(int hi, uint32_t max_len, uint8_t *dst, int partial, hsx_mb_result *r);
void hsx_mb_recv_results(hsx_tcb *t, int stdin_read, const hsx_mb_result *r);
void hsx_mb_retry_senders(void);

#endif
