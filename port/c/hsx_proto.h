/* HSX C executive: what the protocol module's files share (not an API: hsx_exec.h is).
 *
 * hsx_proto.c          the link's loop (hsx_exec_poll), frames, the hello, at-most-once
 *                      replies, a request's fields, dispatch, replies and errors
 * hsx_proto_sessions.c sessions and their PID locks
 * hsx_proto_cmds.c     the command table; tasks, memory, stdio
 * hsx_proto_values.c   val.* and cmd.*
 * hsx_proto_debug.c    the debugger's commands (development, full)
 * hsx_proto_events.c   the subscription and its bounded event queue (development, full)
 * hsx_proto_system.c   the clock, the log (dmesg), the host's mailboxes
 *
 * The board takes canonical requests only (docs/wire.md, "Requests"): hsx.client
 * resolves aliases, checks every field as hsx execd does and composes the words of an
 * error from its code and fields, so the board's error replies carry no message. The
 * dispatcher reads a request's fields into hsx_call.arg by their number (hsx_keys.h),
 * finds the command in the table, checks the session, the task `pid` names and the
 * caller's right to change it as the command's flags say, and calls its handler. A
 * handler checks what is left, calls hsx_reply_ok() and writes its fields; nothing
 * may fail after that: a reply streams onto the link as it is written.
 */
#ifndef HSX_PROTO_H
#define HSX_PROTO_H

#include <stdint.h>

#include "hsx_cbor.h"
#include "hsx_exec.h"
#include "hsx_keys.h"

#define HSX_HOST_STEPS 10000u       /* a step longer than this is refused (see docs/port.md) */
#define HSX_MAX_LOCKS 4             /* PIDs one session may lock, pids in one filter */

/* A request field: a number or boolean in n; text, bytes or a list at p with n bytes
 * (items). p is NULL when the request does not have the field. */
typedef struct hsx_arg {
    const uint8_t *p;
    uint32_t n;
} hsx_arg;

typedef struct hsx_call {
    /* the members handlers use most come first, where Thumb's short loads reach */
    hsx_cbor_writer *w;             /* the reply's fields go here after hsx_reply_ok */
    uint8_t cmd;                    /* the command's key */
    int8_t session;                 /* the caller's session slot, or -1 */
    uint8_t writes;                 /* the command changes something (the reply cache) */
    uint8_t replied;                /* hsx_reply_ok was called */
    uint16_t extra;                 /* a field of the error reply (a key), or 0 */
    uint16_t extra_word;            /* its value is the word extra_word - 1, else */
    uint32_t extra_number;          /* this number */
    uint16_t error;                 /* the error code (a word) */
    uint8_t detailed;               /* the code has a detail the client joins to it: */
    uint16_t detail_word;           /* a word (mbx_ + wouldblock), */
    const char *detail_text;        /* a text (bad_image: + crc_mismatch), or */
    uint32_t detail;                /* a number (pid_locked: + 3) */
    hsx_arg arg[HSX_ARGS];
    hsx_task_info t;                /* the task `pid` names (commands with CMD_TASK) */
} hsx_call;

#define HAS(c, key) ((c)->arg[K_##key].p != 0)
#define ARG(c, key) ((c)->arg[K_##key].n)

typedef int (*hsx_handler)(hsx_call *c);    /* 0 ok, -1 failed (the error is set) */

/* Command flags (hsx_command_flags). */
#define CMD_WRITES 1                /* refused to observers; its reply is kept for a retry */
#define CMD_SESSION 2               /* needs a session */
#define CMD_TASK 4                  /* `pid` must name a task (hsx_call.t) */
#define CMD_TASK_IF 8               /* ... when it is given */
#define CMD_CONTROL 16              /* and the caller must be allowed to change it */
#define CMD_DEVELOPMENT 32          /* only in development and full */
#define CMD_FULL 64                 /* only in full */

/* The command table, by key from K_ping: two arrays, not an array of pairs, which would
 * pad each byte of flags to a word. A NULL handler: the variant lacks it. */
extern const hsx_handler hsx_command_handlers[HSX_COMMANDS];
extern const uint8_t hsx_command_flags[HSX_COMMANDS];

/* -- replies and errors ----------------------------------------------------------------- */
void hsx_reply_ok(hsx_call *c);
int hsx_fail(hsx_call *c, unsigned code);            /* -1 */
int hsx_fail_field(hsx_call *c, unsigned key);       /* bad_argument naming the field: -1 */
/* An error code made of a word and a detail: a text (suffix), else `number`: -1. */
int hsx_fail_with(hsx_call *c, unsigned prefix, const char *suffix, uint32_t number);
int hsx_fail_status(hsx_call *c, hsx_status status);  /* an hsx_exec status: 0 or -1 */
int hsx_fail_variant(hsx_call *c, unsigned variant); /* unsupported, variant_required */

/* -- writing ---------------------------------------------------------------------------- */
void hsx_put_key(hsx_cbor_writer *w, unsigned key);    /* a map key: the key's number */
void hsx_put_word(hsx_cbor_writer *w, unsigned word);  /* a word as a value: tag 39, number */
void hsx_put_coded(hsx_cbor_writer *w, unsigned word, uint32_t number);  /* `word` + number */
void hsx_field_u(hsx_cbor_writer *w, unsigned key, uint32_t value);
void hsx_field_k(hsx_cbor_writer *w, unsigned key, unsigned value);   /* a word as value */
void hsx_field_null(hsx_cbor_writer *w, unsigned key);
void hsx_field_b(hsx_cbor_writer *w, unsigned key, int value);
void hsx_field_s(hsx_cbor_writer *w, unsigned key, const char *text);   /* NULL: null */
void hsx_put_str(hsx_cbor_writer *w, const char *text);                 /* NULL: null */
void hsx_put_state(hsx_cbor_writer *w, hsx_state state);
void hsx_put_hex(hsx_cbor_writer *w, const uint8_t *data, uint32_t len);  /* hex text */
void hsx_put_f16(hsx_cbor_writer *w, uint16_t bits);     /* a half float, or "nan"/"inf" */
void hsx_put_seconds(hsx_cbor_writer *w, uint32_t ms);   /* a double, in seconds */
void hsx_put_addr(hsx_cbor_writer *w, int64_t addr);     /* the number, or null if < 0 */
void hsx_field_addr(hsx_cbor_writer *w, unsigned key, int64_t addr);

/* A row: fields of a struct written by a table, 4 bytes a field: the key (11 bits) with
 * the field's kind in its top 5 bits, and the member's offset (R_WORD: the value's key).
 * R_ADDR: an int64, null when negative. */
enum { R_U32, R_U16, R_U64, R_BOOL, R_CHARS, R_STR, R_STATE, R_EXIT, R_NULL,
       R_FALSE, R_ZERO, R_EMPTY_MAP, R_EMPTY_LIST, R_WORD, R_F16, R_LOCKED_BY, R_ADDR };
typedef struct hsx_row { uint16_t key, arg; } hsx_row;
#define ROW_KEY_BITS 11
#define ROW(key, kind, type, member) \
    {K_##key | (kind) << ROW_KEY_BITS, (uint16_t)offsetof(type, member)}
#define ROW_CONST(key, kind, value) {K_##key | (kind) << ROW_KEY_BITS, value}
void hsx_put_row(hsx_cbor_writer *w, const hsx_row *row, uint32_t fields, const void *base);

/* -- the commands' shared parts ------------------------------------------------------------ */
void hsx_put_task_row(hsx_cbor_writer *w, const hsx_task_info *t);
void hsx_put_tasks(hsx_cbor_writer *w, int live_only);
int hsx_live(hsx_state state);
/* `recent`: the output each task (or task `only`) kept that the caller may read. */
void hsx_put_recent(hsx_call *c, int one, uint32_t only);
/* A list field's items, read one by one: 1 and *value, 0 at the end, -1 malformed. */
typedef struct hsx_items {
    hsx_cbor_reader r;
    uint32_t left;
} hsx_items;
void hsx_items_open(const hsx_arg *arg, const uint8_t *end, hsx_items *items);
int hsx_items_next(hsx_items *items, hsx_cbor_item *item);
extern const uint8_t *hsx_request_end;     /* where the request's bytes end */

/* -- sessions (hsx_proto_sessions.c) -------------------------------------------------------- */
int hsx_session_find(const hsx_arg *id);            /* its slot, or -1 */
int hsx_session_observer(int slot);
void hsx_session_touch(int slot);
int hsx_control(hsx_call *c, uint32_t pid);          /* read_only, pid_locked:<pid> */
int hsx_owner(uint32_t pid);                          /* the session that locks pid, or -1 */
void hsx_put_session_handle(hsx_cbor_writer *w, int slot);    /* "s1", or null */
void hsx_sessions_expire(void);
uint32_t hsx_sessions_open(void);                    /* how many are open */
void hsx_sessions_end(void);                         /* a new host: every session goes */
void hsx_put_features(hsx_cbor_writer *w);
void hsx_put_variant_required(hsx_cbor_writer *w);  /* what it lacks -> the variant with it */
int hsx_cmd_session_open(hsx_call *c);
int hsx_cmd_session_lock(hsx_call *c);
int hsx_cmd_session_unlock(hsx_call *c);
int hsx_cmd_session_keepalive(hsx_call *c);
int hsx_cmd_session_close(hsx_call *c);
int hsx_cmd_session_list(hsx_call *c);

/* -- values and commands (hsx_proto_values.c) ---------------------------------------------- */
int hsx_cmd_val_list(hsx_call *c);
int hsx_cmd_val_get(hsx_call *c);
int hsx_cmd_val_set(hsx_call *c);
int hsx_cmd_val_stats(hsx_call *c);
int hsx_cmd_cmd_list(hsx_call *c);
int hsx_cmd_cmd_call(hsx_call *c);
int hsx_cmd_cmd_stats(hsx_call *c);

/* -- the debugger (hsx_proto_debug.c; development, full) ------------------------------------- */
int hsx_cmd_bp_set(hsx_call *c);
int hsx_cmd_bp_clear(hsx_call *c);
int hsx_cmd_bp_clear_all(hsx_call *c);
int hsx_cmd_bp_enable(hsx_call *c);
int hsx_cmd_bp_disable(hsx_call *c);
int hsx_cmd_bp_list(hsx_call *c);
int hsx_cmd_run_to(hsx_call *c);
int hsx_cmd_stack_info(hsx_call *c);
int hsx_cmd_watch_add(hsx_call *c);
int hsx_cmd_watch_remove(hsx_call *c);
int hsx_cmd_watch_list(hsx_call *c);
int hsx_cmd_trace_on(hsx_call *c);
int hsx_cmd_trace_off(hsx_call *c);
int hsx_cmd_trace_records(hsx_call *c);
int hsx_cmd_trace_status(hsx_call *c);
int hsx_cmd_jump(hsx_call *c);
void hsx_debug_session_closed(int slot);    /* its breakpoints and watches go (-1: all) */

/* -- events (hsx_proto_events.c; development, full) ------------------------------------------ */
void hsx_events_listener(const hsx_event *event);
int hsx_events_send(void);                  /* send what is queued; 1 when some are left */
void hsx_events_session_closed(int slot);   /* -1: every session's (a new host) */
int hsx_events_saturated(void);             /* the owner's critical events fill the queue */
uint32_t hsx_events_last_seq(void);
int hsx_cmd_events_subscribe(hsx_call *c);
int hsx_cmd_events_unsubscribe(hsx_call *c);
int hsx_cmd_events_ack(hsx_call *c);
int hsx_cmd_stdio_subscribe(hsx_call *c, int unsubscribe);

/* -- the clock, the log, the host's mailboxes (hsx_proto_system.c) ---------------------------- */
uint32_t hsx_clock_budget(uint32_t slice);  /* instructions the tasks may run now */
void hsx_clock_ran(uint32_t instructions);
void hsx_put_clock(hsx_cbor_writer *w);     /* the `clock` field of a reply */
void hsx_proto_listener(const hsx_event *event);   /* every event: the log, then events */
void hsx_mailboxes_host_gone(void);         /* a new host: the old one's handles close */
int hsx_cmd_clock(hsx_call *c);             /* clock.status, start, stop, rate */
int hsx_cmd_dmesg(hsx_call *c);
int hsx_cmd_mailbox_snapshot(hsx_call *c);
int hsx_cmd_mailbox_open(hsx_call *c);
int hsx_cmd_mailbox_close(hsx_call *c);
int hsx_cmd_send(hsx_call *c);
int hsx_cmd_listen(hsx_call *c);

/* -- the link (hsx_proto.c) ------------------------------------------------------------------ */
void hsx_proto_stream_opened(uint32_t stream);   /* a new host's hello aborts them */
void hsx_proto_stream_closed(uint32_t stream);
uint32_t hsx_proto_now(void);
uint32_t hsx_proto_uptime_ms(void);              /* since the link's first poll */
uint32_t hsx_proto_boot(void);
void hsx_link_frame(uint8_t kind, uint8_t seq, const uint8_t *payload, uint32_t len);

#endif
