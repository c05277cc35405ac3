/* HSX C executive: what uses mailboxes -- stdio (fds 0..2 are the task's svc:stdio.*
 * mailboxes, drained or fed by the executive), SVC module 0x05, the host's API. */
#include "hsx_mailbox.h"

static uint32_t wait_counter;

/* ---- stdio ------------------------------------------------------------------------------------ */

static void keep_output(hsx_tcb *t, const uint8_t *data, uint32_t len)
{
    while (len--) {
        t->output[t->output_total % HSX_OUTPUT_KEEP] = *data++;
        t->output_total++;
    }
}

/* A write to fd 1 or 2: one message flagged STDOUT/STDERR per piece that fits a
 * message (taps see them), drained at once by the executive into stdout/stderr events. */
void hsx_k_stdio_write(hsx_tcb *t, uint32_t fd, uint32_t addr, uint32_t len)
{
    int32_t hi = hsx_mb_find_handle(t->pid, fd + 1);
    uint32_t max = HSX_MAX_MESSAGE, done = 0;
    if (hi < 0)
        return;
    if (hsx_mb_boxes[hsx_mb_handles[hi].box].capacity - HEADER < max)
        max = hsx_mb_boxes[hsx_mb_handles[hi].box].capacity - HEADER;
    while (done < len) {
        uint32_t n = len - done < max ? len - done : max, d = hsx_mb_handles[hi].box;
        hsx_event ev;
        int32_t off;
        if (hsx_mb_send_to(d, t->pid, fd + 1, t->vm.mem + addr + done, n,
                    fd == 1 ? FLAG_STDOUT : FLAG_STDERR, 0) != HSX_MBX_OK)
            return;
        while ((off = hsx_mb_rec_find(d, 0)) >= 0) {       /* the executive's end reads it */
            hsx_mb_msg m;
            hsx_mb_msg_at((uint32_t)off, &m);
            keep_output(t, hsx_mb_pool + off + R_DATA, m.len);
            hsx_k_event(&ev, fd == 1 ? HSX_EV_STDOUT : HSX_EV_STDERR, t->pid);
            ev.data = hsx_mb_pool + off + R_DATA;
            ev.len = m.len;
            hsx_mb_emit_traffic(HSX_EV_MAILBOX_RECV, HOST_PID, d, 0, &m);
            hsx_k_emit(&ev);
            hsx_mb_pop_front(d);
        }
        done += n;
    }
}

HSX_NOINLINE static void block(hsx_tcb *t, int kind, uint32_t handle, uint32_t timeout)
{
    t->wait = (uint8_t)kind;
    t->wait_handle = handle;
    t->wait_order = ++wait_counter;
    if (timeout != 0xFFFFu)
        hsx_k_arm_timer(t, hsx_k_now() + timeout);
}

/* FS READ on fd 0: what has arrived (a message may be read in pieces), else wait. */
int hsx_k_stdio_read(hsx_tcb *t, uint32_t dst, uint32_t len)
{
    int32_t hi = hsx_mb_find_handle(t->pid, 1);
    hsx_mb_result r;
    if (hi < 0 || !(hsx_mb_handles[hi].access & RDONLY)) {
        hsx_k_set_reg(t, 0, 0);
        return HSX_SVC_DONE;
    }
    if (hsx_mb_pending(hi) < 0) {
        if (t->in_handler)
            return HSX_SVC_BLOCK;           /* a handler must not block: the call fails */
        t->wait_buffer = dst;
        t->wait_len = len;
        block(t, HSX_WAIT_STDIN, 1, 0xFFFFu);
        return HSX_SVC_BLOCK;
    }
    hsx_mb_deliver(hi, len, t->vm.mem + dst, 1, &r);
    hsx_k_set_reg(t, 0, r.length);
    return HSX_SVC_DONE;
}

hsx_status hsx_exec_stdin(uint32_t pid, const uint8_t *data, uint32_t len, int eof,
                          uint32_t *written)
{
    hsx_tcb *t = hsx_k_live(pid);
    int32_t hi;
    uint32_t done = 0, d, max = HSX_MAX_MESSAGE;
    if (written)
        *written = 0;
    if (!t)
        return hsx_k_task(pid) ? HSX_ERR_TASK_ENDED : HSX_ERR_UNKNOWN_PID;
    hi = hsx_mb_find_handle(pid, 1);
    if (hi < 0)
        return HSX_ERR_STDIN_FULL;
    d = hsx_mb_handles[hi].box;
    if (hsx_mb_boxes[d].capacity - HEADER < max)
        max = hsx_mb_boxes[d].capacity - HEADER;
    while (done < len) {
        uint32_t n = len - done < max ? len - done : max;
        if (hsx_mb_send_to(d, HOST_PID, 0, data + done, n, 0, 0) != HSX_MBX_OK)
            break;
        done += n;
    }
    if (written)
        *written = done;
    if (done < len || (eof && hsx_mb_send_to(d, HOST_PID, 0, data, 0, 0, 0) != HSX_MBX_OK))
        return done ? HSX_OK : HSX_ERR_STDIN_FULL;
    return HSX_OK;
}

uint32_t hsx_exec_recent_output(uint32_t pid, uint8_t *out, uint32_t size, uint32_t *dropped)
{
    hsx_tcb *t = hsx_k_task(pid);
    uint32_t kept, start, i;
    if (dropped)
        *dropped = 0;
    if (!t)
        return 0;
    kept = t->output_total < HSX_OUTPUT_KEEP ? t->output_total : HSX_OUTPUT_KEEP;
    if (kept > size)
        kept = size;
    start = t->output_total - kept;
    for (i = 0; i < kept; i++)
        out[i] = t->output[(start + i) % HSX_OUTPUT_KEEP];
    if (dropped)
        *dropped = start;
    return kept;
}

/* ---- SVC module 0x05 --------------------------------------------------------------------------- */

int hsx_k_svc_mailbox(hsx_tcb *t, uint32_t fn, const uint32_t *args)
{
    uint32_t r1 = args[1], r2 = args[2], r3 = args[3], r4 = args[4], r5 = args[5], out = 0;
    char text[HSX_MAX_STRING + 1];
    int status, n;
    switch (fn) {
    case 0: case 1:                                 /* OPEN, BIND */
        if ((n = hsx_k_guest_string(t, r1, text, sizeof text)) < 0)
            return HSX_SVC_FAULT;
        status = fn == 0 ? hsx_k_mbx_open(t->pid, text, (uint32_t)n, r2, &out)
                         : hsx_k_mbx_bind(t->pid, text, (uint32_t)n, r2, r3, &out);
        hsx_k_set_r0_r1(t, (uint32_t)status, status == HSX_MBX_OK ? out : 0);
        return HSX_SVC_DONE;
    case 2: case 7: {                               /* SEND, SEND_WAIT */
        uint32_t len = r3 & 0xFFFFu, timeout = fn == 7 ? args[0] & 0xFFFFu : 0;
        if (!hsx_k_guest_ok(t, r2, len))
            return HSX_SVC_FAULT;
        status = hsx_k_mbx_send(t->pid, r1, t->vm.mem + r2, len, r4, r5);
        if (status == HSX_MBX_WOULDBLOCK && timeout) {
            if (t->in_handler)
                return HSX_SVC_BLOCK;
            t->wait_buffer = r2;
            t->wait_len = len;
            t->wait_flags = (uint16_t)r4;
            t->wait_channel = (uint16_t)r5;
            block(t, HSX_WAIT_SEND, r1, timeout);
            return HSX_SVC_BLOCK;
        }
        hsx_k_set_reg(t, 0, (uint32_t)status);
        if (status == HSX_MBX_OK)
            hsx_k_set_reg(t, 1, len);
        return HSX_SVC_DONE;
    }
    case 3: {                                       /* RECV */
        uint32_t max = r3 & 0xFFFFu, timeout = r4 & 0xFFFFu;
        int32_t hi = hsx_mb_find_handle(t->pid, r1);
        hsx_mb_result r;
        if (!hsx_k_guest_ok(t, r2, max) || (r5 && !hsx_k_guest_ok(t, r5, RECV_INFO)))
            return HSX_SVC_FAULT;
        t->wait_buffer = r2;
        t->wait_len = max;
        t->wait_info = r5;
        hsx_k_fill(&r, 0, sizeof r);
        if (hi < 0)
            r.status = HSX_MBX_INVALID_HANDLE;
        else if (!(hsx_mb_handles[hi].access & RDONLY))
            r.status = HSX_MBX_ACCESS_DENIED;
        else if (hsx_mb_pending(hi) < 0)
            r.status = HSX_MBX_NO_DATA;
        else
            hsx_mb_deliver(hi, max, t->vm.mem + r2, 0, &r);
        if (r.status == HSX_MBX_NO_DATA && timeout) {
            if (t->in_handler)
                return HSX_SVC_BLOCK;
            block(t, HSX_WAIT_RECV, r1, timeout);
            return HSX_SVC_BLOCK;
        }
        hsx_mb_recv_results(t, 0, &r);
        if (r.has_message)
            hsx_mb_retry_senders();
        return HSX_SVC_DONE;
    }
    case 4: {                                       /* PEEK */
        int32_t hi = hsx_mb_find_handle(t->pid, r1), off;
        if (hi < 0) {
            hsx_k_set_reg(t, 0, HSX_MBX_INVALID_HANDLE);
            return HSX_SVC_DONE;
        }
        off = hsx_mb_pending(hi);
        hsx_k_set_r0_r1(t, HSX_MBX_OK, hsx_mb_pending_count(hi));
        hsx_k_set_reg(t, 2, hsx_mb_handles[hi].tap ? hsx_mb_handles[hi].tap_bytes : hsx_mb_boxes[hsx_mb_handles[hi].box].bytes_used);
        hsx_k_set_reg(t, 3, off < 0 ? 0 : hsx_k_le16(hsx_mb_pool + off + R_LEN));
        return HSX_SVC_DONE;
    }
    case 5:                                         /* TAP */
        hsx_k_set_reg(t, 0, (uint32_t)hsx_mb_tap(t->pid, r1, (int)(r2 & 1u)));
        return HSX_SVC_DONE;
    case 6:                                         /* CLOSE */
        hsx_k_set_reg(t, 0, (uint32_t)hsx_k_mbx_close(t->pid, r1));
        hsx_k_values_unsubscribe(t->pid, r1);
        return HSX_SVC_DONE;
    default:
        hsx_k_set_reg(t, 0, HSX_MBX_INTERNAL_ERROR);
        return HSX_SVC_DONE;
    }
}

/* ---- the host's mailboxes ------------------------------------------------------------------- */

static hsx_status mbx_status(int status)
{
    if (status == HSX_MBX_OK)
        return HSX_OK;
    hsx_k_set_detail_number((uint32_t)status);
    return HSX_ERR_MAILBOX;
}

hsx_status hsx_exec_mbx_open(const char *text, uint32_t flags, uint32_t *number)
{
    if (!text)
        return HSX_ERR_BAD_ARGUMENT;
    return mbx_status(hsx_k_mbx_open(HOST_PID, text, hsx_k_strlen(text, HSX_MAX_STRING), flags,
                                     number));
}

hsx_status hsx_exec_mbx_close(uint32_t number) { return mbx_status(hsx_k_mbx_close(HOST_PID, number)); }

hsx_status hsx_exec_mbx_send(uint32_t number, const uint8_t *data, uint32_t len, uint32_t flags,
                             uint32_t channel, uint32_t *woken)
{
    uint32_t before = 0, i;
    int status;
    for (i = 0; i < HSX_MAX_TASKS; i++)
        before += hsx_k_tasks[i].wakes;
    status = hsx_k_mbx_send(HOST_PID, number, data, len, flags, channel);
    if (woken) {
        *woken = 0;
        for (i = 0; i < HSX_MAX_TASKS; i++)
            *woken += hsx_k_tasks[i].wakes;
        *woken -= before;
    }
    return mbx_status(status);
}

hsx_status hsx_exec_mbx_recv(uint32_t number, uint8_t *out, uint32_t size, hsx_mbx_message *info)
{
    int32_t hi = hsx_mb_find_handle(HOST_PID, number);
    hsx_mb_result r;
    hsx_k_fill(&r, 0, sizeof r);
    if (hi < 0)
        r.status = HSX_MBX_INVALID_HANDLE;
    else if (!(hsx_mb_handles[hi].access & RDONLY))
        r.status = HSX_MBX_ACCESS_DENIED;
    else if (hsx_mb_pending(hi) < 0)
        r.status = HSX_MBX_NO_DATA;
    else
        hsx_mb_deliver(hi, size, out, 0, &r);
    if (info) {
        info->length = r.length;
        info->flags = r.flags;
        info->channel = r.channel;
        info->src_pid = r.src_pid;
    }
    if (r.has_message)
        hsx_mb_retry_senders();
    return mbx_status(r.status);
}

hsx_status hsx_exec_mbx_owner(uint32_t number, uint32_t *owner_pid)
{
    int32_t hi = hsx_mb_find_handle(HOST_PID, number);
    const struct hsx_mb_box *box;
    if (hi < 0)
        return mbx_status(HSX_MBX_INVALID_HANDLE);
    box = &hsx_mb_boxes[hsx_mb_handles[hi].box];
    *owner_pid = box->has_owner ? box->owner : 0;
    return HSX_OK;
}

HSX_COLD_FUNCTION int hsx_exec_next_mailbox(uint32_t *cursor, hsx_mailbox_info *out)
{
    int32_t best = -1;
    uint32_t d;
    int i;
    for (d = 0; d < HSX_MAX_MAILBOXES; d++)
        if (hsx_mb_boxes[d].id > *cursor && (best < 0 || hsx_mb_boxes[d].id < hsx_mb_boxes[best].id))
            best = (int32_t)d;
    if (best < 0)
        return 0;
    d = (uint32_t)best;
    hsx_k_fill(out, 0, sizeof *out);
    out->descriptor_id = hsx_mb_boxes[d].id;
    hsx_mb_target_text(d, out->target, sizeof out->target);
    out->namespace_ = hsx_mb_boxes[d].ns;
    out->has_owner = hsx_mb_boxes[d].has_owner;
    out->owner_pid = hsx_mb_boxes[d].owner;
    out->mode = hsx_mb_boxes[d].mode;
    out->capacity = hsx_mb_boxes[d].capacity;
    out->bytes_used = hsx_mb_boxes[d].bytes_used;
    out->queue_depth = hsx_mb_boxes[d].depth;
    out->next_seq = hsx_mb_boxes[d].next_seq;
    for (i = 0; i < HANDLES; i++)
        if (hsx_mb_handles[i].used && hsx_mb_handles[i].box == d)
            out->handles++;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        int32_t hi = t->pid && (t->wait == HSX_WAIT_RECV || t->wait == HSX_WAIT_STDIN)
                         ? hsx_mb_find_handle(t->pid, t->wait_handle) : -1;
        if (hi >= 0 && hsx_mb_handles[hi].box == d && out->waiters++ < HSX_MAILBOX_WAITERS)
            out->waiting[out->waiters - 1] = t->pid;
    }
    *cursor = hsx_mb_boxes[d].id;
    return 1;
}
