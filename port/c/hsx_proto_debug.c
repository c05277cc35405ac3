/* HSX C executive: the debugger's commands (development and full; docs/protocol.md
 * "Debugger"): breakpoints, run.to, the raw stack walk, watches and the trace ring, by
 * address. Symbols, source lines and disassembly are the host's (hsx.client's gateway
 * turns "main" or "prog.c:12" into an address before a request reaches the board), so
 * listings carry null where hsx execd names a symbol. In the minimal variant the table
 * names these commands with no handler: they answer `unsupported`.
 */
#include <stddef.h>

#include "hsx_proto.h"

HSX_COLD_CODE_BEGIN

#if HSX_HAS_DEBUG

#define TRACE_REPLY 64                  /* records one trace.records returns at most */

/* Who set each breakpoint and watch: a session's go when it ends (hsx execd's rule). */
typedef struct owned {
    uint32_t id;                        /* 0: free */
    uint8_t watch;                      /* a watch's id, else a breakpoint's */
    int8_t owner;                       /* session slot, -1: none */
} owned;

static owned owners[HSX_MAX_BREAKPOINTS + HSX_MAX_WATCHES];
static uint32_t tracing[HSX_MAX_TASKS];    /* pids with trace.on (0: free) */
static uint16_t trace_size[HSX_MAX_TASKS]; /* the ring each asked for: records it shows */

HSX_NOINLINE static owned *owner_of(uint32_t id, int watch)
{
    for (int i = 0; i < HSX_MAX_BREAKPOINTS + HSX_MAX_WATCHES; i++)
        if (owners[i].id == id && owners[i].watch == watch)
            return &owners[i];
    return NULL;
}

static void remember(uint32_t id, int watch, int owner)
{
    owned *o = owner_of(id, watch);
    if (!o)
        o = owner_of(0, 0);
    if (!o)
        o = owner_of(0, 1);
    if (o)
        *o = (owned){id, (uint8_t)watch, (int8_t)owner};
}

static void forget(uint32_t id, int watch)
{
    owned *o = owner_of(id, watch);
    if (o)
        o->id = 0;
}

static void put_owner(hsx_cbor_writer *w, uint32_t id, int watch)
{
    owned *o = owner_of(id, watch);
    hsx_put_key(w, K_owner);
    hsx_put_session_handle(w, o ? o->owner : -1);
}

static const hsx_row breakpoint_row[] = {
    ROW(id, R_U32, hsx_breakpoint_info, id), ROW(pid, R_U32, hsx_breakpoint_info, pid),
    ROW(address, R_U32, hsx_breakpoint_info, addr), ROW_CONST(symbol, R_NULL, 0), ROW_CONST(offset, R_NULL, 0), ROW_CONST(file, R_NULL, 0),
    ROW_CONST(line, R_NULL, 0), ROW(hits, R_U32, hsx_breakpoint_info, hits),
    ROW(enabled, R_BOOL, hsx_breakpoint_info, enabled),
    ROW(temporary, R_BOOL, hsx_breakpoint_info, temporary), ROW_CONST(condition, R_NULL, 0),
    ROW_CONST(remembered, R_FALSE, 0),
};

/* A listing as hsx execd's, without what only symbols give. */
static void put_breakpoint(hsx_cbor_writer *w, const hsx_breakpoint_info *b)
{
    char location[10] = "0x";
    int n = 2, shift = 28;
    while (shift > 12 && !(b->addr >> shift))
        shift -= 4;
    for (; shift >= 0; shift -= 4)
        location[n++] = "0123456789ABCDEF"[b->addr >> shift & 15];
    hsx_cbor_open_map(w);
    hsx_field_k(w, K_kind, b->brk ? K_brk : K_breakpoint);
    if (b->brk)
        hsx_field_u(w, K_code, b->code);
    hsx_put_row(w, breakpoint_row, sizeof breakpoint_row / sizeof *breakpoint_row, b);
    hsx_put_key(w, K_location);
    hsx_cbor_put_text(w, location, (uint32_t)n);
    put_owner(w, b->id, 0);
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

/* The breakpoint `breakpoint_id` names, which the caller may change: 0, or -1. */
static int arg_breakpoint(hsx_call *c, hsx_breakpoint_info *b)
{
    if (!HAS(c, breakpoint_id))
        return hsx_fail_field(c, K_breakpoint_id);
    if (!find_breakpoint(ARG(c, breakpoint_id), b))
        return hsx_fail_status(c, HSX_ERR_UNKNOWN_BREAKPOINT);
    return hsx_control(c, b->pid);
}

int hsx_cmd_bp_set(hsx_call *c)
{
    hsx_breakpoint_info b;
    uint32_t id;
    if (!HAS(c, addr))
        return hsx_fail_field(c, K_addr);
    if (ARG(c, condition))
        return hsx_fail(c, K_bad_condition);
    if (hsx_fail_status(c, hsx_exec_bp_set(c->t.pid, ARG(c, addr), (int)ARG(c, temporary),
                                           &id)) < 0)
        return -1;
    if (!owner_of(id, 0))
        remember(id, 0, c->session);
    find_breakpoint(id, &b);
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_breakpoint_id, id);
    hsx_put_key(c->w, K_breakpoint);
    put_breakpoint(c->w, &b);
    return 0;
}

/* Clear (and list in `cleared`) every breakpoint of pid (at addr, unless all), or the
 * one with id. */
static int clear(hsx_call *c, uint32_t id, uint32_t pid, uint32_t addr, int all)
{
    hsx_breakpoint_info b;
    uint32_t cursor = 0;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_cleared);
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_breakpoint(&cursor, &b))
        if (id ? b.id == id : (b.pid == pid && !b.brk && (all || b.addr == addr))) {
            put_breakpoint(c->w, &b);
            hsx_exec_bp_clear(b.id);
            forget(b.id, 0);
            cursor = 0;                 /* the list changed: from the start again */
        }
    hsx_cbor_put_end(c->w);
    return 0;
}

/* bp.clear {breakpoint_id}, or the older form {pid, addr}: every breakpoint there. */
int hsx_cmd_bp_clear(hsx_call *c)
{
    hsx_breakpoint_info b;
    if (HAS(c, breakpoint_id)) {
        if (arg_breakpoint(c, &b) < 0)
            return -1;
        return b.brk ? hsx_fail_status(c, HSX_ERR_STATIC_BREAKPOINT) : clear(c, b.id, 0, 0, 0);
    }
    if (!HAS(c, pid) || !HAS(c, addr))
        return hsx_fail_field(c, HAS(c, pid) ? K_addr : K_breakpoint_id);
    if (hsx_control(c, ARG(c, pid)) < 0)
        return -1;
    return clear(c, 0, ARG(c, pid), ARG(c, addr), 0);
}

int hsx_cmd_bp_clear_all(hsx_call *c) { return clear(c, 0, c->t.pid, 0, 1); }

static int bp_enable(hsx_call *c, int enabled)
{
    hsx_breakpoint_info b;
    if (arg_breakpoint(c, &b) < 0 ||
        hsx_fail_status(c, hsx_exec_bp_enable(b.id, enabled)) < 0)
        return -1;
    find_breakpoint(b.id, &b);
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_breakpoint);
    put_breakpoint(c->w, &b);
    return 0;
}

int hsx_cmd_bp_enable(hsx_call *c) { return bp_enable(c, 1); }
int hsx_cmd_bp_disable(hsx_call *c) { return bp_enable(c, 0); }

int hsx_cmd_bp_list(hsx_call *c)
{
    hsx_breakpoint_info b;
    uint32_t cursor = 0;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_breakpoints);
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_breakpoint(&cursor, &b))
        if (!HAS(c, pid) || b.pid == c->t.pid)
            put_breakpoint(c->w, &b);
    hsx_cbor_put_end(c->w);
    return 0;
}

int hsx_cmd_run_to(hsx_call *c)
{
    uint32_t id;
    if (!HAS(c, addr))
        return hsx_fail_field(c, K_addr);
    if (hsx_fail_status(c, hsx_exec_run_to(c->t.pid, ARG(c, addr), &id)) < 0)
        return -1;
    remember(id, 0, c->session);
    hsx_exec_task(c->t.pid, &c->t);
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_result);
    hsx_cbor_put_map(c->w, 4);
    hsx_field_u(c->w, K_pid, c->t.pid);
    hsx_field_u(c->w, K_pc, c->t.pc);
    hsx_put_key(c->w, K_state);
    hsx_put_state(c->w, c->t.state);
    hsx_field_u(c->w, K_breakpoint_id, id);
    hsx_put_clock(c->w);
    return 0;
}

/* jump: a paused task's pc moves to `addr` and nothing runs. The host checks that addr is
 * in the function the task is stopped in (its frame would be wrong elsewhere). */
int hsx_cmd_jump(hsx_call *c)
{
    if (!HAS(c, addr))
        return hsx_fail_field(c, K_addr);
    if (c->t.state != HSX_STATE_PAUSED || c->t.wait_kind)
        return hsx_fail(c, K_not_stopped);
    if (hsx_fail_status(c, hsx_exec_set_register(c->t.pid, 16, ARG(c, addr))) < 0)
        return -1;
    hsx_exec_task(c->t.pid, &c->t);
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_result);
    hsx_cbor_put_map(c->w, 3);
    hsx_field_u(c->w, K_pid, c->t.pid);
    hsx_field_u(c->w, K_pc, c->t.pc);
    hsx_put_key(c->w, K_state);
    hsx_put_state(c->w, c->t.state);
    return 0;
}

static const hsx_row frame_row[] = {
    ROW(pc, R_U32, hsx_frame, pc), ROW(sp, R_U32, hsx_frame, sp), ROW(fp, R_U32, hsx_frame, fp),
};
static const hsx_row stack_row[] = {
    ROW(sp, R_U32, hsx_task_info, sp), ROW(stack_base, R_U32, hsx_task_info, stack_base),
    ROW(stack_top, R_U32, hsx_task_info, stack_top), ROW_CONST(note, R_NULL, 0),
    ROW_CONST(warnings, R_EMPTY_LIST, 0),
};

/* stack.info: the raw frames (pc, sp, fp), innermost first; names are the host's. */
int hsx_cmd_stack_info(hsx_call *c)
{
    hsx_frame frames[HSX_STACK_FRAMES];
    uint32_t max = HAS(c, max_frames) ? ARG(c, max_frames) : 16, count = 0;
    if (!max || max > 256)
        return hsx_fail_field(c, K_max_frames);
    uint32_t walk = max < HSX_STACK_FRAMES ? max + 1 : HSX_STACK_FRAMES;
    if (hsx_fail_status(c, hsx_exec_stack(c->t.pid, frames, walk, &count)) < 0)
        return -1;
    int truncated = count > max;
    if (truncated)
        count = max;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_stack);
    hsx_cbor_open_map(c->w);
    hsx_field_u(c->w, K_pid, c->t.pid);
    hsx_put_key(c->w, K_frames);
    hsx_cbor_put_array(c->w, count);
    for (uint32_t i = 0; i < count; i++) {
        hsx_cbor_put_map(c->w, 4);
        hsx_field_u(c->w, K_index, i);
        hsx_put_row(c->w, frame_row, 3, &frames[i]);
    }
    hsx_field_b(c->w, K_truncated, truncated);
    hsx_put_row(c->w, stack_row, 5, &c->t);
    hsx_cbor_put_end(c->w);
    return 0;
}

/* -- watches ---------------------------------------------------------------------------------- */

static int find_watch(uint32_t id, hsx_watch_info *out)
{
    uint32_t cursor = 0;
    while (hsx_exec_next_watch(&cursor, out))
        if (out->id == id)
            return 1;
    return 0;
}

static const hsx_row watch_row[] = {
    ROW(id, R_U32, hsx_watch_info, id), ROW(pid, R_U32, hsx_watch_info, pid),
    ROW(addr, R_U32, hsx_watch_info, addr), ROW(length, R_U32, hsx_watch_info, length),
    ROW_CONST(symbol, R_NULL, 0), ROW(stop, R_BOOL, hsx_watch_info, stop),
};

static void put_watch(hsx_cbor_writer *w, const hsx_watch_info *wt)
{
    uint8_t bytes[HSX_WATCH_BYTES];
    hsx_cbor_put_map(w, 8);
    hsx_put_row(w, watch_row, 6, wt);
    put_owner(w, wt->id, 1);
    hsx_put_key(w, K_value);
    if (hsx_exec_peek(wt->pid, 0, wt->addr, bytes, wt->length) == HSX_OK)
        hsx_put_hex(w, bytes, wt->length);
    else
        hsx_cbor_put_null(w);
}

int hsx_cmd_watch_add(hsx_call *c)
{
    hsx_watch_info wt;
    uint32_t id;
    hsx_status status;
    if (!HAS(c, addr))
        return hsx_fail_field(c, K_addr);
    status = hsx_exec_watch_add(c->t.pid, ARG(c, addr), HAS(c, length) ? ARG(c, length) : 4,
                                (int)ARG(c, stop), &id);
    if (status == HSX_ERR_BAD_ARGUMENT)
        return hsx_fail(c, K_out_of_range);
    if (hsx_fail_status(c, status) < 0)
        return -1;
    remember(id, 1, c->session);
    find_watch(id, &wt);
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_watch);
    put_watch(c->w, &wt);
    return 0;
}

int hsx_cmd_watch_remove(hsx_call *c)
{
    hsx_watch_info wt;
    if (!HAS(c, watch_id))
        return hsx_fail_field(c, K_watch_id);
    if (!find_watch(ARG(c, watch_id), &wt))
        return hsx_fail_status(c, HSX_ERR_UNKNOWN_WATCH);
    if (hsx_control(c, wt.pid) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_watch);
    put_watch(c->w, &wt);
    hsx_exec_watch_remove(wt.id);
    forget(wt.id, 1);
    return 0;
}

int hsx_cmd_watch_list(hsx_call *c)
{
    hsx_watch_info wt;
    uint32_t cursor = 0;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_watches);
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_watch(&cursor, &wt))
        if (!HAS(c, pid) || wt.pid == c->t.pid)
            put_watch(c->w, &wt);
    hsx_cbor_put_end(c->w);
    return 0;
}

/* A session's breakpoints and watches go when it ends. */
void hsx_debug_session_closed(int slot)
{
    for (int i = 0; i < HSX_MAX_BREAKPOINTS + HSX_MAX_WATCHES; i++)
        if (owners[i].id && (slot < 0 || owners[i].owner == slot)) {
            if (owners[i].watch)
                hsx_exec_watch_remove(owners[i].id);
            else
                hsx_exec_bp_clear(owners[i].id);
            owners[i].id = 0;
        }
}

/* -- trace ------------------------------------------------------------------------------------ */

/* The tracing slot of pid (-1: not traced); with `claim`, a free one (or -1: none). */
static int trace_slot(uint32_t pid, int claim)
{
    hsx_task_info gone;
    for (int i = 0; i < HSX_MAX_TASKS; i++)
        if (tracing[i] && hsx_exec_task(tracing[i], &gone) != HSX_OK)
            tracing[i] = 0;             /* its task was removed */
    for (int i = 0; i < HSX_MAX_TASKS; i++)
        if (tracing[i] == pid && pid)
            return i;
    for (int i = 0; claim && i < HSX_MAX_TASKS; i++)
        if (!tracing[i])
            return i;
    return -1;
}

/* A task's ring as it asked for it: the newest `size` records of the shared ring. */
static uint32_t trace_capacity(uint32_t pid)
{
    int slot = trace_slot(pid, 0);
    return slot < 0 ? HSX_TRACE_RECORDS : trace_size[slot];
}

static void put_trace_status(hsx_cbor_writer *w, uint32_t pid, uint32_t count)
{
    uint32_t capacity = trace_capacity(pid);
    hsx_field_u(w, K_pid, pid);
    hsx_field_b(w, K_enabled, trace_slot(pid, 0) >= 0);
    hsx_field_k(w, K_format, K_trace_format);
    hsx_field_u(w, K_capacity, capacity);
    hsx_field_u(w, K_count, count < capacity ? count : capacity);
}

/* trace.on {size}: larger than the ring is clamped to it, with a warning (hsx execd's
 * words); trace.off keeps what was recorded readable. */
static int trace_switch(hsx_call *c, int on)
{
    uint32_t size = HAS(c, size) ? ARG(c, size) : HSX_TRACE_RECORDS;
    int slot = trace_slot(c->t.pid, on);
    if (on && (!size || slot < 0))
        return hsx_fail_field(c, K_size);
    if (hsx_fail_status(c, hsx_exec_trace(c->t.pid, on)) < 0)
        return -1;
    if (slot >= 0) {
        tracing[slot] = on ? c->t.pid : 0;
        trace_size[slot] = (uint16_t)(size < HSX_TRACE_RECORDS ? size : HSX_TRACE_RECORDS);
    }
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_trace);
    hsx_cbor_open_map(c->w);
    put_trace_status(c->w, c->t.pid, 0);
    if (on && size > HSX_TRACE_RECORDS) {
        hsx_put_key(c->w, K_warnings);
        hsx_cbor_put_array(c->w, 1);
        hsx_put_coded(c->w, K_size_clamped, HSX_TRACE_RECORDS);
    }
    hsx_cbor_put_end(c->w);
    return 0;
}

int hsx_cmd_trace_on(hsx_call *c) { return trace_switch(c, 1); }
int hsx_cmd_trace_off(hsx_call *c) { return trace_switch(c, 0); }

int hsx_cmd_trace_status(hsx_call *c)
{
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_trace);
    hsx_cbor_open_map(c->w);
    put_trace_status(c->w, c->t.pid, hsx_exec_trace_records(c->t.pid, NULL, 0));
    hsx_cbor_put_end(c->w);
    return 0;
}

int hsx_cmd_trace_records(hsx_call *c)
{
    hsx_trace_record records[TRACE_REPLY];
    uint32_t limit = HAS(c, limit) ? ARG(c, limit) : TRACE_REPLY, most = trace_capacity(c->t.pid);
    uint32_t n = hsx_exec_trace_records(c->t.pid, records, most < TRACE_REPLY ? most : TRACE_REPLY);
    uint32_t returned = n < limit ? n : limit;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_trace);
    hsx_cbor_open_map(c->w);
    put_trace_status(c->w, c->t.pid, hsx_exec_trace_records(c->t.pid, NULL, 0));
    hsx_field_u(c->w, K_returned, returned);
    hsx_put_key(c->w, K_records);
    hsx_cbor_put_array(c->w, returned);
    for (uint32_t i = n - returned; i < n; i++) {
        hsx_cbor_put_map(c->w, 3);
        hsx_put_key(c->w, K_seq);
        hsx_cbor_put_uint(c->w, records[i].steps);
        hsx_field_u(c->w, K_pid, c->t.pid);
        hsx_field_u(c->w, K_pc, records[i].pc);
    }
    hsx_cbor_put_end(c->w);
    return 0;
}

#else
void hsx_debug_session_closed(int slot) { (void)slot; }
#endif

HSX_COLD_CODE_END
