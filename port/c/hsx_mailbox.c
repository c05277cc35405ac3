/* HSX C executive: mailboxes (docs/mailboxes.md): the manager.
 *
 * The semantics of hsx.kernel.mailbox (docs/mailboxes.md): targets and namespaces,
 * descriptors kept alive by hsx_mb_handles, binders or queued messages, per-task hsx_mb_handles
 * numbered from 1 and never reused, queue and fan-out modes with their drop and block
 * policies, taps with their own bounded copies, blocked receivers served oldest first
 * with the message handed over, SEND_WAIT, the same status codes.
 *
 * Storage: every message, tap copy and mailbox name is a record in one byte hsx_mb_pool,
 * appended at the end and compacted on removal, so records of one queue are always in
 * the order they were sent. A record: u16 queue, u16 size, u16 length, u16 flags,
 * u16 channel, u16 sender's handle, u32 sender pid, u32 sequence number, payload.
 */
#include "hsx_mailbox.h"

struct hsx_mb_box hsx_mb_boxes[HSX_MAX_MAILBOXES];
struct hsx_mb_handle hsx_mb_handles[HANDLES];
uint8_t hsx_mb_pool[HSX_MAILBOX_POOL];
static uint32_t pool_used, next_descriptor, host_next_handle;

typedef struct target {
    const char *name;
    uint32_t name_len, owner;
    uint8_t ns, has_owner;
} target;


HSX_COLD_FUNCTION void hsx_k_mbx_init(void)
{
    hsx_k_fill(hsx_mb_boxes, 0, sizeof hsx_mb_boxes);
    hsx_k_fill(hsx_mb_handles, 0, sizeof hsx_mb_handles);
    pool_used = 0;
    next_descriptor = 1;
    host_next_handle = 1;
}

/* ---- the pool ------------------------------------------------------------------------------ */

int32_t hsx_mb_rec_find(uint32_t queue, uint32_t from)
{
    while (from < pool_used) {
        if (hsx_k_le16(hsx_mb_pool + from + R_QUEUE) == queue)
            return (int32_t)from;
        from += hsx_k_le16(hsx_mb_pool + from + R_SIZE);
    }
    return -1;
}

static int32_t rec_add(uint32_t queue, uint32_t size)
{
    uint32_t at = pool_used;
    if (size > HSX_MAILBOX_POOL - pool_used)
        return -1;
    hsx_k_put16(hsx_mb_pool + at + R_QUEUE, queue);
    hsx_k_put16(hsx_mb_pool + at + R_SIZE, size);
    pool_used += size;
    return (int32_t)at;
}

static void rec_remove(uint32_t off)
{
    uint32_t size = hsx_k_le16(hsx_mb_pool + off + R_SIZE);
    hsx_k_copy(hsx_mb_pool + off, hsx_mb_pool + off + size, pool_used - off - size);
    pool_used -= size;
}

static void rec_remove_queue(uint32_t queue)
{
    int32_t off;
    while ((off = hsx_mb_rec_find(queue, 0)) >= 0)
        rec_remove((uint32_t)off);
}

void hsx_mb_msg_at(uint32_t off, hsx_mb_msg *m)
{
    m->off = off;
    m->len = hsx_k_le16(hsx_mb_pool + off + R_LEN);
    m->flags = hsx_k_le16(hsx_mb_pool + off + R_FLAGS);
    m->channel = hsx_k_le16(hsx_mb_pool + off + R_CHANNEL);
    m->handle = hsx_k_le16(hsx_mb_pool + off + R_HANDLE);
    m->pid = hsx_k_le32(hsx_mb_pool + off + R_PID);
    m->seq = hsx_k_le32(hsx_mb_pool + off + R_SEQ);
}

/* ---- targets ---------------------------------------------------------------------------- */

static int name_char(char c) { return c >= 0x21 && c <= 0x7E && c != '@'; }

HSX_NOINLINE static int parse_pid(const char *s, uint32_t len, uint32_t *out)
{
    uint64_t v = 0;
    uint32_t i;
    if (!len || len > 10)
        return 0;
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (uint32_t)(s[i] - '0');
    }
    if (v > 0xFFFFFFFFull)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* A target as task `caller` sees it (hsx.kernel.mailbox.targets.parse_target). */
HSX_COLD_FUNCTION static int parse_target(const char *text, uint32_t len, uint32_t caller,
                                            target *t)
{
    static const char *const PREFIXES[] = { "pid:", "svc:", "app:", "shared:" };
    uint32_t i, colon = len, at;
    const char *rest = text;
    uint32_t rest_len = len;
    t->ns = NS_SVC;
    for (i = 0; i < len; i++)
        if ((uint8_t)text[i] >= 0x80)
            return 0;                           /* not ASCII */
    if (!len)
        return 0;
    for (i = 0; i < len; i++)
        if (text[i] == ':') {
            colon = i;
            break;
        }
    if (colon < len) {
        uint32_t k;
        for (k = 0; k < 4; k++) {
            uint32_t plen = hsx_k_strlen(PREFIXES[k], 8);
            uint32_t c = 0;
            while (c < plen && c <= colon && text[c] == PREFIXES[k][c])
                c++;
            if (c == plen && plen == colon + 1)
                break;
        }
        if (k == 4)
            return 0;                           /* an unknown namespace */
        t->ns = (uint8_t)k;
        rest = text + colon + 1;
        rest_len = len - colon - 1;
    }
    if (t->ns == NS_PID) {
        t->name = 0;
        t->name_len = 0;
        t->has_owner = 1;
        t->owner = caller;
        return rest_len == 0 || parse_pid(rest, rest_len, &t->owner);
    }
    for (at = 0; at < rest_len && rest[at] != '@'; at++)
        ;
    if (!at || at > MAX_NAME)
        return 0;
    for (i = 0; i < at; i++)
        if (!name_char(rest[i]))
            return 0;
    t->name = rest;
    t->name_len = at;
    if (at == rest_len) {
        t->has_owner = t->ns == NS_SVC;
        t->owner = caller;
        return 1;
    }
    t->has_owner = 1;
    return t->ns != NS_SHARED && parse_pid(rest + at + 1, rest_len - at - 1, &t->owner);
}

static const uint8_t *name_of(uint32_t d, uint32_t *len)
{
    int32_t off = hsx_mb_rec_find(Q_NAME | d, 0);
    if (off < 0) {
        *len = 0;
        return hsx_mb_pool;
    }
    *len = hsx_k_le16(hsx_mb_pool + off + R_SIZE) - 4u;
    return hsx_mb_pool + off + 4;
}

static int32_t find_box(const target *t)
{
    uint32_t d, len, i;
    for (d = 0; d < HSX_MAX_MAILBOXES; d++) {
        const struct hsx_mb_box *b = &hsx_mb_boxes[d];
        const uint8_t *name;
        if (!b->id || b->ns != t->ns || b->has_owner != t->has_owner
                || (t->has_owner && b->owner != t->owner))
            continue;
        if (t->ns == NS_PID)
            return (int32_t)d;
        name = name_of(d, &len);
        if (len != t->name_len)
            continue;
        for (i = 0; i < len && name[i] == (uint8_t)t->name[i]; i++)
            ;
        if (i == len)
            return (int32_t)d;
    }
    return -1;
}

/* The canonical spelling of a mailbox's target (Target.__str__). */
void hsx_mb_target_text(uint32_t d, char *out, uint32_t size)
{
    static const char *const PREFIXES[] = { "pid:", "svc:", "app:", "shared:" };
    const struct hsx_mb_box *b = &hsx_mb_boxes[d];
    uint32_t len, n;
    const uint8_t *name = name_of(d, &len);
    char digits[11];
    hsx_k_strcpy(out, PREFIXES[b->ns], size);
    n = hsx_k_strlen(out, size);
    if (b->ns != NS_PID) {
        if (len > size - 1 - n)
            len = size - 1 - n;
        hsx_k_copy(out + n, name, len);
        n += len;
        out[n] = 0;
        if (!b->has_owner)
            return;
        if (n + 1 < size)
            out[n++] = '@';
        out[n] = 0;
    }
    hsx_k_decimal(digits, b->owner);
    hsx_k_strcpy(out + n, digits, size - n);
}

/* ---- descriptors and hsx_mb_handles ------------------------------------------------------------- */

HSX_NOINLINE static uint32_t pid_bit(uint32_t pid)
{
    hsx_tcb *t = hsx_k_task(pid);
    return pid == HOST_PID || !t ? 1u << 31 : 1u << (uint32_t)(t - hsx_k_tasks);
}

static int fanout(const struct hsx_mb_box *b) { return (b->mode & FANOUT) != 0; }
static int blocks_when_full(const struct hsx_mb_box *b) { return !fanout(b) || (b->mode & FANOUT_BLOCK); }
static int is_reader(const struct hsx_mb_handle *h) { return !h->tap && (h->access & RDONLY); }
static int sent_by(const hsx_mb_msg *m, const struct hsx_mb_handle *h)
{
    return m->pid == h->pid && m->handle == (h->number & 0xFFFFu);
}

HSX_NOINLINE int32_t hsx_mb_find_handle(uint32_t pid, uint32_t number)
{
    int i;
    for (i = 0; i < HANDLES; i++)
        if (hsx_mb_handles[i].used && hsx_mb_handles[i].pid == pid && hsx_mb_handles[i].number == number)
            return i;
    return -1;
}

static uint32_t head_seq(uint32_t d)
{
    int32_t off = hsx_mb_rec_find(d, 0);
    return off < 0 ? hsx_mb_boxes[d].next_seq : hsx_k_le32(hsx_mb_pool + off + R_SEQ);
}

/* The first queued message a fan-out subscriber has not seen (its own count as seen). */
static int32_t unseen(const struct hsx_mb_handle *h)
{
    int32_t off = hsx_mb_rec_find(h->box, 0);
    hsx_mb_msg m;
    while (off >= 0) {
        hsx_mb_msg_at((uint32_t)off, &m);
        if (m.seq >= h->cursor && !sent_by(&m, h))
            return off;
        off = hsx_mb_rec_find(h->box, (uint32_t)off + hsx_k_le16(hsx_mb_pool + off + R_SIZE));
    }
    return -1;
}

int32_t hsx_mb_pending(int hi)
{
    const struct hsx_mb_handle *h = &hsx_mb_handles[hi];
    if (h->tap)
        return hsx_mb_rec_find(Q_TAP | (uint32_t)hi, 0);
    if (!fanout(&hsx_mb_boxes[h->box]))
        return hsx_mb_rec_find(h->box, 0);
    return unseen(h);
}

uint32_t hsx_mb_pending_count(int hi)
{
    const struct hsx_mb_handle *h = &hsx_mb_handles[hi];
    uint32_t queue = h->tap ? (Q_TAP | (uint32_t)hi) : h->box, n = 0;
    int32_t off = hsx_mb_rec_find(queue, 0);
    hsx_mb_msg m;
    while (off >= 0) {
        hsx_mb_msg_at((uint32_t)off, &m);
        if (h->tap || !fanout(&hsx_mb_boxes[h->box]) || (m.seq >= h->cursor && !sent_by(&m, h)))
            n++;
        off = hsx_mb_rec_find(queue, (uint32_t)off + hsx_k_le16(hsx_mb_pool + off + R_SIZE));
    }
    return n;
}

void hsx_mb_pop_front(uint32_t d)
{
    int32_t off = hsx_mb_rec_find(d, 0);
    if (off < 0)
        return;
    hsx_mb_boxes[d].bytes_used -= hsx_k_le16(hsx_mb_pool + off + R_LEN) + HEADER;
    hsx_mb_boxes[d].depth--;
    rec_remove((uint32_t)off);
}

/* Fan-out: forget messages no subscriber still needs (all when nobody subscribes). */
static void reclaim(uint32_t d)
{
    uint32_t floor = hsx_mb_boxes[d].next_seq;
    int32_t off;
    int i;
    if (!fanout(&hsx_mb_boxes[d]))
        return;
    for (i = 0; i < HANDLES; i++) {
        if (!hsx_mb_handles[i].used || hsx_mb_handles[i].box != d || !is_reader(&hsx_mb_handles[i]))
            continue;
        off = unseen(&hsx_mb_handles[i]);
        if (off >= 0 && hsx_k_le32(hsx_mb_pool + off + R_SEQ) < floor)
            floor = hsx_k_le32(hsx_mb_pool + off + R_SEQ);
    }
    while ((off = hsx_mb_rec_find(d, 0)) >= 0 && hsx_k_le32(hsx_mb_pool + off + R_SEQ) < floor)
        hsx_mb_pop_front(d);
}

static int in_use(uint32_t d)
{
    int i;
    if (hsx_mb_boxes[d].binders || hsx_mb_boxes[d].depth)
        return 1;
    for (i = 0; i < HANDLES; i++)
        if (hsx_mb_handles[i].used && hsx_mb_handles[i].box == d)
            return 1;
    return 0;
}

static void complete_recv(hsx_tcb *t, const hsx_mb_result *r);
static void serve_waiters(uint32_t d);

static void drop_tap_copies(int hi)
{
    rec_remove_queue(Q_TAP | (uint32_t)hi);
    hsx_mb_handles[hi].tap_bytes = 0;
}

/* Free a descriptor: its waiters resume with INVALID_HANDLE, its hsx_mb_handles go. */
static void free_box(uint32_t d)
{
    int i;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        int32_t hi;
        if (!t->pid || (t->wait != HSX_WAIT_RECV && t->wait != HSX_WAIT_STDIN))
            continue;
        hi = hsx_mb_find_handle(t->pid, t->wait_handle);
        if (hi >= 0 && hsx_mb_handles[hi].box == d) {
            hsx_mb_result r = { HSX_MBX_INVALID_HANDLE, 0, 0, 0, 0, 0 };
            complete_recv(t, &r);
        }
    }
    for (i = 0; i < HANDLES; i++)
        if (hsx_mb_handles[i].used && hsx_mb_handles[i].box == d) {
            drop_tap_copies(i);
            hsx_mb_handles[i].used = 0;
        }
    rec_remove_queue(d);
    rec_remove_queue(Q_NAME | d);
    hsx_mb_boxes[d].id = 0;
}

static void free_if_unused(uint32_t d)
{
    if (hsx_mb_boxes[d].id && !in_use(d))
        free_box(d);
}

static void drop_handle(int hi)
{
    uint32_t d = hsx_mb_handles[hi].box;
    drop_tap_copies(hi);
    hsx_mb_handles[hi].used = 0;
    reclaim(d);
    free_if_unused(d);
}

HSX_COLD_FUNCTION static int create_box(const target *t, uint32_t capacity, uint32_t mode,
                                          uint32_t *out)
{
    uint32_t d;
    for (d = 0; d < HSX_MAX_MAILBOXES && hsx_mb_boxes[d].id; d++)
        ;
    if (d == HSX_MAX_MAILBOXES)
        return HSX_MBX_NO_DESCRIPTOR;
    if (t->ns != NS_PID) {
        int32_t off = rec_add(Q_NAME | d, 4 + t->name_len);
        if (off < 0)
            return HSX_MBX_NO_DESCRIPTOR;       /* no room for its name: the hsx_mb_pool is full */
        hsx_k_copy(hsx_mb_pool + off + 4, t->name, t->name_len);
    }
    hsx_k_fill(&hsx_mb_boxes[d], 0, sizeof hsx_mb_boxes[d]);
    hsx_mb_boxes[d].id = next_descriptor++;
    hsx_mb_boxes[d].ns = t->ns;
    hsx_mb_boxes[d].has_owner = t->has_owner;
    hsx_mb_boxes[d].owner = t->owner;
    hsx_mb_boxes[d].capacity = (uint16_t)capacity;
    hsx_mb_boxes[d].mode = (uint8_t)mode;
    *out = d;
    return HSX_MBX_OK;
}

/* A BIND mode: unknown bits and both policies are refused; a policy bit implies
 * FANOUT, no access bits mean RDWR; 0 stays 0 ("default" or "unchanged"). */
static int normalise_mode(uint32_t mode, uint32_t *out)
{
    if (mode & ~MODE_MASK)
        return 0;
    if ((mode & (FANOUT_DROP | FANOUT_BLOCK)) == (FANOUT_DROP | FANOUT_BLOCK))
        return 0;
    if (mode && !(mode & HSX_MBX_RDWR))
        mode |= HSX_MBX_RDWR;
    if (mode & (FANOUT_DROP | FANOUT_BLOCK))
        mode |= FANOUT;
    *out = mode;
    return 1;
}

int hsx_k_mbx_bind(uint32_t pid, const char *text, uint32_t len, uint32_t capacity,
                   uint32_t mode, uint32_t *descriptor)
{
    target t;
    int32_t d;
    uint32_t normal, created;
    if (!parse_target(text, len, pid, &t) || !normalise_mode(mode, &normal)
            || (capacity && (capacity < HEADER || capacity > 0xFFFFu)))
        return HSX_MBX_INVALID_ARGUMENT;
    d = find_box(&t);
    if (d < 0) {
        int status = create_box(&t, capacity ? capacity : HSX_MAILBOX_CAPACITY,
                                normal ? normal : HSX_MBX_RDWR, &created);
        if (status != HSX_MBX_OK)
            return status;
        d = (int32_t)created;
    } else {
        struct hsx_mb_box *b = &hsx_mb_boxes[d];
        uint32_t new_mode = normal ? normal : b->mode;
        int switched = ((b->mode ^ new_mode) & FANOUT) != 0, i;
        b->capacity = (uint16_t)(capacity ? capacity : b->capacity);
        b->mode = (uint8_t)new_mode;
        if (switched)                   /* every reader gets the backlog */
            for (i = 0; i < HANDLES; i++)
                if (hsx_mb_handles[i].used && hsx_mb_handles[i].box == (uint32_t)d) {
                    hsx_mb_handles[i].cursor = head_seq((uint32_t)d);
                    hsx_mb_handles[i].overrun = 0;
                }
        reclaim((uint32_t)d);
        serve_waiters((uint32_t)d);
    }
    hsx_mb_boxes[d].binders |= pid_bit(pid);
    *descriptor = hsx_mb_boxes[d].id;
    return HSX_MBX_OK;
}

static uint32_t count_handles(uint32_t pid)
{
    uint32_t n = 0;
    int i;
    for (i = 0; i < HANDLES; i++)
        if (hsx_mb_handles[i].used && hsx_mb_handles[i].pid == pid)
            n++;
    return n;
}

static void set_tap(int hi, int enable)
{
    struct hsx_mb_handle *h = &hsx_mb_handles[hi];
    drop_tap_copies(hi);
    h->tap = (uint8_t)(enable != 0);
    h->cursor = hsx_mb_boxes[h->box].next_seq;
    h->overrun = 0;
    reclaim(h->box);
}

int hsx_k_mbx_open(uint32_t pid, const char *text, uint32_t len, uint32_t flags, uint32_t *number)
{
    target t;
    int32_t d;
    uint32_t created, allowed, requested, access;
    int hi;
    hsx_tcb *task = hsx_k_task(pid);
    if (!parse_target(text, len, pid, &t))
        return HSX_MBX_INVALID_ARGUMENT;
    /* a task's stdio is its own (the host always may) */
    if (t.ns == NS_SVC && t.name_len > 6 && t.name[0] == 's' && t.name[5] == '.'
            && t.name[1] == 't' && t.name[2] == 'd' && t.name[3] == 'i' && t.name[4] == 'o'
            && t.has_owner && t.owner != pid && pid != HOST_PID)
        return HSX_MBX_ACCESS_DENIED;
    if (pid != HOST_PID && count_handles(pid) >= HSX_MAX_HANDLES)
        return HSX_MBX_NO_DESCRIPTOR;
    for (hi = 0; hi < HANDLES && hsx_mb_handles[hi].used; hi++)
        ;
    if (hi == HANDLES)
        return HSX_MBX_NO_DESCRIPTOR;
    d = find_box(&t);
    if (d < 0) {
        int status = create_box(&t, HSX_MAILBOX_CAPACITY, HSX_MBX_RDWR, &created);
        if (status != HSX_MBX_OK)
            return status;
        d = (int32_t)created;
    }
    allowed = !hsx_mb_boxes[d].has_owner || hsx_mb_boxes[d].owner == pid ? HSX_MBX_RDWR
                                                           : hsx_mb_boxes[d].mode & HSX_MBX_RDWR;
    requested = flags & HSX_MBX_RDWR;
    access = requested ? requested : allowed;
    if ((requested & ~allowed) || ((flags & HSX_MBX_TAP) && !(access & RDONLY))) {
        free_if_unused((uint32_t)d);
        return HSX_MBX_ACCESS_DENIED;
    }
    hsx_k_fill(&hsx_mb_handles[hi], 0, sizeof hsx_mb_handles[hi]);
    hsx_mb_handles[hi].used = 1;
    hsx_mb_handles[hi].pid = pid;
    hsx_mb_handles[hi].number = pid == HOST_PID ? host_next_handle++ : task->next_handle++;
    hsx_mb_handles[hi].box = (uint8_t)d;
    hsx_mb_handles[hi].access = (uint8_t)access;
    hsx_mb_handles[hi].cursor = hsx_mb_boxes[d].next_seq;
    if (flags & HSX_MBX_TAP)
        set_tap(hi, 1);
    *number = hsx_mb_handles[hi].number;
    return HSX_MBX_OK;
}

int hsx_k_mbx_close(uint32_t pid, uint32_t number)
{
    int32_t hi = hsx_mb_find_handle(pid, number);
    if (hi < 0)
        return HSX_MBX_INVALID_HANDLE;
    drop_handle(hi);
    return HSX_MBX_OK;
}

int hsx_mb_tap(uint32_t pid, uint32_t number, int enable)
{
    int32_t hi = hsx_mb_find_handle(pid, number);
    if (hi < 0)
        return HSX_MBX_INVALID_HANDLE;
    if (enable && !(hsx_mb_handles[hi].access & RDONLY))
        return HSX_MBX_ACCESS_DENIED;
    if (hsx_mb_handles[hi].tap != (enable != 0))
        set_tap(hi, enable);
    return HSX_MBX_OK;
}

/* ---- traffic -------------------------------------------------------------------------------- */

void hsx_mb_emit_traffic(hsx_event_type type, uint32_t pid, uint32_t d, uint32_t number,
                         const hsx_mb_msg *m)
{
    hsx_event ev;
    hsx_k_event(&ev, type, pid);
    ev.id = number;
    ev.a = hsx_mb_boxes[d].id;
    ev.b = m->len;
    ev.c = m->channel;
    ev.d = m->pid;
    hsx_k_emit(&ev);
}

static void write_header(uint32_t off, uint32_t len, uint32_t flags, uint32_t channel,
                         uint32_t number, uint32_t pid, uint32_t seq)
{
    hsx_k_put16(hsx_mb_pool + off + R_LEN, len);
    hsx_k_put16(hsx_mb_pool + off + R_FLAGS, flags);
    hsx_k_put16(hsx_mb_pool + off + R_CHANNEL, channel);
    hsx_k_put16(hsx_mb_pool + off + R_HANDLE, number);
    hsx_k_put32(hsx_mb_pool + off + R_PID, pid);
    hsx_k_put32(hsx_mb_pool + off + R_SEQ, seq);
}

/* Drop the oldest message to make room (fan-out drop); readers that had not seen it
 * skip it and get OVERRUN on their next message. */
static void drop_oldest(uint32_t d)
{
    int32_t off = hsx_mb_rec_find(d, 0);
    hsx_mb_msg m;
    int i;
    hsx_mb_msg_at((uint32_t)off, &m);
    for (i = 0; i < HANDLES; i++) {
        struct hsx_mb_handle *h = &hsx_mb_handles[i];
        if (h->used && h->box == d && is_reader(h) && h->cursor <= m.seq) {
            h->cursor = m.seq + 1;
            h->overrun = (uint8_t)(h->overrun || !sent_by(&m, h));
        }
    }
    hsx_mb_pop_front(d);
}

/* A copy of the message at off for every tap of d (the oldest copies make room);
 * returns where the message is now (removing older records moves it down). */
static uint32_t copy_to_taps(uint32_t d, uint32_t off)
{
    uint32_t len = hsx_k_le16(hsx_mb_pool + off + R_LEN), cost = len + HEADER, size = R_DATA + len;
    int i;
    for (i = 0; i < HANDLES; i++) {
        struct hsx_mb_handle *h = &hsx_mb_handles[i];
        int32_t copy, old;
        if (!h->used || h->box != d || !h->tap)
            continue;
        while ((old = hsx_mb_rec_find(Q_TAP | (uint32_t)i, 0)) >= 0
               && (h->tap_bytes + cost > hsx_mb_boxes[d].capacity || size > HSX_MAILBOX_POOL - pool_used)) {
            uint32_t old_size = hsx_k_le16(hsx_mb_pool + old + R_SIZE);
            h->tap_bytes = (uint16_t)(h->tap_bytes - hsx_k_le16(hsx_mb_pool + old + R_LEN) - HEADER);
            rec_remove((uint32_t)old);
            if ((uint32_t)old < off)
                off -= old_size;
            h->overrun = 1;
        }
        copy = rec_add(Q_TAP | (uint32_t)i, size);
        if (copy < 0) {
            h->overrun = 1;             /* no room in the hsx_mb_pool: this copy is lost */
            continue;
        }
        hsx_k_copy(hsx_mb_pool + copy + R_LEN, hsx_mb_pool + off + R_LEN, size - R_LEN);
        h->tap_bytes = (uint16_t)(h->tap_bytes + cost);
    }
    return off;
}

/* Queue a message on descriptor d from (pid, handle number); the status. */
int hsx_mb_send_to(uint32_t d, uint32_t pid, uint32_t number, const uint8_t *data, uint32_t len,
                   uint32_t flags, uint32_t channel)
{
    struct hsx_mb_box *b = &hsx_mb_boxes[d];
    uint32_t cost = len + HEADER, size = R_DATA + len;
    int32_t off;
    hsx_mb_msg m;
    if (flags > 0xFFFFu || channel > 0xFFFFu)
        return HSX_MBX_INVALID_ARGUMENT;
    if (len > HSX_MAX_MESSAGE || cost > b->capacity)
        return HSX_MBX_MSG_TOO_LARGE;
    if (blocks_when_full(b)) {
        if (b->bytes_used + cost > b->capacity || size > HSX_MAILBOX_POOL - pool_used)
            return HSX_MBX_WOULDBLOCK;
    } else {
        while (b->depth && (b->bytes_used + cost > b->capacity
                            || size > HSX_MAILBOX_POOL - pool_used))
            drop_oldest(d);
        if (size > HSX_MAILBOX_POOL - pool_used)
            return HSX_MBX_WOULDBLOCK;          /* the shared hsx_mb_pool is full */
    }
    off = rec_add(d, size);
    write_header((uint32_t)off, len, flags & ~FLAG_OVERRUN, channel, number, pid, b->next_seq);
    hsx_k_copy(hsx_mb_pool + off + R_DATA, data, len);
    b->next_seq++;
    b->bytes_used += cost;
    b->depth++;
    hsx_mb_msg_at(copy_to_taps(d, (uint32_t)off), &m);
    hsx_mb_emit_traffic(HSX_EV_MAILBOX_SEND, pid, d, number, &m);
    reclaim(d);
    serve_waiters(d);
    return HSX_MBX_OK;
}

int hsx_k_mbx_send(uint32_t pid, uint32_t number, const uint8_t *data, uint32_t len,
                   uint32_t flags, uint32_t channel)
{
    int32_t hi = hsx_mb_find_handle(pid, number);
    if (hi < 0)
        return HSX_MBX_INVALID_HANDLE;
    if (!(hsx_mb_handles[hi].access & WRONLY))
        return HSX_MBX_ACCESS_DENIED;
    return hsx_mb_send_to(hsx_mb_handles[hi].box, pid, number, data, len, flags, channel);
}

/* Take the message pending for handle hi (there is one): copy up to max_len bytes to
 * dst; a longer message stays queued (MSG_TOO_LARGE) unless `partial` (stdin), which
 * takes what fits and leaves the rest. */
void hsx_mb_deliver(int hi, uint32_t max_len, uint8_t *dst, int partial, hsx_mb_result *r)
{
    struct hsx_mb_handle *h = &hsx_mb_handles[hi];
    uint32_t d = h->box;
    int32_t off = hsx_mb_pending(hi);
    hsx_mb_msg m;
    hsx_mb_msg_at((uint32_t)off, &m);
    hsx_k_fill(r, 0, sizeof *r);
    if (m.len > max_len && !partial) {
        r->status = HSX_MBX_MSG_TOO_LARGE;
        r->length = m.len;
        return;
    }
    r->has_message = 1;
    r->length = m.len < max_len ? m.len : max_len;
    r->flags = m.flags;
    r->channel = m.channel;
    r->src_pid = m.pid;
    if (dst)
        hsx_k_copy(dst, hsx_mb_pool + off + R_DATA, r->length);
    if (h->tap) {
        h->tap_bytes = (uint16_t)(h->tap_bytes - m.len - HEADER);
        rec_remove((uint32_t)off);
    } else if (partial && r->length < m.len) {      /* stdin: the rest stays for later */
        uint32_t at = (uint32_t)off + R_DATA;
        hsx_k_copy(hsx_mb_pool + at, hsx_mb_pool + at + r->length, pool_used - at - r->length);
        pool_used -= r->length;
        hsx_k_put16(hsx_mb_pool + off + R_LEN, m.len - r->length);
        hsx_k_put16(hsx_mb_pool + off + R_SIZE, R_DATA + m.len - r->length);
        hsx_mb_boxes[d].bytes_used -= r->length;
        return;
    } else if (!fanout(&hsx_mb_boxes[d])) {
        hsx_mb_pop_front(d);
    } else {
        h->cursor = m.seq + 1;
        reclaim(d);
    }
    if (h->tap || fanout(&hsx_mb_boxes[d])) {
        if (h->overrun)
            r->flags |= FLAG_OVERRUN;
        h->overrun = 0;
    }
    hsx_mb_emit_traffic(HSX_EV_MAILBOX_RECV, h->pid, d, h->number, &m);
}

/* A receive's outcome into the task's registers and info block (the payload is
 * already in its buffer). */
void hsx_mb_recv_results(hsx_tcb *t, int stdin_read, const hsx_mb_result *r)
{
    if (stdin_read) {
        hsx_k_set_reg(t, 0, r->has_message ? r->length : 0);
        return;
    }
    hsx_k_set_r0_r1(t, (uint32_t)r->status, r->length);
    if (r->has_message) {
        hsx_k_set_reg(t, 2, r->flags);
        hsx_k_set_reg(t, 3, r->channel);
        hsx_k_set_reg(t, 4, r->src_pid);
    }
    if (t->wait_info) {
        uint8_t *p = t->vm.mem + t->wait_info;
        hsx_k_put32(p, (uint32_t)r->status);
        hsx_k_put32(p + 4, r->length);
        hsx_k_put32(p + 8, r->flags);
        hsx_k_put32(p + 12, r->channel);
        hsx_k_put32(p + 16, r->src_pid);
    }
}

/* A blocked receive completes: its results, then the task wakes (deliver_wakes). */
static void complete_recv(hsx_tcb *t, const hsx_mb_result *r)
{
    hsx_mb_recv_results(t, t->wait == HSX_WAIT_STDIN, r);
    t->wait = HSX_WAIT_NONE;
    hsx_k_cancel_timer(t);
    if (r->status == HSX_MBX_TIMEOUT)
        t->timeouts++;
    else
        t->wakes++;
    hsx_k_wake(t, r->status == HSX_MBX_TIMEOUT ? HSX_REASON_TIMEOUT : HSX_REASON_MAILBOX_WAKE,
               (uint32_t)r->status);
}

/* Complete the receives of blocked tasks that now have a message, oldest wait first. */
static void serve_waiters(uint32_t d)
{
    hsx_tcb *waiting[HSX_MAX_TASKS];
    int32_t hs[HSX_MAX_TASKS];
    uint32_t n = 0, i, j;
    int took = 0;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        int32_t hi;
        if (!t->pid || t->in_handler || (t->wait != HSX_WAIT_RECV && t->wait != HSX_WAIT_STDIN))
            continue;
        hi = hsx_mb_find_handle(t->pid, t->wait_handle);
        if (hi < 0 || hsx_mb_handles[hi].box != d)
            continue;
        for (j = n++; j > 0 && (int32_t)(t->wait_order - waiting[j - 1]->wait_order) < 0; j--) {
            waiting[j] = waiting[j - 1];
            hs[j] = hs[j - 1];
        }
        waiting[j] = t;
        hs[j] = hi;
    }
    for (i = 0; i < n; i++) {
        hsx_tcb *t = waiting[i];
        hsx_mb_result r;
        if (t->wait == HSX_WAIT_NONE || !hsx_mb_handles[hs[i]].used || hsx_mb_pending(hs[i]) < 0)
            continue;
        hsx_mb_deliver(hs[i], t->wait_len, t->vm.mem + t->wait_buffer, t->wait == HSX_WAIT_STDIN, &r);
        took |= r.has_message;
        complete_recv(t, &r);
    }
    if (took)
        hsx_mb_retry_senders();
}

void hsx_k_mbx_resume_wait(hsx_tcb *t)
{
    int32_t hi;
    if (t->wait != HSX_WAIT_RECV && t->wait != HSX_WAIT_STDIN)
        return;
    hi = hsx_mb_find_handle(t->pid, t->wait_handle);
    if (hi >= 0)
        serve_waiters(hsx_mb_handles[hi].box);
}

static void finish_send(hsx_tcb *t, int status, uint32_t length)
{
    t->wait = HSX_WAIT_NONE;
    hsx_k_cancel_timer(t);
    hsx_k_set_r0_r1(t, (uint32_t)status, length);
    if (status == HSX_MBX_TIMEOUT)
        t->timeouts++;
    else
        t->wakes++;
    hsx_k_wake(t, status == HSX_MBX_TIMEOUT ? HSX_REASON_TIMEOUT : HSX_REASON_MAILBOX_WAKE,
               (uint32_t)status);
}

/* A receive made room somewhere: blocked senders try again, oldest first, until
 * none gets further. */
void hsx_mb_retry_senders(void)
{
    static uint8_t retrying;
    int progress = 1;
    if (retrying)
        return;                         /* a send below made room: the loop goes again */
    retrying = 1;
    while (progress) {
        hsx_tcb *order[HSX_MAX_TASKS];
        uint32_t n = 0, i, j;
        progress = 0;
        for (i = 0; i < HSX_MAX_TASKS; i++) {
            hsx_tcb *t = &hsx_k_tasks[i];
            if (!t->pid || t->wait != HSX_WAIT_SEND || t->in_handler)
                continue;
            for (j = n++; j > 0 && (int32_t)(t->wait_order - order[j - 1]->wait_order) < 0; j--)
                order[j] = order[j - 1];
            order[j] = t;
        }
        for (i = 0; i < n; i++) {
            hsx_tcb *t = order[i];
            int status;
            if (t->wait != HSX_WAIT_SEND)
                continue;
            status = hsx_k_mbx_send(t->pid, t->wait_handle, t->vm.mem + t->wait_buffer,
                                    t->wait_len, t->wait_flags, t->wait_channel);
            if (status != HSX_MBX_WOULDBLOCK) {
                finish_send(t, status, status == HSX_MBX_OK ? t->wait_len : 0);
                progress = 1;
            }
        }
    }
    retrying = 0;
}

void hsx_k_mbx_expire(hsx_tcb *t)
{
    if (t->wait == HSX_WAIT_SEND) {
        finish_send(t, HSX_MBX_TIMEOUT, 0);
    } else if (t->wait == HSX_WAIT_RECV) {
        hsx_mb_result r = { HSX_MBX_TIMEOUT, 0, 0, 0, 0, 0 };
        complete_recv(t, &r);
    }
}

/* ---- tasks ---------------------------------------------------------------------------------- */

int hsx_k_mbx_create_task(hsx_tcb *t)
{
    static const char *const OWN[] = { "svc:stdio.in", "svc:stdio.out", "svc:stdio.err", "pid:" };
    static const uint8_t FD_ACCESS[] = { RDONLY, WRONLY, WRONLY };
    uint32_t i, id, number;
    int status;
    t->next_handle = 1;
    for (i = 0; i < 4; i++) {
        status = hsx_k_mbx_bind(t->pid, OWN[i], hsx_k_strlen(OWN[i], 16), 0, 0, &id);
        if (status != HSX_MBX_OK)
            return status;              /* the caller releases what was made */
    }
    for (i = 0; i < 3; i++) {           /* fds 0, 1, 2 are hsx_mb_handles 1, 2, 3 */
        status = hsx_k_mbx_open(t->pid, OWN[i], hsx_k_strlen(OWN[i], 16), FD_ACCESS[i], &number);
        if (status != HSX_MBX_OK)
            return status;
    }
    return HSX_MBX_OK;
}

void hsx_k_mbx_release(uint32_t pid)
{
    uint32_t bit = pid_bit(pid), d;
    int i;
    for (i = 0; i < HANDLES; i++)
        if (hsx_mb_handles[i].used && hsx_mb_handles[i].pid == pid)
            drop_handle(i);
    for (d = 0; d < HSX_MAX_MAILBOXES; d++) {
        if (!hsx_mb_boxes[d].id)
            continue;
        hsx_mb_boxes[d].binders &= ~bit;
        if (hsx_mb_boxes[d].has_owner && hsx_mb_boxes[d].owner == pid)
            free_box(d);
        else
            free_if_unused(d);
    }
}
