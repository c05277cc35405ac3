/* HSX C executive: events on the link (docs/protocol.md "Events", docs/wire.md "Events").
 *
 * One subscription (a board has one host): filters of event types and PIDs, and a queue
 * of HSX_EVENT_QUEUE bytes of encoded events waiting to be sent. Events are encoded when
 * they happen (the executive's listener) and sent after replies. When the queue is full
 * the oldest droppable event goes, and the host is told how many before the next event
 * (a `warning`); the debug_break, task_state and fault events of PIDs the subscriber's
 * session owns are never dropped for others: while they fill most of the queue, the
 * tasks do not run (hsx_events_saturated), as hsx execd's clock waits.
 */
#include <stddef.h>

#include "hsx_frame.h"
#include "hsx_proto.h"

#if HSX_HAS_EVENTS

#define MAX_CLAUSES 4
#define CLAUSE_PIDS 4
#define HEADER 7u                       /* an entry: length(2) critical(1) seq(4), then CBOR */
#define TEXT_PIECE 160u                 /* output longer than this goes as several events */
#define SEND_BATCH 8                    /* events per poll before requests are looked at */

/* The types a board emits, in hsx_event_type order. */
static const char *const type_names[] = {"task_state", "debug_break", "fault", "stdout",
    "stderr", "mailbox_send", "mailbox_recv", "value_changed", "watch_update", "dmesg"};
#define TYPES (sizeof type_names / sizeof type_names[0])
#define CRITICAL_TYPES (1u << HSX_EV_TASK_STATE | 1u << HSX_EV_DEBUG_BREAK | 1u << HSX_EV_FAULT)
#define OUTPUT_TYPES (1u << HSX_EV_STDOUT | 1u << HSX_EV_STDERR)

/* Every type a protocol v1 client may name (hsx.server.subscriptions.EVENT_TYPES): the
 * board accepts them all, and sends those it has. */
static const char *const protocol_types[] = {"task_state", "fault", "debug_break", "stdout",
    "stderr", "dmesg", "can_tx", "scheduler", "trace_step", "watch_update", "warning",
    "input_dropped", "mailbox_", "value_", "cmd_", NULL};

typedef struct clause {
    uint32_t types;                     /* bit per board type */
    uint8_t npids;                      /* 0: every PID */
    uint32_t pids[CLAUSE_PIDS];
} clause;

static struct {
    uint8_t active, nclauses;
    int session;                        /* the subscriber's session slot, or -1 */
    uint32_t token, max, count, delivered, dropped_total, high_water;
    uint64_t last_ack;
    clause clauses[MAX_CLAUSES];
    /* drops not yet reported */
    uint32_t dropped, first_dropped, last_dropped;
} sub;

static uint8_t queue[HSX_EVENT_QUEUE];
static uint32_t queue_used, critical_bytes;
static uint32_t seq;
static uint32_t next_token = 1;

uint32_t hsx_events_last_seq(void) { return seq; }

/* -- the queue -------------------------------------------------------------------------- */

static uint32_t entry_size(const uint8_t *entry) { return HEADER + (entry[0] | (uint32_t)entry[1] << 8); }
static uint32_t entry_seq(const uint8_t *e)
{
    return e[3] | (uint32_t)e[4] << 8 | (uint32_t)e[5] << 16 | (uint32_t)e[6] << 24;
}

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

/* Drop the oldest droppable event; 0 when only critical ones are queued. */
static int drop_oldest(void)
{
    for (uint8_t *e = queue; e < queue + queue_used; e += entry_size(e))
        if (!e[2]) {
            uint32_t s = entry_seq(e);
            if (!sub.dropped)
                sub.first_dropped = s;
            sub.dropped++;
            sub.dropped_total++;
            sub.last_dropped = s;
            remove_entry(e);
            return 1;
        }
    return 0;
}

static void count_lost(uint32_t s)
{
    if (!sub.dropped)
        sub.first_dropped = s;
    sub.dropped++;
    sub.dropped_total++;
    sub.last_dropped = s;
}

int hsx_events_saturated(void) { return critical_bytes > sizeof queue * 3 / 4; }

/* -- filters ----------------------------------------------------------------------------------- */

static int clause_matches(const clause *cl, uint32_t type, uint32_t pid)
{
    if (!(cl->types >> type & 1))
        return 0;
    if (!cl->npids)
        return 1;
    for (int i = 0; i < cl->npids; i++)
        if (cl->pids[i] == pid && pid)
            return 1;
    return 0;
}

static int wanted(uint32_t type, uint32_t pid)
{
    if (!sub.active)
        return 0;
    if ((OUTPUT_TYPES >> type & 1) && pid) {    /* a locked task's output is its owner's */
        int owner = hsx_owner(pid);
        if (owner >= 0 && owner != sub.session)
            return 0;
    }
    for (int i = 0; i < sub.nclauses; i++)
        if (clause_matches(&sub.clauses[i], type, pid))
            return 1;
    return 0;
}

/* -- encoding --------------------------------------------------------------------------------------- */

static void put_addr(hsx_cbor_writer *w, int64_t addr)
{
    hsx_key(w, "addr");
    if (addr < 0)
        hsx_cbor_put_null(w);
    else
        hsx_cbor_put_int(w, addr);
}

static void put_task_state(hsx_cbor_writer *w, const hsx_event *e)
{
    hsx_key(w, "prev_state");
    hsx_put_state(w, e->prev);
    hsx_key(w, "new_state");
    hsx_put_state(w, e->state);
    hsx_field_s(w, "reason", hsx_reason_name(e->reason));
    switch (e->reason) {
    case HSX_REASON_LOADED: {
        hsx_task_info t;
        if (hsx_exec_task(e->pid, &t) == HSX_OK)
            hsx_field_s(w, "app_name", t.app_name);
        break;
    }
    case HSX_REASON_RETURNED:
        hsx_key(w, "exit_status");
        hsx_cbor_put_int(w, (int32_t)e->a);
        hsx_field_s(w, "how", e->what);
        break;
    case HSX_REASON_SLEEP: hsx_field_u(w, "ms", e->a); break;
    case HSX_REASON_MAILBOX_WAIT: hsx_field_u(w, "handle", e->a); break;
    case HSX_REASON_MAILBOX_WAKE:
    case HSX_REASON_TIMEOUT:
        if (e->c)
            hsx_field_u(w, "status", e->a);
        break;
    case HSX_REASON_FAULTED:
        hsx_field_s(w, "kind", e->what);
        hsx_field_u(w, "pc", e->pc);
        break;
    case HSX_REASON_DEBUG_BREAK:
        hsx_field_u(w, "pc", e->pc);
        hsx_field_s(w, "why", e->what);
        break;
    default: break;
    }
}

static void put_debug_break(hsx_cbor_writer *w, const hsx_event *e)
{
    const char *why = e->what ? e->what : "breakpoint";
    hsx_field_u(w, "pid", e->pid);
    hsx_field_u(w, "pc", e->pc);
    hsx_field_s(w, "reason", why);
    switch (why[0]) {
    case 'b':                                   /* breakpoint, brk */
        hsx_field_u(w, "breakpoint_id", e->id);
        if (why[1] == 'r')
            hsx_field_u(w, "code", e->a);
        else if (e->a) {
            hsx_key(w, "temporary");
            hsx_cbor_put_bool(w, 1);
        }
        break;
    case 's': hsx_field_u(w, "executed", e->a); break;    /* step */
    case 'w': {                                 /* watch */
        uint32_t half = e->len / 2;
        hsx_field_u(w, "watch_id", e->id);
        put_addr(w, e->addr);
        hsx_key(w, "old");
        hsx_put_hex(w, e->data, half);
        hsx_key(w, "new");
        hsx_put_hex(w, e->data + half, half);
        hsx_field_u(w, "changed_by", e->b);
        break;
    }
    case 'f':                                   /* fault */
        hsx_field_s(w, "kind", e->what2);
        put_addr(w, e->addr);
        hsx_field_s(w, "message", e->what2);
        break;
    default: break;
    }
}

static void put_data(hsx_cbor_writer *w, const hsx_event *e, uint32_t from, uint32_t len)
{
    uint32_t half = e->len / 2;
    switch (e->type) {
    case HSX_EV_TASK_STATE: put_task_state(w, e); break;
    case HSX_EV_DEBUG_BREAK: put_debug_break(w, e); break;
    case HSX_EV_FAULT:
        hsx_field_s(w, "kind", e->what);
        hsx_field_u(w, "pc", e->pc);
        put_addr(w, e->addr);
        hsx_field_s(w, "message", e->what);
        break;
    case HSX_EV_STDOUT:
    case HSX_EV_STDERR:
        hsx_key(w, "text");
        hsx_cbor_put_text(w, (const char *)e->data + from, len);
        break;
    case HSX_EV_DMESG:
        hsx_field_s(w, "level", e->what ? e->what : "info");
        hsx_key(w, "message");
        hsx_cbor_put_text(w, (const char *)e->data + from, len);
        break;
    case HSX_EV_MAILBOX_SEND:
    case HSX_EV_MAILBOX_RECV:
        hsx_field_u(w, "descriptor", e->a);
        hsx_field_u(w, "handle", e->id);
        hsx_field_u(w, "length", e->b);
        hsx_field_u(w, "channel", e->c);
        hsx_field_u(w, "src_pid", e->d);
        break;
    case HSX_EV_VALUE_CHANGED:
        hsx_field_u(w, "caller_pid", e->d);
        hsx_field_u(w, "oid", e->a);
        hsx_field_u(w, "group_id", e->a >> 8);
        hsx_field_u(w, "value_id", e->a & 0xFF);
        hsx_field_u(w, "old_f16", e->b);
        hsx_field_u(w, "new_f16", e->c);
        hsx_key(w, "old_value");
        hsx_put_f16(w, (uint16_t)e->b);
        hsx_key(w, "new_value");
        hsx_put_f16(w, (uint16_t)e->c);
        hsx_field_s(w, "reason", "set");
        break;
    case HSX_EV_WATCH_UPDATE:
        hsx_field_u(w, "id", e->id);
        hsx_field_u(w, "pid", e->pid);
        put_addr(w, e->addr);
        hsx_field_u(w, "length", half);
        hsx_field_s(w, "symbol", NULL);
        hsx_key(w, "old");
        hsx_put_hex(w, e->data, half);
        hsx_key(w, "new");
        hsx_put_hex(w, e->data + half, half);
        hsx_key(w, "pc");
        if (e->c)
            hsx_cbor_put_uint(w, e->pc);
        else
            hsx_cbor_put_null(w);
        break;
    }
}

/* Encode one event at the end of the queue; 0, or -1 when it does not fit. */
static int encode_at_end(const hsx_event *e, uint32_t from, uint32_t len, int critical)
{
    hsx_cbor_writer w;
    uint8_t *entry = queue + queue_used;
    uint32_t room = sizeof queue - queue_used;
    if (room <= HEADER)
        return -1;
    hsx_cbor_writer_init(&w, entry + HEADER, room - HEADER);
    hsx_cbor_put_map(&w, 4);
    hsx_field_u(&w, "seq", seq);
    hsx_field_s(&w, "type", type_names[e->type]);
    hsx_key(&w, "pid");
    if (e->pid)
        hsx_cbor_put_uint(&w, e->pid);
    else
        hsx_cbor_put_null(&w);
    hsx_key(&w, "data");
    hsx_cbor_open_map(&w);
    put_data(&w, e, from, len);
    hsx_cbor_put_end(&w);
    if (w.overflow)
        return -1;
    uint32_t size = (uint32_t)(w.p - (entry + HEADER));
    entry[0] = (uint8_t)size;
    entry[1] = (uint8_t)(size >> 8);
    entry[2] = (uint8_t)critical;
    for (int i = 0; i < 4; i++)
        entry[3 + i] = (uint8_t)(seq >> (8 * i));
    queue_used += HEADER + size;
    if (critical)
        critical_bytes += HEADER + size;
    sub.count++;
    if (sub.count > sub.high_water)
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
    int text = event->type == HSX_EV_STDOUT || event->type == HSX_EV_STDERR ||
               event->type == HSX_EV_DMESG;
    if (!text) {
        enqueue(event, 0, 0);
        return;
    }
    uint32_t from = 0;
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
    hsx_field_u(&w, "seq", sub.last_dropped);
    hsx_field_s(&w, "type", "warning");
    hsx_field_s(&w, "pid", NULL);
    hsx_key(&w, "data");
    hsx_cbor_put_map(&w, 5);
    hsx_field_s(&w, "reason", "events_dropped");
    hsx_field_u(&w, "dropped", sub.dropped);
    hsx_field_u(&w, "first_seq", sub.first_dropped);
    hsx_field_u(&w, "last_seq", sub.last_dropped);
    hsx_field_u(&w, "subscription", sub.token);
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

static void clear_queue(void)
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

/* Whether text[0..len) starts with `prefix` (NUL-terminated). */
static int starts_with(const uint8_t *text, uint64_t len, const char *prefix)
{
    uint64_t i = 0;
    for (; prefix[i]; i++)
        if (i >= len || text[i] != (uint8_t)prefix[i])
            return 0;
    return 1;
}

/* Whether `type` starts with the category. */
static int type_matches(const char *type, const hsx_cbor_item *category)
{
    for (uint64_t i = 0; i < category->value; i++)
        if (!type[i] || type[i] != (char)category->data[i])
            return 0;
    return 1;
}

/* One category: the board types it covers (an exact type or a prefix); -1 when it
 * names no protocol v1 type (unsupported_category), as hsx execd checks. */
static int64_t category_types(const hsx_cbor_item *category)
{
    uint32_t types = 0;
    int known = 0;
    for (uint32_t t = 0; t < TYPES; t++)
        if (type_matches(type_names[t], category))
            types |= 1u << t;
    for (int i = 0; protocol_types[i]; i++) {
        const char *p = protocol_types[i];
        uint32_t n = 0;
        while (p[n])
            n++;
        if (type_matches(p, category) ||
            (p[n - 1] == '_' && starts_with(category->data, category->value, p)))
            known = 1;
    }
    return known ? (int64_t)types : -1;
}

static int bad_category(hsx_call *c, const hsx_cbor_item *category)
{
    static char name[40];
    uint32_t n = category->value < sizeof name - 1 ? (uint32_t)category->value : sizeof name - 1;
    for (uint32_t i = 0; i < n; i++)
        name[i] = (char)category->data[i];
    name[n] = 0;
    hsx_fail(c, "unsupported_category", "no event type matches '", name, "'", NULL);
    c->extra_key = "category";
    c->extra_text = name;
    return -1;
}

/* `categories` (a string or a list; none: every type but the high-rate ones) as types. */
static int arg_categories(hsx_call *c, const uint8_t *map, uint32_t len, uint32_t *types)
{
    hsx_list list;
    hsx_cbor_item item;
    int got;
    *types = (1u << TYPES) - 1;
    if (!hsx_list_open(map, len, "categories", &list) || list.left == 0 ||
        (!list.array && list.first.type == HSX_CBOR_TEXT && list.first.value == 0))
        return 0;
    *types = 0;
    while ((got = hsx_list_next(&list, &item)) > 0) {
        if (item.type != HSX_CBOR_TEXT || item.value == 0 || item.value > 64)
            return hsx_fail(c, "bad_argument", "categories must be a string or a list of strings", NULL);
        int64_t matched = category_types(&item);
        if (matched < 0)
            return bad_category(c, &item);
        *types |= (uint32_t)matched;
    }
    return got < 0 ? -1 : 1;
}

static int arg_pid_filter(hsx_call *c, const uint8_t *map, uint32_t len, const char *key, clause *cl)
{
    hsx_list list;
    hsx_cbor_item item;
    int got;
    cl->npids = 0;
    if (!hsx_list_open(map, len, key, &list))
        return 0;
    if (list.left > CLAUSE_PIDS)
        return hsx_fail(c, "bad_argument", "a board filters at most 4 pids", NULL);
    while ((got = hsx_list_next(&list, &item)) > 0) {
        if (item.type != HSX_CBOR_UINT || item.value > UINT32_MAX)
            return hsx_fail(c, "bad_argument", "pids must be a non-negative integer or a list of them", NULL);
        cl->pids[cl->npids++] = (uint32_t)item.value;
    }
    return got < 0 ? -1 : 1;
}

static void put_stats(hsx_call *c)
{
    hsx_cbor_writer *w = c->w;
    hsx_cbor_open_map(w);
    hsx_field_u(w, "token", sub.token);
    hsx_field_u(w, "max", sub.max);
    hsx_field_u(w, "pending", sub.count);
    hsx_field_u(w, "coalesce_ms", 0);
    hsx_field_u(w, "delivered", sub.delivered);
    hsx_field_u(w, "drops", sub.dropped_total);
    hsx_field_u(w, "high_water", sub.high_water);
    hsx_field_u64(w, "last_ack", sub.last_ack);
    hsx_key(w, "filters");
    hsx_cbor_put_array(w, sub.nclauses);
    for (int i = 0; i < sub.nclauses; i++) {
        clause *cl = &sub.clauses[i];
        hsx_cbor_put_map(w, 2);
        hsx_key(w, "pids");
        if (cl->npids) {
            hsx_cbor_put_array(w, cl->npids);
            for (int k = 0; k < cl->npids; k++)
                hsx_cbor_put_uint(w, cl->pids[k]);
        } else {
            hsx_cbor_put_null(w);
        }
        hsx_key(w, "categories");
        hsx_cbor_open_array(w);
        for (uint32_t t = 0; t < TYPES; t++)
            if (cl->types >> t & 1)
                hsx_cbor_put_str(w, type_names[t]);
        hsx_cbor_put_end(w);
    }
}

static void start(hsx_call *c, int replace)
{
    if (!sub.active || sub.session != c->session || replace) {
        int fresh = !sub.active || sub.session != c->session;
        sub.active = 1;
        sub.session = c->session;
        sub.nclauses = 0;
        if (fresh) {
            clear_queue();
            sub.token = next_token++;
            sub.delivered = sub.dropped_total = sub.high_water = 0;
            sub.last_ack = 0;
        }
    }
    sub.max = HSX_EVENT_QUEUE / 16;
}

int hsx_cmd_subscribe(hsx_call *c)
{
    const uint8_t *map = c->req, *fmap = NULL;
    uint32_t len = c->len, types;
    clause cl;
    uint64_t since = 0;
    hsx_cbor_item filters;
    int got_since;
    /* the older form nests the filter fields in `filters` */
    if (hsx_cbor_map_get(c->req, c->len, "filters", &filters) && filters.type == HSX_CBOR_MAP) {
        const uint8_t *end;
        hsx_cbor_map_find(c->req, c->len, "filters", &fmap, &end);
        map = fmap;
        len = (uint32_t)(end - fmap);
    }
    if (arg_categories(c, map, len, &types) < 0 ||
        (arg_pid_filter(c, map, len, "pids", &cl) == 0 && arg_pid_filter(c, map, len, "pid", &cl) < 0) ||
        c->error)
        return -1;
    if ((got_since = hsx_arg_u64(c, "since_seq", &since, 0, INT64_MAX)) < 0)
        return -1;
    if (got_since && since != seq) {
        hsx_fail(c, "seq_evicted", "a board keeps no event history: subscribe without "
                 "'since_seq' after fetching the state afresh", NULL);
        c->extra_key = "last_seq";
        c->extra_number = seq;
        return -1;
    }
    cl.types = types;
    start(c, 1);
    sub.clauses[0] = cl;
    sub.nclauses = 1;
    hsx_reply_ok(c);
    hsx_key(c->w, "events");
    put_stats(c);
    hsx_field_u(c->w, "cursor", seq);
    hsx_field_u(c->w, "replayed", 0);
    hsx_field_u(c->w, "retained", 0);
    if (got_since)
        hsx_field_u64(c->w, "since_seq", since);
    hsx_cbor_put_end(c->w);
    return 0;
}

int hsx_cmd_unsubscribe(hsx_call *c)
{
    int had = sub.active && sub.session == c->session;
    if (had)
        hsx_events_session_closed(sub.session < 0 ? -1 : sub.session);
    hsx_reply_ok(c);
    hsx_key(c->w, "unsubscribed");
    hsx_cbor_put_bool(c->w, had);
    return 0;
}

int hsx_cmd_ack(hsx_call *c)
{
    uint64_t acked;
    if (hsx_required(c, hsx_arg_u64(c, "seq", &acked, 0, INT64_MAX), "seq") < 0)
        return -1;
    if (!sub.active || sub.session != c->session)
        return hsx_fail(c, "not_subscribed", "events.ack without a subscription", NULL);
    sub.last_ack = acked;
    hsx_reply_ok(c);
    hsx_key(c->w, "events");
    put_stats(c);
    hsx_cbor_put_end(c->w);
    return 0;
}

/* stdio {op: subscribe | unsubscribe}: a clause for stdout/stderr of `pid` (or every
 * task) added to (removed from) the caller's subscription. */
int hsx_cmd_stdio_subscribe(hsx_call *c, int unsubscribe)
{
    clause cl;
    uint32_t types = OUTPUT_TYPES, only;
    hsx_list list;
    hsx_cbor_item stream;
    int recent = 0, one, got;
    if (arg_pid_filter(c, c->req, c->len, "pid", &cl) < 0 || hsx_arg_bool(c, "recent", &recent) < 0 ||
        (recent && hsx_arg_output_of(c, &one, &only) < 0))
        return -1;
    if (hsx_list_open(c->req, c->len, "streams", &list)) {
        types = 0;
        while ((got = hsx_list_next(&list, &stream)) > 0) {
            if (hsx_cbor_text_is(&stream, "stdout"))
                types |= 1u << HSX_EV_STDOUT;
            else if (hsx_cbor_text_is(&stream, "stderr"))
                types |= 1u << HSX_EV_STDERR;
            else
                return hsx_fail(c, "bad_argument", "'streams' must be \"stdout\", \"stderr\" or a list of them", NULL);
        }
        if (got < 0 || !types)
            return hsx_fail(c, "bad_argument", "'streams' names no stream", NULL);
    }
    for (int i = 0; i < cl.npids; i++)
        if (hsx_owner(cl.pids[i]) >= 0 && hsx_owner(cl.pids[i]) != c->session &&
            hsx_control(c, cl.pids[i]) < 0)
            return -1;
    cl.types = types;
    if (unsubscribe) {
        for (int i = 0; sub.active && sub.session == c->session && i < sub.nclauses; i++)
            if (sub.clauses[i].types == cl.types && sub.clauses[i].npids == cl.npids) {
                sub.clauses[i] = sub.clauses[--sub.nclauses];
                break;
            }
        hsx_reply_ok(c);
        hsx_key(c->w, "unsubscribed");
        hsx_cbor_put_bool(c->w, 1);
        return 0;
    }
    start(c, 0);
    if (sub.nclauses < MAX_CLAUSES)
        sub.clauses[sub.nclauses++] = cl;
    else
        sub.clauses[MAX_CLAUSES - 1] = cl;
    hsx_reply_ok(c);
    hsx_key(c->w, "events");
    put_stats(c);
    hsx_cbor_put_end(c->w);
    if (recent)                         /* at the same instant: no gap, no repeat */
        hsx_put_recent(c, one, only);
    return 0;
}

#else   /* minimal: no events */

uint32_t hsx_events_last_seq(void) { return 0; }
int hsx_events_send(void) { return 0; }
int hsx_events_saturated(void) { return 0; }
void hsx_events_session_closed(int slot) { (void)slot; }

#endif
