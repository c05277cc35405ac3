/* HSX C executive: values and commands seen from the host (docs/protocol.md "Values and
 * commands", docs/values.md): val.list/get/set/stats, cmd.list/call/stats. The host is
 * PID 0; setting a value or calling a command changes its owner task, so the owner's
 * PID lock applies. Values travel as f16 bits and as the number (a CBOR half float);
 * hsx.client turns a `value` into its f16 bits before it sends a val.set.
 */
#include <stddef.h>

#include "hsx_proto.h"

HSX_COLD_CODE_BEGIN

#define VALUE_NAME 64u                          /* bytes of a "group.name" asked for */

/* `name` as a C string into out[VALUE_NAME]: 0, or -1 when too long. */
static int arg_name(hsx_call *c, char *out)
{
    uint32_t n = ARG(c, name);
    if (n >= VALUE_NAME)
        return hsx_fail_field(c, K_name);
    for (uint32_t i = 0; i < n; i++)
        out[i] = (char)c->arg[K_name].p[i];
    out[n] = 0;
    return 0;
}

/* The entry a request names by `oid` or `name` ("rpm", "motor.rpm"). */
static int arg_entry(hsx_call *c, hsx_status (*find)(const char *, uint16_t *), uint16_t *oid)
{
    char name[VALUE_NAME];
    *oid = (uint16_t)ARG(c, oid);
    if (HAS(c, oid))
        return ARG(c, oid) > 0xFFFF ? hsx_fail_field(c, K_oid) : 0;
    if (!HAS(c, name))
        return hsx_fail_field(c, K_oid);
    if (arg_name(c, name) < 0)
        return -1;
    return hsx_fail_status(c, find(name, oid));
}

/* The entry's owner may be changed by the caller (its PID lock). */
static int owner_control(hsx_call *c, uint32_t owner)
{
    return owner ? hsx_control(c, owner) : 0;
}

HSX_NOINLINE static int text_eq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* A name filter matches "name" or "group.name". */
static int name_matches(const char *filter, const char *name, const char *group)
{
    if (!name)
        return 0;
    if (text_eq(filter, name))
        return 1;
    while (group && *group && *group == *filter) {
        group++;
        filter++;
    }
    return group && !*group && *filter == '.' && text_eq(filter + 1, name);
}

/* The list filters of val.list and cmd.list: 1 when the entry passes. */
static int passes(hsx_call *c, const char *filter, uint16_t oid, uint32_t owner,
                  const char *name, const char *group)
{
    return (!HAS(c, pid) || owner == ARG(c, pid)) && (!HAS(c, group) || (oid >> 8) == ARG(c, group)) &&
           (!HAS(c, oid) || oid == ARG(c, oid)) && (!HAS(c, name) || name_matches(filter, name, group));
}

static void put_text_if(hsx_cbor_writer *w, unsigned key, const char *text)
{
    if (text)
        hsx_field_s(w, key, text);
}

static const hsx_row value_row[] = {
    ROW(oid, R_U16, hsx_value_info, oid), ROW(flags, R_U16, hsx_value_info, flags),
    ROW(auth_level, R_U16, hsx_value_info, auth_level),
    ROW(owner_pid, R_U16, hsx_value_info, owner_pid), ROW(last_f16, R_U16, hsx_value_info, f16),
    ROW(last_value, R_F16, hsx_value_info, f16), ROW_CONST(subscribers, R_ZERO, 0),
};

int hsx_cmd_val_list(hsx_call *c)
{
    char filter[VALUE_NAME];
    hsx_value_info v;
    uint32_t cursor = 0;
    if (arg_name(c, filter) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_values);
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_value(&cursor, &v)) {
        hsx_cbor_writer *w = c->w;
        if (!passes(c, filter, v.oid, v.owner_pid, v.name, v.group_name))
            continue;
        hsx_cbor_open_map(w);
        hsx_field_u(w, K_group_id, v.oid >> 8);
        hsx_field_u(w, K_value_id, v.oid & 0xFF);
        hsx_put_row(w, value_row, sizeof value_row / sizeof *value_row, &v);
        hsx_field_k(w, K_persist_mode, v.persist_key ? K_save : K_volatile_);
        put_text_if(w, K_name, v.name);
        put_text_if(w, K_group_name, v.group_name);
        put_text_if(w, K_unit, v.unit);
        if (v.has_epsilon && v.epsilon_f16) {
            hsx_put_key(w, K_epsilon);
            hsx_put_f16(w, v.epsilon_f16);
            hsx_field_u(w, K_epsilon_f16, v.epsilon_f16);
        }
        if (v.rate_ms)
            hsx_field_u(w, K_rate_ms, v.rate_ms);
        if (v.has_range) {
            hsx_put_key(w, K_min);
            hsx_put_f16(w, v.min_f16);
            hsx_field_u(w, K_min_f16, v.min_f16);
            hsx_put_key(w, K_max);
            hsx_put_f16(w, v.max_f16);
            hsx_field_u(w, K_max_f16, v.max_f16);
        }
        if (v.persist_key) {
            hsx_field_u(w, K_persist_key, v.persist_key);
            hsx_field_u(w, K_debounce_ms, v.debounce_ms);
        }
        hsx_cbor_put_end(w);
    }
    hsx_cbor_put_end(c->w);
    return 0;
}

static void put_value_reply(hsx_call *c, uint16_t oid, uint16_t f16, int changed)
{
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_value);
    hsx_cbor_put_map(c->w, changed >= 0 ? 5 : 4);
    hsx_field_u(c->w, K_oid, oid);
    hsx_field_u(c->w, K_status, 0);
    hsx_field_u(c->w, K_f16, f16);
    hsx_put_key(c->w, K_value);
    hsx_put_f16(c->w, f16);
    if (changed >= 0)
        hsx_field_b(c->w, K_changed, changed);
}

int hsx_cmd_val_get(hsx_call *c)
{
    uint16_t oid, f16;
    if (arg_entry(c, hsx_exec_value_find, &oid) < 0 ||
        hsx_fail_status(c, hsx_exec_value_get(oid, &f16)) < 0)
        return -1;
    put_value_reply(c, oid, f16, -1);
    return 0;
}

int hsx_cmd_val_set(hsx_call *c)
{
    uint16_t oid, f16;
    int changed = 0;
    hsx_value_info v;
    uint32_t cursor = 0;
    if (arg_entry(c, hsx_exec_value_find, &oid) < 0)
        return -1;
    if (!HAS(c, f16) || ARG(c, f16) > 0xFFFF)
        return hsx_fail_field(c, K_f16);
    while (hsx_exec_next_value(&cursor, &v))
        if (v.oid == oid && owner_control(c, v.owner_pid) < 0)
            return -1;
    if (hsx_fail_status(c, hsx_exec_value_set(oid, (uint16_t)ARG(c, f16), &changed)) < 0)
        return -1;
    hsx_exec_value_get(oid, &f16);
    put_value_reply(c, oid, f16, changed);
    return 0;
}

static void put_usage(hsx_call *c, unsigned what, uint32_t count, uint32_t capacity)
{
    union { double d; uint64_t bits; } pct;
    pct.d = (double)(count * 1000 / capacity) / 10.0;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_stats);
    hsx_cbor_put_map(c->w, 1);
    hsx_put_key(c->w, what);
    hsx_cbor_put_map(c->w, 3);
    hsx_field_u(c->w, K_count, count);
    hsx_field_u(c->w, K_capacity, capacity);
    hsx_put_key(c->w, K_usage_pct);
    hsx_cbor_put_float_bits(c->w, pct.bits, 8);
}

int hsx_cmd_val_stats(hsx_call *c)
{
    hsx_value_info v;
    uint32_t cursor = 0, n = 0;
    while (hsx_exec_next_value(&cursor, &v))
        n++;
    put_usage(c, K_values, n, HSX_MAX_VALUES);
    return 0;
}

static const hsx_row command_row[] = {
    ROW(oid, R_U16, hsx_command_info, oid), ROW(flags, R_U16, hsx_command_info, flags),
    ROW(auth_level, R_U16, hsx_command_info, auth_level),
    ROW(owner_pid, R_U16, hsx_command_info, owner_pid),
    ROW(handler_addr, R_U32, hsx_command_info, handler_addr),
};

int hsx_cmd_cmd_list(hsx_call *c)
{
    char filter[VALUE_NAME];
    hsx_command_info k;
    uint32_t cursor = 0;
    if (arg_name(c, filter) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_commands);
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_command(&cursor, &k)) {
        hsx_cbor_writer *w = c->w;
        if (!passes(c, filter, k.oid, k.owner_pid, k.name, k.group_name))
            continue;
        hsx_cbor_open_map(w);
        hsx_field_u(w, K_group_id, k.oid >> 8);
        hsx_field_u(w, K_cmd_id, k.oid & 0xFF);
        hsx_put_row(w, command_row, sizeof command_row / sizeof *command_row, &k);
        put_text_if(w, K_name, k.name);
        put_text_if(w, K_help, k.help);
        put_text_if(w, K_group_name, k.group_name);
        hsx_cbor_put_end(w);
    }
    hsx_cbor_put_end(c->w);
    return 0;
}

int hsx_cmd_cmd_call(hsx_call *c)
{
    uint16_t oid;
    int32_t result;
    hsx_command_info k;
    uint32_t cursor = 0;
    if (ARG(c, async))
        return hsx_fail_field(c, K_async);
    if (arg_entry(c, hsx_exec_command_find, &oid) < 0)
        return -1;
    while (hsx_exec_next_command(&cursor, &k))
        if (k.oid == oid && owner_control(c, k.owner_pid) < 0)
            return -1;
    if (hsx_fail_status(c, hsx_exec_command_call(oid, &result)) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_put_key(c->w, K_command);
    hsx_cbor_put_map(c->w, 3);
    hsx_field_u(c->w, K_oid, oid);
    hsx_field_u(c->w, K_status, 0);
    hsx_put_key(c->w, K_result);
    hsx_cbor_put_int(c->w, result);
    return 0;
}

int hsx_cmd_cmd_stats(hsx_call *c)
{
    hsx_command_info k;
    uint32_t cursor = 0, n = 0;
    while (hsx_exec_next_command(&cursor, &k))
        n++;
    put_usage(c, K_commands, n, HSX_MAX_COMMANDS);
    return 0;
}

HSX_COLD_CODE_END
