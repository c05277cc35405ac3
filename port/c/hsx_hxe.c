/* HSX C executive: checking an HXE image (docs/hxe.md, hsx.image).
 *
 * The checks and their order are those of hsx.image ("Validation"): the header, every
 * section inside the file, the CRC, the metadata layout, the metadata contents (value
 * and command records with their strings; the mailbox section as JSON, parsed by a
 * small non-allocating reader, or as legacy records), the command handlers. The first
 * problem found is the load's bad_image detail, spelled as hsx.image spells it.
 */
#include "hsx_kernel.h"

HSX_COLD_CODE_BEGIN

#define HXE_MAGIC 0x48535845u
#define MAX_CODE 0x2000000u        /* 32 MiB: what BR, Bcc and LCALL reach */
#define MAX_DATA 0xFFFFC000u       /* rodata, bss: the data space above 0x4000 */

static uint32_t be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint32_t be16(const uint8_t *p) { return ((uint32_t)p[0] << 8) | p[1]; }

/* ---- text checks ---------------------------------------------------------------------------- */

int hsx_k_utf8_ok(const uint8_t *s, uint32_t len)
{
    uint32_t i = 0;
    while (i < len) {
        uint8_t c = s[i];
        uint32_t extra, cp, j;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) { extra = 1; cp = c & 0x1Fu; }
        else if (c >= 0xE0 && c <= 0xEF) { extra = 2; cp = c & 0x0Fu; }
        else if (c >= 0xF0 && c <= 0xF4) { extra = 3; cp = c & 0x07u; }
        else return 0;
        if (i + extra >= len)
            return 0;
        for (j = 1; j <= extra; j++) {
            if ((s[i + j] & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i + j] & 0x3Fu);
        }
        if ((extra == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
                || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        i += extra + 1;
    }
    return 1;
}

/* ---- the header ------------------------------------------------------------------------------ */

/* Validate the header from the image's first bytes; NULL or the error code. */
const char *hsx_k_hxe_header(const uint8_t *p, uint32_t len, hsx_hxe_header *h)
{
    uint32_t i, n;
    hsx_k_fill(h, 0, sizeof *h);
    if (len < HSX_HXE_HEADER_V1)
        return "too_small";
    if (be32(p) != HXE_MAGIC)
        return "bad_magic";
    h->version = be16(p + 4);
    if (h->version != 1 && h->version != 2)
        return "unsupported_version";
    h->flags = be16(p + 6);
    h->entry = be32(p + 8);
    h->code_len = be32(p + 12);
    h->ro_len = be32(p + 16);
    h->bss = be32(p + 20);
    h->crc = be32(p + 28);
    h->size = HSX_HXE_HEADER_V1;
    if (h->version == 2) {
        const uint8_t *raw = p + 0x20;
        uint32_t start = 0, end;
        if (len < HSX_HXE_HEADER_V2)
            return "header_truncated";
        for (i = 0x50; i < HSX_HXE_HEADER_V2; i++)
            if (p[i])
                return "reserved_nonzero";
        for (n = 0; n < 32 && raw[n]; n++)
            if (raw[n] < 0x20 || raw[n] > 0x7E)
                return "bad_app_name";
        if (n == 32)
            return "bad_app_name";
        end = n;
        while (start < end && raw[start] == ' ')
            start++;
        while (end > start && raw[end - 1] == ' ')
            end--;
        for (i = 0; i < end - start; i++)
            h->name[i] = (char)raw[start + i];
        h->meta_off = be32(p + 0x40);
        h->meta_count = be32(p + 0x44);
        h->stack_size = be32(p + 0x48);
        h->mem_size = be32(p + 0x4C);
        h->size = HSX_HXE_HEADER_V2;
    }
    if (h->code_len > MAX_CODE)
        return "code_too_large";
    if (h->ro_len > MAX_DATA)
        return "rodata_too_large";
    if (h->bss > MAX_DATA)
        return "bss_too_large";
    if (h->stack_size % 4 || h->mem_size % 16)
        return "bad_task_size";
    if (h->code_len % 4)
        return "code_misaligned";
    if (h->entry % 4)
        return "entry_misaligned";
    if (h->entry >= h->code_len)
        return "entry_outside_code";
    if (h->meta_count && !h->meta_off)
        return "metadata_table_missing";
    if (h->meta_off && h->meta_off < (uint64_t)h->size + h->code_len + h->ro_len)
        return "metadata_overlap";
    return 0;
}

/* The smallest image this header allows (HeaderInfo.total_size_hint). */
uint64_t hsx_k_hxe_size_hint(const hsx_hxe_header *h)
{
    uint64_t rodata_end = (uint64_t)h->size + h->code_len + h->ro_len;
    uint64_t table_end = h->meta_off ? (uint64_t)h->meta_off + 16u * (uint64_t)h->meta_count : 0;
    return rodata_end > table_end ? rodata_end : table_end;
}

/* ---- metadata ------------------------------------------------------------------------------- */


/* A string field of a value or command record (docs/hxe.md): NULL or the error. */
static const char *check_string(const uint8_t *sec, uint32_t size, uint32_t records_end,
                                uint32_t off)
{
    uint32_t end;
    if (!off)
        return 0;
    if (off < records_end || off >= size)
        return "metadata_string_out_of_range";
    for (end = off; end < size && sec[end]; end++)
        ;
    if (end == size)
        return "metadata_string_unterminated";
    return hsx_k_utf8_ok(sec + off, end - off) ? 0 : "metadata_string_invalid";
}

/* Value (20-byte) or command (16-byte) records: strings, then duplicates. */
static const char *check_records(const uint8_t *sec, const hsx_section *s, uint32_t rec,
                                 const uint8_t *fields, uint32_t nfields)
{
    uint64_t records_end = (uint64_t)s->count * rec;
    uint32_t i, j, f;
    const char *e;
    if (records_end > s->size)
        return "metadata_truncated";
    for (i = 0; i < s->count; i++)
        for (f = 0; f < nfields; f++)
            if ((e = check_string(sec, s->size, (uint32_t)records_end,
                                  be16(sec + i * rec + fields[f]))) != 0)
                return e;
    for (i = 0; i < s->count; i++)
        for (j = i + 1; j < s->count; j++)
            if (sec[i * rec] == sec[j * rec] && sec[i * rec + 1] == sec[j * rec + 1])
                return "duplicate_metadata";
    return 0;
}

/* -- the mailbox section: JSON (what HSX writes) or the legacy binary records -- */

typedef struct json {
    const uint8_t *p, *end;
    int depth;
} json;

HSX_NOINLINE static void ws(json *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

HSX_NOINLINE static int literal(json *j, const char *word)
{
    const uint8_t *p = j->p;
    while (*word) {
        if (p >= j->end || *p != (uint8_t)*word)
            return 0;
        p++;
        word++;
    }
    j->p = p;
    return 1;
}

enum { J_BAD, J_OBJECT, J_ARRAY, J_STRING, J_INT, J_NUMBER, J_BOOL, J_NULL, J_ABSENT };

static int skip_value(json *j, uint64_t *number);

/* The members or elements of an object or array, j->p at its opening bracket. */
static int skip_container(json *j)
{
    uint8_t close = *j->p == '{' ? '}' : ']';
    int kind = *j->p == '{' ? J_OBJECT : J_ARRAY;
    if (++j->depth > 32)                /* as deep as anyone writes a mailbox section */
        return J_BAD;
    j->p++;
    ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        j->depth--;
        return kind;
    }
    for (;;) {
        if (kind == J_OBJECT) {
            ws(j);
            if (j->p >= j->end || *j->p != '"' || skip_value(j, 0) != J_STRING)
                return J_BAD;
            ws(j);
            if (j->p >= j->end || *j->p++ != ':')
                return J_BAD;
        }
        if (skip_value(j, 0) == J_BAD)
            return J_BAD;
        ws(j);
        if (j->p >= j->end)
            return J_BAD;
        if (*j->p == close) {
            j->p++;
            j->depth--;
            return kind;
        }
        if (*j->p++ != ',')
            return J_BAD;
    }
}

static int skip_string(json *j)
{
    for (j->p++; j->p < j->end; j->p++) {
        if (*j->p == '"') {
            j->p++;
            return J_STRING;
        }
        if (*j->p < 0x20)
            return J_BAD;
        if (*j->p != '\\')
            continue;
        if (++j->p >= j->end)
            return J_BAD;
        if (*j->p == 'u') {
            int k;
            for (k = 0; k < 4; k++) {
                uint8_t c = ++j->p < j->end ? (uint8_t)(*j->p | 0x20) : 0;
                if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
                    return J_BAD;
            }
        } else if (!(*j->p == '"' || *j->p == '\\' || *j->p == '/' || *j->p == 'b'
                     || *j->p == 'f' || *j->p == 'n' || *j->p == 'r' || *j->p == 't')) {
            return J_BAD;
        }
    }
    return J_BAD;
}

HSX_NOINLINE static int digits(json *j, uint64_t *v)
{
    int n = 0;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
        if (v && *v < (1ull << 33))
            *v = *v * 10 + (uint64_t)(*j->p - '0');
        j->p++;
        n++;
    }
    return n;
}

/* The words Python's json takes for a value (it accepts NaN and Infinity too). */
static const struct { char word[10]; uint8_t kind; } WORDS[] = {
    { "true", J_BOOL }, { "false", J_BOOL }, { "null", J_NULL }, { "NaN", J_NUMBER },
    { "Infinity", J_NUMBER }, { "-Infinity", J_NUMBER }
};

/* Skip one value; its kind, or J_BAD. An integer's value goes to *number (above 2^33,
 * or negative: 2^34, "out of range"). */
static int skip_value(json *j, uint64_t *number)
{
    uint64_t v = 0;
    int kind = J_INT, negative = 0;
    uint32_t k;
    ws(j);
    if (j->p >= j->end)
        return J_BAD;
    if (*j->p == '{' || *j->p == '[')
        return skip_container(j);
    if (*j->p == '"')
        return skip_string(j);
    for (k = 0; k < sizeof WORDS / sizeof *WORDS; k++)
        if (literal(j, WORDS[k].word))
            return WORDS[k].kind;
    if (*j->p == '-') {
        negative = 1;
        j->p++;
    }
    if (j->p < j->end && *j->p == '0')
        j->p++;
    else if (!digits(j, &v))
        return J_BAD;
    if (j->p < j->end && *j->p == '.') {
        kind = J_NUMBER;
        j->p++;
        if (!digits(j, 0))
            return J_BAD;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        kind = J_NUMBER;
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (!digits(j, 0))
            return J_BAD;
    }
    if (number)
        *number = negative && v ? (1ull << 34) : v;
    return kind;
}

/* The validated JSON string at p decoded into out; its length, or -1 when it does not
 * fit. Characters no target may contain (NUL, anything not ASCII) become 0xFF. */
static int32_t json_string(const uint8_t *p, char *out, uint32_t size)
{
    uint32_t n = 0;
    for (p++; *p != '"'; p++) {
        uint32_t c = *p;
        if (c == '\\') {
            static const char ESC[] = "b\bf\fn\nr\rt\t";
            const char *e;
            c = *++p;
            for (e = ESC; *e && (uint8_t)*e != c; e += 2)
                ;
            if (*e) {
                c = (uint8_t)e[1];
            } else if (c == 'u') {
                int k;
                for (c = 0, k = 0; k < 4; k++) {
                    uint8_t h = (uint8_t)(*++p | 0x20);
                    c = c * 16 + (uint32_t)(h <= '9' ? h - '0' : h - 'a' + 10);
                }
            }
        }
        if (n + 1 >= size)
            return -1;
        out[n++] = (char)(c && c < 0x80 ? c : 0xFF);
    }
    out[n] = 0;
    return (int32_t)n;
}

/* The last member `key` of the object at obj (JSON keeps the last of repeated keys):
 * its kind and *at, or J_ABSENT. */
static int member(const uint8_t *obj, const uint8_t *end, const char *key, const uint8_t **at)
{
    json j = { obj + 1, end, 0 };
    int found = J_ABSENT;
    uint32_t klen = hsx_k_strlen(key, 32);
    for (;;) {
        const uint8_t *name, *value;
        int kind;
        uint32_t i = 0;
        ws(&j);
        if (j.p >= end || *j.p != '"')
            return found;
        name = j.p + 1;
        skip_value(&j, 0);
        ws(&j);
        j.p++;                          /* ':' */
        ws(&j);
        value = j.p;
        kind = skip_value(&j, 0);
        while (i < klen && name[i] == (uint8_t)key[i])
            i++;
        if (i == klen && name[klen] == '"') {
            found = kind;
            *at = value;
        }
        ws(&j);
        if (j.p >= end || *j.p++ != ',')
            return found;
    }
}

/* entry.get(key) is not None (Python's _first_present over several keys) */
HSX_NOINLINE static int present(int kind) { return kind != J_ABSENT && kind != J_NULL; }

HSX_NOINLINE static int first_member(const uint8_t *obj, const uint8_t *end,
                                     const char *const *keys, const uint8_t **at)
{
    for (; *keys; keys++) {
        int kind = member(obj, end, *keys, at);
        if (present(kind))
            return kind;
    }
    return J_ABSENT;
}

static int uint_value(const uint8_t *at, const uint8_t *end, uint64_t limit, uint64_t *v)
{
    json j = { at, end, 0 };
    return skip_value(&j, v) == J_INT && *v <= limit;
}

/* Member `key` of the object at obj is an integer up to 2^32 - 1, or (unless required)
 * absent. */
static int uint_member(const uint8_t *obj, const uint8_t *end, const char *key, int required)
{
    const uint8_t *at;
    uint64_t v;
    if (!present(member(obj, end, key, &at)))
        return !required;
    return uint_value(at, end, 0xFFFFFFFFull, &v);
}

/* The next element of a (checked) array, j->p inside it: its kind and *at, J_ABSENT
 * after the last. */
HSX_NOINLINE static int next_element(json *j, const uint8_t **at)
{
    ws(j);
    if (j->p < j->end && *j->p == ',')
        j->p++;
    ws(j);
    if (j->p >= j->end || *j->p == ']')
        return J_ABSENT;
    *at = j->p;
    return skip_value(j, 0);
}

static const struct { const char *token; uint8_t bits; } MODE_TOKENS[] = {
    { "RDONLY", 1 }, { "READONLY", 1 }, { "RO", 1 }, { "WRONLY", 2 }, { "WRITEONLY", 2 },
    { "WO", 2 }, { "RDWR", 3 }, { "RW", 3 }, { "TAP", 4 }, { "FANOUT", 8 },
    { "FANOUT_DROP", 0x10 }, { "FANOUT_BLOCK", 0x20 }
};

HSX_NOINLINE static int space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Mode tokens ("rdwr|fanout_drop", case-insensitive): NULL and the bits, or the error. */
static const char *parse_mode(const char *text, uint32_t *mode)
{
    uint32_t bits = 0;
    while (*text) {
        const char *start, *stop;
        uint32_t k, found = 0;
        while (space(*text))
            text++;
        start = text;
        while (*text && *text != '|' && *text != ',')
            text++;
        for (stop = text; stop > start && space(stop[-1]); stop--)
            ;
        if (*text)
            text++;
        for (k = 0; stop > start && k < sizeof MODE_TOKENS / sizeof *MODE_TOKENS && !found; k++) {
            const char *tok = MODE_TOKENS[k].token, *c = start;
            while (c < stop && *tok && (*c >= 'a' && *c <= 'z' ? *c - 32 : *c) == *tok) {
                c++;
                tok++;
            }
            if (c == stop && !*tok) {
                bits |= MODE_TOKENS[k].bits;
                found = 1;
            }
        }
        if (stop > start && !found)
            return "unknown_mailbox_mode";
    }
    *mode = bits ? bits : HSX_MBX_RDWR;
    return 0;
}


#define INVALID "mailbox_metadata_invalid"

/* One JSON entry, checked in the reference's order: NULL and the spec, or the error. */
static const char *json_mailbox(const uint8_t *obj, const uint8_t *end, hsx_mbx_spec *spec)
{
    static const char *const TARGET[] = { "target", "name", 0 };
    static const char *const CAPACITY[] = { "capacity", "queue_depth", 0 };
    static const char *const MODE[] = { "mode_mask", "mode", "flags", 0 };
    const uint8_t *at, *bindings = 0;
    uint64_t v;
    int kind;
    char text[128];
    const char *s;
    hsx_k_fill(spec, 0, sizeof *spec);
    if (first_member(obj, end, TARGET, &at) != J_STRING)
        return INVALID;
    if (json_string(at, spec->target, sizeof spec->target) < 0) {
        spec->target_too_long = 1;          /* BIND refuses it at provisioning */
    } else {
        for (s = spec->target; space(*s); s++)
            ;
        if (!*s)
            return INVALID;
    }
    kind = member(obj, end, "bindings", &bindings);
    if (present(kind) && kind != J_ARRAY)
        return INVALID;
    if (!present(kind))
        bindings = 0;
    if (present(first_member(obj, end, CAPACITY, &at))) {
        if (!uint_value(at, end, 0xFFFFFFFFull, &v))
            return INVALID;
        spec->capacity = (uint32_t)v;
    }
    spec->mode = HSX_MBX_RDWR;
    kind = first_member(obj, end, MODE, &at);
    if (kind == J_STRING) {
        if (json_string(at, text, sizeof text) < 0)
            return "unknown_mailbox_mode";
        if ((s = parse_mode(text, &spec->mode)) != 0)
            return s;
    } else if (present(kind)) {
        if (!uint_value(at, end, 0xFFFFu, &v))
            return INVALID;
        spec->mode = v ? (uint32_t)v : HSX_MBX_RDWR;
    }
    if (!uint_member(obj, end, "owner_pid", 0))
        return INVALID;
    if (bindings) {
        json j = { bindings + 1, end, 0 };
        const uint8_t *b;
        while ((kind = next_element(&j, &b)) != J_ABSENT)
            if (kind != J_OBJECT || !uint_member(b, end, "pid", 1)
                    || !uint_member(b, end, "flags", 0))
                return INVALID;
    }
    return 0;
}

/* Walk the mailbox section: check it (fn NULL), or hand each spec to fn until it
 * returns non-zero. Returns NULL or the error code. */

const char *hsx_k_hxe_mailboxes(const uint8_t *sec, uint32_t size, uint32_t count,
                                  hsx_spec_fn fn, void *ctx)
{
    uint32_t body = size, i;
    const uint8_t *p = sec;
    hsx_mbx_spec spec;
    const char *e;
    while (body && !sec[body - 1])
        body--;
    while (p < sec + body && space((char)*p))
        p++;
    if (p < sec + body && (*p == '{' || *p == '[')) {
        const uint8_t *end = sec + body, *list = p, *at;
        json j = { sec, end, 0 };
        int kind;
        uint64_t version;
        if (!hsx_k_utf8_ok(sec, body) || skip_value(&j, 0) == J_BAD)
            return INVALID;
        ws(&j);
        if (j.p != end)
            return INVALID;
        if (*p == '{') {
            kind = member(p, end, "version", &at);
            if (kind != J_ABSENT && !uint_value(at, end, 1, &version))
                return INVALID;
            if (kind != J_ABSENT && version != 1)
                return INVALID;
            kind = member(p, end, "mailboxes", &at);
            if (kind == J_ABSENT)
                kind = member(p, end, "entries", &at);
            if (kind == J_ABSENT)
                return 0;
            if (kind != J_ARRAY)
                return INVALID;
            list = at;
        }
        j.p = list + 1;
        while ((kind = next_element(&j, &at)) != J_ABSENT) {
            if (kind != J_OBJECT)
                return INVALID;
            if ((e = json_mailbox(at, end, &spec)) != 0)
                return e;
            if (fn && fn(ctx, &spec))
                return 0;
        }
        return 0;
    }
    if ((uint64_t)count * 16u > size)               /* the legacy records */
        return "metadata_truncated";
    for (i = 0; i < count; i++) {
        const uint8_t *r = sec + 16u * i;
        uint32_t off = be32(r), n;
        if ((e = check_string(sec, size, count * 16u, off)) != 0)
            return e;
        if (!off || !sec[off])
            return INVALID;
        hsx_k_fill(&spec, 0, sizeof spec);
        n = hsx_k_strlen((const char *)sec + off, size - off);
        if (n >= sizeof spec.target)
            spec.target_too_long = 1;
        else
            hsx_k_copy(spec.target, sec + off, n);
        spec.capacity = be16(r + 4);
        spec.mode = be16(r + 6) ? be16(r + 6) : HSX_MBX_RDWR;
        if (fn && fn(ctx, &spec))
            return 0;
    }
    return 0;
}

/* Two mailboxes with one target: for each spec, count the specs equal to it. */
struct dup_ctx { const uint8_t *sec; uint32_t size, count; const hsx_mbx_spec *probe; int same; };

static int count_same(void *ctx, const hsx_mbx_spec *spec)
{
    struct dup_ctx *d = (struct dup_ctx *)ctx;
    if (!spec->target_too_long && !d->probe->target_too_long
            && hsx_k_streq(spec->target, d->probe->target))
        d->same++;
    return d->same > 1;
}

static int find_duplicate(void *ctx, const hsx_mbx_spec *spec)
{
    struct dup_ctx *d = (struct dup_ctx *)ctx, inner = *d;
    inner.probe = spec;
    inner.same = 0;
    hsx_k_hxe_mailboxes(d->sec, d->size, d->count, count_same, &inner);
    d->same = inner.same;
    return d->same > 1;
}

static const char *check_mailboxes(const uint8_t *sec, const hsx_section *s)
{
    struct dup_ctx d = { sec, s->size, s->count, 0, 0 };
    const char *e = hsx_k_hxe_mailboxes(sec, s->size, s->count, 0, 0);
    if (e)
        return e;
    hsx_k_hxe_mailboxes(sec, s->size, s->count, find_duplicate, &d);
    return d.same > 1 ? "duplicate_metadata" : 0;
}

/* ---- the whole image ------------------------------------------------------------------------- */

const char *hsx_k_hxe_check(hsx_image *im)
{
    static const uint8_t VALUE_STRINGS[] = { 6, 8, 18 };     /* name, unit, group name */
    static const uint8_t COMMAND_STRINGS[] = { 8, 10, 14 };  /* name, help, group name */
    const uint8_t *d = im->data;
    hsx_hxe_header *h = &im->h;
    uint64_t rodata_end, table_end = 0, image_end;
    uint32_t i, k, crc;
    const char *e = hsx_k_hxe_header(d, im->len, h);
    if (e)
        return e;
    rodata_end = (uint64_t)h->size + h->code_len + h->ro_len;
    if (h->size + h->code_len > im->len || rodata_end > im->len)
        return "truncated";
    image_end = rodata_end;
    if (h->meta_off) {
        table_end = (uint64_t)h->meta_off + 16u * (uint64_t)h->meta_count;
        if (table_end > im->len)
            return "metadata_out_of_bounds";
        for (i = 0; i < h->meta_count; i++) {
            const uint8_t *t = d + h->meta_off + 16u * i;
            uint64_t end = (uint64_t)be32(t + 4) + be32(t + 8);
            if (end > im->len)
                return "metadata_out_of_bounds";
            if (end > image_end)
                image_end = end;
        }
        if (table_end > image_end)
            image_end = table_end;
    }
    crc = hsx_k_crc32(hsx_k_crc32(0, d, 0x1C), d + h->size, im->len - h->size);
    if (crc != h->crc) {
        if (image_end < im->len
                && hsx_k_crc32(hsx_k_crc32(0, d, 0x1C), d + h->size,
                               (uint32_t)image_end - h->size) == h->crc)
            return "trailing_bytes";
        return "crc_mismatch";
    }
    /* layout: sections after rodata, nothing overlapping the table or each other */
    for (i = 0; i < h->meta_count; i++) {
        const uint8_t *t = d + h->meta_off + 16u * i;
        uint32_t off = be32(t + 4), size = be32(t + 8);
        if (off < rodata_end)
            return "metadata_overlap";
        if (size && off < table_end && h->meta_off < (uint64_t)off + size)
            return "metadata_overlap";
        for (k = 0; k < i; k++) {
            const uint8_t *o = d + h->meta_off + 16u * k;
            uint32_t ooff = be32(o + 4), osize = be32(o + 8);
            if (size && osize && off < (uint64_t)ooff + osize && ooff < (uint64_t)off + size)
                return "metadata_overlap";
        }
    }
    /* contents, in table order */
    for (i = 0; i < h->meta_count; i++) {
        const uint8_t *t = d + h->meta_off + 16u * i;
        uint32_t type = be32(t);
        hsx_section s;
        s.off = be32(t + 4);
        s.size = be32(t + 8);
        s.count = be32(t + 12);
        if (type == 1) {
            if (im->has_values)
                return "duplicate_metadata";
            im->has_values = 1;
            im->values = s;
            if ((e = check_records(d + s.off, &s, 20, VALUE_STRINGS, 3)) != 0)
                return e;
        } else if (type == 2) {
            if (im->has_commands)
                return "duplicate_metadata";
            im->has_commands = 1;
            im->commands = s;
            if ((e = check_records(d + s.off, &s, 16, COMMAND_STRINGS, 3)) != 0)
                return e;
        } else if (type == 3) {
            if (im->has_mailboxes)
                return "duplicate_metadata";
            im->has_mailboxes = 1;
            im->mailboxes = s;
            if ((e = check_mailboxes(d + s.off, &s)) != 0)
                return e;
        }
    }
    for (i = 0; im->has_commands && i < im->commands.count; i++) {
        uint32_t handler = be32(d + im->commands.off + 16u * i + 4);
        if (handler % 4 || handler >= h->code_len)
            return "handler_outside_code";
    }
    return 0;
}

HSX_COLD_CODE_END
