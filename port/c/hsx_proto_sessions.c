/* HSX C executive: sessions and their PID locks on the link (docs/protocol.md
 * "Sessions"): session.open, keepalive, close, list, lock and unlock; what the variant
 * offers (features, variant_required); who may change a task (an
 * observer may not, a task another session locked may not); sessions that miss their
 * heartbeat expire, and a new host's hello ends them all.
 */
#include <stddef.h>

#include "hsx_proto.h"

HSX_COLD_CODE_BEGIN

typedef struct session {
    uint8_t used, observer, auth, nlocks;
    uint16_t number;                    /* the public handle "s<number>" */
    char id[17];                        /* the secret id, 16 hex digits */
    char client[24];
    uint32_t heartbeat_ms, created, last, max_events;
    uint32_t locks[HSX_MAX_LOCKS];
} session;

static session sessions[HSX_MAX_SESSIONS];
static uint16_t next_number = 1;

/* The session features of docs/variants.md the C executive has, in the order the
 * variants add them: minimal has the first six, development the next five, full all. */
static const uint16_t features[] = {K_commands, K_load_stream, K_mailbox, K_memory, K_stdio,
    K_values, K_debug, K_events, K_stack, K_trace, K_watch, K_observers};
#define OFFERED (HSX_HAS_OBSERVERS ? 12u : HSX_HAS_DEBUG ? 11u : 6u)

void hsx_put_features(hsx_cbor_writer *w)
{
    hsx_cbor_put_array(w, OFFERED);
    for (uint32_t i = 0; i < OFFERED; i++)
        hsx_put_word(w, features[i]);
}

void hsx_put_variant_required(hsx_cbor_writer *w)
{
    hsx_cbor_put_map(w, 12 - OFFERED);
    for (uint32_t i = OFFERED; i < 12; i++)
        hsx_field_k(w, features[i], i < 11 ? K_development : K_full);
}

int hsx_session_find(const hsx_arg *id)
{
    for (int s = 0; s < HSX_MAX_SESSIONS; s++) {
        uint32_t i = 0;
        while (i < id->n && i < 16 && sessions[s].id[i] == (char)id->p[i])
            i++;
        if (sessions[s].used && i == 16 && id->n == 16) {
            sessions[s].last = hsx_proto_now();
            return s;
        }
    }
    return -1;
}

uint32_t hsx_sessions_open(void)
{
    uint32_t open = 0;
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        open += sessions[s].used;
    return open;
}

int hsx_session_observer(int slot) { return slot >= 0 && sessions[slot].observer; }

HSX_NOINLINE int hsx_owner(uint32_t pid)
{
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        for (int i = 0; sessions[s].used && i < sessions[s].nlocks; i++)
            if (sessions[s].locks[i] == pid)
                return s;
    return -1;
}

int hsx_control(hsx_call *c, uint32_t pid)
{
    int owner = hsx_owner(pid);
    if (hsx_session_observer(c->session))
        return hsx_fail(c, K_read_only);
    if (owner >= 0 && owner != c->session)
        return hsx_fail_with(c, K_pid_locked, NULL, pid);
    return 0;
}

void hsx_put_session_handle(hsx_cbor_writer *w, int slot)
{
    char handle[8] = "s";
    uint32_t n = 1, number;
    if (slot < 0) {
        hsx_cbor_put_null(w);
        return;
    }
    number = sessions[slot].number;
    for (uint32_t d = 10000; d; d /= 10)
        if (number >= d || n > 1 || d == 1)
            handle[n++] = (char)('0' + number / d % 10);
    hsx_cbor_put_text(w, handle, n);
}

static void session_close(int slot)
{
    hsx_events_session_closed(slot);
    hsx_debug_session_closed(slot);
    sessions[slot].used = 0;
}

void hsx_sessions_expire(void)
{
    uint32_t now = hsx_proto_now();
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        if (sessions[s].used && now - sessions[s].last > sessions[s].heartbeat_ms)
            session_close(s);
}

void hsx_sessions_end(void)
{
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        if (sessions[s].used)
            session_close(s);
}

static const hsx_row session_row[] = {
    ROW(client, R_CHARS, session, client), ROW(observer, R_BOOL, session, observer),
    ROW(max_events, R_U32, session, max_events),
};

static void put_session(hsx_cbor_writer *w, int slot, int own)
{
    session *s = &sessions[slot];
    uint32_t now = hsx_proto_now();
    hsx_cbor_open_map(w);
    if (own)
        hsx_field_s(w, K_id, s->id);
    hsx_put_key(w, K_handle);
    hsx_put_session_handle(w, slot);
    hsx_put_row(w, session_row, 3, s);
    hsx_put_key(w, K_heartbeat_s);
    hsx_put_seconds(w, s->heartbeat_ms);
    hsx_put_key(w, K_features);
    hsx_put_features(w);
    hsx_field_k(w, K_auth, K_PUBLIC + s->auth);
    hsx_put_key(w, K_pid_lock);
    hsx_cbor_put_array(w, s->nlocks);
    for (int i = 0; i < s->nlocks; i++)
        hsx_cbor_put_uint(w, s->locks[i]);
    hsx_put_key(w, K_created_at);
    hsx_put_seconds(w, s->created);
    hsx_put_key(w, K_age_s);
    hsx_put_seconds(w, now - s->created);
    hsx_put_key(w, K_idle_s);
    hsx_put_seconds(w, now - s->last);
    hsx_cbor_put_end(w);
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
    int slot = -1;
    hsx_items items;
    hsx_cbor_item pid;
    uint32_t ms = ARG(c, heartbeat_ms);
    fresh.heartbeat_ms = !HAS(c, heartbeat_ms) ? 30000 : ms < 1000 ? 1000 : ms > 300000 ? 300000 : ms;
    fresh.max_events = HSX_EVENT_QUEUE / 32;
    fresh.auth = HAS(c, auth) ? (uint8_t)ARG(c, auth) : 1;
    fresh.observer = HAS(c, observer) && ARG(c, observer);
    if (ARG(c, auth) > 3)
        return hsx_fail_field(c, K_auth);
    if (ARG(c, client) >= sizeof fresh.client)
        return hsx_fail_field(c, K_client);
    for (uint32_t i = 0; i < ARG(c, client); i++)
        fresh.client[i] = (char)c->arg[K_client].p[i];
    if (!fresh.client[0])
        for (uint32_t i = 0; i < 8; i++)
            fresh.client[i] = "unknown"[i];
    hsx_items_open(&c->arg[K_pid_lock], hsx_request_end, &items);
    for (int got; (got = hsx_items_next(&items, &pid)) != 0;) {
        uint8_t k = 0;
        if (got < 0 || pid.type != HSX_CBOR_UINT || pid.value > UINT32_MAX)
            return hsx_fail_field(c, K_pid_lock);
        while (k < fresh.nlocks && fresh.locks[k] != pid.value)
            k++;
        if (k == HSX_MAX_LOCKS)
            return hsx_fail_field(c, K_pid_lock);
        if (k == fresh.nlocks)
            fresh.locks[fresh.nlocks++] = (uint32_t)pid.value;
    }
    if (fresh.observer && !HSX_HAS_OBSERVERS)
        return hsx_fail_variant(c, K_full);
    if (fresh.observer && fresh.nlocks)
        return hsx_fail_field(c, K_pid_lock);
    for (int i = 0; i < fresh.nlocks; i++)
        if (hsx_owner(fresh.locks[i]) >= 0)
            return hsx_fail_with(c, K_pid_locked, NULL, fresh.locks[i]);
    for (int s = 0; s < HSX_MAX_SESSIONS && slot < 0; s++)
        if (!sessions[s].used)
            slot = s;
    if (slot < 0)
        return hsx_fail(c, K_too_many_sessions);
    fresh.used = 1;
    fresh.number = next_number++;
    fresh.created = fresh.last = hsx_proto_now();
    make_id(fresh.id, hsx_proto_boot() ^ (uint32_t)fresh.number * 0x9E3779B9u,
            fresh.created * 2654435761u ^ (uint32_t)(uintptr_t)c);
    sessions[slot] = fresh;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_session);
    put_session(c->w, slot, 1);
    return 0;
}

int hsx_cmd_session_keepalive(hsx_call *c)
{
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_heartbeat_s);
    hsx_put_seconds(c->w, sessions[c->session].heartbeat_ms);
    return 0;
}

int hsx_cmd_session_close(hsx_call *c)
{
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_closed);
    hsx_put_session_handle(c->w, c->session);
    session_close(c->session);
    return 0;
}

/* session.lock / session.unlock: the PIDs of `pid_lock` (hsx.client sends `pid` so). */
static int lock_or_unlock(hsx_call *c, int lock)
{
    session *s = &sessions[c->session];
    hsx_items items;
    hsx_cbor_item pid;
    hsx_items_open(&c->arg[K_pid_lock], hsx_request_end, &items);
    if (!HAS(c, pid_lock))
        return hsx_fail_field(c, K_pid);
    if (lock && s->observer)
        return hsx_fail(c, K_read_only);
    for (int got; (got = hsx_items_next(&items, &pid)) != 0;) {
        uint8_t k = 0;
        if (got < 0 || pid.type != HSX_CBOR_UINT || pid.value > UINT32_MAX)
            return hsx_fail_field(c, K_pid);
        while (k < s->nlocks && s->locks[k] != pid.value)
            k++;
        if (!lock && k < s->nlocks) {
            s->locks[k] = s->locks[--s->nlocks];
        } else if (lock && k == s->nlocks) {
            if (hsx_control(c, (uint32_t)pid.value) < 0)
                return -1;
            if (k == HSX_MAX_LOCKS)
                return hsx_fail_field(c, K_pid);
            s->locks[s->nlocks++] = (uint32_t)pid.value;
        }
    }
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_session);
    put_session(c->w, c->session, 1);
    return 0;
}

int hsx_cmd_session_lock(hsx_call *c) { return lock_or_unlock(c, 1); }
int hsx_cmd_session_unlock(hsx_call *c) { return lock_or_unlock(c, 0); }

int hsx_cmd_session_list(hsx_call *c)
{
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_sessions);
    hsx_cbor_open_array(c->w);
    for (int s = 0; s < HSX_MAX_SESSIONS; s++)
        if (sessions[s].used)
            put_session(c->w, s, s == c->session);
    hsx_cbor_put_end(c->w);
    return 0;
}

HSX_COLD_CODE_END
