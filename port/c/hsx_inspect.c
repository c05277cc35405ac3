/* HSX C executive: what a debugger or the protocol reads of a task -- its ps row,
 * registers and memory -- and how a fault is described (as hsx.vm describes it). */
#include "hsx_kernel.h"

/* ---- faults ---------------------------------------------------------------------------- */

const char *hsx_k_fault_kind(const hsx_tcb *t)
{
    switch (t->vm.fault) {
    case HSX_FAULT_MEMORY: return "memory";
    case HSX_FAULT_STACK:
    case HSX_FAULT_SP:
        return t->vm.fault_addr < (int64_t)t->vm.stack_base ? "stack_overflow" : "stack_underflow";
    case HSX_FAULT_DIVIDE: return "divide_by_zero";
    case HSX_FAULT_ILLEGAL: return "illegal_opcode";
    case HSX_FAULT_NONE: return 0;
    default: return "pc_out_of_range";
    }
}

/* Where the fault is reported: as the reference engine reports it (hsx.vm.signals). */
void hsx_k_fault_where(const hsx_tcb *t, uint32_t *pc, int64_t *addr)
{
    *pc = t->vm.stop_pc;
    *addr = t->vm.fault_addr;
    switch (t->vm.fault) {
    case HSX_FAULT_DIVIDE:
    case HSX_FAULT_ILLEGAL: *addr = -1; break;
    case HSX_FAULT_LITERAL: *addr = (int64_t)t->vm.stop_pc + 4; break;
    case HSX_FAULT_OFF_END: *pc = t->vm.code_len; *addr = t->vm.code_len; break;
    default: break;
    }
}

struct text { char *out; uint32_t size, n; };

static void put(struct text *x, const char *s)
{
    while (*s && x->n + 1 < x->size)
        x->out[x->n++] = *s++;
    x->out[x->n] = 0;
}

static void put_number(struct text *x, int64_t value, int hex, int width)
{
    char digits[24];
    int n = 0;
    uint64_t v = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    if (value < 0) {
        put(x, "-");
        width--;
    }
    do {
        uint32_t d = (uint32_t)(hex ? v & 15u : v % 10u);
        digits[n++] = (char)(d < 10 ? '0' + d : 'A' + d - 10);
        v = hex ? v >> 4 : v / 10u;
    } while (v);
    while (width-- > n)
        put(x, "0");
    while (n) {
        char c[2] = { digits[--n], 0 };
        put(x, c);
    }
}

/* Fault.describe() of the reference: "memory at pc 0x0010 (addr 0x00000004): ...". */
void hsx_k_fault_text(const hsx_tcb *t, char *out, uint32_t size)
{
    struct text x = { out, size, 0 };
    const hsx_task *v = &t->vm;
    uint32_t pc;
    int64_t addr;
    hsx_k_fault_where(t, &pc, &addr);
    out[0] = 0;
    put(&x, hsx_k_fault_kind(t));
    put(&x, " at pc 0x");
    put_number(&x, pc, 1, 4);
    if (t->vm.fault != HSX_FAULT_DIVIDE && t->vm.fault != HSX_FAULT_ILLEGAL) {
        put(&x, " (addr 0x");
        put_number(&x, addr, 1, 8);
        put(&x, ")");
    }
    put(&x, ": ");
    switch (v->fault) {
    case HSX_FAULT_MEMORY:
        put_number(&x, v->fault_detail, 0, 1);
        put(&x, "-byte access at 0x");
        put_number(&x, addr, 1, 8);
        if (addr < HSX_NULL_PAGE) {
            put(&x, " hits the null page (0x0000-0x00FF)");
        } else {
            put(&x, " is outside data memory (0x0100-0x");
            put_number(&x, (int64_t)v->mem_size - 1, 1, 1);
            put(&x, ")");
        }
        break;
    case HSX_FAULT_STACK:
        put(&x, addr < (int64_t)v->stack_base ? "stack overflow: 0x" : "stack underflow: 0x");
        put_number(&x, addr, 1, 8);
        put(&x, addr < (int64_t)v->stack_base ? " is below the stack base 0x"
                                               : " is above the stack top 0x");
        put_number(&x, addr < (int64_t)v->stack_base ? v->stack_base : v->stack_top, 1, 8);
        break;
    case HSX_FAULT_SP:
        put(&x, "R15 (SP) = 0x");
        put_number(&x, addr, 1, 8);
        put(&x, " would leave the stack 0x");
        put_number(&x, v->stack_base, 1, 8);
        put(&x, "..0x");
        put_number(&x, v->stack_top, 1, 8);
        break;
    case HSX_FAULT_PC:
        put(&x, "control transfer to 0x");
        put_number(&x, addr, 1, 8);
        if (addr & 3) {
            put(&x, " is not 4-byte aligned");
        } else {
            put(&x, " is outside code (0..0x");
            put_number(&x, v->code_len, 1, 1);
            put(&x, ")");
        }
        break;
    case HSX_FAULT_DIVIDE: put(&x, "division by zero"); break;
    case HSX_FAULT_ILLEGAL:
        put(&x, "illegal instruction word 0x");
        put_number(&x, v->fault_detail, 1, 8);
        put(&x, " (opcode 0x");
        put_number(&x, v->fault_detail >> 24, 1, 2);
        put(&x, ")");
        break;
    case HSX_FAULT_LITERAL:
        put(&x, "LDI32 literal at 0x");
        put_number(&x, addr, 1, 1);
        put(&x, " is past the end of code (0x");
        put_number(&x, v->code_len, 1, 1);
        put(&x, ")");
        break;
    default:
        put(&x, "execution ran off the end of the code at 0x");
        put_number(&x, v->code_len, 1, 1);
        break;
    }
}

/* ---- inspection -------------------------------------------------------------------------- */

static void fill_info(const hsx_tcb *t, hsx_task_info *out)
{
    hsx_k_fill(out, 0, sizeof *out);
    out->pid = t->pid;
    hsx_k_strcpy(out->app_name, t->app_name, HSX_APP_NAME_MAX);
    hsx_k_strcpy(out->app_name_base, t->base_name, HSX_APP_NAME_MAX);
    out->state = (hsx_state)t->state;
    out->pc = t->vm.pc;
    out->sp = hsx_k_reg(t, HSX_SP_REGISTER);
    out->psw = t->vm.psw;
    out->priority = t->priority;
    out->quantum = t->quantum;
    out->instructions = t->vm.steps;
    out->exit_status = t->exit_status;
    out->has_exit_status = t->has_exit_status;
    out->turns = t->turns;
    out->waits = t->waits;
    out->wakes = t->wakes;
    out->timeouts = t->timeouts;
    out->sleeps = t->sleeps;
    out->reg_base = t->vm.reg_base;
    out->stack_base = t->vm.stack_base;
    out->stack_top = t->vm.stack_top;
    out->mem_size = (uint32_t)t->vm.mem_size;
    out->code_len = t->vm.code_len;
    if (t->state == HSX_STATE_FAULTED) {
        out->fault_kind = hsx_k_fault_kind(t);
        hsx_k_fault_where(t, &out->fault_pc, &out->fault_addr);
    }
    if (t->wait == HSX_WAIT_RECV || t->wait == HSX_WAIT_STDIN || t->wait == HSX_WAIT_SEND) {
        out->wait_kind = t->wait == HSX_WAIT_SEND ? "mailbox_send" : "mailbox";
        out->wait_handle = t->wait_handle;
    } else if (t->wait == HSX_WAIT_SLEEP) {
        out->wait_kind = "sleep";
        out->wait_ms = t->wait_ms;
    }
}

hsx_status hsx_exec_task(uint32_t pid, hsx_task_info *out)
{
    hsx_tcb *t = hsx_k_task(pid);
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    fill_info(t, out);
    return HSX_OK;
}

int hsx_exec_next_task(uint32_t *cursor, hsx_task_info *out)
{
    /* in pid order: the next listed pid above the cursor */
    hsx_tcb *best = 0;
    int i;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        if (t->pid > *cursor && (!best || t->pid < best->pid))
            best = t;
    }
    if (!best)
        return 0;
    *cursor = best->pid;
    fill_info(best, out);
    return 1;
}

hsx_status hsx_exec_registers(uint32_t pid, hsx_registers *out)
{
    hsx_tcb *t = hsx_k_task(pid);
    int i;
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    out->pid = pid;
    out->pc = t->vm.pc;
    out->psw = t->vm.psw;
    for (i = 0; i < 16; i++)
        out->regs[i] = hsx_k_reg(t, i);
    out->sp = out->regs[HSX_SP_REGISTER];
    out->steps = t->vm.steps;
    out->state = (hsx_state)t->state;
    return HSX_OK;
}

hsx_status hsx_exec_peek(uint32_t pid, int space, uint32_t addr, uint8_t *out, uint32_t len)
{
    hsx_tcb *t = hsx_k_task(pid);
    uint32_t size;
    const uint8_t *base;
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    size = space ? t->vm.code_len : (uint32_t)t->vm.mem_size;
    base = space ? t->vm.code_bytes : t->vm.mem;
    if ((space != 0 && space != 1) || addr > size || len > size - addr)
        return HSX_ERR_BAD_ARGUMENT;
    hsx_k_copy(out, base + addr, len);
    return HSX_OK;
}

hsx_status hsx_exec_poke(uint32_t pid, uint32_t addr, const uint8_t *data, uint32_t len)
{
    hsx_tcb *t = hsx_k_task(pid);
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    if (addr > t->vm.mem_size || len > t->vm.mem_size - addr)
        return HSX_ERR_BAD_ARGUMENT;
    hsx_k_copy(t->vm.mem + addr, data, len);
#if HSX_HAS_DEBUG
    hsx_k_debug_poked(t);
#endif
    return HSX_OK;
}

hsx_status hsx_exec_set_register(uint32_t pid, int reg, uint32_t value)
{
    hsx_tcb *t = hsx_k_task(pid);
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    if (reg >= 0 && reg < 16)
        hsx_k_set_reg(t, reg, value);
    else if (reg == 16 && !(value & 3u) && value < t->vm.code_len)
        t->vm.pc = value;
    else if (reg == 17)
        t->vm.psw = value & 0xFu;
    else
        return reg == 16 ? HSX_ERR_BAD_ADDRESS : HSX_ERR_BAD_ARGUMENT;
    return HSX_OK;
}
