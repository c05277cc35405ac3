/* HSX C executive: what a debugger or the protocol reads of a task -- its ps row,
 * registers and memory -- and a fault's kind and place (as hsx.vm reports them; the
 * words of a fault are the host's: boards/host/main.c, hsx.vm). */
#include "hsx_kernel.h"

HSX_COLD_CODE_BEGIN

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

/* ---- inspection -------------------------------------------------------------------------- */

static void fill_info(const hsx_tcb *t, hsx_task_info *out)
{
    hsx_k_fill(out, 0, sizeof *out);
    out->pid = t->pid;
    hsx_k_app_name(t->base_name, t->instance, out->app_name);
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

HSX_COLD_CODE_END
