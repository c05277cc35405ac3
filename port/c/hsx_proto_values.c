/* HSX C executive: values and commands seen from the host (docs/protocol.md "Values and
 * commands", docs/values.md): val.list/get/set/stats, cmd.list/call/stats. The host is
 * PID 0; setting a value or calling a command changes its owner task, so the owner's
 * PID lock applies. Values travel as f16 bits and as the number (a CBOR half float).
 */
#include <stddef.h>

#include "hsx_f16.h"
#include "hsx_proto.h"

#define W HSX_CMD_WRITES
#define VALUE_NAME 64u                          /* bytes of a "group.name" asked for */

/* -- values and commands -------------------------------------------------------------------------- */

/* The entry a request names by `oid` or `name` ("rpm", "motor.rpm"). */
static int arg_entry(hsx_call *c, hsx_status (*find)(const char *, uint16_t *), uint16_t *oid)
{
    uint32_t number;
    char name[VALUE_NAME];
    int got = hsx_arg_u32(c, "oid", &number, 0, 0xFFFF);
    if (got > 0)
        *oid = (uint16_t)number;
    if (got)
        return got;
    if ((got = hsx_arg_cstr(c, "name", name, sizeof name)) <= 0)
        return got < 0 ? -1 : hsx_fail(c, "bad_argument", c->name, " requires 'oid' or 'name'", NULL);
    if (find(name, oid) != HSX_OK)
        return hsx_fail(c, "unknown_name", "no entry is named '", name, "'", NULL);
    return 1;
}

/* The list filters of val.list / cmd.list. */
typedef struct filters {
    int pid_given, group_given, name_given, oid_given;
    uint32_t pid, group, oid;
    char name[VALUE_NAME];
} filters;

static int arg_filters(hsx_call *c, filters *f)
{
    return (f->pid_given = hsx_arg_u32(c, "pid", &f->pid, 0, UINT32_MAX)) < 0 ||
           (f->group_given = hsx_arg_u32(c, "group", &f->group, 0, 255)) < 0 ||
           (f->oid_given = hsx_arg_u32(c, "oid", &f->oid, 0, 0xFFFF)) < 0 ||
           (f->name_given = hsx_arg_cstr(c, "name", f->name, sizeof f->name)) < 0 ? -1 : 0;
}

static int text_eq(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* A name filter matches "name" or "group.name". */
static int name_matches(const filters *f, const char *name, const char *group)
{
    if (text_eq(f->name, name))
        return 1;
    const char *n = f->name;
    if (!group || !name)
        return 0;
    while (*group && *group == *n) {
        group++;
        n++;
    }
    return !*group && *n == '.' && text_eq(n + 1, name);
}

static int passes(const filters *f, uint16_t oid, uint32_t owner, const char *name, const char *group)
{
    return (!f->pid_given || owner == f->pid) && (!f->group_given || (oid >> 8) == f->group) &&
           (!f->oid_given || oid == f->oid) && (!f->name_given || name_matches(f, name, group));
}

static void put_text_if(hsx_cbor_writer *w, const char *key, const char *text)
{
    if (text)
        hsx_field_s(w, key, text);
}

static int cmd_val_list(hsx_call *c)
{
    filters f;
    hsx_value_info v;
    uint32_t cursor = 0;
    if (arg_filters(c, &f) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_key(c->w, "values");
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_value(&cursor, &v)) {
        if (!passes(&f, v.oid, v.owner_pid, v.name, v.group_name))
            continue;
        hsx_cbor_writer *w = c->w;
        hsx_cbor_open_map(w);
        hsx_field_u(w, "oid", v.oid);
        hsx_field_u(w, "group_id", v.oid >> 8);
        hsx_field_u(w, "value_id", v.oid & 0xFF);
        hsx_field_u(w, "flags", v.flags);
        hsx_field_u(w, "auth_level", v.auth_level);
        hsx_field_u(w, "owner_pid", v.owner_pid);
        hsx_field_u(w, "last_f16", v.f16);
        hsx_key(w, "last_value");
        hsx_put_f16(w, v.f16);
        hsx_field_s(w, "persist_mode", v.persist_key ? "save" : "volatile");
        hsx_field_u(w, "subscribers", 0);
        put_text_if(w, "name", v.name);
        put_text_if(w, "group_name", v.group_name);
        put_text_if(w, "unit", v.unit);
        if (v.has_epsilon && v.epsilon_f16) {
            hsx_key(w, "epsilon");
            hsx_put_f16(w, v.epsilon_f16);
            hsx_field_u(w, "epsilon_f16", v.epsilon_f16);
        }
        if (v.rate_ms)
            hsx_field_u(w, "rate_ms", v.rate_ms);
        if (v.has_range) {
            hsx_key(w, "min");
            hsx_put_f16(w, v.min_f16);
            hsx_field_u(w, "min_f16", v.min_f16);
            hsx_key(w, "max");
            hsx_put_f16(w, v.max_f16);
            hsx_field_u(w, "max_f16", v.max_f16);
        }
        if (v.persist_key) {
            hsx_field_u(w, "persist_key", v.persist_key);
            hsx_field_u(w, "debounce_ms", v.debounce_ms);
        }
        hsx_cbor_put_end(w);
    }
    hsx_cbor_put_end(c->w);
    return 0;
}

static void put_value_reply(hsx_call *c, uint16_t oid, uint16_t f16, int changed)
{
    hsx_reply_ok(c);
    hsx_key(c->w, "value");
    hsx_cbor_put_map(c->w, changed >= 0 ? 5 : 4);
    hsx_field_u(c->w, "oid", oid);
    hsx_field_u(c->w, "status", 0);
    hsx_field_u(c->w, "f16", f16);
    hsx_key(c->w, "value");
    hsx_put_f16(c->w, f16);
    if (changed >= 0) {
        hsx_key(c->w, "changed");
        hsx_cbor_put_bool(c->w, changed);
    }
}

static int cmd_val_get(hsx_call *c)
{
    uint16_t oid, f16;
    if (arg_entry(c, hsx_exec_value_find, &oid) < 0 ||
        hsx_fail_status(c, hsx_exec_value_get(oid, &f16), 0) < 0)
        return -1;
    put_value_reply(c, oid, f16, -1);
    return 0;
}

/* `value`: a number (integer, or a half/single/double float) or a boolean, as f16 bits. */
static int arg_value_f16(hsx_call *c, uint16_t *bits)
{
    hsx_cbor_item item;
    uint32_t raw;
    int got = hsx_arg_u32(c, "f16", &raw, 0, 0xFFFF);
    if (got) {
        *bits = (uint16_t)raw;
        return got;
    }
    if (!hsx_cbor_map_get(c->req, c->len, "value", &item) || item.type == HSX_CBOR_NULL)
        return hsx_fail(c, "bad_argument", c->name, " requires a numeric 'value' (or 'f16' bits)", NULL);
    double value;
    if (item.type == HSX_CBOR_TRUE || item.type == HSX_CBOR_FALSE)
        value = item.type == HSX_CBOR_TRUE;
    else if (item.type == HSX_CBOR_UINT && item.value <= 65504)
        value = (double)item.value;
    else if (item.type == HSX_CBOR_NINT && item.value < 65504)
        value = -1.0 - (double)item.value;
    else if (item.type == HSX_CBOR_FLOAT && item.float_size == 2) {
        *bits = (uint16_t)item.value;
        return 1;
    } else if (item.type == HSX_CBOR_FLOAT && item.float_size == 4) {
        union { uint32_t bits; float f; } v = {(uint32_t)item.value};
        value = v.f;
    } else if (item.type == HSX_CBOR_FLOAT) {
        union { uint64_t bits; double d; } v = {item.value};
        value = v.d;
    } else {
        value = 1e9;
    }
    if (!(value >= -65504.0 && value <= 65504.0))
        return hsx_fail(c, "bad_argument", "'value' must be a number -65504..65504 or a boolean", NULL);
    *bits = (uint16_t)hsx_double_to_f16(value);
    return 1;
}

static int cmd_val_set(hsx_call *c)
{
    uint16_t oid, f16;
    int changed = 0;
    hsx_value_info v;
    uint32_t cursor = 0;
    if (arg_entry(c, hsx_exec_value_find, &oid) < 0 || arg_value_f16(c, &f16) < 0)
        return -1;
    while (hsx_exec_next_value(&cursor, &v))
        if (v.oid == oid && v.owner_pid && hsx_control(c, v.owner_pid) < 0)
            return -1;
    if (hsx_fail_status(c, hsx_exec_value_set(oid, f16, &changed), 0) < 0)
        return -1;
    hsx_exec_value_get(oid, &f16);
    put_value_reply(c, oid, f16, changed);
    return 0;
}

static void put_usage(hsx_call *c, const char *what, uint32_t count, uint32_t capacity)
{
    union { double d; uint64_t bits; } pct;
    pct.d = capacity ? (double)(count * 1000 / capacity) / 10.0 : 0.0;
    hsx_reply_ok(c);
    hsx_key(c->w, "stats");
    hsx_cbor_put_map(c->w, 1);
    hsx_key(c->w, what);
    hsx_cbor_put_map(c->w, 3);
    hsx_field_u(c->w, "count", count);
    hsx_field_u(c->w, "capacity", capacity);
    hsx_key(c->w, "usage_pct");
    hsx_cbor_put_float_bits(c->w, pct.bits, 8);
}

static int cmd_val_stats(hsx_call *c)
{
    hsx_value_info v;
    uint32_t cursor = 0, n = 0;
    while (hsx_exec_next_value(&cursor, &v))
        n++;
    put_usage(c, "values", n, HSX_MAX_VALUES);
    return 0;
}

static int cmd_cmd_list(hsx_call *c)
{
    filters f;
    hsx_command_info k;
    uint32_t cursor = 0;
    if (arg_filters(c, &f) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_key(c->w, "commands");
    hsx_cbor_open_array(c->w);
    while (hsx_exec_next_command(&cursor, &k)) {
        if (!passes(&f, k.oid, k.owner_pid, k.name, k.group_name))
            continue;
        hsx_cbor_writer *w = c->w;
        hsx_cbor_open_map(w);
        hsx_field_u(w, "oid", k.oid);
        hsx_field_u(w, "group_id", k.oid >> 8);
        hsx_field_u(w, "cmd_id", k.oid & 0xFF);
        hsx_field_u(w, "flags", k.flags);
        hsx_field_u(w, "auth_level", k.auth_level);
        hsx_field_u(w, "owner_pid", k.owner_pid);
        hsx_field_u(w, "handler_addr", k.handler_addr);
        put_text_if(w, "name", k.name);
        put_text_if(w, "help", k.help);
        put_text_if(w, "group_name", k.group_name);
        hsx_cbor_put_end(w);
    }
    hsx_cbor_put_end(c->w);
    return 0;
}

static int cmd_cmd_call(hsx_call *c)
{
    uint16_t oid;
    int32_t result;
    int async = 0;
    hsx_command_info k;
    uint32_t cursor = 0;
    if (hsx_arg_bool(c, "async", &async) < 0)
        return -1;
    if (async)
        return hsx_fail(c, "unsupported", "host calls are synchronous: the reply carries the result", NULL);
    if (arg_entry(c, hsx_exec_command_find, &oid) < 0)
        return -1;
    while (hsx_exec_next_command(&cursor, &k))
        if (k.oid == oid && k.owner_pid && hsx_control(c, k.owner_pid) < 0)
            return -1;
    if (hsx_fail_status(c, hsx_exec_command_call(oid, &result), 0) < 0)
        return -1;
    hsx_reply_ok(c);
    hsx_key(c->w, "command");
    hsx_cbor_put_map(c->w, 3);
    hsx_field_u(c->w, "oid", oid);
    hsx_field_u(c->w, "status", 0);
    hsx_key(c->w, "result");
    hsx_cbor_put_int(c->w, result);
    return 0;
}

static int cmd_cmd_stats(hsx_call *c)
{
    hsx_command_info k;
    uint32_t cursor = 0, n = 0;
    while (hsx_exec_next_command(&cursor, &k))
        n++;
    put_usage(c, "commands", n, HSX_MAX_COMMANDS);
    return 0;
}

const hsx_command hsx_value_commands[] = {
    {"val.list val_list", cmd_val_list, 0},
    {"val.get val_get", cmd_val_get, 0},
    {"val.set val_set", cmd_val_set, W},
    {"val.stats val_stats", cmd_val_stats, 0},
    {"cmd.list cmd_list", cmd_cmd_list, 0},
    {"cmd.call cmd_call", cmd_cmd_call, W},
    {"cmd.stats cmd_stats", cmd_cmd_stats, 0},
    {NULL, NULL, 0},
};
