/* HSX C executive: what a host asks of the executive besides its tasks, in every variant
 * (docs/protocol.md): the clock that runs the tasks (clock.status, start, stop, rate),
 * the executive's log (dmesg) and the host's own mailboxes (mailbox.snapshot, open,
 * close, send, listen). Words are the host's: a log entry of a task's end or fault is
 * sent as the event it was, and hsx.client writes the sentence hsx execd logs.
 */
#include <stddef.h>

#include "hsx_proto.h"

HSX_COLD_CODE_BEGIN

#define LISTEN_MAX 16                   /* messages one listen takes at most */

/* -- the clock --------------------------------------------------------------------------------- */

static uint8_t clock_stopped;
static uint32_t clock_rate, clock_credit, clock_at;  /* instructions/s (0: no limit) */

uint32_t hsx_clock_budget(uint32_t slice)
{
    uint32_t now = hsx_proto_now(), elapsed = now - clock_at;
    if (clock_stopped)
        return 0;
    if (!clock_rate)
        return slice;
    clock_at = now;
    if (elapsed > 1000)
        elapsed = 1000;
    clock_credit += (uint32_t)((uint64_t)clock_rate * elapsed / 1000u);
    if (clock_credit > slice)
        clock_credit = slice;
    return clock_credit;
}

void hsx_clock_ran(uint32_t instructions)
{
    if (clock_rate)
        clock_credit -= instructions < clock_credit ? instructions : clock_credit;
}

void hsx_put_clock(hsx_cbor_writer *w)
{
    hsx_put_key(w, K_clock);
    hsx_cbor_put_map(w, 4);
    hsx_field_k(w, K_state, clock_stopped ? K_stopped : K_running);
    hsx_field_b(w, K_running, !clock_stopped);
    hsx_field_k(w, K_mode, clock_stopped ? K_stopped : clock_rate ? K_rate : K_running);
    hsx_field_u(w, K_rate_hz, clock_rate);
}

int hsx_cmd_clock(hsx_call *c)
{
    if (c->cmd == K_clock_start || c->cmd == K_clock_stop)
        clock_stopped = c->cmd == K_clock_stop;
    if (c->cmd == K_clock_rate) {
        if (!HAS(c, rate))
            return hsx_fail_field(c, K_rate);
        clock_rate = ARG(c, rate);
        clock_credit = 0;
        clock_at = hsx_proto_now();
    }
    hsx_reply_ok(c);
    hsx_put_clock(c->w);
    return 0;
}

/* -- the log ------------------------------------------------------------------------------------ */

typedef struct log_entry {
    uint32_t seq, pid;
    const char *text;                   /* a message, or a fault's kind */
    int32_t number;                     /* a returned task's exit status */
    uint16_t event;                     /* 0: a message, else the key of its word */
    uint8_t level;
} log_entry;

static log_entry entries[HSX_DMESG_KEEP];
static uint32_t logged;                 /* entries ever logged: the last one's seq */
static const uint16_t levels[] = {K_debug, K_info, K_warning, K_error};

/* What hsx execd logs of an event (hsx.server.dmesg): messages, faults, tasks ending.
 * A message's text is kept by reference: the executive's own are constants. */
static void log_event(const hsx_event *e)
{
    log_entry *at = &entries[logged % HSX_DMESG_KEEP];
    uint16_t event;
    if (e->type == HSX_EV_FAULT)
        event = K_fault;
    else if (e->type == HSX_EV_TASK_STATE && e->state == HSX_STATE_RETURNED)
        event = K_returned;
    else if (e->type == HSX_EV_TASK_STATE && e->state == HSX_STATE_KILLED)
        event = K_killed;
    else if (e->type == HSX_EV_DMESG)
        event = 0;
    else
        return;
    at->seq = ++logged;
    at->pid = e->pid;
    at->event = event;
    at->text = event ? (event == K_fault ? e->what : NULL) : (const char *)e->data;
    at->number = event == K_returned && e->c ? (int32_t)e->a : INT32_MIN;
    at->level = event == K_fault ? 3 : event ? 1
              : e->what && e->what[0] == 'w' ? 2 : e->what && e->what[0] == 'e' ? 3 : 1;
}

int hsx_cmd_dmesg(hsx_call *c)
{
    uint32_t limit = HAS(c, limit) ? ARG(c, limit) : 100, first, shown = 0, seq;
    first = logged > HSX_DMESG_KEEP ? logged - HSX_DMESG_KEEP + 1 : 1;
    for (seq = logged; seq >= first && shown < limit; seq--) {     /* the newest `limit` */
        const log_entry *e = &entries[(seq - 1) % HSX_DMESG_KEEP];
        if (e->level >= ARG(c, level) && (!HAS(c, pid) || e->pid == ARG(c, pid)))
            shown++;
    }
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_logs);
    hsx_cbor_open_array(c->w);
    for (seq++; seq <= logged && shown; seq++) {
        const log_entry *e = &entries[(seq - 1) % HSX_DMESG_KEEP];
        if (e->level < ARG(c, level) || (HAS(c, pid) && e->pid != ARG(c, pid)))
            continue;
        hsx_cbor_open_map(c->w);
        hsx_field_u(c->w, K_seq, e->seq);
        hsx_field_k(c->w, K_level, levels[e->level]);
        hsx_field_u(c->w, K_pid, e->pid);
        if (e->event) {
            hsx_field_k(c->w, K_event, e->event);
            if (e->text)
                hsx_field_s(c->w, K_kind, e->text);
            if (e->number != INT32_MIN) {
                hsx_put_key(c->w, K_exit_status);
                hsx_cbor_put_int(c->w, e->number);
            }
        } else {
            hsx_field_s(c->w, K_message, e->text);
        }
        hsx_cbor_put_end(c->w);
    }
    hsx_cbor_put_end(c->w);
    return 0;
}

/* Every event passes here first: the log keeps what it logs, the subscription the rest. */
void hsx_proto_listener(const hsx_event *event)
{
    log_event(event);
#if HSX_HAS_EVENTS
    hsx_events_listener(event);
#endif
}

/* -- the host's mailboxes ------------------------------------------------------------------------- */

static uint32_t host_handles[HSX_HOST_HANDLES];     /* opened by mailbox.open (0: free) */

HSX_NOINLINE static uint32_t *host_slot(uint32_t handle)
{
    for (int i = 0; i < HSX_HOST_HANDLES; i++)
        if (host_handles[i] == handle)
            return &host_handles[i];
    return NULL;
}

/* A new host: the handles the previous one opened close, as at a disconnect. */
void hsx_mailboxes_host_gone(void)
{
    for (int i = 0; i < HSX_HOST_HANDLES; i++)
        if (host_handles[i]) {
            hsx_exec_mbx_close(host_handles[i]);
            host_handles[i] = 0;
        }
}

int hsx_cmd_mailbox_snapshot(hsx_call *c)
{
    hsx_mailbox_info m;
    uint32_t cursor = 0, active = 0;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_descriptors);
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_mailbox(&cursor, &m)) {
        uint32_t named = m.waiters < HSX_MAILBOX_WAITERS ? m.waiters : HSX_MAILBOX_WAITERS;
        active++;
        hsx_cbor_put_map(c->w, 11);
        hsx_field_u(c->w, K_descriptor_id, m.descriptor_id);
        hsx_field_s(c->w, K_target, m.target);
        hsx_field_u(c->w, K_namespace, m.namespace_);
        hsx_field_addr(c->w, K_owner_pid, m.has_owner ? m.owner_pid : -1);
        hsx_field_u(c->w, K_mode_mask, m.mode);
        hsx_field_u(c->w, K_capacity, m.capacity);
        hsx_field_u(c->w, K_bytes_used, m.bytes_used);
        hsx_field_u(c->w, K_queue_depth, m.queue_depth);
        hsx_field_u(c->w, K_next_seq, m.next_seq);
        hsx_field_u(c->w, K_handles, m.handles);
        hsx_put_key(c->w, K_waiters);
        hsx_cbor_put_array(c->w, named);
        for (uint32_t i = 0; i < named; i++)
            hsx_cbor_put_uint(c->w, m.waiting[i]);
    }
    hsx_cbor_put_end(c->w);
    hsx_put_key(c->w, K_stats);
    hsx_cbor_put_map(c->w, 2);
    hsx_field_u(c->w, K_max_descriptors, HSX_MAX_MAILBOXES);
    hsx_field_u(c->w, K_active_descriptors, active);
    return 0;
}

/* Open `target` for the host with `flags`; the caller must be allowed to change the
 * task that owns it (any writer, for a mailbox of all). 0, or -1 with the error set. */
static int open_target(hsx_call *c, uint32_t flags, uint32_t *handle)
{
    char target[48];
    uint32_t owner, n = ARG(c, target);
    if (!HAS(c, target) || n >= sizeof target)
        return hsx_fail_field(c, K_target);
    for (uint32_t i = 0; i < n; i++)
        target[i] = (char)c->arg[K_target].p[i];
    target[n] = 0;
    if (hsx_fail_status(c, hsx_exec_mbx_open(target, flags, handle)) < 0)
        return -1;
    hsx_exec_mbx_owner(*handle, &owner);
    if ((flags & 2 || !(flags & 4)) && (owner ? hsx_control(c, owner) < 0
                                               : hsx_session_observer(c->session)
                                                     && hsx_fail(c, K_read_only) < 0)) {
        hsx_exec_mbx_close(*handle);
        return -1;
    }
    return 0;
}

int hsx_cmd_mailbox_open(hsx_call *c)
{
    uint32_t handle, flags = HAS(c, flags) ? ARG(c, flags) : 3;
    uint32_t *slot = host_slot(0);
    if (!slot)
        return hsx_fail(c, K_too_many_handles);
    if (open_target(c, flags, &handle) < 0)
        return -1;
    *slot = handle;
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_handle, handle);
    hsx_put_key(c->w, K_target);
    hsx_cbor_put_text(c->w, (const char *)c->arg[K_target].p, ARG(c, target));
    hsx_field_b(c->w, K_tap, flags & 4);
    return 0;
}

/* The host's handle the request names (`handle`, one mailbox.open gave), or a handle
 * opened on `target` for this request alone (*temporary set). */
static int request_handle(hsx_call *c, uint32_t flags, uint32_t *handle, int *temporary)
{
    *temporary = !HAS(c, handle);
    if (*temporary)
        return open_target(c, flags, handle);
    *handle = ARG(c, handle);
    return host_slot(*handle) && *handle ? 0 : hsx_fail(c, K_unknown_handle);
}

int hsx_cmd_mailbox_close(hsx_call *c)
{
    uint32_t *slot = HAS(c, handle) && ARG(c, handle) ? host_slot(ARG(c, handle)) : NULL;
    if (!slot)
        return hsx_fail(c, K_unknown_handle);
    hsx_exec_mbx_close(ARG(c, handle));
    *slot = 0;
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_closed, ARG(c, handle));
    return 0;
}

int hsx_cmd_send(hsx_call *c)
{
    hsx_task_info t;
    uint32_t handle, woken, cursor = 0, before[HSX_MAX_TASKS], n = 0;
    int temporary;
    hsx_status status;
    if (request_handle(c, 2, &handle, &temporary) < 0)
        return -1;
    while (n < HSX_MAX_TASKS && hsx_exec_next_task(&cursor, &t))
        before[n++] = t.wakes;
    status = hsx_exec_mbx_send(handle, c->arg[K_data].p, ARG(c, data), ARG(c, flags),
                               ARG(c, channel), &woken);
    if (temporary)
        hsx_exec_mbx_close(handle);
    if (hsx_fail_status(c, status) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_mbx_status, 0);
    hsx_field_u(c->w, K_length, ARG(c, data));
    hsx_put_key(c->w, K_target);
    if (temporary)
        hsx_cbor_put_text(c->w, (const char *)c->arg[K_target].p, ARG(c, target));
    else
        hsx_cbor_put_null(c->w);
    hsx_put_key(c->w, K_woke);
    hsx_cbor_open_array(c->w);
    for (cursor = 0, n = 0; woken && n < HSX_MAX_TASKS && hsx_exec_next_task(&cursor, &t); n++)
        if (t.wakes != before[n])
            hsx_cbor_put_uint(c->w, t.pid);
    hsx_cbor_put_end(c->w);
    return 0;
}

int hsx_cmd_listen(hsx_call *c)
{
    uint8_t data[HSX_MAX_MESSAGE];
    hsx_mbx_message m;
    uint32_t handle, limit = HAS(c, limit) ? ARG(c, limit) : 5, size = sizeof data;
    int temporary;
    if (limit > LISTEN_MAX)
        limit = LISTEN_MAX;
    if (HAS(c, max_len) && ARG(c, max_len) < size)
        size = ARG(c, max_len);
    if (request_handle(c, 1, &handle, &temporary) < 0)
        return -1;
    /* the first message is taken before the reply starts: a refusal is still an error */
    hsx_status status = hsx_exec_mbx_recv(handle, data, size, &m);
    if (status != HSX_OK && !(status == HSX_ERR_MAILBOX && hsx_exec_last_detail()[0] == '3')) {
        if (temporary)
            hsx_exec_mbx_close(handle);
        return hsx_fail_status(c, status);
    }
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_messages);
    hsx_cbor_open_array(c->w);
    while (status == HSX_OK) {
        hsx_cbor_put_map(c->w, 6);
        hsx_put_key(c->w, K_text);          /* bytes: hsx.client adds data_hex */
        hsx_cbor_put_bytes(c->w, data, m.length < size ? m.length : size);
        hsx_field_u(c->w, K_length, m.length);
        hsx_field_u(c->w, K_flags, m.flags);
        hsx_field_u(c->w, K_channel, m.channel);
        hsx_field_u(c->w, K_src_pid, m.src_pid);
        hsx_field_b(c->w, K_overrun, m.flags & 8);
        status = --limit ? hsx_exec_mbx_recv(handle, data, size, &m) : HSX_ERR_MAILBOX;
    }
    hsx_cbor_put_end(c->w);
    if (temporary)
        hsx_exec_mbx_close(handle);
    return 0;
}

HSX_COLD_CODE_END
