/* HSX VM core: the decoder -- a code word into the record the run loops execute
 * (hsx_insn; hsx_vm.h, hsx_decode.h).
 *
 * A compact pair (a word whose top two bits are 11: two 15-bit operations, docs/isa.md)
 * is decoded by expanding each operation into the instruction word it stands for
 * (hsx.isa.compact.expand) and decoding that as any other, so each runs exactly as its
 * instruction would; the record is the second's, with the first's operands beside.
 */
#include "hsx_decode.h"

#define FORM_ENUM(name_, rd_, rs1_, rs2_, imm_) HSX_FORM_##name_,
enum hsx_form { HSX_FORMS(FORM_ENUM) HSX_FORM_COUNT };
#undef FORM_ENUM

struct form_info { uint8_t rd, rs1, rs2, imm; };
#define FORM_ROW(name_, rd_, rs1_, rs2_, imm_) { rd_, rs1_, rs2_, imm_ },
static const struct form_info FORMS[HSX_FORM_COUNT] = { HSX_FORMS(FORM_ROW) };
#undef FORM_ROW

struct opcode_info { uint8_t known, form, size, pairs; };
static struct opcode_info opcode_info(uint32_t code)
{
    struct opcode_info info = { 0, 0, 4, 0 };
    switch (code) {
#define OPCODE_CASE(num_, name_, form_, size_, pairs_) \
    case num_: info.known = 1; info.form = HSX_FORM_##form_; info.size = size_; \
               info.pairs = pairs_; break;
    HSX_OPCODES(OPCODE_CASE)
#undef OPCODE_CASE
    default: break;
    }
    return info;
}

int hsx_opcode_known(uint32_t code)
{
    return opcode_info(code).known;
}

static uint32_t word_at(const uint8_t *code, uint32_t index)
{
    const uint8_t *p = code + 4 * index;
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Branch conditions as truth tables over the 16 values of PSW's Z, C, N, V bits, so a
 * conditional branch is one table lookup instead of a second dispatch.  Bit p of a
 * mask is the condition for PSW = p (Z = 1, C = 2, N = 4, V = 8; "lt" is N != V). */
#define PSW_BIT(p, cond) ((uint16_t)((cond) ? 1u << (p) : 0u))
#define Z_(p) ((p) & 1u)
#define C_(p) ((p) & 2u)
#define LT_(p) ((((p) >> 2) ^ ((p) >> 3)) & 1u)
#define TRUTH(cond) (PSW_BIT(0, cond(0)) | PSW_BIT(1, cond(1)) | PSW_BIT(2, cond(2))          \
    | PSW_BIT(3, cond(3)) | PSW_BIT(4, cond(4)) | PSW_BIT(5, cond(5)) | PSW_BIT(6, cond(6)) \
    | PSW_BIT(7, cond(7)) | PSW_BIT(8, cond(8)) | PSW_BIT(9, cond(9))                       \
    | PSW_BIT(10, cond(10)) | PSW_BIT(11, cond(11)) | PSW_BIT(12, cond(12))                 \
    | PSW_BIT(13, cond(13)) | PSW_BIT(14, cond(14)) | PSW_BIT(15, cond(15)))
#define EQ_(p) Z_(p)
#define NE_(p) (!Z_(p))
#define GE_(p) (!LT_(p))
#define GT_(p) (!Z_(p) && !LT_(p))
#define LE_(p) (Z_(p) || LT_(p))
#define LTU_(p) (!C_(p))
#define GEU_(p) C_(p)
#define GTU_(p) (C_(p) && !Z_(p))
#define LEU_(p) (!C_(p) || Z_(p))
/* BEQ/JZ, BNE/JNZ, BLT, BGE, BGT, BLE, BLTU, BGEU, BGTU, BLEU */
static const uint16_t BRANCH_TRUTH[10] = {
    TRUTH(EQ_), TRUTH(NE_), TRUTH(LT_), TRUTH(GE_), TRUTH(GT_),
    TRUTH(LE_), TRUTH(LTU_), TRUTH(GEU_), TRUTH(GTU_), TRUTH(LEU_),
};

/* The truth table of a conditional branch's opcode (JZ, JNZ, BEQ..BLEU), which its
 * decoded record keeps in `imm`; 0 for any other opcode. */
static uint32_t branch_truth(uint32_t op)
{
    if (op == OP_JZ || op == OP_JNZ)
        return BRANCH_TRUTH[op - OP_JZ];
    return op >= OP_BEQ && op <= OP_BLEU ? BRANCH_TRUTH[op - OP_BEQ] : 0;
}

/* An instruction's own fields (not a pair's first operation) cleared for decode_word. */
static void clear(hsx_insn *in)
{
    in->imm = in->target = 0;
    in->link = 0;
    in->handler = 0;
    in->flags = in->rd = in->rs1 = in->rs2 = in->opcode = in->saved = 0;
    in->size = 4;
}

static void illegal(hsx_insn *in, uint32_t word)
{
    in->handler = HSX_H_ILLEGAL;
    in->imm = word;
    in->opcode = 0;
}

/* Decode instruction word `word` at pc into the cleared record `in`; `literal` is the
 * word after it (LDI32's). */
static void decode_word(uint32_t word, uint32_t literal, uint32_t pc, uint32_t code_len,
                        hsx_insn *in)
{
    struct opcode_info info = opcode_info(word >> 24);
    const struct form_info *form;
    if (!info.known) {
        illegal(in, word);
        return;
    }
    form = &FORMS[info.form];
    in->opcode = (uint8_t)(word >> 24);
    in->handler = in->opcode;
    in->size = info.size;
    if (form->rd) in->rd = (word >> 20) & 0xF;
    if (form->rs1) in->rs1 = (word >> 16) & 0xF;
    if (form->rs2) in->rs2 = (word >> 12) & 0xF;
    if (((info.pairs & 1) && in->rd == 15) || ((info.pairs & 2) && in->rs1 == 15)
        || ((info.pairs & 4) && in->rs2 == 15)) {    /* a pair cannot start at R15 */
        illegal(in, word);
        return;
    }
    switch (form->imm) {
    case HSX_IMM_S12:
        in->imm = (word & 0x800u) ? (word & 0xFFFu) | 0xFFFFF000u : word & 0xFFFu;
        break;
    case HSX_IMM_U12: in->imm = word & 0xFFFu; break;
    case HSX_IMM_BYTE: in->imm = word & 0xFFu; break;
    case HSX_IMM_S20:
        in->imm = (word & 0x80000u) ? (word & 0xFFFFFu) | 0xFFF00000u : word & 0xFFFFFu;
        break;
    case HSX_IMM_HIGH20: in->imm = (word & 0xFFFFFu) << 12; break;
    case HSX_IMM_REL24:
        in->imm = (word & 0x800000u) ? (word & 0xFFFFFFu) | 0xFF000000u : word & 0xFFFFFFu;
        break;
    case HSX_IMM_LITERAL:
        in->imm = literal;
        if (pc + 8 > code_len)
            in->handler = HSX_H_LITERAL;
        break;
    default: break;
    }
    if (info.form == HSX_FORM_ABS12) {
        in->target = in->imm;
    } else if (info.form == HSX_FORM_REL24
               || (info.form == HSX_FORM_CALL12 && in->rs1 == 0)) {
        in->target = pc + 4 * in->imm;
    } else if (info.form == HSX_FORM_CALL12) {
        in->flags |= HSX_I_DYNAMIC;
    }
    if ((info.form == HSX_FORM_ABS12 || info.form == HSX_FORM_REL24
         || info.form == HSX_FORM_CALL12) && !(in->flags & HSX_I_DYNAMIC)
        && !hsx_valid_target(in->target, code_len))
        in->flags |= HSX_I_TARGET_BAD;
    if (branch_truth(in->opcode))           /* (its offset is in `target` now) */
        in->imm = branch_truth(in->opcode);
    if (form->rd && in->handler == in->opcode
        && (in->rd == HSX_SP_REGISTER || ((info.pairs & 1) && in->rd == HSX_SP_REGISTER - 1)))
        in->handler = HSX_H_GUARD_SP;
    /* The one-word constant loads hold their value in `imm` now: they run as LDI does,
     * superinstructions included. */
    if ((in->opcode == OP_LDI20 || in->opcode == OP_LDIH) && in->handler == in->opcode)
        in->handler = OP_LDI;
}

/* ---- compact pairs ------------------------------------------------------------------- */

/* The compact operations by code (hsx_opcodes.h's HSX_COMPACT): the opcode each stands
 * for, and its operand layout with a scale of 4 and addressing from R14 as flags. */
#define COMPACT_SCALE4 0x10u
#define COMPACT_FRAME 0x20u
struct compact_op { uint8_t opcode, layout; };
#define COMPACT_ROW(code_, name_, layout_, two_address_, scale_, frame_) \
    [code_] = { OP_##name_, HSX_CL_##layout_ | ((scale_) == 4 ? COMPACT_SCALE4 : 0u)  \
                            | ((frame_) ? COMPACT_FRAME : 0u) },
static const struct compact_op COMPACT[32] = { HSX_COMPACT(COMPACT_ROW) };
#undef COMPACT_ROW

/* The operand bits each layout requires to be zero. */
static const uint16_t MUST_BE_ZERO[] = {
    [HSX_CL_RR] = 0x3, [HSX_CL_RI6] = 0, [HSX_CL_RI5] = 0x20, [HSX_CL_RRO] = 0, [HSX_CL_F6] = 0,
    [HSX_CL_R] = 0x3F, [HSX_CL_NONE] = 0x3FF, [HSX_CL_B10] = 0,
};

static int transfers_control(uint32_t layout)
{
    return layout == HSX_CL_NONE || layout == HSX_CL_B10;
}

/* The instruction word that compact operation `half` (its low 15 bits) stands for
 * (hsx.isa.compact.expand), or 0 when it stands for none. Register a (bits 9..6) is the
 * data register: rd, or rs2 for a store; rs1 is R14 for the frame's loads and stores,
 * b (bits 5..2) for MOV and a base register, else a (two-address, a compare, PUSH); rs2
 * is b otherwise. The decoder reads only the fields the instruction's form has. */
static uint32_t expand(uint32_t half)
{
    const struct compact_op *c = &COMPACT[(half >> 10) & 31];
    uint32_t op = c->opcode, layout = c->layout & 7u, bits = half & 0x3FFu;
    uint32_t a = bits >> 6, b = (bits >> 2) & 0xFu, rs1 = a, rs2 = b, imm = 0;
    uint32_t scale = c->layout & COMPACT_SCALE4 ? 4 : 1;
    if (!op || (bits & MUST_BE_ZERO[layout]))
        return 0;
    if (layout == HSX_CL_B10)           /* a signed word offset, as REL24's */
        return op << 24 | ((bits & 0x200u ? bits | ~0x3FFu : bits) & 0xFFFFFFu);
    if (c->layout & COMPACT_FRAME)
        rs1 = HSX_COMPACT_FRAME_REGISTER;
    else if (layout == HSX_CL_RRO || op == OP_MOV)
        rs1 = b;
    if (op == OP_ST || op == OP_STB)
        rs2 = a;
    if (layout == HSX_CL_RI6)
        imm = (bits & 0x20u ? bits | ~0x3Fu : bits & 0x3Fu) * scale;
    else if (layout == HSX_CL_F6)       /* a frame slot: R14 - scale * (u6 + 1) */
        imm = 0u - ((bits & 0x3Fu) + 1u) * scale;
    else if (layout == HSX_CL_RI5)
        imm = bits & 31u;
    else if (layout == HSX_CL_RRO)
        imm = (bits & 3u) * scale;
    return op << 24 | a << 20 | rs1 << 16 | rs2 << 12 | (imm & 0xFFFu);
}

/* Decode pair word `word` at pc into the cleared record `in`: an illegal instruction
 * unless both operations are, and the first transfers no control. */
static void decode_pair(uint32_t word, uint32_t pc, uint32_t code_len, hsx_insn *in)
{
    uint32_t code = (word >> 25) & 31u, first = expand(word >> 15), second = expand(word);
    hsx_insn decoded;
    if (!first || !second || transfers_control(COMPACT[code].layout & 7u)) {
        illegal(in, word);
        return;
    }
    clear(&decoded);
    decode_word(first, 0, pc, code_len, &decoded);
    decode_word(second, 0, pc, code_len, in);
    /* (the first's fields are read back last: right after decode_word wrote them, the
     * wide loads a host compiler makes of them waited for those stores, twice the time
     * a pair took to decode) */
    in->first.imm = decoded.imm;
    in->first.opcode = decoded.opcode;
    in->first.rd = decoded.rd;
    in->first.rs1 = decoded.rs1;
    in->first.rs2 = decoded.rs2;
    in->flags |= HSX_I_PAIR;
    in->first_code = (uint8_t)code;
    in->second_handler = in->handler == HSX_H_GUARD_SP ? 0 : in->opcode;
}

const hsx_insn *hsx_first_of(const hsx_insn *in, hsx_insn *out)
{
    clear(out);
    out->imm = in->first.imm;
    out->opcode = in->first.opcode;
    out->rd = in->first.rd;
    out->rs1 = in->first.rs1;
    out->rs2 = in->first.rs2;
    /* (it never transfers control, so needs no target; a compact operation names no
     * register pair, and rd is 0 where it has none) */
    out->handler = out->rd == HSX_SP_REGISTER ? HSX_H_GUARD_SP : out->opcode;
    return out;
}

/* ---- code words ---------------------------------------------------------------------- */

void hsx_decode_one(const uint8_t *code, uint32_t code_len, uint32_t i, hsx_insn *in)
{
    uint32_t word, pc = 4 * i, words = code_len / 4;
    clear(in);
    in->first_code = in->second_handler = 0;
    in->first.imm = 0;
    in->first.opcode = in->first.rd = in->first.rs1 = in->first.rs2 = 0;
    if (i == words) {
        in->handler = HSX_H_OFF_END;
        return;
    }
    word = word_at(code, i);
    if (word >> 30 == 3u)
        decode_pair(word, pc, code_len, in);
    else
        decode_word(word, i + 1 < words ? word_at(code, i + 1) : 0, pc, code_len, in);
}

int hsx_decode(const uint8_t *code, uint32_t code_len, hsx_insn *out)
{
    uint32_t i;
    if (code_len == 0 || code_len % 4)
        return -1;
    for (i = 0; i <= code_len / 4; i++)
        hsx_decode_one(code, code_len, i, &out[i]);
    return 0;
}
