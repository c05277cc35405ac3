/* HSX C executive: every text the protocol module sends or reads, in one pool.
 *
 * Keys and constant values (protocol v1's field names, command names, error codes, the
 * words of replies and events) are listed once below; each becomes an id (K_pid, ...)
 * and one length-prefixed string in one pool (hsx_keys.c), so a reply names a field
 * with a byte and no text is stored twice. The first ids are the fields a request may carry, each with
 * the one CBOR form the board accepts (hsx.client sends canonical requests:
 * docs/wire.md, "Requests"). Names that are not C identifiers take the form
 * S(ident, "text").
 */
#ifndef HSX_KEYS_H
#define HSX_KEYS_H

#include <stddef.h>
#include <stdint.h>

#define HSX_VERSION "0.1.0"         /* hsx.__version__ (a test keeps them equal) */

/* The form of a request field (hsx_call.arg): */
#define A_UINT 1            /* an unsigned integer (values above 32 bits read as 0xFFFFFFFF) */
#define A_BOOL 2            /* true or false */
#define A_TEXT 3            /* a text string: its bytes and length */
#define A_BYTES 4           /* a byte string: its bytes and length */
#define A_LIST 5            /* an array (or one item standing for a list of one) */

/* Request fields, with their forms. `cmd` and `session` are the envelope's. */
#define HSX_REQUEST_KEYS(R) \
    R(pid, A_UINT) R(addr, A_UINT) R(length, A_UINT) R(space, A_TEXT) R(data, A_BYTES) \
    R(count, A_UINT) R(name, A_TEXT) R(paused, A_BOOL) R(stream, A_UINT) R(quantum, A_UINT) \
    R(priority, A_UINT) R(limit, A_UINT) R(eof, A_BOOL) R(op, A_TEXT) R(recent, A_BOOL) \
    R(streams, A_LIST) R(client, A_TEXT) R(observer, A_BOOL) R(pid_lock, A_LIST) \
    R(heartbeat_ms, A_UINT) R(auth, A_UINT) R(categories, A_LIST) R(pids, A_LIST) \
    R(since_seq, A_UINT) R(seq, A_UINT) R(oid, A_UINT) R(group, A_UINT) R(f16, A_UINT) \
    R(async, A_BOOL) R(breakpoint_id, A_UINT) R(temporary, A_BOOL) R(condition, A_TEXT) \
    R(max_frames, A_UINT) R(stop, A_BOOL) R(watch_id, A_UINT) R(image, A_BYTES) \
    R(size, A_UINT) R(target, A_TEXT) R(flags, A_UINT) R(handle, A_UINT) R(channel, A_UINT) \
    R(max_len, A_UINT) R(rate, A_UINT) R(level, A_UINT) R(session, A_TEXT) R(cmd, A_TEXT)

/* Command names (hsx_proto_cmds.c has the table), in the table's order. */
#define HSX_COMMAND_KEYS(K, S) \
    K(ping) K(info) K(ps) K(load) S(load_begin, "load.begin") S(load_write, "load.write") \
    S(load_end, "load.end") S(load_abort, "load.abort") K(kill) K(pause) K(resume) K(sched) \
    K(step) K(regs) K(peek) K(poke) K(stdio) S(session_open, "session.open") \
    S(session_keepalive, "session.keepalive") S(session_close, "session.close") \
    S(session_list, "session.list") S(events_subscribe, "events.subscribe") \
    S(events_unsubscribe, "events.unsubscribe") S(events_ack, "events.ack") \
    S(val_list, "val.list") S(val_get, "val.get") S(val_set, "val.set") \
    S(val_stats, "val.stats") S(cmd_list, "cmd.list") S(cmd_call, "cmd.call") \
    S(cmd_stats, "cmd.stats") S(bp_set, "bp.set") S(bp_clear, "bp.clear") \
    S(bp_clear_all, "bp.clear_all") S(bp_enable, "bp.enable") S(bp_disable, "bp.disable") \
    S(bp_list, "bp.list") S(run_to, "run.to") S(stack_info, "stack.info") \
    S(watch_add, "watch.add") S(watch_remove, "watch.remove") S(watch_list, "watch.list") \
    S(trace_on, "trace.on") S(trace_off, "trace.off") S(trace_records, "trace.records") \
    S(trace_status, "trace.status") K(jump) S(session_lock, "session.lock") \
    S(session_unlock, "session.unlock") K(dmesg) S(clock_status, "clock.status") \
    S(clock_start, "clock.start") S(clock_stop, "clock.stop") S(clock_rate, "clock.rate") \
    S(mailbox_snapshot, "mailbox.snapshot") S(mailbox_open, "mailbox.open") \
    S(mailbox_close, "mailbox.close") K(send) K(listen)

/* Reply and event keys, constant values, error codes. */
#define HSX_REPLY_KEYS(K, S) \
    K(status) K(ok) K(error) K(field) K(variant_required) K(minimal) K(development) K(full) \
    K(mbx_status) K(val_status) K(cmd_status) K(category) K(last_seq) \
    K(bad_argument) K(unknown_cmd) K(unsupported) K(session_required) K(read_only) \
    S(pid_locked, "pid_locked:") K(too_many_sessions) K(not_subscribed) K(seq_evicted) \
    K(bad_condition) K(out_of_range) K(bad_request) K(bad_frame) K(bad_payload) \
    K(reply_lost) K(too_long) K(bad_crc) K(unknown_pid) K(task_ended) \
    S(bad_image, "bad_image:") K(too_many_tasks) K(layout) K(image_too_large) \
    K(mailbox_limit) K(metadata_mailbox) S(app_exists, "app_exists:") K(unknown_stream) \
    K(too_many_streams) K(stdin_full) S(mbx_, "mbx_") S(val_, "val_") S(cmd_, "cmd_") \
    K(unknown_name) K(unknown_breakpoint) K(too_many_breakpoints) K(unknown_watch) \
    K(too_many_watches) K(bad_address) K(wouldblock) K(invalid_handle) K(no_data) \
    K(msg_too_large) K(no_descriptor) K(timeout) K(invalid_argument) K(access_denied) \
    K(static_breakpoint) K(brk) K(enoent) K(eperm) K(enospc) K(einval) K(eexist) K(ebusy) K(enoasync) K(efail) \
    K(proto) K(window) K(max_frame) K(variant) K(features) K(boot) K(board) K(hsx_version) \
    K(server) S(hsx_exec, "hsx-exec") S(version_number, HSX_VERSION) K(unknown) \
    K(commands) K(load_stream) K(memory) K(values) K(debug) K(events) K(stack) K(trace) \
    K(watch) K(observers) \
    K(reply) K(pong) K(protocol) K(program) K(profile) K(uptime_s) K(limits) K(max_tasks) \
    K(task_memory) K(code_arena) K(max_mailboxes) K(max_values) K(max_commands) \
    K(max_breakpoints) K(max_watches) S(ring_records, "trace_records") K(event_queue) \
    K(max_sessions) \
    K(tasks) K(current_pid) K(retained) K(selected_pid) K(selected_registers) \
    K(app_name) K(app_name_base) K(state) K(pc) K(instructions) K(exit_status) K(turns) \
    K(waits) K(wakes) K(timeouts) K(sleeps) K(input_dropped) K(reg_base) K(stack_base) \
    K(stack_top) K(sp) K(locked_by) K(fault) K(kind) K(message) K(wait) K(ms) \
    K(registers) K(psw) K(steps) K(stack_size) K(code_len) K(symbols) \
    K(received) K(aborted) K(task) K(scheduler) K(queued) K(result) K(executed) \
    K(requested) K(running) K(clock) K(mode) K(code) K(written) K(output) K(stdout) \
    K(stderr) K(text) K(dropped_chars) K(id) K(heartbeat_s) K(max_events) K(created_at) \
    K(age_s) K(idle_s) K(sessions) K(closed) K(PUBLIC) K(USER) K(ADMIN) K(FACTORY) \
    K(token) K(max) K(pending) K(coalesce_ms) K(delivered) K(drops) K(high_water) \
    K(last_ack) K(filters) K(cursor) K(replayed) K(unsubscribed) K(type) K(prev_state) \
    K(new_state) K(reason) K(how) K(why) K(old) K(new) K(changed_by) \
    K(descriptor) K(src_pid) K(caller_pid) K(group_id) K(value_id) K(old_f16) \
    K(new_f16) K(old_value) K(new_value) K(set) K(warning) K(events_dropped) K(dropped) \
    K(first_seq) K(subscription) K(task_state) K(debug_break) K(mailbox_send) \
    K(mailbox_recv) K(value_changed) K(watch_update) \
    K(last_f16) K(last_value) K(persist_mode) K(save) S(volatile_, "volatile") \
    K(subscribers) K(unit) K(epsilon) K(epsilon_f16) K(rate_ms) K(min) K(min_f16) \
    K(max_f16) K(persist_key) K(debounce_ms) K(group_name) K(value) K(changed) K(capacity) \
    K(usage_pct) K(stats) K(command) K(cmd_id) K(owner_pid) K(auth_level) K(handler_addr) K(help) \
    K(breakpoint) K(breakpoints) K(address) K(symbol) K(offset) K(location) K(file) \
    K(line) K(hits) K(enabled) K(owner) K(remembered) K(cleared) K(frames) K(index) K(fp) \
    K(truncated) K(note) K(warnings) K(watches) K(format) S(trace_format, "hsx.trace/1") \
    K(returned) K(records) K(nan) K(inf) S(minus_inf, "-inf") \
    S(size_clamped, "size_clamped:") K(mailbox) K(rate_hz) K(stopped) \
    K(not_stopped) K(logs) K(descriptors) K(descriptor_id) \
    K(namespace) K(mode_mask) K(queue_depth) K(bytes_used) K(next_seq) K(handles) K(waiters) \
    K(max_descriptors) K(active_descriptors) K(woke) K(tap) K(event) K(unknown_handle) K(killed) \
    K(too_many_handles) K(messages) K(overrun)

#define HSX_KEY_ID(name, ...) K_##name,
#define HSX_KEY_ID1(name) K_##name,
enum hsx_key {
    HSX_REQUEST_KEYS(HSX_KEY_ID)
    HSX_COMMAND_KEYS(HSX_KEY_ID1, HSX_KEY_ID)
    HSX_REPLY_KEYS(HSX_KEY_ID1, HSX_KEY_ID)
    HSX_KEYS
};
#define HSX_ARGS K_ping             /* the request fields come first */
#define HSX_FIRST_COMMAND K_ping
#define HSX_COMMANDS (K_status - K_ping)

/* A key or value: its length, then its bytes (no NUL). */
const uint8_t *hsx_key(unsigned id);
/* The id of the request field or command named text[0..len), or -1. */
int hsx_key_find(const uint8_t *text, uint32_t len, unsigned first, unsigned end);
/* The form (A_*) a request field takes. */
extern const uint8_t hsx_arg_forms[HSX_ARGS];

#endif
