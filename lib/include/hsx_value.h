/* hsx_value.h: the value registry (SVC module 0x07) and `.value` metadata from C. */
#ifndef _HSX_VALUE_H
#define _HSX_VALUE_H
#include <hsx_sys.h>

#define HSX_VAL_FN_REGISTER 0x00
#define HSX_VAL_FN_LOOKUP 0x01
#define HSX_VAL_FN_GET 0x02
#define HSX_VAL_FN_SET 0x03
#define HSX_VAL_FN_LIST 0x04
#define HSX_VAL_FN_SUB 0x05
#define HSX_VAL_FN_PERSIST 0x06

#define HSX_VAL_FLAG_RO 0x01
#define HSX_VAL_FLAG_PERSIST 0x02
#define HSX_VAL_FLAG_STICKY 0x04
#define HSX_VAL_FLAG_PIN 0x08
#define HSX_VAL_FLAG_BOOL 0x10

#define HSX_VAL_STATUS_OK 0
#define HSX_VAL_STATUS_ENOENT 1
#define HSX_VAL_STATUS_EPERM 2
#define HSX_VAL_STATUS_ENOSPC 3
#define HSX_VAL_STATUS_EINVAL 4
#define HSX_VAL_STATUS_EEXIST 5
#define HSX_VAL_STATUS_EBUSY 6

/* Declare a value in the image's metadata, e.g.
 *   HSX_VALUE(1, 2, "temperature", 21.5);                                        */
#define HSX_VALUE(group, id, name, init) \
    __asm__(".value {\"group\": " #group ", \"id\": " #id ", \"name\": \"" name \
            "\", \"init\": " #init "}")
/* Any `.value` record written as JSON text (flags, unit, min/max, persist, ...). */
#define HSX_VALUE_JSON(json) __asm__(".value " json)

/* OID = group << 8 | id. */
static inline unsigned hsx_val_oid(unsigned group, unsigned id) { return (group << 8) | id; }

static inline unsigned hsx_val_lookup(unsigned group, unsigned id, unsigned *oid) {
    unsigned status, r1;
    __asm__ volatile(HSX_SVC_TEXT(7, 1) : "=r"(status), "=r"(r1) : "r"(group), "r"(id)
                     : "memory");
    if (oid) *oid = r1;
    return status;
}

/* Values are IEEE binary16 (f16) numbers: these convert to and from float (rounding
 * to nearest, ties to even; out-of-range floats become infinities). */
static inline float hsx_f16_to_float(unsigned short bits) {
    __fp16 h;
    __builtin_memcpy(&h, &bits, sizeof h);
    return (float)h;
}

static inline unsigned short hsx_float_to_f16(float value) {
    __fp16 h = (__fp16)value;
    unsigned short bits;
    __builtin_memcpy(&bits, &h, sizeof bits);
    return bits;
}

/* GET returns the f16 bits of the value in R0 (or a status: see the reference). */
static inline unsigned hsx_val_get_raw(unsigned oid) { return HSX_SVC1(7, 2, oid); }

static inline unsigned hsx_val_set_raw(unsigned oid, unsigned f16_bits, unsigned flags) {
    return HSX_SVC3(7, 3, oid, f16_bits, flags);
}

/* The value as a float in *out; returns the status (HSX_VAL_STATUS_OK = 0). */
static inline unsigned hsx_val_get(unsigned oid, float *out) {
    unsigned bits, status;
    __asm__ volatile(HSX_SVC_TEXT(7, 2) : "=r"(bits), "=r"(status) : "r"(oid) : "memory");
    if (status == HSX_VAL_STATUS_OK && out)
        *out = hsx_f16_to_float((unsigned short)bits);
    return status;
}

/* Set the value (rounded to f16); returns the status.  A finite `value` too large for
 * an f16 (beyond +-65504 once rounded) is HSX_VAL_STATUS_EINVAL, not an infinity. */
static inline unsigned hsx_val_set(unsigned oid, float value) {
    if ((value >= 65520.0f || value <= -65520.0f) && value - value == 0.0f)
        return HSX_VAL_STATUS_EINVAL;
    return hsx_val_set_raw(oid, hsx_float_to_f16(value), 0);
}

static inline unsigned hsx_val_sub(unsigned oid, const char *mailbox, unsigned *handle) {
    unsigned status, h;
    __asm__ volatile(HSX_SVC_TEXT(7, 5) : "=r"(status), "=r"(h) : "r"(oid), "r"(mailbox),
                     "r"(0) : "memory");
    if (handle) *handle = h;
    return status;
}

static inline unsigned hsx_val_persist(unsigned oid, unsigned mode) {
    return HSX_SVC2(7, 6, oid, mode);
}
#endif
