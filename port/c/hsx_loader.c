/* HSX C executive: loading HXE images as tasks, and the code arena.
 *
 * An image is checked by hsx_hxe.c; a task is then provisioned as hsx.kernel does it before its first instruction: stdio
 * and its inbox, the image's .mailbox bindings, its .value and .cmd declarations.
 *
 * Code runs from the image bytes (the VM decodes at fetch): an image in flash stays
 * where it is (in_place); any other is copied into the code arena, whose chunks are
 * [code][breakpoint bitmap] and are compacted when a task's record goes. A streamed
 * load gathers the image at the arena's end and keeps only its code when it is done.
 */
#include "hsx_kernel.h"

HSX_COLD_CODE_BEGIN


static uint8_t arena[HSX_CODE_ARENA];
static uint32_t arena_used;             /* chunks are packed from 0; a stream is last */

static struct stream {
    uint32_t id, off, received;         /* its bytes at arena[off..off+received) */
    uint8_t open;
    char name[HSX_APP_NAME_MAX];
} stream;
static uint32_t next_stream;

static uint32_t bitmap_bytes(uint32_t code_len)
{
#if HSX_HAS_DEBUG
    return (code_len / 4 + 7) / 8;
#else
    (void)code_len;
    return 0;
#endif
}

/* ---- the code arena --------------------------------------------------------------------- */

void hsx_k_loader_init(void)
{
    arena_used = 0;
    stream.open = 0;
    next_stream = 1;
}

/* Where the arena's bytes end: the chunks, then an open stream's bytes. */
HSX_NOINLINE static uint32_t arena_end(void)
{
    return arena_used + (stream.open ? stream.received : 0);
}

/* Room for `size` bytes before the stream (if any): returns the offset, or -1. */
static int32_t arena_alloc(uint32_t size)
{
    uint32_t at = stream.open ? stream.off : arena_used;
    if (size > HSX_CODE_ARENA - arena_end())
        return -1;
    if (stream.open) {                  /* the stream moves up to stay last */
        hsx_k_copy(arena + at + size, arena + at, stream.received);
        stream.off += size;
    }
    arena_used += size;
    return (int32_t)at;
}

static void point_into_arena(hsx_tcb *t, int code_in_arena)
{
    if (code_in_arena)
        t->vm.code_bytes = arena + t->code_off;
#if HSX_HAS_DEBUG
    t->vm.breakpoints = arena + t->code_off + (code_in_arena ? t->vm.code_len : 0);
#endif
}

void hsx_k_arena_release(hsx_tcb *t)
{
    uint32_t off = t->code_off, size = t->code_size;
    int i;
    if (!size)
        return;
    hsx_k_copy(arena + off, arena + off + size, arena_end() - off - size);
    arena_used -= size;
    t->code_size = 0;
    if (stream.open && stream.off > off)
        stream.off -= size;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *o = &hsx_k_tasks[i];
        if (o->pid && o->code_size && o->code_off > off) {
            int in_arena = o->vm.code_bytes == arena + o->code_off;
            o->code_off -= size;
            point_into_arena(o, in_arena);
        }
    }
}

/* ---- making a task --------------------------------------------------------------------------- */

void hsx_k_app_name(const char *base, uint32_t instance, char *out)
{
    char suffix[13] = "_#";
    uint32_t len, n;
    hsx_k_strcpy(out, base, HSX_APP_NAME_MAX);
    if (!instance)
        return;
    len = 2 + hsx_k_decimal(suffix + 2, instance - 1);
    n = hsx_k_strlen(base, HSX_APP_NAME_MAX - 1);
    if (n > HSX_APP_NAME_MAX - 1 - len)
        n = HSX_APP_NAME_MAX - 1 - len;
    hsx_k_copy(out + n, suffix, len + 1);
}

static int name_taken(const char *name)
{
    char other[HSX_APP_NAME_MAX];
    int i;
    for (i = 0; i < HSX_MAX_TASKS; i++) {
        hsx_tcb *t = &hsx_k_tasks[i];
        if (!t->pid || hsx_k_ended(t))
            continue;
        hsx_k_app_name(t->base_name, t->instance, other);
        if (hsx_k_streq(other, name))
            return 1;
    }
    return 0;
}

/* The first instance of base whose name no live task has (one only: app_exists). */
static hsx_status instance_of(const char *base, int allow_multiple, uint16_t *instance)
{
    char name[HSX_APP_NAME_MAX];
    uint16_t k;
    for (k = 0;; k++) {
        hsx_k_app_name(base, k, name);
        if (!name_taken(name)) {
            *instance = k;
            return HSX_OK;
        }
        if (!allow_multiple) {
            hsx_k_set_detail(name);
            return HSX_ERR_APP_EXISTS;
        }
    }
}

struct bind_ctx { hsx_tcb *t; int failed; };

static int bind_spec(void *ctx, const hsx_mbx_spec *spec)
{
    struct bind_ctx *b = (struct bind_ctx *)ctx;
    uint32_t descriptor;
    int status = spec->target_too_long ? HSX_MBX_INVALID_ARGUMENT
        : hsx_k_mbx_bind(b->t->pid, spec->target, hsx_k_strlen(spec->target, 64),
                         spec->capacity, spec->mode, &descriptor);
    if (status != HSX_MBX_OK) {
        b->failed = 1;
        hsx_k_set_detail(spec->target);
    }
    return b->failed;
}

/* Stdio, the inbox, the image's mailboxes, values and commands (Kernel._provision). */
static hsx_status provision(hsx_tcb *t, const hsx_image *im)
{
    hsx_status s;
    if (hsx_k_mbx_create_task(t) != HSX_MBX_OK)
        return HSX_ERR_MAILBOX_LIMIT;
    if (im->has_mailboxes) {
        struct bind_ctx b = { t, 0 };
        hsx_k_hxe_mailboxes(im->data + im->mailboxes.off, im->mailboxes.size, im->mailboxes.count,
                       bind_spec, &b);
        if (b.failed)
            return HSX_ERR_METADATA_MAILBOX;
    }
    if (im->has_values && (s = hsx_k_values_from_image(t, im->data + im->values.off,
                                                       im->values.size, im->values.count)) != HSX_OK)
        return s;
    if (im->has_commands && (s = hsx_k_commands_from_image(t, im->data + im->commands.off,
                                                           im->commands.size, im->commands.count)) != HSX_OK)
        return s;
    return HSX_OK;
}

/* Where the loaded code comes from: the caller's buffer (copied, or run in place), or
 * the open stream (its bytes are in the arena; the code is moved down over them). */
enum { FROM_BUFFER, IN_PLACE, FROM_STREAM };

static hsx_status load(const uint8_t *data, uint32_t len, int source, const char *name,
                       int paused, uint32_t *pid)
{
    hsx_image im;
    hsx_tcb *t;
    hsx_status s;
    char base[HSX_APP_NAME_MAX];
    const char *e;
    uint32_t live = 0, code_len, chunk, i;
    uint16_t instance;
    int32_t at;
    hsx_k_fill(&im, 0, sizeof im);
    im.data = data;
    im.len = len;
    if ((e = hsx_k_hxe_check(&im)) != 0) {
        hsx_k_set_detail(e);
        return HSX_ERR_BAD_IMAGE;
    }
    for (i = 0; i < HSX_MAX_TASKS; i++)
        if (hsx_k_tasks[i].pid && !hsx_k_ended(&hsx_k_tasks[i]))
            live++;
    if (live >= HSX_MAX_TASKS)
        return HSX_ERR_TOO_MANY_TASKS;
    /* the name: the caller's, the image's, or task_<the pid it will get> */
    hsx_k_strcpy(base, name && *name ? name : im.h.name, sizeof base);
    if (!*base) {
        hsx_k_strcpy(base, "task_", sizeof base);
        hsx_k_decimal(base + 5, hsx_k_next_pid());
    }
    if ((s = instance_of(base, im.h.version == 1 || (im.h.flags & 2u), &instance)) != HSX_OK)
        return s;
    code_len = im.h.code_len;
    chunk = (source == IN_PLACE ? 0 : code_len) + bitmap_bytes(code_len);
    t = hsx_k_new_task(&im.h, &s);
    if (!t)
        return s;
    if (source != FROM_STREAM && chunk > HSX_CODE_ARENA - arena_end()) {
        hsx_k_discard_task(t);
        return HSX_ERR_IMAGE_TOO_LARGE;
    }
    t->allow_multiple = im.h.version == 1 || (im.h.flags & 2u);
    t->instance = instance;
    hsx_k_strcpy(t->base_name, base, HSX_APP_NAME_MAX);
    if (source == FROM_STREAM) {        /* a record evicted above may have moved it */
        data = arena + stream.off;
        im.data = data;
    }
    hsx_k_copy(t->vm.mem + HSX_RODATA_BASE, data + im.h.size + code_len, im.h.ro_len);
    t->vm.code_len = code_len;
    t->vm.pc = im.h.entry;
    t->vm.code_bytes = data + im.h.size;
    if ((s = provision(t, &im)) != HSX_OK) {
        hsx_k_discard_task(t);
        return s;
    }
    /* the code's place for good */
    if (source == FROM_STREAM) {
        if (chunk > stream.received && chunk - stream.received > HSX_CODE_ARENA - arena_end()) {
            hsx_k_discard_task(t);
            return HSX_ERR_IMAGE_TOO_LARGE;
        }
        hsx_k_copy(arena + stream.off, arena + stream.off + im.h.size, code_len);
        t->code_off = stream.off;
        arena_used = stream.off;        /* the stream's bytes are given up ... */
        stream.open = 0;
        arena_used += chunk;            /* ... but for the chunk */
    } else if (chunk) {
        at = arena_alloc(chunk);
        t->code_off = (uint32_t)at;
        if (source == FROM_BUFFER)
            hsx_k_copy(arena + at, data + im.h.size, code_len);
    }
    t->code_size = chunk;
    if (chunk) {
        point_into_arena(t, source != IN_PLACE);
        hsx_k_fill(arena + t->code_off + (source == IN_PLACE ? 0 : code_len), 0,
                   bitmap_bytes(code_len));
    }
#if HSX_HAS_DEBUG
    hsx_k_debug_attach(t);
#endif
    hsx_k_start_task(t);
    if (paused)
        hsx_exec_pause(t->pid);
    if (pid)
        *pid = t->pid;
    return HSX_OK;
}

hsx_status hsx_exec_load(const uint8_t *data, uint32_t len, int in_place, const char *name,
                         int paused, uint32_t *pid)
{
    if (!data)
        return HSX_ERR_BAD_ARGUMENT;
    return load(data, len, in_place ? IN_PLACE : FROM_BUFFER, name, paused, pid);
}

/* ---- streamed loads ---------------------------------------------------------------------------- */

hsx_status hsx_exec_load_begin(const char *name, uint32_t *id)
{
    if (stream.open)
        return HSX_ERR_TOO_MANY_STREAMS;
    stream.open = 1;
    stream.id = next_stream++;
    stream.off = arena_used;
    stream.received = 0;
    hsx_k_strcpy(stream.name, name, sizeof stream.name);
    *id = stream.id;
    return HSX_OK;
}

static hsx_status drop_stream(hsx_status why)
{
    stream.open = 0;
    return why;
}

hsx_status hsx_exec_load_write(uint32_t id, const uint8_t *data, uint32_t len, uint32_t *received)
{
    hsx_hxe_header h;
    uint32_t before;
    const char *e;
    if (!stream.open || stream.id != id)
        return HSX_ERR_UNKNOWN_STREAM;
    if (len > HSX_CODE_ARENA - arena_end())
        return drop_stream(HSX_ERR_IMAGE_TOO_LARGE);
    before = stream.received;
    hsx_k_copy(arena + stream.off + stream.received, data, len);
    stream.received += len;
    if (received)
        *received = stream.received;
    /* the header is checked once it is complete (6 bytes tell its size) */
    if (stream.received >= 6) {
        const uint8_t *p = arena + stream.off;
        uint32_t need = (p[4] == 0 && p[5] == 2) ? HSX_HXE_HEADER_V2 : HSX_HXE_HEADER_V1;
        if (stream.received >= need && before < need && (e = hsx_k_hxe_header(p, need, &h)) != 0) {
            hsx_k_set_detail(e);
            return drop_stream(HSX_ERR_BAD_IMAGE);
        }
    }
    return HSX_OK;
}

hsx_status hsx_exec_load_end(uint32_t id, int paused, uint32_t *pid)
{
    hsx_hxe_header h;
    hsx_status s;
    const uint8_t *p = arena + stream.off;
    if (!stream.open || stream.id != id)
        return HSX_ERR_UNKNOWN_STREAM;
    if (stream.received >= 6) {
        uint32_t need = (p[4] == 0 && p[5] == 2) ? HSX_HXE_HEADER_V2 : HSX_HXE_HEADER_V1;
        if (stream.received >= need && !hsx_k_hxe_header(p, need, &h)
                && stream.received < hsx_k_hxe_size_hint(&h)) {
            hsx_k_set_detail("truncated");
            return drop_stream(HSX_ERR_BAD_IMAGE);
        }
    }
    s = load(p, stream.received, FROM_STREAM, stream.name, paused, pid);
    if (s != HSX_OK)
        stream.open = 0;
    return s;
}

hsx_status hsx_exec_load_abort(uint32_t id)
{
    if (!stream.open || stream.id != id)
        return HSX_ERR_UNKNOWN_STREAM;
    stream.open = 0;
    return HSX_OK;
}

/* ---- EXEC SPAWN: an image from the file system ------------------------------------------------ */

int32_t hsx_k_spawn(hsx_tcb *parent, const char *path)
{
    const hsx_fs *fs = hsx_k_hal->fs;
    uint32_t id, pid = 0;
    int file, n = 1;
    hsx_status s;
    if (!fs)
        return -HSX_ENOSYS;
    file = fs->open(fs->ctx, path, 0x01);           /* RDONLY */
    if (file == -HSX_EINVAL)
        return -HSX_EINVAL;
    if (file >= 0 && hsx_exec_load_begin(0, &id) == HSX_OK) {
        while (n > 0 && stream.open) {
            uint32_t room = HSX_CODE_ARENA - arena_end();
            if (!room) {
                drop_stream(HSX_ERR_IMAGE_TOO_LARGE);
                break;
            }
            n = fs->read(fs->ctx, file, arena + stream.off + stream.received, room);
            if (n > 0)
                stream.received += (uint32_t)n;
        }
        if (stream.open && n == 0) {
            /* the image's app name, else the file's name without directories and
             * suffix (path.stem), as Kernel.load names it */
            const char *stem = path, *c;
            hsx_hxe_header h;
            uint32_t len;
            for (c = path; *c; c++)
                if (*c == '/')
                    stem = c + 1;
            len = hsx_k_strlen(stem, 255);
            for (c = stem + len; c > stem && *c != '.'; c--)
                ;
            if (c > stem)
                len = (uint32_t)(c - stem);
            if (hsx_k_hxe_header(arena + stream.off, stream.received, &h) || !h.name[0])
                hsx_k_strcpy(stream.name, stem, len + 1 < sizeof stream.name ? len + 1
                                                                             : sizeof stream.name);
            s = hsx_exec_load_end(id, 0, &pid);
            fs->close(fs->ctx, file);
            if (s == HSX_OK)
                return (int32_t)pid;
        } else {
            stream.open = 0;
            fs->close(fs->ctx, file);
        }
    } else if (file >= 0) {
        fs->close(fs->ctx, file);
    }
    {
        hsx_event ev;
        static const char text[] = "spawn: the image cannot be loaded";
        hsx_k_event(&ev, HSX_EV_DMESG, parent->pid);
        ev.what = "warning";
        ev.data = (const uint8_t *)text;
        ev.len = sizeof text - 1;
        hsx_k_emit(&ev);
    }
    return -HSX_ENOEXEC;
}

HSX_COLD_CODE_END
