/* HSX C executive: the command table, and the commands of every variant on tasks,
 * memory and stdio (docs/protocol.md): ping, info, ps, load (whole and streamed), kill,
 * pause, resume, sched, step, regs, peek, poke, stdio. Fields, reply shapes and error
 * codes are hsx execd's (src/hsx/server/handlers); where a board cannot do the same,
 * docs/port.md lists the difference.
 */
#include <stddef.h>

#include "hsx_proto.h"

HSX_COLD_CODE_BEGIN

#define MAX_STEP 1000000000u                    /* a step without a pid */

HSX_NOINLINE int hsx_live(hsx_state state)
{
    return state != HSX_STATE_RETURNED && state != HSX_STATE_FAULTED &&
           state != HSX_STATE_KILLED && state != HSX_STATE_NONE;
}

/* -- views ------------------------------------------------------------------------------------ */

static const hsx_row task_row[] = {
    ROW(pid, R_U32, hsx_task_info, pid), ROW(app_name, R_CHARS, hsx_task_info, app_name),
    ROW(app_name_base, R_CHARS, hsx_task_info, app_name_base),
    ROW(state, R_STATE, hsx_task_info, state), ROW(pc, R_U32, hsx_task_info, pc),
    ROW(priority, R_U32, hsx_task_info, priority), ROW(quantum, R_U32, hsx_task_info, quantum),
    ROW(instructions, R_U64, hsx_task_info, instructions),
    ROW(exit_status, R_EXIT, hsx_task_info, exit_status), ROW(turns, R_U32, hsx_task_info, turns),
    ROW(waits, R_U32, hsx_task_info, waits), ROW(wakes, R_U32, hsx_task_info, wakes),
    ROW(timeouts, R_U32, hsx_task_info, timeouts), ROW(sleeps, R_U32, hsx_task_info, sleeps),
    ROW_CONST(input_dropped, R_EMPTY_MAP, 0), ROW(reg_base, R_U32, hsx_task_info, reg_base),
    ROW(stack_base, R_U32, hsx_task_info, stack_base),
    ROW(stack_top, R_U32, hsx_task_info, stack_top), ROW(sp, R_U32, hsx_task_info, sp),
    ROW(locked_by, R_LOCKED_BY, hsx_task_info, pid),
};

static const hsx_row fault_row[] = {
    ROW(kind, R_STR, hsx_task_info, fault_kind), ROW(pc, R_U32, hsx_task_info, fault_pc),
    ROW(addr, R_ADDR, hsx_task_info, fault_addr), ROW(message, R_STR, hsx_task_info, fault_kind),
};

void hsx_put_task_row(hsx_cbor_writer *w, const hsx_task_info *t)
{
    hsx_cbor_open_map(w);
    hsx_put_row(w, task_row, sizeof task_row / sizeof *task_row, t);
    if (t->fault_kind) {
        hsx_put_key(w, K_fault);
        hsx_cbor_put_map(w, 4);
        hsx_put_row(w, fault_row, 4, t);
    }
    if (t->wait_kind) {
        int sleep = t->wait_kind[0] == 's';
        hsx_put_key(w, K_wait);
        hsx_cbor_put_map(w, 2);
        hsx_field_s(w, K_kind, t->wait_kind);
        hsx_field_u(w, sleep ? K_ms : K_handle, sleep ? t->wait_ms : t->wait_handle);
    }
    hsx_cbor_put_end(w);
}

void hsx_put_tasks(hsx_cbor_writer *w, int live_only)
{
    hsx_task_info t;
    uint32_t cursor = 0;
    hsx_cbor_open_array(w);
    while (hsx_exec_next_task(&cursor, &t))
        if (!live_only || hsx_live(t.state))
            hsx_put_task_row(w, &t);
    hsx_cbor_put_end(w);
}

static void reply_task(hsx_call *c)
{
    hsx_exec_task(c->t.pid, &c->t);
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_task);
    hsx_put_task_row(c->w, &c->t);
}

static const hsx_row register_row[] = {
    ROW(pid, R_U32, hsx_registers, pid), ROW(pc, R_U32, hsx_registers, pc),
    ROW(psw, R_U32, hsx_registers, psw), ROW(sp, R_U32, hsx_registers, sp),
    ROW(steps, R_U64, hsx_registers, steps), ROW(state, R_STATE, hsx_registers, state),
};
static const hsx_row stack_row[] = {
    ROW(exit_status, R_EXIT, hsx_task_info, exit_status),
    ROW(reg_base, R_U32, hsx_task_info, reg_base),
    ROW(stack_base, R_U32, hsx_task_info, stack_base),
    ROW(stack_top, R_U32, hsx_task_info, stack_top),
};

static void put_registers(hsx_cbor_writer *w, const hsx_registers *r, const hsx_task_info *t)
{
    char flags[4];
    uint32_t n = 0;
    for (int bit = 0; bit < 4; bit++)
        if (r->psw >> bit & 1)
            flags[n++] = "ZCNV"[bit];
    hsx_cbor_open_map(w);
    hsx_put_row(w, register_row, 6, r);
    hsx_put_key(w, K_flags);
    hsx_cbor_put_text(w, flags, n);
    hsx_put_key(w, K_regs);
    hsx_cbor_put_array(w, 16);
    for (int i = 0; i < 16; i++)
        hsx_cbor_put_uint(w, r->regs[i]);
    hsx_put_row(w, stack_row, 4, t);
    hsx_field_u(w, K_stack_size, t->stack_top - t->stack_base);
    hsx_cbor_put_end(w);
}

/* -- the executive ---------------------------------------------------------------------------- */

static int cmd_ping(hsx_call *c)
{
    hsx_reply_ok(c);
    hsx_field_k(c->w, K_reply, K_pong);
    hsx_field_u(c->w, K_protocol, 1);
    hsx_field_k(c->w, K_server, K_hsx_exec);
    hsx_field_s(c->w, K_hsx_version, HSX_VERSION);
    return 0;
}

static const uint32_t limits[] = {HSX_MAX_TASKS, HSX_TASK_MEMORY, HSX_CODE_ARENA,
    HSX_MAX_MAILBOXES, HSX_MAX_VALUES, HSX_MAX_COMMANDS, HSX_HAS_DEBUG ? HSX_MAX_BREAKPOINTS : 0,
    HSX_HAS_DEBUG ? HSX_MAX_WATCHES : 0, HSX_TRACE_RECORDS, HSX_EVENT_QUEUE, HSX_MAX_SESSIONS,
    HSX_RX_WINDOW, HSX_MAX_FRAME};
static const hsx_row limit_row[] = {
    ROW_CONST(max_tasks, R_U32, 0), ROW_CONST(task_memory, R_U32, 4),
    ROW_CONST(code_arena, R_U32, 8), ROW_CONST(max_mailboxes, R_U32, 12),
    ROW_CONST(max_values, R_U32, 16), ROW_CONST(max_commands, R_U32, 20),
    ROW_CONST(max_breakpoints, R_U32, 24), ROW_CONST(max_watches, R_U32, 28),
    ROW_CONST(ring_records, R_U32, 32), ROW_CONST(event_queue, R_U32, 36),
    ROW_CONST(max_sessions, R_U32, 40), ROW_CONST(window, R_U32, 44),
    ROW_CONST(max_frame, R_U32, 48),
};
static const hsx_row info_row[] = {
    ROW_CONST(program, R_WORD, K_hsx_exec), ROW_CONST(variant, R_WORD, K_minimal - 1 + HSX_VARIANT),
    ROW_CONST(profile, R_WORD, K_minimal - 1 + HSX_VARIANT),
};

static uint64_t total_instructions(void)
{
    hsx_task_info t;
    uint32_t cursor = 0;
    uint64_t total = 0;
    while (hsx_exec_next_task(&cursor, &t))
        total += t.instructions;
    return total;
}

static int cmd_info(hsx_call *c)
{
    hsx_registers r;
    hsx_cbor_writer *w = c->w;
    const char *board = hsx_exec_hal()->board;
    if (HAS(c, pid) && hsx_fail_status(c, hsx_exec_registers(c->t.pid, &r)) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_put_key(w, K_info);
    hsx_cbor_open_map(w);
    hsx_put_row(w, info_row, 3, limits);
    hsx_field_s(w, K_hsx_version, HSX_VERSION);
    hsx_field_u(w, K_protocol, 1);
    hsx_field_s(w, K_board, board ? board : "unknown");
    hsx_put_key(w, K_uptime_s);
    hsx_put_seconds(w, hsx_proto_uptime_ms());
    hsx_put_key(w, K_limits);
    hsx_cbor_put_map(w, sizeof limits / sizeof *limits);
    hsx_put_row(w, limit_row, sizeof limits / sizeof *limits, limits);
    hsx_put_key(w, K_tasks);
    hsx_put_tasks(w, 0);
    hsx_field_null(w, K_current_pid);
    hsx_put_key(w, K_instructions);
    hsx_cbor_put_uint(w, total_instructions());
    hsx_field_u(w, K_sessions, hsx_sessions_open());
    hsx_put_key(w, K_events);
    hsx_cbor_put_map(w, 2);
    hsx_field_u(w, K_last_seq, hsx_events_last_seq());
    hsx_field_u(w, K_retained, 0);
    hsx_put_key(w, K_features);
    hsx_put_features(w);
    hsx_put_key(w, K_variant_required);
    hsx_put_variant_required(w);
    hsx_put_clock(w);
    if (HAS(c, pid)) {
        hsx_field_u(w, K_selected_pid, c->t.pid);
        hsx_put_key(w, K_selected_registers);
        put_registers(w, &r, &c->t);
    }
    hsx_cbor_put_end(w);
    return 0;
}

static int cmd_ps(hsx_call *c)
{
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_tasks);
    hsx_cbor_put_map(c->w, 2);
    hsx_put_key(c->w, K_tasks);
    if (HAS(c, pid)) {
        hsx_cbor_put_array(c->w, 1);
        hsx_put_task_row(c->w, &c->t);
    } else {
        hsx_put_tasks(c->w, 0);
    }
    hsx_field_null(c->w, K_current_pid);
    return 0;
}

/* -- loading ---------------------------------------------------------------------------------- */

/* `name` as a C string: 1, 0 when absent, -1 when too long. */
static int arg_name(hsx_call *c, char *name)
{
    uint32_t n = ARG(c, name);
    if (!HAS(c, name))
        return 0;
    if (n >= HSX_APP_NAME_MAX)
        return hsx_fail_field(c, K_name);
    for (uint32_t i = 0; i < n; i++)
        name[i] = (char)c->arg[K_name].p[i];
    name[n] = 0;
    return 1;
}

/* The reply of a load: pid, image (what the board knows of it), task. */
static int loaded(hsx_call *c, uint32_t pid)
{
    hsx_task_info *t = &c->t;
    if (hsx_fail_status(c, hsx_exec_task(pid, t)) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_pid, pid);
    hsx_put_key(c->w, K_image);
    hsx_cbor_put_map(c->w, 6);
    hsx_field_u(c->w, K_pid, pid);
    hsx_field_s(c->w, K_app_name, t->app_name);
    hsx_field_s(c->w, K_app_name_base, t->app_name_base);
    hsx_field_null(c->w, K_program);
    hsx_field_u(c->w, K_code_len, t->code_len);
    hsx_field_null(c->w, K_symbols);
    hsx_put_key(c->w, K_task);
    hsx_put_task_row(c->w, t);
    return 0;
}

static int cmd_load(hsx_call *c)
{
    char name[HSX_APP_NAME_MAX];
    uint32_t pid;
    int got = arg_name(c, name);
    if (!HAS(c, image))
        return hsx_fail_field(c, K_image);
    if (got < 0 || hsx_fail_status(c, hsx_exec_load(c->arg[K_image].p, ARG(c, image), 0,
                                                     got ? name : NULL, (int)ARG(c, paused),
                                                     &pid)) < 0)
        return -1;
    return loaded(c, pid);
}

static int cmd_load_begin(hsx_call *c)
{
    char name[HSX_APP_NAME_MAX];
    uint32_t stream;
    int got = arg_name(c, name);
    if (got < 0 || hsx_fail_status(c, hsx_exec_load_begin(got ? name : NULL, &stream)) < 0)
        return -1;
    hsx_proto_stream_opened(stream);
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_stream, stream);
    return 0;
}

/* A streamed load's status: a refused stream is dropped by the executive. */
static int stream_status(hsx_call *c, hsx_status status)
{
    if (status != HSX_OK && status != HSX_ERR_UNKNOWN_STREAM)
        hsx_proto_stream_closed(ARG(c, stream));
    return hsx_fail_status(c, status);
}

static int cmd_load_write(hsx_call *c)
{
    uint32_t total;
    if (!HAS(c, stream) || !HAS(c, data))
        return hsx_fail_field(c, HAS(c, stream) ? K_data : K_stream);
    if (stream_status(c, hsx_exec_load_write(ARG(c, stream), c->arg[K_data].p, ARG(c, data),
                                             &total)) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_stream, ARG(c, stream));
    hsx_field_u(c->w, K_received, ARG(c, data));
    return 0;
}

static int cmd_load_end(hsx_call *c)
{
    uint32_t pid;
    if (!HAS(c, stream))
        return hsx_fail_field(c, K_stream);
    if (stream_status(c, hsx_exec_load_end(ARG(c, stream), (int)ARG(c, paused), &pid)) < 0)
        return -1;
    hsx_proto_stream_closed(ARG(c, stream));
    return loaded(c, pid);
}

static int cmd_load_abort(hsx_call *c)
{
    if (!HAS(c, stream))
        return hsx_fail_field(c, K_stream);
    if (hsx_fail_status(c, hsx_exec_load_abort(ARG(c, stream))) < 0)
        return -1;
    hsx_proto_stream_closed(ARG(c, stream));
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_aborted, ARG(c, stream));
    return 0;
}

/* -- task control ------------------------------------------------------------------------------ */

static int cmd_kill(hsx_call *c)
{
    if (hsx_fail_status(c, hsx_exec_kill(c->t.pid)) < 0)
        return -1;
    if (hsx_live(c->t.state))
        c->t.state = HSX_STATE_KILLED;  /* the row as it was, killed (if it left the list) */
    reply_task(c);
    return 0;
}

/* pause / resume: one task (`task`), or every live task (`tasks`). */
static int pause_or_resume(hsx_call *c, hsx_status (*action)(uint32_t))
{
    hsx_task_info t;
    uint32_t cursor = 0;
    if (HAS(c, pid)) {
        if (hsx_fail_status(c, action(c->t.pid)) < 0)
            return -1;
        reply_task(c);
        return 0;
    }
    while (hsx_exec_next_task(&cursor, &t))
        if (hsx_live(t.state) && hsx_control(c, t.pid) < 0)
            return -1;
    for (cursor = 0; hsx_exec_next_task(&cursor, &t);)
        if (hsx_live(t.state))
            action(t.pid);
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_tasks);
    hsx_put_tasks(c->w, 1);
    return 0;
}

static int cmd_pause(hsx_call *c) { return pause_or_resume(c, hsx_exec_pause); }
static int cmd_resume(hsx_call *c) { return pause_or_resume(c, hsx_exec_resume); }

static int cmd_sched(hsx_call *c)
{
    hsx_task_info t;
    uint32_t cursor = 0;
    if (!HAS(c, pid)) {
        hsx_reply_ok(c);
        hsx_put_key(c->w, K_scheduler);
        hsx_cbor_put_map(c->w, 2);
        hsx_put_key(c->w, K_queued);
        hsx_cbor_open_array(c->w);
        while (hsx_exec_next_task(&cursor, &t))
            if (t.state == HSX_STATE_READY || t.state == HSX_STATE_RUNNING)
                hsx_cbor_put_uint(c->w, t.pid);
        hsx_cbor_put_end(c->w);
        hsx_put_key(c->w, K_trace);
        hsx_cbor_put_array(c->w, 0);
        return 0;
    }
    c->writes = 1;
    if (ARG(c, quantum) > 1000000u)
        return hsx_fail_field(c, K_quantum);
    if (hsx_fail_status(c, hsx_exec_sched(c->t.pid,
                                          HAS(c, priority) ? (int32_t)ARG(c, priority) : -1,
                                          HAS(c, quantum) ? (int32_t)ARG(c, quantum) : -1)) < 0)
        return -1;
    reply_task(c);
    return 0;
}

static int cmd_step(hsx_call *c)
{
    hsx_task_info t;
    uint32_t count = HAS(c, count) ? ARG(c, count) : 1, executed = 0, cursor = 0;
    if (!count || count > (HAS(c, pid) ? HSX_HOST_STEPS : MAX_STEP))
        return hsx_fail_field(c, K_count);
    if (HAS(c, pid)) {
        if (hsx_fail_status(c, hsx_exec_step(c->t.pid, count, &executed)) < 0)
            return -1;
        hsx_exec_task(c->t.pid, &c->t);
    } else {
        while (hsx_exec_next_task(&cursor, &t))
            if ((t.state == HSX_STATE_READY || t.state == HSX_STATE_RUNNING) &&
                hsx_control(c, t.pid) < 0)
                return -1;
        while (executed < count) {
            uint32_t ran = hsx_exec_run(count - executed, NULL);
            if (!ran)
                break;
            executed += ran;
        }
    }
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_result);
    hsx_cbor_open_map(c->w);
    hsx_field_u(c->w, K_executed, executed);
    hsx_field_u(c->w, K_requested, count);
    hsx_put_key(c->w, K_current_pid);
    if (HAS(c, pid)) {
        hsx_cbor_put_uint(c->w, c->t.pid);
        hsx_field_u(c->w, K_pid, c->t.pid);
        hsx_field_u(c->w, K_pc, c->t.pc);
        hsx_put_key(c->w, K_state);
        hsx_put_state(c->w, c->t.state);
        hsx_field_b(c->w, K_running, c->t.state == HSX_STATE_READY ||
                                     c->t.state == HSX_STATE_RUNNING);
    } else {
        hsx_cbor_put_null(c->w);
    }
    hsx_cbor_put_end(c->w);
    hsx_put_clock(c->w);
    return 0;
}

/* -- memory and registers ----------------------------------------------------------------------- */

static int cmd_regs(hsx_call *c)
{
    hsx_registers r;
    if (hsx_fail_status(c, hsx_exec_registers(c->t.pid, &r)) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_registers);
    put_registers(c->w, &r, &c->t);
    return 0;
}

static int cmd_peek(hsx_call *c)
{
    uint32_t addr = ARG(c, addr), length = HAS(c, length) ? ARG(c, length) : 16;
    uint8_t chunk[64];
    int space = HAS(c, space) && c->arg[K_space].p[0] == 'c';
    if (!HAS(c, addr))
        return hsx_fail_field(c, K_addr);
    if (HAS(c, space) && ARG(c, space) != 4)
        return hsx_fail_field(c, K_space);
    /* the whole range is checked before the reply starts: its two ends */
    if (length && (addr + length - 1 < addr ||
                   hsx_exec_peek(c->t.pid, space, addr, chunk, 1) != HSX_OK ||
                   hsx_exec_peek(c->t.pid, space, addr + length - 1, chunk, 1) != HSX_OK))
        return hsx_fail_field(c, K_addr);
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_pid, c->t.pid);
    hsx_field_u(c->w, K_addr, addr);
    hsx_field_u(c->w, K_length, length);
    hsx_field_k(c->w, K_space, space ? K_code : K_data);
    hsx_put_key(c->w, K_data);
    hsx_cbor_put_bytes_start(c->w, length);
    for (uint32_t done = 0; done < length; done += sizeof chunk) {
        uint32_t n = length - done < sizeof chunk ? length - done : sizeof chunk;
        hsx_exec_peek(c->t.pid, space, addr + done, chunk, n);
        hsx_cbor_put_raw(c->w, chunk, n);
    }
    return 0;
}

static int cmd_poke(hsx_call *c)
{
    if (!HAS(c, addr) || !HAS(c, data))
        return hsx_fail_field(c, HAS(c, addr) ? K_data : K_addr);
    if (hsx_exec_poke(c->t.pid, ARG(c, addr), c->arg[K_data].p, ARG(c, data)) != HSX_OK)
        return hsx_fail_field(c, K_addr);
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_pid, c->t.pid);
    hsx_field_u(c->w, K_addr, ARG(c, addr));
    hsx_field_u(c->w, K_length, ARG(c, data));
    return 0;
}

/* -- stdio ------------------------------------------------------------------------------------------ */

static int stdin_write(hsx_call *c)
{
    uint32_t written = 0;
    int eof = (int)ARG(c, eof);
    c->writes = 1;
    if (!HAS(c, pid))
        return hsx_fail_field(c, K_pid);
    if (hsx_fail_status(c, hsx_exec_task(ARG(c, pid), &c->t)) < 0 || hsx_control(c, c->t.pid) < 0)
        return -1;
    if (!eof && !ARG(c, data))
        return hsx_fail_field(c, K_data);
    if (hsx_fail_status(c, hsx_exec_stdin(c->t.pid, c->arg[K_data].p, eof ? 0 : ARG(c, data),
                                          eof, &written)) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_field_u(c->w, K_pid, c->t.pid);
    hsx_field_u(c->w, K_written, written);
    if (eof)
        hsx_field_b(c->w, K_eof, 1);
    return 0;
}

/* `recent`: what each task (or task `only`) wrote, stdout and stderr together (a board
 * keeps HSX_OUTPUT_KEEP bytes per task and does not tell the streams apart); a task
 * locked by another session is left out (its output is that session's). */
void hsx_put_recent(hsx_call *c, int one, uint32_t only)
{
    hsx_task_info t;
    uint32_t cursor = 0;
    uint8_t kept[HSX_OUTPUT_KEEP];
    hsx_put_key(c->w, K_recent);
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
        hsx_field_u(c->w, K_pid, t.pid);
        hsx_put_key(c->w, K_output);
        hsx_cbor_put_array(c->w, n ? 1 : 0);
        if (n) {
            hsx_cbor_put_map(c->w, 2);
            hsx_field_k(c->w, K_stream, K_stdout);
            hsx_put_key(c->w, K_text);
            hsx_cbor_put_text(c->w, (const char *)kept, n);
        }
        hsx_field_u(c->w, K_dropped_chars, dropped);
    }
    hsx_cbor_put_end(c->w);
}

static int cmd_stdio(hsx_call *c)
{
    const uint8_t *op = c->arg[K_op].p;
    uint32_t len = ARG(c, op);
    if (!op) {
        int writes = HAS(c, data) || HAS(c, eof);
        op = (const uint8_t *)(writes ? "write" : "subscribe");
        len = writes ? 5 : 9;
    }
    if (len == 5 && op[0] == 'w')
        return stdin_write(c);
    if (len == 6 && op[0] == 'r') {
        int one = HAS(c, pid);
        if (one && (hsx_fail_status(c, hsx_exec_task(ARG(c, pid), &c->t)) < 0 ||
                    (hsx_owner(c->t.pid) >= 0 && hsx_control(c, c->t.pid) < 0)))
            return -1;
        hsx_reply_ok(c);
        hsx_put_recent(c, one, ARG(c, pid));
        return 0;
    }
    if ((len == 9 && op[0] == 's') || (len == 11 && op[0] == 'u'))
#if HSX_HAS_EVENTS
        return hsx_cmd_stdio_subscribe(c, op[0] == 'u');
#else
        return hsx_fail_variant(c, K_development);
#endif
    return hsx_fail_field(c, K_op);
}

/* -- the table ---------------------------------------------------------------------------------------- */

#define W CMD_WRITES
#define TASK_CONTROL (CMD_TASK | CMD_CONTROL)
#define DEV CMD_DEVELOPMENT
#if HSX_HAS_EVENTS
#define EVENTS(handler) handler
#else
#define EVENTS(handler) NULL
#endif
#if HSX_HAS_DEBUG
#define DEBUG(handler) handler
#else
#define DEBUG(handler) NULL
#endif
/* Each command: its key, its handler, its flags (one list, read into both arrays). */
#define COMMANDS(C) \
    C(ping, cmd_ping, 0) \
    C(info, cmd_info, CMD_TASK_IF) \
    C(ps, cmd_ps, CMD_TASK_IF) \
    C(load, cmd_load, W) \
    C(load_begin, cmd_load_begin, W) \
    C(load_write, cmd_load_write, W) \
    C(load_end, cmd_load_end, W) \
    C(load_abort, cmd_load_abort, W) \
    C(kill, cmd_kill, W | TASK_CONTROL) \
    C(pause, cmd_pause, W | CMD_TASK_IF | CMD_CONTROL) \
    C(resume, cmd_resume, W | CMD_TASK_IF | CMD_CONTROL) \
    C(sched, cmd_sched, CMD_TASK_IF | CMD_CONTROL) \
    C(step, cmd_step, W | CMD_TASK_IF | CMD_CONTROL) \
    C(regs, cmd_regs, CMD_TASK) \
    C(peek, cmd_peek, CMD_TASK) \
    C(poke, cmd_poke, W | TASK_CONTROL) \
    C(stdio, cmd_stdio, 0) \
    C(session_open, hsx_cmd_session_open, W) \
    C(session_keepalive, hsx_cmd_session_keepalive, CMD_SESSION) \
    C(session_close, hsx_cmd_session_close, W | CMD_SESSION) \
    C(session_list, hsx_cmd_session_list, 0) \
    C(events_subscribe, EVENTS(hsx_cmd_events_subscribe), DEV) \
    C(events_unsubscribe, EVENTS(hsx_cmd_events_unsubscribe), DEV) \
    C(events_ack, EVENTS(hsx_cmd_events_ack), DEV) \
    C(val_list, hsx_cmd_val_list, 0) \
    C(val_get, hsx_cmd_val_get, 0) \
    C(val_set, hsx_cmd_val_set, W) \
    C(val_stats, hsx_cmd_val_stats, 0) \
    C(cmd_list, hsx_cmd_cmd_list, 0) \
    C(cmd_call, hsx_cmd_cmd_call, W) \
    C(cmd_stats, hsx_cmd_cmd_stats, 0) \
    C(bp_set, DEBUG(hsx_cmd_bp_set), W | DEV | TASK_CONTROL) \
    C(bp_clear, DEBUG(hsx_cmd_bp_clear), W | DEV) \
    C(bp_clear_all, DEBUG(hsx_cmd_bp_clear_all), W | DEV | TASK_CONTROL) \
    C(bp_enable, DEBUG(hsx_cmd_bp_enable), W | DEV) \
    C(bp_disable, DEBUG(hsx_cmd_bp_disable), W | DEV) \
    C(bp_list, DEBUG(hsx_cmd_bp_list), DEV | CMD_TASK_IF) \
    C(run_to, DEBUG(hsx_cmd_run_to), W | DEV | TASK_CONTROL) \
    C(stack_info, DEBUG(hsx_cmd_stack_info), DEV | CMD_TASK) \
    C(watch_add, DEBUG(hsx_cmd_watch_add), W | DEV | TASK_CONTROL) \
    C(watch_remove, DEBUG(hsx_cmd_watch_remove), W | DEV) \
    C(watch_list, DEBUG(hsx_cmd_watch_list), DEV | CMD_TASK_IF) \
    C(trace_on, DEBUG(hsx_cmd_trace_on), W | DEV | TASK_CONTROL) \
    C(trace_off, DEBUG(hsx_cmd_trace_off), W | DEV | TASK_CONTROL) \
    C(trace_records, DEBUG(hsx_cmd_trace_records), DEV | CMD_TASK) \
    C(trace_status, DEBUG(hsx_cmd_trace_status), DEV | CMD_TASK) \
    C(jump, DEBUG(hsx_cmd_jump), W | DEV | TASK_CONTROL) \
    C(session_lock, hsx_cmd_session_lock, CMD_SESSION) \
    C(session_unlock, hsx_cmd_session_unlock, CMD_SESSION) \
    C(dmesg, hsx_cmd_dmesg, 0) \
    C(clock_status, hsx_cmd_clock, 0) \
    C(clock_start, hsx_cmd_clock, W) \
    C(clock_stop, hsx_cmd_clock, W) \
    C(clock_rate, hsx_cmd_clock, W) \
    C(mailbox_snapshot, hsx_cmd_mailbox_snapshot, 0) \
    C(mailbox_open, hsx_cmd_mailbox_open, 0) \
    C(mailbox_close, hsx_cmd_mailbox_close, 0) \
    C(send, hsx_cmd_send, W) \
    C(listen, hsx_cmd_listen, 0)

#define HANDLER(key, handler, flags) [K_##key - K_ping] = handler,
#define FLAGS(key, handler, flags) [K_##key - K_ping] = (flags),
const hsx_handler hsx_command_handlers[HSX_COMMANDS] = { COMMANDS(HANDLER) };
const uint8_t hsx_command_flags[HSX_COMMANDS] = { COMMANDS(FLAGS) };

HSX_COLD_CODE_END
