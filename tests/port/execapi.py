"""The C executive's direct API (port/c/hsx_exec.h) through ctypes: the executive's core
built as a shared library per variant (with shimkit), a HAL whose clock the test
drives, the events it emits collected, and images built from MVASM text."""
from __future__ import annotations

import ctypes as C
from dataclasses import dataclass, field

from shimkit import PORT, build_shim

from hsx.board.build import EXECUTIVE, VARIANTS
from hsx.image.hxe import write_hxe
from hsx.toolchain.build import assemble_source, link_objects

STATES = ["none", "ready", "running", "waiting_mbx", "sleeping", "waiting_cmd", "paused",
          "returned", "faulted", "killed"]
STATUS = ["ok", "bad_argument", "unknown_pid", "task_ended", "bad_image", "too_many_tasks",
          "layout", "image_too_large", "mailbox_limit", "metadata_mailbox", "app_exists",
          "unknown_stream", "too_many_streams", "stdin_full", "mailbox", "value", "command",
          "unknown_name", "unknown_breakpoint", "too_many_breakpoints", "unknown_watch",
          "too_many_watches", "bad_address", "unsupported", "static_breakpoint"]
EVENTS = ["task_state", "debug_break", "fault", "stdout", "stderr", "mailbox_send",
          "mailbox_recv", "value_changed", "watch_update", "dmesg"]

NOW = C.CFUNCTYPE(C.c_uint32)
DIAG = C.CFUNCTYPE(None, C.c_char_p)


class Hal(C.Structure):
    _fields_ = [("now_ms", NOW), ("link", C.c_void_p), ("persist", C.c_void_p),
                ("fs", C.c_void_p), ("can", C.c_void_p), ("diagnostic", DIAG),
                ("board", C.c_char_p), ("boot", C.c_uint32)]


class Event(C.Structure):
    _fields_ = [("type", C.c_int), ("pid", C.c_uint32), ("prev", C.c_int), ("state", C.c_int),
                ("reason", C.c_int), ("what", C.c_char_p), ("what2", C.c_char_p),
                ("pc", C.c_uint32), ("id", C.c_uint32),
                ("addr", C.c_int64), ("a", C.c_uint32), ("b", C.c_uint32), ("c", C.c_uint32),
                ("d", C.c_uint32), ("data", C.POINTER(C.c_uint8)), ("len", C.c_uint32)]


class TaskInfo(C.Structure):
    _fields_ = [("pid", C.c_uint32), ("app_name", C.c_char * 32), ("app_name_base", C.c_char * 32),
                ("state", C.c_int), ("pc", C.c_uint32), ("sp", C.c_uint32), ("psw", C.c_uint32),
                ("priority", C.c_uint32), ("quantum", C.c_uint32), ("instructions", C.c_uint64),
                ("exit_status", C.c_int32), ("has_exit_status", C.c_uint8),
                ("turns", C.c_uint32), ("waits", C.c_uint32), ("wakes", C.c_uint32),
                ("timeouts", C.c_uint32), ("sleeps", C.c_uint32), ("reg_base", C.c_uint32),
                ("stack_base", C.c_uint32), ("stack_top", C.c_uint32), ("mem_size", C.c_uint32),
                ("code_len", C.c_uint32), ("fault_kind", C.c_char_p), ("fault_pc", C.c_uint32),
                ("fault_addr", C.c_int64), ("wait_kind", C.c_char_p), ("wait_handle", C.c_uint32),
                ("wait_ms", C.c_uint32)]


class Registers(C.Structure):
    _fields_ = [("pid", C.c_uint32), ("pc", C.c_uint32), ("psw", C.c_uint32), ("sp", C.c_uint32),
                ("regs", C.c_uint32 * 16), ("steps", C.c_uint64), ("state", C.c_int)]


class BreakpointInfo(C.Structure):
    _fields_ = [("id", C.c_uint32), ("pid", C.c_uint32), ("addr", C.c_uint32), ("hits", C.c_uint32),
                ("enabled", C.c_uint8), ("temporary", C.c_uint8), ("brk", C.c_uint8),
                ("code", C.c_uint8)]


class Frame(C.Structure):
    _fields_ = [("pc", C.c_uint32), ("sp", C.c_uint32), ("fp", C.c_uint32)]


class TraceRecord(C.Structure):
    _fields_ = [("pc", C.c_uint32), ("steps", C.c_uint64)]


class MbxMessage(C.Structure):
    _fields_ = [("length", C.c_uint32), ("flags", C.c_uint32), ("channel", C.c_uint32),
                ("src_pid", C.c_uint32)]


class MailboxInfo(C.Structure):
    _fields_ = [("descriptor_id", C.c_uint32), ("target", C.c_char * 48), ("namespace_", C.c_uint8),
                ("has_owner", C.c_uint8), ("mode", C.c_uint8), ("owner_pid", C.c_uint32),
                ("capacity", C.c_uint32), ("bytes_used", C.c_uint32), ("queue_depth", C.c_uint32),
                ("handles", C.c_uint32), ("waiters", C.c_uint32), ("next_seq", C.c_uint32),
                ("waiting", C.c_uint32 * 8)]


class CommandInfo(C.Structure):
    _fields_ = [("oid", C.c_uint16), ("flags", C.c_uint16), ("auth_level", C.c_uint16),
                ("owner_pid", C.c_uint16), ("handler_addr", C.c_uint32), ("name", C.c_char_p),
                ("group_name", C.c_char_p), ("help", C.c_char_p)]


class ValueInfo(C.Structure):
    _fields_ = [("oid", C.c_uint16), ("flags", C.c_uint16), ("auth_level", C.c_uint16),
                ("owner_pid", C.c_uint16), ("f16", C.c_uint16), ("persist_key", C.c_uint16),
                ("name", C.c_char_p), ("group_name", C.c_char_p), ("unit", C.c_char_p),
                ("min_f16", C.c_uint16), ("max_f16", C.c_uint16), ("epsilon_f16", C.c_uint16),
                ("has_range", C.c_uint8), ("has_epsilon", C.c_uint8), ("rate_ms", C.c_uint16),
                ("debounce_ms", C.c_uint16)]


@dataclass
class Exec:
    """One executive (the library's statics) with a clock the test moves."""

    lib: C.CDLL
    variant: str
    now: int = 0
    events: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._now = NOW(lambda: self.now & 0xFFFFFFFF)
        self._diag = DIAG(lambda text: self.events.append({"type": "diagnostic", "text": text}))
        self._listener = C.CFUNCTYPE(None, C.POINTER(Event))(self._on_event)
        self.hal = Hal(self._now, None, None, None, None, self._diag, b"test", 1)
        self._keep: list = []                     # in-place images must outlive their tasks
        self.lib.hsx_exec_init(C.byref(self.hal))
        self.lib.hsx_exec_set_listener(self._listener)

    def _on_event(self, pointer) -> None:
        ev = pointer.contents
        self.events.append({
            "type": EVENTS[ev.type], "pid": ev.pid, "prev": STATES[ev.prev], "state": STATES[ev.state],
            "reason": ev.reason, "what": ev.what.decode() if ev.what else None,
            "what2": ev.what2.decode() if ev.what2 else None, "pc": ev.pc,
            "id": ev.id, "addr": ev.addr, "a": ev.a, "b": ev.b, "c": ev.c, "d": ev.d,
            "data": bytes(ev.data[:ev.len]) if ev.data else b""})

    def of(self, kind: str, pid: int | None = None) -> list[dict]:
        return [e for e in self.events if e["type"] == kind and (pid is None or e["pid"] == pid)]

    def status(self, code: int) -> str:
        text = STATUS[code]
        return text if code in (0,) else f"{text}:{self.lib.hsx_exec_last_detail().decode()}"

    def load(self, data: bytes, name: str | None = None, *, paused: bool = False,
             in_place: bool = False) -> tuple[str, int]:
        buffer = C.create_string_buffer(data, len(data))
        if in_place:
            self._keep.append(buffer)
        pid = C.c_uint32()
        code = self.lib.hsx_exec_load(buffer, len(data), int(in_place),
                                      name.encode() if name else None, int(paused), C.byref(pid))
        return STATUS[code], pid.value

    def task(self, pid: int) -> TaskInfo:
        info = TaskInfo()
        assert self.lib.hsx_exec_task(pid, C.byref(info)) == 0
        return info

    def state(self, pid: int) -> str:
        return STATES[self.task(pid).state]

    def run(self, budget: int = 100_000) -> tuple[int, int]:
        next_ms = C.c_uint32()
        ran = self.lib.hsx_exec_run(budget, C.byref(next_ms))
        return ran, next_ms.value

    def registers(self, pid: int) -> Registers:
        regs = Registers()
        assert self.lib.hsx_exec_registers(pid, C.byref(regs)) == 0
        return regs

    def peek(self, pid: int, addr: int, length: int, space: int = 0) -> bytes:
        out = (C.c_uint8 * length)()
        assert self.lib.hsx_exec_peek(pid, space, addr, out, length) == 0
        return bytes(out)

    def call(self, name: str, *args) -> str:
        """An hsx_exec_* function returning an hsx_status, as its name."""
        return STATUS[getattr(self.lib, f"hsx_exec_{name}")(*args)]


_libraries: dict[str, C.CDLL] = {}


def executive(variant: str) -> Exec:
    """A fresh executive of `variant` (the library is built once; init resets it)."""
    if variant not in _libraries:
        lib = build_shim(f"exec-{variant}", [PORT / name for name in EXECUTIVE],
                         {"HSX_VARIANT": VARIANTS[variant], "HSX_DECODE_AT_FETCH": 1,
                          "HSX_TASK_MEMORY": "0x10000u", "HSX_STACK_SIZE": "0x2000u"})
        lib.hsx_exec_last_detail.restype = C.c_char_p
        lib.hsx_state_name.restype = C.c_char_p
        lib.hsx_exec_recent_output.restype = C.c_uint32
        lib.hsx_exec_trace_records.restype = C.c_uint32
        _libraries[variant] = lib
    return Exec(_libraries[variant], variant)


def image(source: str, name: str = "app", **link):
    """An image from MVASM text, and a function giving a label's address."""
    img, symbols = link_objects([assemble_source(source, f"{name}.mvasm")], app_name=name, **link)
    return write_hxe(img), symbols.address_of


CAN_SEND = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_uint32, C.POINTER(C.c_uint8), C.c_uint32)
CAN_RECV = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint32), C.POINTER(C.c_uint8),
                       C.POINTER(C.c_uint32))


class Can(C.Structure):
    _fields_ = [("ctx", C.c_void_p), ("send", CAN_SEND), ("recv", CAN_RECV)]


class TestCan:
    """A CAN controller in Python: frames sent are kept, frames to receive are queued."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, bytes]] = []
        self.incoming: list[tuple[int, bytes]] = []
        self._send = CAN_SEND(self._on_send)
        self._recv = CAN_RECV(self._on_recv)
        self.struct = Can(None, self._send, self._recv)

    def _on_send(self, ctx, ident, data, length) -> int:
        self.sent.append((ident, bytes(data[:length])))
        return 0

    def _on_recv(self, ctx, ident, data, length) -> int:
        if not self.incoming:
            return -11                          # -EAGAIN: nothing waiting
        frame_id, payload = self.incoming.pop(0)
        ident[0] = frame_id
        for i, byte in enumerate(payload):
            data[i] = byte
        length[0] = len(payload)
        return 0


def with_can(ex: Exec, can: TestCan) -> None:
    """Give the executive's HAL a CAN controller (it is read at every CAN SVC)."""
    ex.hal.can = C.cast(C.pointer(can.struct), C.c_void_p)
