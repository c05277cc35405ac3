/* HSX C executive: protocol v1 over a byte stream (docs/wire.md, docs/protocol.md).
 *
 * This file is the link's main loop (hsx_exec_poll): frames in, the hello, requests
 * checked and dispatched to the command tables, replies streamed out (and the last one
 * kept for a retry), events after replies, then a slice of the tasks. It also keeps the
 * sessions and their PID locks. The commands themselves are in hsx_proto_cmds.c and
 * hsx_proto_debug.c, events in hsx_proto_events.c.
 */
#include <stddef.h>

#include "hsx_frame.h"
#include "hsx_proto.h"

#ifndef HSX_POLL_SLICE                  /* instructions run per poll between requests */
#define HSX_POLL_SLICE 5000u
#endif
#ifndef HSX_REPLY_CACHE                 /* bytes of the last reply kept for a retry */
#define HSX_REPLY_CACHE HSX_MAX_FRAME
#endif
#define MAX_LOCKS 4                     /* PIDs one session may lock */
#define MAX_STREAMS 4                   /* streamed loads open at once (protocol v1) */

/* -- sessions ------------------------------------------------------------------------------ */

typedef struct session {
    uint8_t used, observer, auth;
    uint16_t number;                    /* the public handle "s<number>" */
    char id[17];                        /* the secret id, 16 hex digits */
    char client[24];
    uint32_t heartbeat_ms, created, last, max_events;
    uint32_t locks[MAX_LOCKS];
    uint8_t nlocks;
} session;

static session sessions[HSX_MAX_SESSIONS];
static uint16_t next_session_number = 1;

/* -- the link's state ------------------------------------------------------------------------ */

static uint8_t started;
static uint32_t boot_number, started_ms;
static uint32_t idle_ms;

/* At most once (docs/wire.md): the seqs of changing requests already run, over the last
 * half of the seq space, and the newest seq seen; the last reply if it fit the cache. */
static uint8_t seq_done[32];
static uint8_t seq_newest;
static uint8_t cache[HSX_REPLY_CACHE];
static uint32_t cache_len;
static uint8_t cache_seq, cache_whole;

static uint32_t open_streams[MAX_STREAMS];  /* streamed loads of this host (0: free) */

static uint32_t now(void) { return hsx_exec_hal()->now_ms(); }

static const hsx_link *link(void) { return hsx_exec_hal()->link; }

void hsx_link_frame(uint8_t kind, uint8_t seq, const uint8_t *payload, uint32_t len)
{
    hsx_frame_send(link(), kind, seq, payload, len);
}

void hsx_link_received(const uint8_t *data, uint32_t len) { hsx_frame_push(data, len); }

uint32_t hsx_exec_idle_ms(void) { return idle_ms; }

uint32_t hsx_proto_uptime_ms(void) { return now() - started_ms; }

/* -- small writers ----------------------------------------------------------------------------- */

void hsx_key(hsx_cbor_writer *w, const char *key) { hsx_cbor_put_str(w, key); }

void hsx_put_state(hsx_cbor_writer *w, hsx_state state)
{
    if (state == HSX_STATE_NONE)
        hsx_cbor_put_null(w);
    else
        hsx_cbor_put_str(w, hsx_state_name(state));
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

void hsx_field_u(hsx_cbor_writer *w, const char *key, uint32_t value)
{
    hsx_key(w, key);
    hsx_cbor_put_uint(w, value);
}

void hsx_field_u64(hsx_cbor_writer *w, const char *key, uint64_t value)
{
    hsx_key(w, key);
    hsx_cbor_put_uint(w, value);
}

void hsx_field_s(hsx_cbor_writer *w, const char *key, const char *text)
{
    hsx_key(w, key);
    if (text)
        hsx_cbor_put_str(w, text);
    else
        hsx_cbor_put_null(w);
}

void hsx_field_b(hsx_cbor_writer *w, const char *key, int value)
{
    hsx_key(w, key);
    hsx_cbor_put_bool(w, value);
}

/* An f16 value as protocol v1 reports it: a CBOR half float (the same number), NaN and
 * infinities spelled out as hsx execd's JSON does. */
void hsx_put_f16(hsx_cbor_writer *w, uint16_t bits)
{
    if ((bits & 0x7C00) == 0x7C00)
        hsx_cbor_put_str(w, bits & 0x3FF ? "nan" : bits & 0x8000 ? "-inf" : "inf");
    else
        hsx_cbor_put_half(w, bits);
}

void hsx_put_seconds(hsx_cbor_writer *w, uint32_t ms)
{
    union { double d; uint64_t bits; } v;
    v.d = ms / 1000.0;
    hsx_cbor_put_float_bits(w, v.bits, 8);
}

/* -- sessions and locks ---------------------------------------------------------------------------- */

int hsx_owner(uint32_t pid)
{
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        for (int i = 0; sessions[s].used && i < sessions[s].nlocks; i++)
            if (sessions[s].locks[i] == pid)
                return s;
    return -1;
}

int hsx_control(hsx_call *c, uint32_t pid)
{
    if (c->session >= 0 && sessions[c->session].observer)
        return hsx_fail(c, "read_only", "an observer session cannot change anything", NULL);
    int owner = hsx_owner(pid);
    if (owner >= 0 && owner != c->session) {
        hsx_fail(c, hsx_code_with("pid_locked:", hsx_number_text(pid)), "pid ", hsx_number_text(pid),
                 " is locked by session s", NULL);
        hsx_msg_number(c, sessions[owner].number);
        return -1;
    }
    return 0;
}

void hsx_put_session_handle(hsx_cbor_writer *w, int slot)
{
    char handle[8] = "s";
    const char *digits;
    uint32_t n = 1;
    if (slot < 0) {
        hsx_cbor_put_null(w);
        return;
    }
    for (digits = hsx_number_text(sessions[slot].number); *digits && n < 7; digits++)
        handle[n++] = *digits;
    hsx_cbor_put_text(w, handle, n);
}

static void session_close(int slot)
{
    hsx_events_session_closed(slot);
    hsx_debug_session_closed(slot);
    sessions[slot].used = 0;
}

static const char *const auth_names[] = {"PUBLIC", "USER", "ADMIN", "FACTORY"};

static void put_features(hsx_cbor_writer *w)
{
    static const char *const features[] = {"commands", "load_stream", "memory", "stdio",
        "values", "debug", "events", "stack", "trace", "watch", "observers"};
    uint32_t count = HSX_VARIANT == HSX_VARIANT_MINIMAL ? 5 : HSX_VARIANT == HSX_VARIANT_FULL ? 11 : 10;
    hsx_cbor_put_array(w, count);
    for (uint32_t i = 0; i < count; i++)
        hsx_cbor_put_str(w, features[i]);
}

static void put_session(hsx_cbor_writer *w, int slot, int own)
{
    session *s = &sessions[slot];
    uint32_t t = now();
    hsx_cbor_open_map(w);
    if (own) {
        hsx_key(w, "id");
        hsx_cbor_put_str(w, s->id);
    }
    hsx_key(w, "handle");
    hsx_put_session_handle(w, slot);
    hsx_key(w, "client");
    hsx_cbor_put_str(w, s->client);
    hsx_key(w, "observer");
    hsx_cbor_put_bool(w, s->observer);
    hsx_key(w, "heartbeat_s");
    hsx_put_seconds(w, s->heartbeat_ms);
    hsx_key(w, "features");
    put_features(w);
    hsx_key(w, "auth");
    hsx_cbor_put_str(w, auth_names[s->auth]);
    hsx_key(w, "max_events");
    hsx_cbor_put_uint(w, s->max_events);
    hsx_key(w, "pid_lock");
    hsx_cbor_put_array(w, s->nlocks);
    for (int i = 0; i < s->nlocks; i++)
        hsx_cbor_put_uint(w, s->locks[i]);
    hsx_key(w, "created_at");
    hsx_put_seconds(w, s->created);
    hsx_key(w, "age_s");
    hsx_put_seconds(w, t - s->created);
    hsx_key(w, "idle_s");
    hsx_put_seconds(w, t - s->last);
    hsx_cbor_put_end(w);
}

/* heartbeat_s: a number of seconds (an integer or a float) as ms, clamped to 1..300 s. */
static int arg_heartbeat(hsx_call *c, uint32_t *ms)
{
    hsx_cbor_item item;
    double seconds;
    if (!hsx_cbor_map_get(c->req, c->len, "heartbeat_s", &item) || item.type == HSX_CBOR_NULL)
        return 0;
    if (item.type == HSX_CBOR_UINT) {
        seconds = item.value > 1000000000u ? 1e9 : (double)item.value;
    } else if (item.type == HSX_CBOR_FLOAT && item.float_size == 8) {
        union { uint64_t bits; double d; } v = {item.value};
        seconds = v.d;
    } else if (item.type == HSX_CBOR_FLOAT && item.float_size == 4) {
        union { uint32_t bits; float f; } v = {(uint32_t)item.value};
        seconds = v.f;
    } else if (item.type == HSX_CBOR_FLOAT) {
        seconds = (double)(item.value & 0x7FFF) / 1024.0;   /* rough; halves are rare here */
    } else {
        return hsx_bad_type(c, "heartbeat_s", "a number 0.001..1000000000");
    }
    if (!(seconds >= 0.001 && seconds <= 1e9))
        return hsx_bad_type(c, "heartbeat_s", "a number 0.001..1000000000");
    *ms = seconds < 1 ? 1000 : seconds > 300 ? 300000 : (uint32_t)(seconds * 1000);
    return 1;
}

/* pid_lock: a PID or a list of them. */
static int arg_pids(hsx_call *c, const char *key, uint32_t *pids, uint8_t *count, uint32_t max)
{
    hsx_list list;
    hsx_cbor_item item;
    int got;
    *count = 0;
    if (!hsx_list_open(c->req, c->len, key, &list))
        return 0;
    if (list.left > max)
        return hsx_fail(c, "bad_argument", "this board takes at most ", hsx_number_text(max),
                        " pids in '", key, "'", NULL);
    while ((got = hsx_list_next(&list, &item)) > 0) {
        if (item.type != HSX_CBOR_UINT || item.value > UINT32_MAX)
            return hsx_bad_type(c, key, "an integer 0..0xFFFFFFFF or a list of them");
        uint32_t pid = (uint32_t)item.value, k = 0;
        while (k < *count && pids[k] != pid)
            k++;
        if (k == *count)
            pids[(*count)++] = pid;
    }
    return got < 0 ? -1 : 1;
}

static int arg_auth(hsx_call *c, uint8_t *auth)
{
    hsx_cbor_item item;
    *auth = 1;
    if (!hsx_cbor_map_get(c->req, c->len, "auth", &item) || item.type == HSX_CBOR_NULL)
        return 0;
    if (item.type == HSX_CBOR_UINT && item.value <= 3) {
        *auth = (uint8_t)item.value;
        return 1;
    }
    for (uint8_t i = 0; i < 4; i++)
        if (hsx_cbor_text_is(&item, auth_names[i])) {
            *auth = i;
            return 1;
        }
    return hsx_bad_type(c, "auth", "PUBLIC, USER, ADMIN, FACTORY or 0..3");
}

static void make_id(char *out, uint32_t a, uint32_t b)
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 8; i++) {
        out[i] = digits[(a >> (28 - 4 * i)) & 15];
        out[8 + i] = digits[(b >> (28 - 4 * i)) & 15];
    }
    out[16] = 0;
}

int hsx_cmd_session_open(hsx_call *c)
{
    session fresh = {0};
    int observer = 0, slot = -1;
    fresh.heartbeat_ms = 30000;
    fresh.max_events = HSX_EVENT_QUEUE / 32;
    hsx_cbor_item caps;
    if (arg_heartbeat(c, &fresh.heartbeat_ms) < 0 || hsx_arg_bool(c, "observer", &observer) < 0 ||
        arg_pids(c, "pid_lock", fresh.locks, &fresh.nlocks, MAX_LOCKS) < 0 ||
        arg_auth(c, &fresh.auth) < 0 || hsx_arg_cstr(c, "client", fresh.client, sizeof fresh.client) < 0)
        return -1;
    if (hsx_cbor_map_get(c->req, c->len, "capabilities", &caps) && caps.type != HSX_CBOR_MAP &&
        caps.type != HSX_CBOR_NULL)
        return hsx_bad_type(c, "capabilities", "an object {features, max_events}");
    if (!fresh.client[0]) {
        static const char unknown[] = "unknown";
        for (uint32_t i = 0; i < sizeof unknown; i++)
            fresh.client[i] = unknown[i];
    }
    if (observer && !HSX_HAS_OBSERVERS) {
        hsx_fail(c, "unsupported", "observer sessions need the full variant; this board runs ",
                 HSX_VARIANT_NAME, NULL);
        c->extra_key = "variant_required";
        c->extra_text = "full";
        return -1;
    }
    if (observer && fresh.nlocks)
        return hsx_fail(c, "bad_argument", "an observer session cannot lock pids", NULL);
    for (int i = 0; i < fresh.nlocks; i++) {
        int owner = hsx_owner(fresh.locks[i]);
        if (owner >= 0) {
            hsx_fail(c, hsx_code_with("pid_locked:", hsx_number_text(fresh.locks[i])), "pid ",
                     hsx_number_text(fresh.locks[i]), " is locked by another session", NULL);
            return -1;
        }
    }
    for (int s = 0; s < HSX_MAX_SESSIONS && slot < 0; s++)
        if (!sessions[s].used)
            slot = s;
    if (slot < 0)
        return hsx_fail(c, "too_many_sessions", "the board holds at most ",
                        hsx_number_text(HSX_MAX_SESSIONS), " sessions: close one first", NULL);
    fresh.used = 1;
    fresh.observer = (uint8_t)observer;
    fresh.number = next_session_number++;
    fresh.created = fresh.last = now();
    make_id(fresh.id, boot_number ^ (uint32_t)fresh.number * 0x9E3779B9u,
            fresh.created * 2654435761u ^ (uint32_t)(uintptr_t)c);
    sessions[slot] = fresh;
    hsx_reply_ok(c);
    hsx_key(c->w, "session");
    put_session(c->w, slot, 1);
    return 0;
}

int hsx_cmd_session_keepalive(hsx_call *c)
{
    hsx_reply_ok(c);
    hsx_key(c->w, "heartbeat_s");
    hsx_put_seconds(c->w, sessions[c->session].heartbeat_ms);
    return 0;
}

int hsx_cmd_session_close(hsx_call *c)
{
    int slot = c->session;
    hsx_reply_ok(c);
    hsx_key(c->w, "closed");
    hsx_put_session_handle(c->w, slot);
    session_close(slot);
    return 0;
}

int hsx_cmd_session_list(hsx_call *c)
{
    hsx_reply_ok(c);
    hsx_key(c->w, "sessions");
    hsx_cbor_open_array(c->w);
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        if (sessions[s].used)
            put_session(c->w, s, s == c->session);
    hsx_cbor_put_end(c->w);
    return 0;
}

static void expire_sessions(void)
{
    uint32_t t = now();
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        if (sessions[s].used && t - sessions[s].last > sessions[s].heartbeat_ms)
            session_close(s);
}

/* -- replies ------------------------------------------------------------------------------------------- */

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
        hsx_frame_begin(&out->tx, link(), 'R', out->seq);
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

static const uint8_t *id_start, *id_end;     /* the request's id, echoed as it came */

static void envelope(hsx_cbor_writer *w, const char *status)
{
    hsx_cbor_open_map(w);
    hsx_key(w, "version");
    hsx_cbor_put_uint(w, 1);
    hsx_key(w, "status");
    hsx_cbor_put_str(w, status);
    if (id_start) {
        hsx_key(w, "id");
        hsx_cbor_put_raw(w, id_start, (uint32_t)(id_end - id_start));
    }
}

void hsx_reply_ok(hsx_call *c)
{
    c->replied = 1;
    envelope(c->w, "ok");
}

static void put_error(hsx_call *c)
{
    hsx_cbor_writer *w = c->w;
    envelope(w, "error");
    hsx_key(w, "error");
    hsx_cbor_put_str(w, c->error);
    hsx_key(w, "message");
    hsx_cbor_put_str(w, c->message);
    if (c->extra_key) {
        hsx_key(w, c->extra_key);
        if (c->extra_text)
            hsx_cbor_put_str(w, c->extra_text);
        else
            hsx_cbor_put_int(w, c->extra_number);
    }
}

/* -- dispatch -------------------------------------------------------------------------------------------- */

/* Whether `name` (NUL-terminated) is one of the space-separated names. */
static int names_have(const char *names, const char *name)
{
    while (*names) {
        const char *n = name;
        while (*names && *names != ' ' && *names == *n) {
            names++;
            n++;
        }
        if ((*names == ' ' || *names == 0) && *n == 0)
            return 1;
        while (*names && *names != ' ')
            names++;
        while (*names == ' ')
            names++;
    }
    return 0;
}

static const hsx_command *find_command(const char *name)
{
    static const hsx_command *const tables[] = {hsx_commands, hsx_value_commands, hsx_debug_commands};
    for (int t = 0; t < 3; t++)
        for (const hsx_command *cmd = tables[t]; cmd->names; cmd++)
            if (names_have(cmd->names, name))
                return cmd;
    return NULL;
}

/* Whether some command is named `family`.something (for "unknown bp op 'x'"). */
static int is_family(const char *family)
{
    static const char *const families[] = {"bp", "clock", "cmd", "events", "load", "mailbox",
        "session", "stack", "step", "trace", "val", "watch", "run", "symbols", "mem", NULL};
    for (int i = 0; families[i]; i++)
        if (names_have(families[i], family))
            return 1;
    return 0;
}

/* `text` lower-cased into out; 0 if it does not fit or is empty. */
static int lower(const hsx_cbor_item *text, char *out, uint32_t size, uint32_t at)
{
    if (text->type != HSX_CBOR_TEXT || text->value == 0 || at + text->value >= size)
        return 0;
    for (uint32_t i = 0; i < text->value; i++) {
        uint8_t ch = text->data[i];
        out[at + i] = (char)(ch >= 'A' && ch <= 'Z' ? ch | 0x20 : ch);
    }
    out[at + text->value] = 0;
    return 1;
}

static void put_variant_required(hsx_call *c, uint8_t flags)
{
    const char *needed = flags & HSX_CMD_FULL ? "full" : "development";
    hsx_fail(c, "unsupported", c->name, flags & HSX_CMD_FULL ? " needs the full variant"
             : " needs the development or full variant", "; this board runs ", HSX_VARIANT_NAME, NULL);
    c->extra_key = "variant_required";
    c->extra_text = needed;
}

static int find_session(hsx_call *c)
{
    hsx_cbor_item item;
    c->session = -1;
    if (!hsx_cbor_map_get(c->req, c->len, "session", &item) || item.type == HSX_CBOR_NULL)
        return 0;
    if (item.type != HSX_CBOR_TEXT)
        return hsx_fail(c, "bad_request", "'session' must be text", NULL);
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        if (sessions[s].used && hsx_cbor_text_is(&item, sessions[s].id)) {
            c->session = s;
            sessions[s].last = now();
            return 0;
        }
    return hsx_fail(c, "session_required", "unknown or expired session", NULL);
}

/* Check the envelope, find the command and run it; 0, or -1 with the error set. */
static int dispatch(hsx_call *c)
{
    static char name[40];
    hsx_cbor_item item;
    const hsx_command *cmd = NULL;
    if (hsx_cbor_map_get(c->req, c->len, "version", &item) &&
        !(item.type == HSX_CBOR_UINT && item.value == 1)) {
        if (item.type != HSX_CBOR_UINT && item.type != HSX_CBOR_NINT)
            return hsx_fail(c, "bad_request", "'version' must be an integer", NULL);
        return hsx_fail(c, "unsupported_version", "this board speaks protocol version 1", NULL);
    }
    if (!hsx_cbor_map_get(c->req, c->len, "cmd", &item) || item.type != HSX_CBOR_TEXT ||
        item.value == 0)
        return hsx_fail(c, "bad_request", "a request needs 'cmd', a command name", NULL);
    c->name = name;
    if (!lower(&item, name, sizeof name, 0))
        return hsx_fail(c, "unknown_cmd", "unknown command", NULL);
    if (find_session(c) < 0)
        return -1;
    hsx_cbor_item op;
    if ((hsx_cbor_map_get(c->req, c->len, "op", &op) ||
         hsx_cbor_map_get(c->req, c->len, "action", &op)) && op.type == HSX_CBOR_TEXT) {
        uint32_t n = (uint32_t)item.value;
        int dotted = 0;
        for (uint32_t i = 0; i < n; i++)
            dotted |= name[i] == '.';
        if (!dotted && n + 1 < sizeof name) {
            name[n] = '.';
            if (lower(&op, name, sizeof name, n + 1) && (cmd = find_command(name)) == NULL) {
                name[n] = 0;
                if (is_family(name))
                    return hsx_fail(c, "bad_argument", "unknown ", name, " op", NULL);
            }
            name[n] = 0;
            if (cmd)
                name[n] = '.';
        }
    }
    if (!cmd)
        cmd = find_command(name);
    if (!cmd)
        return hsx_fail(c, "unknown_cmd", "unknown command '", name, "'", NULL);
    {   /* the canonical name, for messages */
        uint32_t n = 0;
        while (cmd->names[n] && cmd->names[n] != ' ' && n + 1 < sizeof name) {
            name[n] = cmd->names[n];
            n++;
        }
        name[n] = 0;
    }
    if (!cmd->handler) {
        put_variant_required(c, cmd->flags);
        return -1;
    }
    c->writes = cmd->flags & HSX_CMD_WRITES;
    if (c->writes && c->session >= 0 && sessions[c->session].observer)
        return hsx_fail(c, "read_only", "an observer session cannot change anything", NULL);
    if ((cmd->flags & HSX_CMD_SESSION) && c->session < 0)
        return hsx_fail(c, "session_required", name, " needs a 'session'", NULL);
    return cmd->handler(c);
}

/* -- requests and frames ------------------------------------------------------------------------------ */

static void nak(uint8_t seq, const char *error, const char *message)
{
    uint8_t buf[96];
    hsx_cbor_writer w;
    hsx_cbor_writer_init(&w, buf, sizeof buf);
    hsx_cbor_put_map(&w, 2);
    hsx_key(&w, "error");
    hsx_cbor_put_str(&w, error);
    hsx_key(&w, "message");
    hsx_cbor_put_str(&w, message);
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
    hsx_call c = {0};
    reply_stream out;
    uint8_t buffer[64];
    hsx_cbor_writer w;
    if (f->seq == 0)
        return nak(0, "bad_frame", "a request's seq is 1..255");
    if (hsx_cbor_check_map(f->payload, f->len) < 0)
        return nak(f->seq, "bad_payload", "the payload is not one CBOR map");
    seq_advance(f->seq);
    if (seq_bit(f->seq)) {              /* a retry of a change that ran: never twice */
        if (f->seq == cache_seq && cache_whole) {
            hsx_link_frame('R', f->seq, cache, cache_len);
            return;
        }
        return nak(f->seq, "reply_lost", "the request ran, and its reply is no longer kept");
    }
    c.req = f->payload;
    c.len = f->len;
    c.name = "request";
    c.session = -1;
    if (!hsx_cbor_map_find(c.req, c.len, "id", &id_start, &id_end))
        id_start = NULL;
    out.seq = f->seq;
    out.begun = 0;
    hsx_cbor_writer_init(&w, buffer, sizeof buffer);
    w.flush = reply_flush;
    w.ctx = &out;
    c.w = &w;
    cache_len = 0;
    cache_whole = 1;
    cache_seq = f->seq;
    int failed = dispatch(&c) < 0;
    if (failed && !c.replied)
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
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        if (sessions[s].used)
            session_close(s);
    hsx_events_session_closed(-1);
    for (int i = 0; i < MAX_STREAMS; i++)
        if (open_streams[i]) {
            hsx_exec_load_abort(open_streams[i]);
            open_streams[i] = 0;
        }
}

static void hello(void)
{
    uint8_t buf[224];
    hsx_cbor_writer w;
    const hsx_hal *hal = hsx_exec_hal();
    hsx_cbor_writer_init(&w, buf, sizeof buf);
    hsx_cbor_put_map(&w, 9);
    hsx_key(&w, "proto");
    hsx_cbor_put_uint(&w, 1);
    hsx_key(&w, "window");
    hsx_cbor_put_uint(&w, HSX_RX_WINDOW);
    hsx_key(&w, "max_frame");
    hsx_cbor_put_uint(&w, HSX_MAX_FRAME);
    hsx_key(&w, "variant");
    hsx_cbor_put_str(&w, HSX_VARIANT_NAME);
    hsx_key(&w, "features");
    put_features(&w);
    hsx_key(&w, "boot");
    hsx_cbor_put_uint(&w, boot_number);
    hsx_key(&w, "board");
    hsx_cbor_put_str(&w, hal->board ? hal->board : "unknown");
    hsx_key(&w, "hsx_version");
    hsx_cbor_put_str(&w, HSX_VERSION);
    hsx_key(&w, "server");
    hsx_cbor_put_str(&w, "hsx-exec");
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
    if (status == HSX_RX_TOO_LONG)
        return nak(f->seq, "too_long", "a frame longer than max_frame: dropped");
    if (status == HSX_RX_BAD_CRC)
        return nak(f->seq, "bad_crc", "a damaged frame (COBS or CRC): dropped");
    if (f->kind == 'H') {
        new_host();
        return hello();
    }
    if (f->kind == 'Q')
        return request(f);
    nak(f->seq, "bad_frame", "a host sends only H and Q frames");
}

int hsx_exec_poll(void)
{
    hsx_rx_frame frame;
    hsx_rx_status status;
    uint32_t next = UINT32_MAX, ran;
    int frames = 0;
    if (!started) {
        const hsx_hal *hal = hsx_exec_hal();
        started = 1;
        started_ms = hal->now_ms();
        boot_number = hal->boot ? hal->boot : hal->now_ms() * 2654435761u + 1;
#if HSX_HAS_EVENTS
        hsx_exec_set_listener(hsx_events_listener);
#endif
        hello();
    }
    while (frames < 8 && (status = hsx_frame_receive(&frame)) != HSX_RX_NONE) {
        on_frame(status, &frame);
        frames++;
    }
    int events_left = hsx_events_send();
    expire_sessions();
    ran = hsx_events_saturated() ? 0 : hsx_exec_run(HSX_POLL_SLICE, &next);
    idle_ms = ran || events_left || hsx_frame_pending() ? 0 : next;
    return idle_ms == 0;
}
