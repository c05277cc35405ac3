/* HSX VM core, internal: what the decoder (hsx_decode.c) and the run loops (hsx_vm.c)
 * share about a decoded record (hsx_insn). Not part of the API.
 */
#ifndef HSX_DECODE_H
#define HSX_DECODE_H

#include "hsx_vm.h"

/* Handlers beyond the opcode numbers (opcodes are 0x00..0xFF; 0x00 is no opcode, so an
 * all-zero record is one the host left for the core to decode when it first runs). */
#define HSX_H_UNDECODED 0
enum {
    HSX_H_ILLEGAL = 0x100,  /* not an instruction */
    HSX_H_OFF_END,          /* the entry after the last code word */
    HSX_H_LITERAL,          /* LDI32 whose literal word is missing */
    HSX_H_BREAKPOINT,       /* stop before `saved` runs */
    HSX_H_GUARD_SP,         /* writes R15: checked against the stack bounds after */
    HSX_H_COUNT
};

/* Opcode numbers by name (OP_LDI, ...), and the handlers under the same prefix, for
 * hsx_ops.inc's VMCASE. */
#define OP_ENUM(num_, name_, form_, size_, pairs_) OP_##name_ = num_,
enum hsx_op {
    HSX_OPCODES(OP_ENUM)
    OP_H_ILLEGAL = HSX_H_ILLEGAL, OP_H_OFF_END = HSX_H_OFF_END, OP_H_LITERAL = HSX_H_LITERAL,
    OP_H_GUARD_SP = HSX_H_GUARD_SP
};
#undef OP_ENUM

/* hsx_insn.flags */
#define HSX_I_TARGET_BAD 1u     /* the static target is not an instruction address */
#define HSX_I_DYNAMIC 2u        /* CALL through a register (rs1 != 0) */
#define HSX_I_PAIR 4u           /* a compact pair: the record is its second operation, with
                                   the first in `first` (its compact code in
                                   `first_code`); both run at the pair's address */

/* Decode code word `i` of `code` into `in` (i == code_len / 4: the entry that runs off
 * the end). */
void hsx_decode_one(const uint8_t *code, uint32_t code_len, uint32_t i, hsx_insn *in);

/* Non-zero when `code` is an opcode of the table. */
int hsx_opcode_known(uint32_t code);

static inline int hsx_valid_target(uint32_t target, uint32_t code_len)
{
    return !(target & 3u) && target < code_len;
}

/* The ordinary record of pair `in`'s first operation, in `out` (which it returns). */
const hsx_insn *hsx_first_of(const hsx_insn *in, hsx_insn *out);

#endif
