/* HSX C executive: a request's fields and the protocol's errors (hsx_proto.h).
 *
 * Every field is checked as hsx execd checks it (docs/protocol.md "Argument ranges"):
 * a wrong type or a value out of range is `bad_argument` naming the field and what it
 * accepts. Integers may come as text ("0x4000"), binary data as a CBOR byte string or
 * as hex or base64 text, which is decoded in place (the request is in the receive
 * buffer, which is the protocol's own).
 */
#include <stdarg.h>
#include <stddef.h>

#include "hsx_proto.h"

/* -- errors -------------------------------------------------------------------------------------- */

static void msg_append(hsx_call *c, const char *text)
{
    uint32_t n = 0;
    while (c->message[n])
        n++;
    while (*text && n + 1 < sizeof c->message)
        c->message[n++] = *text++;
    c->message[n] = 0;
}

void hsx_msg_number(hsx_call *c, int64_t value)
{
    char digits[24], *p = digits + sizeof digits - 1;
    uint64_t u = value < 0 ? (uint64_t)-(value + 1) + 1 : (uint64_t)value;
    *p = 0;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (value < 0)
        *--p = '-';
    msg_append(c, p);
}

int hsx_fail(hsx_call *c, const char *code, const char *text, ...)
{
    va_list pieces;
    c->error = code;
    c->message[0] = 0;
    va_start(pieces, text);
    for (const char *piece = text; piece; piece = va_arg(pieces, const char *))
        msg_append(c, piece);
    va_end(pieces);
    return -1;
}

static char error_code[40];             /* codes with a suffix: pid_locked:<pid>, ... */

const char *hsx_code_with(const char *prefix, const char *suffix)
{
    uint32_t n = 0;
    while (*prefix && n + 1 < sizeof error_code)
        error_code[n++] = *prefix++;
    while (suffix && *suffix && n + 1 < sizeof error_code)
        error_code[n++] = *suffix++;
    error_code[n] = 0;
    return error_code;
}

const char *hsx_number_text(uint32_t value)
{
    static char digits[12];
    char *p = digits + sizeof digits - 1;
    *p = 0;
    do {
        *--p = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    return p;
}

/* The protocol v1 errors of the hsx_exec statuses (codes as hsx execd's): the code,
 * then the message. A code ending in ':' takes the detail (bad_image:crc_mismatch). */
static const char *const status_errors[][2] = {
    [HSX_ERR_BAD_ARGUMENT] = {"bad_argument", "refused"},
    [HSX_ERR_UNKNOWN_PID] = {"unknown_pid", "no task with pid "},
    [HSX_ERR_TASK_ENDED] = {"task_ended", "the task has ended"},
    [HSX_ERR_BAD_IMAGE] = {"bad_image:", "not a valid HXE image: "},
    [HSX_ERR_TOO_MANY_TASKS] = {"too_many_tasks", "the board's task limit is reached"},
    [HSX_ERR_LAYOUT] = {"layout", "the image does not fit a task's memory"},
    [HSX_ERR_IMAGE_TOO_LARGE] = {"image_too_large", "no room in the code arena"},
    [HSX_ERR_MAILBOX_LIMIT] = {"mailbox_limit", "no mailbox left for the image"},
    [HSX_ERR_METADATA_MAILBOX] = {"metadata_mailbox", "the image's .mailbox was refused"},
    [HSX_ERR_APP_EXISTS] = {"app_exists:", "one instance only, and it runs: "},
    [HSX_ERR_UNKNOWN_STREAM] = {"unknown_stream", "no such streamed load"},
    [HSX_ERR_TOO_MANY_STREAMS] = {"too_many_streams", "too many streamed loads open"},
    [HSX_ERR_STDIN_FULL] = {"stdin_full", "the task's stdin is full"},
    [HSX_ERR_MAILBOX] = {"mbx_", "mailbox status "},
    [HSX_ERR_VALUE] = {"val_", "value status "},
    [HSX_ERR_COMMAND] = {"cmd_", "command status "},
    [HSX_ERR_UNKNOWN_NAME] = {"unknown_name", "no entry has that name"},
    [HSX_ERR_UNKNOWN_BREAKPOINT] = {"unknown_breakpoint", "no breakpoint with that id"},
    [HSX_ERR_TOO_MANY_BREAKPOINTS] = {"too_many_breakpoints", "the board's breakpoints are all in use"},
    [HSX_ERR_UNKNOWN_WATCH] = {"unknown_watch", "no watch with that id"},
    [HSX_ERR_TOO_MANY_WATCHES] = {"too_many_watches", "the board's watches are all in use"},
    [HSX_ERR_BAD_ADDRESS] = {"bad_address", "not the start of an instruction"},
    [HSX_ERR_UNSUPPORTED] = {"unsupported", "not offered by this board"},
};

/* The status names after mbx_, val_ and cmd_ (docs/mailboxes.md, docs/values.md). */
static const char *const mailbox_names[] = {"ok", "wouldblock", "invalid_handle", "no_data",
    "msg_too_large", "no_descriptor", "6", "timeout", "invalid_argument", "access_denied"};
static const char *const registry_names[] = {"ok", "enoent", "eperm", "eexist", "einval",
    "enospc", "ebusy", "efail"};

int hsx_fail_status(hsx_call *c, hsx_status status, uint32_t pid)
{
    const char *detail = hsx_exec_last_detail();
    if (status == HSX_OK)
        return 0;
    if (status > HSX_ERR_UNSUPPORTED)
        status = HSX_ERR_BAD_ARGUMENT;
    const char *code = status_errors[status][0], *message = status_errors[status][1];
    if (status == HSX_ERR_MAILBOX || status == HSX_ERR_VALUE || status == HSX_ERR_COMMAND) {
        uint32_t n = 0;
        for (const char *d = detail; *d >= '0' && *d <= '9'; d++)
            n = n * 10 + (uint32_t)(*d - '0');
        int mailbox = status == HSX_ERR_MAILBOX;
        detail = mailbox ? (n < 10 ? mailbox_names[n] : detail) : (n < 8 ? registry_names[n] : detail);
        c->extra_key = mailbox ? "mbx_status" : status == HSX_ERR_VALUE ? "val_status" : "cmd_status";
        c->extra_number = n;
    }
    uint32_t n = 0;
    while (code[n + 1])
        n++;
    int with_detail = code[n] == ':' || code[n] == '_';
    hsx_fail(c, with_detail ? hsx_code_with(code, detail) : code, message,
             with_detail ? detail : NULL, NULL);
    if (status == HSX_ERR_UNKNOWN_PID)
        hsx_msg_number(c, pid);
    return -1;
}

/* -- arguments ------------------------------------------------------------------------------------ */

int hsx_list_open(const uint8_t *map, uint32_t len, const char *key, hsx_list *list)
{
    if (!hsx_cbor_map_get(map, len, key, &list->first) || list->first.type == HSX_CBOR_NULL)
        return 0;
    list->array = list->first.type == HSX_CBOR_ARRAY;
    list->left = list->array ? list->first.value : 1;
    list->r = (hsx_cbor_reader){list->first.data, map + len};
    return 1;
}

int hsx_list_next(hsx_list *list, hsx_cbor_item *item)
{
    if (!list->left)
        return 0;
    list->left--;
    if (!list->array) {
        *item = list->first;
        return 1;
    }
    return hsx_cbor_read(&list->r, item) < 0 ? -1 : 1;
}

int hsx_arg_present(hsx_call *c, const char *key)
{
    hsx_cbor_item item;
    return hsx_cbor_map_get(c->req, c->len, key, &item) && item.type != HSX_CBOR_NULL;
}

int hsx_required(hsx_call *c, int got, const char *key)
{
    if (got == 0)
        hsx_fail(c, "bad_argument", c->name, " requires '", key, "'", NULL);
    return got > 0 ? 1 : -1;
}

int hsx_bad_type(hsx_call *c, const char *key, const char *what)
{
    return hsx_fail(c, "bad_argument", "'", key, "' must be ", what, NULL);
}

/* An integer field: a CBOR integer, or text such as "0x4000" or "12". */
static int arg_integer(hsx_call *c, const char *key, uint64_t *out, int *negative)
{
    hsx_cbor_item item;
    if (!hsx_cbor_map_get(c->req, c->len, key, &item) || item.type == HSX_CBOR_NULL)
        return 0;
    *negative = 0;
    if (item.type == HSX_CBOR_UINT || item.type == HSX_CBOR_NINT) {
        *negative = item.type == HSX_CBOR_NINT;
        *out = item.value;
        return 1;
    }
    if (item.type == HSX_CBOR_TEXT && item.value > 0 && item.value <= 20) {
        const uint8_t *s = item.data, *end = item.data + item.value;
        uint64_t value = 0, base = 10;
        if (item.value > 2 && s[0] == '0' && (s[1] | 0x20) == 'x') {
            base = 16;
            s += 2;
        }
        for (; s < end; s++) {
            uint32_t d = *s >= '0' && *s <= '9' ? (uint32_t)(*s - '0')
                       : (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f' ? (uint32_t)((*s | 0x20) - 'a' + 10) : 99;
            if (d >= base || value > (UINT64_MAX - d) / base)
                return -1;
            value = value * base + d;
        }
        *out = value;
        return 1;
    }
    return -1;
}

int hsx_arg_u64(hsx_call *c, const char *key, uint64_t *out, uint64_t lo, uint64_t hi)
{
    uint64_t value = 0;
    int negative = 0, got = arg_integer(c, key, &value, &negative);
    if (got == 0)
        return 0;
    if (got < 0 || negative || value < lo || value > hi) {
        hsx_fail(c, "bad_argument", "'", key, "' must be an integer ", NULL);
        hsx_msg_number(c, (int64_t)lo);
        msg_append(c, "..");
        hsx_msg_number(c, (int64_t)hi);
        return -1;
    }
    *out = value;
    return 1;
}

int hsx_arg_u32(hsx_call *c, const char *key, uint32_t *out, uint32_t lo, uint32_t hi)
{
    uint64_t value;
    int got = hsx_arg_u64(c, key, &value, lo, hi);
    if (got > 0)
        *out = (uint32_t)value;
    return got;
}

int hsx_arg_bool(hsx_call *c, const char *key, int *out)
{
    hsx_cbor_item item;
    if (!hsx_cbor_map_get(c->req, c->len, key, &item) || item.type == HSX_CBOR_NULL)
        return 0;
    if (item.type == HSX_CBOR_TRUE || item.type == HSX_CBOR_FALSE) {
        *out = item.type == HSX_CBOR_TRUE;
        return 1;
    }
    if (item.type == HSX_CBOR_UINT && item.value <= 1) {
        *out = (int)item.value;
        return 1;
    }
    static const char *const words[] = {"off", "on", "false", "true"};
    for (int i = 0; i < 4; i++)
        if (hsx_cbor_text_is(&item, words[i])) {
            *out = i & 1;
            return 1;
        }
    return hsx_bad_type(c, key, "a boolean");
}

int hsx_arg_text(hsx_call *c, const char *key, const char **text, uint32_t *len, uint32_t max)
{
    hsx_cbor_item item;
    if (!hsx_cbor_map_get(c->req, c->len, key, &item) || item.type == HSX_CBOR_NULL)
        return 0;
    if (item.type != HSX_CBOR_TEXT || item.value > max) {
        hsx_fail(c, "bad_argument", "'", key, "' must be text of at most ", NULL);
        hsx_msg_number(c, max);
        msg_append(c, " characters");
        return -1;
    }
    *text = (const char *)item.data;
    *len = (uint32_t)item.value;
    return 1;
}

int hsx_arg_cstr(hsx_call *c, const char *key, char *out, uint32_t size)
{
    const char *text;
    uint32_t len;
    int got = hsx_arg_text(c, key, &text, &len, size - 1);
    if (got > 0) {
        for (uint32_t i = 0; i < len; i++)
            out[i] = text[i];
        out[len] = 0;
    }
    return got;
}

static int hex_digit(uint8_t ch)
{
    ch |= 0x20;
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

static int base64_digit(uint8_t ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch - 'A' : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26
         : ch >= '0' && ch <= '9' ? ch - '0' + 52 : ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

/* Hex or base64 text decoded in place: the request is in the receive buffer, which is
 * ours, and the bytes are never longer than their text. */
static int decode_text(const uint8_t *text, uint32_t len, int base64, uint32_t *out_len)
{
    uint8_t *out = (uint8_t *)(uintptr_t)text;
    uint32_t n = 0, bits = 0, have = 0;
    if (!base64) {
        if (len & 1)
            return -1;
        for (uint32_t i = 0; i < len; i += 2) {
            int hi = hex_digit(text[i]), lo = hex_digit(text[i + 1]);
            if (hi < 0 || lo < 0)
                return -1;
            out[n++] = (uint8_t)(hi << 4 | lo);
        }
    } else {
        uint32_t pad = 0;
        if (len & 3)
            return -1;
        for (uint32_t i = 0; i < len; i++) {
            int d = text[i] == '=' && i + 2 >= len ? 0 : base64_digit(text[i]);
            if (d < 0 || (pad && text[i] != '='))
                return -1;
            pad += text[i] == '=';
            bits = bits << 6 | (uint32_t)d;
            if (++have == 4) {
                out[n++] = (uint8_t)(bits >> 16);
                out[n++] = (uint8_t)(bits >> 8);
                out[n++] = (uint8_t)bits;
                have = bits = 0;
            }
        }
        n -= pad;
    }
    *out_len = n;
    return 0;
}

int hsx_arg_data(hsx_call *c, const char *key, const char *key_b64, const uint8_t **data,
                 uint32_t *len)
{
    hsx_cbor_item item;
    int base64 = 0;
    if (!hsx_cbor_map_get(c->req, c->len, key, &item) || item.type == HSX_CBOR_NULL) {
        if (!key_b64 || !hsx_cbor_map_get(c->req, c->len, key_b64, &item) ||
            item.type == HSX_CBOR_NULL)
            return 0;
        key = key_b64;
        base64 = 1;
    }
    if (item.type == HSX_CBOR_BYTES) {
        *data = item.data;
        *len = (uint32_t)item.value;
        return 1;
    }
    if (item.type != HSX_CBOR_TEXT || decode_text(item.data, (uint32_t)item.value, base64, len) < 0)
        return hsx_bad_type(c, key, base64 ? "base64 bytes" : "bytes, or hex text such as \"01ff\"");
    *data = item.data;
    return 1;
}

int hsx_arg_task(hsx_call *c, hsx_task_info *info)
{
    uint32_t pid = 0;
    if (hsx_required(c, hsx_arg_u32(c, "pid", &pid, 0, UINT32_MAX), "pid") < 0)
        return -1;
    return hsx_fail_status(c, hsx_exec_task(pid, info), pid);
}

int hsx_refuse_symbolic(hsx_call *c, const char *key)
{
    return hsx_fail(c, "bad_argument", "'", key, "' names a symbol or a source line: the host "
                    "resolves those (hsx.client's gateway does); send an address", NULL);
}

