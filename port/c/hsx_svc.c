/* HSX C executive: the SVC table of docs/syscalls.md.
 *
 * Modules 0x00 (core), 0x01 (exit, UART), 0x02 (CAN via hsx_can), 0x04 (files via
 * hsx_fs; stdio fds 0..2 always), 0x06 (executive) and 0x0E (developer math) are here;
 * 0x05 is in hsx_mailbox.c, 0x07/0x08 in hsx_values.c. Guest pointers are checked as
 * the reference checks them: a bad one is a memory fault at the SVC, nothing changed.
 * An unknown module or function answers ENOSYS (0xFFFFFF01) and the task goes on.
 */
#include "hsx_kernel.h"
#include "hsx_f16.h"

#define NEG(e) ((uint32_t)0 - (uint32_t)(e))

/* ---- guest memory ----------------------------------------------------------------------- */

static int fault_at(hsx_tcb *t, uint32_t addr, uint32_t len)
{
    t->vm.fault = HSX_FAULT_MEMORY;
    t->vm.fault_addr = addr;
    t->vm.fault_detail = len;
    return 0;
}

HSX_NOINLINE int hsx_k_guest_ok(hsx_tcb *t, uint32_t addr, uint32_t len)
{
    if (!len)
        return 1;
    if (addr < HSX_NULL_PAGE || (uint64_t)addr + len > t->vm.mem_size)
        return fault_at(t, addr, len);
    return 1;
}

int hsx_k_guest_string(hsx_tcb *t, uint32_t addr, char *out, uint32_t size)
{
    uint64_t end = (uint64_t)addr + HSX_MAX_STRING;
    uint32_t n = 0, avail;
    if (end > t->vm.mem_size)
        end = t->vm.mem_size;
    avail = end > addr ? (uint32_t)(end - addr) : 0;
    if (!hsx_k_guest_ok(t, addr, avail ? avail : 1))
        return -1;
    while (n < avail && t->vm.mem[addr + n]) {
        if (n + 1 < size)
            out[n] = (char)t->vm.mem[addr + n];
        n++;
    }
    if (n + 1 > size)           /* longer than the caller's buffer: cut there */
        n = size - 1;
    out[n] = 0;
    return (int)n;
}

/* ---- 0x00 core, 0x01 task ------------------------------------------------------------- */

static int svc_core(hsx_tcb *t, uint32_t fn)
{
    hsx_k_set_reg(t, 0, fn == 0 ? (uint32_t)t->vm.steps : HSX_ERR_ENOSYS);
    return HSX_SVC_DONE;
}

static int svc_task(hsx_tcb *t, uint32_t fn, const uint32_t *r)
{
    if (fn == 0) {                                  /* EXIT */
        t->exit_status = (int32_t)r[0];
        return HSX_SVC_EXIT;
    }
    if (fn == 1) {                                  /* UART_WRITE: the task's stdout */
        uint32_t addr = r[1], len = r[2] & 0xFFFFu;
        if (!hsx_k_guest_ok(t, addr, len))
            return HSX_SVC_FAULT;
        hsx_k_stdio_write(t, 1, addr, len);
        hsx_k_set_reg(t, 0, len);
        return HSX_SVC_DONE;
    }
    hsx_k_set_reg(t, 0, HSX_ERR_ENOSYS);
    return HSX_SVC_DONE;
}

/* ---- 0x02 CAN ------------------------------------------------------------------------------ */

#define CAN_EXTENDED 0x80000000u

static int svc_can(hsx_tcb *t, uint32_t fn, const uint32_t *r)
{
    const hsx_can *can = hsx_k_hal->can;
    uint32_t r1 = r[1];
    if (!can || fn > 1) {
        hsx_k_set_reg(t, 0, HSX_ERR_ENOSYS);
        return HSX_SVC_DONE;
    }
    if (fn == 0) {                                  /* TX */
        uint32_t addr = r[2], len = r[3];
        uint32_t id = r1 & CAN_EXTENDED ? r1 & (CAN_EXTENDED | 0x1FFFFFFFu) : r1 & 0x7FFu;
        int sent;
        if (len > 8) {
            hsx_k_set_reg(t, 0, NEG(HSX_EINVAL));
            return HSX_SVC_DONE;
        }
        if (!hsx_k_guest_ok(t, addr, len))
            return HSX_SVC_FAULT;
        sent = can->send(can->ctx, id, t->vm.mem + addr, len);
        hsx_k_set_reg(t, 0, sent < 0 ? (uint32_t)sent : 0u);
    } else {                                        /* RX */
        uint8_t data[8];
        uint32_t id = 0, len = 0;
        if (!hsx_k_guest_ok(t, r1, 8))
            return HSX_SVC_FAULT;
        if (can->recv(can->ctx, &id, data, &len) < 0) {
            hsx_k_set_reg(t, 0, HSX_MBX_NO_DATA);   /* no frame waiting */
        } else {
            if (len > 8)
                len = 8;
            hsx_k_copy(t->vm.mem + r1, data, len);
            hsx_k_set_r0_r1(t, 0, id);
            hsx_k_set_reg(t, 2, len);
        }
    }
    return HSX_SVC_DONE;
}

/* ---- 0x04 files and stdio -------------------------------------------------------------------- */

/* Open files of all tasks: the guest's fd (per task, from 3, never reused) and the
 * file system's own id. */
static struct open_file { uint32_t pid, fd; int id; } files[HSX_MAX_FILES];

static struct open_file *file_of(uint32_t pid, uint32_t fd)
{
    int i;
    for (i = 0; i < HSX_MAX_FILES; i++)
        if (files[i].pid == pid && files[i].fd == fd)
            return &files[i];
    return 0;
}

void hsx_k_fs_release(uint32_t pid)
{
    const hsx_fs *fs = hsx_k_hal ? hsx_k_hal->fs : 0;
    int i;
    for (i = 0; i < HSX_MAX_FILES; i++)
        if (files[i].pid == pid) {
            if (fs)
                fs->close(fs->ctx, files[i].id);
            files[i].pid = 0;
        }
}

static int32_t fs_open(hsx_tcb *t, const char *path, uint32_t flags)
{
    const hsx_fs *fs = hsx_k_hal->fs;
    struct open_file *slot = 0;
    int i, open_now = 0, id;
    for (i = 0; i < HSX_MAX_FILES; i++) {
        if (files[i].pid == t->pid)
            open_now++;
        else if (!files[i].pid && !slot)
            slot = &files[i];
    }
    if (!slot || open_now >= HSX_MAX_HANDLES)
        return -HSX_EMFILE;
    id = fs->open(fs->ctx, path, flags);
    if (id < 0)
        return id;
    slot->pid = t->pid;
    slot->fd = t->next_fd++;
    slot->id = id;
    return (int32_t)slot->fd;
}

HSX_COLD_FUNCTION static int svc_fs(hsx_tcb *t, uint32_t fn, const uint32_t *args)
{
    const hsx_fs *fs = hsx_k_hal->fs;
    uint32_t r1 = args[1], r2 = args[2], r3 = args[3];
    uint32_t len = r3 < HSX_MAX_IO ? r3 : HSX_MAX_IO;
    struct open_file *f = r1 > 2 ? file_of(t->pid, r1) : 0;
    char path[HSX_MAX_STRING + 1], other[HSX_MAX_STRING + 1];
    int32_t r;
    if (fn == 1 || fn == 2) {                       /* READ, WRITE */
        if (!hsx_k_guest_ok(t, r2, len))
            return HSX_SVC_FAULT;
        if (fn == 2 && (r1 == 1 || r1 == 2)) {
            hsx_k_stdio_write(t, r1, r2, len);
            r = (int32_t)len;
        } else if (fn == 1 && r1 == 0) {
            return hsx_k_stdio_read(t, r2, len);
        } else if (r1 <= 2) {
            r = -HSX_EBADF;
        } else if (!fs) {
            r = -HSX_ENOSYS;
        } else if (!f) {
            r = -HSX_EBADF;
        } else if (fn == 1) {
            r = fs->read(fs->ctx, f->id, t->vm.mem + r2, len);
        } else {
            r = fs->write(fs->ctx, f->id, t->vm.mem + r2, len);
        }
        hsx_k_set_reg(t, 0, (uint32_t)r);
        return HSX_SVC_DONE;
    }
    if (fn == 3 && r1 <= 2) {                       /* CLOSE of stdio: nothing to do */
        hsx_k_set_reg(t, 0, 0);
        return HSX_SVC_DONE;
    }
    if (fn == 4 && r1 <= 2) {                       /* SEEK on stdio */
        hsx_k_set_reg(t, 0, NEG(HSX_ESPIPE));
        return HSX_SVC_DONE;
    }
    if (!fs || (fn > 4 && (fn < 0x0A || fn > 0x0D))) {
        hsx_k_set_reg(t, 0, HSX_ERR_ENOSYS);
        return HSX_SVC_DONE;
    }
    switch (fn) {
    case 3:                                         /* CLOSE */
        r = f ? 0 : -HSX_EBADF;
        if (f) {
            fs->close(fs->ctx, f->id);
            f->pid = 0;
        }
        break;
    case 4:                                         /* SEEK */
        r = f ? fs->seek(fs->ctx, f->id, (int32_t)r2, r3) : -HSX_EBADF;
        break;
    case 0x0A:                                      /* LISTDIR */
        if (hsx_k_guest_string(t, r1, path, sizeof path) < 0 || !hsx_k_guest_ok(t, r2, len))
            return HSX_SVC_FAULT;
        r = fs->listdir(fs->ctx, path, (char *)t->vm.mem + r2, len);
        break;
    default:                                        /* OPEN, DELETE, RENAME, MKDIR */
        if (hsx_k_guest_string(t, r1, path, sizeof path) < 0)
            return HSX_SVC_FAULT;
        if (fn == 0)
            r = fs_open(t, path, r2);
        else if (fn == 0x0B)
            r = fs->remove(fs->ctx, path);
        else if (fn == 0x0D)
            r = fs->mkdir(fs->ctx, path);
        else if (hsx_k_guest_string(t, r2, other, sizeof other) < 0)
            return HSX_SVC_FAULT;
        else
            r = fs->rename(fs->ctx, path, other);
        break;
    }
    hsx_k_set_reg(t, 0, (uint32_t)r);
    return HSX_SVC_DONE;
}

/* ---- 0x06 executive ------------------------------------------------------------------------------ */

static int svc_exec(hsx_tcb *t, uint32_t fn, const uint32_t *r)
{
    uint32_t r1 = r[1];
    hsx_tcb *other;
    char path[HSX_MAX_STRING + 1];
    switch (fn) {
    case 0:                                         /* SLEEP_MS */
        t->wait_ms = r[0];
        hsx_k_set_reg(t, 0, 0);
        if (!t->wait_ms)
            return HSX_SVC_DONE;
        return HSX_SVC_SLEEP;
    case 1:                                         /* YIELD */
        hsx_k_set_reg(t, 0, 0);
        return HSX_SVC_YIELD;
    case 2: hsx_k_set_reg(t, 0, t->pid); break;     /* GETPID */
    case 3:                                         /* EXIT */
        t->exit_status = (int32_t)r[0];
        return HSX_SVC_EXIT;
    case 4:                                         /* SPAWN */
        if (hsx_k_guest_string(t, r1, path, sizeof path) < 0)
            return HSX_SVC_FAULT;
        hsx_k_set_reg(t, 0, (uint32_t)hsx_k_spawn(t, path));
        break;
    case 5:                                         /* KILL */
        other = hsx_k_live(r1);
        if (!other) {
            hsx_k_set_reg(t, 0, NEG(HSX_ESRCH));
        } else if (other == t) {
            hsx_k_set_reg(t, 0, NEG(HSX_EINVAL));   /* a task ends itself with EXIT */
        } else {
            hsx_exec_kill(r1);
            hsx_k_set_reg(t, 0, 0);
        }
        break;
    case 6:                                         /* WAIT */
        other = hsx_k_task(r1);
        if (!other) {
            hsx_k_set_reg(t, 0, NEG(HSX_ESRCH));
        } else if (hsx_k_ended(other)) {
            hsx_k_set_r0_r1(t, 0, other->has_exit_status ? (uint32_t)other->exit_status : 0u);
        } else {
            hsx_k_set_reg(t, 0, NEG(HSX_EAGAIN));
        }
        break;
    case 7: hsx_k_set_reg(t, 0, hsx_k_uptime_ms()); break;   /* TIME_MS */
    case 8:                                         /* MEMINFO */
        hsx_k_set_r0_r1(t, t->heap_start, t->vm.stack_base - HSX_GUARD);
        hsx_k_set_reg(t, 2, t->vm.stack_base);
        hsx_k_set_reg(t, 3, t->vm.stack_top);
        break;
    default: hsx_k_set_reg(t, 0, HSX_ERR_ENOSYS); break;
    }
    return HSX_SVC_DONE;
}

/* ---- 0x0E developer math: f16 in R1, f16 out in R0's low half ------------------------------ */

/* In double precision, far finer than the f16 result: every f16 input rounds as Python's
 * math module's result does (a test compares all 65,536). One series serves sin, cos
 * and exp (as cosh + sinh); log is Halley's iteration on exp; sqrt, Newton's. */
#define LN2 0.6931471805599453094

static double nan_value(void)
{
    union { uint64_t u; double d; } x;
    x.u = 0x7FF8000000000000ull;
    return x.d;
}

/* term + term*m/(i(i+1)) + term*m^2/(i(i+1)(i+2)(i+3)) + ...: sin (m = -r^2, term = r,
 * i = 2), cos (-r^2, 1, 1), sinh and cosh (m = +r^2). */
static double series(double m, int i, double term)
{
    double sum = term;
    for (; i < 30; i += 2) {
        term *= m / (i * (i + 1));
        sum += term;
    }
    return sum;
}

/* 2^k for k in -1022..1023, from its bits */
static double power2(int k)
{
    union { uint64_t u; double d; } p;
    p.u = (uint64_t)(k + 1023) << 52;
    return p.d;
}

static double m_exp(double x)
{
    double r;
    int k;
    if (!(x < 709.8))
        return x != x ? x : 1.0 / 0.0;
    if (x < -745.2)
        return 0.0;
    k = (int)(x / LN2 + (x < 0 ? -0.5 : 0.5));
    r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
    r = series(r * r, 1, 1.0) + series(r * r, 2, r);
    return r * power2(k / 2) * power2(k - k / 2);   /* k is -1075..1024: in two halves */
}

/* log and sqrt of a finite x > 0 (svc_devmath sorts out the rest from the f16's bits) */
static double m_log(double x)
{
    union { double d; uint64_t u; } b;
    double y;
    int i;
    b.d = x;                                /* start from the exponent (within ln 2) */
    y = ((int)(b.u >> 52 & 0x7FF) - 1023) * LN2;
    for (i = 0; i < 6; i++) {               /* Halley's iteration: cubic convergence */
        double e = m_exp(y);
        y += 2 * (x - e) / (x + e);
    }
    return y;
}

static double m_sqrt(double x)
{
    double g = x > 1 ? x : 1;
    int i;
    for (i = 0; i < 100; i++) {
        double next = 0.5 * (g + x / g);
        if (next == g)
            break;
        g = next;
    }
    return g;
}

/* sin (cos_shift 0) or cos (cos_shift 1) of a finite x: x = n * pi/2 + r with pi/2 in
 * three parts (Cody-Waite), |x| <= 65504 */
static double m_sincos(double x, int cos_shift)
{
    double q = x * 0.63661977236758134308, r, r2;
    long n = (long)(q + (q < 0 ? -0.5 : 0.5));
    r = ((x - n * 1.57079632673412561417e+00) - n * 6.07710050650619224932e-11)
        - n * 2.02226624879595063154e-21;
    n += cos_shift;
    r2 = -r * r;
    r = n & 1 ? series(r2, 1, 1.0) : series(r2, 2, r);
    return n & 2 ? -r : r;
}

static int svc_devmath(hsx_tcb *t, uint32_t fn, const uint32_t *r)
{
    /* NaN, the infinities, zeros and negatives told from the f16's bits */
    uint32_t bits = r[1] & 0xFFFFu, magnitude = bits & 0x7FFFu;
    int finite = magnitude < 0x7C00u, nan = magnitude > 0x7C00u;
    int negative = (bits & 0x8000u) && magnitude && !nan;
    double x = hsx_f16_to_double(bits), y;
    if (fn > 4) {
        hsx_k_set_reg(t, 0, HSX_ERR_ENOSYS);
        return HSX_SVC_DONE;
    }
    if (fn == 2)
        y = m_exp(x);
    else if (fn < 2)                        /* sin, cos: of inf or NaN, NaN; sin(-0.0) is -0.0 */
        y = !finite ? nan_value() : fn == 0 && !magnitude ? x : m_sincos(x, (int)fn);
    else if (nan || negative)               /* sqrt, log */
        y = nan_value();
    else if (!magnitude)
        y = fn == 3 ? x : -1.0 / 0.0;       /* sqrt(-0.0) is -0.0, log 0 is -inf */
    else if (!finite)
        y = x;                              /* of inf: inf */
    else
        y = fn == 3 ? m_sqrt(x) : m_log(x);
    hsx_k_set_reg(t, 0, (r[0] & 0xFFFF0000u) | hsx_double_to_f16(y));
    return HSX_SVC_DONE;
}

/* ---- the table ---------------------------------------------------------------------------------- */

int hsx_k_svc(hsx_tcb *t)
{
    uint32_t fn = t->vm.svc_function, r[HSX_SVC_ARGS];
    int i;
    for (i = 0; i < HSX_SVC_ARGS; i++)
        r[i] = hsx_k_reg(t, i);
    switch (t->vm.svc_module) {
    case 0x00: return svc_core(t, fn);
    case 0x01: return svc_task(t, fn, r);
    case 0x02: return svc_can(t, fn, r);
    case 0x04: return svc_fs(t, fn, r);
    case 0x05: return hsx_k_svc_mailbox(t, fn, r);
    case 0x06: return svc_exec(t, fn, r);
    case 0x07: return hsx_k_svc_values(t, fn, r);
    case 0x08: return hsx_k_svc_commands(t, fn, r);
    case 0x0E: return svc_devmath(t, fn, r);
    default:
        hsx_k_set_reg(t, 0, HSX_ERR_ENOSYS);
        return HSX_SVC_DONE;
    }
}
