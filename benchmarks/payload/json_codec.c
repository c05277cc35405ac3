/* A minimal non-allocating JSON tokenizer and writer with the same job as port/c/hsx_cbor.c,
 * compiled only by benchmarks/payload_encoding.py to weigh the two payload encodings
 * (docs/port.md, "Choosing the payload encoding"). Not shipped.
 *
 * What protocol v1 in JSON needs on a device beyond what CBOR needs: string escapes
 * (\" \\ \n \uXXXX with surrogate pairs to UTF-8) both ways, decimal integers both ways,
 * a number with a fraction or exponent read into a double (val.set), an f16 written as
 * its exact decimal, and base64 to decode image chunks (CBOR carries bytes as they are).
 */
#include <stddef.h>
#include <stdint.h>

typedef enum json_type {
    JSON_END, JSON_OBJECT, JSON_ARRAY, JSON_CLOSE, JSON_STRING, JSON_INT, JSON_FLOAT,
    JSON_TRUE, JSON_FALSE, JSON_NULL, JSON_ERROR
} json_type;

typedef struct json_reader {
    const uint8_t *p, *end;
} json_reader;

typedef struct json_token {
    json_type type;
    int64_t integer;
    double number;
    uint8_t *text;          /* a string, unescaped in place */
    uint32_t len;
} json_token;

static void skip_space(json_reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r' ||
                             *r->p == ',' || *r->p == ':'))
        r->p++;
}

static int hex4(const uint8_t *p, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t c = p[i] | 0x20;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        v = v << 4 | (uint32_t)d;
    }
    *out = v;
    return 0;
}

static uint8_t *put_utf8(uint8_t *out, uint32_t cp)
{
    if (cp < 0x80) {
        *out++ = (uint8_t)cp;
    } else if (cp < 0x800) {
        *out++ = (uint8_t)(0xC0 | cp >> 6);
        *out++ = (uint8_t)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *out++ = (uint8_t)(0xE0 | cp >> 12);
        *out++ = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        *out++ = (uint8_t)(0x80 | (cp & 0x3F));
    } else {
        *out++ = (uint8_t)(0xF0 | cp >> 18);
        *out++ = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
        *out++ = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        *out++ = (uint8_t)(0x80 | (cp & 0x3F));
    }
    return out;
}

/* A string after its opening quote, unescaped into its own bytes. */
static json_type read_string(json_reader *r, json_token *t)
{
    uint8_t *out = (uint8_t *)(uintptr_t)r->p;
    t->text = out;
    while (r->p < r->end) {
        uint8_t c = *r->p++;
        if (c == '"') {
            t->len = (uint32_t)(out - t->text);
            return JSON_STRING;
        }
        if (c < 0x20)
            return JSON_ERROR;
        if (c != '\\') {
            *out++ = c;
            continue;
        }
        if (r->p >= r->end)
            return JSON_ERROR;
        c = *r->p++;
        switch (c) {
        case '"': case '\\': case '/': *out++ = c; break;
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'n': *out++ = '\n'; break;
        case 'r': *out++ = '\r'; break;
        case 't': *out++ = '\t'; break;
        case 'u': {
            uint32_t cp, low;
            if (r->end - r->p < 4 || hex4(r->p, &cp) < 0)
                return JSON_ERROR;
            r->p += 4;
            if (cp >= 0xD800 && cp < 0xDC00) {      /* a surrogate pair */
                if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u' ||
                    hex4(r->p + 2, &low) < 0 || low < 0xDC00 || low > 0xDFFF)
                    return JSON_ERROR;
                r->p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else if (cp >= 0xDC00 && cp < 0xE000) {
                return JSON_ERROR;
            }
            out = put_utf8(out, cp);
            break;
        }
        default: return JSON_ERROR;
        }
    }
    return JSON_ERROR;
}

static json_type read_number(json_reader *r, json_token *t)
{
    int negative = 0, is_float = 0, exp_negative = 0;
    uint64_t mantissa = 0;
    int32_t exponent = 0, digits = 0;
    if (*r->p == '-') {
        negative = 1;
        r->p++;
    }
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
        if (mantissa < 1000000000000000000ull)
            mantissa = mantissa * 10 + (uint64_t)(*r->p - '0');
        else
            exponent++;
        r->p++;
        digits++;
    }
    if (!digits)
        return JSON_ERROR;
    if (r->p < r->end && *r->p == '.') {
        is_float = 1;
        r->p++;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
            if (mantissa < 1000000000000000000ull) {
                mantissa = mantissa * 10 + (uint64_t)(*r->p - '0');
                exponent--;
            }
            r->p++;
        }
    }
    if (r->p < r->end && (*r->p | 0x20) == 'e') {
        int32_t e = 0;
        is_float = 1;
        r->p++;
        if (r->p < r->end && (*r->p == '-' || *r->p == '+'))
            exp_negative = *r->p++ == '-';
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
            e = e < 10000 ? e * 10 + (*r->p++ - '0') : (r->p++, e);
        exponent += exp_negative ? -e : e;
    }
    if (!is_float && exponent == 0 && mantissa <= (uint64_t)INT64_MAX) {
        t->integer = negative ? -(int64_t)mantissa : (int64_t)mantissa;
        return JSON_INT;
    }
    double v = (double)mantissa;
    for (; exponent > 0; exponent--)
        v *= 10.0;
    for (; exponent < 0; exponent++)
        v /= 10.0;
    t->number = negative ? -v : v;
    return JSON_FLOAT;
}

static int word(json_reader *r, const char *w)
{
    const uint8_t *p = r->p;
    for (; *w; w++, p++)
        if (p >= r->end || *p != (uint8_t)*w)
            return 0;
    r->p = p;
    return 1;
}

/* The next token; containers are opened by OBJECT/ARRAY and ended by CLOSE. Commas and
 * colons are separators the pull parser's caller does not need to see. */
json_type json_next(json_reader *r, json_token *t)
{
    skip_space(r);
    if (r->p >= r->end)
        return t->type = JSON_END;
    uint8_t c = *r->p;
    switch (c) {
    case '{': r->p++; return t->type = JSON_OBJECT;
    case '[': r->p++; return t->type = JSON_ARRAY;
    case '}': case ']': r->p++; return t->type = JSON_CLOSE;
    case '"': r->p++; return t->type = read_string(r, t);
    case 't': return t->type = word(r, "true") ? JSON_TRUE : JSON_ERROR;
    case 'f': return t->type = word(r, "false") ? JSON_FALSE : JSON_ERROR;
    case 'n': return t->type = word(r, "null") ? JSON_NULL : JSON_ERROR;
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return t->type = read_number(r, t);
        return t->type = JSON_ERROR;
    }
}

/* Skip one value (a container with everything in it). */
int json_skip(json_reader *r)
{
    json_token t;
    int depth = 0;
    do {
        json_type type = json_next(r, &t);
        if (type == JSON_ERROR || type == JSON_END)
            return -1;
        if (type == JSON_OBJECT || type == JSON_ARRAY)
            depth++;
        else if (type == JSON_CLOSE)
            depth--;
    } while (depth > 0);
    return 0;
}

/* The value of `key` in the object at the start of the buffer: 1 found. */
int json_get(const uint8_t *json, uint32_t len, const char *key, json_token *value)
{
    json_reader r = {json, json + len};
    json_token t;
    if (json_next(&r, &t) != JSON_OBJECT)
        return 0;
    for (;;) {
        if (json_next(&r, &t) != JSON_STRING)
            return 0;
        uint32_t i = 0;
        while (i < t.len && key[i] && key[i] == (char)t.text[i])
            i++;
        if (i == t.len && !key[i])
            return json_next(&r, value) != JSON_ERROR;
        if (json_skip(&r) < 0)
            return 0;
    }
}

/* base64 text decoded in place (image chunks, data_b64). */
int json_base64(uint8_t *text, uint32_t len, uint32_t *out_len)
{
    uint32_t n = 0, bits = 0, have = 0, pad = 0;
    if (len & 3)
        return -1;
    for (uint32_t i = 0; i < len; i++) {
        uint8_t ch = text[i];
        int d = ch >= 'A' && ch <= 'Z' ? ch - 'A' : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26
              : ch >= '0' && ch <= '9' ? ch - '0' + 52 : ch == '+' ? 62 : ch == '/' ? 63
              : ch == '=' ? 0 : -1;
        if (d < 0)
            return -1;
        pad += ch == '=';
        bits = bits << 6 | (uint32_t)d;
        if (++have == 4) {
            text[n++] = (uint8_t)(bits >> 16);
            text[n++] = (uint8_t)(bits >> 8);
            text[n++] = (uint8_t)bits;
            have = bits = 0;
        }
    }
    *out_len = n - pad;
    return 0;
}

/* -- writer --------------------------------------------------------------------------------- */

typedef struct json_writer {
    uint8_t *p, *end;
    uint8_t overflow, need_comma;
} json_writer;

static void put(json_writer *w, const char *s, uint32_t n)
{
    if (w->overflow || (uint32_t)(w->end - w->p) < n) {
        w->overflow = 1;
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        *w->p++ = (uint8_t)s[i];
}

static void comma(json_writer *w)
{
    if (w->need_comma)
        put(w, ",", 1);
    w->need_comma = 1;
}

void json_open(json_writer *w, char bracket)
{
    comma(w);
    put(w, &bracket, 1);
    w->need_comma = 0;
}

void json_close(json_writer *w, char bracket)
{
    put(w, &bracket, 1);
    w->need_comma = 1;
}

void json_string(json_writer *w, const char *s, uint32_t n)
{
    static const char hex[] = "0123456789abcdef";
    comma(w);
    put(w, "\"", 1);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = (uint8_t)s[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            put(w, e, 2);
        } else if (c == '\n') {
            put(w, "\\n", 2);
        } else if (c < 0x20) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            put(w, e, 6);
        } else {
            put(w, (const char *)&c, 1);
        }
    }
    put(w, "\"", 1);
}

/* A key: the string and its colon (the value that follows needs no comma). */
void json_key(json_writer *w, const char *key)
{
    uint32_t n = 0;
    while (key[n])
        n++;
    json_string(w, key, n);
    put(w, ":", 1);
    w->need_comma = 0;
}

void json_int(json_writer *w, int64_t v)
{
    char digits[21];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)-(v + 1) + 1 : (uint64_t)v;
    comma(w);
    if (v < 0)
        put(w, "-", 1);
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        put(w, &digits[--n], 1);
}

void json_literal(json_writer *w, const char *text)
{
    uint32_t n = 0;
    while (text[n])
        n++;
    comma(w);
    put(w, text, n);
}

/* An f16 as the exact decimal Python's json prints for it (integer part, then the
 * fraction digit by digit; every f16 is exact in at most 24 fraction digits). */
void json_f16(json_writer *w, uint16_t bits)
{
    uint32_t exp = bits >> 10 & 31, frac = bits & 0x3FF;
    if (exp == 31) {
        json_literal(w, frac ? "\"nan\"" : bits & 0x8000 ? "\"-inf\"" : "\"inf\"");
        return;
    }
    /* value = m * 2^(e - 24), m < 2^11 */
    uint64_t m = exp ? (frac | 0x400) : frac;
    int shift = (int)(exp ? exp : 1) - 25;
    uint64_t integer = shift >= 0 ? m << shift : m >> -shift;
    uint64_t rest = shift >= 0 ? 0 : m & ((1ull << -shift) - 1);
    comma(w);
    if (bits & 0x8000)
        put(w, "-", 1);
    w->need_comma = 0;
    json_int(w, (int64_t)integer);
    if (shift >= 0 || !rest) {
        put(w, ".0", 2);
        return;
    }
    put(w, ".", 1);
    do {
        rest *= 10;
        char d = (char)('0' + (rest >> -shift));
        put(w, &d, 1);
        rest &= (1ull << -shift) - 1;
    } while (rest);
}
