/* The host board's CAN controller: frames to and from a CAN bus that another process
 * relays (the tests put python-can's virtual bus behind it, tests/port/canbridge.py),
 * over a TCP connection, each frame a 13-byte record: id (u32, little-endian; bit 31: a
 * 29-bit id), length (u8), 8 data bytes. */
#define _POSIX_C_SOURCE 200809L
#include "host_can.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define RECORD 13

static int bus = -1;
static uint8_t partial[RECORD];
static uint32_t held;

static int can_send(void *ctx, uint32_t id, const uint8_t *data, uint32_t len)
{
    uint8_t record[RECORD] = {0};
    uint32_t i, done = 0;
    (void)ctx;
    if (len > 8)
        return -HSX_EINVAL;
    for (i = 0; i < 4; i++)
        record[i] = (uint8_t)(id >> (8 * i));
    record[4] = (uint8_t)len;
    memcpy(record + 5, data, len);
    while (done < RECORD) {
        ssize_t n = send(bus, record + done, RECORD - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -HSX_EIO;
        done += (uint32_t)n;
    }
    return 0;
}

static int can_recv(void *ctx, uint32_t *id, uint8_t *data, uint32_t *len)
{
    ssize_t n;
    (void)ctx;
    while (held < RECORD) {
        n = recv(bus, partial + held, RECORD - held, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return -HSX_EAGAIN;
        if (n <= 0)
            return -HSX_EIO;                    /* the bus went away */
        held += (uint32_t)n;
    }
    held = 0;
    *id = (uint32_t)partial[0] | ((uint32_t)partial[1] << 8) | ((uint32_t)partial[2] << 16) |
          ((uint32_t)partial[3] << 24);
    *len = partial[4] > 8 ? 8 : partial[4];
    memcpy(data, partial + 5, *len);
    return 0;
}

static const hsx_can host_can = {0, can_send, can_recv};

int host_can_open(const char *spec, const hsx_can **can)
{
    char host[256];
    const char *colon;
    struct addrinfo hints, *found = 0;
    int one = 1;
    if (strncmp(spec, "tcp:", 4) || !(colon = strrchr(spec + 4, ':')) ||
            (size_t)(colon - spec - 4) >= sizeof host) {
        fprintf(stderr, "hsx-exec-host: --can %s: not tcp:HOST:PORT\n", spec);
        return -1;
    }
    memcpy(host, spec + 4, (size_t)(colon - spec - 4));
    host[colon - spec - 4] = 0;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, colon + 1, &hints, &found) != 0 || !found ||
            (bus = socket(found->ai_family, SOCK_STREAM, 0)) < 0 ||
            connect(bus, found->ai_addr, found->ai_addrlen) != 0) {
        fprintf(stderr, "hsx-exec-host: --can %s: %s\n", spec, strerror(errno));
        if (found)
            freeaddrinfo(found);
        return -1;
    }
    freeaddrinfo(found);
    setsockopt(bus, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *can = &host_can;
    return 0;
}
