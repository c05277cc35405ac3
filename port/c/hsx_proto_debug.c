/* HSX C executive: the debugger's commands (development and full; docs/protocol.md
 * "Debugger"): breakpoints, run.to, the raw stack walk, watches and the trace ring, by
 * address. Symbols, source lines and disassembly are the host's (hsx.client's gateway
 * turns "main" or "prog.c:12" into an address before a request reaches the board), so
 * listings carry null where hsx execd names a symbol. In the minimal variant the table
 * names these commands with no handler: they answer `unsupported`.
 */
#include <stddef.h>

#include "hsx_proto.h"

#define W HSX_CMD_WRITES
#define DEV HSX_CMD_DEVELOPMENT

#if HSX_HAS_DEBUG

/* Who set each breakpoint and watch: a session's go when it ends (hsx execd's rule), and
 * watch listings need what the executive does not list. */
typedef struct owned {
    uint32_t id;                        /* 0: free */
    int8_t owner;                       /* session slot, -1: none */
} owned;

static owned bp_owner[HSX_MAX_BREAKPOINTS];

typedef struct watch {
    uint32_t id, pid, addr, length;     /* id 0: free */
    int8_t owner;
    uint8_t stop;
} watch;

static watch watches[HSX_MAX_WATCHES];

static int bp_owner_of(uint32_t id)
{
    for (int i = 0; i < HSX_MAX_BREAKPOINTS; i++)
        if (bp_owner[i].id == id)
            return bp_owner[i].owner;
    return -1;
}

static void bp_forget(uint32_t id)
{
    for (int i = 0; i < HSX_MAX_BREAKPOINTS; i++)
        if (bp_owner[i].id == id)
            bp_owner[i].id = 0;
}

static void bp_remember(uint32_t id, int owner)
{
    bp_forget(id);
    for (int i = 0; i < HSX_MAX_BREAKPOINTS; i++)
        if (!bp_owner[i].id) {
            bp_owner[i].id = id;
            bp_owner[i].owner = (int8_t)owner;
            return;
        }
}

/* A listing as hsx execd's, without what only symbols give. */
static void put_breakpoint(hsx_cbor_writer *w, const hsx_breakpoint_info *b)
{
    static const char digits[] = "0123456789ABCDEF";
    char location[10] = "0x";
    int n = 2;
    for (int shift = b->addr > 0xFFFF ? 28 : 12; shift >= 0; shift -= 4)
        location[n++] = digits[b->addr >> shift & 15];
    hsx_cbor_open_map(w);
    hsx_field_u(w, "id", b->id);
    hsx_field_u(w, "pid", b->pid);
    hsx_field_u(w, "address", b->addr);
    hsx_key(w, "kind");
    hsx_cbor_put_str(w, "breakpoint");
    hsx_field_s(w, "symbol", NULL);
    hsx_field_s(w, "offset", NULL);
    hsx_key(w, "location");
    hsx_cbor_put_text(w, location, (uint32_t)n);
    hsx_field_s(w, "file", NULL);
    hsx_field_s(w, "line", NULL);
    hsx_field_u(w, "hits", b->hits);
    hsx_field_b(w, "enabled", b->enabled);
    hsx_field_b(w, "temporary", b->temporary);
    hsx_field_s(w, "condition", NULL);
    hsx_key(w, "owner");
    hsx_put_session_handle(w, bp_owner_of(b->id));
    hsx_field_b(w, "remembered", 0);
    hsx_cbor_put_end(w);
}

static int find_breakpoint(uint32_t id, hsx_breakpoint_info *out)
{
    uint32_t cursor = 0;
    while (hsx_exec_next_breakpoint(&cursor, out))
        if (out->id == id)
            return 1;
    return 0;
}

/* A code location: an address. A symbol or "file:line" is the host's business. */
static int arg_code_address(hsx_call *c, uint32_t *addr, int required)
{
    static const char *const symbolic[] = {"symbol", "file", "line", NULL};
    for (int i = 0; symbolic[i]; i++)
        if (hsx_arg_present(c, symbolic[i]))
            return hsx_refuse_symbolic(c, symbolic[i]);
    const char *key = hsx_arg_present(c, "addr") ? "addr" : "address";
    const char *text;
    uint32_t len;
    int got = hsx_arg_u32(c, key, addr, 0, UINT32_MAX);
    if (got < 0 && hsx_arg_text(c, key, &text, &len, 4096) > 0) {
        c->error = NULL;
        return hsx_refuse_symbolic(c, key);
    }
    return required ? hsx_required(c, got, "addr") : got;
}

static int arg_breakpoint_id(hsx_call *c, uint32_t *id)
{
    return hsx_required(c, hsx_arg_u32(c, "breakpoint_id", id, 1, UINT32_MAX), "breakpoint_id");
}

static int cmd_bp_set(hsx_call *c)
{
    hsx_task_info t;
    hsx_breakpoint_info b;
    uint32_t addr, id;
    int temporary = 0;
    const char *condition;
    uint32_t len;
    if (hsx_arg_task(c, &t) < 0 || arg_code_address(c, &addr, 1) < 0 ||
        hsx_arg_bool(c, "temporary", &temporary) < 0 || hsx_control(c, t.pid) < 0)
        return -1;
    if (hsx_arg_text(c, "condition", &condition, &len, 4096) > 0 && len)
        return hsx_fail(c, "bad_condition", "a board does not evaluate breakpoint conditions: "
                        "the host's gateway does", NULL);
    if (hsx_fail_status(c, hsx_exec_bp_set(t.pid, addr, temporary, &id), t.pid) < 0)
        return -1;
    if (bp_owner_of(id) < 0)
        bp_remember(id, c->session);
    find_breakpoint(id, &b);
    hsx_reply_ok(c);
    hsx_field_u(c->w, "breakpoint_id", id);
    hsx_key(c->w, "breakpoint");
    put_breakpoint(c->w, &b);
    return 0;
}

/* bp.clear {breakpoint_id}, or the older form {pid, addr}: every breakpoint there. */
static int cmd_bp_clear(hsx_call *c)
{
    hsx_breakpoint_info b;
    uint32_t id = 0, addr = 0, pid = 0, cursor = 0;
    int by_id = hsx_arg_present(c, "breakpoint_id");
    if (by_id ? arg_breakpoint_id(c, &id) < 0
              : (hsx_required(c, hsx_arg_u32(c, "pid", &pid, 0, UINT32_MAX), "breakpoint_id") < 0 ||
                 arg_code_address(c, &addr, 1) < 0))
        return -1;
    if (by_id) {
        if (!find_breakpoint(id, &b))
            return hsx_fail_status(c, HSX_ERR_UNKNOWN_BREAKPOINT, 0);
        if (hsx_control(c, b.pid) < 0)
            return -1;
    } else if (hsx_control(c, pid) < 0) {
        return -1;
    }
    hsx_reply_ok(c);
    hsx_key(c->w, "cleared");
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_breakpoint(&cursor, &b))
        if (by_id ? b.id == id : (b.pid == pid && b.addr == addr)) {
            put_breakpoint(c->w, &b);
            hsx_exec_bp_clear(b.id);
            bp_forget(b.id);
            cursor = 0;                 /* the list changed: from the start again */
        }
    hsx_cbor_put_end(c->w);
    return 0;
}

static int cmd_bp_clear_all(hsx_call *c)
{
    hsx_task_info t;
    hsx_breakpoint_info b;
    uint32_t cursor = 0;
    if (hsx_arg_task(c, &t) < 0 || hsx_control(c, t.pid) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_key(c->w, "cleared");
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_breakpoint(&cursor, &b))
        if (b.pid == t.pid) {
            put_breakpoint(c->w, &b);
            hsx_exec_bp_clear(b.id);
            bp_forget(b.id);
            cursor = 0;
        }
    hsx_cbor_put_end(c->w);
    return 0;
}

static int bp_enable(hsx_call *c, int enabled)
{
    hsx_breakpoint_info b;
    uint32_t id;
    if (arg_breakpoint_id(c, &id) < 0)
        return -1;
    if (!find_breakpoint(id, &b))
        return hsx_fail_status(c, HSX_ERR_UNKNOWN_BREAKPOINT, 0);
    if (hsx_control(c, b.pid) < 0 || hsx_fail_status(c, hsx_exec_bp_enable(id, enabled), b.pid) < 0)
        return -1;
    find_breakpoint(id, &b);
    hsx_reply_ok(c);
    hsx_key(c->w, "breakpoint");
    put_breakpoint(c->w, &b);
    return 0;
}

static int cmd_bp_enable(hsx_call *c) { return bp_enable(c, 1); }
static int cmd_bp_disable(hsx_call *c) { return bp_enable(c, 0); }

static int cmd_bp_list(hsx_call *c)
{
    hsx_task_info t;
    hsx_breakpoint_info b;
    uint32_t cursor = 0;
    int one = hsx_arg_present(c, "pid");
    if (one && hsx_arg_task(c, &t) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_key(c->w, "breakpoints");
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_breakpoint(&cursor, &b))
        if (!one || b.pid == t.pid)
            put_breakpoint(c->w, &b);
    hsx_cbor_put_end(c->w);
    return 0;
}

static int cmd_run_to(hsx_call *c)
{
    hsx_task_info t;
    uint32_t addr, id;
    if (hsx_arg_task(c, &t) < 0 || arg_code_address(c, &addr, 1) < 0 || hsx_control(c, t.pid) < 0 ||
        hsx_fail_status(c, hsx_exec_run_to(t.pid, addr, &id), t.pid) < 0)
        return -1;
    bp_remember(id, c->session);
    hsx_exec_task(t.pid, &t);
    hsx_reply_ok(c);
    hsx_key(c->w, "result");
    hsx_cbor_put_map(c->w, 4);
    hsx_field_u(c->w, "pid", t.pid);
    hsx_field_u(c->w, "pc", t.pc);
    hsx_key(c->w, "state");
    hsx_put_state(c->w, t.state);
    hsx_field_u(c->w, "breakpoint_id", id);
    hsx_key(c->w, "clock");
    hsx_cbor_put_map(c->w, 3);
    hsx_key(c->w, "state");
    hsx_cbor_put_str(c->w, "running");
    hsx_field_b(c->w, "running", 1);
    hsx_key(c->w, "mode");
    hsx_cbor_put_str(c->w, "running");
    return 0;
}

/* stack.info: the raw frames (pc, sp, fp), innermost first; names are the host's. */
static int cmd_stack(hsx_call *c)
{
    hsx_frame frames[HSX_STACK_FRAMES];
    hsx_task_info t;
    uint32_t max = 16, count = 0;
    static const char *const keys[] = {"max_frames", "max", "limit", "frames", NULL};
    int got = 0;
    if (hsx_arg_task(c, &t) < 0)
        return -1;
    for (int i = 0; keys[i] && !got; i++)
        if ((got = hsx_arg_u32(c, keys[i], &max, 1, 256)) < 0)
            return -1;
    uint32_t walk = max < HSX_STACK_FRAMES ? max + 1 : HSX_STACK_FRAMES;
    if (hsx_fail_status(c, hsx_exec_stack(t.pid, frames, walk, &count), t.pid) < 0)
        return -1;
    int truncated = count > max;
    if (truncated)
        count = max;
    hsx_reply_ok(c);
    hsx_key(c->w, "stack");
    hsx_cbor_open_map(c->w);
    hsx_field_u(c->w, "pid", t.pid);
    hsx_key(c->w, "frames");
    hsx_cbor_put_array(c->w, count);
    for (uint32_t i = 0; i < count; i++) {
        hsx_cbor_put_map(c->w, 4);
        hsx_field_u(c->w, "index", i);
        hsx_field_u(c->w, "pc", frames[i].pc);
        hsx_field_u(c->w, "sp", frames[i].sp);
        hsx_field_u(c->w, "fp", frames[i].fp);
    }
    hsx_field_b(c->w, "truncated", truncated);
    hsx_field_s(c->w, "note", NULL);
    hsx_field_u(c->w, "sp", t.sp);
    hsx_field_u(c->w, "stack_base", t.stack_base);
    hsx_field_u(c->w, "stack_top", t.stack_top);
    hsx_key(c->w, "warnings");
    hsx_cbor_put_array(c->w, 0);
    hsx_cbor_put_end(c->w);
    return 0;
}

/* -- watches ---------------------------------------------------------------------------------- */

/* A watch whose task is gone went with it (the executive removed it). */
static watch *find_watch(uint32_t id)
{
    hsx_task_info t;
    for (int i = 0; i < HSX_MAX_WATCHES; i++) {
        watch *wt = &watches[i];
        if (wt->id && hsx_exec_task(wt->pid, &t) != HSX_OK)
            wt->id = 0;
        if (wt->id && wt->id == id)
            return wt;
    }
    return NULL;
}

static void put_watch(hsx_cbor_writer *w, const watch *wt)
{
    uint8_t bytes[HSX_WATCH_BYTES];
    hsx_cbor_put_map(w, 8);
    hsx_field_u(w, "id", wt->id);
    hsx_field_u(w, "pid", wt->pid);
    hsx_field_u(w, "addr", wt->addr);
    hsx_field_u(w, "length", wt->length);
    hsx_field_s(w, "symbol", NULL);
    hsx_field_b(w, "stop", wt->stop);
    hsx_key(w, "owner");
    hsx_put_session_handle(w, wt->owner);
    hsx_key(w, "value");
    if (hsx_exec_peek(wt->pid, 0, wt->addr, bytes, wt->length) == HSX_OK)
        hsx_put_hex(w, bytes, wt->length);
    else
        hsx_cbor_put_null(w);
}

static int cmd_watch_add(hsx_call *c)
{
    hsx_task_info t;
    uint32_t addr = 0, length = 4, id;
    int stop = 0, got;
    if (hsx_arg_task(c, &t) < 0)
        return -1;
    if (hsx_arg_present(c, "symbol"))
        return hsx_refuse_symbolic(c, "symbol");
    got = hsx_arg_present(c, "expr") ? hsx_arg_u32(c, "expr", &addr, 0, UINT32_MAX)
                                     : arg_code_address(c, &addr, 0);
    if (got < 0 && !c->error)
        return -1;
    if (got < 0 || hsx_required(c, got, "addr") < 0) {
        if (c->error && c->error[0] == 'b' && hsx_arg_present(c, "expr"))
            return hsx_refuse_symbolic(c, "expr");
        return -1;
    }
    if ((got = hsx_arg_u32(c, "length", &length, 1, HSX_WATCH_BYTES)) == 0)
        got = hsx_arg_u32(c, "size", &length, 1, HSX_WATCH_BYTES);
    if (got < 0 || hsx_arg_bool(c, "stop", &stop) < 0 || hsx_control(c, t.pid) < 0)
        return -1;
    hsx_status status = hsx_exec_watch_add(t.pid, addr, length, stop, &id);
    if (status == HSX_ERR_BAD_ARGUMENT)
        return hsx_fail(c, "out_of_range", "the watched range is outside the task's memory", NULL);
    if (hsx_fail_status(c, status, t.pid) < 0)
        return -1;
    find_watch(0);                      /* frees the slots of tasks that are gone */
    for (int i = 0; i < HSX_MAX_WATCHES; i++)
        if (!watches[i].id) {
            watches[i] = (watch){id, t.pid, addr, length, (int8_t)c->session, (uint8_t)stop};
            break;
        }
    hsx_reply_ok(c);
    hsx_key(c->w, "watch");
    put_watch(c->w, find_watch(id));
    return 0;
}

static int cmd_watch_remove(hsx_call *c)
{
    uint32_t id;
    int got = hsx_arg_u32(c, "watch_id", &id, 1, UINT32_MAX);
    if (got == 0)
        got = hsx_arg_u32(c, "watch", &id, 1, UINT32_MAX);
    if (hsx_required(c, got, "watch_id") < 0)
        return -1;
    watch *wt = find_watch(id);
    if (!wt)
        return hsx_fail_status(c, HSX_ERR_UNKNOWN_WATCH, 0);
    if (hsx_control(c, wt->pid) < 0 || hsx_fail_status(c, hsx_exec_watch_remove(id), wt->pid) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_key(c->w, "watch");
    put_watch(c->w, wt);
    wt->id = 0;
    return 0;
}

static int cmd_watch_list(hsx_call *c)
{
    hsx_task_info t;
    int one = hsx_arg_present(c, "pid");
    if (one && hsx_arg_task(c, &t) < 0)
        return -1;
    find_watch(0);
    hsx_reply_ok(c);
    hsx_key(c->w, "watches");
    hsx_cbor_open_array(c->w);
    for (int i = 0; i < HSX_MAX_WATCHES; i++)
        if (watches[i].id && (!one || watches[i].pid == t.pid))
            put_watch(c->w, &watches[i]);
    hsx_cbor_put_end(c->w);
    return 0;
}

/* A session's breakpoints and watches go when it ends. */
void hsx_debug_session_closed(int slot)
{
    for (int i = 0; i < HSX_MAX_BREAKPOINTS; i++)
        if (bp_owner[i].id && (slot < 0 || bp_owner[i].owner == slot)) {
            hsx_exec_bp_clear(bp_owner[i].id);
            bp_owner[i].id = 0;
        }
    for (int i = 0; i < HSX_MAX_WATCHES; i++)
        if (watches[i].id && watches[i].owner >= 0 && (slot < 0 || watches[i].owner == slot)) {
            hsx_exec_watch_remove(watches[i].id);
            watches[i].id = 0;
        }
}

/* -- trace ------------------------------------------------------------------------------------ */

#define TRACE_REPLY 64                  /* records one trace.records returns at most */

static uint32_t tracing[HSX_MAX_TASKS];    /* pids with trace.on (0: free) */

static int traced(uint32_t pid)
{
    for (int i = 0; i < HSX_MAX_TASKS; i++)
        if (tracing[i] == pid && pid)
            return 1;
    return 0;
}

static void set_traced(uint32_t pid, int on)
{
    hsx_task_info gone;
    for (int i = 0; i < HSX_MAX_TASKS; i++)
        if (tracing[i] && hsx_exec_task(tracing[i], &gone) != HSX_OK)
            tracing[i] = 0;             /* its task was removed */
    for (int i = 0; i < HSX_MAX_TASKS; i++)
        if (on ? !tracing[i] || tracing[i] == pid : tracing[i] == pid) {
            tracing[i] = on ? pid : 0;
            if (on)
                return;
        }
}

static void put_trace_status(hsx_cbor_writer *w, uint32_t pid, uint32_t count, int open)
{
    if (!open)
        hsx_cbor_open_map(w);
    hsx_field_u(w, "pid", pid);
    hsx_field_b(w, "enabled", traced(pid));
    hsx_key(w, "format");
    hsx_cbor_put_str(w, "hsx.trace/1");
    hsx_field_u(w, "capacity", HSX_TRACE_RECORDS);
    hsx_field_u(w, "count", count);
    if (!open)
        hsx_cbor_put_end(w);
}

static int trace_switch(hsx_call *c, int on)
{
    hsx_task_info t;
    if (hsx_arg_task(c, &t) < 0 || hsx_control(c, t.pid) < 0 ||
        hsx_fail_status(c, hsx_exec_trace(t.pid, on), t.pid) < 0)
        return -1;
    set_traced(t.pid, on);
    hsx_reply_ok(c);
    hsx_key(c->w, "trace");
    put_trace_status(c->w, t.pid, 0, 0);
    return 0;
}

static int cmd_trace_on(hsx_call *c) { return trace_switch(c, 1); }
static int cmd_trace_off(hsx_call *c) { return trace_switch(c, 0); }

static int cmd_trace_records(hsx_call *c)
{
    hsx_trace_record records[TRACE_REPLY];
    hsx_task_info t;
    uint32_t limit = TRACE_REPLY, n;
    if (hsx_arg_task(c, &t) < 0 || hsx_arg_u32(c, "limit", &limit, 0, UINT32_MAX) < 0)
        return -1;
    n = hsx_exec_trace_records(t.pid, records, TRACE_REPLY);
    uint32_t returned = n < limit ? n : limit;
    hsx_reply_ok(c);
    hsx_key(c->w, "trace");
    hsx_cbor_open_map(c->w);
    put_trace_status(c->w, t.pid, n, 1);
    hsx_field_u(c->w, "returned", returned);
    hsx_key(c->w, "records");
    hsx_cbor_put_array(c->w, returned);
    for (uint32_t i = n - returned; i < n; i++) {
        hsx_cbor_put_map(c->w, 3);
        hsx_field_u64(c->w, "seq", records[i].steps);
        hsx_field_u(c->w, "pid", t.pid);
        hsx_field_u(c->w, "pc", records[i].pc);
    }
    hsx_cbor_put_end(c->w);
    return 0;
}

#define DEBUG(handler) handler
#else
#define DEBUG(handler) NULL
void hsx_debug_session_closed(int slot) { (void)slot; }
#endif

const hsx_command hsx_debug_commands[] = {
    {"bp.set bp.add", DEBUG(cmd_bp_set), W | DEV},
    {"bp.clear bp.remove bp.rm bp.del bp.delete", DEBUG(cmd_bp_clear), W | DEV},
    {"bp.clear_all bp.clearall bp.reset", DEBUG(cmd_bp_clear_all), W | DEV},
    {"bp.enable", DEBUG(cmd_bp_enable), W | DEV},
    {"bp.disable", DEBUG(cmd_bp_disable), W | DEV},
    {"bp.list bp bp.ls", DEBUG(cmd_bp_list), DEV},
    {"run.to", DEBUG(cmd_run_to), W | DEV},
    {"stack.info stack stack.list", DEBUG(cmd_stack), DEV},
    {"watch.add watch.create", DEBUG(cmd_watch_add), W | DEV},
    {"watch.remove watch.rm watch.del watch.delete", DEBUG(cmd_watch_remove), W | DEV},
    {"watch.list watch watch.ls", DEBUG(cmd_watch_list), DEV},
    {"trace.on", DEBUG(cmd_trace_on), W | DEV},
    {"trace.off", DEBUG(cmd_trace_off), W | DEV},
    {"trace.records trace.history", DEBUG(cmd_trace_records), DEV},
    {NULL, NULL, 0},
};
