/* Mailbox modes in one task: queue order and WOULDBLOCK when full, a message too large
 * for the buffer stays queued, fan-out subscribers each get every message but their own,
 * FANOUT_DROP drops the oldest (OVERRUN), FANOUT_BLOCK refuses, taps get copies with
 * OVERRUN when their buffer overflows, PEEK, CLOSE, bad targets and access bits. */
#include <hsx_mailbox.h>
#include <stdio.h>
#include <string.h>

static unsigned open_box(const char *target, unsigned flags) {
    unsigned h = 0, s = hsx_mbx_open(target, flags, &h);
    printf("open %s flags %u: status %u\n", target, flags, s);
    return h;
}

static void send(unsigned h, const char *text, unsigned channel) {
    printf("send %s: %u\n", text, hsx_mbx_send(h, text, (unsigned)strlen(text), 0, channel));
}

static void recv(const char *who, unsigned h, unsigned size) {
    char buf[64];
    hsx_mbx_info info;
    unsigned s = hsx_mbx_recv(h, buf, size, HSX_MBX_TIMEOUT_POLL, &info);
    if (s == HSX_MBX_STATUS_OK)
        printf("%s got '%.*s' channel %u overrun %u\n", who, (int)info.length, buf,
               info.channel, (info.flags & 8) != 0);
    else
        printf("%s status %u length %u\n", who, s, info.length);
}

int main(void) {
    hsx_mbx_peek_info peek;
    /* queue: 3 messages of 8+8 bytes fill a 48-byte mailbox */
    printf("bind queue: %u\n", hsx_mbx_bind("app:q", 48, HSX_MBX_MODE_RDWR));
    unsigned q = open_box("app:q", 0);
    send(q, "first-01", 1);
    send(q, "second02", 2);
    send(q, "third-03", 3);
    send(q, "fourth04", 4);                       /* full: WOULDBLOCK */
    hsx_mbx_peek(q, &peek);
    printf("peek: %u messages %u bytes next %u\n", peek.messages, peek.bytes_used,
           peek.next_length);
    recv("q", q, 4);                              /* too small: stays queued */
    recv("q", q, 64);
    recv("q", q, 64);
    recv("q", q, 64);
    recv("q", q, 64);                             /* empty: NO_DATA */
    /* (a task has 8 handles in the smallest executive, stdio's 3 included: close them) */

    /* fan-out: two subscribers and a write-only publisher */
    printf("bind fanout: %u\n", hsx_mbx_bind("app:f", 64, HSX_MBX_MODE_RDWR | HSX_MBX_MODE_FANOUT));
    unsigned a = open_box("app:f", HSX_MBX_OPEN_RDWR), b = open_box("app:f", HSX_MBX_OPEN_RDONLY);
    unsigned pub = open_box("app:f", HSX_MBX_OPEN_WRONLY);
    send(pub, "news-1", 0);
    send(a, "from-a", 0);                         /* a does not get its own */
    recv("a", a, 64);
    recv("a", a, 64);
    recv("b", b, 64);
    recv("b", b, 64);
    recv("b", b, 64);
    printf("closed %u %u %u\n", hsx_mbx_close(a), hsx_mbx_close(b), hsx_mbx_close(pub));

    /* FANOUT_DROP: the oldest is dropped, the reader sees OVERRUN */
    printf("bind drop: %u\n", hsx_mbx_bind("app:d", 32, HSX_MBX_MODE_FANOUT_DROP));
    unsigned r = open_box("app:d", HSX_MBX_OPEN_RDONLY), w = open_box("app:d", HSX_MBX_OPEN_WRONLY);
    send(w, "d1xxxxxx", 0);
    send(w, "d2xxxxxx", 0);
    send(w, "d3xxxxxx", 0);
    recv("r", r, 64);
    recv("r", r, 64);
    printf("closed %u %u\n", hsx_mbx_close(r), hsx_mbx_close(w));

    /* FANOUT_BLOCK: refused until the reader catches up */
    printf("bind block: %u\n", hsx_mbx_bind("app:b", 32, HSX_MBX_MODE_FANOUT_BLOCK));
    unsigned br = open_box("app:b", HSX_MBX_OPEN_RDONLY), bw = open_box("app:b", HSX_MBX_OPEN_WRONLY);
    send(bw, "b1xxxxxx", 0);
    send(bw, "b2xxxxxx", 0);
    send(bw, "b3xxxxxx", 0);
    recv("br", br, 64);
    send(bw, "b3xxxxxx", 0);
    printf("closed %u %u\n", hsx_mbx_close(br), hsx_mbx_close(bw));

    /* taps: copies of what the mailbox accepts, bounded by its capacity */
    printf("bind tapped: %u\n", hsx_mbx_bind("app:t", 40, HSX_MBX_MODE_RDWR));
    unsigned t = open_box("app:t", HSX_MBX_OPEN_TAP), tw = open_box("app:t", 0);
    send(tw, "t1xxxxxxxxxx", 0);
    recv("tw", tw, 64);
    send(tw, "t2xxxxxxxxxx", 0);
    recv("tw", tw, 64);
    send(tw, "t3xxxxxxxxxx", 0);
    recv("tap", t, 64);
    recv("tap", t, 64);
    recv("tap", t, 64);
    printf("tap off: %u\n", hsx_mbx_tap(t, 0));

    /* refusals */
    printf("close: %u again: %u\n", hsx_mbx_close(tw), hsx_mbx_close(tw));
    hsx_mbx_close(t);
    recv("closed", tw, 64);
    open_box("hal:uart", 0);
    open_box("shared:x@3", 0);
    open_box("app:a-name-that-is-far-too-long-for-a-mailbox", 0);
    printf("bind both policies: %u\n", hsx_mbx_bind("app:z", 0, 0x30));
    printf("bind capacity 4: %u\n", hsx_mbx_bind("app:z", 4, 0));
    unsigned ro = open_box("app:q", HSX_MBX_OPEN_RDONLY);
    send(ro, "nope", 0);
    unsigned wo = open_box("app:q", HSX_MBX_OPEN_WRONLY);
    recv("wo", wo, 64);
    printf("flags 0x10000: %u\n", hsx_mbx_send(q, "x", 1, 0x10000, 0));
    return 0;
}
