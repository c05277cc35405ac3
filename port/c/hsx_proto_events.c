/* HSX C executive: events on the link (docs/protocol.md "Events", docs/wire.md "Events").
 *
 * One subscription (a board has one host): filters of event types and PIDs, and a queue
 * of HSX_EVENT_QUEUE bytes of encoded events waiting to be sent. Events are encoded when
 * they happen (the executive's listener) and sent after replies. When the queue is full
 * the oldest droppable event goes, and the host is told how many before the next event
 * (a `warning`); the debug_break, task_state and fault events of PIDs the subscriber's
 * session owns are never dropped for others: while they fill most of the queue, the
 * tasks do not run (hsx_events_saturated), as hsx execd's clock waits. hsx.client checks
 * the categories a subscription names; a category here matches the board's event types
 * it is a prefix of.
 */
#include <stddef.h>

#include "hsx_frame.h"
#include "hsx_proto.h"

HSX_COLD_CODE_BEGIN

#if HSX_HAS_EVENTS

#define MAX_CLAUSES 4
#define HEADER 7u                       /* an entry: length(2) critical(1) seq(4), then CBOR */
#define TEXT_PIECE 160u                 /* output longer than this goes as several events */
#define SEND_BATCH 8                    /* events per poll before requests are looked at */

/* The types a board emits, in hsx_event_type order. */
static const uint16_t type_keys[] = {K_task_state, K_debug_break, K_fault, K_stdout,
    K_stderr, K_mailbox_send, K_mailbox_recv, K_value_changed, K_watch_update, K_dmesg};
#define TYPES (sizeof type_keys / sizeof *type_keys)
#define CRITICAL_TYPES (1u << HSX_EV_TASK_STATE | 1u << HSX_EV_DEBUG_BREAK | 1u << HSX_EV_FAULT)
#define OUTPUT_TYPES (1u << HSX_EV_STDOUT | 1u << HSX_EV_STDERR)

typedef struct clause {
    uint32_t types;                     /* bit per board type */
    uint8_t npids;                      /* 0: every PID */
    uint32_t pids[HSX_MAX_LOCKS];
} clause;

static struct subscription {
    uint8_t active, nclauses;
    int8_t session;                     /* the subscriber's session slot, or -1 */
    uint32_t token, max, count, delivered, dropped_total, high_water, last_ack;
    clause clauses[MAX_CLAUSES];
    uint32_t dropped, first_dropped, last_dropped;      /* drops not yet reported */
} sub;

static uint8_t queue[HSX_EVENT_QUEUE];
static uint32_t queue_used, critical_bytes, seq, next_token = 1;

uint32_t hsx_events_last_seq(void) { return seq; }
int hsx_events_saturated(void) { return critical_bytes > sizeof queue * 3 / 4; }

/* -- the queue -------------------------------------------------------------------------- */

static uint32_t entry_size(const uint8_t *entry) { return HEADER + (entry[0] | (uint32_t)entry[1] << 8); }

static void remove_entry(uint8_t *entry)
{
    uint32_t size = entry_size(entry);
    uint8_t *end = queue + queue_used;
    if (entry[2])
        critical_bytes -= size;
    for (uint8_t *p = entry; p + size < end; p++)
        *p = p[size];
    queue_used -= size;
    sub.count--;
}

static void count_lost(uint32_t s)
{
    if (!sub.dropped)
        sub.first_dropped = s;
    sub.dropped++;
    sub.dropped_total++;
    sub.last_dropped = s;
}

/* Drop the oldest droppable event; 0 when only critical ones are queued. */
static int drop_oldest(void)
{
    for (uint8_t *e = queue; e < queue + queue_used; e += entry_size(e))
        if (!e[2]) {
            count_lost(e[3] | (uint32_t)e[4] << 8 | (uint32_t)e[5] << 16 | (uint32_t)e[6] << 24);
            remove_entry(e);
            return 1;
        }
    return 0;
}

/* -- filters ----------------------------------------------------------------------------------- */

static int wanted(uint32_t type, uint32_t pid)
{
    if (!sub.active)
        return 0;
    if ((OUTPUT_TYPES >> type & 1) && pid) {    /* a locked task's output is its owner's */
        int owner = hsx_owner(pid);
        if (owner >= 0 && owner != sub.session)
            return 0;
    }
    for (int i = 0; i < sub.nclauses; i++) {
        const clause *cl = &sub.clauses[i];
        int match = !cl->npids;
        for (int k = 0; k < cl->npids; k++)
            match |= cl->pids[k] == pid && pid;
        if ((cl->types >> type & 1) && match)
            return 1;
    }
    return 0;
}

/* -- encoding --------------------------------------------------------------------------------------- */

static void put_task_state(hsx_cbor_writer *w, const hsx_event *e)
{
    hsx_put_key(w, K_prev_state);
    hsx_put_state(w, e->prev);
    hsx_put_key(w, K_new_state);
    hsx_put_state(w, e->state);
    hsx_field_s(w, K_reason, hsx_reason_name(e->reason));
    switch (e->reason) {
    case HSX_REASON_LOADED: hsx_field_s(w, K_app_name, e->what); break;
    case HSX_REASON_RETURNED:
        hsx_put_key(w, K_exit_status);
        hsx_cbor_put_int(w, (int32_t)e->a);
        hsx_field_s(w, K_how, e->what);
        break;
    case HSX_REASON_SLEEP: hsx_field_u(w, K_ms, e->a); break;
    case HSX_REASON_MAILBOX_WAIT: hsx_field_u(w, K_handle, e->a); break;
    case HSX_REASON_MAILBOX_WAKE:
    case HSX_REASON_TIMEOUT:
        if (e->c)
            hsx_field_u(w, K_status, e->a);
        break;
    case HSX_REASON_FAULTED:
        hsx_field_s(w, K_kind, e->what);
        hsx_field_u(w, K_pc, e->pc);
        break;
    case HSX_REASON_DEBUG_BREAK:
        hsx_field_u(w, K_pc, e->pc);
        hsx_field_s(w, K_why, e->what);
        break;
    default: break;
    }
}

static void put_old_new(hsx_cbor_writer *w, const hsx_event *e)
{
    uint32_t half = e->len / 2;
    hsx_put_key(w, K_old);
    hsx_put_hex(w, e->data, half);
    hsx_put_key(w, K_new);
    hsx_put_hex(w, e->data + half, half);
}

static void put_debug_break(hsx_cbor_writer *w, const hsx_event *e)
{
    const char *why = e->what ? e->what : "breakpoint";
    hsx_field_u(w, K_pid, e->pid);
    hsx_field_u(w, K_pc, e->pc);
    hsx_field_s(w, K_reason, why);
    switch (why[0]) {
    case 'b':                                   /* breakpoint, brk */
        hsx_field_u(w, K_breakpoint_id, e->id);
        if (why[2] == 'k')
            hsx_field_u(w, K_code, e->a);
        else if (e->a)
            hsx_field_b(w, K_temporary, 1);
        break;
    case 's': hsx_field_u(w, K_executed, e->a); break;    /* step */
    case 'w':                                   /* watch */
        hsx_field_u(w, K_watch_id, e->id);
        hsx_field_addr(w, K_addr, e->addr);
        put_old_new(w, e);
        hsx_field_u(w, K_changed_by, e->b);
        break;
    case 'f':                                   /* fault */
        hsx_field_s(w, K_kind, e->what2);
        hsx_field_addr(w, K_addr, e->addr);
        hsx_field_s(w, K_message, e->what2);
        break;
    default: break;
    }
}

static const hsx_row fault_row[] = {
    ROW(kind, R_STR, hsx_event, what), ROW(pc, R_U32, hsx_event, pc),
    ROW(addr, R_ADDR, hsx_event, addr), ROW(message, R_STR, hsx_event, what),
};
static const hsx_row mailbox_row[] = {
    ROW(descriptor, R_U32, hsx_event, a), ROW(handle, R_U32, hsx_event, id),
    ROW(length, R_U32, hsx_event, b), ROW(channel, R_U32, hsx_event, c),
    ROW(src_pid, R_U32, hsx_event, d),
};

static void put_data(hsx_cbor_writer *w, const hsx_event *e, uint32_t from, uint32_t len)
{
    switch (e->type) {
    case HSX_EV_TASK_STATE: put_task_state(w, e); break;
    case HSX_EV_DEBUG_BREAK: put_debug_break(w, e); break;
    case HSX_EV_FAULT:
        hsx_put_row(w, fault_row, 4, e);
        break;
    case HSX_EV_STDOUT:
    case HSX_EV_STDERR:
    case HSX_EV_DMESG:
        if (e->type == HSX_EV_DMESG)
            hsx_field_s(w, K_level, e->what ? e->what : "info");
        hsx_put_key(w, e->type == HSX_EV_DMESG ? K_message : K_text);
        hsx_cbor_put_text(w, (const char *)e->data + from, len);
        break;
    case HSX_EV_MAILBOX_SEND:
    case HSX_EV_MAILBOX_RECV:
        hsx_put_row(w, mailbox_row, 5, e);
        break;
    case HSX_EV_VALUE_CHANGED:
        hsx_field_u(w, K_caller_pid, e->d);
        hsx_field_u(w, K_oid, e->a);
        hsx_field_u(w, K_group_id, e->a >> 8);
        hsx_field_u(w, K_value_id, e->a & 0xFF);
        hsx_field_u(w, K_old_f16, e->b);
        hsx_field_u(w, K_new_f16, e->c);
        hsx_put_key(w, K_old_value);
        hsx_put_f16(w, (uint16_t)e->b);
        hsx_put_key(w, K_new_value);
        hsx_put_f16(w, (uint16_t)e->c);
        hsx_field_k(w, K_reason, K_set);
        break;
    default:                                    /* watch_update */
        hsx_field_u(w, K_id, e->id);
        hsx_field_u(w, K_pid, e->pid);
        hsx_field_addr(w, K_addr, e->addr);
        hsx_field_u(w, K_length, e->len / 2);
        hsx_field_null(w, K_symbol);
        put_old_new(w, e);
        hsx_field_addr(w, K_pc, e->c ? (int64_t)e->pc : -1);
        break;
    }
}

/* Encode one event at the end of the queue; 0, or -1 when it does not fit. */
static int encode_at_end(const hsx_event *e, uint32_t from, uint32_t len, int critical)
{
    hsx_cbor_writer w;
    uint8_t *entry = queue + queue_used;
    uint32_t room = sizeof queue - queue_used, size;
    if (room <= HEADER)
        return -1;
    hsx_cbor_writer_init(&w, entry + HEADER, room - HEADER);
    hsx_cbor_put_map(&w, 4);
    hsx_field_u(&w, K_seq, seq);
    hsx_field_k(&w, K_type, type_keys[e->type]);
    hsx_field_addr(&w, K_pid, e->pid ? (int64_t)e->pid : -1);
    hsx_put_key(&w, K_data);
    hsx_cbor_open_map(&w);
    put_data(&w, e, from, len);
    hsx_cbor_put_end(&w);
    if (w.overflow)
        return -1;
    size = (uint32_t)(w.p - (entry + HEADER));
    entry[0] = (uint8_t)size;
    entry[1] = (uint8_t)(size >> 8);
    entry[2] = (uint8_t)critical;
    for (int i = 0; i < 4; i++)
        entry[3 + i] = (uint8_t)(seq >> (8 * i));
    queue_used += HEADER + size;
    if (critical)
        critical_bytes += HEADER + size;
    if (++sub.count > sub.high_water)
        sub.high_water = sub.count;
    return 0;
}

static void enqueue(const hsx_event *e, uint32_t from, uint32_t len)
{
    int critical = (CRITICAL_TYPES >> e->type & 1) && sub.session >= 0 &&
                   hsx_owner(e->pid) == sub.session;
    seq++;
    if (!wanted(e->type, e->pid))
        return;
    while (sub.count >= sub.max && drop_oldest())
        ;
    while (encode_at_end(e, from, len, critical) < 0)
        if (!drop_oldest()) {
            count_lost(seq);            /* even this one: the warning reports it */
            return;
        }
}

void hsx_events_listener(const hsx_event *event)
{
    uint32_t from = 0;
    if ((1u << event->type & (OUTPUT_TYPES | 1u << HSX_EV_DMESG)) == 0) {
        enqueue(event, 0, 0);
        return;
    }
    do {                                /* long output as several events, in order */
        uint32_t n = event->len - from < TEXT_PIECE ? event->len - from : TEXT_PIECE;
        enqueue(event, from, n);
        from += n;
    } while (from < event->len);
}

/* -- sending -------------------------------------------------------------------------------------- */

static void send_warning(void)
{
    uint8_t buf[128];
    hsx_cbor_writer w;
    hsx_cbor_writer_init(&w, buf, sizeof buf);
    hsx_cbor_put_map(&w, 4);
    hsx_field_u(&w, K_seq, sub.last_dropped);
    hsx_field_k(&w, K_type, K_warning);
    hsx_field_null(&w, K_pid);
    hsx_put_key(&w, K_data);
    hsx_cbor_put_map(&w, 5);
    hsx_field_k(&w, K_reason, K_events_dropped);
    hsx_field_u(&w, K_dropped, sub.dropped);
    hsx_field_u(&w, K_first_seq, sub.first_dropped);
    hsx_field_u(&w, K_last_seq, sub.last_dropped);
    hsx_field_u(&w, K_subscription, sub.token);
    hsx_link_frame('E', 0, buf, (uint32_t)(w.p - buf));
    sub.dropped = 0;
}

/* Whether the link takes a frame of `payload` bytes now (COBS adds a byte in 254,
 * the frame 8 more): an event waits in the queue rather than stalling the board. */
static int link_has_room(uint32_t payload)
{
    const hsx_link *link = hsx_exec_hal()->link;
    return !link->room || link->room(link->ctx) >= payload + payload / 254 + 8;
}

int hsx_events_send(void)
{
    for (int n = 0; n < SEND_BATCH && (queue_used || sub.dropped); n++) {
        if (!link_has_room(sub.dropped ? 128 : entry_size(queue) - HEADER))
            return 0;                   /* the link is full: the host reads slowly */
        if (sub.dropped) {
            send_warning();
            continue;
        }
        hsx_link_frame('E', 0, queue + HEADER, entry_size(queue) - HEADER);
        sub.delivered++;
        remove_entry(queue);
    }
    return queue_used != 0 || sub.dropped != 0;
}

HSX_NOINLINE static void clear_queue(void)
{
    queue_used = critical_bytes = 0;
    sub.count = sub.dropped = 0;
}

void hsx_events_session_closed(int slot)
{
    if (sub.active && (slot < 0 || sub.session == slot)) {
        sub.active = 0;
        clear_queue();
    }
}

/* -- commands ------------------------------------------------------------------------------------- */

/* The PIDs of a filter (`pids`, or `pid`): 0, or -1 (more than a board filters). */
static int arg_pids(hsx_call *c, clause *cl)
{
    hsx_items items;
    hsx_cbor_item pid;
    int got;
    cl->npids = 0;
    if (!HAS(c, pids)) {
        if (HAS(c, pid))
            cl->pids[cl->npids++] = ARG(c, pid);
        return 0;
    }
    hsx_items_open(&c->arg[K_pids], hsx_request_end, &items);
    while ((got = hsx_items_next(&items, &pid)) > 0 && cl->npids < HSX_MAX_LOCKS &&
           pid.type == HSX_CBOR_UINT)
        cl->pids[cl->npids++] = (uint32_t)pid.value;
    return got ? hsx_fail_field(c, K_pids) : 0;
}

/* The board's types the items of `key` name (words: hsx.client sends the types a
 * category matches). */
static uint32_t arg_types(hsx_call *c, unsigned key)
{
    hsx_items items;
    hsx_cbor_item name;
    uint32_t types = 0;
    hsx_items_open(&c->arg[key], hsx_request_end, &items);
    while (hsx_items_next(&items, &name) > 0)
        for (uint32_t t = 0; t < TYPES; t++)
            if (name.type == HSX_CBOR_UINT && name.value == type_keys[t])
                types |= 1u << t;
    return types;
}

static const hsx_row stats_row[] = {
    ROW(token, R_U32, struct subscription, token), ROW(max, R_U32, struct subscription, max),
    ROW(pending, R_U32, struct subscription, count), ROW_CONST(coalesce_ms, R_ZERO, 0),
    ROW(delivered, R_U32, struct subscription, delivered),
    ROW(drops, R_U32, struct subscription, dropped_total),
    ROW(high_water, R_U32, struct subscription, high_water),
    ROW(last_ack, R_U32, struct subscription, last_ack),
};

static void put_stats(hsx_call *c)
{
    hsx_cbor_writer *w = c->w;
    hsx_put_key(w, K_events);
    hsx_cbor_open_map(w);
    hsx_put_row(w, stats_row, 8, &sub);
    hsx_put_key(w, K_filters);
    hsx_cbor_put_array(w, sub.nclauses);
    for (int i = 0; i < sub.nclauses; i++) {
        clause *cl = &sub.clauses[i];
        hsx_cbor_put_map(w, 2);
        hsx_put_key(w, K_pids);
        if (cl->npids) {
            hsx_cbor_put_array(w, cl->npids);
            for (int k = 0; k < cl->npids; k++)
                hsx_cbor_put_uint(w, cl->pids[k]);
        } else {
            hsx_cbor_put_null(w);
        }
        hsx_put_key(w, K_categories);
        hsx_cbor_open_array(w);
        for (uint32_t t = 0; t < TYPES; t++)
            if (cl->types >> t & 1)
                hsx_put_word(w, type_keys[t]);
        hsx_cbor_put_end(w);
    }
}

static void start(hsx_call *c, int replace)
{
    int fresh = !sub.active || sub.session != c->session;
    if (fresh || replace) {
        sub.active = 1;
        sub.session = c->session;
        sub.nclauses = 0;
        if (fresh) {
            clear_queue();
            sub.token = next_token++;
            sub.delivered = sub.dropped_total = sub.high_water = sub.last_ack = 0;
        }
    }
    sub.max = HSX_EVENT_QUEUE / 16;
}

int hsx_cmd_events_subscribe(hsx_call *c)
{
    clause cl;
    if (arg_pids(c, &cl) < 0)
        return -1;
    if (HAS(c, since_seq) && ARG(c, since_seq) != seq) {
        c->extra = K_last_seq;
        c->extra_number = seq;
        return hsx_fail(c, K_seq_evicted);
    }
    cl.types = HAS(c, categories) ? arg_types(c, K_categories) : (1u << TYPES) - 1;
    start(c, 1);
    sub.clauses[0] = cl;
    sub.nclauses = 1;
    hsx_reply_ok(c);
    put_stats(c);
    hsx_field_u(c->w, K_cursor, seq);
    hsx_field_u(c->w, K_replayed, 0);
    hsx_field_u(c->w, K_retained, 0);
    if (HAS(c, since_seq))
        hsx_field_u(c->w, K_since_seq, ARG(c, since_seq));
    hsx_cbor_put_end(c->w);
    return 0;
}

int hsx_cmd_events_unsubscribe(hsx_call *c)
{
    int had = sub.active && sub.session == c->session;
    if (had)
        hsx_events_session_closed(-1);
    hsx_reply_ok(c);
    hsx_field_b(c->w, K_unsubscribed, had);
    return 0;
}

int hsx_cmd_events_ack(hsx_call *c)
{
    if (!HAS(c, seq))
        return hsx_fail_field(c, K_seq);
    if (!sub.active || sub.session != c->session)
        return hsx_fail(c, K_not_subscribed);
    sub.last_ack = ARG(c, seq);
    hsx_reply_ok(c);
    put_stats(c);
    hsx_cbor_put_end(c->w);
    return 0;
}

/* stdio {op: subscribe | unsubscribe}: a clause for stdout/stderr of `pid` (or every
 * task) added to (removed from) the caller's subscription. */
int hsx_cmd_stdio_subscribe(hsx_call *c, int unsubscribe)
{
    clause cl;
    int recent = (int)ARG(c, recent), one = HAS(c, pid);
    if (arg_pids(c, &cl) < 0)
        return -1;
    if (recent && one && (hsx_fail_status(c, hsx_exec_task(ARG(c, pid), &c->t)) < 0 ||
                          (hsx_owner(c->t.pid) >= 0 && hsx_control(c, c->t.pid) < 0)))
        return -1;
    for (int i = 0; i < cl.npids; i++)
        if (hsx_owner(cl.pids[i]) >= 0 && hsx_control(c, cl.pids[i]) < 0)
            return -1;
    cl.types = HAS(c, streams) ? arg_types(c, K_streams) & OUTPUT_TYPES : OUTPUT_TYPES;
    if (!cl.types)
        return hsx_fail_field(c, K_streams);
    if (unsubscribe) {
        for (int i = 0; sub.active && sub.session == c->session && i < sub.nclauses; i++)
            if (sub.clauses[i].types == cl.types && sub.clauses[i].npids == cl.npids) {
                sub.clauses[i] = sub.clauses[--sub.nclauses];
                break;
            }
        hsx_reply_ok(c);
        hsx_field_b(c->w, K_unsubscribed, 1);
        return 0;
    }
    start(c, 0);
    sub.clauses[sub.nclauses < MAX_CLAUSES ? sub.nclauses++ : MAX_CLAUSES - 1] = cl;
    hsx_reply_ok(c);
    put_stats(c);
    hsx_cbor_put_end(c->w);
    if (recent)                         /* at the same instant: no gap, no repeat */
        hsx_put_recent(c, one, ARG(c, pid));
    return 0;
}

#else   /* minimal: no events */

uint32_t hsx_events_last_seq(void) { return 0; }
int hsx_events_send(void) { return 0; }
int hsx_events_saturated(void) { return 0; }
void hsx_events_session_closed(int slot) { (void)slot; }

#endif

HSX_COLD_CODE_END
