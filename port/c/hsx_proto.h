/* HSX C executive: what the protocol module's files share (not an API: hsx_exec.h is).
 *
 * hsx_proto.c       the link loop (hsx_exec_poll), frames, the hello, the reply cache,
 *                   the request envelope, dispatch, sessions and PID locks
 * hsx_proto_cmds.c  the commands of every variant (tasks, memory, stdio, values)
 * hsx_proto_debug.c the debugger's commands (development, full)
 * hsx_proto_events.c the subscription and the bounded event queue (development, full)
 *
 * A handler reads its fields with the hsx_arg_* functions (each answers bad_argument
 * itself), checks everything, then calls hsx_reply_ok() and writes its reply fields.
 * Nothing may fail after hsx_reply_ok(): a reply streams onto the link as it is written.
 */
#ifndef HSX_PROTO_H
#define HSX_PROTO_H

#include <stdint.h>

#include "hsx_cbor.h"
#include "hsx_exec.h"

#define HSX_VERSION "0.1.0"         /* hsx.__version__ (a test keeps them equal) */
#define HSX_PROTO_MESSAGE 112       /* bytes of an error message */
#define HSX_HOST_STEPS 10000u       /* a step longer than this is refused (see docs/port.md) */

typedef struct hsx_call {
    const uint8_t *req;             /* the request map */
    uint32_t len;
    hsx_cbor_writer *w;             /* the reply's fields go here after hsx_reply_ok */
    const char *name;               /* the command's canonical name */
    int session;                    /* the caller's session slot, or -1 */
    uint8_t replied;                /* hsx_reply_ok was called */
    uint8_t writes;                 /* the command changes something (the reply cache) */
    const char *error;              /* set by hsx_fail: the error code */
    char message[HSX_PROTO_MESSAGE];
    const char *extra_key;          /* one extra field of the error reply, or NULL */
    int64_t extra_number;
    const char *extra_text;         /* the extra field is this text, else the number */
} hsx_call;

typedef int (*hsx_handler)(hsx_call *c);    /* 0 ok, -1 failed (hsx_fail was called) */

/* -- replies and errors ----------------------------------------------------------------- */
void hsx_reply_ok(hsx_call *c);
/* An error reply: `code` and a message made of the NULL-terminated pieces. */
int hsx_fail(hsx_call *c, const char *code, const char *text, ...);
void hsx_msg_number(hsx_call *c, int64_t n);    /* append a number to the message */
int hsx_fail_status(hsx_call *c, hsx_status status, uint32_t pid);  /* an hsx_exec status */
void hsx_key(hsx_cbor_writer *w, const char *key);    /* a map key (a text string) */
void hsx_put_state(hsx_cbor_writer *w, hsx_state state);
void hsx_put_hex(hsx_cbor_writer *w, const uint8_t *data, uint32_t len);  /* hex text */
void hsx_put_f16(hsx_cbor_writer *w, uint16_t bits);     /* a half float, or "nan"/"inf" */
void hsx_put_seconds(hsx_cbor_writer *w, uint32_t ms);   /* a double, in seconds */
/* key: value pairs (a NULL text is null) */
void hsx_field_u(hsx_cbor_writer *w, const char *key, uint32_t value);
void hsx_field_u64(hsx_cbor_writer *w, const char *key, uint64_t value);
void hsx_field_s(hsx_cbor_writer *w, const char *key, const char *text);
void hsx_field_b(hsx_cbor_writer *w, const char *key, int value);

const char *hsx_code_with(const char *prefix, const char *suffix);   /* "pid_locked:" "3" */
const char *hsx_number_text(uint32_t value);        /* decimal, in a static buffer */

/* A field that is one item or a list of them ("pid": 3, "pid": [3, 4]): open it
 * (0 when absent or null; `left` items), then take its items one by one (1, 0 at the
 * end, -1 when malformed). */
typedef struct hsx_list {
    hsx_cbor_reader r;
    hsx_cbor_item first;
    uint64_t left;
    uint8_t array;
} hsx_list;

int hsx_list_open(const uint8_t *map, uint32_t len, const char *key, hsx_list *list);
int hsx_list_next(hsx_list *list, hsx_cbor_item *item);

/* -- arguments: 1 given and valid, 0 absent, -1 refused (the error is set) ------------- */
int hsx_arg_u32(hsx_call *c, const char *key, uint32_t *out, uint32_t lo, uint32_t hi);
int hsx_arg_u64(hsx_call *c, const char *key, uint64_t *out, uint64_t lo, uint64_t hi);
int hsx_arg_bool(hsx_call *c, const char *key, int *out);
int hsx_arg_text(hsx_call *c, const char *key, const char **text, uint32_t *len, uint32_t max);
/* NUL-terminated into out[size]; longer text is refused. */
int hsx_arg_cstr(hsx_call *c, const char *key, char *out, uint32_t size);
/* Binary data: a CBOR byte string, hex text, or (key_b64) base64 text (decoded in the
 * request, in place). */
int hsx_arg_data(hsx_call *c, const char *key, const char *key_b64, const uint8_t **data,
                 uint32_t *len);
/* bad_argument: "'<key>' must be <what>". */
int hsx_bad_type(hsx_call *c, const char *key, const char *what);
int hsx_arg_present(hsx_call *c, const char *key);
/* `key` must be given: the error "<cmd> requires '<key>'" otherwise. */
int hsx_required(hsx_call *c, int got, const char *key);
/* A task named by `pid` (required), as hsx_exec_task reports it; unknown_pid. */
int hsx_arg_task(hsx_call *c, hsx_task_info *info);
/* A field the host's gateway should have resolved (a symbol, "file:line"). */
int hsx_refuse_symbolic(hsx_call *c, const char *key);
/* The caller may change task `pid` (read_only for observers, pid_locked:<pid>). */
int hsx_control(hsx_call *c, uint32_t pid);
/* Whether a session owns `pid` (its slot), or -1. */
int hsx_owner(uint32_t pid);
void hsx_put_session_handle(hsx_cbor_writer *w, int slot);  /* "s1", or null */
void hsx_debug_session_closed(int slot);    /* its breakpoints and watches go */

/* -- the command table (hsx_proto_cmds.c, hsx_proto_debug.c) ----------------------------- */
#define HSX_CMD_WRITES 1            /* refused to observers; its reply is kept for a retry */
#define HSX_CMD_SESSION 2           /* needs a session */
#define HSX_CMD_DEVELOPMENT 4       /* only in development and full */
#define HSX_CMD_FULL 8              /* only in full */

typedef struct hsx_command {
    const char *names;              /* the canonical name, then aliases, space-separated */
    hsx_handler handler;            /* NULL: the variant lacks it */
    uint8_t flags;
} hsx_command;

extern const hsx_command hsx_commands[];     /* ends with {NULL} */
extern const hsx_command hsx_debug_commands[];
extern const hsx_command hsx_value_commands[];

/* The session commands (hsx_proto.c). */
int hsx_cmd_session_open(hsx_call *c);
int hsx_cmd_session_close(hsx_call *c);
int hsx_cmd_session_keepalive(hsx_call *c);
int hsx_cmd_session_list(hsx_call *c);

/* stdio's `recent` field (hsx_proto_cmds.c), and the `pid` whose output it reads. */
void hsx_put_recent(hsx_call *c, int one, uint32_t only);
int hsx_arg_output_of(hsx_call *c, int *one, uint32_t *pid);

/* A ps row (hsx_proto_cmds.c; also in replies of kill, pause, load ...). */
void hsx_put_task_row(hsx_cbor_writer *w, const hsx_task_info *info);

/* -- events (hsx_proto_events.c) --------------------------------------------------------- */
void hsx_events_listener(const hsx_event *event);
/* Send queued events while the link has nothing more urgent; 1 when some are left. */
int hsx_events_send(void);
void hsx_events_session_closed(int slot);   /* -1: every session's (a new host) */
int hsx_events_saturated(void);     /* the owner's critical events fill the queue: wait */
int hsx_cmd_subscribe(hsx_call *c);
int hsx_cmd_unsubscribe(hsx_call *c);
int hsx_cmd_ack(hsx_call *c);
int hsx_cmd_stdio_subscribe(hsx_call *c, int unsubscribe);
uint32_t hsx_events_last_seq(void);

/* -- the link (hsx_proto.c) ---------------------------------------------------------------- */
/* Streamed loads this host opened: a new host's hello aborts them. */
void hsx_proto_stream_opened(uint32_t stream);
void hsx_proto_stream_closed(uint32_t stream);
uint32_t hsx_proto_uptime_ms(void);         /* since the link's first poll */
/* Send one frame whose payload is already encoded (events). */
void hsx_link_frame(uint8_t kind, uint8_t seq, const uint8_t *payload, uint32_t len);

#endif
