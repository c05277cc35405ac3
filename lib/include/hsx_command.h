/* hsx_command.h: the command registry (SVC module 0x08) and `.cmd` metadata from C. */
#ifndef _HSX_COMMAND_H
#define _HSX_COMMAND_H
#include <hsx_sys.h>

#define HSX_CMD_FN_REGISTER 0x00
#define HSX_CMD_FN_LOOKUP 0x01
#define HSX_CMD_FN_CALL 0x02
#define HSX_CMD_FN_CALL_ASYNC 0x03
#define HSX_CMD_FN_HELP 0x04

#define HSX_CMD_FLAG_PIN 0x01
#define HSX_CMD_FLAG_ASYNC 0x02

/* Declare a command whose handler is the C function `handler`, e.g.
 *   __attribute__((used)) static int on_reset(void) { ... }
 *   HSX_COMMAND(16, 1, "reset", on_reset);
 * The handler must be `__attribute__((used))` (or not static): the compiler sees no
 * other reference to it.                                                           */
#define HSX_COMMAND(group, id, name, handler) \
    __asm__(".cmd {\"group\": " #group ", \"id\": " #id ", \"name\": \"" name \
            "\", \"handler\": \"" #handler "\"}")
/* Any `.cmd` record written as JSON text (help, flags, auth, ...). */
#define HSX_COMMAND_JSON(json) __asm__(".cmd " json)

static inline unsigned hsx_cmd_lookup(unsigned group, unsigned id, unsigned *oid) {
    unsigned status, r1;
    __asm__ volatile(HSX_SVC_TEXT(8, 1) : "=r"(status), "=r"(r1) : "r"(group), "r"(id)
                     : "memory");
    if (oid) *oid = r1;
    return status;
}

static inline unsigned hsx_cmd_call(unsigned oid, const char *token, unsigned *result) {
    unsigned status, r1;
    __asm__ volatile(HSX_SVC_TEXT(8, 2) : "=r"(status), "=r"(r1) : "r"(oid), "r"(token),
                     "r"(0) : "memory");
    if (result) *result = r1;
    return status;
}

static inline unsigned hsx_cmd_help(unsigned oid, char *out, unsigned max_length) {
    return HSX_SVC3(8, 4, oid, out, max_length);
}
#endif
