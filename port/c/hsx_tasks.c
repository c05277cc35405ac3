/* HSX C executive: tasks, the state machine, the scheduler, timers and sleep.
 *
 * The same rules as hsx.kernel (docs/scheduler.md): every state change goes through
 * hsx_k_transition, which checks the transition table and emits one task_state event;
 * ready <-> running is scheduling, not a state change. Strict priorities, round robin
 * by quantum within a level, a lone task at the top runs in long turns, and a level
 * where every task has quantum 1 runs interleaved inside the VM.
 */
#include "hsx_kernel.h"

hsx_tcb hsx_k_tasks[HSX_MAX_TASKS];
const hsx_hal *hsx_k_hal;
hsx_tcb *hsx_k_current;

static uint8_t task_memory[HSX_MAX_TASKS][HSX_TASK_MEMORY];
static hsx_event_listener listener;
static uint32_t next_pid, ready_counter, timer_counter, last_pid, started_at;
static uint8_t ready_changed;           /* a task became ready while another ran */
static uint8_t watch_changed;           /* a watch reported a change: end the run */

/* Stops beyond hsx_stop that hsx_k_run_vm reports: an SVC's request. */
enum { KSTOP_YIELD = 16, KSTOP_EXIT, KSTOP_SLEEP, KSTOP_BLOCK };

/* ---- states ------------------------------------------------------------------------- */

static const char *const STATE_NAMES[] = {
    "none", "ready", "running", "waiting_mbx", "sleeping", "waiting_cmd", "paused",
    "returned", "faulted", "killed"
};
static const char *const REASON_NAMES[] = {
    "loaded", "debug_break", "sleep", "sleep_wake", "mailbox_wait", "mailbox_wake",
    "timeout", "command_wait", "command_done", "handler_returned", "user_pause", "resume",
    "returned", "faulted", "killed"
};

const char *hsx_state_name(hsx_state state)
{
    return (unsigned)state < sizeof STATE_NAMES / sizeof *STATE_NAMES ? STATE_NAMES[state] : "?";
}

const char *hsx_reason_name(hsx_reason reason)
{
    return (unsigned)reason < sizeof REASON_NAMES / sizeof *REASON_NAMES ? REASON_NAMES[reason] : "?";
}

/* The transition table of hsx.kernel.states as state bit masks: which states a reason
 * may leave (bit 0: a new task) and which it may enter. */
#define B(s) (1u << HSX_STATE_##s)
#define ON_CPU (B(READY) | B(RUNNING))
#define WAITS (B(WAITING_MBX) | B(SLEEPING) | B(WAITING_CMD))
#define LIVE (ON_CPU | B(PAUSED) | WAITS)
static const uint16_t TRANSITIONS[][2] = {
    /* loaded */           { 1u, B(READY) },
    /* debug_break */      { ON_CPU | WAITS, B(PAUSED) },
    /* sleep */            { ON_CPU, B(SLEEPING) },
    /* sleep_wake */       { B(SLEEPING), B(READY) },
    /* mailbox_wait */     { ON_CPU, B(WAITING_MBX) },
    /* mailbox_wake */     { B(WAITING_MBX), B(READY) },
    /* timeout */          { B(WAITING_MBX), B(READY) },
    /* command_wait */     { ON_CPU, B(WAITING_CMD) },
    /* command_done */     { B(WAITING_CMD), B(READY) },
    /* handler_returned */ { ON_CPU | B(PAUSED), LIVE & ~B(RUNNING) },
    /* user_pause */       { LIVE & ~B(PAUSED), B(PAUSED) },
    /* resume */           { B(PAUSED), B(READY) | WAITS },
    /* returned */         { ON_CPU | B(PAUSED), B(RETURNED) },
    /* faulted */          { ON_CPU | B(PAUSED), B(FAULTED) },
    /* killed */           { LIVE | B(RETURNED) | B(FAULTED), B(KILLED) },
};

static int runnable(uint8_t state) { return state == HSX_STATE_READY || state == HSX_STATE_RUNNING; }

HSX_NOINLINE int hsx_k_ended(const hsx_tcb *t)
{
    return t->state == HSX_STATE_RETURNED || t->state == HSX_STATE_FAULTED
        || t->state == HSX_STATE_KILLED;
}

HSX_NOINLINE void hsx_k_emit(hsx_event *event)
{
    if (listener)
        listener(event);
}

void hsx_k_event(hsx_event *event, hsx_event_type type, uint32_t pid)
{
    hsx_k_fill(event, 0, sizeof *event);
    event->type = type;
    event->pid = pid;
}

void hsx_exec_set_listener(hsx_event_listener fn) { listener = fn; }

const hsx_hal *hsx_exec_hal(void) { return hsx_k_hal; }

HSX_NOINLINE uint32_t hsx_k_now(void)
{
    return hsx_k_hal && hsx_k_hal->now_ms ? hsx_k_hal->now_ms() : 0;
}

uint32_t hsx_k_uptime_ms(void) { return hsx_k_now() - started_at; }

static void diagnostic(const char *text)
{
    if (hsx_k_hal && hsx_k_hal->diagnostic)
        hsx_k_hal->diagnostic(text);
}

/* ---- the ready queue: strict priorities, FIFO within a level ------------------------- */

static void enqueue(hsx_tcb *t)
{
    if (!t->queued) {
        t->queued = 1;
        t->ready_seq = ++ready_counter;
    }
}

static int before(const hsx_tcb *a, const hsx_tcb *b)
{
    return a->priority > b->priority
        || (a->priority == b->priority && (int32_t)(a->ready_seq - b->ready_seq) < 0);
}

static hsx_tcb *pick(void)
{
    hsx_tcb *best = 0;
    int i;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        if (t->pid && t->queued && (!best || before(t, best)))
            best = t;
    }
    return best;
}

/* The ready tasks at `priority`, in turn order (at most HSX_MAX_TASKS). */
static uint32_t level_of(uint8_t priority, hsx_tcb **out)
{
    uint32_t n = 0, i, j;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        if (!t->pid || !t->queued || t->priority != priority)
            continue;
        for (j = n++; j > 0 && before(t, out[j - 1]); j--)
            out[j] = out[j - 1];
        out[j] = t;
    }
    return n;
}

HSX_NOINLINE void hsx_k_rotate(hsx_tcb *t)
{
    if (t->queued)
        t->ready_seq = ++ready_counter;
}

/* ---- state changes ------------------------------------------------------------------ */

HSX_NOINLINE hsx_tcb *hsx_k_task(uint32_t pid)
{
    int i;
    if (!pid)
        return 0;
    for (i = 0; i < HSX_MAX_TASKS; i++)
        if (hsx_k_tasks[i].pid == pid)
            return &hsx_k_tasks[i];
    return 0;
}

hsx_tcb *hsx_k_live(uint32_t pid)
{
    hsx_tcb *t = hsx_k_task(pid);
    return t && !hsx_k_ended(t) ? t : 0;
}

void hsx_k_transition(hsx_tcb *t, hsx_reason reason, hsx_state target, hsx_event *details)
{
    hsx_event ev;
    uint16_t to = TRANSITIONS[reason][1];
    hsx_state prev = (hsx_state)t->state;
    if (target == HSX_STATE_NONE) {     /* the one state the reason leads to */
        target = HSX_STATE_READY;
        while (!((to >> target) & 1u))
            target = (hsx_state)(target + 1);
    }
    if (!((TRANSITIONS[reason][0] >> prev) & 1u) || !((to >> target) & 1u)) {
        diagnostic("task_state: a transition the table forbids (kernel bug)");
        return;
    }
    t->state = (uint8_t)target;
    if (runnable(t->state)) {
        if (t != hsx_k_current)
            ready_changed = 1;
        enqueue(t);
    } else {
        t->queued = 0;
    }
    if (details)
        ev = *details;
    else
        hsx_k_fill(&ev, 0, sizeof ev);
    ev.type = HSX_EV_TASK_STATE;
    ev.pid = t->pid;
    ev.prev = prev;
    ev.state = target;
    ev.reason = reason;
    hsx_k_emit(&ev);
}

HSX_NOINLINE static void transition_simple(hsx_tcb *t, hsx_reason reason, hsx_state target,
                                           uint32_t a)
{
    hsx_event ev;
    hsx_k_fill(&ev, 0, sizeof ev);
    ev.a = a;
    ev.c = 1;                                   /* `a` is given */
    hsx_k_transition(t, reason, target, &ev);
}

void hsx_k_wake(hsx_tcb *t, hsx_reason reason, uint32_t status)
{
    if (t->state == HSX_STATE_PAUSED)
        t->resume_state = HSX_STATE_READY;      /* applied now, runs after `resume` */
    else if (!hsx_k_ended(t))
        transition_simple(t, reason, HSX_STATE_NONE, status);
}

void hsx_k_arm_timer(hsx_tcb *t, uint32_t deadline)
{
    t->deadline = deadline;
    t->timer_seq = ++timer_counter;
    t->timer_armed = 1;
}

void hsx_k_cancel_timer(hsx_tcb *t) { t->timer_armed = 0; }

/* Give back everything the task holds, so its app can be loaded again. */
static void release(hsx_tcb *t)
{
    t->wait = HSX_WAIT_NONE;
    t->resume_state = HSX_STATE_NONE;
    t->queued = 0;
    t->timer_armed = 0;
    hsx_k_mbx_release(t->pid);
    hsx_k_values_release(t->pid);
    hsx_k_fs_release(t->pid);
}

static void end(hsx_tcb *t, hsx_reason reason, hsx_event *details)
{
    hsx_k_transition(t, reason, HSX_STATE_NONE, details);
    release(t);
}

/* ---- tasks ---------------------------------------------------------------------------- */

uint32_t hsx_k_reg(const hsx_tcb *t, int index)
{
    return hsx_k_le32(t->vm.mem + t->vm.reg_base + 4u * (uint32_t)index);
}

void hsx_k_set_reg(hsx_tcb *t, int index, uint32_t value)
{
    hsx_k_put32(t->vm.mem + t->vm.reg_base + 4u * (uint32_t)index, value);
}

void hsx_k_set_r0_r1(hsx_tcb *t, uint32_t r0, uint32_t r1)
{
    hsx_k_set_reg(t, 0, r0);
    hsx_k_set_reg(t, 1, r1);
}

/* Forget an ended task's record (its slot and code go back). */
static void remove_record(hsx_tcb *t)
{
#if HSX_HAS_DEBUG
    hsx_k_debug_release(t);
#endif
    hsx_k_arena_release(t);
    t->pid = 0;
    t->state = HSX_STATE_NONE;
}

/* A task slot for an image: its memory is the board's HSX_TASK_MEMORY, its stack what the
 * image asks for (else HSX_STACK_SIZE); an image asking for more memory than a task has,
 * or whose data and stack do not fit it, is refused (layout). */
hsx_tcb *hsx_k_new_task(const hsx_hxe_header *h, hsx_status *status)
{
    hsx_tcb *t = 0, *oldest = 0;
    uint32_t live = 0, reg_base, stack_top, stack_base, stack_size;
    uint64_t heap_start;
    int i;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *c = &hsx_k_tasks[i];
        if (!c->pid) {
            if (!t)
                t = c;
        } else if (!hsx_k_ended(c)) {
            live++;
        } else if (!oldest || c->pid < oldest->pid) {
            oldest = c;
        }
    }
    if (live >= HSX_MAX_TASKS) {
        *status = HSX_ERR_TOO_MANY_TASKS;
        return 0;
    }
    reg_base = HSX_TASK_MEMORY - HSX_REG_WINDOW;
    stack_top = reg_base - HSX_GUARD;
    stack_size = h->stack_size ? h->stack_size : HSX_STACK_SIZE;
    stack_base = stack_top > stack_size ? stack_top - stack_size : 0;
    heap_start = (((uint64_t)HSX_RODATA_BASE + h->ro_len + 3u) & ~(uint64_t)3u) + h->bss;
    heap_start = (heap_start + 7u) & ~(uint64_t)7u;
    if (h->mem_size > HSX_TASK_MEMORY || stack_base < HSX_GUARD
            || heap_start > stack_base - HSX_GUARD) {
        *status = HSX_ERR_LAYOUT;
        return 0;
    }
    if (!t) {                   /* every slot is listed: the oldest ended task goes */
        t = oldest;
        remove_record(t);
    }
    i = (int)(t - hsx_k_tasks);
    hsx_k_fill(t, 0, sizeof *t);
    hsx_k_fill(task_memory[i], 0, HSX_TASK_MEMORY);
    t->vm.mem = task_memory[i];
    t->vm.mem_size = HSX_TASK_MEMORY;
    t->vm.reg_base = reg_base;
    t->vm.stack_top = stack_top;
    t->vm.stack_base = stack_base;
    t->vm.skip_breakpoint = HSX_NO_SKIP;
    t->heap_start = (uint32_t)heap_start;
    t->pid = next_pid++;
    t->priority = HSX_DEFAULT_PRIORITY;
    t->quantum = 1;
    t->next_fd = 3;
    hsx_k_set_reg(t, HSX_SP_REGISTER, stack_top);
    *status = HSX_OK;
    return t;
}

uint32_t hsx_k_next_pid(void) { return next_pid; }

void hsx_k_start_task(hsx_tcb *t)
{
    hsx_event ev;
    char name[HSX_APP_NAME_MAX];
    hsx_k_app_name(t->base_name, t->instance, name);
    hsx_k_fill(&ev, 0, sizeof ev);
    ev.what = name;
    hsx_k_transition(t, HSX_REASON_LOADED, HSX_STATE_NONE, &ev);
}

void hsx_k_discard_task(hsx_tcb *t)
{
    release(t);
    remove_record(t);
}

HSX_COLD_FUNCTION void hsx_exec_init(const hsx_hal *hal)
{
    hsx_k_fill(hsx_k_tasks, 0, sizeof hsx_k_tasks);
    hsx_k_hal = hal;
    hsx_k_current = 0;
    next_pid = 1;
    ready_counter = timer_counter = last_pid = 0;
    started_at = hsx_k_now();
    hsx_k_set_detail("");
    hsx_k_loader_init();
    hsx_k_mbx_init();
    hsx_k_values_init();
    hsx_k_store_init(hal ? hal->persist : 0);
#if HSX_HAS_DEBUG
    hsx_k_debug_init();
#endif
}

/* ---- running ---------------------------------------------------------------------------- */

/* Run t for up to `budget` instructions, handling its SVCs; returns an hsx_stop or a
 * KSTOP_ (an SVC's request). A watched or traced task runs one instruction at a time;
 * a change its watches report ends the run (hsx_exec_run returns), so that the board
 * sends the update before the task makes the next one. */
int hsx_k_run_vm(hsx_tcb *t, uint32_t budget, uint32_t *executed)
{
    uint32_t done = 0;
    int stop;
    hsx_tcb *caller = hsx_k_current;
    hsx_k_current = t;
    for (;;) {
        uint32_t chunk = budget - done, pc = t->vm.pc;
        int act = HSX_SVC_DONE, watch_stop = 0;
        (void)pc;
#if HSX_HAS_DEBUG
        int watched = hsx_k_debug_watched(t);
        if (watched)
            chunk = 1;
#endif
        stop = hsx_run(&t->vm, chunk);
        done += t->vm.executed;
        if (stop == HSX_STOP_SVC && (act = hsx_k_svc(t)) == HSX_SVC_FAULT) {
            t->vm.pc = t->vm.stop_pc;               /* un-retire the SVC */
            t->vm.steps--;
            done--;
            stop = HSX_STOP_FAULT;
            break;
        }
#if HSX_HAS_DEBUG
        if (watched && t->vm.executed)
            watch_stop = hsx_k_debug_after_step(t, pc);
#endif
        if (watch_stop == 1 && !t->in_handler)
            watch_changed = 1;
        if (stop == HSX_STOP_SVC) {
            if (act != HSX_SVC_DONE)
                stop = KSTOP_YIELD + act - HSX_SVC_YIELD;
            else if (watch_stop == 2)
                stop = HSX_STOP_WATCH;
            else if (ready_changed && !t->in_handler)
                stop = KSTOP_YIELD;                 /* another task became ready */
            else if (done >= budget || watch_changed)
                stop = HSX_STOP_BUDGET;
            else
                continue;
            break;
        }
        if (stop == HSX_STOP_BUDGET && (watch_stop == 2 || watch_changed)) {
            stop = watch_stop == 2 ? HSX_STOP_WATCH : HSX_STOP_BUDGET;
            break;
        }
        if (stop != HSX_STOP_BUDGET || done >= budget)
            break;
    }
    hsx_k_current = caller;
    *executed = done;
    return stop;
}

static void announce_break(hsx_tcb *t, const char *why, uint32_t pc, uint32_t id, uint32_t a)
{
    hsx_event ev;
    hsx_k_event(&ev, HSX_EV_DEBUG_BREAK, t->pid);
    ev.what = why;
    ev.pc = pc;
    ev.id = id;
    ev.a = a;
    hsx_k_emit(&ev);
}

/* A fault: its kind and numbers (the FAULT event of hsx_exec.h); the task ends. */
static void announce_fault(hsx_tcb *t)
{
    hsx_event ev;
    uint32_t pc;
    int64_t addr;
    hsx_k_fault_where(t, &pc, &addr);
    hsx_k_event(&ev, HSX_EV_FAULT, t->pid);
    ev.what = hsx_k_fault_kind(t);
    ev.pc = pc;
    ev.addr = addr;
    ev.a = t->vm.fault_detail;
    ev.b = (uint32_t)t->vm.fault;
    hsx_k_emit(&ev);
    hsx_k_fill(&ev, 0, sizeof ev);
    ev.what = hsx_k_fault_kind(t);
    ev.pc = pc;
    end(t, HSX_REASON_FAULTED, &ev);
#if HSX_HAS_DEBUG
    ev.type = HSX_EV_DEBUG_BREAK;
    ev.pid = t->pid;
    ev.what = "fault";
    ev.what2 = hsx_k_fault_kind(t);
    ev.addr = addr;
    hsx_k_emit(&ev);
#endif
}

/* What a stop means for the task (Kernel._after_stop). Returns 1 when a debug_break
 * was announced. */
static int after_stop(hsx_tcb *t, int stop, int stepping)
{
    hsx_event ev;
    hsx_k_fill(&ev, 0, sizeof ev);
    switch (stop) {
    case HSX_STOP_RETURNED:
    case KSTOP_EXIT:
        if (stop == HSX_STOP_RETURNED)
            t->exit_status = (int32_t)hsx_k_reg(t, 0);
        t->has_exit_status = 1;
        ev.a = (uint32_t)t->exit_status;
        ev.c = 1;
        ev.what = stop == KSTOP_EXIT ? "exit" : "ret";
        end(t, HSX_REASON_RETURNED, &ev);
        return 0;
    case HSX_STOP_FAULT:
        announce_fault(t);
        return HSX_HAS_DEBUG;
    case HSX_STOP_BRK:
    case HSX_STOP_BREAKPOINT:
    case HSX_STOP_WATCH:
        ev.type = HSX_EV_DEBUG_BREAK;
        ev.pid = t->pid;
        ev.pc = t->vm.stop_pc;
        ev.what = stop == HSX_STOP_BRK ? "brk" : stop == HSX_STOP_WATCH ? "watch" : "breakpoint";
        ev.a = stop == HSX_STOP_BRK ? t->vm.brk_code : 0;
#if HSX_HAS_DEBUG
        if (!hsx_k_debug_stop(t, stop, &ev))
            return 0;                               /* a disabled breakpoint: run on */
#endif
        if (t->state != HSX_STATE_PAUSED) {
            hsx_event why;
            hsx_k_fill(&why, 0, sizeof why);
            why.pc = ev.pc;
            why.what = ev.what;
            t->resume_state = HSX_STATE_READY;
            hsx_k_transition(t, HSX_REASON_DEBUG_BREAK, HSX_STATE_NONE, &why);
        }
        hsx_k_emit(&ev);
        return 1;
    case KSTOP_YIELD:
        hsx_k_rotate(t);
        return 0;
    case KSTOP_SLEEP:
        t->wait = HSX_WAIT_SLEEP;
        t->sleeps++;
        hsx_k_arm_timer(t, hsx_k_now() + t->wait_ms);
        if (stepping)
            t->resume_state = HSX_STATE_SLEEPING;
        else
            transition_simple(t, HSX_REASON_SLEEP, HSX_STATE_NONE, t->wait_ms);
        return 0;
    case KSTOP_BLOCK:
        t->waits++;
        if (stepping)
            t->resume_state = HSX_STATE_WAITING_MBX;
        else
            transition_simple(t, HSX_REASON_MAILBOX_WAIT, HSX_STATE_NONE, t->wait_handle);
        return 0;
    default:
        return 0;
    }
}

/* Fire every timer that is due, earliest first (equal deadlines in the order armed). */
static void fire_timers(void)
{
    uint32_t now = hsx_k_now();
    for (;;) {
        hsx_tcb *first = 0;
        int i;
        for (i = 0; i < HSX_MAX_TASKS; i++) {
            hsx_tcb *t = &hsx_k_tasks[i];
            if (!t->pid || !t->timer_armed || !hsx_k_due(t->deadline, now))
                continue;
            if (!first || (int32_t)(t->deadline - first->deadline) < 0
                    || (t->deadline == first->deadline
                        && (int32_t)(t->timer_seq - first->timer_seq) < 0))
                first = t;
        }
        if (!first)
            break;
        first->timer_armed = 0;
        if (first->wait == HSX_WAIT_SLEEP) {
            first->wait = HSX_WAIT_NONE;
            first->wakes++;
            hsx_k_wake(first, HSX_REASON_SLEEP_WAKE, 0);
        } else if (first->wait != HSX_WAIT_NONE) {
            hsx_k_mbx_expire(first);
        }
    }
    {
        uint32_t due;
        if (hsx_k_store_next_due(&due) && hsx_k_due(due, now))
            hsx_k_store_flush(0);
    }
}

/* The earliest deadline (a task's timer or a debounced write): 1 when there is one. */
static int next_deadline(uint32_t *out)
{
    int found = hsx_k_store_next_due(out), i;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        if (t->pid && t->timer_armed && (!found || (int32_t)(t->deadline - *out) < 0)) {
            *out = t->deadline;
            found = 1;
        }
    }
    return found;
}

/* Quantum-1 turns among the front level in one VM call (Kernel._round_robin): returns
 * the instructions executed; 0 when the level does not qualify or nothing ran. */
static uint32_t round_robin(hsx_tcb **level, uint32_t count, uint32_t budget, int has_deadline)
{
    hsx_task *vms[HSX_MAX_TASKS];
    uint32_t rounds = budget / count, done, executed, i;
    int32_t stopped;
    for (i = 0; i < count; i++) {
        hsx_tcb *t = level[i];
        if (t->quantum != 1 || t->vm.skip_breakpoint != HSX_NO_SKIP
#if HSX_HAS_DEBUG
            || hsx_k_debug_watched(t)
#endif
        )
            return 0;
        vms[i] = &t->vm;
    }
    if (has_deadline && rounds > HSX_REAL_TIME_SLICE / count + 1)
        rounds = HSX_REAL_TIME_SLICE / count + 1;
    if (!rounds)
        return 0;
    done = hsx_run_interleaved(vms, count, rounds, &stopped);
    executed = done * count + (stopped > 0 ? (uint32_t)stopped : 0);
    for (i = 0; i < count; i++)
        level[i]->turns += done;
    if (stopped >= 0) {             /* that task runs next, as a normal turn: the ones */
        for (i = 0; i < (uint32_t)stopped; i++)     /* before it go behind, in turn order */
            hsx_k_rotate(level[i]);
        if (executed)
            last_pid = level[stopped ? stopped - 1 : count - 1]->pid;
    } else {
        last_pid = level[count - 1]->pid;
    }
    return executed;
}

/* Fire the timers once the earliest deadline is due: whether one is left, and when. */
HSX_NOINLINE static int catch_up(int has_deadline, uint32_t *deadline)
{
    if (has_deadline && hsx_k_due(*deadline, hsx_k_now())) {
        fire_timers();
        has_deadline = next_deadline(deadline);
    }
    return has_deadline;
}

uint32_t hsx_exec_run(uint32_t budget, uint32_t *next_ms)
{
    uint32_t executed = 0, deadline = 0;
    int has_deadline;
    watch_changed = 0;
    fire_timers();
    has_deadline = next_deadline(&deadline);
    while (executed < budget) {
        hsx_tcb *level[HSX_MAX_TASKS];
        hsx_tcb *t = pick();
        uint32_t n, turn = 0, count, ran;
        int stop;
        if (!t)
            break;
        if (t->pid != last_pid) {
            t->turns++;
            last_pid = t->pid;
        }
        n = budget - executed;
        count = level_of(t->priority, level);
        if (count > 1) {
            if (t->quantum == 1 && (ran = round_robin(level, count, n, has_deadline)) != 0) {
                executed += ran;
                has_deadline = catch_up(has_deadline, &deadline);
                continue;
            }
            turn = t->turn_left ? t->turn_left : t->quantum;
            if (turn < n)
                n = turn;
        } else if (has_deadline && n > HSX_REAL_TIME_SLICE) {
            n = HSX_REAL_TIME_SLICE;
        }
        ready_changed = 0;
        stop = hsx_k_run_vm(t, n, &ran);
        executed += ran;
        if (stop == HSX_STOP_BUDGET) {
            t->turn_left = ran < turn ? turn - ran : 0;
            if (!t->turn_left)
                hsx_k_rotate(t);
        } else {
            t->turn_left = 0;
            after_stop(t, stop, 0);
            has_deadline = next_deadline(&deadline);
        }
        has_deadline = catch_up(has_deadline, &deadline);
        if (watch_changed) {
            watch_changed = 0;
            break;
        }
    }
    if (next_ms) {
        if (pick())
            *next_ms = 0;
        else if (!next_deadline(&deadline))
            *next_ms = UINT32_MAX;
        else
            *next_ms = hsx_k_due(deadline, hsx_k_now()) ? 0 : deadline - hsx_k_now();
    }
    return executed;
}

/* ---- control ---------------------------------------------------------------------------- */

HSX_NOINLINE static hsx_status live_task(uint32_t pid, hsx_tcb **out)
{
    hsx_tcb *t = hsx_k_task(pid);
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    if (hsx_k_ended(t))
        return HSX_ERR_TASK_ENDED;
    *out = t;
    return HSX_OK;
}

hsx_status hsx_exec_kill(uint32_t pid)
{
    hsx_tcb *t = hsx_k_task(pid);
    if (!t)
        return HSX_ERR_UNKNOWN_PID;
    if (hsx_k_ended(t))
        remove_record(t);
    else
        end(t, HSX_REASON_KILLED, 0);
    return HSX_OK;
}

static int waiting(uint8_t state)
{
    return state == HSX_STATE_WAITING_MBX || state == HSX_STATE_SLEEPING
        || state == HSX_STATE_WAITING_CMD;
}

hsx_status hsx_exec_pause(uint32_t pid)
{
    hsx_tcb *t;
    hsx_status s = live_task(pid, &t);
    if (s != HSX_OK || t->state == HSX_STATE_PAUSED)
        return s;
    t->resume_state = waiting(t->state) ? t->state : HSX_STATE_READY;
    hsx_k_transition(t, HSX_REASON_USER_PAUSE, HSX_STATE_NONE, 0);
    return HSX_OK;
}

hsx_status hsx_exec_resume(uint32_t pid)
{
    hsx_tcb *t;
    hsx_status s = live_task(pid, &t);
    if (s != HSX_OK || t->state != HSX_STATE_PAUSED)
        return s;
    t->vm.skip_breakpoint = t->vm.pc;       /* the instruction at pc runs first */
    hsx_k_transition(t, HSX_REASON_RESUME,
                     t->resume_state ? (hsx_state)t->resume_state : HSX_STATE_READY, 0);
    t->resume_state = HSX_STATE_NONE;
    return HSX_OK;
}

hsx_status hsx_exec_sched(uint32_t pid, int32_t priority, int32_t quantum)
{
    hsx_tcb *t;
    hsx_status s = live_task(pid, &t);
    if (s != HSX_OK)
        return s;
    if ((priority != -1 && (priority < 0 || priority > HSX_MAX_PRIORITY))
            || (quantum != -1 && quantum < 1))
        return HSX_ERR_BAD_ARGUMENT;
    if (quantum != -1)
        t->quantum = (uint32_t)quantum;
    if (priority != -1 && t->priority != priority) {
        t->priority = (uint8_t)priority;
        if (t->queued) {                    /* to the tail of its new level */
            t->queued = 0;
            enqueue(t);
        }
    }
    return HSX_OK;
}

HSX_COLD_FUNCTION hsx_status hsx_exec_step(uint32_t pid, uint32_t count, uint32_t *executed)
{
    hsx_tcb *t;
    uint32_t done = 0, ran;
    const char *why = "step";
    uint32_t id = 0;
    int announced = 0;
    hsx_status s = live_task(pid, &t);
    if (executed)
        *executed = 0;
    if (s != HSX_OK)
        return s;
    if (!count)
        return HSX_ERR_BAD_ARGUMENT;
    if (t->state != HSX_STATE_PAUSED)
        hsx_exec_pause(pid);
    while (done < count && t->state == HSX_STATE_PAUSED && !waiting(t->resume_state)) {
        int stop;
        t->vm.skip_breakpoint = t->vm.pc;   /* a step runs through a breakpoint at pc */
        ready_changed = 0;
        stop = hsx_k_run_vm(t, 1, &ran);
        done += ran;
        if (stop != HSX_STOP_BUDGET && stop != KSTOP_YIELD)
            announced = after_stop(t, stop, 1);
        if (!ran || announced || t->state != HSX_STATE_PAUSED)
            break;
#if HSX_HAS_DEBUG
        if (done < count) {
            hsx_breakpoint_info bp;
            uint32_t cursor = 0;
            while (hsx_exec_next_breakpoint(&cursor, &bp))
                if (bp.pid == pid && bp.addr == t->vm.pc && bp.enabled && !bp.brk) {
                    why = "breakpoint";
                    id = bp.id;
                    break;
                }
            if (id)
                break;
        }
#endif
    }
    if (t->state == HSX_STATE_PAUSED && !announced) {
        t->vm.skip_breakpoint = t->vm.pc;   /* a later resume runs it, whoever resumes */
        announce_break(t, why, t->vm.pc, id, done);
    }
    if (executed)
        *executed = done;
    return HSX_OK;
}
