/* HSX VM core: the run loops (see hsx_vm.h; the decoder is hsx_decode.c).
 *
 * Code is decoded once into hsx_insn records; `execute` runs one of them and reports
 * anything that is not a plain retire as an event, having changed nothing (faults) or
 * nothing yet (SVC, BRK, return from the entry frame), so the run loop and the
 * interleaved round robin decide what happens next. Breakpoints replace a record's
 * handler, so an unhit breakpoint costs nothing. A compact pair's record is its second
 * operation's, with its first beside (hsx_decode.h): the first runs, then the record as
 * any other, both at the pair's address (`step`; hsx_run's P_ code).
 */
#include "hsx_decode.h"
#include "hsx_f16.h"
#include "hsx_fp.h"

enum { EV_NONE, EV_SVC, EV_BRK, EV_RETURNED, EV_FAULT };

/* `execute` is inlined into the run loops (a function call per instruction would cost a
 * third of the time); the rare SP-guarded instructions go through one out-of-line copy.
 * With GNU C, hsx_run itself dispatches through a table of label addresses instead (one
 * indirect jump at the end of every instruction predicts far better than the single
 * jump of a switch); the decode-at-fetch build keeps the switch. */
#if defined(__GNUC__) && !defined(HSX_DECODE_AT_FETCH) && !defined(HSX_NO_THREADING)
#define HSX_THREADED 1
#endif
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

/* ---- fetching ---------------------------------------------------------------------- */

#ifndef HSX_DECODE_AT_FETCH
/* The record of code word i, decoded now if the host left it zero. */
static inline hsx_insn *decoded(hsx_task *t, uint32_t i)
{
    hsx_insn *in = &t->code[i];
    if (in->handler == HSX_H_UNDECODED)
        hsx_decode_one(t->code_bytes, t->code_len, i, in);
    return in;
}
#endif

/* The record of the instruction at pc: pre-decoded (or decoded on its first run), or
 * (HSX_DECODE_AT_FETCH, for targets whose RAM cannot hold a decoded copy of the code)
 * decoded now from the code bytes, with breakpoints taken from the task's bitmap. */
#ifdef HSX_DECODE_AT_FETCH
#define FETCH(t, pc, slot) fetch(t, pc, slot)
static inline const hsx_insn *fetch(const hsx_task *t, uint32_t pc, hsx_insn *slot)
{
    uint32_t i = pc >> 2;
    hsx_decode_one(t->code_bytes, t->code_len, i, slot);
    if (t->breakpoints && i < t->code_len / 4 && (t->breakpoints[i >> 3] >> (i & 7)) & 1) {
        slot->saved = slot->handler;
        slot->handler = HSX_H_BREAKPOINT;
    }
    return slot;
}
#else
#define FETCH(t, pc, slot) ((void)(slot), (const hsx_insn *)decoded(t, (pc) >> 2))
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
/* A pair read as two 32-bit loads: its words were usually just written one by one, and
 * a 64-bit load spanning two stores waits for both to retire instead of taking their
 * values from the store buffer (a dozen cycles each time on x86). The empty asm keeps
 * the compiler from merging the two loads into that one. */
static inline uint64_t reg64(const uint8_t *regs, unsigned i)
{
    uint32_t low = REG(i);
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))   /* 64-bit hosts */
    __asm__("" : "+r"(low));
#endif
    return (uint64_t)low | ((uint64_t)REG(i + 1) << 32);
}
#define REG64(i) reg64(regs, (i))
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

/* Does the conditional branch `in` branch with PSW p? (its truth table: branch_truth) */
static inline uint32_t taken(const hsx_insn *in, uint32_t p)
{
    return (in->imm >> (p & 15u)) & 1u;
}

static inline uint32_t zn(uint32_t r)
{
    return (r == 0 ? Z_FLAG : 0) | ((r >> 29) & N_FLAG);
}

/* A product's: Z and N of its low word r; C and V when the high word is not zero. */
static inline uint32_t product_flags(uint32_t r, uint32_t high)
{
    return zn(r) | (high ? C_FLAG | V_FLAG : 0);
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

#define MEMORY_CHECK_AT(base, offset, width)                                        \
    ea = (base) + (offset);                                                         \
    if (ea < 0x100u || (uint64_t)ea > h.mem_size - (width))                         \
        VMRETURN(fault(t, HSX_FAULT_MEMORY, ea, (width)))
#define MEMORY_CHECK(width) MEMORY_CHECK_AT(REG(in->rs1), in->imm, width)

#define STACK_CHECK(sp)                                                             \
    if ((sp) < (int64_t)h.stack_base || (sp) > (int64_t)h.stack_top - 4)            \
        VMRETURN(fault(t, HSX_FAULT_STACK, (sp), 0))

#define TARGET_CHECK(target)                                                        \
    if (!hsx_valid_target((target), h.code_len))                                    \
        VMRETURN(fault(t, HSX_FAULT_PC, (target), 0))

/* What every instruction reads of its task, loaded once per run: a byte store into
 * task memory may alias the task record, so reading these through `t` would reload
 * them after every store (the run loop's `hot` is a local the compiler keeps in
 * registers). */
struct hot {
    uint8_t *mem, *regs;
    uint64_t mem_size;
    uint32_t stack_base, stack_top, code_len;
};

static inline struct hot hot_of(const hsx_task *t)
{
    struct hot h;
    h.mem = t->mem;
    h.regs = t->mem + t->reg_base;
    h.mem_size = t->mem_size;
    h.stack_base = t->stack_base;
    h.stack_top = t->stack_top;
    h.code_len = t->code_len;
    return h;
}

HSX_COLD int guard_sp(hsx_task *t, const hsx_insn *in, uint32_t pc, uint32_t *npc,
                      uint32_t *psw);

/* Execute the instruction `in` at `pc` with handler `op`; on EV_NONE *npc is the next
 * pc. Any other event has changed nothing. */
HSX_HOT int execute(hsx_task *t, const struct hot h, const hsx_insn *in, uint32_t op,
                    uint32_t pc, uint32_t *npc, uint32_t *psw)
{
    uint8_t *mem = h.mem, *regs = h.regs;
    uint32_t x, y, r, ea, sh, target;
    uint64_t s;
    int64_t sp, d;
    *npc = pc + in->size;
    switch (op) {
#define VMCASE(name) case OP_##name:
#define VMNEXT return EV_NONE
#define VMNEXT_WIDE return EV_NONE
#define VMJUMP(addr) do { *npc = (addr); return EV_NONE; } while (0)
#define VMRETURN(ev) return (ev)
#define VMDEFAULT default:
#define PC pc
#define FLAGS (*psw)
#define SET_PSW(v) (*psw = (v))
#define FLAGS_ADD(x, y) (*psw = add_flags((x), (y), (uint64_t)(x) + (y)))
#define FLAGS_SUB(x, y) (*psw = sub_flags((x), (y), (int64_t)(x) - (int64_t)(y)))
#define FLAGS_ZN(r) (*psw = zn(r))
#define FLAGS_PRODUCT(r, high) (*psw = product_flags((r), (high)))
#include "hsx_ops.inc"
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
    int ev = execute(t, hot_of(t), in, in->opcode, pc, npc, psw);
    now = REG(HSX_SP_REGISTER);
    if (ev == EV_NONE && (now < t->stack_base || now > t->stack_top)) {
        SET(HSX_SP_REGISTER - 1, old_r14);     /* a pair result wrote R14 too */
        SET(HSX_SP_REGISTER, old_sp);
        *psw = old_psw;
        return fault(t, HSX_FAULT_SP, now, 0);
    }
    return ev;
}

/* Execute the instruction `in` at pc with handler op, as `execute` does; a compact pair
 * (HSX_I_PAIR) runs its first operation before the record's own, and an event of the
 * first is reported with the second not run. (One call site of `execute`: this is
 * inlined where it is used.) */
HSX_HOT int step(hsx_task *t, const struct hot h, const hsx_insn *in, uint32_t op,
                 uint32_t pc, uint32_t *npc, uint32_t *psw)
{
    hsx_insn first;
    const hsx_insn *part = in;
    uint32_t part_op = op;
    int ev;
    if (in->flags & HSX_I_PAIR) {
        part = hsx_first_of(in, &first);
        part_op = first.handler;
    }
    for (;;) {
        ev = execute(t, h, part, part_op, pc, npc, psw);
        if (ev != EV_NONE || part == in)
            return ev;
        part = in;
        part_op = op;
    }
}

/* ---- the run loop ------------------------------------------------------------------ */

/* The end of a run: the event that stopped it (EV_NONE: the budget ran out) turned into
 * a stop reason, and the state written back. */
static int finish(hsx_task *t, const hsx_insn *in, int ev, int reason, uint32_t pc,
                  uint32_t npc, uint32_t psw, uint32_t executed)
{
    t->stop_pc = pc;
    switch (ev) {
    case EV_FAULT: reason = HSX_STOP_FAULT; break;
    case EV_SVC:
        t->svc_module = (in->imm >> 8) & 0xF;
        t->svc_function = in->imm & 0xFF;
        pc = npc;
        reason = HSX_STOP_SVC;
        break;
    case EV_BRK:
        t->brk_code = in->imm;
        pc = npc;
        reason = HSX_STOP_BRK;
        break;
    case EV_RETURNED: reason = HSX_STOP_RETURNED; break;
    default: break;
    }
    if (ev != EV_NONE && ev != EV_FAULT)
        executed++;                             /* SVC, BRK and RET retire */
    t->pc = pc;
    t->psw = psw;
    t->executed = executed;
    t->steps += executed;
    return reason;
}

#ifndef HSX_THREADED
int hsx_run(hsx_task *t, uint32_t budget)
{
    hsx_insn slot;
    uint32_t pc = t->pc, psw = t->psw, n = budget, npc = pc;
    int skip = t->skip_breakpoint == pc;
    const struct hot h = hot_of(t);
    const hsx_insn *in = 0;
    t->skip_breakpoint = HSX_NO_SKIP;
    t->fault = HSX_FAULT_NONE;
    while (n) {
        uint32_t op;
        int ev;
        in = FETCH(t, pc, &slot);
        op = in->handler;
        if (op == HSX_H_BREAKPOINT) {
            if (!skip) {
                t->skip_breakpoint = pc;
                return finish(t, in, EV_NONE, HSX_STOP_BREAKPOINT, pc, pc, psw, budget - n);
            }
            op = in->saved;
        }
        skip = 0;
        ev = step(t, h, in, op, pc, &npc, &psw);
        if (ev != EV_NONE)
            return finish(t, in, ev, HSX_STOP_BUDGET, pc, npc, psw, budget - n);
        pc = npc;
        n--;
    }
    return finish(t, in, EV_NONE, HSX_STOP_BUDGET, pc, pc, psw, budget);
}
#else
/* The code address of record `in`. */
static inline uint32_t address_of(const hsx_insn *code, const hsx_insn *in)
{
    return (uint32_t)(in - code) << 2;
}

/* The threaded loop's flags: PSW itself, or -- most instructions that set flags have
 * them overwritten before anything reads them -- the operands they come from, worked
 * out when something reads them. A subtraction's flags are those of x + ~y + 1 (the
 * carry is "no borrow", as PSW's C is), a logical result's those of r + 0, so one
 * addition with a carry in covers all three; a product keeps its low and high words. */
enum { FLAGS_SET, FLAGS_OF_SUM, FLAGS_OF_SUM_PLUS_1, FLAGS_OF_PRODUCT };

static inline uint32_t settle(uint32_t *psw, uint32_t *pending, uint32_t x, uint32_t y)
{
    if (*pending == FLAGS_OF_PRODUCT)
        *psw = product_flags(x, y);
    else if (*pending != FLAGS_SET)
        *psw = add_flags(x, y, (uint64_t)x + y + (*pending == FLAGS_OF_SUM_PLUS_1));
    *pending = FLAGS_SET;
    return *psw;
}

/* Superinstructions: a FIRST instruction (one of hsx_ops.inc's BODY_*, and how many
 * words it takes) whose next is a SECOND (what runs a handler: its label L_name in
 * hsx_run, and OP_name) runs both with one dispatch: the first's code, then a direct
 * jump to the second's. Chosen from the pairs the peer workloads
 * (benchmarks/peer_bench.py) run most. */
#define SUPER_FIRSTS(X) X(LDI, 1) X(LDI32, 2) X(MOV, 1) X(LD, 1) X(LDB, 1) X(ST, 1) \
    X(STB, 1) X(ADD, 1) X(ADDI, 1) X(SUB, 1) X(MUL, 1) X(ANDI, 1) X(ORI, 1) X(XOR, 1) \
    X(PUSH, 1) X(POP, 1) X(MUL64, 1) X(DADD, 1) X(DMUL, 1) X(UL2D, 1)
#define SUPER_SECONDS(X, first, words) \
    X(first, words, LDI) X(first, words, LDI32) X(first, words, MOV) X(first, words, LD) \
    X(first, words, LDB) X(first, words, ST) X(first, words, STB) X(first, words, ADD) \
    X(first, words, ADDI) X(first, words, SUB) X(first, words, MUL) X(first, words, ANDI) \
    X(first, words, ORI) X(first, words, XOR) X(first, words, PUSH) X(first, words, POP) \
    X(first, words, LSLI) X(first, words, LSRI) X(first, words, LSR) X(first, words, ADC) \
    X(first, words, LCALL) X(first, words, RET) X(first, words, BR) \
    X(first, words, DIVU64) X(first, words, REMU64) X(first, words, DADD) \
    X(first, words, DMUL) X(first, words, DDIV) X(first, words, U2D) X(first, words, UL2D) \
    X(first, words, CMP_BRANCH) X(first, words, CMPI_BRANCH)

/* Forwarding superinstructions: an ADD or ADDI whose next instruction takes the sum as
 * the base of a memory access or as the left side of a fused compare (the address or
 * the counter just computed) hands it over in a host register instead of through the
 * register in task memory, which the next instruction would have to wait to read back. */
#define FORWARD_FIRSTS(X) X(ADD) X(ADDI)
#define FORWARD_SECONDS(X, first) X(first, LD) X(first, LDB) X(first, ST) X(first, STB) \
    X(first, CMP_BRANCH) X(first, CMPI_BRANCH)

/* The same into a compact pair whose first operation is such an access or compare (the
 * compare fused with the pair's conditional branch, as pair_link fuses it). */
#define FORWARD_PAIRS(X, first) X(first, LD) X(first, LDB) X(first, ST) X(first, STB) \
    X(first, CMP_BRANCH) X(first, CMPI_BRANCH)

#define FORWARD_FIRST_ENUM(name_) FORWARD_FIRST_##name_,
#define FORWARD_SECOND_ENUM(first_, name_) FORWARD_SECOND_##name_,
#define FORWARD_PAIR_ENUM(first_, name_) FORWARD_PAIR_##name_,
enum { FORWARD_FIRSTS(FORWARD_FIRST_ENUM) FORWARD_FIRST_COUNT };
enum { FORWARD_SECONDS(FORWARD_SECOND_ENUM, _) FORWARD_SECOND_COUNT };
enum { FORWARD_PAIRS(FORWARD_PAIR_ENUM, _) FORWARD_PAIR_COUNT };
#undef FORWARD_FIRST_ENUM
#undef FORWARD_SECOND_ENUM
#undef FORWARD_PAIR_ENUM

/* What hsx_run runs for a record beyond its handler: a CMP or CMPI fused with the
 * conditional branch after it (never stored in a record: its handler stays CMP), and a
 * compact pair (its handler is its second operation's). */
enum { OP_CMP_BRANCH = HSX_H_COUNT, OP_CMPI_BRANCH, OP_PAIR };

/* A compact pair's first operation has code of its own, P_<compact code>: BODY_* on
 * the record's `first`, then a jump to the code of the second's handler. The control
 * transfers (never first) have none. */
#define PAIR_FIRST_RR(x) x
#define PAIR_FIRST_RI6(x) x
#define PAIR_FIRST_F6(x) x
#define PAIR_FIRST_RI5(x) x
#define PAIR_FIRST_RRO(x) x
#define PAIR_FIRST_R(x) x
#define PAIR_FIRST_NONE(x)
#define PAIR_FIRST_B10(x)

/* ... and, for the pairs below, code of its own that ends in a direct jump to the
 * second's code: the one indirect jump a first operation's code ends in was mispredicted
 * whenever the seconds it met alternated (a prologue's PUSH | MOV, PUSH | PUSH). X(compact
 * code, first, second): the pairs `hsx cc -O2 --compact` makes most in the peer
 * workloads and the C library; only these, since code added to hsx_run moved its hot
 * paths enough to slow unpaired code (fib 15 % with every combination). */
#define PAIR_COMBOS(X) \
    X(20, PUSH, PUSH) X(20, PUSH, MOV) X(20, PUSH, ADDI) X(21, POP, POP) X(21, POP, RET) \
    X(1, MOV, BR) X(1, MOV, MOV) X(1, MOV, RET) X(1, MOV, POP) X(8, LDI, BR) X(8, LDI, ST) \
    X(8, LDI, MOV) X(8, LDI, LDI) X(8, LDI, CMPI) X(9, ADDI, POP) X(9, ADDI, BR) \
    X(9, ADDI, ADD) X(9, ADDI, CMP) X(13, LD, LD) X(16, LD, LD) X(13, LD, ST) X(16, LD, ST) \
    X(16, LD, XOR) X(13, LD, MOV) X(16, LD, MOV) X(14, ST, LDI) X(14, ST, ADDI) \
    X(14, ST, ST) X(17, ST, ST) X(17, ST, ADDI) X(2, ADD, LD) X(2, ADD, ST) X(2, ADD, STB) \
    X(2, ADD, ADDI) X(19, STB, ADD) X(18, LDB, CMPI) X(11, LSLI, ADD)
#define PAIR_COMBO_ENUM(code_, first_, second_) PAIR_COMBO_##code_##_##second_,
enum { PAIR_COMBOS(PAIR_COMBO_ENUM) PAIR_COMBO_COUNT };
#undef PAIR_COMBO_ENUM
/* (each compact code there standing for its first: checked when compiling) */
#define COMPACT_OPCODE(code_, name_, layout_, two_address_, scale_, frame_) \
    COMPACT_OPCODE_##code_ = OP_##name_,
enum { HSX_COMPACT(COMPACT_OPCODE) COMPACT_OPCODE_END };
#define PAIR_COMBO_CHECK(code_, first_, second_) \
    typedef char pair_combo_##code_##_##second_[COMPACT_OPCODE_##code_ == OP_##first_ ? 1 : -1];
PAIR_COMBOS(PAIR_COMBO_CHECK)
#undef PAIR_COMBO_CHECK
#undef COMPACT_OPCODE

#define SUPER_FIRST_ENUM(name_, words_) SUPER_FIRST_##name_,
#define SUPER_SECOND_ENUM(first_, words_, name_) SUPER_SECOND_##name_,
enum { SUPER_NONE = -1, SUPER_FIRSTS(SUPER_FIRST_ENUM) SUPER_FIRST_COUNT };
enum { SUPER_SECONDS(SUPER_SECOND_ENUM, _, _) SUPER_SECOND_COUNT };
#undef SUPER_FIRST_ENUM
#undef SUPER_SECOND_ENUM

/* Which of PAIR_COMBOS a pair with compact first operation `code` and second handler
 * `second` is (SUPER_NONE: none). */
static int pair_combo(uint32_t code, uint32_t second)
{
#define PAIR_COMBO_CASE(code_, first_, second_) \
    if (code == code_ && second == OP_##second_) return PAIR_COMBO_##code_##_##second_;
    PAIR_COMBOS(PAIR_COMBO_CASE)
#undef PAIR_COMBO_CASE
    return SUPER_NONE;
}

/* Which superinstruction may start with handler `op` (SUPER_NONE: none), and how many
 * words that instruction takes. */
static int super_first(uint32_t op, uint32_t *words)
{
    switch (op) {
#define SUPER_FIRST_CASE(name_, words_) \
    case OP_##name_: *words = words_; return SUPER_FIRST_##name_;
    SUPER_FIRSTS(SUPER_FIRST_CASE)
#undef SUPER_FIRST_CASE
    default: return SUPER_NONE;
    }
}

/* Which second half runs what hsx_run runs for a record (SUPER_NONE: none). */
static int super_second(uint32_t runs)
{
    switch (runs) {
#define SUPER_SECOND_CASE(first_, words_, name_) \
    case OP_##name_: return SUPER_SECOND_##name_;
    SUPER_SECONDS(SUPER_SECOND_CASE, _, _)
#undef SUPER_SECOND_CASE
    default: return SUPER_NONE;
    }
}

/* Which forwarding superinstruction may start with handler `op`, and which second
 * half takes what hsx_run runs for the next record (SUPER_NONE: none). */
static int forward_first(uint32_t op)
{
    switch (op) {
#define FORWARD_FIRST_CASE(name_) case OP_##name_: return FORWARD_FIRST_##name_;
    FORWARD_FIRSTS(FORWARD_FIRST_CASE)
#undef FORWARD_FIRST_CASE
    default: return SUPER_NONE;
    }
}

static int forward_second(uint32_t runs)
{
    switch (runs) {
#define FORWARD_SECOND_CASE(first_, name_) case OP_##name_: return FORWARD_SECOND_##name_;
    FORWARD_SECONDS(FORWARD_SECOND_CASE, _)
#undef FORWARD_SECOND_CASE
    default: return SUPER_NONE;
    }
}

/* Is handler `op` a conditional branch (JZ, JNZ, BEQ..BLEU)? */
static int conditional_branch(uint32_t op)
{
    return op == OP_JZ || op == OP_JNZ || (op >= OP_BEQ && op <= OP_BLEU);
}

/* What hsx_run runs for code word i (decoded now if it was not): its handler,
 * OP_CMP_BRANCH / OP_CMPI_BRANCH for a CMP or CMPI before a conditional branch whose
 * target is an instruction (one that is not faults, as the branch alone does; a pair
 * whose second is a branch is no branch), or OP_PAIR for a compact pair. */
static uint32_t what_runs(hsx_task *t, uint32_t i)
{
    uint32_t handler = decoded(t, i)->handler;
    const hsx_insn *next;
    if ((t->code[i].flags & HSX_I_PAIR) && handler != HSX_H_BREAKPOINT)
        return OP_PAIR;
    if ((handler == OP_CMP || handler == OP_CMPI)
        && conditional_branch((next = decoded(t, i + 1))->handler)
        && !(next->flags & (HSX_I_TARGET_BAD | HSX_I_PAIR)))
        return handler == OP_CMP ? OP_CMP_BRANCH : OP_CMPI_BRANCH;
    return handler;
}

/* Where hsx_run's code for each kind of record starts (offsets from its decoder's
 * label, which only hsx_run can take): by handler, superinstruction, forwarding
 * superinstruction, the fused compares, and a pair's first operation by compact code
 * (or writing R15: checked). */
struct run_codes {
    const int32_t *handlers;
    const int32_t (*supers)[SUPER_SECOND_COUNT];
    const int32_t (*forwards)[FORWARD_SECOND_COUNT];
    const int32_t (*forward_pairs)[FORWARD_PAIR_COUNT];
    int32_t cmp_branch, cmpi_branch;
    const int32_t *pair_firsts;
    const int32_t *pair_combos;
    int32_t pair_guard_sp, pair_cmp_branch, pair_cmpi_branch;
};

/* Does pair `in` start with a compare whose conditional branch (its second) goes to an
 * instruction? Those run fused, as an unpaired CMP and branch do. */
static int pair_compares_and_branches(const hsx_insn *in)
{
    return (in->first.opcode == OP_CMP || in->first.opcode == OP_CMPI)
           && conditional_branch(in->handler) && !(in->flags & HSX_I_TARGET_BAD);
}

/* The code of pair `in` (run from its first operation). */
static int32_t pair_link(const hsx_insn *in, const struct run_codes *codes)
{
    int combo;
    if (pair_compares_and_branches(in))
        return in->first.opcode == OP_CMP ? codes->pair_cmp_branch : codes->pair_cmpi_branch;
    if (in->first.rd == HSX_SP_REGISTER)
        return codes->pair_guard_sp;
    if (in->second_handler && in->handler == in->second_handler
        && (combo = pair_combo(in->first_code, in->handler)) != SUPER_NONE)
        return codes->pair_combos[combo];
    return codes->pair_firsts[in->first_code];
}

/* Which forwarding code takes a sum into pair `in` (SUPER_NONE: none). */
static int forward_pair(const hsx_insn *in)
{
    if (pair_compares_and_branches(in))
        return in->first.opcode == OP_CMP ? FORWARD_PAIR_CMP_BRANCH : FORWARD_PAIR_CMPI_BRANCH;
    if (in->first.rd == HSX_SP_REGISTER)
        return SUPER_NONE;
    switch (in->first.opcode) {
    case OP_LD: return FORWARD_PAIR_LD;
    case OP_LDB: return FORWARD_PAIR_LDB;
    case OP_ST: return FORWARD_PAIR_ST;
    case OP_STB: return FORWARD_PAIR_STB;
    default: return SUPER_NONE;
    }
}

/* A pair's first operation that writes R15, checked as guard_sp checks an instruction. */
HSX_COLD int guard_first(hsx_task *t, const hsx_insn *in, uint32_t pc, uint32_t *psw)
{
    hsx_insn first;
    uint32_t npc;
    return guard_sp(t, hsx_first_of(in, &first), pc, &npc, psw);
}

/* The link of code word i: the code hsx_run runs for it, with the word after it where
 * they run as one. Out of hsx_run, whose registers its hot code needs. */
HSX_COLD int32_t link_of(hsx_task *t, uint32_t i, const struct run_codes *codes)
{
    uint32_t runs = what_runs(t, i), words = 1;
    int first, second;
    if (runs == OP_CMP_BRANCH)
        return codes->cmp_branch;
    if (runs == OP_CMPI_BRANCH)
        return codes->cmpi_branch;
    if (runs == OP_PAIR)
        return pair_link(&t->code[i], codes);
    if ((first = forward_first(runs)) != SUPER_NONE) {
        uint32_t next_runs = what_runs(t, i + 1);
        if (next_runs == OP_PAIR && t->code[i + 1].first.rs1 == t->code[i].rd
            && (second = forward_pair(&t->code[i + 1])) != SUPER_NONE)
            return codes->forward_pairs[first][second];
        if ((second = forward_second(next_runs)) != SUPER_NONE
            && t->code[i + 1].rs1 == t->code[i].rd)
            return codes->forwards[first][second];
    }
    if ((first = super_first(runs, &words)) != SUPER_NONE
        && (second = super_second(what_runs(t, i + words))) != SUPER_NONE)
        return codes->supers[first][second];
    return codes->handlers[runs];
}

/* Direct threading: a record's `link` is the offset of its code from L_H_UNDECODED, so
 * an instruction ends by jumping straight to the next record's code (one load and an
 * add), `in` is the program counter (made into an address only where one is needed),
 * and a record left zero -- not decoded, or its link not yet worked out -- runs
 * L_H_UNDECODED, which decodes and links it (link_of). A CMP or CMPI followed by a
 * conditional branch, and the pairs of the SUPER_* and FORWARD_* lists, link to code
 * that runs both with one dispatch; hsx_breakpoint unlinks the records around a
 * breakpoint it sets or clears, so none is fused over. Flags are lazy (settle). A
 * compact pair links to the code of its first operation, which jumps on to its second's
 * (what its handler would run) directly where PAIR_COMBOS lists the two, through a
 * table else, or, a compare and a conditional branch, to the fused compare-and-branch;
 * an ADD or ADDI before it may hand it its sum (FORWARD_PAIRS). */
int hsx_run(hsx_task *t, uint32_t budget)
{
#define LINK(label) ((int32_t)((const char *)&&label - (const char *)&&L_H_UNDECODED))
#define LINK_ROW(num_, name_, form_, size_, pairs_) [num_] = LINK(L_##name_),
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#pragma GCC diagnostic ignored "-Wpedantic"
    static const int32_t links[HSX_H_COUNT] = {
        [0 ... HSX_H_COUNT - 1] = LINK(L_DEFAULT),
        HSX_OPCODES(LINK_ROW)
        [HSX_H_ILLEGAL] = LINK(L_H_ILLEGAL), [HSX_H_OFF_END] = LINK(L_H_OFF_END),
        [HSX_H_LITERAL] = LINK(L_H_LITERAL), [HSX_H_BREAKPOINT] = LINK(L_H_BREAKPOINT),
        [HSX_H_GUARD_SP] = LINK(L_H_GUARD_SP), [HSX_H_UNDECODED] = 0,
    };
#define SUPER_CELL(first_, words_, name_) LINK(S_##first_##_##name_),
#define SUPER_ROW(first_, words_) { SUPER_SECONDS(SUPER_CELL, first_, words_) },
    static const int32_t supers[SUPER_FIRST_COUNT][SUPER_SECOND_COUNT] = {
        SUPER_FIRSTS(SUPER_ROW)
    };
#define FORWARD_CELL(first_, name_) LINK(F_##first_##_##name_),
#define FORWARD_ROW(first_) { FORWARD_SECONDS(FORWARD_CELL, first_) },
    static const int32_t forwards[FORWARD_FIRST_COUNT][FORWARD_SECOND_COUNT] = {
        FORWARD_FIRSTS(FORWARD_ROW)
    };
#define FORWARD_PAIR_CELL(first_, name_) LINK(FP_##first_##_##name_),
#define FORWARD_PAIR_ROW(first_) { FORWARD_PAIRS(FORWARD_PAIR_CELL, first_) },
    static const int32_t forward_pairs[FORWARD_FIRST_COUNT][FORWARD_PAIR_COUNT] = {
        FORWARD_FIRSTS(FORWARD_PAIR_ROW)
    };
#define PAIR_FIRST_LINK(code_) [code_] = LINK(P_##code_),
#define PAIR_FIRST_ROW(code_, name_, layout_, two_address_, scale_, frame_) \
    PAIR_FIRST_##layout_(PAIR_FIRST_LINK(code_))
    static const int32_t pair_firsts[32] = {
        [0 ... 31] = LINK(L_DEFAULT), HSX_COMPACT(PAIR_FIRST_ROW)
    };
#define PAIR_COMBO_CELL(code_, first_, second_) LINK(PC_##code_##_##second_),
    static const int32_t pair_combos[PAIR_COMBO_COUNT] = { PAIR_COMBOS(PAIR_COMBO_CELL) };
#undef PAIR_COMBO_CELL
    /* the second operation's code by its handler byte (hsx_insn.second_handler) */
    static const int32_t pair_seconds[256] = {
        [0 ... 255] = LINK(L_DEFAULT), HSX_OPCODES(LINK_ROW) [0] = LINK(L_H_GUARD_SP),
    };
    static const struct run_codes codes = {
        links, supers, forwards, forward_pairs, LINK(L_CMP_BRANCH), LINK(L_CMPI_BRANCH),
        pair_firsts, pair_combos, LINK(P_GUARD_SP), LINK(P_CMP_BRANCH), LINK(P_CMPI_BRANCH)
    };
#undef PAIR_FIRST_ROW
#undef PAIR_FIRST_LINK
#undef FORWARD_PAIR_ROW
#undef FORWARD_PAIR_CELL
#undef FORWARD_ROW
#undef FORWARD_CELL
#undef SUPER_ROW
#undef SUPER_CELL
#pragma GCC diagnostic pop
#undef LINK_ROW
    const char *const base = (const char *)&&L_H_UNDECODED;
    const struct hot h = hot_of(t);
    hsx_insn *const code = t->code;
    hsx_insn *in = &code[t->pc >> 2];
    uint8_t *mem = h.mem, *regs = h.regs;
    uint32_t psw = t->psw, n = budget;
    uint32_t pending = FLAGS_SET, fx = 0, fy = 0;      /* see settle() */
    uint32_t x, y, r, ea, sh, target;
    uint64_t s;
    int64_t sp, d;
    int ev;
#define PC address_of(code, in)
#define FLAGS settle(&psw, &pending, fx, fy)
#define SET_PSW(v) (psw = (v), pending = FLAGS_SET)
#define FLAGS_ADD(x, y) (pending = FLAGS_OF_SUM, fx = (x), fy = (y))
#define FLAGS_SUB(x, y) (pending = FLAGS_OF_SUM_PLUS_1, fx = (x), fy = ~(y))
#define FLAGS_ZN(r) (pending = FLAGS_OF_SUM, fx = (r), fy = 0)
#define FLAGS_PRODUCT(r, high) (pending = FLAGS_OF_PRODUCT, fx = (r), fy = (high))
#define DISPATCH()                                                                  \
    do {                                                                            \
        if (!n)                                                                     \
            goto out_of_budget;                                                     \
        goto *(const void *)(base + in->link);                                      \
    } while (0)
    if (t->skip_breakpoint == t->pc && in->handler == HSX_H_BREAKPOINT && n) {
        t->skip_breakpoint = HSX_NO_SKIP;
        t->fault = HSX_FAULT_NONE;
        /* run what the breakpoint displaced */
        goto *(const void *)(base + (in->flags & HSX_I_PAIR ? pair_link(in, &codes)
                                                            : links[in->saved]));
    }
    t->skip_breakpoint = HSX_NO_SKIP;
    t->fault = HSX_FAULT_NONE;
    DISPATCH();
out_of_budget:
    return finish(t, in, EV_NONE, HSX_STOP_BUDGET, PC, PC, FLAGS, budget);
L_H_UNDECODED:
    in->link = link_of(t, (uint32_t)(in - code), &codes);
    goto *(const void *)(base + in->link);
L_H_BREAKPOINT:
    t->skip_breakpoint = PC;
    return finish(t, in, EV_NONE, HSX_STOP_BREAKPOINT, PC, PC, FLAGS, budget - n);
L_CMP_BRANCH:                           /* CMP then a conditional branch: one dispatch */
    y = REG(in->rs2);
    goto compare_and_branch;
L_CMPI_BRANCH:
    y = in->imm;
    /* x compared with y, and the branch after the compare taken or not; the branch
     * reads Z, C and whether N != V: x == y, x >= y, and x < y signed (its target is
     * an instruction: what_runs fuses no other) */
#define COMPARE_AND_BRANCH()                                                        \
    do {                                                                            \
        FLAGS_SUB(x, y);                                                            \
        in++;                                                                       \
        if (!--n)                                                                   \
            goto out_of_budget;                                                     \
        r = (x == y) | (uint32_t)(x >= y) << 1                                      \
            | (uint32_t)((int32_t)x < (int32_t)y) << 2;                             \
        in = taken(in, r) ? code + (in->target >> 2) : in + 1;                      \
        n--;                                                                        \
        DISPATCH();                                                                 \
    } while (0)
compare_and_branch:
    x = REG(in->rs1);
    COMPARE_AND_BRANCH();
#define op (in->opcode)
#define VMCASE(name) L_##name:
#define VMNEXT do { in++; n--; DISPATCH(); } while (0)
#define VMNEXT_WIDE do { in += 2; n--; DISPATCH(); } while (0)
#define VMJUMP(addr) do { in = code + ((addr) >> 2); n--; DISPATCH(); } while (0)
#define VMRETURN(e) do { ev = (e); goto event; } while (0)
#define VMDEFAULT L_DEFAULT:
    /* the superinstructions: the first's code, then straight to the second's */
#define SUPER_CODE(first_, words_, name_)                                           \
    S_##first_##_##name_:                                                           \
    BODY_##first_(in);                                                              \
    in += words_;                                                                   \
    if (!--n)                                                                       \
        goto out_of_budget;                                                         \
    goto L_##name_;
#define SUPER_FIRST_CODE(first_, words_) SUPER_SECONDS(SUPER_CODE, first_, words_)
    SUPER_FIRSTS(SUPER_FIRST_CODE)
#undef SUPER_FIRST_CODE
#undef SUPER_CODE
    /* the forwarding ones: the sum, r, instead of the second's rs1 */
#define FORWARD_SUM(first_)                                                         \
    BODY_##first_(in);                                                              \
    r = x + y;                                                                      \
    in++;                                                                           \
    if (!--n)                                                                       \
        goto out_of_budget;
#define FORWARD_LD(sum) BODY_LD_AT(in, sum); VMNEXT
#define FORWARD_LDB(sum) BODY_LDB_AT(in, sum); VMNEXT
#define FORWARD_ST(sum) BODY_ST_AT(in, sum); VMNEXT
#define FORWARD_STB(sum) BODY_STB_AT(in, sum); VMNEXT
#define FORWARD_CMP_BRANCH(sum) y = REG(in->rs2); x = (sum); COMPARE_AND_BRANCH()
#define FORWARD_CMPI_BRANCH(sum) y = in->imm; x = (sum); COMPARE_AND_BRANCH()
#define FORWARD_CODE(first_, name_) F_##first_##_##name_: FORWARD_SUM(first_) FORWARD_##name_(r);
#define FORWARD_FIRST_CODE(first_) FORWARD_SECONDS(FORWARD_CODE, first_)
    FORWARD_FIRSTS(FORWARD_FIRST_CODE)
#undef FORWARD_FIRST_CODE
#undef FORWARD_CODE
#undef FORWARD_LD
#undef FORWARD_LDB
#undef FORWARD_ST
#undef FORWARD_STB
#undef FORWARD_CMP_BRANCH
#undef FORWARD_CMPI_BRANCH
#undef COMPARE_AND_BRANCH
    /* compact pairs: the first operation, then the second's code (the record's own) */
#define PAIR_SECOND() goto *(const void *)(base + pair_seconds[in->second_handler])
#define PAIR_FIRST_CODE_OF(code_, name_) P_##code_: BODY_##name_(&in->first); PAIR_SECOND();
#define PAIR_FIRST_CODE(code_, name_, layout_, two_address_, scale_, frame_) \
    PAIR_FIRST_##layout_(PAIR_FIRST_CODE_OF(code_, name_))
    HSX_COMPACT(PAIR_FIRST_CODE)
#undef PAIR_FIRST_CODE
#undef PAIR_FIRST_CODE_OF
#define PAIR_COMBO_CODE(code_, first_, second_) \
    PC_##code_##_##second_: BODY_##first_(&in->first); goto L_##second_;
    PAIR_COMBOS(PAIR_COMBO_CODE)
#undef PAIR_COMBO_CODE
P_CMP_BRANCH:                           /* C.CMP | C.Bcc: the compare and branch, one step */
    y = REG(in->first.rs2);
    x = REG(in->first.rs1);
    goto pair_compare_and_branch;
P_CMPI_BRANCH:
    y = in->first.imm;
    x = REG(in->first.rs1);
pair_compare_and_branch:                /* (x compared with y) */
    FLAGS_SUB(x, y);
    r = (x == y) | (uint32_t)(x >= y) << 1 | (uint32_t)((int32_t)x < (int32_t)y) << 2;
    in = taken(in, r) ? code + (in->target >> 2) : in + 1;
    n--;
    DISPATCH();
P_GUARD_SP: {                           /* (a copy of psw, as at L_H_GUARD_SP) */
    uint32_t first_psw = FLAGS;
    ev = guard_first(t, in, PC, &first_psw);
    SET_PSW(first_psw);
    if (ev != EV_NONE)
        goto event;
    PAIR_SECOND();
}
    /* forwarding a sum into a pair: the sum r instead of the pair's first rs1 */
#define FORWARD_PAIR_LD(sum) BODY_LD_AT(&in->first, sum); PAIR_SECOND()
#define FORWARD_PAIR_LDB(sum) BODY_LDB_AT(&in->first, sum); PAIR_SECOND()
#define FORWARD_PAIR_ST(sum) BODY_ST_AT(&in->first, sum); PAIR_SECOND()
#define FORWARD_PAIR_STB(sum) BODY_STB_AT(&in->first, sum); PAIR_SECOND()
#define FORWARD_PAIR_CMP_BRANCH(sum) \
    y = REG(in->first.rs2); x = (sum); goto pair_compare_and_branch
#define FORWARD_PAIR_CMPI_BRANCH(sum) y = in->first.imm; x = (sum); goto pair_compare_and_branch
#define FORWARD_PAIR_CODE(first_, name_) \
    FP_##first_##_##name_: FORWARD_SUM(first_) FORWARD_PAIR_##name_(r);
#define FORWARD_PAIR_FIRST_CODE(first_) FORWARD_PAIRS(FORWARD_PAIR_CODE, first_)
    FORWARD_FIRSTS(FORWARD_PAIR_FIRST_CODE)
#undef FORWARD_PAIR_FIRST_CODE
#undef FORWARD_PAIR_CODE
#undef FORWARD_PAIR_LD
#undef FORWARD_PAIR_LDB
#undef FORWARD_PAIR_ST
#undef FORWARD_PAIR_STB
#undef FORWARD_PAIR_CMP_BRANCH
#undef FORWARD_PAIR_CMPI_BRANCH
#undef FORWARD_SUM
#undef PAIR_SECOND
#include "hsx_ops.inc"
#undef op
#undef DISPATCH
#undef LINK
event:
    return finish(t, in, ev, HSX_STOP_BUDGET, address_of(code, in),
                  address_of(code, in) + in->size, settle(&psw, &pending, fx, fy), budget - n);
}
#endif

/* What a pair's first operation may have changed when its second stops the round robin
 * (which stops *before* an instruction, having changed nothing): its rd, SP (PUSH, POP),
 * PSW and the bytes a store or PUSH writes, kept before the pair runs. */
struct pair_undo {
    uint32_t rd, sp, psw, at, len;
    uint8_t bytes[4];
};

static void keep_for_undo(const hsx_task *t, const hsx_insn *in, struct pair_undo *u)
{
    const uint8_t *regs = t->mem + t->reg_base;
    uint32_t op = in->first.opcode, k;
    u->rd = REG(in->first.rd);
    u->sp = REG(HSX_SP_REGISTER);
    u->psw = t->psw;
    u->at = op == OP_PUSH ? u->sp - 4 : REG(in->first.rs1) + in->first.imm;
    u->len = op == OP_ST || op == OP_PUSH ? 4 : op == OP_STB;
    if ((uint64_t)u->at + u->len > t->mem_size)
        u->len = 0;                     /* (the store faults: writes nothing) */
    for (k = 0; k < u->len; k++)
        u->bytes[k] = t->mem[u->at + k];
}

static void undo(hsx_task *t, const hsx_insn *in, const struct pair_undo *u)
{
    uint8_t *regs = t->mem + t->reg_base;
    uint32_t k;
    for (k = 0; k < u->len; k++)        /* (all kept before: any order restores them) */
        t->mem[u->at + k] = u->bytes[k];
    SET(in->first.rd, u->rd);
    SET(HSX_SP_REGISTER, u->sp);
    t->psw = u->psw;
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
            struct pair_undo kept;
            uint32_t npc;
            if (in->flags & HSX_I_PAIR)
                keep_for_undo(t, in, &kept);
            if (in->handler == HSX_H_BREAKPOINT
                || step(t, hot_of(t), in, in->handler, t->pc, &npc, &t->psw) != EV_NONE) {
                if (in->flags & HSX_I_PAIR)
                    undo(t, in, &kept);
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
        hsx_insn *in = decoded(t, addr >> 2);
        uint32_t i;
        if (on && in->handler != HSX_H_BREAKPOINT) {
            in->saved = in->handler;
            in->handler = HSX_H_BREAKPOINT;
        } else if (!on && in->handler == HSX_H_BREAKPOINT) {
            in->handler = in->saved;
        }
        /* the run loop links it again, and the records before it that may run it
         * with one dispatch (a superinstruction's first, up to two words, before a
         * CMP fused with its branch) */
        for (i = 0; i <= 3 && i <= addr >> 2; i++)
            in[-(int32_t)i].link = 0;
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
    if (!hsx_opcode_known(code))
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
    in.link = 0;
    in.handler = in.opcode = (uint8_t)code;
    in.flags = 0;
    in.rd = 1;
    in.rs1 = 0;
    in.rs2 = 2;
    in.size = 4;
    in.saved = 0;
    return !(execute(&t, hot_of(&t), &in, code, 0, &npc, &psw) == EV_FAULT
             && t.fault == HSX_FAULT_ILLEGAL);
}

uint32_t hsx_abi(void) { return HSX_VM_ABI; }
uint32_t hsx_sizeof_task(void) { return (uint32_t)sizeof(hsx_task); }
uint32_t hsx_sizeof_insn(void) { return (uint32_t)sizeof(hsx_insn); }
