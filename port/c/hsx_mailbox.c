/* HSX C executive: mailboxes (SVC module 0x05) and stdio as mailboxes.
 *
 * The semantics of hsx.kernel.mailbox (docs/mailboxes.md): targets and namespaces,
 * descriptors kept alive by handles, binders or queued messages, per-task handles
 * numbered from 1 and never reused, queue and fan-out modes with their drop and block
 * policies, taps with their own bounded copies, blocked receivers served oldest first
 * with the message handed over, SEND_WAIT, the same status codes.
 *
 * Storage: every message, tap copy and mailbox name is a record in one byte pool,
 * appended at the end and compacted on removal, so records of one queue are always in
 * the order they were sent. A record: u16 queue, u16 size, u16 length, u16 flags,
 * u16 channel, u16 sender's handle, u32 sender pid, u32 sequence number, payload.
 */
#include "hsx_kernel.h"

#define HOST_PID 0u
#define HEADER 8u                   /* the capacity cost of a message beyond its payload */
#define MAX_NAME 32u
#define RECV_INFO 20u
#define HANDLES (HSX_MAX_TASKS * HSX_MAX_HANDLES + HSX_MAX_HANDLES)   /* the host: one share */

#define RDONLY 0x01u
#define WRONLY 0x02u
#define FANOUT 0x08u
#define FANOUT_DROP 0x10u
#define FANOUT_BLOCK 0x20u
#define MODE_MASK 0x3Fu
#define FLAG_STDOUT 0x01u
#define FLAG_STDERR 0x02u
#define FLAG_OVERRUN 0x08u

enum { NS_PID, NS_SVC, NS_APP, NS_SHARED };

/* pool records */
#define Q_NAME 0x4000u              /* | descriptor: its name */
#define Q_TAP 0x8000u               /* | handle: a tap's copies */
#define R_QUEUE 0
#define R_SIZE 2
#define R_LEN 4
#define R_FLAGS 6
#define R_CHANNEL 8
#define R_HANDLE 10
#define R_PID 12
#define R_SEQ 16
#define R_DATA 20u

#if HSX_MAX_TASKS > 31
#error "binders are a bit per task slot: HSX_MAX_TASKS must be at most 31"
#endif

static struct mbx {
    uint32_t id;                    /* 0: free */
    uint32_t owner, next_seq, bytes_used, binders;
    uint16_t capacity, depth;
    uint8_t ns, has_owner, mode;
} boxes[HSX_MAX_MAILBOXES];

static struct handle {
    uint32_t pid, number, cursor;
    uint16_t tap_bytes;
    uint8_t used, box, access, tap, overrun;
} handles[HANDLES];

static uint8_t pool[HSX_MAILBOX_POOL];
static uint32_t pool_used, next_descriptor, host_next_handle, wait_counter;

typedef struct target {
    const char *name;
    uint32_t name_len, owner;
    uint8_t ns, has_owner;
} target;

typedef struct msg {
    uint32_t off, len, flags, channel, handle, pid, seq;
} msg;

typedef struct result {
    int status;
    uint32_t length, flags, channel, src_pid;
    uint8_t has_message;
} result;

void hsx_k_mbx_init(void)
{
    hsx_k_fill(boxes, 0, sizeof boxes);
    hsx_k_fill(handles, 0, sizeof handles);
    pool_used = 0;
    next_descriptor = 1;
    host_next_handle = 1;
    wait_counter = 0;
}

/* ---- the pool ------------------------------------------------------------------------------ */

static int32_t rec_find(uint32_t queue, uint32_t from)
{
    while (from < pool_used) {
        if (hsx_k_le16(pool + from + R_QUEUE) == queue)
            return (int32_t)from;
        from += hsx_k_le16(pool + from + R_SIZE);
    }
    return -1;
}

static int32_t rec_add(uint32_t queue, uint32_t size)
{
    uint32_t at = pool_used;
    if (size > HSX_MAILBOX_POOL - pool_used)
        return -1;
    hsx_k_put16(pool + at + R_QUEUE, queue);
    hsx_k_put16(pool + at + R_SIZE, size);
    pool_used += size;
    return (int32_t)at;
}

static void rec_remove(uint32_t off)
{
    uint32_t size = hsx_k_le16(pool + off + R_SIZE);
    hsx_k_copy(pool + off, pool + off + size, pool_used - off - size);
    pool_used -= size;
}

static void rec_remove_queue(uint32_t queue)
{
    int32_t off;
    while ((off = rec_find(queue, 0)) >= 0)
        rec_remove((uint32_t)off);
}

static void msg_at(uint32_t off, msg *m)
{
    m->off = off;
    m->len = hsx_k_le16(pool + off + R_LEN);
    m->flags = hsx_k_le16(pool + off + R_FLAGS);
    m->channel = hsx_k_le16(pool + off + R_CHANNEL);
    m->handle = hsx_k_le16(pool + off + R_HANDLE);
    m->pid = hsx_k_le32(pool + off + R_PID);
    m->seq = hsx_k_le32(pool + off + R_SEQ);
}

/* ---- targets ---------------------------------------------------------------------------- */

static int name_char(char c) { return c >= 0x21 && c <= 0x7E && c != '@'; }

static int parse_pid(const char *s, uint32_t len, uint32_t *out)
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
static int parse_target(const char *text, uint32_t len, uint32_t caller, target *t)
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
    int32_t off = rec_find(Q_NAME | d, 0);
    if (off < 0) {
        *len = 0;
        return pool;
    }
    *len = hsx_k_le16(pool + off + R_SIZE) - 4u;
    return pool + off + 4;
}

static int32_t find_box(const target *t)
{
    uint32_t d, len, i;
    for (d = 0; d < HSX_MAX_MAILBOXES; d++) {
        const struct mbx *b = &boxes[d];
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
static void target_text(uint32_t d, char *out, uint32_t size)
{
    static const char *const PREFIXES[] = { "pid:", "svc:", "app:", "shared:" };
    const struct mbx *b = &boxes[d];
    uint32_t len, n;
    const uint8_t *name = name_of(d, &len);
    char digits[12];
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
    hsx_k_set_detail_number(b->owner);
    hsx_k_strcpy(digits, hsx_exec_last_detail(), sizeof digits);
    hsx_k_strcpy(out + n, digits, size - n);
}

/* ---- descriptors and handles ------------------------------------------------------------- */

static uint32_t pid_bit(uint32_t pid)
{
    hsx_tcb *t = hsx_k_task(pid);
    return pid == HOST_PID || !t ? 1u << 31 : 1u << (uint32_t)(t - hsx_k_tasks);
}

static int fanout(const struct mbx *b) { return (b->mode & FANOUT) != 0; }
static int blocks_when_full(const struct mbx *b) { return !fanout(b) || (b->mode & FANOUT_BLOCK); }
static int is_reader(const struct handle *h) { return !h->tap && (h->access & RDONLY); }
static int sent_by(const msg *m, const struct handle *h)
{
    return m->pid == h->pid && m->handle == (h->number & 0xFFFFu);
}

static int32_t find_handle(uint32_t pid, uint32_t number)
{
    int i;
    for (i = 0; i < HANDLES; i++)
        if (handles[i].used && handles[i].pid == pid && handles[i].number == number)
            return i;
    return -1;
}

static uint32_t head_seq(uint32_t d)
{
    int32_t off = rec_find(d, 0);
    return off < 0 ? boxes[d].next_seq : hsx_k_le32(pool + off + R_SEQ);
}

/* The first queued message a fan-out subscriber has not seen (its own count as seen). */
static int32_t unseen(const struct handle *h)
{
    int32_t off = rec_find(h->box, 0);
    msg m;
    while (off >= 0) {
        msg_at((uint32_t)off, &m);
        if (m.seq >= h->cursor && !sent_by(&m, h))
            return off;
        off = rec_find(h->box, (uint32_t)off + hsx_k_le16(pool + off + R_SIZE));
    }
    return -1;
}

static int32_t pending(int hi)
{
    const struct handle *h = &handles[hi];
    if (h->tap)
        return rec_find(Q_TAP | (uint32_t)hi, 0);
    if (!fanout(&boxes[h->box]))
        return rec_find(h->box, 0);
    return unseen(h);
}

static uint32_t pending_count(int hi)
{
    const struct handle *h = &handles[hi];
    uint32_t queue = h->tap ? (Q_TAP | (uint32_t)hi) : h->box, n = 0;
    int32_t off = rec_find(queue, 0);
    msg m;
    while (off >= 0) {
        msg_at((uint32_t)off, &m);
        if (h->tap || !fanout(&boxes[h->box]) || (m.seq >= h->cursor && !sent_by(&m, h)))
            n++;
        off = rec_find(queue, (uint32_t)off + hsx_k_le16(pool + off + R_SIZE));
    }
    return n;
}

static void pop_front(uint32_t d)
{
    int32_t off = rec_find(d, 0);
    if (off < 0)
        return;
    boxes[d].bytes_used -= hsx_k_le16(pool + off + R_LEN) + HEADER;
    boxes[d].depth--;
    rec_remove((uint32_t)off);
}

/* Fan-out: forget messages no subscriber still needs (all when nobody subscribes). */
static void reclaim(uint32_t d)
{
    uint32_t floor = boxes[d].next_seq;
    int32_t off;
    int i;
    if (!fanout(&boxes[d]))
        return;
    for (i = 0; i < HANDLES; i++) {
        if (!handles[i].used || handles[i].box != d || !is_reader(&handles[i]))
            continue;
        off = unseen(&handles[i]);
        if (off >= 0 && hsx_k_le32(pool + off + R_SEQ) < floor)
            floor = hsx_k_le32(pool + off + R_SEQ);
    }
    while ((off = rec_find(d, 0)) >= 0 && hsx_k_le32(pool + off + R_SEQ) < floor)
        pop_front(d);
}

static int in_use(uint32_t d)
{
    int i;
    if (boxes[d].binders || boxes[d].depth)
        return 1;
    for (i = 0; i < HANDLES; i++)
        if (handles[i].used && handles[i].box == d)
            return 1;
    return 0;
}

static void complete_recv(hsx_tcb *t, const result *r);
static void serve_waiters(uint32_t d);

static void drop_tap_copies(int hi)
{
    rec_remove_queue(Q_TAP | (uint32_t)hi);
    handles[hi].tap_bytes = 0;
}

/* Free a descriptor: its waiters resume with INVALID_HANDLE, its handles go. */
static void free_box(uint32_t d)
{
    int i;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        int32_t hi;
        if (!t->pid || (t->wait != HSX_WAIT_RECV && t->wait != HSX_WAIT_STDIN))
            continue;
        hi = find_handle(t->pid, t->wait_handle);
        if (hi >= 0 && handles[hi].box == d) {
            result r = { HSX_MBX_INVALID_HANDLE, 0, 0, 0, 0, 0 };
            complete_recv(t, &r);
        }
    }
    for (i = 0; i < HANDLES; i++)
        if (handles[i].used && handles[i].box == d) {
            drop_tap_copies(i);
            handles[i].used = 0;
        }
    rec_remove_queue(d);
    rec_remove_queue(Q_NAME | d);
    boxes[d].id = 0;
}

static void free_if_unused(uint32_t d)
{
    if (boxes[d].id && !in_use(d))
        free_box(d);
}

static void drop_handle(int hi)
{
    uint32_t d = handles[hi].box;
    drop_tap_copies(hi);
    handles[hi].used = 0;
    reclaim(d);
    free_if_unused(d);
}

static int create_box(const target *t, uint32_t capacity, uint32_t mode, uint32_t *out)
{
    uint32_t d;
    for (d = 0; d < HSX_MAX_MAILBOXES && boxes[d].id; d++)
        ;
    if (d == HSX_MAX_MAILBOXES)
        return HSX_MBX_NO_DESCRIPTOR;
    if (t->ns != NS_PID) {
        int32_t off = rec_add(Q_NAME | d, 4 + t->name_len);
        if (off < 0)
            return HSX_MBX_NO_DESCRIPTOR;       /* no room for its name: the pool is full */
        hsx_k_copy(pool + off + 4, t->name, t->name_len);
    }
    hsx_k_fill(&boxes[d], 0, sizeof boxes[d]);
    boxes[d].id = next_descriptor++;
    boxes[d].ns = t->ns;
    boxes[d].has_owner = t->has_owner;
    boxes[d].owner = t->owner;
    boxes[d].capacity = (uint16_t)capacity;
    boxes[d].mode = (uint8_t)mode;
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
        struct mbx *b = &boxes[d];
        uint32_t new_mode = normal ? normal : b->mode;
        int switched = ((b->mode ^ new_mode) & FANOUT) != 0, i;
        b->capacity = (uint16_t)(capacity ? capacity : b->capacity);
        b->mode = (uint8_t)new_mode;
        if (switched)                   /* every reader gets the backlog */
            for (i = 0; i < HANDLES; i++)
                if (handles[i].used && handles[i].box == (uint32_t)d) {
                    handles[i].cursor = head_seq((uint32_t)d);
                    handles[i].overrun = 0;
                }
        reclaim((uint32_t)d);
        serve_waiters((uint32_t)d);
    }
    boxes[d].binders |= pid_bit(pid);
    *descriptor = boxes[d].id;
    return HSX_MBX_OK;
}

static uint32_t count_handles(uint32_t pid)
{
    uint32_t n = 0;
    int i;
    for (i = 0; i < HANDLES; i++)
        if (handles[i].used && handles[i].pid == pid)
            n++;
    return n;
}

static void set_tap(int hi, int enable)
{
    struct handle *h = &handles[hi];
    drop_tap_copies(hi);
    h->tap = (uint8_t)(enable != 0);
    h->cursor = boxes[h->box].next_seq;
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
    for (hi = 0; hi < HANDLES && handles[hi].used; hi++)
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
    allowed = !boxes[d].has_owner || boxes[d].owner == pid ? HSX_MBX_RDWR
                                                           : boxes[d].mode & HSX_MBX_RDWR;
    requested = flags & HSX_MBX_RDWR;
    access = requested ? requested : allowed;
    if ((requested & ~allowed) || ((flags & HSX_MBX_TAP) && !(access & RDONLY))) {
        free_if_unused((uint32_t)d);
        return HSX_MBX_ACCESS_DENIED;
    }
    hsx_k_fill(&handles[hi], 0, sizeof handles[hi]);
    handles[hi].used = 1;
    handles[hi].pid = pid;
    handles[hi].number = pid == HOST_PID ? host_next_handle++ : task->next_handle++;
    handles[hi].box = (uint8_t)d;
    handles[hi].access = (uint8_t)access;
    handles[hi].cursor = boxes[d].next_seq;
    if (flags & HSX_MBX_TAP)
        set_tap(hi, 1);
    *number = handles[hi].number;
    return HSX_MBX_OK;
}

int hsx_k_mbx_close(uint32_t pid, uint32_t number)
{
    int32_t hi = find_handle(pid, number);
    if (hi < 0)
        return HSX_MBX_INVALID_HANDLE;
    drop_handle(hi);
    return HSX_MBX_OK;
}

static int tap(uint32_t pid, uint32_t number, int enable)
{
    int32_t hi = find_handle(pid, number);
    if (hi < 0)
        return HSX_MBX_INVALID_HANDLE;
    if (enable && !(handles[hi].access & RDONLY))
        return HSX_MBX_ACCESS_DENIED;
    if (handles[hi].tap != (enable != 0))
        set_tap(hi, enable);
    return HSX_MBX_OK;
}

/* ---- traffic -------------------------------------------------------------------------------- */

static void emit_traffic(hsx_event_type type, uint32_t pid, uint32_t d, uint32_t number,
                         const msg *m)
{
    hsx_event ev;
    hsx_k_fill(&ev, 0, sizeof ev);
    ev.type = type;
    ev.pid = pid;
    ev.id = number;
    ev.a = boxes[d].id;
    ev.b = m->len;
    ev.c = m->channel;
    ev.d = m->pid;
    hsx_k_emit(&ev);
}

static void write_header(uint32_t off, uint32_t len, uint32_t flags, uint32_t channel,
                         uint32_t number, uint32_t pid, uint32_t seq)
{
    hsx_k_put16(pool + off + R_LEN, len);
    hsx_k_put16(pool + off + R_FLAGS, flags);
    hsx_k_put16(pool + off + R_CHANNEL, channel);
    hsx_k_put16(pool + off + R_HANDLE, number);
    hsx_k_put32(pool + off + R_PID, pid);
    hsx_k_put32(pool + off + R_SEQ, seq);
}

/* Drop the oldest message to make room (fan-out drop); readers that had not seen it
 * skip it and get OVERRUN on their next message. */
static void drop_oldest(uint32_t d)
{
    int32_t off = rec_find(d, 0);
    msg m;
    int i;
    msg_at((uint32_t)off, &m);
    for (i = 0; i < HANDLES; i++) {
        struct handle *h = &handles[i];
        if (h->used && h->box == d && is_reader(h) && h->cursor <= m.seq) {
            h->cursor = m.seq + 1;
            h->overrun = (uint8_t)(h->overrun || !sent_by(&m, h));
        }
    }
    pop_front(d);
}

/* A copy of the message at off for every tap of d (the oldest copies make room);
 * returns where the message is now (removing older records moves it down). */
static uint32_t copy_to_taps(uint32_t d, uint32_t off)
{
    uint32_t len = hsx_k_le16(pool + off + R_LEN), cost = len + HEADER, size = R_DATA + len;
    int i;
    for (i = 0; i < HANDLES; i++) {
        struct handle *h = &handles[i];
        int32_t copy, old;
        if (!h->used || h->box != d || !h->tap)
            continue;
        while ((old = rec_find(Q_TAP | (uint32_t)i, 0)) >= 0
               && (h->tap_bytes + cost > boxes[d].capacity || size > HSX_MAILBOX_POOL - pool_used)) {
            uint32_t old_size = hsx_k_le16(pool + old + R_SIZE);
            h->tap_bytes = (uint16_t)(h->tap_bytes - hsx_k_le16(pool + old + R_LEN) - HEADER);
            rec_remove((uint32_t)old);
            if ((uint32_t)old < off)
                off -= old_size;
            h->overrun = 1;
        }
        copy = rec_add(Q_TAP | (uint32_t)i, size);
        if (copy < 0) {
            h->overrun = 1;             /* no room in the pool: this copy is lost */
            continue;
        }
        hsx_k_copy(pool + copy + R_LEN, pool + off + R_LEN, size - R_LEN);
        h->tap_bytes = (uint16_t)(h->tap_bytes + cost);
    }
    return off;
}

static void retry_senders(void);

/* Queue a message on descriptor d from (pid, handle number); the status. */
static int send_to(uint32_t d, uint32_t pid, uint32_t number, const uint8_t *data, uint32_t len,
                   uint32_t flags, uint32_t channel)
{
    struct mbx *b = &boxes[d];
    uint32_t cost = len + HEADER, size = R_DATA + len;
    int32_t off;
    msg m;
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
            return HSX_MBX_WOULDBLOCK;          /* the shared pool is full */
    }
    off = rec_add(d, size);
    write_header((uint32_t)off, len, flags & ~FLAG_OVERRUN, channel, number, pid, b->next_seq);
    hsx_k_copy(pool + off + R_DATA, data, len);
    b->next_seq++;
    b->bytes_used += cost;
    b->depth++;
    msg_at(copy_to_taps(d, (uint32_t)off), &m);
    emit_traffic(HSX_EV_MAILBOX_SEND, pid, d, number, &m);
    reclaim(d);
    serve_waiters(d);
    return HSX_MBX_OK;
}

int hsx_k_mbx_send(uint32_t pid, uint32_t number, const uint8_t *data, uint32_t len,
                   uint32_t flags, uint32_t channel)
{
    int32_t hi = find_handle(pid, number);
    if (hi < 0)
        return HSX_MBX_INVALID_HANDLE;
    if (!(handles[hi].access & WRONLY))
        return HSX_MBX_ACCESS_DENIED;
    return send_to(handles[hi].box, pid, number, data, len, flags, channel);
}

/* Take the message pending for handle hi (there is one): copy up to max_len bytes to
 * dst; a longer message stays queued (MSG_TOO_LARGE) unless `partial` (stdin), which
 * takes what fits and leaves the rest. */
static void deliver(int hi, uint32_t max_len, uint8_t *dst, int partial, result *r)
{
    struct handle *h = &handles[hi];
    uint32_t d = h->box;
    int32_t off = pending(hi);
    msg m;
    msg_at((uint32_t)off, &m);
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
        hsx_k_copy(dst, pool + off + R_DATA, r->length);
    if (h->tap) {
        h->tap_bytes = (uint16_t)(h->tap_bytes - m.len - HEADER);
        rec_remove((uint32_t)off);
    } else if (partial && r->length < m.len) {      /* stdin: the rest stays for later */
        uint32_t at = (uint32_t)off + R_DATA;
        hsx_k_copy(pool + at, pool + at + r->length, pool_used - at - r->length);
        pool_used -= r->length;
        hsx_k_put16(pool + off + R_LEN, m.len - r->length);
        hsx_k_put16(pool + off + R_SIZE, R_DATA + m.len - r->length);
        boxes[d].bytes_used -= r->length;
        return;
    } else if (!fanout(&boxes[d])) {
        pop_front(d);
    } else {
        h->cursor = m.seq + 1;
        reclaim(d);
    }
    if (h->tap || fanout(&boxes[d])) {
        if (h->overrun)
            r->flags |= FLAG_OVERRUN;
        h->overrun = 0;
    }
    emit_traffic(HSX_EV_MAILBOX_RECV, h->pid, d, h->number, &m);
}

/* A receive's outcome into the task's registers and info block (the payload is
 * already in its buffer). */
static void recv_results(hsx_tcb *t, int stdin_read, const result *r)
{
    if (stdin_read) {
        hsx_k_set_reg(t, 0, r->has_message ? r->length : 0);
        return;
    }
    hsx_k_set_reg(t, 0, (uint32_t)r->status);
    hsx_k_set_reg(t, 1, r->length);
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
static void complete_recv(hsx_tcb *t, const result *r)
{
    recv_results(t, t->wait == HSX_WAIT_STDIN, r);
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
        hi = find_handle(t->pid, t->wait_handle);
        if (hi < 0 || handles[hi].box != d)
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
        result r;
        if (t->wait == HSX_WAIT_NONE || !handles[hs[i]].used || pending(hs[i]) < 0)
            continue;
        deliver(hs[i], t->wait_len, t->vm.mem + t->wait_buffer, t->wait == HSX_WAIT_STDIN, &r);
        took |= r.has_message;
        complete_recv(t, &r);
    }
    if (took)
        retry_senders();
}

void hsx_k_mbx_resume_wait(hsx_tcb *t)
{
    int32_t hi;
    if (t->wait != HSX_WAIT_RECV && t->wait != HSX_WAIT_STDIN)
        return;
    hi = find_handle(t->pid, t->wait_handle);
    if (hi >= 0)
        serve_waiters(handles[hi].box);
}

static void finish_send(hsx_tcb *t, int status, uint32_t length)
{
    t->wait = HSX_WAIT_NONE;
    hsx_k_cancel_timer(t);
    hsx_k_set_reg(t, 0, (uint32_t)status);
    hsx_k_set_reg(t, 1, length);
    if (status == HSX_MBX_TIMEOUT)
        t->timeouts++;
    else
        t->wakes++;
    hsx_k_wake(t, status == HSX_MBX_TIMEOUT ? HSX_REASON_TIMEOUT : HSX_REASON_MAILBOX_WAKE,
               (uint32_t)status);
}

/* A receive made room somewhere: blocked senders try again, oldest first, until
 * none gets further. */
static void retry_senders(void)
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
        result r = { HSX_MBX_TIMEOUT, 0, 0, 0, 0, 0 };
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
    for (i = 0; i < 3; i++) {           /* fds 0, 1, 2 are handles 1, 2, 3 */
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
        if (handles[i].used && handles[i].pid == pid)
            drop_handle(i);
    for (d = 0; d < HSX_MAX_MAILBOXES; d++) {
        if (!boxes[d].id)
            continue;
        boxes[d].binders &= ~bit;
        if (boxes[d].has_owner && boxes[d].owner == pid)
            free_box(d);
        else
            free_if_unused(d);
    }
}

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
    int32_t hi = find_handle(t->pid, fd + 1);
    uint32_t max = HSX_MAX_MESSAGE, done = 0;
    if (hi < 0)
        return;
    if (boxes[handles[hi].box].capacity - HEADER < max)
        max = boxes[handles[hi].box].capacity - HEADER;
    while (done < len) {
        uint32_t n = len - done < max ? len - done : max, d = handles[hi].box;
        hsx_event ev;
        int32_t off;
        if (send_to(d, t->pid, fd + 1, t->vm.mem + addr + done, n,
                    fd == 1 ? FLAG_STDOUT : FLAG_STDERR, 0) != HSX_MBX_OK)
            return;
        while ((off = rec_find(d, 0)) >= 0) {       /* the executive's end reads it */
            msg m;
            msg_at((uint32_t)off, &m);
            keep_output(t, pool + off + R_DATA, m.len);
            hsx_k_fill(&ev, 0, sizeof ev);
            ev.type = fd == 1 ? HSX_EV_STDOUT : HSX_EV_STDERR;
            ev.pid = t->pid;
            ev.data = pool + off + R_DATA;
            ev.len = m.len;
            emit_traffic(HSX_EV_MAILBOX_RECV, HOST_PID, d, 0, &m);
            hsx_k_emit(&ev);
            pop_front(d);
        }
        done += n;
    }
}

static void block(hsx_tcb *t, int kind, uint32_t handle, uint32_t timeout)
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
    int32_t hi = find_handle(t->pid, 1);
    result r;
    if (hi < 0 || !(handles[hi].access & RDONLY)) {
        hsx_k_set_reg(t, 0, 0);
        return HSX_SVC_DONE;
    }
    if (pending(hi) < 0) {
        if (t->in_handler)
            return HSX_SVC_BLOCK;           /* a handler must not block: the call fails */
        t->wait_buffer = dst;
        t->wait_len = len;
        block(t, HSX_WAIT_STDIN, 1, 0xFFFFu);
        return HSX_SVC_BLOCK;
    }
    deliver(hi, len, t->vm.mem + dst, 1, &r);
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
    hi = find_handle(pid, 1);
    if (hi < 0)
        return HSX_ERR_STDIN_FULL;
    d = handles[hi].box;
    if (boxes[d].capacity - HEADER < max)
        max = boxes[d].capacity - HEADER;
    while (done < len) {
        uint32_t n = len - done < max ? len - done : max;
        if (send_to(d, HOST_PID, 0, data + done, n, 0, 0) != HSX_MBX_OK)
            break;
        done += n;
    }
    if (written)
        *written = done;
    if (done < len || (eof && send_to(d, HOST_PID, 0, data, 0, 0, 0) != HSX_MBX_OK))
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

int hsx_k_svc_mailbox(hsx_tcb *t, uint32_t fn)
{
    uint32_t r1 = hsx_k_reg(t, 1), r2 = hsx_k_reg(t, 2), r3 = hsx_k_reg(t, 3);
    uint32_t r4 = hsx_k_reg(t, 4), r5 = hsx_k_reg(t, 5), out = 0;
    char text[HSX_MAX_STRING + 1];
    int status, n;
    switch (fn) {
    case 0: case 1:                                 /* OPEN, BIND */
        if ((n = hsx_k_guest_string(t, r1, text, sizeof text)) < 0)
            return HSX_SVC_FAULT;
        status = fn == 0 ? hsx_k_mbx_open(t->pid, text, (uint32_t)n, r2, &out)
                         : hsx_k_mbx_bind(t->pid, text, (uint32_t)n, r2, r3, &out);
        hsx_k_set_reg(t, 0, (uint32_t)status);
        hsx_k_set_reg(t, 1, status == HSX_MBX_OK ? out : 0);
        return HSX_SVC_DONE;
    case 2: case 7: {                               /* SEND, SEND_WAIT */
        uint32_t len = r3 & 0xFFFFu, timeout = fn == 7 ? hsx_k_reg(t, 0) & 0xFFFFu : 0;
        if (!hsx_k_guest_ok(t, r2, len))
            return HSX_SVC_FAULT;
        status = hsx_k_mbx_send(t->pid, r1, t->vm.mem + r2, len, r4, r5);
        if (status == HSX_MBX_WOULDBLOCK && timeout) {
            if (t->in_handler)
                return HSX_SVC_BLOCK;
            t->wait_buffer = r2;
            t->wait_len = len;
            t->wait_flags = r4;
            t->wait_channel = r5;
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
        int32_t hi = find_handle(t->pid, r1);
        result r;
        if (!hsx_k_guest_ok(t, r2, max) || (r5 && !hsx_k_guest_ok(t, r5, RECV_INFO)))
            return HSX_SVC_FAULT;
        t->wait_buffer = r2;
        t->wait_len = max;
        t->wait_info = r5;
        hsx_k_fill(&r, 0, sizeof r);
        if (hi < 0)
            r.status = HSX_MBX_INVALID_HANDLE;
        else if (!(handles[hi].access & RDONLY))
            r.status = HSX_MBX_ACCESS_DENIED;
        else if (pending(hi) < 0)
            r.status = HSX_MBX_NO_DATA;
        else
            deliver(hi, max, t->vm.mem + r2, 0, &r);
        if (r.status == HSX_MBX_NO_DATA && timeout) {
            if (t->in_handler)
                return HSX_SVC_BLOCK;
            block(t, HSX_WAIT_RECV, r1, timeout);
            return HSX_SVC_BLOCK;
        }
        recv_results(t, 0, &r);
        if (r.has_message)
            retry_senders();
        return HSX_SVC_DONE;
    }
    case 4: {                                       /* PEEK */
        int32_t hi = find_handle(t->pid, r1), off;
        if (hi < 0) {
            hsx_k_set_reg(t, 0, HSX_MBX_INVALID_HANDLE);
            return HSX_SVC_DONE;
        }
        off = pending(hi);
        hsx_k_set_reg(t, 0, HSX_MBX_OK);
        hsx_k_set_reg(t, 1, pending_count(hi));
        hsx_k_set_reg(t, 2, handles[hi].tap ? handles[hi].tap_bytes : boxes[handles[hi].box].bytes_used);
        hsx_k_set_reg(t, 3, off < 0 ? 0 : hsx_k_le16(pool + off + R_LEN));
        return HSX_SVC_DONE;
    }
    case 5:                                         /* TAP */
        hsx_k_set_reg(t, 0, (uint32_t)tap(t->pid, r1, (int)(r2 & 1u)));
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
    int32_t hi = find_handle(HOST_PID, number);
    result r;
    hsx_k_fill(&r, 0, sizeof r);
    if (hi < 0)
        r.status = HSX_MBX_INVALID_HANDLE;
    else if (!(handles[hi].access & RDONLY))
        r.status = HSX_MBX_ACCESS_DENIED;
    else if (pending(hi) < 0)
        r.status = HSX_MBX_NO_DATA;
    else
        deliver(hi, size, out, 0, &r);
    if (info) {
        info->length = r.length;
        info->flags = r.flags;
        info->channel = r.channel;
        info->src_pid = r.src_pid;
    }
    if (r.has_message)
        retry_senders();
    return mbx_status(r.status);
}

int hsx_exec_next_mailbox(uint32_t *cursor, hsx_mailbox_info *out)
{
    int32_t best = -1;
    uint32_t d;
    int i;
    for (d = 0; d < HSX_MAX_MAILBOXES; d++)
        if (boxes[d].id > *cursor && (best < 0 || boxes[d].id < boxes[best].id))
            best = (int32_t)d;
    if (best < 0)
        return 0;
    d = (uint32_t)best;
    hsx_k_fill(out, 0, sizeof *out);
    out->descriptor_id = boxes[d].id;
    target_text(d, out->target, sizeof out->target);
    out->namespace_ = boxes[d].ns;
    out->has_owner = boxes[d].has_owner;
    out->owner_pid = boxes[d].owner;
    out->mode = boxes[d].mode;
    out->capacity = boxes[d].capacity;
    out->bytes_used = boxes[d].bytes_used;
    out->queue_depth = boxes[d].depth;
    out->next_seq = boxes[d].next_seq;
    for (i = 0; i < HANDLES; i++)
        if (handles[i].used && handles[i].box == d)
            out->handles++;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        int32_t hi = t->pid && (t->wait == HSX_WAIT_RECV || t->wait == HSX_WAIT_STDIN)
                         ? find_handle(t->pid, t->wait_handle) : -1;
        if (hi >= 0 && handles[hi].box == d)
            out->waiters++;
    }
    *cursor = boxes[d].id;
    return 1;
}
