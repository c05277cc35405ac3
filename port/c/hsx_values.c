/* HSX C executive: the value and command registry (SVC modules 0x07 and 0x08).
 *
 * The rules of hsx.kernel.registry (docs/values.md): OIDs global per executive, the
 * owner-or-auth access rule, SET's checks in order (access, RO, PIN, rate, BOOL,
 * range, epsilon), one value_changed event and one notification per subscriber per
 * change, persistence through hsx_store.c keyed by (app, persist key), descriptor
 * chains read from guest memory, metadata registered all or nothing. Command handlers
 * run in their owner's context with a return address that is not code; the call ends
 * when the handler returns there.
 *
 * Names, group names, units and help texts live in one pool of HSX_NAME_POOL bytes:
 * each entry owns a block of three NUL-terminated strings, compacted on removal.
 */
#include "hsx_kernel.h"
#include "hsx_f16.h"

#define GROUP_ALL 0xFFu
#define NONE 0xFFFFu
#define NAME_MAX_BYTES 63u
#define HELP_MAX_BYTES 255u
#define METADATA_DEBOUNCE_MS 100u
#define MAX_DEFER_PERIODS 4u
#define LIST_VISIBLE 0x100u
#define CMD_REGISTER_HANDLER 0x80u
#define BOOL_TRUE 0x3C00u
#define AUTH_PUBLIC 0
#define AUTH_USER 1
#define HOST_PID 0u

enum { V_OK, V_ENOENT, V_EPERM, V_ENOSPC, V_EINVAL, V_EEXIST, V_EBUSY, C_EFAIL = 7 };
enum { C_ENOASYNC = 6 };
enum { F_RO = 0x01, F_PERSIST = 0x02, F_PIN = 0x08, F_BOOL = 0x10, F_ALL = 0x1F };
enum { CF_PIN = 0x01, CF_ASYNC = 0x02, CF_ALL = 0x03 };
enum { VOLATILE, LOAD, SAVE };

static struct value {
    uint16_t oid, raw, eps, min, max, key, debounce, rate, strings;
    uint8_t used, flags, auth, mode, restored, changed_once, has;   /* has: name, group, unit */
    uint32_t owner, app, last_change;
} values[HSX_MAX_VALUES];

static struct command {
    uint16_t oid, strings;
    uint8_t used, flags, auth, has_handler, has;                     /* has: name, group, help */
    uint32_t owner, handler;
} commands[HSX_MAX_COMMANDS];

static struct subscription { uint32_t pid, handle; uint16_t oid; uint8_t used; } subs[HSX_MAX_SUBSCRIPTIONS];

static char names[HSX_NAME_POOL];
static uint32_t names_used;

/* What a descriptor chain or a metadata record gives an entry. */
typedef struct desc {
    const char *text[3];            /* name, group name, unit (commands: help) */
    uint32_t len[3];
    uint16_t eps, min, max, key, debounce, rate;
} desc;

void hsx_k_values_init(void)
{
    hsx_k_fill(values, 0, sizeof values);
    hsx_k_fill(commands, 0, sizeof commands);
    hsx_k_fill(subs, 0, sizeof subs);
    names_used = 0;
}

/* ---- the name pool -------------------------------------------------------------------- */

static uint32_t block_size(const desc *d)
{
    return d->len[0] + d->len[1] + d->len[2] + 3;
}

/* Copy an entry's strings into the pool: its block's offset, NONE without strings,
 * or -1 when the pool is full. */
static int32_t names_add(const desc *d, uint8_t *has)
{
    uint32_t at = names_used, i;
    *has = (uint8_t)((d->text[0] ? 1 : 0) | (d->text[1] ? 2 : 0) | (d->text[2] ? 4 : 0));
    if (!*has)
        return NONE;
    if (block_size(d) > HSX_NAME_POOL - names_used)
        return -1;
    for (i = 0; i < 3; i++) {
        hsx_k_copy(names + names_used, d->text[i] ? d->text[i] : "", d->len[i]);
        names_used += d->len[i];
        names[names_used++] = 0;
    }
    return (int32_t)at;
}

static const char *string_at(uint16_t block, uint8_t has, int index)
{
    const char *s;
    int i;
    if (block == NONE || !(has & (1u << index)))
        return 0;
    s = names + block;
    for (i = 0; i < index; i++)
        s += hsx_k_strlen(s, HSX_NAME_POOL) + 1;
    return s;
}

static void names_remove(uint16_t block)
{
    uint32_t size = 0, i;
    if (block == NONE)
        return;
    for (i = 0; i < 3; i++)
        size += hsx_k_strlen(names + block + size, HSX_NAME_POOL) + 1;
    hsx_k_copy(names + block, names + block + size, names_used - block - size);
    names_used -= size;
    for (i = 0; i < HSX_MAX_VALUES; i++)
        if (values[i].used && values[i].strings != NONE && values[i].strings > block)
            values[i].strings = (uint16_t)(values[i].strings - size);
    for (i = 0; i < HSX_MAX_COMMANDS; i++)
        if (commands[i].used && commands[i].strings != NONE && commands[i].strings > block)
            commands[i].strings = (uint16_t)(commands[i].strings - size);
}

/* ---- f16 rules ------------------------------------------------------------------------- */

static double f16(uint16_t raw) { return hsx_f16_to_double(raw); }

static int bounded(const struct value *v) { return v->min || v->max; }

static int in_range(uint16_t min, uint16_t max, uint16_t raw)
{
    double x;
    if (!min && !max)
        return 1;
    x = f16(raw);
    return f16(min) <= x && x <= f16(max);
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
    if (!v->eps || !(f16(v->eps) > 0))
        return 0;
    d = f16(raw) - f16(v->raw);
    return (d < 0 ? -d : d) < f16(v->eps);
}

/* ValueDescriptor.problem(): 0, or EINVAL */
static int descriptor_problem(const desc *d, int is_command)
{
    double eps = f16(d->eps);
    int i;
    for (i = 0; i < 3; i++)
        if (d->text[i] && d->len[i] > (is_command && i == 2 ? HELP_MAX_BYTES : NAME_MAX_BYTES))
            return 1;
    if (is_command)
        return 0;
    if (eps != eps || eps < 0)
        return 1;
    if (d->min || d->max) {
        double lo = f16(d->min), hi = f16(d->max);
        if (lo != lo || hi != hi || lo > hi)
            return 1;
    }
    return d->key == 0xFFFFu;
}

static int may_access(uint32_t owner, uint8_t level, uint32_t caller, int caller_auth)
{
    return caller == owner || caller_auth >= level;
}

/* ---- values ------------------------------------------------------------------------------ */

static struct value *value_of(uint16_t oid)
{
    int i;
    for (i = 0; i < HSX_MAX_VALUES; i++)
        if (values[i].used && values[i].oid == oid)
            return &values[i];
    return 0;
}

static uint32_t value_count(void)
{
    uint32_t n = 0, i;
    for (i = 0; i < HSX_MAX_VALUES; i++)
        n += values[i].used;
    return n;
}

static uint32_t app_key(const hsx_tcb *t)
{
    return hsx_k_crc32(0, (const uint8_t *)t->base_name, hsx_k_strlen(t->base_name, HSX_APP_NAME_MAX));
}

/* The stored bits for v if the store has some that fit its range (_restorable). */
static int restorable(const struct value *v, uint16_t *raw)
{
    uint16_t stored;
    if (!hsx_k_store_load(v->app, v->key, &stored))
        return 0;
    stored = normalise(v->flags, stored);
    if (!in_range(v->min, v->max, stored))
        return 0;
    *raw = stored;
    return 1;
}

/* A checked value not yet registered, with its initial or restored bits (_prepare). */
static int prepare_value(struct value *v, const hsx_tcb *owner, uint32_t group, uint32_t id,
                         uint32_t flags, uint32_t auth, const desc *d, uint16_t init)
{
    uint16_t stored;
    hsx_k_fill(v, 0, sizeof *v);
    v->oid = (uint16_t)((group & 0xFFu) << 8 | (id & 0xFFu));
    if (group >= GROUP_ALL || id > 0xFF)
        return V_EINVAL;
    if ((flags & ~(uint32_t)F_ALL) || auth > 3)
        return V_EINVAL;
    if (descriptor_problem(d, 0))
        return V_EINVAL;
    if ((flags & F_PERSIST) && !d->key)
        return V_EINVAL;
    if (value_of(v->oid))
        return V_EEXIST;
    v->owner = owner->pid;
    v->flags = (uint8_t)flags;
    v->auth = (uint8_t)auth;
    v->eps = d->eps;
    v->min = d->min;
    v->max = d->max;
    v->key = d->key;
    v->debounce = d->debounce;
    v->rate = d->rate;
    v->app = app_key(owner);
    v->mode = (flags & F_PERSIST) ? SAVE : VOLATILE;
    v->raw = normalise(v->flags, init);
    v->strings = NONE;
    if (!in_range(v->min, v->max, v->raw))
        return V_EINVAL;
    if (v->mode == SAVE && restorable(v, &stored)) {
        v->raw = stored;
        v->restored = 1;
    }
    return V_OK;
}

static int add_value(const struct value *v, const desc *d)
{
    int i;
    int32_t block;
    uint8_t has;
    for (i = 0; i < HSX_MAX_VALUES && values[i].used; i++)
        ;
    if (i == HSX_MAX_VALUES || (block = names_add(d, &has)) < 0)
        return V_ENOSPC;
    values[i] = *v;
    values[i].used = 1;
    values[i].strings = (uint16_t)block;
    values[i].has = has;
    return V_OK;
}

static void notify(const struct value *v, uint16_t old)
{
    uint8_t payload[6];
    int i;
    hsx_k_put16(payload, v->oid);
    hsx_k_put16(payload + 2, old);
    hsx_k_put16(payload + 4, v->raw);
    for (i = 0; i < HSX_MAX_SUBSCRIPTIONS; i++)
        if (subs[i].used && subs[i].oid == v->oid
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
    hsx_k_fill(&ev, 0, sizeof ev);
    ev.type = HSX_EV_VALUE_CHANGED;
    ev.pid = v->owner;
    ev.what = reason;
    ev.a = v->oid;
    ev.b = old;
    ev.c = raw;
    ev.d = caller;
    hsx_k_emit(&ev);
    if (v->mode == SAVE)
        hsx_k_store_schedule(v->app, v->key, raw, v->debounce);
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
    owner = caller == v->owner;
    if (!may_access(v->owner, v->auth, caller, auth))
        return V_EPERM;
    if ((v->flags & F_RO) && !owner)
        return V_EPERM;
    if ((v->flags & F_PIN) && !owner)
        return V_EPERM;                 /* no PIN is configured: every PIN check fails */
    if (v->rate && v->changed_once && hsx_k_now() - v->last_change < v->rate)
        return V_EBUSY;
    normal = normalise(v->flags, raw);
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
    if (caller != v->owner)
        return V_EPERM;
    if (mode > SAVE || (mode != VOLATILE && !v->key))
        return V_EINVAL;
    v->mode = (uint8_t)mode;
    if (mode == SAVE)
        v->flags |= F_PERSIST;
    else
        v->flags &= (uint8_t)~F_PERSIST;
    if (mode != VOLATILE) {
        if (!restorable(v, &stored)) {
            if (mode == SAVE)
                hsx_k_store_schedule(v->app, v->key, v->raw, v->debounce);
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
    int i, k;
    for (i = 0; i < HSX_MAX_VALUES; i++) {
        if (!values[i].used || values[i].owner != pid)
            continue;
        for (k = 0; k < HSX_MAX_SUBSCRIPTIONS; k++)
            if (subs[k].oid == values[i].oid)
                subs[k].used = 0;
        values[i].used = 0;
        names_remove(values[i].strings);
    }
    unsubscribe(pid, 0, 1);
    for (i = 0; i < HSX_MAX_COMMANDS; i++)
        if (commands[i].used && commands[i].owner == pid) {
            commands[i].used = 0;
            names_remove(commands[i].strings);
        }
}

/* ---- descriptor chains in guest memory -------------------------------------------------- */

/* The NUL-terminated UTF-8 string at addr into out (at most `limit` bytes): 1, 0 for
 * EINVAL, -1 after a fault. addr 0: none. */
static int chain_string(hsx_tcb *t, uint32_t addr, char *out, uint32_t limit, desc *d, int index)
{
    uint32_t n = 0;
    if (!addr)
        return 1;
    for (;;) {
        uint8_t c;
        if (!hsx_k_guest_ok(t, addr + n, 1))
            return -1;
        c = t->vm.mem[addr + n];
        if (!c)
            break;
        if (n == limit)
            return 0;                   /* longer than the limit */
        out[n++] = (char)c;
    }
    out[n] = 0;
    if (!hsx_k_utf8_ok((const uint8_t *)out, n))
        return 0;
    d->text[index] = out;
    d->len[index] = n;
    return 1;
}

struct chain_text { char a[NAME_MAX_BYTES + 1], b[NAME_MAX_BYTES + 1], c[HELP_MAX_BYTES + 1]; };

/* Decode a REGISTER chain at ptr (docs/values.md "Descriptor chains"): 1, 0 for
 * EINVAL, -1 after a fault. */
static int decode_chain(hsx_tcb *t, uint32_t ptr, int commands_chain, desc *d,
                        struct chain_text *text)
{
    static const uint8_t SIZE[] = { 0, 6, 6, 12, 8, 8 };
    uint32_t seen_types = 0, addr = ptr, hops = 0, visited[8];
    hsx_k_fill(d, 0, sizeof *d);
    if (ptr == 0 || ptr == 0xFFFFu)
        return 1;
    while (addr != 0xFFFFu) {
        uint32_t type, size, i, r = 1;
        uint8_t *n;
        for (i = 0; i < hops; i++)
            if (visited[i] == addr)
                return 0;               /* the chain loops */
        if (!hsx_k_guest_ok(t, addr, 1))
            return -1;
        type = t->vm.mem[addr];
        if (commands_chain ? type != 0x10 : (type < 1 || type > 5))
            return 0;
        if (seen_types & (1u << (type & 15)))
            return 0;                   /* a type twice */
        seen_types |= 1u << (type & 15);
        visited[hops++] = addr;
        size = type == 0x10 ? 8 : SIZE[type];
        if (!hsx_k_guest_ok(t, addr, size))
            return -1;
        n = t->vm.mem + addr;
        switch (type) {
        case 1: r = chain_string(t, hsx_k_le16(n + 4), text->b, NAME_MAX_BYTES, d, 1); break;
        case 2: r = chain_string(t, hsx_k_le16(n + 4), text->a, NAME_MAX_BYTES, d, 0); break;
        case 3: {
            uint32_t k, len = 4;
            while (len && !n[3 + len])
                len--;
            for (k = 0; k < len; k++)
                if (!n[4 + k] || n[4 + k] >= 0x80)
                    return 0;           /* not up to four ASCII characters */
            hsx_k_copy(text->c, n + 4, len);
            text->c[len] = 0;
            if (len) {
                d->text[2] = text->c;
                d->len[2] = len;
            }
            d->eps = hsx_k_le16(n + 8);
            d->rate = hsx_k_le16(n + 10);
            break;
        }
        case 4: d->min = hsx_k_le16(n + 4); d->max = hsx_k_le16(n + 6); break;
        case 5: d->key = hsx_k_le16(n + 4); d->debounce = hsx_k_le16(n + 6); break;
        default:                        /* CMD_NAME: name and help */
            r = chain_string(t, hsx_k_le16(n + 4), text->a, NAME_MAX_BYTES, d, 0);
            if (r == 1)
                r = chain_string(t, hsx_k_le16(n + 6), text->c, HELP_MAX_BYTES, d, 2);
            break;
        }
        if (r != 1)
            return r;
        addr = hsx_k_le16(n + 2);
    }
    return 1;
}

/* ---- commands --------------------------------------------------------------------------------- */

static struct command *command_of(uint16_t oid)
{
    int i;
    for (i = 0; i < HSX_MAX_COMMANDS; i++)
        if (commands[i].used && commands[i].oid == oid)
            return &commands[i];
    return 0;
}

static int prepare_command(struct command *c, uint32_t owner, uint32_t group, uint32_t id,
                           uint32_t flags, uint32_t auth, const desc *d, int has_handler,
                           uint32_t handler)
{
    hsx_k_fill(c, 0, sizeof *c);
    c->oid = (uint16_t)((group & 0xFFu) << 8 | (id & 0xFFu));
    if (group >= GROUP_ALL || id > 0xFF)
        return V_EINVAL;
    if ((flags & ~(uint32_t)CF_ALL) || auth > 3)
        return V_EINVAL;
    if (descriptor_problem(d, 1))
        return V_EINVAL;
    if (command_of(c->oid))
        return V_EEXIST;
    c->owner = owner;
    c->flags = (uint8_t)flags;
    c->auth = (uint8_t)auth;
    c->has_handler = (uint8_t)has_handler;
    c->handler = handler;
    c->strings = NONE;
    return V_OK;
}

static int add_command(const struct command *c, const desc *d)
{
    int i;
    int32_t block;
    uint8_t has;
    for (i = 0; i < HSX_MAX_COMMANDS && commands[i].used; i++)
        ;
    if (i == HSX_MAX_COMMANDS || (block = names_add(d, &has)) < 0)
        return V_ENOSPC;
    commands[i] = *c;
    commands[i].used = 1;
    commands[i].strings = (uint16_t)block;
    commands[i].has = has;
    return V_OK;
}

static void dmesg(uint32_t pid, const char *text)
{
    hsx_event ev;
    hsx_k_fill(&ev, 0, sizeof ev);
    ev.type = HSX_EV_DMESG;
    ev.pid = pid;
    ev.what = "error";
    ev.data = (const uint8_t *)text;
    ev.len = hsx_k_strlen(text, 200);
    hsx_k_emit(&ev);
}

/* Run a handler in its owner's context (upcall.run_handler): 1 and *result when it
 * returned, 0 when it did not (faulted, blocked, exited, ran too long). The owner is
 * put back exactly as it was. Breakpoints in the handler are passed over. */
static int run_handler(hsx_tcb *owner, uint32_t handler, uint32_t *result)
{
    hsx_task saved;
    uint8_t regs[HSX_REG_WINDOW];
    uint32_t sp = hsx_k_reg(owner, HSX_SP_REGISTER) - 4, budget = HSX_HANDLER_BUDGET, ran;
    int stop, returned;
    if (sp < owner->vm.stack_base || sp + 4 > owner->vm.stack_top)
        return 0;
    hsx_k_copy(&saved, &owner->vm, sizeof saved);
    hsx_k_copy(regs, owner->vm.mem + owner->vm.reg_base, HSX_REG_WINDOW);
    hsx_k_put32(owner->vm.mem + sp, HSX_HANDLER_RETURN);
    hsx_k_set_reg(owner, HSX_SP_REGISTER, sp);
    owner->vm.pc = handler;
    owner->vm.skip_breakpoint = HSX_NO_SKIP;
    owner->in_handler = 1;
    do {
        stop = hsx_k_run_vm(owner, budget, &ran);
        budget -= ran < budget ? ran : budget;
        if (stop == HSX_STOP_BREAKPOINT)
            owner->vm.skip_breakpoint = owner->vm.pc;
    } while (stop == HSX_STOP_BREAKPOINT && budget);
    owner->in_handler = 0;
    returned = stop == HSX_STOP_FAULT && owner->vm.fault == HSX_FAULT_PC
            && owner->vm.fault_addr == (int64_t)HSX_HANDLER_RETURN;
    *result = hsx_k_reg(owner, 0);
    if (!returned)
        dmesg(owner->pid, "command handler did not return");
    saved.steps = owner->vm.steps;
    hsx_k_copy(&owner->vm, &saved, sizeof saved);
    hsx_k_copy(owner->vm.mem + owner->vm.reg_base, regs, HSX_REG_WINDOW);
    hsx_k_mbx_resume_wait(owner);       /* a wake that came meanwhile */
    return returned;
}

/* CALL and CALL_ASYNC (CommandCalls.call_command): the status; the result in *result.
 * With reply_handle non-zero the completion also goes to the caller on that handle. */
static int call_command(uint32_t caller, int auth, uint16_t oid, uint32_t reply_handle,
                        uint32_t *result)
{
    struct command *c = command_of(oid);
    hsx_tcb *owner;
    int status;
    *result = 0;
    if (!c)
        return V_ENOENT;
    if (reply_handle && !(c->flags & CF_ASYNC))
        return C_ENOASYNC;
    if (!may_access(c->owner, c->auth, caller, auth))
        return V_EPERM;
    if (c->flags & CF_PIN)
        return V_EPERM;                 /* no PIN is configured: every PIN command is refused */
    if (!c->has_handler)
        return C_EFAIL;
    owner = hsx_k_live(c->owner);
    if (!owner || owner == hsx_k_current || owner->in_handler)
        status = C_EFAIL;               /* gone, a task calling itself, or busy */
    else
        status = run_handler(owner, c->handler, result) ? V_OK : C_EFAIL;
    if (status != V_OK)
        *result = 0;
    if (reply_handle) {
        uint8_t payload[8];
        hsx_k_put16(payload, oid);
        hsx_k_put16(payload + 2, (uint32_t)status);
        hsx_k_put32(payload + 4, *result);
        hsx_k_mbx_send(caller, reply_handle, payload, 8, 0, 0);
        return V_OK;
    }
    return status;
}

/* ---- SVC modules 0x07 and 0x08 --------------------------------------------------------------- */

#define FAULT_OR(r, einval) do { if ((r) < 0) return HSX_SVC_FAULT; if (!(r)) { \
    hsx_k_set_reg(t, 0, einval); return HSX_SVC_DONE; } } while (0)

static void list_values(hsx_tcb *t, uint32_t selector, uint32_t out, uint32_t limit)
{
    uint32_t group = selector & 0xFFu, written = 0, total = 0, last = 0, first = 1;
    for (;;) {                          /* in OID order */
        struct value *next = 0;
        int i;
        for (i = 0; i < HSX_MAX_VALUES; i++) {
            struct value *v = &values[i];
            if (!v->used || (!first && v->oid <= last) || (next && v->oid >= next->oid))
                continue;
            if (selector & LIST_VISIBLE) {
                if ((group != GROUP_ALL && (uint32_t)(v->oid >> 8) != group)
                        || !may_access(v->owner, v->auth, t->pid, AUTH_PUBLIC))
                    continue;
            } else if (v->owner != t->pid || (group != GROUP_ALL && (uint32_t)(v->oid >> 8) != group)) {
                continue;
            }
            next = v;
        }
        if (!next)
            break;
        first = 0;
        last = next->oid;
        if (written < limit)
            hsx_k_put16(t->vm.mem + out + 2 * written++, next->oid);
        total++;
    }
    hsx_k_set_reg(t, 0, V_OK);
    hsx_k_set_reg(t, 1, written);
    hsx_k_set_reg(t, 2, total);
}

int hsx_k_svc_values(hsx_tcb *t, uint32_t fn)
{
    uint32_t r1 = hsx_k_reg(t, 1), r2 = hsx_k_reg(t, 2), r3 = hsx_k_reg(t, 3);
    uint16_t oid = (uint16_t)r1;
    struct value *v;
    int status, r;
    switch (fn) {
    case 0: {                                       /* REGISTER */
        struct value nv;
        struct chain_text text;
        desc d;
        r = decode_chain(t, hsx_k_reg(t, 4), 0, &d, &text);
        FAULT_OR(r, V_EINVAL);
        status = prepare_value(&nv, t, r1 & 0xFFu, r2 & 0xFFu, r3 & 0xFFu, AUTH_PUBLIC, &d, 0);
        if (status == V_OK)
            status = value_count() >= HSX_MAX_VALUES ? V_ENOSPC : add_value(&nv, &d);
        hsx_k_set_reg(t, 0, (uint32_t)status);
        hsx_k_set_reg(t, 1, status == V_OK ? nv.oid : 0);
        break;
    }
    case 1:                                         /* LOOKUP */
        oid = (uint16_t)((r1 & 0xFFu) << 8 | (r2 & 0xFFu));
        hsx_k_set_reg(t, 0, value_of(oid) ? V_OK : V_ENOENT);
        hsx_k_set_reg(t, 1, value_of(oid) ? oid : 0);
        break;
    case 2:                                         /* GET */
        v = value_of(oid);
        status = !v ? V_ENOENT : !may_access(v->owner, v->auth, t->pid, AUTH_PUBLIC) ? V_EPERM : V_OK;
        hsx_k_set_reg(t, 0, status == V_OK ? v->raw : (uint32_t)status);
        hsx_k_set_reg(t, 1, (uint32_t)status);
        break;
    case 3:                                         /* SET */
        hsx_k_set_reg(t, 0, (uint32_t)set_value(t->pid, AUTH_PUBLIC, oid, (uint16_t)r2, 0));
        break;
    case 4:                                         /* LIST */
        if (!hsx_k_guest_ok(t, r2, (r3 & 0xFFFFu) * 2))
            return HSX_SVC_FAULT;
        list_values(t, r1, r2, r3 & 0xFFFFu);
        break;
    case 5: {                                       /* SUB */
        char target[HSX_MAX_STRING + 1];
        uint32_t handle = 0;
        int n = hsx_k_guest_string(t, r2, target, sizeof target), i, slot = -1;
        if (n < 0)
            return HSX_SVC_FAULT;
        v = value_of(oid);
        if (!v)
            status = V_ENOENT;
        else if (!n || hsx_k_mbx_open(t->pid, target, (uint32_t)n, HSX_MBX_RDWR, &handle) != HSX_MBX_OK)
            status = V_EINVAL;
        else if (!may_access(v->owner, v->auth, t->pid, AUTH_PUBLIC))
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
        hsx_k_set_reg(t, 0, (uint32_t)status);
        hsx_k_set_reg(t, 1, status == V_OK ? handle : 0);
        break;
    }
    case 6:                                         /* PERSIST */
        hsx_k_set_reg(t, 0, (uint32_t)persist_mode(t->pid, oid, r2));
        break;
    default:
        hsx_k_set_reg(t, 0, V_EINVAL);
        break;
    }
    return HSX_SVC_DONE;
}

int hsx_k_svc_commands(hsx_tcb *t, uint32_t fn)
{
    uint32_t r1 = hsx_k_reg(t, 1), r2 = hsx_k_reg(t, 2), r3 = hsx_k_reg(t, 3), result = 0;
    uint16_t oid = (uint16_t)r1;
    char text[HSX_MAX_STRING + 1];
    int status, r;
    switch (fn) {
    case 0: {                                       /* REGISTER */
        struct command c;
        struct chain_text chain;
        desc d;
        r = decode_chain(t, hsx_k_reg(t, 4), 1, &d, &chain);
        FAULT_OR(r, V_EINVAL);
        status = prepare_command(&c, t->pid, r1 & 0xFFu, r2 & 0xFFu, r3 & 0x7Fu, AUTH_PUBLIC, &d,
                                 (r3 & CMD_REGISTER_HANDLER) != 0, hsx_k_reg(t, 5));
        if (status == V_OK)
            status = add_command(&c, &d);
        hsx_k_set_reg(t, 0, (uint32_t)status);
        hsx_k_set_reg(t, 1, status == V_OK ? c.oid : 0);
        break;
    }
    case 1:                                         /* LOOKUP */
        oid = (uint16_t)((r1 & 0xFFu) << 8 | (r2 & 0xFFu));
        hsx_k_set_reg(t, 0, command_of(oid) ? V_OK : V_ENOENT);
        hsx_k_set_reg(t, 1, command_of(oid) ? oid : 0);
        break;
    case 2:                                         /* CALL (a token cannot match: no PIN) */
        if (r2 && hsx_k_guest_string(t, r2, text, sizeof text) < 0)
            return HSX_SVC_FAULT;
        status = call_command(t->pid, AUTH_PUBLIC, oid, 0, &result);
        hsx_k_set_reg(t, 0, (uint32_t)status);
        hsx_k_set_reg(t, 1, result);
        break;
    case 3: {                                       /* CALL_ASYNC */
        uint32_t handle = 0;
        int n = 0;
        if (r2 && hsx_k_guest_string(t, r2, text, sizeof text) < 0)
            return HSX_SVC_FAULT;
        if (r3 && (n = hsx_k_guest_string(t, r3, text, sizeof text)) < 0)
            return HSX_SVC_FAULT;
        if (!n || hsx_k_mbx_open(t->pid, text, (uint32_t)n, HSX_MBX_RDWR, &handle) != HSX_MBX_OK) {
            status = V_EINVAL;
        } else {
            status = call_command(t->pid, AUTH_PUBLIC, oid, handle, &result);
            if (status != V_OK)
                hsx_k_mbx_close(t->pid, handle);
        }
        hsx_k_set_reg(t, 0, (uint32_t)status);
        hsx_k_set_reg(t, 1, status == V_OK ? handle : 0);
        break;
    }
    case 4: {                                       /* HELP */
        struct command *c = command_of(oid);
        uint32_t size = r3 & 0xFFFFu, n = 0;
        if (!hsx_k_guest_ok(t, r2, size))
            return HSX_SVC_FAULT;
        if (c && size) {
            const char *help = string_at(c->strings, c->has, 2);
            n = help ? hsx_k_strlen(help, HELP_MAX_BYTES) : 0;
            if (n > size - 1)
                n = size - 1;
            hsx_k_copy(t->vm.mem + r2, help ? help : "", n);
            t->vm.mem[r2 + n] = 0;
        }
        hsx_k_set_reg(t, 0, c ? V_OK : V_ENOENT);
        hsx_k_set_reg(t, 1, n);
        break;
    }
    default:
        hsx_k_set_reg(t, 0, V_EINVAL);
        break;
    }
    return HSX_SVC_DONE;
}

/* ---- declarations in an image (all or nothing) ----------------------------------------------- */

static uint32_t be16(const uint8_t *p) { return ((uint32_t)p[0] << 8) | p[1]; }

/* The strings of a metadata record (offsets checked by the loader). */
static void record_strings(const uint8_t *sec, const uint32_t off[3], desc *d)
{
    int i;
    for (i = 0; i < 3; i++) {
        d->text[i] = 0;
        d->len[i] = 0;
        if (off[i] && sec[off[i]]) {
            d->text[i] = (const char *)sec + off[i];
            d->len[i] = hsx_k_strlen(d->text[i], 0xFFFF);
        }
    }
}

static hsx_status refuse(hsx_status kind, int status)
{
    hsx_k_set_detail_number((uint32_t)status);
    return kind;
}

hsx_status hsx_k_values_from_image(hsx_tcb *t, const uint8_t *sec, uint32_t size, uint32_t count)
{
    struct value v;
    uint32_t i, pool = 0;
    int status;
    desc d;
    (void)size;
    for (i = 0; i < 2 * count; i++) {           /* pass 0: check every record; 1: add */
        const uint8_t *r = sec + 20u * (i % count);
        uint32_t off[3];
        uint32_t flags = r[2];
        off[0] = be16(r + 6);
        off[1] = be16(r + 18);
        off[2] = be16(r + 8);
        hsx_k_fill(&d, 0, sizeof d);
        record_strings(sec, off, &d);
        d.eps = (uint16_t)be16(r + 10);
        d.min = (uint16_t)be16(r + 12);
        d.max = (uint16_t)be16(r + 14);
        d.key = (uint16_t)be16(r + 16);
        d.debounce = METADATA_DEBOUNCE_MS;
        if (d.key)
            flags |= F_PERSIST;
        if (i < count) {
            status = prepare_value(&v, t, r[0], r[1], flags, r[3], &d, (uint16_t)be16(r + 4));
            if (status != V_OK)
                return refuse(HSX_ERR_VALUE, status);
            pool += (d.text[0] || d.text[1] || d.text[2]) ? block_size(&d) : 0;
            if (i + 1 == count && (value_count() + count > HSX_MAX_VALUES
                                   || pool > HSX_NAME_POOL - names_used))
                return refuse(HSX_ERR_VALUE, V_ENOSPC);
        } else {
            prepare_value(&v, t, r[0], r[1], flags, r[3], &d, (uint16_t)be16(r + 4));
            add_value(&v, &d);
        }
    }
    return HSX_OK;
}

hsx_status hsx_k_commands_from_image(hsx_tcb *t, const uint8_t *sec, uint32_t size, uint32_t count)
{
    struct command c;
    uint32_t i, used = 0, pool = 0, k;
    int status;
    desc d;
    (void)size;
    for (k = 0; k < HSX_MAX_COMMANDS; k++)
        used += commands[k].used;
    for (i = 0; i < 2 * count; i++) {
        const uint8_t *r = sec + 16u * (i % count);
        uint32_t off[3];
        off[0] = be16(r + 8);
        off[1] = be16(r + 14);
        off[2] = be16(r + 10);
        hsx_k_fill(&d, 0, sizeof d);
        record_strings(sec, off, &d);
        status = prepare_command(&c, t->pid, r[0], r[1], r[2], r[3], &d, 1,
                                 hsx_k_le32(r + 4) == 0 ? 0 : ((uint32_t)r[4] << 24 | (uint32_t)r[5] << 16
                                                               | (uint32_t)r[6] << 8 | r[7]));
        if (i < count) {
            if (status != V_OK)
                return refuse(HSX_ERR_COMMAND, status);
            pool += (d.text[0] || d.text[1] || d.text[2]) ? block_size(&d) : 0;
            if (i + 1 == count && (used + count > HSX_MAX_COMMANDS || pool > HSX_NAME_POOL - names_used))
                return refuse(HSX_ERR_COMMAND, V_ENOSPC);
        } else {
            add_command(&c, &d);
        }
    }
    return HSX_OK;
}

/* ---- the host's view ----------------------------------------------------------------------- */

static void value_info(const struct value *v, hsx_value_info *out)
{
    hsx_k_fill(out, 0, sizeof *out);
    out->oid = v->oid;
    out->flags = v->flags;
    out->auth_level = v->auth;
    out->owner_pid = (uint16_t)v->owner;
    out->f16 = v->raw;
    out->persist_key = v->key;
    out->name = string_at(v->strings, v->has, 0);
    out->group_name = string_at(v->strings, v->has, 1);
    out->unit = string_at(v->strings, v->has, 2);
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
    struct value *best = 0;
    int i;
    for (i = 0; i < HSX_MAX_VALUES; i++)
        if (values[i].used && values[i].oid >= *cursor && (!best || values[i].oid < best->oid))
            best = &values[i];
    if (!best)
        return 0;
    *cursor = best->oid + 1u;
    value_info(best, out);
    return 1;
}

/* "rpm" or "motor.rpm" against an entry's name and group name */
static int named(const char *name, const char *entry_name, const char *group)
{
    uint32_t g;
    if (!entry_name)
        return 0;
    if (hsx_k_streq(name, entry_name))
        return 1;
    if (!group)
        return 0;
    g = hsx_k_strlen(group, NAME_MAX_BYTES);
    for (; g && *name == *group; name++, group++, g--)
        ;
    return !g && *name == '.' && hsx_k_streq(name + 1, entry_name);
}

hsx_status hsx_exec_value_find(const char *name, uint16_t *oid)
{
    uint32_t cursor = 0;
    hsx_value_info info;
    while (name && hsx_exec_next_value(&cursor, &info))
        if (named(name, info.name, info.group_name)) {
            *oid = info.oid;
            return HSX_OK;
        }
    return HSX_ERR_UNKNOWN_NAME;
}

hsx_status hsx_exec_value_get(uint16_t oid, uint16_t *raw)
{
    struct value *v = value_of(oid);
    int status = !v ? V_ENOENT : !may_access(v->owner, v->auth, HOST_PID, AUTH_USER) ? V_EPERM : V_OK;
    if (status != V_OK)
        return refuse(HSX_ERR_VALUE, status);
    *raw = v->raw;
    return HSX_OK;
}

hsx_status hsx_exec_value_set(uint16_t oid, uint16_t raw, int *changed)
{
    int status = set_value(HOST_PID, AUTH_USER, oid, raw, changed);
    return status == V_OK ? HSX_OK : refuse(HSX_ERR_VALUE, status);
}

int hsx_exec_next_command(uint32_t *cursor, hsx_command_info *out)
{
    struct command *best = 0;
    int i;
    for (i = 0; i < HSX_MAX_COMMANDS; i++)
        if (commands[i].used && commands[i].oid >= *cursor && (!best || commands[i].oid < best->oid))
            best = &commands[i];
    if (!best)
        return 0;
    *cursor = best->oid + 1u;
    hsx_k_fill(out, 0, sizeof *out);
    out->oid = best->oid;
    out->flags = best->flags;
    out->auth_level = best->auth;
    out->owner_pid = (uint16_t)best->owner;
    out->handler_addr = best->has_handler ? best->handler : 0xFFFFFFFFu;
    out->name = string_at(best->strings, best->has, 0);
    out->group_name = string_at(best->strings, best->has, 1);
    out->help = string_at(best->strings, best->has, 2);
    return 1;
}

hsx_status hsx_exec_command_find(const char *name, uint16_t *oid)
{
    uint32_t cursor = 0;
    hsx_command_info info;
    while (name && hsx_exec_next_command(&cursor, &info))
        if (named(name, info.name, info.group_name)) {
            *oid = info.oid;
            return HSX_OK;
        }
    return HSX_ERR_UNKNOWN_NAME;
}

hsx_status hsx_exec_command_call(uint16_t oid, int32_t *result)
{
    uint32_t r = 0;
    int status = call_command(HOST_PID, AUTH_USER, oid, 0, &r);
    if (result)
        *result = (int32_t)r;
    return status == V_OK ? HSX_OK : refuse(HSX_ERR_COMMAND, status);
}
