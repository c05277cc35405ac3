/* HSX VM core: decoder and dispatch loop (see hsx_vm.h).
 *
 * Code is decoded once into hsx_insn records; `execute` runs one of them and reports
 * anything that is not a plain retire as an event, having changed nothing (faults) or
 * nothing yet (SVC, BRK, return from the entry frame), so the run loop and the
 * interleaved round robin decide what happens next. Breakpoints replace a record's
 * handler, so an unhit breakpoint costs nothing.
 */
#include "hsx_vm.h"
#include "hsx_f16.h"
#include "hsx_fp.h"

/* Handlers beyond the opcode numbers (opcodes are 0x00..0xFF). */
enum {
    HSX_H_ILLEGAL = 0x100,  /* not an instruction */
    HSX_H_OFF_END,          /* the entry after the last code word */
    HSX_H_LITERAL,          /* LDI32 whose literal word is missing */
    HSX_H_BREAKPOINT,       /* stop before `saved` runs */
    HSX_H_GUARD_SP          /* writes R15: checked against the stack bounds after */
};

/* hsx_insn.flags */
#define HSX_I_TARGET_BAD 1u     /* the static target is not an instruction address */
#define HSX_I_DYNAMIC 2u        /* CALL through a register (rs1 != 0) */

enum { EV_NONE, EV_SVC, EV_BRK, EV_RETURNED, EV_FAULT };

/* `execute` is inlined into the run loops (a function call per instruction would cost a
 * third of the time); the rare SP-guarded instructions go through one out-of-line copy. */
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__)
#define HSX_HOT static inline __attribute__((always_inline))
#define HSX_COLD static __attribute__((noinline))
#else
#define HSX_HOT static inline
#define HSX_COLD static
#endif

#define Z_FLAG 1u
#define C_FLAG 2u
#define N_FLAG 4u
#define V_FLAG 8u

/* ---- decoding ------------------------------------------------------------------- */

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

static uint32_t word_at(const uint8_t *code, uint32_t index)
{
    const uint8_t *p = code + 4 * index;
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static int valid_target(uint32_t target, uint32_t code_len)
{
    return !(target & 3u) && target < code_len;
}

/* Decode code word `i` (i == code_len / 4: the entry that runs off the end). */
static void decode_one(const uint8_t *code, uint32_t code_len, uint32_t i, hsx_insn *in)
{
    uint32_t word, pc = 4 * i, words = code_len / 4;
    struct opcode_info info;
    const struct form_info *form;
    in->imm = in->target = 0;
    in->flags = in->rd = in->rs1 = in->rs2 = in->opcode = in->saved = 0;
    in->size = 4;
    if (i == words) {
        in->handler = HSX_H_OFF_END;
        return;
    }
    word = word_at(code, i);
    info = opcode_info(word >> 24);
    if (!info.known) {
        in->handler = HSX_H_ILLEGAL;
        in->imm = word;
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
        in->handler = HSX_H_ILLEGAL;
        in->imm = word;
        in->opcode = 0;
        return;
    }
    switch (form->imm) {
    case HSX_IMM_S12:
        in->imm = (word & 0x800u) ? (word & 0xFFFu) | 0xFFFFF000u : word & 0xFFFu;
        break;
    case HSX_IMM_U12: in->imm = word & 0xFFFu; break;
    case HSX_IMM_BYTE: in->imm = word & 0xFFu; break;
    case HSX_IMM_REL24:
        in->imm = (word & 0x800000u) ? (word & 0xFFFFFFu) | 0xFF000000u : word & 0xFFFFFFu;
        break;
    case HSX_IMM_LITERAL:
        in->imm = i + 1 < words ? word_at(code, i + 1) : 0;
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
        && !valid_target(in->target, code_len))
        in->flags |= HSX_I_TARGET_BAD;
    if (form->rd && in->handler == in->opcode
        && (in->rd == HSX_SP_REGISTER || ((info.pairs & 1) && in->rd == HSX_SP_REGISTER - 1)))
        in->handler = HSX_H_GUARD_SP;
}

int hsx_decode(const uint8_t *code, uint32_t code_len, hsx_insn *out)
{
    uint32_t i;
    if (code_len == 0 || code_len % 4)
        return -1;
    for (i = 0; i <= code_len / 4; i++)
        decode_one(code, code_len, i, &out[i]);
    return 0;
}

/* The record of the instruction at pc: pre-decoded, or (HSX_DECODE_AT_FETCH, for
 * targets whose RAM cannot hold a decoded copy of the code) decoded now from the code
 * bytes, with breakpoints taken from the task's bitmap. */
#ifdef HSX_DECODE_AT_FETCH
#define FETCH(t, pc, slot) fetch(t, pc, slot)
static inline const hsx_insn *fetch(const hsx_task *t, uint32_t pc, hsx_insn *slot)
{
    uint32_t i = pc >> 2;
    decode_one(t->code_bytes, t->code_len, i, slot);
    if (t->breakpoints && i < t->code_len / 4 && (t->breakpoints[i >> 3] >> (i & 7)) & 1) {
        slot->saved = slot->handler;
        slot->handler = HSX_H_BREAKPOINT;
    }
    return slot;
}
#else
#define FETCH(t, pc, slot) ((void)(slot), &(t)->code[(pc) >> 2])
#endif

/* ---- memory: little-endian, any alignment ----------------------------------------- */

static inline uint32_t ld32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void st32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

#define REG(i) ld32(regs + 4 * (i))
#define SET(i, v) st32(regs + 4 * (i), (v))
#define REG64(i) ((uint64_t)REG(i) | ((uint64_t)REG((i) + 1) << 32))
#define SET64(i, v) st64(regs + 4 * (i), (v))

/* A pair result: computed once, then stored (low word first). */
static inline void st64(uint8_t *p, uint64_t v)
{
    st32(p, (uint32_t)v);
    st32(p + 4, (uint32_t)(v >> 32));
}

/* ---- one instruction ---------------------------------------------------------------- */

static inline int fault(hsx_task *t, uint32_t kind, int64_t addr, uint32_t detail)
{
    t->fault = kind;
    t->fault_addr = addr;
    t->fault_detail = detail;
    return EV_FAULT;
}

static inline uint32_t zn(uint32_t r)
{
    return (r == 0 ? Z_FLAG : 0) | ((r >> 29) & N_FLAG);
}

static inline uint32_t add_flags(uint32_t x, uint32_t y, uint64_t s)
{
    uint32_t r = (uint32_t)s;
    return zn(r) | ((uint32_t)(s >> 31) & C_FLAG) | ((((x ^ r) & (y ^ r)) >> 28) & V_FLAG);
}

static inline uint32_t sub_flags(uint32_t x, uint32_t y, int64_t t)
{
    uint32_t r = (uint32_t)t;
    return zn(r) | (t >= 0 ? C_FLAG : 0) | ((((x ^ y) & (x ^ r)) >> 28) & V_FLAG);
}

/* Branch condition of a conditional branch opcode over PSW p. */
HSX_HOT int condition(uint32_t op, uint32_t p)
{
    uint32_t z = p & Z_FLAG, c = p & C_FLAG, lt = ((p >> 2) ^ (p >> 3)) & 1;
    switch (op) {
    case 0x22: case 0x70: return z != 0;            /* JZ, BEQ */
    case 0x23: case 0x71: return z == 0;            /* JNZ, BNE */
    case 0x72: return lt;                           /* BLT */
    case 0x73: return !lt;                          /* BGE */
    case 0x74: return !z && !lt;                    /* BGT */
    case 0x75: return z || lt;                      /* BLE */
    case 0x76: return !c;                           /* BLTU */
    case 0x77: return c != 0;                       /* BGEU */
    case 0x78: return c && !z;                      /* BGTU */
    default: return !c || z;                        /* BLEU */
    }
}

#define MEMORY_CHECK(width)                                                         \
    ea = REG(in->rs1) + in->imm;                                                    \
    if (ea < 0x100u || (uint64_t)ea > t->mem_size - (width))                        \
        return fault(t, HSX_FAULT_MEMORY, ea, (width))

#define STACK_CHECK(sp)                                                             \
    if ((sp) < (int64_t)t->stack_base || (sp) > (int64_t)t->stack_top - 4)          \
        return fault(t, HSX_FAULT_STACK, (sp), 0)

#define TARGET_CHECK(target)                                                        \
    if (!valid_target((target), t->code_len))                                       \
        return fault(t, HSX_FAULT_PC, (target), 0)

HSX_COLD int guard_sp(hsx_task *t, const hsx_insn *in, uint32_t pc, uint32_t *npc,
                      uint32_t *psw);

/* Execute the instruction `in` at `pc` with handler `op`; on EV_NONE *npc is the next
 * pc. Any other event has changed nothing. */
HSX_HOT int execute(hsx_task *t, const hsx_insn *in, uint32_t op, uint32_t pc,
                    uint32_t *npc, uint32_t *psw)
{
    uint8_t *mem = t->mem, *regs = t->mem + t->reg_base;
    uint32_t x, y, r, ea, sh, target;
    uint64_t s;
    int64_t sp, d;
    *npc = pc + in->size;
    switch (op) {
    /* data movement */
    case 0x01: case 0x60: SET(in->rd, in->imm); return EV_NONE;         /* LDI, LDI32 */
    case 0x04: SET(in->rd, REG(in->rs1)); return EV_NONE;                 /* MOV */
    /* memory */
    case 0x02: MEMORY_CHECK(4); SET(in->rd, ld32(mem + ea)); return EV_NONE;     /* LD */
    case 0x06: MEMORY_CHECK(1); SET(in->rd, mem[ea]); return EV_NONE;            /* LDB */
    case 0x0A: MEMORY_CHECK(1);                                                   /* LDBS */
        x = mem[ea];
        SET(in->rd, (x & 0x80u) ? x | 0xFFFFFF00u : x);
        return EV_NONE;
    case 0x07: MEMORY_CHECK(2); SET(in->rd, mem[ea] | ((uint32_t)mem[ea + 1] << 8));  /* LDH */
        return EV_NONE;
    case 0x0B: MEMORY_CHECK(2);                                                   /* LDHS */
        x = mem[ea] | ((uint32_t)mem[ea + 1] << 8);
        SET(in->rd, (x & 0x8000u) ? x | 0xFFFF0000u : x);
        return EV_NONE;
    case 0x03: MEMORY_CHECK(4); st32(mem + ea, REG(in->rs2)); return EV_NONE;   /* ST */
    case 0x08: MEMORY_CHECK(1); mem[ea] = (uint8_t)REG(in->rs2); return EV_NONE; /* STB */
    case 0x09: MEMORY_CHECK(2);                                                   /* STH */
        x = REG(in->rs2);
        mem[ea] = (uint8_t)x;
        mem[ea + 1] = (uint8_t)(x >> 8);
        return EV_NONE;
    /* arithmetic with flags; the immediate forms take y from imm */
    case 0x10: case 0x36:                                                     /* ADD, ADDI */
        x = REG(in->rs1); y = op == 0x10 ? REG(in->rs2) : in->imm;
        s = (uint64_t)x + y;
        SET(in->rd, (uint32_t)s); *psw = add_flags(x, y, s); return EV_NONE;
    case 0x34:                                                                /* ADC */
        x = REG(in->rs1); y = REG(in->rs2);
        s = (uint64_t)x + y + ((*psw >> 1) & 1);
        SET(in->rd, (uint32_t)s); *psw = add_flags(x, y, s); return EV_NONE;
    case 0x11: case 0x20: case 0x3D:                                          /* SUB, CMP, CMPI */
        x = REG(in->rs1); y = op == 0x3D ? in->imm : REG(in->rs2);
        d = (int64_t)x - (int64_t)y;
        if (op == 0x11) SET(in->rd, (uint32_t)d);
        *psw = sub_flags(x, y, d); return EV_NONE;
    case 0x35:                                                                /* SBC */
        x = REG(in->rs1); y = REG(in->rs2);
        d = (int64_t)x - (int64_t)y - 1 + ((*psw >> 1) & 1);
        SET(in->rd, (uint32_t)d); *psw = sub_flags(x, y, d); return EV_NONE;
    case 0x12: case 0x3E:                                                     /* MUL, MULI */
        s = (uint64_t)REG(in->rs1) * (op == 0x12 ? REG(in->rs2) : in->imm);
        r = (uint32_t)s;
        SET(in->rd, r); *psw = zn(r) | ((s >> 32) ? C_FLAG | V_FLAG : 0); return EV_NONE;
    case 0x14: case 0x37: r = REG(in->rs1) & (op == 0x14 ? REG(in->rs2) : in->imm); goto logic;
    case 0x15: case 0x38: r = REG(in->rs1) | (op == 0x15 ? REG(in->rs2) : in->imm); goto logic;
    case 0x16: case 0x39: r = REG(in->rs1) ^ (op == 0x16 ? REG(in->rs2) : in->imm); goto logic;
    case 0x17: r = ~REG(in->rs1); goto logic;                                 /* NOT */
    case 0x1B:                                                                /* MULHU */
        r = (uint32_t)(((uint64_t)REG(in->rs1) * REG(in->rs2)) >> 32); goto logic;
    case 0x1C:                                                                /* MULHS */
        r = (uint32_t)((uint64_t)((int64_t)(int32_t)REG(in->rs1)
                                  * (int64_t)(int32_t)REG(in->rs2)) >> 32);
        goto logic;
    case 0x13: case 0x18: case 0x19: case 0x1A:                               /* DIV DIVU REM REMU */
        y = REG(in->rs2);
        if (!y)
            return fault(t, HSX_FAULT_DIVIDE, 0, 0);
        x = REG(in->rs1);
        if (op == 0x18) r = x / y;
        else if (op == 0x1A) r = x % y;
        else if (x == 0x80000000u && y == 0xFFFFFFFFu) r = op == 0x13 ? x : 0;
        else if (op == 0x13) r = (uint32_t)((int32_t)x / (int32_t)y);
        else r = (uint32_t)((int32_t)x % (int32_t)y);
        goto logic;
    logic:
        SET(in->rd, r); *psw = zn(r); return EV_NONE;
    case 0x31: case 0x32: case 0x33: case 0x3A: case 0x3B: case 0x3C:        /* shifts */
        x = REG(in->rs1);
        sh = (op < 0x3A ? REG(in->rs2) : in->imm) & 31;
        if (!sh) {
            r = x;
            y = *psw & C_FLAG;
        } else if (op == 0x31 || op == 0x3A) {                               /* LSL */
            r = x << sh;
            y = ((x >> (32 - sh)) & 1) << 1;
        } else {
            r = x >> sh;
            if ((op == 0x33 || op == 0x3C) && (x & 0x80000000u))             /* ASR */
                r |= ~(0xFFFFFFFFu >> sh);
            y = ((x >> (sh - 1)) & 1) << 1;
        }
        SET(in->rd, r); *psw = zn(r) | y; return EV_NONE;
    /* control flow */
    case 0x21: case 0x28:                                                     /* JMP, BR */
        if (in->flags & HSX_I_TARGET_BAD)
            return fault(t, HSX_FAULT_PC, in->target, 0);
        *npc = in->target; return EV_NONE;
    case 0x22: case 0x23: case 0x70: case 0x71: case 0x72: case 0x73: case 0x74:
    case 0x75: case 0x76: case 0x77: case 0x78: case 0x79:                    /* conditional */
        if (condition(op, *psw)) {
            if (in->flags & HSX_I_TARGET_BAD)
                return fault(t, HSX_FAULT_PC, in->target, 0);
            *npc = in->target;
        }
        return EV_NONE;
    case 0x24: case 0x29: case 0x27:                                          /* CALL LCALL CALLR */
        if (op == 0x27) {
            target = REG(in->rs1);
            TARGET_CHECK(target);
        } else if (in->flags & HSX_I_DYNAMIC) {
            target = REG(in->rs1) + 4 * in->imm;
            TARGET_CHECK(target);
        } else {
            if (in->flags & HSX_I_TARGET_BAD)
                return fault(t, HSX_FAULT_PC, in->target, 0);
            target = in->target;
        }
        sp = (int64_t)REG(HSX_SP_REGISTER) - 4;
        STACK_CHECK(sp);
        st32(mem + sp, pc + in->size);
        SET(HSX_SP_REGISTER, (uint32_t)sp);
        *npc = target; return EV_NONE;
    case 0x26:                                                                /* JMPR */
        target = REG(in->rs1);
        TARGET_CHECK(target);
        *npc = target; return EV_NONE;
    case 0x25:                                                                /* RET */
        sp = REG(HSX_SP_REGISTER);
        if (sp == t->stack_top)
            return EV_RETURNED;
        STACK_CHECK(sp);
        target = ld32(mem + sp);
        TARGET_CHECK(target);
        SET(HSX_SP_REGISTER, (uint32_t)sp + 4);
        *npc = target; return EV_NONE;
    /* stack */
    case 0x40:                                                                /* PUSH */
        x = REG(in->rs1);
        sp = (int64_t)REG(HSX_SP_REGISTER) - 4;
        STACK_CHECK(sp);
        st32(mem + sp, x);
        SET(HSX_SP_REGISTER, (uint32_t)sp);
        return EV_NONE;
    case 0x41:                                                                /* POP */
        sp = REG(HSX_SP_REGISTER);
        STACK_CHECK(sp);
        x = ld32(mem + sp);
        SET(HSX_SP_REGISTER, (uint32_t)sp + 4);
        SET(in->rd, x);
        return EV_NONE;
    /* system */
    case 0x30: return EV_SVC;
    case 0x7F: return EV_BRK;
    /* half-precision float */
    case 0x50: r = hsx_f16_add(REG(in->rs1), REG(in->rs2)); goto f16;
    case 0x51: r = hsx_f16_sub(REG(in->rs1), REG(in->rs2)); goto f16;
    case 0x52: r = hsx_f16_mul(REG(in->rs1), REG(in->rs2)); goto f16;
    case 0x53: r = hsx_f16_div(REG(in->rs1), REG(in->rs2)); goto f16;
    case 0x54: r = hsx_int_to_f16(REG(in->rs1)); goto f16;
    f16:
        SET(in->rd, (REG(in->rd) & 0xFFFF0000u) | r); return EV_NONE;
    case 0x55: SET(in->rd, hsx_f16_to_int(REG(in->rs1))); return EV_NONE;   /* F2I */
    /* binary32 and binary64 (hsx_fp.c) */
    case 0x80: SET(in->rd, hsx_fadds(REG(in->rs1), REG(in->rs2))); return EV_NONE;
    case 0x81: SET(in->rd, hsx_fsubs(REG(in->rs1), REG(in->rs2))); return EV_NONE;
    case 0x82: SET(in->rd, hsx_fmuls(REG(in->rs1), REG(in->rs2))); return EV_NONE;
    case 0x83: SET(in->rd, hsx_fdivs(REG(in->rs1), REG(in->rs2))); return EV_NONE;
    case 0x84: *psw = hsx_fcmps(REG(in->rs1), REG(in->rs2)); return EV_NONE;
    case 0x88: SET64(in->rd, hsx_dadd(REG64(in->rs1), REG64(in->rs2))); return EV_NONE;
    case 0x89: SET64(in->rd, hsx_dsub(REG64(in->rs1), REG64(in->rs2))); return EV_NONE;
    case 0x8A: SET64(in->rd, hsx_dmul(REG64(in->rs1), REG64(in->rs2))); return EV_NONE;
    case 0x8B: SET64(in->rd, hsx_ddiv(REG64(in->rs1), REG64(in->rs2))); return EV_NONE;
    case 0x8C: *psw = hsx_dcmp(REG64(in->rs1), REG64(in->rs2)); return EV_NONE;
    case 0x90: SET64(in->rd, hsx_s2d(REG(in->rs1))); return EV_NONE;
    case 0x91: SET(in->rd, hsx_d2s(REG64(in->rs1))); return EV_NONE;
    case 0x92: SET(in->rd, hsx_i2s((int64_t)(int32_t)REG(in->rs1))); return EV_NONE;
    case 0x93: SET(in->rd, hsx_i2s((int64_t)REG(in->rs1))); return EV_NONE;
    case 0x94: SET(in->rd, (uint32_t)hsx_s2int(REG(in->rs1), 32, 1)); return EV_NONE;
    case 0x95: SET(in->rd, (uint32_t)hsx_s2int(REG(in->rs1), 32, 0)); return EV_NONE;
    case 0x96: SET64(in->rd, hsx_i2d((int64_t)(int32_t)REG(in->rs1))); return EV_NONE;
    case 0x97: SET64(in->rd, hsx_i2d((int64_t)REG(in->rs1))); return EV_NONE;
    case 0x98: SET(in->rd, (uint32_t)hsx_d2int(REG64(in->rs1), 32, 1)); return EV_NONE;
    case 0x99: SET(in->rd, (uint32_t)hsx_d2int(REG64(in->rs1), 32, 0)); return EV_NONE;
    case 0x9A: SET64(in->rd, hsx_i2d((int64_t)REG64(in->rs1))); return EV_NONE;
    case 0x9B: SET64(in->rd, hsx_u2d(REG64(in->rs1))); return EV_NONE;
    case 0x9C: SET64(in->rd, hsx_d2int(REG64(in->rs1), 64, 1)); return EV_NONE;
    case 0x9D: SET64(in->rd, hsx_d2int(REG64(in->rs1), 64, 0)); return EV_NONE;
    case 0x9E: SET(in->rd, hsx_i2s((int64_t)REG64(in->rs1))); return EV_NONE;
    case 0x9F: SET(in->rd, hsx_u2s(REG64(in->rs1))); return EV_NONE;
    case 0xA0: SET64(in->rd, hsx_s2int(REG(in->rs1), 64, 1)); return EV_NONE;
    case 0xA1: SET64(in->rd, hsx_s2int(REG(in->rs1), 64, 0)); return EV_NONE;
    /* 64-bit integers */
    case 0xA8: SET64(in->rd, REG64(in->rs1) * REG64(in->rs2)); return EV_NONE;
    case 0xA9: case 0xAA: case 0xAB: case 0xAC: {
        uint64_t a64 = REG64(in->rs1), b64 = REG64(in->rs2), q;
        if (!b64)
            return fault(t, HSX_FAULT_DIVIDE, 0, 0);
        if (op == 0xAA) q = a64 / b64;
        else if (op == 0xAC) q = a64 % b64;
        else if (a64 == 0x8000000000000000ull && b64 == 0xFFFFFFFFFFFFFFFFull)
            q = op == 0xA9 ? a64 : 0;
        else if (op == 0xA9) q = (uint64_t)((int64_t)a64 / (int64_t)b64);
        else q = (uint64_t)((int64_t)a64 % (int64_t)b64);
        SET64(in->rd, q);
        return EV_NONE;
    }
    /* specials */
    case HSX_H_GUARD_SP: return guard_sp(t, in, pc, npc, psw);
    case HSX_H_ILLEGAL: return fault(t, HSX_FAULT_ILLEGAL, 0, in->imm);
    case HSX_H_LITERAL: return fault(t, HSX_FAULT_LITERAL, (int64_t)pc + 4, 0);
    case HSX_H_OFF_END: return fault(t, HSX_FAULT_OFF_END, t->code_len, 0);
    default: return fault(t, HSX_FAULT_ILLEGAL, 0, 0);     /* see hsx_implements */
    }
}

/* An instruction writing R15 (SP): a value outside [stack_base, stack_top] faults and
 * undoes it (it can only have changed R15, R14 for a pair result, and PSW). */
HSX_COLD int guard_sp(hsx_task *t, const hsx_insn *in, uint32_t pc, uint32_t *npc,
                      uint32_t *psw)
{
    uint8_t *regs = t->mem + t->reg_base;
    uint32_t old_r14 = REG(HSX_SP_REGISTER - 1), old_sp = REG(HSX_SP_REGISTER);
    uint32_t old_psw = *psw, now;
    int ev = execute(t, in, in->opcode, pc, npc, psw);
    now = REG(HSX_SP_REGISTER);
    if (ev == EV_NONE && (now < t->stack_base || now > t->stack_top)) {
        SET(HSX_SP_REGISTER - 1, old_r14);     /* a pair result wrote R14 too */
        SET(HSX_SP_REGISTER, old_sp);
        *psw = old_psw;
        return fault(t, HSX_FAULT_SP, now, 0);
    }
    return ev;
}

/* ---- the run loop ------------------------------------------------------------------ */

int hsx_run(hsx_task *t, uint32_t budget)
{
    hsx_insn slot;
    uint32_t pc = t->pc, psw = t->psw, n = budget, npc = pc;
    int skip = t->skip_breakpoint == pc, reason = HSX_STOP_BUDGET;
    t->skip_breakpoint = HSX_NO_SKIP;
    t->fault = HSX_FAULT_NONE;
    while (n) {
        const hsx_insn *in = FETCH(t, pc, &slot);
        uint32_t op = in->handler;
        int ev;
        if (op == HSX_H_BREAKPOINT) {
            if (!skip) {
                t->skip_breakpoint = pc;
                reason = HSX_STOP_BREAKPOINT;
                break;
            }
            op = in->saved;
        }
        skip = 0;
        ev = execute(t, in, op, pc, &npc, &psw);
        if (ev == EV_NONE) {
            pc = npc;
            n--;
            continue;
        }
        if (ev == EV_FAULT) {
            reason = HSX_STOP_FAULT;
            break;
        }
        n--;                                    /* SVC, BRK and RET retire */
        t->stop_pc = pc;
        if (ev == EV_SVC) {
            t->svc_module = (in->imm >> 8) & 0xF;
            t->svc_function = in->imm & 0xFF;
            pc = npc;
            reason = HSX_STOP_SVC;
        } else if (ev == EV_BRK) {
            t->brk_code = in->imm;
            pc = npc;
            reason = HSX_STOP_BRK;
        } else {
            reason = HSX_STOP_RETURNED;
        }
        t->pc = pc;
        t->psw = psw;
        t->executed = budget - n;
        t->steps += budget - n;
        return reason;
    }
    t->stop_pc = pc;
    t->pc = pc;
    t->psw = psw;
    t->executed = budget - n;
    t->steps += budget - n;
    return reason;
}

uint32_t hsx_run_interleaved(hsx_task *const *tasks, uint32_t count, uint32_t rounds,
                             int32_t *stopped)
{
    uint32_t done, i;
    for (done = 0; done < rounds; done++) {
        for (i = 0; i < count; i++) {
            hsx_task *t = tasks[i];
            hsx_insn slot;
            const hsx_insn *in = FETCH(t, t->pc, &slot);
            uint32_t npc;
            if (in->handler == HSX_H_BREAKPOINT
                || execute(t, in, in->handler, t->pc, &npc, &t->psw) != EV_NONE) {
                *stopped = (int32_t)i;
                return done;
            }
            t->pc = npc;
            t->steps++;
        }
    }
    *stopped = -1;
    return done;
}

int hsx_breakpoint(hsx_task *t, uint32_t addr, int on)
{
    if (addr & 3u || addr >= t->code_len)
        return -1;
#ifdef HSX_DECODE_AT_FETCH
    if (!t->breakpoints)
        return -1;
    if (on)
        t->breakpoints[addr >> 5] |= (uint8_t)(1u << ((addr >> 2) & 7));
    else
        t->breakpoints[addr >> 5] &= (uint8_t)~(1u << ((addr >> 2) & 7));
#else
    {
        hsx_insn *in = &t->code[addr >> 2];
        if (on && in->handler != HSX_H_BREAKPOINT) {
            in->saved = in->handler;
            in->handler = HSX_H_BREAKPOINT;
        } else if (!on && in->handler == HSX_H_BREAKPOINT) {
            in->handler = in->saved;
        }
    }
#endif
    return 0;
}

int hsx_implements(uint32_t code)
{
    hsx_insn in;
    hsx_task t;
    uint8_t mem[0x200];
    uint32_t npc, psw = 0, i;
    /* An opcode is implemented when executing it does not fall to the default case
     * (an illegal-instruction fault, which no implemented opcode raises): run it once
     * on a scratch task. */
    if (!opcode_info(code).known)
        return 0;
    for (i = 0; i < sizeof mem; i++)
        mem[i] = 0;
    t.mem = mem;
    t.mem_size = sizeof mem;
    t.code_len = 0x100;
    t.reg_base = 0x1C0;
    t.stack_base = 0x100;
    t.stack_top = 0x1B0;
    t.fault = HSX_FAULT_NONE;
    st32(mem + 0x1C0 + 4 * HSX_SP_REGISTER, 0x1B0);
    st32(mem + 0x1C0 + 4 * 2, 1);               /* a non-zero divisor in R2 */
    in.imm = 0x100;
    in.target = 0;
    in.handler = in.opcode = (uint8_t)code;
    in.flags = 0;
    in.rd = 1;
    in.rs1 = 0;
    in.rs2 = 2;
    in.size = 4;
    in.saved = 0;
    return !(execute(&t, &in, code, 0, &npc, &psw) == EV_FAULT
             && t.fault == HSX_FAULT_ILLEGAL);
}

uint32_t hsx_abi(void) { return HSX_VM_ABI; }
uint32_t hsx_sizeof_task(void) { return (uint32_t)sizeof(hsx_task); }
uint32_t hsx_sizeof_insn(void) { return (uint32_t)sizeof(hsx_insn); }
