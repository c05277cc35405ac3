/* HSX C executive: the debug services of the development and full variants.
 *
 * Breakpoints with ids, hit counts, enable and temporaries (the VM's bitmap holds the
 * addresses; several breakpoints may share one), run-to, the raw stack walk of
 * docs/debugger.md "Stack walk" (pc, sp, fp of each frame from the R14 chain: the host
 * symbolises), watches (an address range compared after every instruction of the task;
 * a change is reported with the instruction that made it, and may stop the task) and a
 * trace ring of the instructions traced tasks retire. The minimal variant has none of
 * it: these functions answer HSX_ERR_UNSUPPORTED there.
 */
#include "hsx_kernel.h"

HSX_COLD_CODE_BEGIN

#if HSX_HAS_DEBUG

static struct bp {
    uint32_t id, pid, addr, hits;
    uint8_t used, enabled, temporary, brk, code;
} bps[HSX_MAX_BREAKPOINTS];

static struct watch {
    uint32_t id, pid, addr, len;
    uint8_t used, stop;
    uint8_t old[HSX_WATCH_BYTES];
} watches[HSX_MAX_WATCHES];

/* A traced instruction in 8 bytes: its task by slot (+1; 0: none), its pc (code is at
 * most 64 KiB) and the low half of the task's instruction count (the high half is the
 * task's now, or one less: a record is never 2^32 instructions old while it is read). */
static struct trace { uint32_t steps; uint16_t pc; uint8_t slot; } ring[HSX_TRACE_RECORDS];
static uint32_t ring_next, ring_count, next_bp_id = 1, next_watch_id = 1;
/* the change that stopped a task: the watch, the instruction, old then new bytes */
static uint32_t stop_watch, stop_addr, stop_pc, stop_len;
static uint8_t stop_bytes[2 * HSX_WATCH_BYTES];

static int installed_elsewhere(const struct bp *b)
{
    int i;
    for (i = 0; i < HSX_MAX_BREAKPOINTS; i++)
        if (bps[i].used && &bps[i] != b && !bps[i].brk && bps[i].pid == b->pid
                && bps[i].addr == b->addr)
            return 1;
    return 0;
}

static void drop_bp(struct bp *b)
{
    hsx_tcb *t = hsx_k_task(b->pid);
    b->used = 0;
    if (t && !b->brk && !installed_elsewhere(b))
        hsx_breakpoint(&t->vm, b->addr, 0);
}

static struct bp *new_bp(uint32_t pid, uint32_t addr)
{
    int i;
    for (i = 0; i < HSX_MAX_BREAKPOINTS && bps[i].used; i++)
        ;
    if (i == HSX_MAX_BREAKPOINTS)
        return 0;
    hsx_k_fill(&bps[i], 0, sizeof bps[i]);
    bps[i].used = bps[i].enabled = 1;
    bps[i].id = next_bp_id++;
    bps[i].pid = pid;
    bps[i].addr = addr;
    return &bps[i];
}

/* The BRK instructions of a new task's code (LDI32 takes two words: its literal is not
 * an instruction), as hsx execd lists them. */
void hsx_k_debug_attach(hsx_tcb *t)
{
    uint32_t addr;
    struct bp *b;
    for (addr = 0; addr + 4 <= t->vm.code_len; addr += t->vm.code_bytes[addr] == 0x60 ? 8 : 4)
        if (t->vm.code_bytes[addr] == 0x7F && (b = new_bp(t->pid, addr)) != 0) {
            b->brk = 1;
            b->code = t->vm.code_bytes[addr + 3];
        }
}

static struct bp *bp_of(uint32_t id)
{
    int i;
    for (i = 0; i < HSX_MAX_BREAKPOINTS; i++)
        if (bps[i].used && bps[i].id == id)
            return &bps[i];
    return 0;
}

hsx_status hsx_exec_bp_set(uint32_t pid, uint32_t addr, int temporary, uint32_t *id)
{
    hsx_tcb *t = hsx_k_task(pid);
    struct bp *b;
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    if (hsx_k_ended(t))
        return HSX_ERR_TASK_ENDED;
    if ((addr & 3u) || addr >= t->vm.code_len)
        return HSX_ERR_BAD_ADDRESS;
    if (hsx_breakpoint(&t->vm, addr, 1) != 0)
        return HSX_ERR_BAD_ADDRESS;
    if ((b = new_bp(pid, addr)) == 0) {
        hsx_breakpoint(&t->vm, addr, 0);
        return HSX_ERR_TOO_MANY_BREAKPOINTS;
    }
    b->temporary = (uint8_t)(temporary != 0);
    if (id)
        *id = b->id;
    return HSX_OK;
}

hsx_status hsx_exec_bp_clear(uint32_t id)
{
    struct bp *b = bp_of(id);
    if (!b)
        return HSX_ERR_UNKNOWN_BREAKPOINT;
    if (b->brk)
        return HSX_ERR_STATIC_BREAKPOINT;
    drop_bp(b);
    return HSX_OK;
}

hsx_status hsx_exec_bp_enable(uint32_t id, int enabled)
{
    struct bp *b = bp_of(id);
    if (!b)
        return HSX_ERR_UNKNOWN_BREAKPOINT;
    b->enabled = (uint8_t)(enabled != 0);
    return HSX_OK;
}

int hsx_exec_next_breakpoint(uint32_t *cursor, hsx_breakpoint_info *out)
{
    struct bp *best = 0;
    int i;
    for (i = 0; i < HSX_MAX_BREAKPOINTS; i++)
        if (bps[i].used && bps[i].id > *cursor && (!best || bps[i].id < best->id))
            best = &bps[i];
    if (!best)
        return 0;
    *cursor = best->id;
    out->id = best->id;
    out->pid = best->pid;
    out->addr = best->addr;
    out->hits = best->hits;
    out->enabled = best->enabled;
    out->temporary = best->temporary;
    out->brk = best->brk;
    out->code = best->code;
    return 1;
}

hsx_status hsx_exec_run_to(uint32_t pid, uint32_t addr, uint32_t *id)
{
    hsx_status s = hsx_exec_bp_set(pid, addr, 1, id);
    hsx_tcb *t = hsx_k_task(pid);
    if (s != HSX_OK)
        return s;
    if (t->state == HSX_STATE_PAUSED)
        return hsx_exec_resume(pid);
    return HSX_OK;
}

int hsx_k_debug_stop(hsx_tcb *t, int stop, hsx_event *ev)
{
    struct bp *hit = 0;
    int i, any = 0;
    if (stop == HSX_STOP_WATCH) {
        ev->id = stop_watch;
        ev->addr = stop_addr;
        ev->b = stop_pc;
        ev->data = stop_bytes;
        ev->len = 2 * stop_len;
        return 1;
    }
    for (i = 0; i < HSX_MAX_BREAKPOINTS; i++) {
        struct bp *b = &bps[i];
        if (!b->used || b->pid != t->pid || b->addr != ev->pc || b->brk != (stop == HSX_STOP_BRK))
            continue;
        any = 1;
        if (b->enabled && (!hit || b->id < hit->id))
            hit = b;
    }
    if (!hit)
        return !any;                    /* only disabled ones there: run on */
    hit->hits++;
    ev->id = hit->id;
    if (stop == HSX_STOP_BRK)
        return 1;                       /* ev->a keeps the BRK's code */
    ev->a = hit->temporary;
    if (hit->temporary)
        drop_bp(hit);
    return 1;
}

/* ---- the stack ---------------------------------------------------------------------------- */

static int in_stack(const hsx_tcb *t, uint32_t addr, uint32_t width)
{
    return addr >= t->vm.stack_base && (uint64_t)addr + width <= t->vm.stack_top;
}

/* Whether a return address follows a call instruction (CALL, CALLR, LCALL). */
static int follows_call(const hsx_tcb *t, uint32_t ret)
{
    uint8_t op;
    if ((ret & 3u) || ret < 4 || ret > t->vm.code_len)
        return 0;
    op = t->vm.code_bytes[ret - 4];
    return op == 0x24 || op == 0x27 || op == 0x29;
}

hsx_status hsx_exec_stack(uint32_t pid, hsx_frame *frames, uint32_t max, uint32_t *count)
{
    hsx_tcb *t = hsx_k_task(pid);
    uint32_t n = 0, pc, sp, fp;
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    if (max > HSX_STACK_FRAMES)
        max = HSX_STACK_FRAMES;
    pc = t->vm.pc;
    sp = hsx_k_reg(t, HSX_SP_REGISTER);
    fp = hsx_k_reg(t, 14);
    while (n < max) {
        uint32_t ret, caller_fp;
        frames[n].pc = pc;
        frames[n].sp = sp;
        frames[n].fp = fp;
        n++;
        /* the caller from the frame [R14] = its R14, [R14 + 4] = the return address */
        if (!fp || !in_stack(t, fp, 8) || fp < sp || sp > t->vm.stack_top)
            break;
        ret = hsx_k_le32(t->vm.mem + fp + 4);
        caller_fp = hsx_k_le32(t->vm.mem + fp);
        if (!follows_call(t, ret))
            break;
        pc = ret;
        sp = fp + 8;
        fp = caller_fp;
    }
    *count = n;
    return HSX_OK;
}

/* ---- watches and the trace ------------------------------------------------------------------- */

hsx_status hsx_exec_watch_add(uint32_t pid, uint32_t addr, uint32_t len, int stop, uint32_t *id)
{
    hsx_tcb *t = hsx_k_task(pid);
    int i;
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    if (hsx_k_ended(t))
        return HSX_ERR_TASK_ENDED;
    if (!len || len > HSX_WATCH_BYTES || addr > t->vm.mem_size || len > t->vm.mem_size - addr)
        return HSX_ERR_BAD_ARGUMENT;
    for (i = 0; i < HSX_MAX_WATCHES && watches[i].used; i++)
        ;
    if (i == HSX_MAX_WATCHES)
        return HSX_ERR_TOO_MANY_WATCHES;
    watches[i].used = 1;
    watches[i].id = next_watch_id++;
    watches[i].pid = pid;
    watches[i].addr = addr;
    watches[i].len = len;
    watches[i].stop = (uint8_t)(stop != 0);
    hsx_k_copy(watches[i].old, t->vm.mem + addr, len);
    if (id)
        *id = watches[i].id;
    return HSX_OK;
}

hsx_status hsx_exec_watch_remove(uint32_t id)
{
    int i;
    for (i = 0; i < HSX_MAX_WATCHES; i++)
        if (watches[i].used && watches[i].id == id) {
            watches[i].used = 0;
            return HSX_OK;
        }
    return HSX_ERR_UNKNOWN_WATCH;
}

int hsx_exec_next_watch(uint32_t *cursor, hsx_watch_info *out)
{
    struct watch *best = 0;
    int i;
    for (i = 0; i < HSX_MAX_WATCHES; i++)
        if (watches[i].used && watches[i].id > *cursor && (!best || watches[i].id < best->id))
            best = &watches[i];
    if (!best)
        return 0;
    *cursor = best->id;
    out->id = best->id;
    out->pid = best->pid;
    out->addr = best->addr;
    out->length = best->len;
    out->stop = best->stop;
    return 1;
}

int hsx_k_debug_watched(const hsx_tcb *t)
{
    int i;
    if (t->traced)
        return 1;
    for (i = 0; i < HSX_MAX_WATCHES; i++)
        if (watches[i].used && watches[i].pid == t->pid)
            return 1;
    return 0;
}

/* Report each watched range of t that changed (pc: the instruction, or none); 1 when a
 * stopping watch changed. */
static int compare(hsx_tcb *t, uint32_t pc, int has_pc)
{
    int i, stop = 0, changed = 0;
    for (i = 0; i < HSX_MAX_WATCHES; i++) {
        struct watch *w = &watches[i];
        uint8_t both[2 * HSX_WATCH_BYTES];
        uint32_t k;
        hsx_event ev;
        if (!w->used || w->pid != t->pid)
            continue;
        for (k = 0; k < w->len && w->old[k] == t->vm.mem[w->addr + k]; k++)
            ;
        if (k == w->len)
            continue;
        hsx_k_copy(both, w->old, w->len);
        hsx_k_copy(both + w->len, t->vm.mem + w->addr, w->len);
        hsx_k_copy(w->old, t->vm.mem + w->addr, w->len);
        hsx_k_event(&ev, HSX_EV_WATCH_UPDATE, t->pid);
        ev.id = w->id;
        ev.addr = w->addr;
        ev.pc = pc;
        ev.c = (uint32_t)has_pc;
        ev.data = both;
        ev.len = 2 * w->len;
        hsx_k_emit(&ev);
        changed = 1;
        if (w->stop && !stop) {
            stop = 1;
            stop_watch = w->id;
            stop_addr = w->addr;
            stop_pc = pc;
            stop_len = w->len;
            hsx_k_copy(stop_bytes, both, 2 * w->len);
        }
    }
    return stop ? 2 : changed;
}

int hsx_k_debug_after_step(hsx_tcb *t, uint32_t pc)
{
    if (t->traced) {
        ring[ring_next].slot = (uint8_t)(t - hsx_k_tasks + 1);
        ring[ring_next].pc = (uint16_t)pc;
        ring[ring_next].steps = (uint32_t)t->vm.steps;
        ring_next = (ring_next + 1) % HSX_TRACE_RECORDS;
        if (ring_count < HSX_TRACE_RECORDS)
            ring_count++;
    }
    return compare(t, pc, 1);
}

void hsx_k_debug_poked(hsx_tcb *t) { compare(t, 0, 0); }

hsx_status hsx_exec_trace(uint32_t pid, int on)
{
    hsx_tcb *t = hsx_k_task(pid);
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    t->traced = (uint8_t)(on != 0);
    return HSX_OK;
}

uint32_t hsx_exec_trace_records(uint32_t pid, hsx_trace_record *out, uint32_t max)
{
    hsx_tcb *t = hsx_k_task(pid);
    uint32_t n = 0, matching = 0, i, skip;
    uint8_t slot = t ? (uint8_t)(t - hsx_k_tasks + 1) : 0;
    for (i = 0; slot && i < ring_count; i++)
        matching += ring[(ring_next + HSX_TRACE_RECORDS - ring_count + i) % HSX_TRACE_RECORDS].slot == slot;
    if (!out)
        return matching;
    skip = matching > max ? matching - max : 0;      /* the newest `max`, oldest first */
    for (i = 0; i < ring_count && n < max; i++) {
        const struct trace *r = &ring[(ring_next + HSX_TRACE_RECORDS - ring_count + i) % HSX_TRACE_RECORDS];
        if (r->slot != slot)
            continue;
        if (skip) {
            skip--;
            continue;
        }
        out[n].pc = r->pc;
        out[n].steps = (t->vm.steps & ~(uint64_t)0xFFFFFFFFu) | r->steps;
        if (out[n].steps > t->vm.steps)
            out[n].steps -= (uint64_t)1 << 32;
        n++;
    }
    return n;
}

void hsx_k_debug_init(void)
{
    hsx_k_fill(bps, 0, sizeof bps);
    hsx_k_fill(watches, 0, sizeof watches);
    hsx_k_fill(ring, 0, sizeof ring);
    ring_next = ring_count = stop_watch = 0;
    next_bp_id = next_watch_id = 1;
}

void hsx_k_debug_release(hsx_tcb *t)
{
    int i;
    for (i = 0; i < HSX_MAX_BREAKPOINTS; i++)
        if (bps[i].used && bps[i].pid == t->pid)
            bps[i].used = 0;
    for (i = 0; i < HSX_MAX_WATCHES; i++)
        if (watches[i].used && watches[i].pid == t->pid)
            watches[i].used = 0;
    for (i = 0; i < HSX_TRACE_RECORDS; i++)
        if (ring[i].slot == t - hsx_k_tasks + 1)
            ring[i].slot = 0;
}

#else /* minimal: no debug services */

hsx_status hsx_exec_bp_set(uint32_t pid, uint32_t addr, int temporary, uint32_t *id)
{
    (void)pid; (void)addr; (void)temporary; (void)id;
    return HSX_ERR_UNSUPPORTED;
}
hsx_status hsx_exec_bp_clear(uint32_t id) { (void)id; return HSX_ERR_UNSUPPORTED; }
hsx_status hsx_exec_bp_enable(uint32_t id, int enabled) { (void)id; (void)enabled; return HSX_ERR_UNSUPPORTED; }
int hsx_exec_next_breakpoint(uint32_t *cursor, hsx_breakpoint_info *out) { (void)cursor; (void)out; return 0; }
hsx_status hsx_exec_run_to(uint32_t pid, uint32_t addr, uint32_t *id)
{
    (void)pid; (void)addr; (void)id;
    return HSX_ERR_UNSUPPORTED;
}
hsx_status hsx_exec_stack(uint32_t pid, hsx_frame *frames, uint32_t max, uint32_t *count)
{
    (void)pid; (void)frames; (void)max; (void)count;
    return HSX_ERR_UNSUPPORTED;
}
hsx_status hsx_exec_watch_add(uint32_t pid, uint32_t addr, uint32_t len, int stop, uint32_t *id)
{
    (void)pid; (void)addr; (void)len; (void)stop; (void)id;
    return HSX_ERR_UNSUPPORTED;
}
hsx_status hsx_exec_watch_remove(uint32_t id) { (void)id; return HSX_ERR_UNSUPPORTED; }
int hsx_exec_next_watch(uint32_t *cursor, hsx_watch_info *out) { (void)cursor; (void)out; return 0; }
hsx_status hsx_exec_trace(uint32_t pid, int on) { (void)pid; (void)on; return HSX_ERR_UNSUPPORTED; }
uint32_t hsx_exec_trace_records(uint32_t pid, hsx_trace_record *out, uint32_t max)
{
    (void)pid; (void)out; (void)max;
    return 0;
}

#endif

HSX_COLD_CODE_END
