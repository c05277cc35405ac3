"""HSX's own C headers, run as tasks of an executive: the file-system wrappers of
hsx_fs.h against a sandbox, the f16 helpers of hsx_value.h against Python's binary16
packing (every f16 value, and the rounding of the floats around each one), and
hsx_val_get/hsx_val_set on a value the image declares."""
from __future__ import annotations

import math
import struct

from cckit import run_in_kernel


def _run(tmp_path, source: str, opt: int = 2) -> tuple[str, int, object]:
    from hsx.toolchain.cc.driver import Options, build_c
    path = tmp_path / "t.c"
    path.write_text(source)
    result, _ = build_c([str(path)], Options(opt=opt))
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    out, status = run_in_kernel(result.image, sandbox)
    return out.decode(), status, sandbox


FS_PROGRAM = r"""
#include <hsx_fs.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    char buf[64];
    int fd = hsx_fs_open("notes.txt", HSX_O_RDWR | HSX_O_CREAT | HSX_O_TRUNC);
    printf("open %d\n", fd >= 3);
    printf("write %d\n", hsx_fs_write(fd, "hello, sandbox", 14));
    printf("seek %d %d\n", hsx_fs_seek(fd, 7, HSX_SEEK_SET), hsx_fs_seek(fd, -2, HSX_SEEK_END));
    hsx_fs_seek(fd, 7, HSX_SEEK_SET);
    int n = hsx_fs_read(fd, buf, sizeof buf);
    printf("read %d %.*s\n", n, n, buf);
    printf("read at end %d\n", hsx_fs_read(fd, buf, sizeof buf));
    printf("close %d %d\n", hsx_fs_close(fd), hsx_fs_close(fd) == -HSX_EBADF);
    printf("missing %d\n", hsx_fs_open("nope.txt", HSX_O_RDONLY) == -HSX_ENOENT);
    printf("mkdir %d %d\n", hsx_fs_mkdir("sub"), hsx_fs_mkdir("sub") == -HSX_EEXIST);
    fd = hsx_fs_open("sub/inner.txt", HSX_O_WRONLY | HSX_O_CREAT);
    hsx_fs_write(fd, "x", 1);
    hsx_fs_close(fd);
    printf("rename %d\n", hsx_fs_rename("notes.txt", "kept.txt"));
    printf("rename onto %d\n", hsx_fs_rename("kept.txt", "sub/inner.txt") == -HSX_EEXIST);
    n = hsx_fs_listdir("/", buf, sizeof buf);
    printf("list [%.*s]\n", n, buf);
    printf("delete %d %d\n", hsx_fs_delete("sub/inner.txt"), hsx_fs_delete("sub"));
    printf("delete again %d\n", hsx_fs_delete("sub") == -HSX_ENOENT);
    printf("escape %d\n", hsx_fs_open("../outside", HSX_O_RDONLY) == -HSX_EINVAL);
    return 0;
}
"""


def test_file_system_wrappers_do_what_the_svcs_document(tmp_path):
    out, status, sandbox = _run(tmp_path, FS_PROGRAM)
    assert status == 0
    assert out.split("\n") == [
        "open 1", "write 14", "seek 7 12", "read 7 sandbox", "read at end 0", "close 0 1",
        "missing 1", "mkdir 0 1", "rename 0", "rename onto 1", "list [kept.txt", "sub/]",
        "delete 0 0", "delete again 1", "escape 1", ""]
    assert (sandbox / "kept.txt").read_text() == "hello, sandbox"
    assert not (sandbox / "sub").exists()


F16_PROGRAM = r"""
#include <hsx_fs.h>
#include <hsx_value.h>

static unsigned words[1024];
static unsigned used;
static int fd;

static void put(unsigned w) {
    words[used++] = w;
    if (used == 1024) {
        hsx_fs_write(fd, words, sizeof words);
        used = 0;
    }
}

static unsigned bits(float f) { unsigned u; __builtin_memcpy(&u, &f, 4); return u; }
static float from_bits(unsigned u) { float f; __builtin_memcpy(&f, &u, 4); return f; }

int main(void) {
    fd = hsx_fs_open("f16.bin", HSX_O_WRONLY | HSX_O_CREAT | HSX_O_TRUNC);
    for (unsigned h = 0; h < 65536; h++)            /* every f16, widened */
        put(bits(hsx_f16_to_float((unsigned short)h)));
    for (unsigned h = 0; h < 0x7C00; h++) {         /* each tie and its neighbours, narrowed */
        float mid = (hsx_f16_to_float((unsigned short)h) +
                     hsx_f16_to_float((unsigned short)(h + 1))) / 2;
        for (int d = -1; d <= 1; d++) {
            float f = from_bits(bits(mid) + d);
            put(bits(f));
            put(hsx_float_to_f16(f));
            if (h % 8 == 0) {                       /* negatives: a sample */
                put(bits(-f));
                put(hsx_float_to_f16(-f));
            }
        }
    }
    const float extra[] = { 65504.0f, 65519.99f, 65520.0f, 1e9f, 1e-9f, 0.0f,
                            __builtin_inff(), __builtin_nanf("") };
    for (unsigned i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        put(bits(extra[i]));
        put(hsx_float_to_f16(extra[i]));
    }
    hsx_fs_write(fd, words, used * 4);
    return hsx_fs_close(fd);
}
"""


def _f16_of(value: float) -> int:
    """Python's binary16 rounding (to nearest, ties to even); too large is infinity."""
    if math.isnan(value):
        return 0x7E00
    try:
        return struct.unpack("<H", struct.pack("<e", value))[0]
    except OverflowError:
        return 0xFC00 if value < 0 else 0x7C00


def test_f16_helpers_round_like_ieee_binary16(tmp_path):
    out, status, sandbox = _run(tmp_path, F16_PROGRAM)
    assert status == 0
    data = (sandbox / "f16.bin").read_bytes()
    words = struct.unpack(f"<{len(data) // 4}I", data)
    widened, rest = words[:65536], words[65536:]
    for h, got in enumerate(widened):
        value = struct.unpack("<e", struct.pack("<H", h))[0]
        if math.isnan(value):
            assert (got & 0x7F800000) == 0x7F800000 and got & 0x7FFFFF, hex(h)
        else:
            assert got == struct.unpack("<I", struct.pack("<f", value))[0], hex(h)
    pairs = list(zip(rest[0::2], rest[1::2]))
    assert len(pairs) == 0x7C00 * 3 + 0x7C00 // 8 * 3 + 8
    wrong = []
    for fbits, got in pairs:
        value = struct.unpack("<f", struct.pack("<I", fbits))[0]
        want = _f16_of(value)
        if got != want and not (math.isnan(value) and (got & 0x7C00) == 0x7C00 and got & 0x3FF):
            wrong.append((hex(fbits), hex(got), hex(want)))
    assert not wrong[:10]


VALUE_PROGRAM = r"""
#include <hsx_value.h>
#include <stdio.h>

HSX_VALUE(3, 4, "setpoint", 21.5);

int main(void) {
    unsigned oid;
    float f = 0;
    printf("lookup %u %d\n", hsx_val_lookup(3, 4, &oid), oid == hsx_val_oid(3, 4));
    printf("get %u %g\n", hsx_val_get(oid, &f), f);
    const float values[] = { 100.25f, 0.1f, -3.0f, 70000.0f, 1e-8f };
    for (int i = 0; i < 5; i++) {
        unsigned set = hsx_val_set(oid, values[i]);
        unsigned got = hsx_val_get(oid, &f);
        printf("set %u get %u %.13g\n", set, got, f);
    }
    printf("missing %d\n", hsx_val_get(hsx_val_oid(9, 9), &f) != 0);
    return 0;
}
"""


def test_value_helpers_set_and_get_floats_through_f16(tmp_path):
    out, status, _ = _run(tmp_path, VALUE_PROGRAM)
    assert status == 0
    assert out.splitlines() == [
        "lookup 0 1", "get 0 21.5",
        "set 0 get 0 100.25", "set 0 get 0 0.0999755859375", "set 0 get 0 -3",
        "set 4 get 0 -3",                  # beyond f16's range: EINVAL, value unchanged
        "set 0 get 0 0", "missing 1"]
