/* hsx-exec-host: the C executive as a native program (docs/port.md, "The host build").
 *
 *   hsx-exec-host --run A.hxe [B.hxe ...] [--root DIR | --fat IMAGE] [--persist FILE]
 *                 [--can tcp:HOST:PORT [--can-fs]] [--max-steps N]
 *   hsx-exec-host --listen tcp:HOST:PORT | --stdio | --pty  [--root DIR | --fat IMAGE] ...
 *
 * The first runs the images as tasks to the end, as `hsx run` does: their stdout and
 * stderr go to this process's, stdin is fed to the tasks that read it, faults and stuck tasks are
 * reported on stderr, and the exit code is the first task's exit status & 0xFF (70
 * when it faults or the tasks are stuck, 124 when --max-steps runs out, 2 when an
 * image cannot be loaded). The second serves the framed protocol (docs/wire.md) until
 * SIGINT or SIGTERM (link.c). The variant is chosen when it is built.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host_hal.h"
#include "host_link.h"
#include "hsx_exec.h"
#include "hsx_vm.h"

#define EXIT_LOAD 2
#define EXIT_GUEST 70
#define EXIT_MAX_STEPS 124
#define BATCH 20000u
#define MAX_IMAGES 64

static uint32_t first_pid;
static int first_trapped, stdin_ended;
static uint8_t *images[MAX_IMAGES];

static void usage(void)
{
    fprintf(stderr,
            "usage: hsx-exec-host --run IMAGE.hxe... [--root DIR | --fat IMAGE] [--persist FILE]\n"
            "                     [--flash-size BYTES] [--flash-page BYTES] [--max-steps N]\n"
            "       hsx-exec-host --listen tcp:HOST:PORT | --stdio | --pty [--root DIR] ...\n"
            "variant: " HSX_VARIANT_NAME "\n");
}

static void write_all(int fd, const uint8_t *data, uint32_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            return;
        }
        data += n;
        len -= (uint32_t)n;
    }
}

static const char *app_of(uint32_t pid)
{
    static hsx_task_info info;
    return hsx_exec_task(pid, &info) == HSX_OK ? info.app_name : "?";
}

/* A fault in the words of hsx.vm's Fault.describe() ("memory at pc 0x0010 (addr
 * 0x00000004): ..."), from the kind and numbers of the executive's FAULT event. */
static void describe_fault(const hsx_event *ev, char *out, size_t size)
{
    hsx_task_info t;
    unsigned long long addr = (unsigned long long)ev->addr;
    uint32_t detail = ev->a;
    int n;
    if (hsx_exec_task(ev->pid, &t) != HSX_OK)
        memset(&t, 0, sizeof t);
    n = snprintf(out, size, "%s at pc 0x%04X", ev->what, (unsigned)ev->pc);
    if (ev->addr >= 0)
        n += snprintf(out + n, size - (size_t)n, " (addr 0x%08llX)", addr);
    n += snprintf(out + n, size - (size_t)n, ": ");
    switch (ev->b) {
    case HSX_FAULT_MEMORY:
        if (ev->addr < 0x100)
            snprintf(out + n, size - (size_t)n, "%u-byte access at 0x%08llX hits the null page "
                     "(0x0000-0x00FF)", (unsigned)detail, addr);
        else
            snprintf(out + n, size - (size_t)n, "%u-byte access at 0x%08llX is outside data "
                     "memory (0x0100-0x%X)", (unsigned)detail, addr, (unsigned)t.mem_size - 1);
        break;
    case HSX_FAULT_STACK:
        if (ev->addr < (int64_t)t.stack_base)
            snprintf(out + n, size - (size_t)n, "stack overflow: 0x%08llX is below the stack base "
                     "0x%08X", addr, (unsigned)t.stack_base);
        else
            snprintf(out + n, size - (size_t)n, "stack underflow: 0x%08llX is above the stack "
                     "top 0x%08X", addr, (unsigned)t.stack_top);
        break;
    case HSX_FAULT_SP:
        snprintf(out + n, size - (size_t)n, "R15 (SP) = 0x%08llX would leave the stack "
                 "0x%08X..0x%08X", addr, (unsigned)t.stack_base, (unsigned)t.stack_top);
        break;
    case HSX_FAULT_PC:
        if (addr & 3)
            snprintf(out + n, size - (size_t)n, "control transfer to 0x%08llX is not 4-byte "
                     "aligned", addr);
        else
            snprintf(out + n, size - (size_t)n, "control transfer to 0x%08llX is outside code "
                     "(0..0x%X)", addr, (unsigned)t.code_len);
        break;
    case HSX_FAULT_DIVIDE: snprintf(out + n, size - (size_t)n, "division by zero"); break;
    case HSX_FAULT_ILLEGAL:
        snprintf(out + n, size - (size_t)n, "illegal instruction word 0x%08X (opcode 0x%02X)",
                 (unsigned)detail, (unsigned)(detail >> 24));
        break;
    case HSX_FAULT_LITERAL:
        snprintf(out + n, size - (size_t)n, "LDI32 literal at 0x%llX is past the end of code "
                 "(0x%X)", addr, (unsigned)t.code_len);
        break;
    default:
        snprintf(out + n, size - (size_t)n, "execution ran off the end of the code at 0x%X",
                 (unsigned)t.code_len);
        break;
    }
}

/* Task output as it is written; faults and traps reported as `hsx run` reports them. */
static void on_event(const hsx_event *ev)
{
    char text[192];
    switch (ev->type) {
    case HSX_EV_STDOUT: write_all(1, ev->data, ev->len); break;
    case HSX_EV_STDERR: write_all(2, ev->data, ev->len); break;
    case HSX_EV_FAULT:
        describe_fault(ev, text, sizeof text);
        fprintf(stderr, "hsx: fault: %s (pid %u): %s\n", app_of(ev->pid), (unsigned)ev->pid, text);
        break;
    case HSX_EV_DEBUG_BREAK:
        if (ev->what && !strcmp(ev->what, "brk")) {
            fprintf(stderr, "hsx: %s (pid %u): BRK %u at pc 0x%04X with no debugger attached\n"
                            "  debug it with `hsx dbg` to stop there\n",
                    app_of(ev->pid), (unsigned)ev->pid, (unsigned)ev->a, (unsigned)ev->pc);
            if (ev->pid == first_pid)
                first_trapped = 1;
            hsx_exec_kill(ev->pid);
        }
        break;
    default: break;
    }
}

static uint8_t *read_file(const char *path, uint32_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = 0;
    long size;
    if (!f)
        return 0;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc(size ? (size_t)size : 1);
        if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
            free(data);
            data = 0;
        }
        *len = (uint32_t)size;
    }
    fclose(f);
    return data;
}

static const char *why(hsx_status s)
{
    static char text[96];
    switch (s) {
    case HSX_ERR_BAD_IMAGE:
        snprintf(text, sizeof text, "not a valid HXE image (%s)", hsx_exec_last_detail());
        return text;
    case HSX_ERR_TOO_MANY_TASKS: return "too_many_tasks: the task limit is reached";
    case HSX_ERR_LAYOUT: return "layout: the image does not fit the task's memory";
    case HSX_ERR_IMAGE_TOO_LARGE: return "image_too_large: no room in the code arena";
    case HSX_ERR_APP_EXISTS:
        snprintf(text, sizeof text, "app_exists:%s", hsx_exec_last_detail());
        return text;
    default:
        snprintf(text, sizeof text, "cannot load it (status %d, %s)", (int)s, hsx_exec_last_detail());
        return text;
    }
}

/* The file's name without directories and suffix (Path.stem). */
static void stem(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/'), *dot;
    size_t n;
    base = base ? base + 1 : path;
    dot = strrchr(base, '.');
    n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (n >= size)
        n = size - 1;
    memcpy(out, base, n);
    out[n] = 0;
}

/* Whether the image names its app (a v2 header with a name that is not all spaces). */
static int image_named(const uint8_t *data, uint32_t len)
{
    uint32_t i;
    if (len < 96 || data[4] != 0 || data[5] != 2)
        return 0;
    for (i = 0x20; i < 0x40 && data[i]; i++)
        if (data[i] != ' ')
            return 1;
    return 0;
}

static int live_tasks(void)
{
    hsx_task_info info;
    uint32_t cursor = 0;
    int n = 0;
    while (hsx_exec_next_task(&cursor, &info))
        if (info.state != HSX_STATE_RETURNED && info.state != HSX_STATE_FAULTED
                && info.state != HSX_STATE_KILLED)
            n++;
    return n;
}

/* The first live task blocked in a stdin read, or 0. */
static uint32_t stdin_reader(void)
{
    hsx_task_info info;
    uint32_t cursor = 0;
    while (hsx_exec_next_task(&cursor, &info))
        if (info.state == HSX_STATE_WAITING_MBX && info.wait_kind
                && !strcmp(info.wait_kind, "mailbox") && info.wait_handle == 1)
            return info.pid;
    return 0;
}

/* Wait up to `ms` for stdin when a task reads it, feeding what arrives; else sleep. */
static void wait_for(uint32_t ms)
{
    uint32_t reader = stdin_ended ? 0 : stdin_reader();
    if (reader) {
        struct pollfd p = { 0, POLLIN, 0 };
        if (poll(&p, 1, ms > 100 ? 100 : (int)ms) > 0) {
            uint8_t buf[4096];
            ssize_t n = read(0, buf, sizeof buf);
            uint32_t written;
            if (n <= 0)
                stdin_ended = 1;
            else
                hsx_exec_stdin(reader, buf, (uint32_t)n, 0, &written);
        }
    } else if (ms) {
        struct timespec ts = { 0, (long)(ms > 100 ? 100 : ms) * 1000000L };
        nanosleep(&ts, 0);
    }
}

/* Once stdin has ended every read gets the end of input: give it to the readers
 * waiting now; 1 when there were any. */
static int end_of_input(void)
{
    uint32_t reader, written;
    int any = 0;
    while ((reader = stdin_reader()) != 0 && hsx_exec_stdin(reader, 0, 0, 1, &written) == HSX_OK
           && stdin_reader() != reader)
        any = 1;
    return any;
}

static void report_stuck(void)
{
    hsx_task_info info;
    uint32_t cursor = 0;
    fprintf(stderr, "hsx: no task can go on (deadlock)\n");
    while (hsx_exec_next_task(&cursor, &info)) {
        if (info.state == HSX_STATE_RETURNED || info.state == HSX_STATE_FAULTED
                || info.state == HSX_STATE_KILLED)
            continue;
        fprintf(stderr, "  %s (pid %u) ", info.app_name, (unsigned)info.pid);
        if (info.state == HSX_STATE_PAUSED)
            fprintf(stderr, "is paused\n");
        else if (info.wait_kind && !strcmp(info.wait_kind, "mailbox") && info.wait_handle == 1)
            fprintf(stderr, "waits for input on stdin (which has ended)\n");
        else if (info.wait_kind && !strcmp(info.wait_kind, "mailbox"))
            fprintf(stderr, "waits to receive from mailbox handle %u, which nobody sends to\n",
                    (unsigned)info.wait_handle);
        else if (info.wait_kind && !strcmp(info.wait_kind, "mailbox_send"))
            fprintf(stderr, "waits to send to mailbox handle %u, which is full and nobody reads\n",
                    (unsigned)info.wait_handle);
        else
            fprintf(stderr, "is %s\n", hsx_state_name(info.state));
    }
}

static int run(char **files, int count, uint64_t max_steps)
{
    uint64_t executed = 0;
    hsx_task_info first;
    int i;
    for (i = 0; i < count; i++) {
        uint32_t len = 0, pid;
        char name[HSX_APP_NAME_MAX];
        hsx_status s;
        uint8_t *data = read_file(files[i], &len);
        if (!data) {
            fprintf(stderr, "hsx: %s: %s\n", files[i], strerror(errno));
            return EXIT_LOAD;
        }
        images[i] = data;
        stem(files[i], name, sizeof name);
        s = hsx_exec_load(data, len, 0, image_named(data, len) ? 0 : name, 0, &pid);
        if (s != HSX_OK) {
            fprintf(stderr, "hsx: %s: %s\n", files[i], why(s));
            return EXIT_LOAD;
        }
        if (!i)
            first_pid = pid;
    }
    while (live_tasks()) {
        uint32_t next = 0, budget = BATCH;
        if (max_steps) {
            if (executed >= max_steps) {
                fprintf(stderr, "hsx: --max-steps: stopped after %llu instructions\n"
                                "  raise --max-steps, or leave it out to run until the tasks end\n",
                        (unsigned long long)executed);
                return EXIT_MAX_STEPS;
            }
            if (max_steps - executed < budget)
                budget = (uint32_t)(max_steps - executed);
        }
        executed += hsx_exec_run(budget, &next);
        if (!next || !live_tasks() || (stdin_ended && end_of_input()))
            continue;
        if (next == UINT32_MAX && (stdin_ended || !stdin_reader())) {
            report_stuck();
            return EXIT_GUEST;
        }
        wait_for(next);
    }
    hsx_exec_task(first_pid, &first);
    if (first.state == HSX_STATE_FAULTED || first_trapped)
        return EXIT_GUEST;
    return first.has_exit_status ? (int)((uint32_t)first.exit_status & 0xFFu) : 0;
}

int main(int argc, char **argv)
{
    static hsx_hal hal;
    host_options options = { 0, 0, 0, 0, 0, 16384, 1024 };
    char **files = 0;
    const char *link = 0;
    uint64_t max_steps = 0;
    int i, count = 0, status;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : 0;
        if (!strcmp(a, "--run")) {
            files = argv + i + 1;
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) {
                i++;
                count++;
            }
        } else if (value && !strcmp(a, "--root")) {
            options.root = value;
            i++;
        } else if (value && !strcmp(a, "--fat")) {
            options.fat = value;
            i++;
        } else if (value && !strcmp(a, "--can")) {
            options.can = value;
            i++;
        } else if (!strcmp(a, "--can-fs")) {
            options.can_fs = 1;
        } else if (value && !strcmp(a, "--persist")) {
            options.persist = value;
            i++;
        } else if (value && !strcmp(a, "--flash-size")) {
            options.flash_size = (uint32_t)strtoul(value, 0, 0);
            i++;
        } else if (value && !strcmp(a, "--flash-page")) {
            options.flash_page = (uint32_t)strtoul(value, 0, 0);
            i++;
        } else if (value && !strcmp(a, "--max-steps")) {
            max_steps = strtoull(value, 0, 0);
            i++;
        } else if (value && !strcmp(a, "--listen")) {
            link = value;
            i++;
        } else if (!strcmp(a, "--stdio") || !strcmp(a, "--pty")) {
            link = a + 2;
        } else if (!strcmp(a, "--variant")) {
            printf("%s\n", HSX_VARIANT_NAME);
            return 0;
        } else {
            usage();
            return EXIT_LOAD;
        }
    }
    if (link ? files != 0 : (!files || !count || count > MAX_IMAGES)) {
        usage();
        return EXIT_LOAD;
    }
    if (host_hal_init(&hal, &options) != 0)
        return EXIT_LOAD;
    if (link)
        return host_link_serve(&hal, link);
    hsx_exec_init(&hal);
    hsx_exec_set_listener(on_event);
    status = run(files, count, max_steps);
    hsx_exec_flush();                   /* pending persistent values, as hsx run's shutdown */
    return status;
}
