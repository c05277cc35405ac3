/* HSX C executive: the direct C API (docs/port.md, "The direct API").
 *
 * Firmware that drives the executive itself — load an image from flash, start tasks,
 * read values — calls these functions; so does the protocol module (hsx_proto.c), which
 * is only a client of this API. One executive per program, statically allocated: the
 * functions work on it, as FreeRTOS's do on its kernel.
 *
 * Semantics are those of the Python executive (hsx.kernel; docs/scheduler.md,
 * mailboxes.md, values.md, syscalls.md): the same task states and transitions, the same
 * error codes. Every function returns HSX_OK (0) or an hsx_status below.
 */
#ifndef HSX_EXEC_H
#define HSX_EXEC_H

#include <stdint.h>

#include "hsx_config.h"
#include "hsx_hal.h"

typedef enum hsx_status {
    HSX_OK = 0,
    HSX_ERR_BAD_ARGUMENT,        /* bad_argument */
    HSX_ERR_UNKNOWN_PID,         /* unknown_pid */
    HSX_ERR_TASK_ENDED,          /* task_ended */
    HSX_ERR_BAD_IMAGE,           /* bad_image:<detail> (hsx_exec_last_detail) */
    HSX_ERR_TOO_MANY_TASKS,      /* too_many_tasks */
    HSX_ERR_LAYOUT,              /* layout: the image does not fit the task memory */
    HSX_ERR_IMAGE_TOO_LARGE,     /* image_too_large: no room in the code arena */
    HSX_ERR_MAILBOX_LIMIT,       /* mailbox_limit */
    HSX_ERR_METADATA_MAILBOX,    /* metadata_mailbox */
    HSX_ERR_APP_EXISTS,          /* app_exists:<name> */
    HSX_ERR_UNKNOWN_STREAM,      /* unknown_stream */
    HSX_ERR_TOO_MANY_STREAMS,    /* too_many_streams */
    HSX_ERR_STDIN_FULL,          /* stdin_full */
    HSX_ERR_MAILBOX,             /* mbx_<status> (hsx_exec_last_detail = the status number) */
    HSX_ERR_VALUE,               /* val_<status> */
    HSX_ERR_COMMAND,             /* cmd_<status> */
    HSX_ERR_UNKNOWN_NAME,        /* unknown_name */
    HSX_ERR_UNKNOWN_BREAKPOINT,  /* unknown_breakpoint */
    HSX_ERR_TOO_MANY_BREAKPOINTS,/* too_many_breakpoints */
    HSX_ERR_UNKNOWN_WATCH,       /* unknown_watch */
    HSX_ERR_TOO_MANY_WATCHES,    /* too_many_watches */
    HSX_ERR_BAD_ADDRESS,         /* bad_address: not an instruction address */
    HSX_ERR_UNSUPPORTED,         /* unsupported: this variant lacks it */
    HSX_ERR_STATIC_BREAKPOINT    /* static_breakpoint: a BRK in the code (disable it) */
} hsx_status;

typedef enum hsx_state {
    HSX_STATE_NONE = 0,
    HSX_STATE_READY, HSX_STATE_RUNNING, HSX_STATE_WAITING_MBX, HSX_STATE_SLEEPING,
    HSX_STATE_WAITING_CMD, HSX_STATE_PAUSED, HSX_STATE_RETURNED, HSX_STATE_FAULTED,
    HSX_STATE_KILLED
} hsx_state;

/* Transition reasons (hsx.kernel.states.Reason), in the same order. */
typedef enum hsx_reason {
    HSX_REASON_LOADED, HSX_REASON_DEBUG_BREAK, HSX_REASON_SLEEP, HSX_REASON_SLEEP_WAKE,
    HSX_REASON_MAILBOX_WAIT, HSX_REASON_MAILBOX_WAKE, HSX_REASON_TIMEOUT,
    HSX_REASON_COMMAND_WAIT, HSX_REASON_COMMAND_DONE, HSX_REASON_HANDLER_RETURNED,
    HSX_REASON_USER_PAUSE, HSX_REASON_RESUME, HSX_REASON_RETURNED, HSX_REASON_FAULTED,
    HSX_REASON_KILLED
} hsx_reason;

const char *hsx_state_name(hsx_state state);     /* "ready", ... as protocol v1 spells them */
const char *hsx_reason_name(hsx_reason reason);  /* "loaded", ... */

/* -- life cycle --------------------------------------------------------------------- */

/* Set up the executive on a board's HAL (kept by reference). Restores persisted values'
 * store; tasks start empty. */
void hsx_exec_init(const hsx_hal *hal);

/* Run ready tasks for up to `budget` instructions in all (quanta and priorities as
 * hsx.kernel), firing due timers first. Returns the instructions executed; 0 when
 * nothing could run. *next_ms (if not NULL) gets how long the board may sleep before
 * a deadline is due (UINT32_MAX: no deadline) when nothing is runnable. */
uint32_t hsx_exec_run(uint32_t budget, uint32_t *next_ms);

/* One turn of everything: feed received link bytes to the protocol, answer requests,
 * send events, run tasks, flush debounced persistent values. A board's main loop is
 * `for (;;) { hsx_exec_poll(); if idle: wait for an interrupt; }`. Returns non-zero
 * when there is more to do at once (a runnable task, bytes waiting). */
int hsx_exec_poll(void);

/* Write every persistent value still waiting for its debounce now: before a planned
 * power-off or exit (what is not flushed is lost with the RAM). */
void hsx_exec_flush(void);

/* Bytes from the link (hsx_hal.link): call from the UART interrupt or a reader.
 * Bytes that do not fit the receive window are dropped (docs/wire.md). */
void hsx_link_received(const uint8_t *data, uint32_t len);

/* After hsx_exec_poll returned 0: how long the board may sleep (wait for an interrupt)
 * before the next deadline, in ms; UINT32_MAX: until bytes arrive. */
uint32_t hsx_exec_idle_ms(void);

/* The HAL given to hsx_exec_init (the protocol module sends on its link). */
const hsx_hal *hsx_exec_hal(void);

/* -- loading -------------------------------------------------------------------------- */

/* Load an HXE image as a new task. `image` is copied into the code arena unless
 * `in_place` is set (an image in flash that stays valid: code runs from it). `name`
 * may be NULL (the image's app name). Provisions stdio and the image's .mailbox,
 * .value and .cmd metadata before the first instruction; paused != 0 pauses it. */
hsx_status hsx_exec_load(const uint8_t *image, uint32_t len, int in_place,
                         const char *name, int paused, uint32_t *pid);

/* A streamed load (the image arrives in pieces over the link). */
hsx_status hsx_exec_load_begin(const char *name, uint32_t *stream);
hsx_status hsx_exec_load_write(uint32_t stream, const uint8_t *data, uint32_t len,
                               uint32_t *received);
hsx_status hsx_exec_load_end(uint32_t stream, int paused, uint32_t *pid);
hsx_status hsx_exec_load_abort(uint32_t stream);

/* The detail of the last HSX_ERR_BAD_IMAGE ("bad_magic", "crc_mismatch", ...), of
 * HSX_ERR_APP_EXISTS (the name), or the status number of MAILBOX/VALUE/COMMAND as text. */
const char *hsx_exec_last_detail(void);

/* -- tasks ------------------------------------------------------------------------------ */

typedef struct hsx_task_info {
    uint32_t pid;
    char app_name[HSX_APP_NAME_MAX];
    char app_name_base[HSX_APP_NAME_MAX];
    hsx_state state;
    uint32_t pc, sp, psw;
    uint32_t priority, quantum;
    uint64_t instructions;
    int32_t exit_status;            /* valid when has_exit_status */
    uint8_t has_exit_status;
    uint32_t turns, waits, wakes, timeouts, sleeps;
    uint32_t reg_base, stack_base, stack_top, mem_size, code_len;
    /* a faulted task: kind as hsx.vm.FaultKind spells it ("memory", "stack_overflow", ...) */
    const char *fault_kind;         /* NULL unless faulted */
    uint32_t fault_pc;
    int64_t fault_addr;             /* -1: none (divide by zero, an illegal instruction) */
    /* a waiting task: "mailbox", "mailbox_send", "sleep", or NULL */
    const char *wait_kind;
    uint32_t wait_handle;
    uint32_t wait_ms;
} hsx_task_info;

/* pid 0 or an unknown pid: HSX_ERR_UNKNOWN_PID. */
hsx_status hsx_exec_task(uint32_t pid, hsx_task_info *out);
/* Iterate over listed tasks (live and ended, by pid): start with *cursor = 0. Returns
 * 0 when there are no more. */
int hsx_exec_next_task(uint32_t *cursor, hsx_task_info *out);

hsx_status hsx_exec_kill(uint32_t pid);     /* an ended task: removed from the list */
hsx_status hsx_exec_pause(uint32_t pid);
hsx_status hsx_exec_resume(uint32_t pid);   /* runs through a breakpoint at pc first */
hsx_status hsx_exec_sched(uint32_t pid, int32_t priority, int32_t quantum); /* -1: keep */

/* The debugger's instruction step (protocol `step {pid, count}`): pauses the task, runs
 * up to `count` instructions of it alone (through a breakpoint at pc first), ends early
 * at a breakpoint, BRK, fault or the task's end, and leaves it paused. */
hsx_status hsx_exec_step(uint32_t pid, uint32_t count, uint32_t *executed);

typedef struct hsx_registers {
    uint32_t pid, pc, psw, sp;
    uint32_t regs[16];
    uint64_t steps;
    hsx_state state;
} hsx_registers;

hsx_status hsx_exec_registers(uint32_t pid, hsx_registers *out);
/* space 0: data memory (registers window included); 1: code bytes. */
hsx_status hsx_exec_peek(uint32_t pid, int space, uint32_t addr, uint8_t *out, uint32_t len);
hsx_status hsx_exec_poke(uint32_t pid, uint32_t addr, const uint8_t *data, uint32_t len);
hsx_status hsx_exec_set_register(uint32_t pid, int reg, uint32_t value); /* 16 = PC, 17 = PSW */

/* -- stdio -------------------------------------------------------------------------------- */

/* Write to a task's stdin (a blocked read completes); eof != 0 ends its input. */
hsx_status hsx_exec_stdin(uint32_t pid, const uint8_t *data, uint32_t len, int eof,
                          uint32_t *written);
/* The newest output a task wrote (up to HSX_OUTPUT_KEEP bytes; stdout and stderr
 * interleaved as written). Returns the bytes copied; *dropped gets how many older
 * ones are no longer kept. */
uint32_t hsx_exec_recent_output(uint32_t pid, uint8_t *out, uint32_t size, uint32_t *dropped);

/* -- mailboxes from the host (PID 0; docs/mailboxes.md) ----------------------------------- */

/* Refusals are HSX_ERR_MAILBOX with the mailbox status number as the detail (3 NO_DATA,
 * 1 WOULDBLOCK, ...). `flags` of open: the access bits (1 read, 2 write, 3 both; 0 as
 * the mailbox allows) and 4 for a tap. */
hsx_status hsx_exec_mbx_open(const char *target, uint32_t flags, uint32_t *handle);
hsx_status hsx_exec_mbx_close(uint32_t handle);
/* *woken (if not NULL) gets how many blocked receivers the send completed. */
hsx_status hsx_exec_mbx_send(uint32_t handle, const uint8_t *data, uint32_t len,
                             uint32_t flags, uint32_t channel, uint32_t *woken);

typedef struct hsx_mbx_message {
    uint32_t length, flags, channel, src_pid;   /* flags & 8: messages were lost before */
} hsx_mbx_message;

/* Take the next message (up to `size` bytes; a longer one stays queued: status 4
 * MSG_TOO_LARGE with its length in info->length). Never waits: status 3 NO_DATA. */
hsx_status hsx_exec_mbx_recv(uint32_t handle, uint8_t *out, uint32_t size, hsx_mbx_message *info);

#define HSX_MAILBOX_WAITERS 8        /* waiting tasks a mailbox's listing names */

typedef struct hsx_mailbox_info {
    uint32_t descriptor_id;
    char target[48];                /* as people write it: "app:x", "svc:stdio.out@3", "pid:2" */
    uint8_t namespace_, has_owner, mode;
    uint32_t owner_pid, capacity, bytes_used, queue_depth, handles, waiters, next_seq;
    uint32_t waiting[HSX_MAILBOX_WAITERS];  /* the pids of the first `waiters` waiting tasks */
} hsx_mailbox_info;

/* Every mailbox, by descriptor id: start with *cursor = 0; 0 when there are no more. */
int hsx_exec_next_mailbox(uint32_t *cursor, hsx_mailbox_info *out);
/* The task that owns the mailbox behind a host handle (0: none, a mailbox of all). */
hsx_status hsx_exec_mbx_owner(uint32_t handle, uint32_t *owner_pid);

/* -- values and commands ------------------------------------------------------------------- */

typedef struct hsx_value_info {
    uint16_t oid;                   /* group << 8 | id */
    uint16_t flags, auth_level, owner_pid;
    uint16_t f16;                   /* the current value's bits */
    uint16_t persist_key;           /* 0: not persistent */
    const char *name, *group_name, *unit;  /* NULL when the image gave none */
    uint16_t min_f16, max_f16, epsilon_f16;
    uint8_t has_range, has_epsilon;
    uint16_t rate_ms, debounce_ms;
} hsx_value_info;

int hsx_exec_next_value(uint32_t *cursor, hsx_value_info *out);
hsx_status hsx_exec_value_find(const char *name, uint16_t *oid);  /* "rpm" or "motor.rpm" */
hsx_status hsx_exec_value_get(uint16_t oid, uint16_t *f16);
/* As a host (PID 0) set: the checks of values.md; *changed = 0 within epsilon. */
hsx_status hsx_exec_value_set(uint16_t oid, uint16_t f16, int *changed);

typedef struct hsx_command_info {
    uint16_t oid, flags, auth_level, owner_pid;
    uint32_t handler_addr;
    const char *name, *group_name, *help;
} hsx_command_info;

int hsx_exec_next_command(uint32_t *cursor, hsx_command_info *out);
hsx_status hsx_exec_command_find(const char *name, uint16_t *oid);
/* Runs the handler in its owner task and returns its result (values.md). */
hsx_status hsx_exec_command_call(uint16_t oid, int32_t *result);

/* -- events ----------------------------------------------------------------------------------- */

typedef enum hsx_event_type {
    HSX_EV_TASK_STATE,      /* prev, state, reason */
    HSX_EV_DEBUG_BREAK,     /* pc, reason (breakpoint, brk, step, watch, fault...), id */
    HSX_EV_FAULT,           /* fault kind, pc, addr */
    HSX_EV_STDOUT,          /* text, len */
    HSX_EV_STDERR,
    HSX_EV_MAILBOX_SEND,    /* descriptor, length, channel, src pid */
    HSX_EV_MAILBOX_RECV,
    HSX_EV_VALUE_CHANGED,   /* oid, old, new */
    HSX_EV_WATCH_UPDATE,    /* watch id, addr, old, new */
    HSX_EV_DMESG            /* text */
} hsx_event_type;

/* What each type fills in (protocol v1's event `data`, docs/protocol.md; hsx_proto.c
 * encodes exactly these, so a field not listed is ignored):
 *   TASK_STATE    prev, state, reason; what = how ("exit"/"ret": returned), fault kind
 *                 (faulted) or why (debug_break), the app name (loaded: valid during the
 *                 call); pc (faulted, debug_break);
 *                 a = exit status (returned), ms (sleep), handle (mailbox_wait),
 *                 wake status (mailbox_wake/timeout); c = 1 when `a` is given
 *   DEBUG_BREAK   what = reason ("breakpoint", "brk", "step", "watch", "fault"); pc;
 *                 id = breakpoint_id (breakpoint, brk) or watch_id (watch);
 *                 a = executed (step), code (brk), 1 if temporary (breakpoint);
 *                 b = changed_by (watch); addr (watch, fault); what2 = fault kind (fault);
 *                 data/len = the watch's old then new bytes (len = 2 x its length)
 *   FAULT         what = kind; pc; addr (-1: none); a = the VM's fault_detail (a memory
 *                 access's width, the illegal instruction word); b = the VM's
 *                 enum hsx_fault (which check failed). The words are the host's, as
 *                 hsx.vm puts them (boards/host/main.c writes them for its runner)
 *   STDOUT/STDERR data/len = the text written
 *   MAILBOX_SEND/RECV  a = descriptor, b = length, c = channel, d = src pid, id = handle
 *   VALUE_CHANGED a = oid, b = old f16, c = new f16, d = caller pid
 *   WATCH_UPDATE  id = watch id; addr; pc (c = 1 when pc is known, 0: null);
 *                 data/len = old then new bytes (len = 2 x the watch's length)
 *   DMESG         what = level ("info", ...); data/len = the message */
typedef struct hsx_event {
    hsx_event_type type;
    uint32_t pid;                   /* 0: none */
    hsx_state prev, state;          /* TASK_STATE */
    hsx_reason reason;              /* TASK_STATE */
    const char *what;               /* see above */
    const char *what2;              /* DEBUG_BREAK of a fault: its kind */
    uint32_t pc, id;
    int64_t addr;
    uint32_t a, b, c, d;            /* type-specific numbers (above) */
    const uint8_t *data;            /* bytes, valid during the call */
    uint32_t len;
} hsx_event;

/* The executive calls `listener` for every event as it happens (NULL: none). The
 * protocol module installs itself here; firmware may chain. */
typedef void (*hsx_event_listener)(const hsx_event *event);
void hsx_exec_set_listener(hsx_event_listener listener);

/* -- debugging (development and full; HSX_ERR_UNSUPPORTED in minimal) ------------------------- */

/* A task's BRK instructions are listed as breakpoints too (brk set, with their code),
 * from its load on: a disabled one is run through; they cannot be cleared. */
hsx_status hsx_exec_bp_set(uint32_t pid, uint32_t addr, int temporary, uint32_t *id);
hsx_status hsx_exec_bp_clear(uint32_t id);
hsx_status hsx_exec_bp_enable(uint32_t id, int enabled);

typedef struct hsx_breakpoint_info {
    uint32_t id, pid, addr, hits;
    uint8_t enabled, temporary;
    uint8_t brk, code;              /* a BRK instruction in the code, and its 8-bit code */
} hsx_breakpoint_info;

int hsx_exec_next_breakpoint(uint32_t *cursor, hsx_breakpoint_info *out);

/* run.to: a temporary breakpoint at addr, then resume. */
hsx_status hsx_exec_run_to(uint32_t pid, uint32_t addr, uint32_t *id);

/* The raw frame chain: frame 0 from the registers, callers from the R14 chain
 * (docs/debugger.md, "Stack walk"); symbols are the host's business. */
typedef struct hsx_frame {
    uint32_t pc, sp, fp;
} hsx_frame;

hsx_status hsx_exec_stack(uint32_t pid, hsx_frame *frames, uint32_t max, uint32_t *count);

hsx_status hsx_exec_watch_add(uint32_t pid, uint32_t addr, uint32_t len, int stop, uint32_t *id);
hsx_status hsx_exec_watch_remove(uint32_t id);

typedef struct hsx_watch_info {
    uint32_t id, pid, addr, length;
    uint8_t stop;
} hsx_watch_info;

/* Every watch, by id: start with *cursor = 0; 0 when there are no more. */
int hsx_exec_next_watch(uint32_t *cursor, hsx_watch_info *out);

typedef struct hsx_trace_record {
    uint32_t pc;
    uint64_t steps;
} hsx_trace_record;

hsx_status hsx_exec_trace(uint32_t pid, int on);
/* Copies the newest `max` records (oldest first); returns how many. out NULL: how many
 * the ring holds for the task. */
uint32_t hsx_exec_trace_records(uint32_t pid, hsx_trace_record *out, uint32_t max);

#endif
