/* HSX C executive: the protocol's one pool of keys and words (hsx_keys.h).
 *
 * The pool is a struct of length-prefixed strings in the order of enum hsx_key, so the
 * compiler lays them out back to back (every member is bytes: no padding) and the
 * texts are written once. Finding a key's text walks the lengths from the start: a few
 * hundred steps at most, which costs less than a table of offsets would in flash.
 */
#include "hsx_keys.h"

/* The texts are not NUL-terminated: their length comes first. */
#if defined(__GNUC__) || defined(__clang__)
#define NONSTRING __attribute__((nonstring))
#else
#define NONSTRING
#endif
#define POOL_K(name) struct { uint8_t n; char t[sizeof #name - 1] NONSTRING; } name;
#define POOL_S(name, text) struct { uint8_t n; char t[sizeof text - 1] NONSTRING; } name;
#define POOL_R(name, form) POOL_K(name)
#define TEXT_K(name) {sizeof #name - 1, #name},
#define TEXT_S(name, text) {sizeof text - 1, text},
#define TEXT_R(name, form) TEXT_K(name)
#define FORM_R(name, form) form,

static const struct pool {
    HSX_REQUEST_KEYS(POOL_R)
    HSX_COMMAND_KEYS(POOL_K, POOL_S)
    HSX_REPLY_KEYS(POOL_K, POOL_S)
} pool = {
    HSX_REQUEST_KEYS(TEXT_R)
    HSX_COMMAND_KEYS(TEXT_K, TEXT_S)
    HSX_REPLY_KEYS(TEXT_K, TEXT_S)
};

const uint8_t hsx_arg_forms[HSX_ARGS] = {HSX_REQUEST_KEYS(FORM_R)};

const uint8_t *hsx_key(unsigned id)
{
    const uint8_t *p = (const uint8_t *)&pool;
    while (id--)
        p += 1 + *p;
    return p;
}

int hsx_key_find(const uint8_t *text, uint32_t len, unsigned first, unsigned end)
{
    const uint8_t *p = hsx_key(first);
    for (unsigned id = first; id < end; id++, p += 1 + *p) {
        uint32_t i = 0;
        if (*p != len)
            continue;
        while (i < len && p[1 + i] == text[i])
            i++;
        if (i == len)
            return (int)id;
    }
    return -1;
}
