/* The host board's link (host_link.h): bytes between the executive and a TCP client, a
 * pipe pair (stdio) or a pty, in one thread. The main loop polls the executive, sends
 * what it wrote, and sleeps in poll(2) until bytes arrive or the executive's next
 * deadline (hsx_exec_idle_ms).
 *
 * TCP serves one host at a time: a new connection takes the link over (the old host may
 * have vanished without a word, as a serial host does). Bytes of a frame the old host
 * left half-sent are ended and dropped before the new one is served.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 600
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "host_link.h"
#include "hsx_exec.h"

#define OUT_BUFFER 65536
#define EVENT_ROOM 4096                 /* bytes of events held here, beyond the kernel's */
#define SOCKET_BUFFER 32768             /* the kernel's send buffer for a host's socket */

static int listen_fd = -1, in_fd = -1, out_fd = -1, pty_slave = -1;
static int is_socket, nonblocking;
static uint8_t out[OUT_BUFFER];
static size_t out_len;
static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
    (void)sig;
    stopping = 1;
}

static void drop_connection(void)
{
    if (is_socket && in_fd >= 0)
        close(in_fd);
    in_fd = out_fd = -1;
    out_len = 0;
}

/* Send what the executive wrote, as much as the host takes now (`wait`: all of it);
 * a host that went away is dropped. */
static void flush_out(int wait)
{
    size_t done = 0;
    while (done < out_len && out_fd >= 0) {
        ssize_t n = is_socket ? send(out_fd, out + done, out_len - done, MSG_NOSIGNAL)
                              : write(out_fd, out + done, out_len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd p = {out_fd, POLLOUT, 0};
            if (!wait)
                break;
            poll(&p, 1, 1000);
            continue;
        }
        if (n <= 0) {
            drop_connection();
            return;
        }
        done += (size_t)n;
    }
    if (out_fd < 0)
        return;
    memmove(out, out + done, out_len - done);
    out_len -= done;
}

static int link_write(void *ctx, const uint8_t *data, uint32_t len)
{
    (void)ctx;
    if (out_fd < 0)
        return 0;                       /* nobody listens: the bytes are lost, as on a wire */
    while (len) {
        size_t n = len < OUT_BUFFER - out_len ? len : OUT_BUFFER - out_len;
        memcpy(out + out_len, data, n);
        out_len += n;
        data += n;
        len -= (uint32_t)n;
        if (out_len == OUT_BUFFER)
            flush_out(1);               /* a reply waits for the host, as on a UART */
    }
    return 0;
}

/* Events go out only while the host keeps up: what is held here stays small. */
static uint32_t link_room(void *ctx)
{
    (void)ctx;
    if (!nonblocking)
        return UINT32_MAX;
    return out_len < EVENT_ROOM ? (uint32_t)(EVENT_ROOM - out_len) : 0;
}

static const hsx_link host_link = {0, link_write, link_room};

/* The old host's half frame ends here, and what the executive makes of it goes nowhere. */
static void forget_host(void)
{
    static const uint8_t delimiter = 0;
    drop_connection();
    hsx_link_received(&delimiter, 1);
    hsx_exec_poll();
    out_len = 0;
}

static int open_tcp(const char *spec)
{
    char host[256];
    const char *colon = strrchr(spec, ':');
    struct addrinfo hints, *found = 0;
    struct sockaddr_storage bound;
    socklen_t bound_len = sizeof bound;
    char shown[64], port_text[16];
    int one = 1, err;
    if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof host || !colon[1]) {
        fprintf(stderr, "hsx-exec-host: --listen tcp:HOST:PORT, not tcp:%s\n", spec);
        return -1;
    }
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = 0;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    if ((err = getaddrinfo(host, colon + 1, &hints, &found)) != 0) {
        fprintf(stderr, "hsx-exec-host: cannot listen on %s: %s\n", spec, gai_strerror(err));
        return -1;
    }
    listen_fd = socket(found->ai_family, SOCK_STREAM, 0);
    if (listen_fd < 0 || setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(listen_fd, found->ai_addr, found->ai_addrlen) < 0 || listen(listen_fd, 4) < 0) {
        fprintf(stderr, "hsx-exec-host: cannot listen on %s: %s\n", spec, strerror(errno));
        freeaddrinfo(found);
        return -1;
    }
    freeaddrinfo(found);
    getsockname(listen_fd, (struct sockaddr *)&bound, &bound_len);
    getnameinfo((struct sockaddr *)&bound, bound_len, shown, sizeof shown, port_text,
                sizeof port_text, NI_NUMERICHOST | NI_NUMERICSERV);
    printf(strchr(shown, ':') ? "socket://[%s]:%s\n" : "socket://%s:%s\n", shown, port_text);
    fflush(stdout);
    return 0;
}

static int open_pty(void)
{
    struct termios raw;
    const char *name;
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 || !(name = ptsname(master))) {
        fprintf(stderr, "hsx-exec-host: cannot open a pty: %s\n", strerror(errno));
        return -1;
    }
    /* Hold the slave open in raw mode: no echo or line editing before a host opens it,
     * and the master never reads EIO when a host closes it. */
    pty_slave = open(name, O_RDWR | O_NOCTTY);
    if (pty_slave < 0 || tcgetattr(pty_slave, &raw) < 0) {
        fprintf(stderr, "hsx-exec-host: cannot open %s: %s\n", name, strerror(errno));
        return -1;
    }
    cfmakeraw(&raw);
    tcsetattr(pty_slave, TCSANOW, &raw);
    in_fd = out_fd = master;
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    nonblocking = 1;
    printf("serial://%s\n", name);
    fflush(stdout);
    return 0;
}

static int open_link(const char *spec)
{
    if (!strncmp(spec, "tcp:", 4)) {
        is_socket = 1;
        return open_tcp(spec + 4);
    }
    if (!strcmp(spec, "pty"))
        return open_pty();
    if (!strcmp(spec, "stdio")) {
        in_fd = 0;
        out_fd = 1;
        fprintf(stderr, "hsx-exec-host: serving on stdio\n");
        return 0;
    }
    fprintf(stderr, "hsx-exec-host: unknown link '%s' (tcp:HOST:PORT, stdio or pty)\n", spec);
    return -1;
}

static void accept_host(void)
{
    int fd = accept(listen_fd, 0, 0), one = 1;
    if (fd < 0)
        return;
    int size = SOCKET_BUFFER;
    if (in_fd >= 0)
        forget_host();
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    nonblocking = 1;
    in_fd = out_fd = fd;
}

/* Wait up to `ms` for a connection or bytes; feed the bytes to the executive. */
static void wait_input(uint32_t ms)
{
    struct pollfd fds[2];
    int n = 0, timeout = ms > 1000 ? 1000 : (int)ms;
    uint8_t buffer[4096];
    if (listen_fd >= 0)
        fds[n++] = (struct pollfd){listen_fd, POLLIN, 0};
    if (in_fd >= 0)
        fds[n++] = (struct pollfd){in_fd, (short)(POLLIN | (out_len ? POLLOUT : 0)), 0};
    if (poll(fds, (nfds_t)n, timeout) <= 0)
        return;
    for (int i = 0; i < n; i++) {
        if (!(fds[i].revents & ~POLLOUT))
            continue;
        if (fds[i].fd == listen_fd) {
            accept_host();
            continue;
        }
        if (fds[i].fd != in_fd)
            continue;                   /* the host this connection replaced */
        ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
        if (got > 0)
            hsx_link_received(buffer, (uint32_t)got);
        else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
            if (!is_socket) {           /* stdin ended: the host is gone for good */
                stopping = 1;
                return;
            }
            forget_host();
        }
    }
}

int host_link_serve(hsx_hal *hal, const char *spec)
{
    struct sigaction action;
    struct timespec now;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGINT, &action, 0);
    sigaction(SIGTERM, &action, 0);
    signal(SIGPIPE, SIG_IGN);
    if (open_link(spec) < 0)
        return 2;
    clock_gettime(CLOCK_REALTIME, &now);
    hal->link = &host_link;
    hal->boot = (uint32_t)now.tv_sec * 2654435761u ^ (uint32_t)now.tv_nsec ^ (uint32_t)getpid();
    if (!hal->boot)
        hal->boot = 1;
    hsx_exec_init(hal);
    while (!stopping) {
        int more = hsx_exec_poll();
        flush_out(0);
        wait_input(more ? 0 : hsx_exec_idle_ms());
        flush_out(0);
    }
    hsx_exec_poll();                    /* answer what arrived before the end */
    flush_out(1);
    hsx_exec_flush();
    return 0;
}
