/* HSX C executive: the internal types and functions its core files share.
 *
 * Not part of the direct API (hsx_exec.h): the protocol module and firmware never
 * include this. One executive per program, so each core file keeps its own state in
 * statics and exposes the few functions the others need, prefixed hsx_k_.
 */
#ifndef HSX_KERNEL_H
#define HSX_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "hsx_exec.h"
#include "hsx_vm.h"

/* -- the task's address space (docs/machine.md; hsx.vm.layout) -------------------- */
#define HSX_RODATA_BASE 0x4000u
#define HSX_NULL_PAGE 0x100u
#define HSX_REG_WINDOW 64u
#define HSX_GUARD 16u

#define HSX_DEFAULT_PRIORITY 10
#define HSX_REAL_TIME_SLICE 2000u    /* instructions a lone task runs between timer checks */
#define HSX_HANDLER_BUDGET 1000000u  /* a command handler must return within this */
#define HSX_HANDLER_RETURN 0xFFFFFFFCu /* not code: the RET to it ends a handler */
#define HSX_MAX_STRING 256u          /* bytes of a guest C string looked at (SVC paths) */
#define HSX_MAX_IO 0xFFFFu           /* bytes one FS read or write moves at most */

/* A stop beyond enum hsx_stop: a watch that stops the task changed (hsx_k_run_vm). */
#define HSX_STOP_WATCH 40

/* What a task is blocked in (hsx_tcb.wait). */
enum hsx_wait_kind {
    HSX_WAIT_NONE,
    HSX_WAIT_RECV,      /* mailbox RECV: buffer, max_len, info */
    HSX_WAIT_STDIN,     /* FS READ on fd 0: buffer, max_len */
    HSX_WAIT_SEND,      /* SEND_WAIT on a full mailbox: payload pointer, length, flags, channel */
    HSX_WAIT_SLEEP
};

/* What an SVC asks of the run loop. */
enum hsx_svc_action {
    HSX_SVC_DONE,       /* results are in the registers: run on */
    HSX_SVC_YIELD,      /* end the turn, to the back of the level */
    HSX_SVC_EXIT,       /* the task ends: tcb.exit_status */
    HSX_SVC_SLEEP,      /* the task sleeps: tcb.wait_ms */
    HSX_SVC_BLOCK,      /* the task waits on a mailbox (tcb.wait set) */
    HSX_SVC_FAULT       /* a bad guest pointer: the fault is recorded in tcb.vm */
};

/* One task: scheduling, the VM's record, its wait, accounting and names. The byte fields
 * come first: Thumb's two-byte loads reach 31 bytes into a struct for a byte, 124 for a
 * word. */
typedef struct hsx_tcb {
    uint32_t pid;               /* 0: a free slot */
    uint8_t state, resume_state;   /* hsx_state; resume_state: where `resume` returns */
    uint8_t priority;
    uint8_t queued;             /* in the ready queue */
    uint8_t wait;               /* enum hsx_wait_kind */
    uint8_t has_exit_status;
    uint8_t allow_multiple;     /* the image allows several instances */
    uint8_t in_handler;         /* running a command handler for someone */
    uint8_t timer_armed, traced;
    uint16_t instance;          /* 0: the app name is base_name, n: base_name + "_#<n - 1>" */
    hsx_task vm;
    uint32_t quantum, turn_left;
    uint32_t ready_seq;         /* order within a priority level */
    int32_t exit_status;
    uint32_t deadline, timer_seq;
    /* the wait's arguments */
    uint32_t wait_handle, wait_buffer, wait_len, wait_info, wait_ms;
    uint16_t wait_flags, wait_channel;  /* a SEND_WAIT only blocks when both fit 16 bits */
    uint32_t turns, waits, wakes, timeouts, sleeps;
    uint32_t heap_start;
    uint32_t next_fd;           /* the next file descriptor (from 3) */
    uint32_t next_handle;       /* the next mailbox handle number (from 1) */
    uint32_t wait_order;        /* first blocked, first served */
    uint32_t code_off, code_size;  /* its chunk of the code arena (code_size 0: none) */
    uint32_t output_total;      /* bytes ever written to stdout/stderr */
    uint8_t output[HSX_OUTPUT_KEEP];
    char base_name[HSX_APP_NAME_MAX];  /* the app name without an instance's suffix */
} hsx_tcb;

extern hsx_tcb hsx_k_tasks[HSX_MAX_TASKS];
extern const hsx_hal *hsx_k_hal;
extern hsx_tcb *hsx_k_current;          /* the task the VM is running, or NULL */

/* -- small freestanding helpers (hsx_util.c) ----------------------------------------- */
void hsx_k_copy(void *dst, const void *src, uint32_t n);     /* overlapping allowed */
void hsx_k_fill(void *dst, uint8_t value, uint32_t n);
uint32_t hsx_k_strlen(const char *s, uint32_t max);
int hsx_k_streq(const char *a, const char *b);
void hsx_k_strcpy(char *dst, const char *src, uint32_t size);   /* always NUL-terminated */
uint16_t hsx_k_le16(const uint8_t *p);
uint32_t hsx_k_le32(const uint8_t *p);
void hsx_k_put16(uint8_t *p, uint32_t v);
void hsx_k_put32(uint8_t *p, uint32_t v);
uint32_t hsx_crc32(uint32_t crc, const uint8_t *data, uint32_t len);  /* zlib.crc32 */
#define hsx_k_crc32 hsx_crc32
uint32_t hsx_k_now(void);                                   /* hsx_tasks.c */
uint32_t hsx_k_uptime_ms(void);                             /* since hsx_exec_init */
int hsx_k_due(uint32_t deadline, uint32_t now);              /* deadline <= now, wrapping */
void hsx_k_set_detail(const char *text);                     /* hsx_exec_last_detail */
void hsx_k_set_detail_number(uint32_t number);
uint32_t hsx_k_decimal(char *out, uint32_t number);          /* its digits, NUL: the length */

/* -- tasks, states, scheduling (hsx_tasks.c; faults: hsx_inspect.c) ------------------------------------------ */
hsx_tcb *hsx_k_task(uint32_t pid);                           /* any listed task, or NULL */
hsx_tcb *hsx_k_live(uint32_t pid);                           /* a task that has not ended */
int hsx_k_ended(const hsx_tcb *t);
uint32_t hsx_k_reg(const hsx_tcb *t, int index);
void hsx_k_set_reg(hsx_tcb *t, int index, uint32_t value);
void hsx_k_set_r0_r1(hsx_tcb *t, uint32_t r0, uint32_t r1);  /* a call's two results */
void hsx_k_emit(hsx_event *event);
void hsx_k_event(hsx_event *event, hsx_event_type type, uint32_t pid);   /* zeroed, these set */
void hsx_k_transition(hsx_tcb *t, hsx_reason reason, hsx_state target, hsx_event *details);
/* A wake while paused only changes where `resume` returns; otherwise a transition. */
void hsx_k_wake(hsx_tcb *t, hsx_reason reason, uint32_t status);
void hsx_k_arm_timer(hsx_tcb *t, uint32_t deadline);
void hsx_k_cancel_timer(hsx_tcb *t);
void hsx_k_rotate(hsx_tcb *t);
/* A new task in a free slot, its memory laid out for the image's header; NULL with the
 * status. */
struct hsx_hxe_header;
hsx_tcb *hsx_k_new_task(const struct hsx_hxe_header *h, hsx_status *status);
uint32_t hsx_k_next_pid(void);                              /* the pid a new task gets */
void hsx_k_start_task(hsx_tcb *t);                           /* loaded -> ready */
void hsx_k_discard_task(hsx_tcb *t);                         /* a load that failed */
int hsx_k_run_vm(hsx_tcb *t, uint32_t budget, uint32_t *executed);  /* an hsx_stop */
/* Where the fault is reported: pc, and addr (-1: none), as hsx.vm reports it. */
void hsx_k_fault_where(const hsx_tcb *t, uint32_t *pc, int64_t *addr);
const char *hsx_k_fault_kind(const hsx_tcb *t);

/* -- HXE images (hsx_hxe.c) ------------------------------------------------------------ */
#define HSX_HXE_HEADER_V1 32u
#define HSX_HXE_HEADER_V2 96u

typedef struct hsx_hxe_header {
    uint32_t version, flags, entry, code_len, ro_len, bss, crc, meta_off, meta_count, size;
    uint32_t stack_size, mem_size;       /* what the app asks for; 0: the board's default */
    char name[HSX_APP_NAME_MAX];         /* the app name, without surrounding spaces */
} hsx_hxe_header;

typedef struct hsx_section { uint32_t off, size, count; } hsx_section;

/* An image being checked, and where its known metadata sections are. */
typedef struct hsx_image {
    const uint8_t *data;
    uint32_t len;
    hsx_hxe_header h;
    hsx_section values, commands, mailboxes;
    uint8_t has_values, has_commands, has_mailboxes;
} hsx_image;

/* A mailbox declaration, as far as provisioning needs it. */
typedef struct hsx_mbx_spec {
    char target[64];
    uint32_t capacity, mode;
    uint8_t target_too_long;            /* no valid target is that long: BIND refuses it */
} hsx_mbx_spec;

typedef int (*hsx_spec_fn)(void *ctx, const hsx_mbx_spec *spec);

/* The header from the image's first bytes: NULL, or the error code (docs/hxe.md). */
const char *hsx_k_hxe_header(const uint8_t *p, uint32_t len, hsx_hxe_header *h);
uint64_t hsx_k_hxe_size_hint(const hsx_hxe_header *h);   /* the smallest image it allows */
/* The whole image (im->data, im->len): NULL, or the first problem's error code. */
const char *hsx_k_hxe_check(hsx_image *im);
/* Each declaration of a checked mailbox section to fn, until it returns non-zero. */
const char *hsx_k_hxe_mailboxes(const uint8_t *sec, uint32_t size, uint32_t count,
                                hsx_spec_fn fn, void *ctx);
int hsx_k_utf8_ok(const uint8_t *s, uint32_t len);

/* -- the code arena and loading (hsx_loader.c) --------------------------------------- */
void hsx_k_loader_init(void);
void hsx_k_arena_release(hsx_tcb *t);
/* An instance's app name (hsx.kernel.loader.instance_name): base, or base_#0, base_#1,
 * ... (instance 1, 2, ...), the base cut so that the suffix fits. */
void hsx_k_app_name(const char *base, uint32_t instance, char *out);
/* EXEC SPAWN: load an image from the file system; the new pid or a negative errno. */
int32_t hsx_k_spawn(hsx_tcb *parent, const char *path);

/* -- mailboxes and stdio (hsx_mailbox.c) ---------------------------------------------- */
enum hsx_mbx_status {
    HSX_MBX_OK = 0x00, HSX_MBX_WOULDBLOCK = 0x01, HSX_MBX_INVALID_HANDLE = 0x02,
    HSX_MBX_NO_DATA = 0x03, HSX_MBX_MSG_TOO_LARGE = 0x04, HSX_MBX_NO_DESCRIPTOR = 0x05,
    HSX_MBX_TIMEOUT = 0x07, HSX_MBX_INVALID_ARGUMENT = 0x08, HSX_MBX_ACCESS_DENIED = 0x09,
    HSX_MBX_INTERNAL_ERROR = 0xFF
};
#define HSX_MBX_RDWR 0x03u
#define HSX_MBX_TAP 0x04u

void hsx_k_mbx_init(void);
int hsx_k_mbx_create_task(hsx_tcb *t);          /* stdio and pid: mailboxes, fds 0..2 */
int hsx_k_mbx_bind(uint32_t pid, const char *target, uint32_t len, uint32_t capacity,
                   uint32_t mode, uint32_t *descriptor);
int hsx_k_mbx_open(uint32_t pid, const char *target, uint32_t len, uint32_t flags,
                   uint32_t *handle);
int hsx_k_mbx_close(uint32_t pid, uint32_t handle);
int hsx_k_mbx_send(uint32_t pid, uint32_t handle, const uint8_t *data, uint32_t len,
                   uint32_t flags, uint32_t channel);
void hsx_k_mbx_release(uint32_t pid);
void hsx_k_mbx_expire(hsx_tcb *t);              /* a receive or send deadline passed */
void hsx_k_mbx_resume_wait(hsx_tcb *t);         /* after a handler: serve a wake it missed */
int hsx_k_svc_mailbox(hsx_tcb *t, uint32_t fn, const uint32_t *r);
void hsx_k_stdio_write(hsx_tcb *t, uint32_t fd, uint32_t addr, uint32_t len);
int hsx_k_stdio_read(hsx_tcb *t, uint32_t dst, uint32_t len);  /* an hsx_svc_action */

/* -- values and commands (hsx_values.c, hsx_commands.c, hsx_registry.c) ------------- */
void hsx_k_values_init(void);
void hsx_k_commands_init(void);
void hsx_k_values_release(uint32_t pid);
void hsx_k_values_unsubscribe(uint32_t pid, uint32_t handle);
int hsx_k_svc_values(hsx_tcb *t, uint32_t fn, const uint32_t *r);
int hsx_k_svc_commands(hsx_tcb *t, uint32_t fn, const uint32_t *r);
/* An image's .value and .cmd sections for task t, all or nothing (hsx_loader.c decoded
 * their bounds); HSX_ERR_VALUE/COMMAND with the detail on failure. */
hsx_status hsx_k_values_from_image(hsx_tcb *t, const uint8_t *section, uint32_t size,
                                   uint32_t count);
hsx_status hsx_k_commands_from_image(hsx_tcb *t, const uint8_t *section, uint32_t size,
                                     uint32_t count);

/* -- persistent values (hsx_store.c) -------------------------------------------------- */
void hsx_k_store_init(const hsx_persist *persist);
int hsx_k_store_load(uint32_t app, uint16_t key, uint16_t *raw);       /* 1: found */
void hsx_k_store_schedule(uint32_t app, uint16_t key, uint16_t raw, uint32_t debounce_ms);
int hsx_k_store_next_due(uint32_t *due);                               /* 1: pending */
void hsx_k_store_flush(int all);                                       /* due ones, or all */

/* -- the SVC table (hsx_svc.c) --------------------------------------------------------- */
/* A module's calls get the task, the function and r: R0..R5 as the SVC found them (read
 * once by the table, not by every call). */
#define HSX_SVC_ARGS 6
int hsx_k_svc(hsx_tcb *t);                      /* an hsx_svc_action */
/* Guest memory checks as the reference's (bad: a memory fault recorded, returns 0). */
int hsx_k_guest_ok(hsx_tcb *t, uint32_t addr, uint32_t len);
/* A NUL-terminated guest string (up to HSX_MAX_STRING bytes looked at) copied to out;
 * returns its length, or -1 after recording a fault. */
int hsx_k_guest_string(hsx_tcb *t, uint32_t addr, char *out, uint32_t size);
void hsx_k_fs_release(uint32_t pid);

/* -- debugging (hsx_debug.c; development and full) ---------------------------------- */
#if HSX_HAS_DEBUG
void hsx_k_debug_init(void);                    /* no breakpoints, watches or trace */
/* A breakpoint or BRK stop of t at pc: 1 = the task stops (event filled in), 0 = run on. */
int hsx_k_debug_stop(hsx_tcb *t, int stop, hsx_event *event);
void hsx_k_debug_release(hsx_tcb *t);           /* the task's record is going */
void hsx_k_debug_attach(hsx_tcb *t);            /* a new task's code: its BRKs listed */
int hsx_k_debug_watched(const hsx_tcb *t);      /* runs one instruction at a time */
/* Watches, trace: 0, 1 = a watched range changed, 2 = and its watch stops the task. */
int hsx_k_debug_after_step(hsx_tcb *t, uint32_t pc);
void hsx_k_debug_poked(hsx_tcb *t);
#endif

#endif
