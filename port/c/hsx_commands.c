/* HSX C executive: the command registry (SVC module 0x08; docs/values.md).
 *
 * A command's handler is code in its owner task: a call runs it in the owner's
 * context, as if the owner had called it, with a return address that is not code; the
 * RET to it ends the handler and the owner is put back exactly as it was. The checks
 * of a call, its statuses and the async completion message are hsx.kernel.registry's.
 */
#include "hsx_registry.h"

HSX_COLD_CODE_BEGIN

#define CMD_REGISTER_HANDLER 0x80u

enum { CF_PIN = 0x01, CF_ASYNC = 0x02, CF_ALL = 0x03 };
#define CF_HANDLER 0x80u                /* in e.flags, not reported: it has a handler */

static struct command {                 /* 16 bytes; e.has: name, group, help */
    hsx_rg_entry e;
    uint32_t handler;
} commands[HSX_MAX_COMMANDS];
const hsx_rg_table hsx_rg_commands = { commands, sizeof *commands, HSX_MAX_COMMANDS };

/* ---- commands --------------------------------------------------------------------------------- */

void hsx_k_commands_init(void) { hsx_k_fill(commands, 0, sizeof commands); }

HSX_NOINLINE static struct command *command_of(uint32_t oid)
{
    return (struct command *)(void *)hsx_rg_find(&hsx_rg_commands, oid);
}

static int prepare_command(struct command *c, uint32_t owner, uint32_t group, uint32_t id,
                           uint32_t flags, uint32_t auth, const hsx_rg_desc *d, int has_handler,
                           uint32_t handler)
{
    int status = hsx_rg_prepare(&hsx_rg_commands, &c->e, owner, group, id, flags, CF_ALL, auth,
                                d, 0);
    if (has_handler)
        c->e.flags |= CF_HANDLER;
    c->handler = handler;
    return status;
}

static void dmesg(uint32_t pid, const char *text)
{
    hsx_event ev;
    hsx_k_event(&ev, HSX_EV_DMESG, pid);
    ev.what = "error";
    ev.data = (const uint8_t *)text;
    ev.len = hsx_k_strlen(text, 200);
    hsx_k_emit(&ev);
}

/* Run a handler in its owner's context (upcall.run_handler): 1 and *result when it
 * returned, 0 when it did not (faulted, blocked, exited, ran too long). The owner is
 * put back exactly as it was. Breakpoints in the handler are passed over. */
static int run_handler(hsx_tcb *owner, uint32_t handler, uint32_t *result)
{
    hsx_task saved;
    uint8_t regs[HSX_REG_WINDOW];
    uint32_t sp = hsx_k_reg(owner, HSX_SP_REGISTER) - 4, budget = HSX_HANDLER_BUDGET, ran;
    int stop, returned;
    if (sp < owner->vm.stack_base || sp + 4 > owner->vm.stack_top)
        return 0;
    hsx_k_copy(&saved, &owner->vm, sizeof saved);
    hsx_k_copy(regs, owner->vm.mem + owner->vm.reg_base, HSX_REG_WINDOW);
    hsx_k_put32(owner->vm.mem + sp, HSX_HANDLER_RETURN);
    hsx_k_set_reg(owner, HSX_SP_REGISTER, sp);
    owner->vm.pc = handler;
    owner->vm.skip_breakpoint = HSX_NO_SKIP;
    owner->in_handler = 1;
    do {
        stop = hsx_k_run_vm(owner, budget, &ran);
        budget -= ran < budget ? ran : budget;
        if (stop == HSX_STOP_BREAKPOINT)
            owner->vm.skip_breakpoint = owner->vm.pc;
    } while (stop == HSX_STOP_BREAKPOINT && budget);
    owner->in_handler = 0;
    returned = stop == HSX_STOP_FAULT && owner->vm.fault == HSX_FAULT_PC
            && owner->vm.fault_addr == (int64_t)HSX_HANDLER_RETURN;
    *result = hsx_k_reg(owner, 0);
    if (!returned)
        dmesg(owner->pid, "command handler did not return");
    saved.steps = owner->vm.steps;
    hsx_k_copy(&owner->vm, &saved, sizeof saved);
    hsx_k_copy(owner->vm.mem + owner->vm.reg_base, regs, HSX_REG_WINDOW);
    hsx_k_mbx_resume_wait(owner);       /* a wake that came meanwhile */
    return returned;
}

/* CALL and CALL_ASYNC (CommandCalls.call_command): the status; the result in *result.
 * With reply_handle non-zero the completion also goes to the caller on that handle. */
static int call_command(uint32_t caller, int auth, uint16_t oid, uint32_t reply_handle,
                        uint32_t *result)
{
    struct command *c = command_of(oid);
    hsx_tcb *owner;
    int status;
    *result = 0;
    if (!c)
        return V_ENOENT;
    if (reply_handle && !(c->e.flags & CF_ASYNC))
        return C_ENOASYNC;
    if (!hsx_rg_may_access(c->e.owner, c->e.auth, caller, auth))
        return V_EPERM;
    if (c->e.flags & CF_PIN)
        return V_EPERM;                 /* no PIN is configured: every PIN command is refused */
    if (!(c->e.flags & CF_HANDLER))
        return C_EFAIL;
    owner = hsx_k_live(c->e.owner);
    if (!owner || owner == hsx_k_current || owner->in_handler)
        status = C_EFAIL;               /* gone, a task calling itself, or busy */
    else
        status = run_handler(owner, c->handler, result) ? V_OK : C_EFAIL;
    if (status != V_OK)
        *result = 0;
    if (reply_handle) {
        uint8_t payload[8];
        hsx_k_put16(payload, oid);
        hsx_k_put16(payload + 2, (uint32_t)status);
        hsx_k_put32(payload + 4, *result);
        hsx_k_mbx_send(caller, reply_handle, payload, 8, 0, 0);
        return V_OK;
    }
    return status;
}

int hsx_k_svc_commands(hsx_tcb *t, uint32_t fn, const uint32_t *args)
{
    uint32_t r1 = args[1], r2 = args[2], r3 = args[3], result = 0;
    uint16_t oid = (uint16_t)r1;
    char text[HSX_MAX_STRING + 1];
    int status, r;
    switch (fn) {
    case 0: {                                       /* REGISTER */
        struct command c;
        struct hsx_rg_chain_text chain;
        hsx_rg_desc d;
        r = hsx_rg_decode_chain(t, args[4], 1, &d, &chain);
        FAULT_OR(r, V_EINVAL);
        status = prepare_command(&c, t->pid, r1 & 0xFFu, r2 & 0xFFu, r3 & 0x7Fu, AUTH_PUBLIC, &d,
                                 (r3 & CMD_REGISTER_HANDLER) != 0, args[5]);
        if (status == V_OK)
            status = hsx_rg_add(&hsx_rg_commands, &c.e, &d);
        hsx_k_set_r0_r1(t, (uint32_t)status, status == V_OK ? c.e.oid : 0);
        break;
    }
    case 1:                                         /* LOOKUP */
        oid = (uint16_t)((r1 & 0xFFu) << 8 | (r2 & 0xFFu));
        hsx_k_set_r0_r1(t, command_of(oid) ? V_OK : V_ENOENT, command_of(oid) ? oid : 0);
        break;
    case 2:                                         /* CALL (a token cannot match: no PIN) */
        if (r2 && hsx_k_guest_string(t, r2, text, sizeof text) < 0)
            return HSX_SVC_FAULT;
        status = call_command(t->pid, AUTH_PUBLIC, oid, 0, &result);
        hsx_k_set_r0_r1(t, (uint32_t)status, result);
        break;
    case 3: {                                       /* CALL_ASYNC */
        uint32_t handle = 0;
        int n = 0;
        if (r2 && hsx_k_guest_string(t, r2, text, sizeof text) < 0)
            return HSX_SVC_FAULT;
        if (r3 && (n = hsx_k_guest_string(t, r3, text, sizeof text)) < 0)
            return HSX_SVC_FAULT;
        if (!n || hsx_k_mbx_open(t->pid, text, (uint32_t)n, HSX_MBX_RDWR, &handle) != HSX_MBX_OK) {
            status = V_EINVAL;
        } else {
            status = call_command(t->pid, AUTH_PUBLIC, oid, handle, &result);
            if (status != V_OK)
                hsx_k_mbx_close(t->pid, handle);
        }
        hsx_k_set_r0_r1(t, (uint32_t)status, status == V_OK ? handle : 0);
        break;
    }
    case 4: {                                       /* HELP */
        struct command *c = command_of(oid);
        uint32_t size = r3 & 0xFFFFu, n = 0;
        if (!hsx_k_guest_ok(t, r2, size))
            return HSX_SVC_FAULT;
        if (c && size) {
            const char *help = hsx_rg_string_at(c->e.strings, c->e.has, 2);
            n = help ? hsx_k_strlen(help, HELP_MAX_BYTES) : 0;
            if (n > size - 1)
                n = size - 1;
            hsx_k_copy(t->vm.mem + r2, help ? help : "", n);
            t->vm.mem[r2 + n] = 0;
        }
        hsx_k_set_r0_r1(t, c ? V_OK : V_ENOENT, n);
        break;
    }
    default:
        hsx_k_set_reg(t, 0, V_EINVAL);
        break;
    }
    return HSX_SVC_DONE;
}

hsx_status hsx_k_commands_from_image(hsx_tcb *t, const uint8_t *sec, uint32_t size, uint32_t count)
{
    struct command c;
    uint32_t i, used = hsx_rg_count(&hsx_rg_commands), pool = 0;
    int status;
    hsx_rg_desc d;
    (void)size;
    for (i = 0; i < 2 * count; i++) {
        const uint8_t *r = sec + 16u * (i % count);
        uint32_t off[3];
        off[0] = hsx_rg_be16(r + 8);
        off[1] = hsx_rg_be16(r + 14);
        off[2] = hsx_rg_be16(r + 10);
        hsx_k_fill(&d, 0, sizeof d);
        hsx_rg_record_strings(sec, off, &d);
        status = prepare_command(&c, t->pid, r[0], r[1], r[2], r[3], &d, 1,
                                 hsx_rg_be16(r + 4) << 16 | hsx_rg_be16(r + 6));
        if (i < count) {
            if (status != V_OK)
                return hsx_rg_refuse(HSX_ERR_COMMAND, status);
            pool += (d.text[0] || d.text[1] || d.text[2]) ? hsx_rg_block_size(&d) : 0;
            if (i + 1 == count && (used + count > HSX_MAX_COMMANDS || pool > hsx_rg_names_free()))
                return hsx_rg_refuse(HSX_ERR_COMMAND, V_ENOSPC);
        } else {
            hsx_rg_add(&hsx_rg_commands, &c.e, &d);
        }
    }
    return HSX_OK;
}

int hsx_exec_next_command(uint32_t *cursor, hsx_command_info *out)
{
    struct command *best = (struct command *)(void *)hsx_rg_next(&hsx_rg_commands, cursor);
    if (!best)
        return 0;
    hsx_k_fill(out, 0, sizeof *out);
    out->oid = best->e.oid;
    out->flags = best->e.flags & CF_ALL;
    out->auth_level = best->e.auth;
    out->owner_pid = (uint16_t)best->e.owner;
    out->handler_addr = best->e.flags & CF_HANDLER ? best->handler : 0xFFFFFFFFu;
    out->name = hsx_rg_string_at(best->e.strings, best->e.has, 0);
    out->group_name = hsx_rg_string_at(best->e.strings, best->e.has, 1);
    out->help = hsx_rg_string_at(best->e.strings, best->e.has, 2);
    return 1;
}

hsx_status hsx_exec_command_find(const char *name, uint16_t *oid)
{
    uint32_t cursor = 0;
    hsx_command_info info;
    while (name && hsx_exec_next_command(&cursor, &info))
        if (hsx_rg_named(name, info.name, info.group_name)) {
            *oid = info.oid;
            return HSX_OK;
        }
    return HSX_ERR_UNKNOWN_NAME;
}

hsx_status hsx_exec_command_call(uint16_t oid, int32_t *result)
{
    uint32_t r = 0;
    int status = call_command(HOST_PID, AUTH_USER, oid, 0, &r);
    if (result)
        *result = (int32_t)r;
    return status == V_OK ? HSX_OK : hsx_rg_refuse(HSX_ERR_COMMAND, status);
}

HSX_COLD_CODE_END
