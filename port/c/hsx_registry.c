/* HSX C executive: what the value and command registries share (hsx_values.c,
 * hsx_commands.c): the pool of their names, group names, units and help texts (each
 * entry owns a block of three NUL-terminated strings, compacted on removal), the
 * access rule, descriptor checks, and the REGISTER descriptor chains read from guest
 * memory (docs/values.md "Descriptor chains"). */
#include "hsx_registry.h"
#include "hsx_f16.h"

HSX_COLD_CODE_BEGIN

static char names[HSX_NAME_POOL];
static uint32_t names_used;

void hsx_rg_init(void) { names_used = 0; }

/* ---- the tables ------------------------------------------------------------------------ */

static hsx_rg_entry *entry_at(const hsx_rg_table *tb, uint32_t i)
{
    return (hsx_rg_entry *)(void *)((uint8_t *)tb->entries + i * tb->size);
}

hsx_rg_entry *hsx_rg_find(const hsx_rg_table *tb, uint32_t oid)
{
    uint32_t i;
    for (i = 0; i < tb->count; i++) {
        hsx_rg_entry *e = entry_at(tb, i);
        if (e->used && e->oid == oid)
            return e;
    }
    return 0;
}

hsx_rg_entry *hsx_rg_next(const hsx_rg_table *tb, uint32_t *cursor)
{
    hsx_rg_entry *best = 0;
    uint32_t i;
    for (i = 0; i < tb->count; i++) {
        hsx_rg_entry *e = entry_at(tb, i);
        if (e->used && e->oid >= *cursor && (!best || e->oid < best->oid))
            best = e;
    }
    if (best)
        *cursor = best->oid + 1u;
    return best;
}

uint32_t hsx_rg_count(const hsx_rg_table *tb)
{
    uint32_t n = 0, i;
    for (i = 0; i < tb->count; i++)
        n += entry_at(tb, i)->used;
    return n;
}

int hsx_rg_prepare(const hsx_rg_table *tb, hsx_rg_entry *e, uint32_t owner, uint32_t group,
                   uint32_t id, uint32_t flags, uint32_t all_flags, uint32_t auth,
                   const hsx_rg_desc *d, int invalid)
{
    hsx_k_fill(e, 0, tb->size);
    e->oid = (uint16_t)((group & 0xFFu) << 8 | (id & 0xFFu));
    if (group >= GROUP_ALL || id > 0xFF || (flags & ~all_flags) || auth > 3
            || hsx_rg_descriptor_problem(d, tb == &hsx_rg_commands) || invalid)
        return V_EINVAL;
    if (hsx_rg_find(tb, e->oid))
        return V_EEXIST;
    e->owner = owner;
    e->flags = (uint8_t)flags;
    e->auth = (uint8_t)auth;
    e->strings = NONE;
    return V_OK;
}

int hsx_rg_add(const hsx_rg_table *tb, const hsx_rg_entry *e, const hsx_rg_desc *d)
{
    uint32_t i;
    int32_t block;
    uint8_t has;
    hsx_rg_entry *slot;
    for (i = 0; i < tb->count && entry_at(tb, i)->used; i++)
        ;
    if (i == tb->count || (block = hsx_rg_names_add(d, &has)) < 0)
        return V_ENOSPC;
    slot = entry_at(tb, i);
    hsx_k_copy(slot, e, tb->size);
    slot->used = 1;
    slot->strings = (uint16_t)block;
    slot->has = has;
    return V_OK;
}

void hsx_rg_release(const hsx_rg_table *tb, uint32_t pid)
{
    uint32_t i;
    for (i = 0; i < tb->count; i++) {
        hsx_rg_entry *e = entry_at(tb, i);
        if (e->used && e->owner == pid) {
            e->used = 0;
            hsx_rg_names_remove(e->strings);
        }
    }
}

/* Removing a block moves the blocks after it down by `size`. */
static void moved(const hsx_rg_table *tb, uint16_t block, uint32_t size)
{
    uint32_t i;
    for (i = 0; i < tb->count; i++) {
        hsx_rg_entry *e = entry_at(tb, i);
        if (e->used && e->strings != NONE && e->strings > block)
            e->strings = (uint16_t)(e->strings - size);
    }
}


/* ---- the name pool -------------------------------------------------------------------- */

uint32_t hsx_rg_block_size(const hsx_rg_desc *d)
{
    return d->len[0] + d->len[1] + d->len[2] + 3;
}

/* Copy an entry's strings into the pool: its block's offset, NONE without strings,
 * or -1 when the pool is full. */
int32_t hsx_rg_names_add(const hsx_rg_desc *d, uint8_t *has)
{
    uint32_t at = names_used, i;
    *has = (uint8_t)((d->text[0] ? 1 : 0) | (d->text[1] ? 2 : 0) | (d->text[2] ? 4 : 0));
    if (!*has)
        return NONE;
    if (hsx_rg_block_size(d) > HSX_NAME_POOL - names_used)
        return -1;
    for (i = 0; i < 3; i++) {
        hsx_k_copy(names + names_used, d->text[i] ? d->text[i] : "", d->len[i]);
        names_used += d->len[i];
        names[names_used++] = 0;
    }
    return (int32_t)at;
}

const char *hsx_rg_string_at(uint16_t block, uint8_t has, int index)
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

void hsx_rg_names_remove(uint16_t block)
{
    uint32_t size = 0, i;
    if (block == NONE)
        return;
    for (i = 0; i < 3; i++)
        size += hsx_k_strlen(names + block + size, HSX_NAME_POOL) + 1;
    hsx_k_copy(names + block, names + block + size, names_used - block - size);
    names_used -= size;
    moved(&hsx_rg_values, block, size);
    moved(&hsx_rg_commands, block, size);
}

/* ---- f16 rules ------------------------------------------------------------------------- */

double hsx_rg_f16(uint16_t raw) { return hsx_f16_to_double(raw); }

/* ValueDescriptor.problem(): 0, or EINVAL */
int hsx_rg_descriptor_problem(const hsx_rg_desc *d, int is_command)
{
    double eps = hsx_rg_f16(d->eps);
    int i;
    for (i = 0; i < 3; i++)
        if (d->text[i] && d->len[i] > (is_command && i == 2 ? HELP_MAX_BYTES : NAME_MAX_BYTES))
            return 1;
    if (is_command)
        return 0;
    if (eps != eps || eps < 0)
        return 1;
    if (d->min || d->max) {
        double lo = hsx_rg_f16(d->min), hi = hsx_rg_f16(d->max);
        if (lo != lo || hi != hi || lo > hi)
            return 1;
    }
    return d->key == 0xFFFFu;
}

int hsx_rg_may_access(uint32_t owner, uint8_t level, uint32_t caller, int caller_auth)
{
    return caller == owner || caller_auth >= level;
}

/* ---- descriptor chains in guest memory -------------------------------------------------- */

/* The NUL-terminated UTF-8 string at addr into out (at most `limit` bytes): 1, 0 for
 * EINVAL, -1 after a fault. addr 0: none. */
static int chain_string(hsx_tcb *t, uint32_t addr, char *out, uint32_t limit, hsx_rg_desc *d, int index)
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

/* Decode a REGISTER chain at ptr (docs/values.md "Descriptor chains"): 1, 0 for
 * EINVAL, -1 after a fault. */
int hsx_rg_decode_chain(hsx_tcb *t, uint32_t ptr, int commands_chain, hsx_rg_desc *d,
                        struct hsx_rg_chain_text *text)
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

/* ---- declarations in an image (all or nothing) ----------------------------------------------- */

uint32_t hsx_rg_be16(const uint8_t *p) { return ((uint32_t)p[0] << 8) | p[1]; }

/* The strings of a metadata record (offsets checked by the loader). */
void hsx_rg_record_strings(const uint8_t *sec, const uint32_t off[3], hsx_rg_desc *d)
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

hsx_status hsx_rg_refuse(hsx_status kind, int status)
{
    hsx_k_set_detail_number((uint32_t)status);
    return kind;
}

/* "rpm" or "motor.rpm" against an entry's name and group name */
int hsx_rg_named(const char *name, const char *entry_name, const char *group)
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

uint32_t hsx_rg_names_free(void) { return HSX_NAME_POOL - names_used; }

HSX_COLD_CODE_END
