/* HSX C executive: the value registry (SVC module 0x07; docs/values.md).
 *
 * The rules of hsx.kernel.registry: OIDs global per executive, the owner-or-auth
 * access rule, SET's checks in order (access, RO, PIN, rate, BOOL, range, epsilon),
 * one value_changed event and one notification per subscriber per change, persistence
 * through hsx_store.c keyed by (app, persist key), metadata registered all or nothing.
 */
#include "hsx_registry.h"

#define METADATA_DEBOUNCE_MS 100u      /* .value records have no debounce field */
#define LIST_VISIBLE 0x100u
#define BOOL_TRUE 0x3C00u

enum { F_RO = 0x01, F_PERSIST = 0x02, F_PIN = 0x08, F_BOOL = 0x10, F_ALL = 0x1F };
enum { VOLATILE, LOAD, SAVE };


/* 32 bytes: the small fields share a byte; the store's app key is the owner's (app_of).
 * e.has: name, group, unit. */
static struct value {
    hsx_rg_entry e;
    uint16_t raw, eps, min, max, key, debounce, rate;
    uint8_t restored : 1, changed_once : 1, mode : 2;
    uint32_t last_change;
} values[HSX_MAX_VALUES];
const hsx_rg_table hsx_rg_values = { values, sizeof *values, HSX_MAX_VALUES };

static struct subscription { uint32_t pid, handle; uint16_t oid; uint8_t used; } subs[HSX_MAX_SUBSCRIPTIONS];

void hsx_k_values_init(void)
{
    hsx_k_fill(values, 0, sizeof values);
    hsx_k_fill(subs, 0, sizeof subs);
    hsx_rg_init();
    hsx_k_commands_init();
}

static int bounded(const struct value *v) { return v->min || v->max; }

static int in_range(uint16_t min, uint16_t max, uint16_t raw)
{
    double x;
    if (!min && !max)
        return 1;
    x = hsx_rg_f16(raw);
    return hsx_rg_f16(min) <= x && x <= hsx_rg_f16(max);
}

/* BOOL values hold exactly 0.0 or 1.0: zero of either sign is false, the rest true. */
static uint16_t normalise(uint8_t flags, uint16_t raw)
{
    if (!(flags & F_BOOL))
        return raw;
    return (raw & 0x7FFFu) == 0 ? 0 : BOOL_TRUE;
}

static int same(const struct value *v, uint16_t raw)
{
    double d;
    if (raw == v->raw)
        return 1;
    if (!v->eps || !(hsx_rg_f16(v->eps) > 0))
        return 0;
    d = hsx_rg_f16(raw) - hsx_rg_f16(v->raw);
    return (d < 0 ? -d : d) < hsx_rg_f16(v->eps);
}

/* ---- values ------------------------------------------------------------------------------ */

HSX_NOINLINE static struct value *value_of(uint32_t oid)
{
    return (struct value *)(void *)hsx_rg_find(&hsx_rg_values, oid);
}

/* Whether `caller` may read v (NULL: none): V_OK, V_ENOENT or V_EPERM. */
static int readable(const struct value *v, uint32_t caller, int auth)
{
    return !v ? V_ENOENT : !hsx_rg_may_access(v->e.owner, v->e.auth, caller, auth) ? V_EPERM : V_OK;
}

/* The app a value's stored bits are kept under: its owner's base name's CRC (a value
 * goes with its owner). */
static uint32_t app_of(const struct value *v)
{
    const hsx_tcb *t = hsx_k_task(v->e.owner);
    return t ? hsx_k_crc32(0, (const uint8_t *)t->base_name,
                           hsx_k_strlen(t->base_name, HSX_APP_NAME_MAX)) : 0;
}

/* The stored bits for v if the store has some that fit its range (_restorable). */
static int restorable(const struct value *v, uint16_t *raw)
{
    uint16_t stored;
    if (!hsx_k_store_load(app_of(v), v->key, &stored))
        return 0;
    stored = normalise(v->e.flags, stored);
    if (!in_range(v->min, v->max, stored))
        return 0;
    *raw = stored;
    return 1;
}

/* A checked value not yet registered, with its initial or restored bits (_prepare). */
static int prepare_value(struct value *v, const hsx_tcb *owner, uint32_t group, uint32_t id,
                         uint32_t flags, uint32_t auth, const hsx_rg_desc *d, uint16_t init)
{
    uint16_t stored;
    int status = hsx_rg_prepare(&hsx_rg_values, &v->e, owner->pid, group, id, flags, F_ALL, auth,
                                d, (flags & F_PERSIST) && !d->key);
    if (status != V_OK)
        return status;
    v->eps = d->eps;
    v->min = d->min;
    v->max = d->max;
    v->key = d->key;
    v->debounce = d->debounce;
    v->rate = d->rate;
    v->mode = (flags & F_PERSIST) ? SAVE : VOLATILE;
    v->raw = normalise(v->e.flags, init);
    if (!in_range(v->min, v->max, v->raw))
        return V_EINVAL;
    if (v->mode == SAVE && restorable(v, &stored)) {
        v->raw = stored;
        v->restored = 1;
    }
    return V_OK;
}

static void notify(const struct value *v, uint16_t old)
{
    uint8_t payload[6];
    int i;
    hsx_k_put16(payload, v->e.oid);
    hsx_k_put16(payload + 2, old);
    hsx_k_put16(payload + 4, v->raw);
    for (i = 0; i < HSX_MAX_SUBSCRIPTIONS; i++)
        if (subs[i].used && subs[i].oid == v->e.oid
                && hsx_k_mbx_send(subs[i].pid, subs[i].handle, payload, 6, 0, 0)
                       == HSX_MBX_INVALID_HANDLE)
            subs[i].used = 0;           /* the handle is gone: so is the subscription */
}

/* A real change: stored, announced once, saved (debounced), sent to subscribers. */
static void change(struct value *v, uint16_t raw, uint32_t caller, const char *reason)
{
    hsx_event ev;
    uint16_t old = v->raw;
    v->raw = raw;
    v->last_change = hsx_k_now();
    v->changed_once = 1;
    hsx_k_event(&ev, HSX_EV_VALUE_CHANGED, v->e.owner);
    ev.what = reason;
    ev.a = v->e.oid;
    ev.b = old;
    ev.c = raw;
    ev.d = caller;
    hsx_k_emit(&ev);
    if (v->mode == SAVE)
        hsx_k_store_schedule(app_of(v), v->key, raw, v->debounce);
    notify(v, old);
}

static int set_value(uint32_t caller, int auth, uint16_t oid, uint16_t raw, int *changed)
{
    struct value *v = value_of(oid);
    int owner;
    uint16_t normal;
    if (changed)
        *changed = 0;
    if (!v)
        return V_ENOENT;
    owner = caller == v->e.owner;
    if (!hsx_rg_may_access(v->e.owner, v->e.auth, caller, auth))
        return V_EPERM;
    if ((v->e.flags & F_RO) && !owner)
        return V_EPERM;
    if ((v->e.flags & F_PIN) && !owner)
        return V_EPERM;                 /* no PIN is configured: every PIN check fails */
    if (v->rate && v->changed_once && hsx_k_now() - v->last_change < v->rate)
        return V_EBUSY;
    normal = normalise(v->e.flags, raw);
    if (!in_range(v->min, v->max, normal))
        return V_EINVAL;
    if (same(v, normal))
        return V_OK;
    change(v, normal, caller, "set");
    if (changed)
        *changed = 1;
    return V_OK;
}

static int persist_mode(uint32_t caller, uint16_t oid, uint32_t mode)
{
    struct value *v = value_of(oid);
    uint16_t stored;
    if (!v)
        return V_ENOENT;
    if (caller != v->e.owner)
        return V_EPERM;
    if (mode > SAVE || (mode != VOLATILE && !v->key))
        return V_EINVAL;
    v->mode = (uint8_t)mode;
    if (mode == SAVE)
        v->e.flags |= F_PERSIST;
    else
        v->e.flags &= (uint8_t)~F_PERSIST;
    if (mode != VOLATILE) {
        if (!restorable(v, &stored)) {
            if (mode == SAVE)
                hsx_k_store_schedule(app_of(v), v->key, v->raw, v->debounce);
        } else if (!same(v, stored)) {
            change(v, stored, caller, "restore");
        }
    }
    return V_OK;
}

static void unsubscribe(uint32_t pid, uint32_t handle, int any_handle)
{
    int i;
    for (i = 0; i < HSX_MAX_SUBSCRIPTIONS; i++)
        if (subs[i].used && subs[i].pid == pid && (any_handle || subs[i].handle == handle))
            subs[i].used = 0;
}

void hsx_k_values_unsubscribe(uint32_t pid, uint32_t handle) { unsubscribe(pid, handle, 0); }

void hsx_k_values_release(uint32_t pid)
{
    int k;
    for (k = 0; k < HSX_MAX_SUBSCRIPTIONS; k++) {      /* subscriptions to its values */
        struct value *v = value_of(subs[k].oid);
        if (v && v->e.owner == pid)
            subs[k].used = 0;
    }
    hsx_rg_release(&hsx_rg_values, pid);
    unsubscribe(pid, 0, 1);
    hsx_rg_release(&hsx_rg_commands, pid);
}

/* ---- SVC module 0x07 --------------------------------------------------------------- */


HSX_COLD_FUNCTION static void list_values(hsx_tcb *t, uint32_t selector, uint32_t out,
                                          uint32_t limit)
{
    uint32_t group = selector & 0xFFu, written = 0, total = 0, cursor = 0;
    hsx_rg_entry *e;
    while ((e = hsx_rg_next(&hsx_rg_values, &cursor)) != 0) {      /* in OID order */
        if ((group != GROUP_ALL && (uint32_t)(e->oid >> 8) != group)
                || (selector & LIST_VISIBLE
                    ? !hsx_rg_may_access(e->owner, e->auth, t->pid, AUTH_PUBLIC)
                    : e->owner != t->pid))
            continue;
        if (written < limit)
            hsx_k_put16(t->vm.mem + out + 2 * written++, e->oid);
        total++;
    }
    hsx_k_set_r0_r1(t, V_OK, written);
    hsx_k_set_reg(t, 2, total);
}

/* SUB: value oid's changes notified to the mailbox named at guest address
 * target_addr (an hsx_svc_action). */
HSX_COLD_FUNCTION static int subscribe(hsx_tcb *t, uint16_t oid, uint32_t target_addr)
{
    char target[HSX_MAX_STRING + 1];
    uint32_t handle = 0;
    int n = hsx_k_guest_string(t, target_addr, target, sizeof target), i, slot = -1, status;
    struct value *v;
    if (n < 0)
        return HSX_SVC_FAULT;
    v = value_of(oid);
    if (!v)
        status = V_ENOENT;
    else if (!n || hsx_k_mbx_open(t->pid, target, (uint32_t)n, HSX_MBX_RDWR, &handle) != HSX_MBX_OK)
        status = V_EINVAL;
    else if (!hsx_rg_may_access(v->e.owner, v->e.auth, t->pid, AUTH_PUBLIC))
        status = V_EPERM;
    else {
        for (i = 0; i < HSX_MAX_SUBSCRIPTIONS && slot < 0; i++)
            if (!subs[i].used)
                slot = i;
        status = slot < 0 ? V_ENOSPC : V_OK;
    }
    if (status == V_OK) {
        subs[slot].used = 1;
        subs[slot].pid = t->pid;
        subs[slot].handle = handle;
        subs[slot].oid = oid;
    } else if (handle) {
        hsx_k_mbx_close(t->pid, handle);
    }
    hsx_k_set_r0_r1(t, (uint32_t)status, status == V_OK ? handle : 0);
    return HSX_SVC_DONE;
}

int hsx_k_svc_values(hsx_tcb *t, uint32_t fn, const uint32_t *args)
{
    uint32_t r1 = args[1], r2 = args[2], r3 = args[3];
    uint16_t oid = (uint16_t)r1;
    struct value *v;
    int status, r;
    switch (fn) {
    case 0: {                                       /* REGISTER */
        struct value nv;
        struct hsx_rg_chain_text text;
        hsx_rg_desc d;
        r = hsx_rg_decode_chain(t, args[4], 0, &d, &text);
        FAULT_OR(r, V_EINVAL);
        status = prepare_value(&nv, t, r1 & 0xFFu, r2 & 0xFFu, r3 & 0xFFu, AUTH_PUBLIC, &d, 0);
        if (status == V_OK)
            status = hsx_rg_count(&hsx_rg_values) >= HSX_MAX_VALUES
                         ? V_ENOSPC : hsx_rg_add(&hsx_rg_values, &nv.e, &d);
        hsx_k_set_r0_r1(t, (uint32_t)status, status == V_OK ? nv.e.oid : 0);
        break;
    }
    case 1:                                         /* LOOKUP */
        oid = (uint16_t)((r1 & 0xFFu) << 8 | (r2 & 0xFFu));
        hsx_k_set_r0_r1(t, value_of(oid) ? V_OK : V_ENOENT, value_of(oid) ? oid : 0);
        break;
    case 2:                                         /* GET */
        v = value_of(oid);
        status = readable(v, t->pid, AUTH_PUBLIC);
        hsx_k_set_r0_r1(t, status == V_OK ? v->raw : (uint32_t)status, (uint32_t)status);
        break;
    case 3:                                         /* SET */
        hsx_k_set_reg(t, 0, (uint32_t)set_value(t->pid, AUTH_PUBLIC, oid, (uint16_t)r2, 0));
        break;
    case 4:                                         /* LIST */
        if (!hsx_k_guest_ok(t, r2, (r3 & 0xFFFFu) * 2))
            return HSX_SVC_FAULT;
        list_values(t, r1, r2, r3 & 0xFFFFu);
        break;
    case 5:                                         /* SUB */
        return subscribe(t, oid, r2);
    case 6:                                         /* PERSIST */
        hsx_k_set_reg(t, 0, (uint32_t)persist_mode(t->pid, oid, r2));
        break;
    default:
        hsx_k_set_reg(t, 0, V_EINVAL);
        break;
    }
    return HSX_SVC_DONE;
}

HSX_COLD_FUNCTION hsx_status hsx_k_values_from_image(hsx_tcb *t, const uint8_t *sec, uint32_t size,
                                                    uint32_t count)
{
    struct value v;
    uint32_t i, pool = 0;
    int status;
    hsx_rg_desc d;
    (void)size;
    for (i = 0; i < 2 * count; i++) {           /* pass 0: check every record; 1: add */
        const uint8_t *r = sec + 20u * (i % count);
        uint32_t off[3];
        uint32_t flags = r[2];
        off[0] = hsx_rg_be16(r + 6);
        off[1] = hsx_rg_be16(r + 18);
        off[2] = hsx_rg_be16(r + 8);
        hsx_k_fill(&d, 0, sizeof d);
        hsx_rg_record_strings(sec, off, &d);
        d.eps = (uint16_t)hsx_rg_be16(r + 10);
        d.min = (uint16_t)hsx_rg_be16(r + 12);
        d.max = (uint16_t)hsx_rg_be16(r + 14);
        d.key = (uint16_t)hsx_rg_be16(r + 16);
        d.debounce = METADATA_DEBOUNCE_MS;
        if (d.key)
            flags |= F_PERSIST;
        if (i < count) {
            status = prepare_value(&v, t, r[0], r[1], flags, r[3], &d, (uint16_t)hsx_rg_be16(r + 4));
            if (status != V_OK)
                return hsx_rg_refuse(HSX_ERR_VALUE, status);
            pool += (d.text[0] || d.text[1] || d.text[2]) ? hsx_rg_block_size(&d) : 0;
            if (i + 1 == count && (hsx_rg_count(&hsx_rg_values) + count > HSX_MAX_VALUES
                                   || pool > hsx_rg_names_free()))
                return hsx_rg_refuse(HSX_ERR_VALUE, V_ENOSPC);
        } else {
            prepare_value(&v, t, r[0], r[1], flags, r[3], &d, (uint16_t)hsx_rg_be16(r + 4));
            hsx_rg_add(&hsx_rg_values, &v.e, &d);
        }
    }
    return HSX_OK;
}

/* ---- the host's view ----------------------------------------------------------------------- */

static void value_info(const struct value *v, hsx_value_info *out)
{
    hsx_k_fill(out, 0, sizeof *out);
    out->oid = v->e.oid;
    out->flags = v->e.flags;
    out->auth_level = v->e.auth;
    out->owner_pid = (uint16_t)v->e.owner;
    out->f16 = v->raw;
    out->persist_key = v->key;
    out->name = hsx_rg_string_at(v->e.strings, v->e.has, 0);
    out->group_name = hsx_rg_string_at(v->e.strings, v->e.has, 1);
    out->unit = hsx_rg_string_at(v->e.strings, v->e.has, 2);
    out->min_f16 = v->min;
    out->max_f16 = v->max;
    out->epsilon_f16 = v->eps;
    out->has_range = (uint8_t)bounded(v);
    out->has_epsilon = v->eps != 0;
    out->rate_ms = v->rate;
    out->debounce_ms = v->debounce;
}

int hsx_exec_next_value(uint32_t *cursor, hsx_value_info *out)
{
    struct value *v = (struct value *)(void *)hsx_rg_next(&hsx_rg_values, cursor);
    if (!v)
        return 0;
    value_info(v, out);
    return 1;
}

hsx_status hsx_exec_value_find(const char *name, uint16_t *oid)
{
    uint32_t cursor = 0;
    hsx_value_info info;
    while (name && hsx_exec_next_value(&cursor, &info))
        if (hsx_rg_named(name, info.name, info.group_name)) {
            *oid = info.oid;
            return HSX_OK;
        }
    return HSX_ERR_UNKNOWN_NAME;
}

hsx_status hsx_exec_value_get(uint16_t oid, uint16_t *raw)
{
    struct value *v = value_of(oid);
    int status = readable(v, HOST_PID, AUTH_USER);
    if (status != V_OK)
        return hsx_rg_refuse(HSX_ERR_VALUE, status);
    *raw = v->raw;
    return HSX_OK;
}

hsx_status hsx_exec_value_set(uint16_t oid, uint16_t raw, int *changed)
{
    int status = set_value(HOST_PID, AUTH_USER, oid, raw, changed);
    return status == V_OK ? HSX_OK : hsx_rg_refuse(HSX_ERR_VALUE, status);
}
