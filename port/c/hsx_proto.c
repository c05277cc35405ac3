/* HSX C executive: protocol v1 over a byte stream (docs/wire.md, docs/protocol.md).
 *
 * This file is the link's main loop (hsx_exec_poll): frames in, the hello, a request's
 * fields read into hsx_call.arg and dispatched by the command table (hsx_proto_cmds.c),
 * the reply streamed out (and the last one kept for a retry), events after replies,
 * then a slice of the tasks. Its writers put names as numbers (hsx_keys.h: keys, words
 * under tag 39), rows of fields by table, and error replies: a code and the fields
 * hsx.client words them from.
 */
#include <stddef.h>

#include "hsx_frame.h"
#include "hsx_proto.h"

HSX_COLD_CODE_BEGIN

#ifndef HSX_POLL_SLICE                  /* instructions run per poll between requests */
#define HSX_POLL_SLICE 5000u
#endif
#ifndef HSX_REPLY_CACHE                 /* bytes of the last reply kept for a retry */
#define HSX_REPLY_CACHE HSX_MAX_FRAME
#endif
#define MAX_STREAMS 4                   /* streamed loads open at once (protocol v1) */

static uint8_t started;
static uint32_t boot_number, started_ms, idle_ms;

/* At most once (docs/wire.md): the seqs of changing requests already run, over the last
 * half of the seq space, and the newest seq seen; the last reply if it fit the cache. */
static uint8_t seq_done[32];
static uint8_t seq_newest;
static uint8_t cache[HSX_REPLY_CACHE];
static uint32_t cache_len;
static uint8_t cache_seq, cache_whole;

static uint32_t open_streams[MAX_STREAMS];  /* streamed loads of this host (0: free) */
static const uint8_t hsx_arg_forms[HSX_ARGS] = HSX_ARG_FORMS;
const uint8_t *hsx_request_end;

uint32_t hsx_proto_now(void) { return hsx_exec_hal()->now_ms(); }
uint32_t hsx_proto_uptime_ms(void) { return hsx_proto_now() - started_ms; }
uint32_t hsx_proto_boot(void) { return boot_number; }
uint32_t hsx_exec_idle_ms(void) { return idle_ms; }
void hsx_link_received(const uint8_t *data, uint32_t len) { hsx_frame_push(data, len); }

void hsx_link_frame(uint8_t kind, uint8_t seq, const uint8_t *payload, uint32_t len)
{
    hsx_frame_send(hsx_exec_hal()->link, kind, seq, payload, len);
}

/* -- writers -------------------------------------------------------------------------------- */

HSX_NOINLINE void hsx_put_key(hsx_cbor_writer *w, unsigned key) { hsx_cbor_put_uint(w, key); }

HSX_NOINLINE void hsx_put_word(hsx_cbor_writer *w, unsigned word)
{
    hsx_cbor_put_tag(w, HSX_WORD_TAG);
    hsx_cbor_put_uint(w, word);
}

/* A code made of a word and a number (`size_clamped:100`): tag 39 over [word, number]. */
void hsx_put_coded(hsx_cbor_writer *w, unsigned word, uint32_t number)
{
    hsx_cbor_put_tag(w, HSX_WORD_TAG);
    hsx_cbor_put_array(w, 2);
    hsx_cbor_put_uint(w, word);
    hsx_cbor_put_uint(w, number);
}

HSX_NOINLINE void hsx_field_u(hsx_cbor_writer *w, unsigned key, uint32_t value)
{
    hsx_put_key(w, key);
    hsx_cbor_put_uint(w, value);
}

HSX_NOINLINE void hsx_field_k(hsx_cbor_writer *w, unsigned key, unsigned value)
{
    hsx_put_key(w, key);
    hsx_put_word(w, value);
}

void hsx_field_null(hsx_cbor_writer *w, unsigned key)
{
    hsx_put_key(w, key);
    hsx_cbor_put_null(w);
}

void hsx_field_b(hsx_cbor_writer *w, unsigned key, int value)
{
    hsx_put_key(w, key);
    hsx_cbor_put_bool(w, value);
}

HSX_NOINLINE void hsx_put_str(hsx_cbor_writer *w, const char *text)
{
    if (text)
        hsx_cbor_put_str(w, text);
    else
        hsx_cbor_put_null(w);
}

HSX_NOINLINE void hsx_field_s(hsx_cbor_writer *w, unsigned key, const char *text)
{
    hsx_put_key(w, key);
    hsx_put_str(w, text);
}

void hsx_put_state(hsx_cbor_writer *w, hsx_state state)
{
    hsx_put_str(w, state == HSX_STATE_NONE ? NULL : hsx_state_name(state));
}

void hsx_put_hex(hsx_cbor_writer *w, const uint8_t *data, uint32_t len)
{
    static const char digits[] = "0123456789abcdef";
    hsx_cbor_put_text_start(w, len * 2);
    for (uint32_t i = 0; i < len; i++) {
        char pair[2] = {digits[data[i] >> 4], digits[data[i] & 15]};
        hsx_cbor_put_raw(w, (const uint8_t *)pair, 2);
    }
}

/* An f16 value as protocol v1 reports it: a CBOR half float (the same number), NaN and
 * infinities spelled out as hsx execd's JSON does. */
void hsx_put_f16(hsx_cbor_writer *w, uint16_t bits)
{
    if ((bits & 0x7C00) == 0x7C00)
        hsx_put_word(w, bits & 0x3FF ? K_nan : bits & 0x8000 ? K_minus_inf : K_inf);
    else
        hsx_cbor_put_half(w, bits);
}

void hsx_put_seconds(hsx_cbor_writer *w, uint32_t ms)
{
    union { double d; uint64_t bits; } v;
    v.d = ms / 1000.0;
    hsx_cbor_put_float_bits(w, v.bits, 8);
}

void hsx_put_addr(hsx_cbor_writer *w, int64_t addr)
{
    if (addr < 0)
        hsx_cbor_put_null(w);
    else
        hsx_cbor_put_uint(w, (uint32_t)addr);
}

void hsx_field_addr(hsx_cbor_writer *w, unsigned key, int64_t addr)
{
    hsx_put_key(w, key);
    hsx_put_addr(w, addr);
}

/* Every key fits a row's key bits (a negative size stops the build if not). */
typedef char hsx_row_keys_fit[HSX_KEYS <= 1u << ROW_KEY_BITS ? 1 : -1];

void hsx_put_row(hsx_cbor_writer *w, const hsx_row *row, uint32_t fields, const void *base)
{
    const uint8_t *b = (const uint8_t *)base;
    for (; fields--; row++) {
        const uint8_t *at = b + row->arg;
        hsx_put_key(w, row->key & ((1u << ROW_KEY_BITS) - 1));
        switch (row->key >> ROW_KEY_BITS) {
        case R_U32: hsx_cbor_put_uint(w, *(const uint32_t *)(const void *)at); break;
        case R_U16: hsx_cbor_put_uint(w, *(const uint16_t *)(const void *)at); break;
        case R_U64: hsx_cbor_put_uint(w, *(const uint64_t *)(const void *)at); break;
        case R_BOOL: hsx_cbor_put_bool(w, *at); break;
        case R_CHARS: hsx_cbor_put_str(w, (const char *)at); break;
        case R_STR: hsx_put_str(w, *(const char *const *)(const void *)at); break;
        case R_STATE: hsx_put_state(w, *(const hsx_state *)(const void *)at); break;
        case R_EXIT:                    /* an int32, valid when the byte after it is set */
            if (at[4])
                hsx_cbor_put_int(w, *(const int32_t *)(const void *)at);
            else
                hsx_cbor_put_null(w);
            break;
        case R_NULL: hsx_cbor_put_null(w); break;
        case R_FALSE: hsx_cbor_put_bool(w, 0); break;
        case R_ZERO: hsx_cbor_put_uint(w, 0); break;
        case R_EMPTY_MAP: hsx_cbor_put_map(w, 0); break;
        case R_EMPTY_LIST: hsx_cbor_put_array(w, 0); break;
        case R_WORD: hsx_put_word(w, row->arg); break;
        case R_F16: hsx_put_f16(w, *(const uint16_t *)(const void *)at); break;
        case R_LOCKED_BY:
            hsx_put_session_handle(w, hsx_owner(*(const uint32_t *)(const void *)at));
            break;
        default: hsx_put_addr(w, *(const int64_t *)(const void *)at); break;
        }
    }
}

/* -- errors ------------------------------------------------------------------------------------- */

int hsx_fail(hsx_call *c, unsigned code)
{
    c->error = (uint16_t)code;
    return -1;
}

int hsx_fail_field(hsx_call *c, unsigned key)
{
    c->extra = K_field;
    c->extra_word = (uint16_t)(key + 1);
    return hsx_fail(c, K_bad_argument);
}

/* A code with a detail the client joins to it: a number, or a text (`suffix`, which
 * must last until the reply is written: the executive's last detail does). */
int hsx_fail_with(hsx_call *c, unsigned prefix, const char *suffix, uint32_t number)
{
    c->detail_text = suffix;
    c->detail = number;
    c->detailed = 1;
    return hsx_fail(c, prefix);
}

int hsx_fail_variant(hsx_call *c, unsigned variant)
{
    c->extra = K_variant_required;
    c->extra_word = (uint16_t)(variant + 1);
    return hsx_fail(c, K_unsupported);
}

/* The protocol's error codes of the hsx_exec statuses (as hsx execd's). */
static const uint16_t status_codes[] = {
    [HSX_ERR_BAD_ARGUMENT] = K_bad_argument, [HSX_ERR_UNKNOWN_PID] = K_unknown_pid,
    [HSX_ERR_TASK_ENDED] = K_task_ended, [HSX_ERR_BAD_IMAGE] = K_bad_image,
    [HSX_ERR_TOO_MANY_TASKS] = K_too_many_tasks, [HSX_ERR_LAYOUT] = K_layout,
    [HSX_ERR_IMAGE_TOO_LARGE] = K_image_too_large, [HSX_ERR_MAILBOX_LIMIT] = K_mailbox_limit,
    [HSX_ERR_METADATA_MAILBOX] = K_metadata_mailbox, [HSX_ERR_APP_EXISTS] = K_app_exists,
    [HSX_ERR_UNKNOWN_STREAM] = K_unknown_stream, [HSX_ERR_TOO_MANY_STREAMS] = K_too_many_streams,
    [HSX_ERR_STDIN_FULL] = K_stdin_full, [HSX_ERR_MAILBOX] = K_mbx_,
    [HSX_ERR_VALUE] = K_val_, [HSX_ERR_COMMAND] = K_cmd_, [HSX_ERR_UNKNOWN_NAME] = K_unknown_name,
    [HSX_ERR_UNKNOWN_BREAKPOINT] = K_unknown_breakpoint,
    [HSX_ERR_TOO_MANY_BREAKPOINTS] = K_too_many_breakpoints,
    [HSX_ERR_UNKNOWN_WATCH] = K_unknown_watch, [HSX_ERR_TOO_MANY_WATCHES] = K_too_many_watches,
    [HSX_ERR_BAD_ADDRESS] = K_bad_address, [HSX_ERR_UNSUPPORTED] = K_unsupported,
    [HSX_ERR_STATIC_BREAKPOINT] = K_static_breakpoint,
};

/* The status names after mbx_, val_ and cmd_ (docs/mailboxes.md, docs/values.md). */
static const uint16_t mailbox_names[] = {K_ok, K_wouldblock, K_invalid_handle, K_no_data,
    K_msg_too_large, K_no_descriptor, 0, K_timeout, K_invalid_argument, K_access_denied};
static const uint16_t registry_names[] = {K_ok, K_enoent, K_eperm, K_enospc, K_einval,
    K_eexist, K_ebusy, K_efail};

int hsx_fail_status(hsx_call *c, hsx_status status)
{
    const char *detail = hsx_exec_last_detail();
    unsigned code;
    if (status == HSX_OK)
        return 0;
    if ((unsigned)status >= sizeof status_codes / sizeof *status_codes)
        status = HSX_ERR_BAD_ARGUMENT;
    code = status_codes[status];
    if (status == HSX_ERR_MAILBOX || status == HSX_ERR_VALUE || status == HSX_ERR_COMMAND) {
        uint32_t n = 0;
        unsigned name = 0;
        for (const char *d = detail; *d >= '0' && *d <= '9'; d++)
            n = n * 10 + (uint32_t)(*d - '0');
        if (status == HSX_ERR_MAILBOX)
            name = n < sizeof mailbox_names / 2 ? mailbox_names[n] : 0;
        else if (n < sizeof registry_names / 2)
            name = n == 6 && status == HSX_ERR_COMMAND ? K_enoasync : registry_names[n];
        c->extra = (uint16_t)(status == HSX_ERR_MAILBOX ? K_mbx_status
                             : status == HSX_ERR_VALUE ? K_val_status : K_cmd_status);
        c->extra_number = n;
        if (name) {
            c->detail_word = (uint16_t)name;
            c->detailed = 1;
            return hsx_fail(c, code);
        }
    } else if (status != HSX_ERR_BAD_IMAGE && status != HSX_ERR_APP_EXISTS) {
        return hsx_fail(c, code);
    }
    return hsx_fail_with(c, code, detail, 0);
}

/* -- a request's fields -------------------------------------------------------------------------- */

void hsx_items_open(const hsx_arg *arg, const uint8_t *end, hsx_items *items)
{
    hsx_cbor_item head;
    items->r.p = arg->p;
    items->r.end = arg->p ? end : arg->p;     /* an absent list has no items */
    items->left = arg->p ? arg->n : 0;
    if (hsx_cbor_read(&items->r, &head) == 0 && head.type != HSX_CBOR_ARRAY)
        items->r.p = arg->p;            /* one item standing for a list of one */
}

int hsx_items_next(hsx_items *items, hsx_cbor_item *item)
{
    if (!items->left)
        return 0;
    items->left--;
    return hsx_cbor_read(&items->r, item) < 0 ? -1 : 1;
}

/* Read the (checked) request map's fields into c->arg: each known key (its number) whose
 * value has the key's form; another form is bad_argument naming it; other keys are
 * passed over. */
static int read_fields(hsx_call *c, const uint8_t *map, uint32_t len)
{
    hsx_cbor_reader r = {map, map + len};
    hsx_cbor_item item;
    hsx_request_end = map + len;
    hsx_cbor_read(&r, &item);
    for (uint64_t pairs = item.value; pairs; pairs--) {
        const uint8_t *at = r.p;
        int key = -1;
        if (hsx_cbor_read(&r, &item) < 0)
            return -1;
        if (item.type == HSX_CBOR_UINT && item.value < HSX_ARGS)
            key = (int)item.value;
        else if ((r.p = at, hsx_cbor_skip(&r)) < 0)
            return -1;
        at = r.p;
        if (hsx_cbor_read(&r, &item) < 0)
            return -1;
        if (item.type == HSX_CBOR_ARRAY || item.type == HSX_CBOR_MAP) {
            r.p = at;
            if (hsx_cbor_skip(&r) < 0)
                return -1;
        }
        if (key < 0 || item.type == HSX_CBOR_NULL)
            continue;
        hsx_arg *arg = &c->arg[key];
        uint8_t form = hsx_arg_forms[key];
        arg->p = item.data ? item.data : at;
        arg->n = item.value > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)item.value;
        if (form == A_BOOL && (item.type == HSX_CBOR_TRUE || item.type == HSX_CBOR_FALSE)) {
            arg->n = item.type == HSX_CBOR_TRUE;
        } else if (form == A_LIST) {
            arg->p = at;
            if (item.type != HSX_CBOR_ARRAY)
                arg->n = 1;
        } else if (!(form == A_UINT && item.type == HSX_CBOR_UINT) &&
                   !(form == A_TEXT && item.type == HSX_CBOR_TEXT) &&
                   !(form == A_BYTES && item.type == HSX_CBOR_BYTES)) {
            return hsx_fail_field(c, (unsigned)key);
        }
    }
    return 0;
}

/* Find the command, check what its flags ask, run it; 0, or -1 with the error set. */
static int dispatch(hsx_call *c, const uint8_t *map, uint32_t len)
{
    if (read_fields(c, map, len) < 0)
        return -1;
    if (!HAS(c, cmd))
        return hsx_fail(c, K_bad_request);
    uint32_t key = ARG(c, cmd);
    if (key < HSX_FIRST_COMMAND || key >= HSX_FIRST_COMMAND + HSX_COMMANDS)
        return hsx_fail(c, K_unknown_cmd);
    c->cmd = (uint8_t)key;
    hsx_handler handler = hsx_command_handlers[key - HSX_FIRST_COMMAND];
    uint8_t flags = hsx_command_flags[key - HSX_FIRST_COMMAND];
    if (!handler)
        return hsx_fail_variant(c, flags & CMD_FULL ? K_full : K_development);
    if (HAS(c, session) && (c->session = (int8_t)hsx_session_find(&c->arg[K_session])) < 0)
        return hsx_fail(c, K_session_required);
    c->writes = flags & CMD_WRITES;
    if (c->writes && hsx_session_observer(c->session))
        return hsx_fail(c, K_read_only);
    if ((flags & CMD_SESSION) && c->session < 0)
        return hsx_fail(c, K_session_required);
    if ((flags & CMD_TASK) || ((flags & CMD_TASK_IF) && HAS(c, pid))) {
        if (!HAS(c, pid))
            return hsx_fail_field(c, K_pid);
        if (hsx_fail_status(c, hsx_exec_task(ARG(c, pid), &c->t)) < 0 ||
            ((flags & CMD_CONTROL) && hsx_control(c, c->t.pid) < 0))
            return -1;
    }
    return handler(c);
}

/* -- replies ---------------------------------------------------------------------------------------- */

/* A reply streams onto the link through a small buffer; a copy is kept for a retry when
 * it fits the cache. */
typedef struct reply_stream {
    hsx_frame_tx tx;
    uint8_t seq, begun;
} reply_stream;

static void reply_flush(hsx_cbor_writer *w)
{
    reply_stream *out = w->ctx;
    uint32_t n = (uint32_t)(w->p - w->start);
    if (!out->begun) {
        hsx_frame_begin(&out->tx, hsx_exec_hal()->link, 'R', out->seq);
        out->begun = 1;
    }
    hsx_frame_feed(&out->tx, w->start, n);
    if (cache_whole && cache_len + n <= sizeof cache) {
        for (uint32_t i = 0; i < n; i++)
            cache[cache_len + i] = w->start[i];
        cache_len += n;
    } else {
        cache_whole = 0;
    }
    w->p = w->start;
}

void hsx_reply_ok(hsx_call *c)
{
    c->replied = 1;
    hsx_cbor_open_map(c->w);
    hsx_field_k(c->w, K_status, K_ok);
}

static void put_error(hsx_call *c)
{
    hsx_cbor_writer *w = c->w;
    hsx_cbor_open_map(w);
    hsx_field_k(w, K_status, K_error);
    hsx_put_key(w, K_error);
    if (!c->detailed) {
        hsx_put_word(w, c->error);
    } else {                            /* `pid_locked:3`, `mbx_wouldblock`, `bad_image:...` */
        hsx_cbor_put_tag(w, HSX_WORD_TAG);
        hsx_cbor_put_array(w, 2);
        hsx_cbor_put_uint(w, c->error);
        if (c->detail_word)
            hsx_put_word(w, c->detail_word);
        else if (c->detail_text)
            hsx_cbor_put_str(w, c->detail_text);
        else
            hsx_cbor_put_uint(w, c->detail);
    }
    if (c->extra) {
        hsx_put_key(w, c->extra);
        if (c->extra_word)
            hsx_put_word(w, c->extra_word - 1u);
        else
            hsx_cbor_put_uint(w, c->extra_number);
    }
}

/* -- requests and frames ------------------------------------------------------------------------------ */

static void nak(uint8_t seq, unsigned error)
{
    uint8_t buf[24];
    hsx_cbor_writer w;
    hsx_cbor_writer_init(&w, buf, sizeof buf);
    hsx_cbor_put_map(&w, 1);
    hsx_field_k(&w, K_error, error);
    hsx_link_frame('N', seq, buf, (uint32_t)(w.p - buf));
}

static int seq_bit(uint8_t seq) { return seq_done[seq >> 3] >> (seq & 7) & 1; }

static void seq_set(uint8_t seq, int on)
{
    if (on)
        seq_done[seq >> 3] |= (uint8_t)(1u << (seq & 7));
    else
        seq_done[seq >> 3] &= (uint8_t)~(1u << (seq & 7));
}

/* seq + k in the host's numbering 1..255 (0 is never a request's). */
static uint8_t seq_add(uint8_t seq, uint32_t k) { return (uint8_t)((seq - 1 + k) % 255 + 1); }

/* A request moves the newest seq forward: the seqs that enter the forward half of the
 * numbering have not run in this round. */
static void seq_advance(uint8_t seq)
{
    if (seq_newest == 0) {
        seq_newest = seq;
        return;
    }
    uint32_t ahead = (uint32_t)(seq - seq_newest + 255) % 255;
    if (ahead == 0 || ahead > 127)
        return;                         /* a retry, or a late request: not newer */
    for (uint32_t k = 1; k <= ahead; k++)
        seq_set(seq_add(seq_newest, 127 + k), 0);
    seq_newest = seq;
}

static void request(const hsx_rx_frame *f)
{
    hsx_call c;
    reply_stream out;
    uint8_t buffer[64];
    hsx_cbor_writer w;
    if (f->seq == 0)
        return nak(0, K_bad_frame);
    if (hsx_cbor_check_map(f->payload, f->len) < 0)
        return nak(f->seq, K_bad_payload);
    seq_advance(f->seq);
    if (seq_bit(f->seq)) {              /* a retry of a change that ran: never twice */
        if (f->seq == cache_seq && cache_whole) {
            hsx_link_frame('R', f->seq, cache, cache_len);
            return;
        }
        return nak(f->seq, K_reply_lost);
    }
    for (uint32_t i = 0; i < sizeof c; i++)
        ((uint8_t *)&c)[i] = 0;
    c.session = -1;
    out.seq = f->seq;
    out.begun = 0;
    hsx_cbor_writer_init(&w, buffer, sizeof buffer);
    w.flush = reply_flush;
    w.ctx = &out;
    c.w = &w;
    cache_len = 0;
    cache_whole = 1;
    cache_seq = f->seq;
    if (dispatch(&c, f->payload, f->len) < 0 && !c.replied)
        put_error(&c);
    hsx_cbor_put_end(&w);
    reply_flush(&w);
    hsx_frame_end(&out.tx);
    if (c.writes)
        seq_set(f->seq, 1);             /* ran (or was refused): a retry gets this reply */
}

/* A new host (its hello): it knows nothing of the previous one's sequence numbers,
 * sessions or streamed loads, which end as when a connection to hsx execd closes. */
static void new_host(void)
{
    for (int i = 0; i < 32; i++)
        seq_done[i] = 0;
    seq_newest = 0;
    cache_whole = 0;
    hsx_sessions_end();
    hsx_events_session_closed(-1);
    hsx_mailboxes_host_gone();
    for (int i = 0; i < MAX_STREAMS; i++)
        if (open_streams[i]) {
            hsx_exec_load_abort(open_streams[i]);
            open_streams[i] = 0;
        }
}

static void hello(void)
{
    uint8_t buf[256];
    hsx_cbor_writer w;
    const hsx_hal *hal = hsx_exec_hal();
    hsx_cbor_writer_init(&w, buf, sizeof buf);
    hsx_cbor_put_array(&w, 2);          /* the key table's digest first: the host checks it */
    hsx_cbor_put_uint(&w, HSX_KEYS_DIGEST);
    hsx_cbor_put_map(&w, 9);
    hsx_field_u(&w, K_proto, 1);
    hsx_field_u(&w, K_window, HSX_RX_WINDOW);
    hsx_field_u(&w, K_max_frame, HSX_MAX_FRAME);
    hsx_field_k(&w, K_variant, K_minimal - 1 + HSX_VARIANT);
    hsx_put_key(&w, K_features);
    hsx_put_features(&w);
    hsx_field_u(&w, K_boot, boot_number);
    hsx_field_s(&w, K_board, hal->board ? hal->board : "unknown");
    hsx_field_s(&w, K_hsx_version, HSX_VERSION);
    hsx_field_k(&w, K_server, K_hsx_exec);
    hsx_link_frame('H', 0, buf, (uint32_t)(w.p - buf));
}

/* Streamed loads of this host, so that a new host's hello frees them. */
void hsx_proto_stream_opened(uint32_t stream)
{
    for (int i = 0; i < MAX_STREAMS; i++)
        if (!open_streams[i]) {
            open_streams[i] = stream;
            return;
        }
}

void hsx_proto_stream_closed(uint32_t stream)
{
    for (int i = 0; i < MAX_STREAMS; i++)
        if (open_streams[i] == stream)
            open_streams[i] = 0;
}

static void on_frame(hsx_rx_status status, const hsx_rx_frame *f)
{
    if (status != HSX_RX_FRAME)
        return nak(f->seq, status == HSX_RX_TOO_LONG ? K_too_long : K_bad_crc);
    if (f->kind == 'H') {
        new_host();
        return hello();
    }
    if (f->kind == 'Q')
        return request(f);
    nak(f->seq, K_bad_frame);
}

int hsx_exec_poll(void)
{
    hsx_rx_frame frame;
    hsx_rx_status status;
    uint32_t next = UINT32_MAX, ran, budget;
    int frames = 0;
    const hsx_hal *hal = hsx_exec_hal();
    if (!hal->link)                     /* no host link: firmware driving it directly */
        return hsx_exec_run(HSX_POLL_SLICE, &idle_ms) != 0;
    if (!started) {
        started = 1;
        started_ms = hal->now_ms();
        boot_number = hal->boot ? hal->boot : hal->now_ms() * 2654435761u + 1;
        hsx_exec_set_listener(hsx_proto_listener);
        hello();
    }
    while (frames < 8 && (status = hsx_frame_receive(&frame)) != HSX_RX_NONE) {
        on_frame(status, &frame);
        frames++;
    }
    int events_left = hsx_events_send();
    hsx_sessions_expire();
    budget = hsx_events_saturated() ? 0 : hsx_clock_budget(HSX_POLL_SLICE);
    ran = budget ? hsx_exec_run(budget, &next) : 0;
    hsx_clock_ran(ran);
    if (!budget && next == UINT32_MAX)
        next = 1;                       /* a rate that allows nothing yet: look again soon */
    idle_ms = ran || events_left || hsx_frame_pending() ? 0 : next;
    return idle_ms == 0;
}

HSX_COLD_CODE_END
