/* HSX C executive: files over CAN (hsx_canfs.h), the hsxfs/1 client.
 *
 *   request   op:u8 seq:u8 arguments            (little-endian)
 *   response  op|0x80:u8 seq:u8 status:i32 data
 *
 * A response to another request (a late one) is passed over; the first request of a
 * client is HELLO "hsxfs/1", which also makes the server close what an earlier client
 * left open. The file ids this file system hands the executive are the server's. */
#include "hsx_canfs.h"
#include "hsx_isotp.h"

enum { HELLO, OPEN, READ, WRITE, SEEK, CLOSE, LISTDIR, DELETE, RENAME, MKDIR };
#define RESPONSE 0x80
#define RESPONSE_HEADER 6
#define MAX_DATA (HSX_ISOTP_MAX - RESPONSE_HEADER)      /* what one READ answer carries */
#define MAX_WRITE (HSX_ISOTP_MAX - 2 - 4)               /* what one WRITE request carries */

static const hsx_canfs_config *config;
static hsx_isotp link;
static uint8_t seq, greeted;
static uint8_t message[HSX_ISOTP_MAX];  /* the request being built: op, seq, arguments */
static uint8_t answer[HSX_ISOTP_MAX];
static const uint8_t *answer_data;      /* the data of the last answer */
static uint32_t answer_len;

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static uint32_t text_len(const char *s, uint32_t max)
{
    uint32_t n = 0;
    while (s[n] && n < max)
        n++;
    return n;
}

/* Send request[0..len) (its op and seq set here) and wait for its answer; the answer's
 * status, or -HSX_ETIMEDOUT / -HSX_EIO. */
static int exchange(uint8_t *request, uint32_t len)
{
    uint32_t deadline;
    int n, r;
    request[1] = ++seq;
    hsx_isotp_drain(&link);
    if ((r = hsx_isotp_send(&link, request, len)) < 0)
        return r;
    deadline = config->now_ms() + config->timeout_ms;
    for (;;) {
        n = hsx_isotp_recv(&link, answer, sizeof answer);
        if (n < 0)
            return n;
        if (n >= RESPONSE_HEADER && answer[0] == (RESPONSE | request[0]) && answer[1] == seq)
            break;
        if ((int32_t)(config->now_ms() - deadline) >= 0)
            return -HSX_ETIMEDOUT;
    }
    answer_data = answer + RESPONSE_HEADER;
    answer_len = (uint32_t)n - RESPONSE_HEADER;
    return (int)((uint32_t)answer[2] | ((uint32_t)answer[3] << 8) |
                 ((uint32_t)answer[4] << 16) | ((uint32_t)answer[5] << 24));
}

/* Request `op` with `len` bytes of arguments in message[2..]; greets the server first. */
static int call(uint8_t op, uint32_t len)
{
    if (!greeted) {
        uint8_t hello[2 + 7] = {HELLO, 0, 'h', 's', 'x', 'f', 's', '/', '1'};
        int r = exchange(hello, sizeof hello);
        if (r < 0)
            return r;
        greeted = 1;
    }
    message[0] = op;
    return exchange(message, 2 + len);
}

/* message[2 + at..] = the path; the bytes it took. */
static uint32_t put_path(uint32_t at, const char *path)
{
    uint32_t n = text_len(path, MAX_WRITE - at), i;
    for (i = 0; i < n; i++)
        message[2 + at + i] = (uint8_t)path[i];
    return n;
}

static int canfs_open(void *ctx, const char *path, uint32_t flags)
{
    (void)ctx;
    put32(message + 2, flags);
    return call(OPEN, 4 + put_path(4, path));
}

static int canfs_read(void *ctx, int file, uint8_t *out, uint32_t len)
{
    uint32_t got = 0, i;
    (void)ctx;
    while (got < len) {
        uint32_t ask = len - got < MAX_DATA ? len - got : MAX_DATA;
        int r;
        put32(message + 2, (uint32_t)file);
        message[6] = (uint8_t)ask;
        message[7] = (uint8_t)(ask >> 8);
        if ((r = call(READ, 6)) < 0)
            return got ? (int)got : r;
        for (i = 0; i < answer_len && got < len; i++)
            out[got++] = answer_data[i];
        if (answer_len < ask)
            break;
    }
    return (int)got;
}

static int canfs_write(void *ctx, int file, const uint8_t *data, uint32_t len)
{
    uint32_t done = 0, i;
    (void)ctx;
    while (done < len) {
        uint32_t part = len - done < MAX_WRITE ? len - done : MAX_WRITE;
        int r;
        put32(message + 2, (uint32_t)file);
        for (i = 0; i < part; i++)
            message[6 + i] = data[done + i];
        if ((r = call(WRITE, 4 + part)) < 0)
            return r;
        done += part;
    }
    return (int)done;
}

static int canfs_seek(void *ctx, int file, int32_t offset, uint32_t whence)
{
    (void)ctx;
    if (whence > 0xFF)
        return -HSX_EINVAL;
    put32(message + 2, (uint32_t)file);
    put32(message + 6, (uint32_t)offset);
    message[10] = (uint8_t)whence;
    return call(SEEK, 9);
}

static int canfs_close(void *ctx, int file)
{
    (void)ctx;
    put32(message + 2, (uint32_t)file);
    return call(CLOSE, 4);
}

static int canfs_listdir(void *ctx, const char *path, char *out, uint32_t size)
{
    uint32_t got = 0, total = 0, i;
    (void)ctx;
    do {
        int r;
        put32(message + 2, got);
        if ((r = call(LISTDIR, 4 + put_path(4, path))) < 0)
            return r;
        total = (uint32_t)r;
        for (i = 0; i < answer_len; i++, got++)
            if (got < size)
                out[got] = (char)answer_data[i];
        if (!answer_len)
            break;
    } while (got < total);
    return (int)(got < size ? got : size);
}

static int canfs_remove(void *ctx, const char *path)
{
    (void)ctx;
    return call(DELETE, put_path(0, path));
}

static int canfs_rename(void *ctx, const char *from, const char *to)
{
    uint32_t n;
    (void)ctx;
    n = put_path(0, from);
    message[2 + n] = 0;
    return call(RENAME, n + 1 + put_path(n + 1, to));
}

static int canfs_mkdir(void *ctx, const char *path)
{
    (void)ctx;
    return call(MKDIR, put_path(0, path));
}

void hsx_canfs_init(const hsx_canfs_config *c, hsx_fs *out)
{
    static const hsx_fs canfs = {0, canfs_open, canfs_read, canfs_write, canfs_seek,
                                 canfs_close, canfs_listdir, canfs_remove, canfs_rename,
                                 canfs_mkdir};
    config = c;
    link.can = c->can;
    link.now_ms = c->now_ms;
    link.tx_id = c->server_id;
    link.rx_id = c->client_id;
    link.timeout_ms = c->timeout_ms;
    seq = 0;
    greeted = 0;
    *out = canfs;
}
