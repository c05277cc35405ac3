/* HSX VM core: the native engine (DESIGN.md §3, docs/port.md).
 *
 * Portable C99, freestanding: no libc, no dynamic allocation. The host owns every buffer
 * (task memory, the decoded code array, the task record) and handles SVCs, so the same
 * core runs inside the Python executive (loaded with ctypes) and on a microcontroller.
 *
 * Semantics are those of the Python engine (src/hsx/vm), the reference it is tested
 * against instruction by instruction: registers R0..R15 live in task memory at
 * reg_base, faults change nothing, an SVC retires before the host handles it.
 *
 * A compact pair (a code word holding two operations, docs/isa.md) is one instruction
 * here: one record, one step, one unit of budget; its operations run in turn at its
 * address, and a fault in the second keeps what the first did.
 */
#ifndef HSX_VM_H
#define HSX_VM_H

#include <stdint.h>

#include "hsx_opcodes.h"

#define HSX_VM_ABI 8                 /* bumped when a struct, signature or contract below changes */
#define HSX_NO_SKIP 0xFFFFFFFFu      /* hsx_task.skip_breakpoint: nothing to skip */

/* The first operation of a compact pair, decoded (see hsx_insn). */
typedef struct hsx_half {
    uint32_t imm;
    uint8_t opcode, rd, rs1, rs2;
} hsx_half;

/* One pre-decoded code word. A compact pair's record is its second operation's, as an
 * ordinary instruction's would be, with its first operation in `first`. */
typedef struct hsx_insn {
    uint32_t imm;       /* immediate as u32 (sign-extended where signed), LDI32's literal,
                           a conditional branch's truth table over PSW (hsx_vm.c), or
                           the raw word of an illegal instruction */
    uint32_t target;    /* static branch/call target */
    int32_t link;       /* the threaded run loop's own: where its code for this record
                           starts (0: not worked out yet) */
    uint16_t handler;   /* opcode number, or one of the HSX_H_* specials (hsx_vm.c) */
    uint16_t saved;     /* the handler a breakpoint displaced */
    uint8_t opcode;     /* the instruction's opcode number (0: illegal) */
    uint8_t flags;      /* HSX_I_* (hsx_vm.c) */
    uint8_t rd, rs1, rs2, size;
    uint8_t first_code; /* a pair's first operation: its compact code (HSX_COMPACT) ... */
    uint8_t second_handler; /* (the handler of its second: its opcode, 0 when SP-guarded) */
    hsx_half first;     /* ... and its operands (32 bytes in all: the record of a code
                           address, and the address of a record, are then a shift away,
                           measurably faster calls and branches than 24-byte records) */
} hsx_insn;

/* Why hsx_run returned. */
enum hsx_stop {
    HSX_STOP_BUDGET,     /* the whole budget ran */
    HSX_STOP_RETURNED,   /* RET from the entry frame: the task ends with R0 */
    HSX_STOP_FAULT,      /* the instruction at pc could not execute; see fault */
    HSX_STOP_BRK,        /* a BRK retired; brk_code */
    HSX_STOP_BREAKPOINT, /* a breakpoint at pc; the instruction has not executed */
    HSX_STOP_SVC         /* an SVC retired; the host handles svc_module/svc_function */
};

enum hsx_fault {
    HSX_FAULT_NONE,
    HSX_FAULT_MEMORY,          /* fault_addr, fault_detail = access width */
    HSX_FAULT_STACK,           /* a push/pop at fault_addr outside the stack */
    HSX_FAULT_SP,              /* an instruction would set SP to fault_addr */
    HSX_FAULT_PC,              /* a control transfer to fault_addr */
    HSX_FAULT_DIVIDE,
    HSX_FAULT_ILLEGAL,         /* fault_detail = the instruction word */
    HSX_FAULT_LITERAL,         /* LDI32's literal word lies past the end of code */
    HSX_FAULT_OFF_END          /* execution ran off the end of the code */
};

/* One task: what the host sets up, the architectural state, and the last stop. */
typedef struct hsx_task {
    uint8_t *mem;
    uint64_t mem_size;
    hsx_insn *code;             /* code_len / 4 + 1 decoded entries (the last: off the end);
                                   an all-zero entry is decoded from code_bytes when it
                                   first runs */
    const uint8_t *code_bytes;  /* the code itself (flash), for HSX_DECODE_AT_FETCH and
                                   for entries left zero ... */
    uint8_t *breakpoints;       /* ... and a bitmap of breakpoints, one bit per word */
    uint32_t code_len;          /* bytes */
    uint32_t reg_base, stack_base, stack_top;
    uint32_t pc, psw;
    uint64_t steps;             /* retired instructions */
    uint32_t skip_breakpoint;   /* resume at this pc without re-hitting its breakpoint */
    uint32_t stop_pc;           /* the instruction the last stop is about */
    uint32_t executed;          /* instructions retired by the last hsx_run */
    uint32_t brk_code, svc_module, svc_function;
    uint32_t fault, fault_detail;
    int64_t fault_addr;         /* may be below 0 (SP arithmetic), as the reference says */
} hsx_task;

/* Decode `code_len` bytes of big-endian code words into `out` (code_len / 4 + 1
 * entries). Returns 0, or -1 when code_len is not a positive multiple of 4. A host may
 * instead hand the core zeroed entries and set code_bytes: each entry is then decoded
 * the first time it runs (or gets a breakpoint), so a large image costs time and touched
 * memory only for the code that runs. Builds with HSX_DECODE_AT_FETCH decode each
 * instruction when it runs instead (no RAM for a decoded copy: set code_bytes and, for
 * breakpoints, a bitmap of code_len / 32 bytes). */
int hsx_decode(const uint8_t *code, uint32_t code_len, hsx_insn *out);

/* Run up to `budget` instructions; returns an hsx_stop and sets executed/stop_pc/... */
int hsx_run(hsx_task *task, uint32_t budget);

/* Quantum-1 round robin: one instruction of each task in turn, `rounds` times. Stops
 * before the first instruction that would do anything but retire plainly (SVC, BRK,
 * fault, breakpoint, return from the entry frame) and stores that task's index in
 * *stopped (-1: every round completed). Returns the number of completed rounds. (A
 * compact pair whose second operation stops it has its first's effects undone: nothing
 * of the instruction has happened, and hsx_run runs it as usual.) */
uint32_t hsx_run_interleaved(hsx_task *const *tasks, uint32_t count, uint32_t rounds,
                             int32_t *stopped);

/* Insert (on != 0) or remove a breakpoint at code address addr. Returns 0, or -1 when
 * addr is not an instruction address. */
int hsx_breakpoint(hsx_task *task, uint32_t addr, int on);

/* Non-zero when this build implements opcode `code` (a drift check for hosts). */
int hsx_implements(uint32_t code);

/* sizeof checks for hosts that mirror the structs (ctypes). */
uint32_t hsx_abi(void);
uint32_t hsx_sizeof_task(void);
uint32_t hsx_sizeof_insn(void);

#endif
