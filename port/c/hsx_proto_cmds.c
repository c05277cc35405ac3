/* HSX C executive: the protocol v1 commands every variant has (docs/protocol.md):
 * ping, info, ps, load (whole and streamed), kill, pause, resume, sched, step, regs,
 * peek, poke, stdio, values and commands, sessions. Names, fields, reply shapes and
 * error codes are hsx execd's (src/hsx/server/handlers); where a board cannot do the
 * same, docs/port.md lists the difference.
 */
#include <stddef.h>

#include "hsx_proto.h"

#define W HSX_CMD_WRITES
#define MAX_PEEK 0x10000u
#define MAX_TASK_STEP 0x1FFFFFFFFFFFFFull       /* 2**53 - 1, as hsx execd */
#define MAX_STEP 1000000000u                    /* a step without a pid */


static int live(hsx_state state)
{
    return state != HSX_STATE_RETURNED && state != HSX_STATE_FAULTED &&
           state != HSX_STATE_KILLED && state != HSX_STATE_NONE;
}

/* -- views ------------------------------------------------------------------------------------ */

void hsx_put_task_row(hsx_cbor_writer *w, const hsx_task_info *t)
{
    hsx_cbor_open_map(w);
    hsx_field_u(w, "pid", t->pid);
    hsx_field_s(w, "app_name", t->app_name);
    hsx_field_s(w, "app_name_base", t->app_name_base);
    hsx_key(w, "state");
    hsx_put_state(w, t->state);
    hsx_field_u(w, "pc", t->pc);
    hsx_field_u(w, "priority", t->priority);
    hsx_field_u(w, "quantum", t->quantum);
    hsx_field_u64(w, "instructions", t->instructions);
    hsx_key(w, "exit_status");
    if (t->has_exit_status)
        hsx_cbor_put_int(w, t->exit_status);
    else
        hsx_cbor_put_null(w);
    hsx_field_u(w, "turns", t->turns);
    hsx_field_u(w, "waits", t->waits);
    hsx_field_u(w, "wakes", t->wakes);
    hsx_field_u(w, "timeouts", t->timeouts);
    hsx_field_u(w, "sleeps", t->sleeps);
    hsx_key(w, "input_dropped");
    hsx_cbor_put_map(w, 0);
    hsx_field_u(w, "reg_base", t->reg_base);
    hsx_field_u(w, "stack_base", t->stack_base);
    hsx_field_u(w, "stack_top", t->stack_top);
    hsx_field_u(w, "sp", t->sp);
    hsx_key(w, "locked_by");
    hsx_put_session_handle(w, hsx_owner(t->pid));
    if (t->fault_kind) {
        hsx_key(w, "fault");
        hsx_cbor_put_map(w, 4);
        hsx_field_s(w, "kind", t->fault_kind);
        hsx_field_u(w, "pc", t->fault_pc);
        hsx_key(w, "addr");
        if (t->fault_addr < 0)
            hsx_cbor_put_null(w);
        else
            hsx_cbor_put_int(w, t->fault_addr);
        hsx_field_s(w, "message", t->fault_kind);
    }
    if (t->wait_kind) {
        int sleep = t->wait_kind[0] == 's';
        hsx_key(w, "wait");
        hsx_cbor_put_map(w, 2);
        hsx_field_s(w, "kind", t->wait_kind);
        if (sleep)
            hsx_field_u(w, "ms", t->wait_ms);
        else
            hsx_field_u(w, "handle", t->wait_handle);
    }
    hsx_cbor_put_end(w);
}

static void put_registers(hsx_cbor_writer *w, const hsx_registers *r, const hsx_task_info *t)
{
    static const char flag_names[] = "ZCNV";
    char flags[4];
    uint32_t n = 0;
    for (int bit = 0; bit < 4; bit++)
        if (r->psw >> bit & 1)
            flags[n++] = flag_names[bit];
    hsx_cbor_open_map(w);
    hsx_field_u(w, "pid", r->pid);
    hsx_field_u(w, "pc", r->pc);
    hsx_field_u(w, "psw", r->psw);
    hsx_key(w, "flags");
    hsx_cbor_put_text(w, flags, n);
    hsx_field_u(w, "sp", r->sp);
    hsx_key(w, "regs");
    hsx_cbor_put_array(w, 16);
    for (int i = 0; i < 16; i++)
        hsx_cbor_put_uint(w, r->regs[i]);
    hsx_field_u64(w, "steps", r->steps);
    hsx_key(w, "state");
    hsx_put_state(w, r->state);
    hsx_key(w, "exit_status");
    if (t->has_exit_status)
        hsx_cbor_put_int(w, t->exit_status);
    else
        hsx_cbor_put_null(w);
    hsx_field_u(w, "reg_base", t->reg_base);
    hsx_field_u(w, "stack_base", t->stack_base);
    hsx_field_u(w, "stack_top", t->stack_top);
    hsx_field_u(w, "stack_size", t->stack_top - t->stack_base);
    hsx_cbor_put_end(w);
}

/* A value as protocol v1 reports it: the f16 bits as a CBOR half float (the same
 * number), NaN and infinities spelled out as hsx execd's JSON does. */
static void put_clock(hsx_cbor_writer *w)
{
    hsx_key(w, "clock");
    hsx_cbor_put_map(w, 3);
    hsx_field_s(w, "state", "running");
    hsx_key(w, "running");
    hsx_cbor_put_bool(w, 1);
    hsx_field_s(w, "mode", "running");
}

/* -- the executive ---------------------------------------------------------------------------- */

static int cmd_ping(hsx_call *c)
{
    hsx_reply_ok(c);
    hsx_field_s(c->w, "reply", "pong");
    hsx_field_u(c->w, "protocol", 1);
    hsx_field_s(c->w, "server", "hsx-exec");
    hsx_field_s(c->w, "hsx_version", HSX_VERSION);
    return 0;
}

static void put_tasks(hsx_cbor_writer *w, int live_only)
{
    hsx_task_info t;
    uint32_t cursor = 0;
    hsx_cbor_open_array(w);
    while (hsx_exec_next_task(&cursor, &t))
        if (!live_only || live(t.state))
            hsx_put_task_row(w, &t);
    hsx_cbor_put_end(w);
}

static int cmd_info(hsx_call *c)
{
    hsx_task_info t;
    hsx_registers r;
    int selected = hsx_arg_present(c, "pid");
    const hsx_hal *hal = hsx_exec_hal();
    if (selected && (hsx_arg_task(c, &t) < 0 || hsx_fail_status(c, hsx_exec_registers(t.pid, &r), t.pid) < 0))
        return -1;
    hsx_cbor_writer *w = c->w;
    hsx_reply_ok(c);
    hsx_key(w, "info");
    hsx_cbor_open_map(w);
    hsx_field_s(w, "program", "hsx-exec");
    hsx_field_s(w, "hsx_version", HSX_VERSION);
    hsx_field_u(w, "protocol", 1);
    hsx_field_s(w, "board", hal->board ? hal->board : "unknown");
    hsx_field_s(w, "variant", HSX_VARIANT_NAME);
    hsx_field_s(w, "profile", HSX_VARIANT_NAME);
    hsx_key(w, "uptime_s");
    hsx_put_seconds(w, hsx_proto_uptime_ms());
    hsx_key(w, "limits");
    hsx_cbor_open_map(w);
    hsx_field_u(w, "max_tasks", HSX_MAX_TASKS);
    hsx_field_u(w, "task_memory", HSX_TASK_MEMORY);
    hsx_field_u(w, "code_arena", HSX_CODE_ARENA);
    hsx_field_u(w, "max_mailboxes", HSX_MAX_MAILBOXES);
    hsx_field_u(w, "max_values", HSX_MAX_VALUES);
    hsx_field_u(w, "max_commands", HSX_MAX_COMMANDS);
    hsx_field_u(w, "max_breakpoints", HSX_HAS_DEBUG ? HSX_MAX_BREAKPOINTS : 0);
    hsx_field_u(w, "max_watches", HSX_HAS_DEBUG ? HSX_MAX_WATCHES : 0);
    hsx_field_u(w, "trace_records", HSX_TRACE_RECORDS);
    hsx_field_u(w, "event_queue", HSX_EVENT_QUEUE);
    hsx_field_u(w, "max_sessions", HSX_MAX_SESSIONS);
    hsx_field_u(w, "window", HSX_RX_WINDOW);
    hsx_field_u(w, "max_frame", HSX_MAX_FRAME);
    hsx_cbor_put_end(w);
    hsx_key(w, "tasks");
    put_tasks(w, 0);
    hsx_key(w, "current_pid");
    hsx_cbor_put_null(w);
    hsx_key(w, "events");
    hsx_cbor_put_map(w, 2);
    hsx_field_u(w, "last_seq", hsx_events_last_seq());
    hsx_field_u(w, "retained", 0);
    if (selected) {
        hsx_field_u(w, "selected_pid", t.pid);
        hsx_key(w, "selected_registers");
        put_registers(w, &r, &t);
    }
    hsx_cbor_put_end(w);
    return 0;
}

static int cmd_ps(hsx_call *c)
{
    hsx_task_info t;
    int one = hsx_arg_present(c, "pid");
    if (one && hsx_arg_task(c, &t) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_key(c->w, "tasks");
    hsx_cbor_put_map(c->w, 2);
    hsx_key(c->w, "tasks");
    if (one) {
        hsx_cbor_put_array(c->w, 1);
        hsx_put_task_row(c->w, &t);
    } else {
        put_tasks(c->w, 0);
    }
    hsx_key(c->w, "current_pid");
    hsx_cbor_put_null(c->w);
    return 0;
}

/* -- loading ---------------------------------------------------------------------------------- */

static int arg_name(hsx_call *c, char *name)
{
    return hsx_arg_cstr(c, "name", name, HSX_APP_NAME_MAX);
}

/* The reply of a load: pid, image (what the board knows of it), task. */
static int loaded(hsx_call *c, uint32_t pid)
{
    hsx_task_info t;
    if (hsx_fail_status(c, hsx_exec_task(pid, &t), pid) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_field_u(c->w, "pid", pid);
    hsx_key(c->w, "image");
    hsx_cbor_put_map(c->w, 6);
    hsx_field_u(c->w, "pid", pid);
    hsx_field_s(c->w, "app_name", t.app_name);
    hsx_field_s(c->w, "app_name_base", t.app_name_base);
    hsx_field_s(c->w, "program", NULL);
    hsx_field_u(c->w, "code_len", t.code_len);
    hsx_field_s(c->w, "symbols", NULL);
    hsx_key(c->w, "task");
    hsx_put_task_row(c->w, &t);
    return 0;
}

static int cmd_load(hsx_call *c)
{
    char name[HSX_APP_NAME_MAX];
    const uint8_t *image;
    uint32_t len, pid;
    int paused = 0, got_name;
    if (hsx_arg_present(c, "path"))
        return hsx_fail(c, "bad_argument", "a board has no files to load from: send the image's "
                        "bytes ('image', or a streamed load; hsx.client does this for a path)", NULL);
    if (hsx_required(c, hsx_arg_data(c, "image", NULL, &image, &len), "image") < 0 ||
        (got_name = arg_name(c, name)) < 0 || hsx_arg_bool(c, "paused", &paused) < 0)
        return -1;
    if (hsx_fail_status(c, hsx_exec_load(image, len, 0, got_name ? name : NULL, paused, &pid), 0) < 0)
        return -1;
    return loaded(c, pid);
}

static int cmd_load_begin(hsx_call *c)
{
    char name[HSX_APP_NAME_MAX];
    uint32_t stream;
    int got_name = arg_name(c, name);
    if (got_name < 0 || hsx_fail_status(c, hsx_exec_load_begin(got_name ? name : NULL, &stream), 0) < 0)
        return -1;
    hsx_proto_stream_opened(stream);
    hsx_reply_ok(c);
    hsx_field_u(c->w, "stream", stream);
    return 0;
}

static int arg_stream(hsx_call *c, uint32_t *stream)
{
    return hsx_required(c, hsx_arg_u32(c, "stream", stream, 0, UINT32_MAX), "stream");
}

static int cmd_load_write(hsx_call *c)
{
    const uint8_t *data;
    uint32_t stream, len, total;
    if (arg_stream(c, &stream) < 0 ||
        hsx_required(c, hsx_arg_data(c, "data", NULL, &data, &len), "data") < 0)
        return -1;
    hsx_status status = hsx_exec_load_write(stream, data, len, &total);
    if (status != HSX_OK) {
        if (status != HSX_ERR_UNKNOWN_STREAM)
            hsx_proto_stream_closed(stream);    /* the executive dropped a refused stream */
        return hsx_fail_status(c, status, 0);
    }
    hsx_reply_ok(c);
    hsx_field_u(c->w, "stream", stream);
    hsx_field_u(c->w, "received", len);
    return 0;
}

static int cmd_load_end(hsx_call *c)
{
    uint32_t stream, pid;
    int paused = 0;
    if (arg_stream(c, &stream) < 0 || hsx_arg_bool(c, "paused", &paused) < 0)
        return -1;
    hsx_status status = hsx_exec_load_end(stream, paused, &pid);
    if (status != HSX_ERR_UNKNOWN_STREAM)
        hsx_proto_stream_closed(stream);
    if (hsx_fail_status(c, status, 0) < 0)
        return -1;
    return loaded(c, pid);
}

static int cmd_load_abort(hsx_call *c)
{
    uint32_t stream;
    if (arg_stream(c, &stream) < 0 || hsx_fail_status(c, hsx_exec_load_abort(stream), 0) < 0)
        return -1;
    hsx_proto_stream_closed(stream);
    hsx_reply_ok(c);
    hsx_field_u(c->w, "aborted", stream);
    return 0;
}

/* -- task control ------------------------------------------------------------------------------ */

static int cmd_kill(hsx_call *c)
{
    hsx_task_info t;
    if (hsx_arg_task(c, &t) < 0 || hsx_control(c, t.pid) < 0 ||
        hsx_fail_status(c, hsx_exec_kill(t.pid), t.pid) < 0)
        return -1;
    if (live(t.state))
        t.state = HSX_STATE_KILLED;     /* the row as it was, killed (it left the list) */
    hsx_exec_task(t.pid, &t);
    hsx_reply_ok(c);
    hsx_key(c->w, "task");
    hsx_put_task_row(c->w, &t);
    return 0;
}

/* pause / resume: one task (`task`), or every live task (`tasks`). */
static int pause_or_resume(hsx_call *c, hsx_status (*action)(uint32_t))
{
    hsx_task_info t;
    uint32_t cursor = 0;
    if (hsx_arg_present(c, "pid")) {
        if (hsx_arg_task(c, &t) < 0 || hsx_control(c, t.pid) < 0 ||
            hsx_fail_status(c, action(t.pid), t.pid) < 0)
            return -1;
        hsx_exec_task(t.pid, &t);
        hsx_reply_ok(c);
        hsx_key(c->w, "task");
        hsx_put_task_row(c->w, &t);
        return 0;
    }
    while (hsx_exec_next_task(&cursor, &t))
        if (live(t.state) && hsx_control(c, t.pid) < 0)
            return -1;
    for (cursor = 0; hsx_exec_next_task(&cursor, &t);)
        if (live(t.state))
            action(t.pid);
    hsx_reply_ok(c);
    hsx_key(c->w, "tasks");
    put_tasks(c->w, 1);
    return 0;
}

static int cmd_pause(hsx_call *c) { return pause_or_resume(c, hsx_exec_pause); }
static int cmd_resume(hsx_call *c) { return pause_or_resume(c, hsx_exec_resume); }

static int cmd_sched(hsx_call *c)
{
    hsx_task_info t;
    uint32_t quantum = 0, priority = 0, cursor = 0;
    int got_quantum, got_priority;
    if (!hsx_arg_present(c, "pid")) {
        uint32_t limit = 32;
        if (hsx_arg_u32(c, "limit", &limit, 0, 4096) < 0)
            return -1;
        hsx_reply_ok(c);
        hsx_key(c->w, "scheduler");
        hsx_cbor_put_map(c->w, 2);
        hsx_key(c->w, "queued");
        hsx_cbor_open_array(c->w);
        while (hsx_exec_next_task(&cursor, &t))
            if (t.state == HSX_STATE_READY || t.state == HSX_STATE_RUNNING)
                hsx_cbor_put_uint(c->w, t.pid);
        hsx_cbor_put_end(c->w);
        hsx_key(c->w, "trace");
        hsx_cbor_put_array(c->w, 0);
        return 0;
    }
    if (hsx_arg_task(c, &t) < 0 ||
        (got_quantum = hsx_arg_u32(c, "quantum", &quantum, 1, 1000000)) < 0 ||
        (got_priority = hsx_arg_u32(c, "priority", &priority, 0, 255)) < 0 ||
        hsx_control(c, t.pid) < 0)
        return -1;
    c->writes = 1;
    if (hsx_fail_status(c, hsx_exec_sched(t.pid, got_priority ? (int32_t)priority : -1,
                                          got_quantum ? (int32_t)quantum : -1), t.pid) < 0)
        return -1;
    hsx_exec_task(t.pid, &t);
    hsx_reply_ok(c);
    hsx_key(c->w, "task");
    hsx_put_task_row(c->w, &t);
    return 0;
}

static int arg_count(hsx_call *c, uint64_t *count, uint64_t max)
{
    int got = hsx_arg_u64(c, "count", count, 1, max);
    return got ? got : hsx_arg_u64(c, "steps", count, 1, max);
}

static int cmd_step(hsx_call *c)
{
    hsx_task_info t;
    uint64_t count = 1;
    uint32_t executed = 0, cursor = 0;
    if (hsx_arg_present(c, "pid")) {
        if (hsx_arg_task(c, &t) < 0 || arg_count(c, &count, MAX_TASK_STEP) < 0 ||
            hsx_control(c, t.pid) < 0)
            return -1;
        if (count > HSX_HOST_STEPS)
            return hsx_fail(c, "bad_argument", "a board steps at most 10000 instructions before "
                            "it replies: use run.to, or resume and pause", NULL);
        if (hsx_fail_status(c, hsx_exec_step(t.pid, (uint32_t)count, &executed), t.pid) < 0)
            return -1;
        hsx_exec_task(t.pid, &t);
    } else {
        if (arg_count(c, &count, MAX_STEP) < 0)
            return -1;
        while (hsx_exec_next_task(&cursor, &t))
            if ((t.state == HSX_STATE_READY || t.state == HSX_STATE_RUNNING) &&
                hsx_control(c, t.pid) < 0)
                return -1;
        while (executed < count) {
            uint32_t ran = hsx_exec_run((uint32_t)(count - executed), NULL);
            if (!ran)
                break;
            executed += ran;
        }
    }
    hsx_reply_ok(c);
    hsx_key(c->w, "result");
    hsx_cbor_open_map(c->w);
    hsx_field_u(c->w, "executed", executed);
    hsx_field_u64(c->w, "requested", count);
    hsx_key(c->w, "current_pid");
    if (hsx_arg_present(c, "pid")) {
        hsx_cbor_put_uint(c->w, t.pid);
        hsx_field_u(c->w, "pid", t.pid);
        hsx_field_u(c->w, "pc", t.pc);
        hsx_key(c->w, "state");
        hsx_put_state(c->w, t.state);
        hsx_key(c->w, "running");
        hsx_cbor_put_bool(c->w, t.state == HSX_STATE_READY || t.state == HSX_STATE_RUNNING);
    } else {
        hsx_cbor_put_null(c->w);
    }
    hsx_cbor_put_end(c->w);
    put_clock(c->w);
    return 0;
}

/* -- memory and registers ----------------------------------------------------------------------- */

static int cmd_regs(hsx_call *c)
{
    hsx_task_info t;
    hsx_registers r;
    if (hsx_arg_task(c, &t) < 0 || hsx_fail_status(c, hsx_exec_registers(t.pid, &r), t.pid) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_key(c->w, "registers");
    put_registers(c->w, &r, &t);
    return 0;
}

static int arg_addr(hsx_call *c, uint32_t *addr)
{
    int got = hsx_arg_u32(c, "addr", addr, 0, UINT32_MAX);
    if (got == 0)
        got = hsx_arg_u32(c, "address", addr, 0, UINT32_MAX);
    return hsx_required(c, got, "addr");
}

static int out_of_range(hsx_call *c, hsx_status status, uint32_t pid)
{
    if (status == HSX_ERR_BAD_ARGUMENT)
        return hsx_fail(c, "bad_argument", "the range is outside the task's memory", NULL);
    return hsx_fail_status(c, status, pid);
}

static int cmd_peek(hsx_call *c)
{
    hsx_task_info t;
    uint32_t addr, length = 16;
    uint8_t chunk[64];
    const char *space_text = "data";
    uint32_t space_len = 4;
    int got;
    if (hsx_arg_task(c, &t) < 0 || arg_addr(c, &addr) < 0)
        return -1;
    if ((got = hsx_arg_u32(c, "length", &length, 0, MAX_PEEK)) == 0)
        got = hsx_arg_u32(c, "size", &length, 0, MAX_PEEK);
    if (got < 0 || hsx_arg_text(c, "space", &space_text, &space_len, 4) < 0)
        return -1;
    int space = space_len == 4 && space_text[0] == 'c' && space_text[1] == 'o' ? 1
              : space_len == 4 && space_text[0] == 'd' && space_text[1] == 'a' ? 0 : -1;
    if (space < 0)
        return hsx_fail(c, "bad_argument", "'space' must be one of \"data\", \"code\"", NULL);
    /* the whole range is checked before the reply starts: its two ends */
    if (length && (addr + length - 1 < addr ||
                   out_of_range(c, hsx_exec_peek(t.pid, space, addr, chunk, 1), t.pid) < 0 ||
                   out_of_range(c, hsx_exec_peek(t.pid, space, addr + length - 1, chunk, 1), t.pid) < 0))
        return c->error ? -1 : hsx_fail(c, "bad_argument", "the range is outside the task's memory", NULL);
    hsx_reply_ok(c);
    hsx_field_u(c->w, "pid", t.pid);
    hsx_field_u(c->w, "addr", addr);
    hsx_field_u(c->w, "length", length);
    hsx_field_s(c->w, "space", space ? "code" : "data");
    hsx_key(c->w, "data");
    hsx_cbor_put_bytes_start(c->w, length);
    for (uint32_t done = 0; done < length; done += sizeof chunk) {
        uint32_t n = length - done < sizeof chunk ? length - done : sizeof chunk;
        hsx_exec_peek(t.pid, space, addr + done, chunk, n);
        hsx_cbor_put_raw(c->w, chunk, n);
    }
    return 0;
}

static int arg_bytes(hsx_call *c, const uint8_t **data, uint32_t *len)
{
    int got = hsx_arg_data(c, "data", "data_b64", data, len);
    if (got == 0)
        got = hsx_arg_data(c, "data_hex", NULL, data, len);
    return got;
}

static int cmd_poke(hsx_call *c)
{
    hsx_task_info t;
    const uint8_t *data;
    uint32_t addr, len;
    if (hsx_arg_task(c, &t) < 0 || arg_addr(c, &addr) < 0 ||
        hsx_required(c, arg_bytes(c, &data, &len), "data") < 0 || hsx_control(c, t.pid) < 0 ||
        out_of_range(c, hsx_exec_poke(t.pid, addr, data, len), t.pid) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_field_u(c->w, "pid", t.pid);
    hsx_field_u(c->w, "addr", addr);
    hsx_field_u(c->w, "length", len);
    return 0;
}

/* -- stdio ------------------------------------------------------------------------------------------ */

static int stdin_write(hsx_call *c)
{
    hsx_task_info t;
    const uint8_t *data = NULL;
    uint32_t len = 0, written = 0;
    int eof = 0, got;
    c->writes = 1;
    if (hsx_arg_task(c, &t) < 0 || hsx_arg_bool(c, "eof", &eof) < 0 || hsx_control(c, t.pid) < 0)
        return -1;
    if (!eof) {
        /* `data` is text (or a CBOR byte string); data_hex and data_b64 are encoded */
        hsx_cbor_item item;
        if (hsx_cbor_map_get(c->req, c->len, "data", &item) &&
            (item.type == HSX_CBOR_TEXT || item.type == HSX_CBOR_BYTES)) {
            data = item.data;
            len = (uint32_t)item.value;
            got = 1;
        } else if ((got = hsx_arg_data(c, "data_hex", "data_b64", &data, &len)) == 0 &&
                   hsx_arg_present(c, "data")) {
            return hsx_bad_type(c, "data", "text");
        }
        if (got < 0)
            return -1;
        if (!len)
            return hsx_fail(c, "bad_argument", "empty stdin write: use 'eof': true to end the input", NULL);
    }
    if (hsx_fail_status(c, hsx_exec_stdin(t.pid, data, len, eof, &written), t.pid) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_field_u(c->w, "pid", t.pid);
    hsx_field_u(c->w, "written", eof ? 0 : written);
    if (eof) {
        hsx_key(c->w, "eof");
        hsx_cbor_put_bool(c->w, 1);
    }
    return 0;
}

/* `stdio {op: "recent"}`: the output each task kept, stdout and stderr together (a board
 * keeps HSX_OUTPUT_KEEP bytes per task and does not tell the streams apart). */
/* `recent`: what each task (or task `only`) wrote; a task locked by another session is
 * left out (its output is that session's). */
void hsx_put_recent(hsx_call *c, int one, uint32_t only)
{
    hsx_task_info t;
    uint32_t cursor = 0;
    uint8_t kept[HSX_OUTPUT_KEEP];
    hsx_key(c->w, "recent");
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_task(&cursor, &t)) {
        uint32_t dropped = 0, n;
        int owner = hsx_owner(t.pid);
        if ((one && t.pid != only) || (owner >= 0 && owner != c->session))
            continue;
        n = hsx_exec_recent_output(t.pid, kept, sizeof kept, &dropped);
        if (!n && !dropped && !one)
            continue;
        hsx_cbor_put_map(c->w, 3);
        hsx_field_u(c->w, "pid", t.pid);
        hsx_key(c->w, "output");
        if (n) {
            hsx_cbor_put_array(c->w, 1);
            hsx_cbor_put_map(c->w, 2);
            hsx_field_s(c->w, "stream", "stdout");
            hsx_key(c->w, "text");
            hsx_cbor_put_text(c->w, (const char *)kept, n);
        } else {
            hsx_cbor_put_array(c->w, 0);
        }
        hsx_field_u(c->w, "dropped_chars", dropped);
    }
    hsx_cbor_put_end(c->w);
}

/* The task `pid` names (if it does), whose output the caller may read. */
int hsx_arg_output_of(hsx_call *c, int *one, uint32_t *pid)
{
    hsx_task_info t;
    int owner;
    *one = hsx_arg_u32(c, "pid", pid, 0, UINT32_MAX);
    if (*one < 0 || (*one && hsx_fail_status(c, hsx_exec_task(*pid, &t), *pid) < 0))
        return -1;
    owner = *one ? hsx_owner(*pid) : -1;
    return owner >= 0 && owner != c->session ? hsx_control(c, *pid) : 0;
}

/* `stdio {op: "recent"}`: the output each task kept, stdout and stderr together (a board
 * keeps HSX_OUTPUT_KEEP bytes per task and does not tell the streams apart). */
static int stdio_recent(hsx_call *c)
{
    uint32_t only = 0;
    int one;
    if (hsx_arg_output_of(c, &one, &only) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_put_recent(c, one, only);
    return 0;
}

static int cmd_stdio(hsx_call *c)
{
    const char *op;
    uint32_t len;
    int got = hsx_arg_text(c, "op", &op, &len, 16);
    if (got < 0)
        return -1;
    if (!got) {
        int writes = hsx_arg_present(c, "data") || hsx_arg_present(c, "data_hex") ||
                     hsx_arg_present(c, "data_b64") || hsx_arg_present(c, "eof");
        op = writes ? "write" : "subscribe";
        len = writes ? 5 : 9;
    }
    if (len == 5 && op[0] == 'w')
        return stdin_write(c);
    if (len == 6 && op[0] == 'r')
        return stdio_recent(c);
    if ((len == 9 && op[0] == 's') || (len == 11 && op[0] == 'u')) {
#if HSX_HAS_EVENTS
        return hsx_cmd_stdio_subscribe(c, op[0] == 'u');
#else
        hsx_fail(c, "unsupported", "stdio subscribes to output events, which need the development "
                 "or full variant; this board runs minimal (stdio op=recent reads what tasks wrote)", NULL);
        c->extra_key = "variant_required";
        c->extra_text = "development";
        return -1;
#endif
    }
    return hsx_fail(c, "bad_argument", "'op' must be one of \"subscribe\", \"unsubscribe\", "
                    "\"write\", \"recent\"", NULL);
}

/* -- the table ---------------------------------------------------------------------------------------- */

#if HSX_HAS_EVENTS
#define EVENTS(handler) handler
#else
#define EVENTS(handler) NULL
#endif

const hsx_command hsx_commands[] = {
    {"ping", cmd_ping, 0},
    {"info", cmd_info, 0},
    {"ps list_tasks", cmd_ps, 0},
    {"load exec", cmd_load, W},
    {"load.begin", cmd_load_begin, W},
    {"load.write", cmd_load_write, W},
    {"load.end", cmd_load_end, W},
    {"load.abort", cmd_load_abort, W},
    {"kill", cmd_kill, W},
    {"pause", cmd_pause, W},
    {"resume continue", cmd_resume, W},
    {"sched", cmd_sched, 0},
    {"step clock.step", cmd_step, W},
    {"regs dumpregs read_regs", cmd_regs, 0},
    {"peek mem.read read_mem", cmd_peek, 0},
    {"poke mem.write write_mem", cmd_poke, W},
    {"stdio", cmd_stdio, 0},
    {"session.open", hsx_cmd_session_open, W},
    {"session.keepalive session.heartbeat", hsx_cmd_session_keepalive, HSX_CMD_SESSION},
    {"session.close", hsx_cmd_session_close, W | HSX_CMD_SESSION},
    {"session.list", hsx_cmd_session_list, 0},
    {"events.subscribe subscribe", EVENTS(hsx_cmd_subscribe), HSX_CMD_DEVELOPMENT},
    {"events.unsubscribe unsubscribe", EVENTS(hsx_cmd_unsubscribe), HSX_CMD_DEVELOPMENT},
    {"events.ack", EVENTS(hsx_cmd_ack), HSX_CMD_DEVELOPMENT},
    {NULL, NULL, 0},
};
