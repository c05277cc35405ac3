"""Variables of any frame, as people read them: `frame.variables`, `variables.expand`,
`evaluate` and `set` (docs/debugger.md, "Variables and expressions").

A `FrameScope` is one frame of one task (from the stack walk): its arguments and
locals in scope at that frame's pc, with the places the `.sym` says they live (R14 +
offset, or a register), the build's globals, and the registers. Values are formatted
by their C type; a struct, union, array or pointer gets a `ref` that
`variables.expand` opens later (a page of an array at a time), reading memory then.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from hsx.image.sym import LocalVariable, SymbolTable

from . import ctype as C
from . import cvalue, dwarf, unwind
from .code import CodeMap, frame_code_pc
from .cvalue import EvalError, Location, TValue

MAX_REFS = 100_000          # expandable values remembered (oldest forgotten first)
DEFAULT_PAGE = 100          # array elements per variables.expand by default
FLAG_NAMES = ((1, "Z"), (2, "C"), (4, "N"), (8, "V"))


@dataclass
class Frame:
    """Frame `index` of a task: its pc, SP and frame pointer (None: not set up yet), and
    for an outer frame where its callee-saved registers are (see `unwind`)."""

    index: int
    pc: int
    sp: int
    fp: int | None
    function: str | None
    saved: dict[int, int] = field(default_factory=dict)   # register -> save slot address
    live: bool = True          # registers not in `saved` are still in the machine


class FrameScope:
    """What expressions and listings see in one frame (implements `cvalue.Scope`)."""

    def __init__(self, ctx, table: SymbolTable | None, types: C.TypeTable, frame: Frame,
                 ) -> None:
        self.ctx, self.table, self.types, self.frame = ctx, table, types, frame

    # -- cvalue.Scope ------------------------------------------------------------------

    def variable(self, name: str) -> TValue | None:
        for local in self.locals():
            if local.name == name:
                return self.local_value(local)
        if self.table is not None:
            found = self.table.global_variable(name)
            if found is not None and found.type is not None:
                return TValue(self.types.get(found.type), Location("memory", found.address))
        return None

    def label(self, name: str) -> int | None:
        return self.table.address_of(name) if self.table is not None else None

    def read(self, addr: int, size: int) -> bytes:
        mem = self.ctx.mem
        if addr < 0 or size < 0 or addr + size > len(mem):
            raise EvalError(f"memory 0x{addr:X}+{size} is outside the task (0..0x{len(mem):X})")
        return bytes(mem[addr:addr + size])

    def register(self, index: int) -> int:
        frame = self.frame
        if frame.index != 0 and index == 15:
            return frame.sp
        if frame.index != 0 and index == 14 and frame.fp is not None:
            return frame.fp
        home = self.register_home(index)
        if home is None:
            return self.ctx.regs[index]
        return int.from_bytes(self.read(home, 4), "little")

    def register_home(self, index: int) -> int | None:
        """Where this frame's R`index` is: None for the machine register, else the
        address of the slot a callee saved it in."""
        frame = self.frame
        if frame.index == 0:
            return None
        if index in unwind.CALLEE_SAVED:
            if index in frame.saved:
                return frame.saved[index]
            if frame.live:
                return None
        raise EvalError(f"R{index} of frame {frame.index} is not known here (R0..R5 do not "
                        "survive calls; callee-saved registers only when the callees' "
                        "saves can be read)")

    def special(self, name: str) -> int:
        if name == "pc":
            return self.frame.pc
        if self.frame.index != 0:
            raise EvalError(f"PSW of frame {self.frame.index} is not known")
        return self.ctx.psw

    # -- locals ---------------------------------------------------------------------------

    def locals(self) -> list[LocalVariable]:
        """Arguments (in order) then locals of the function at this frame's pc; of a
        variable described by several entries (optimised code), the one with a
        location here."""
        if self.table is None:
            return []
        pc = frame_code_pc(self.frame.pc, self.frame.index)
        chosen: dict[tuple, LocalVariable] = {}
        for v in self.table.locals_at(pc):
            key = (v.function, v.name, v.line, v.arg)
            if key not in chosen or chosen[key].location.get("kind") == "none":
                chosen[key] = v
        return sorted(chosen.values(),
                      key=lambda v: (v.arg is None, v.arg or 0, v.line or 0, v.name))

    def local_value(self, local: LocalVariable) -> TValue:
        t = self.types.get(local.type)
        location = local.location or {}
        if location.get("compute"):                # computed from what is there
            base = self.local_value(LocalVariable(
                local.function, local.name, None, {**location, "compute": None}))
            word = int.from_bytes(cvalue.load(TValue(C.UINT, base.loc, base.data), self), "little")
            size = t.strip().size or 4
            return TValue(t, None, dwarf.compute(location["compute"], word).to_bytes(
                4, "little")[:size].ljust(size, b"\0"))
        kind = location.get("kind")
        if kind == "frame":
            if self.frame.fp is None:
                raise EvalError(f"{local.name} is not available here (the frame of "
                                f"{local.function} is not set up at this pc)")
            return TValue(t, Location("memory", (self.frame.fp + int(location["offset"]))
                                      & 0xFFFFFFFF))
        if kind == "register":
            regs = tuple(int(r) for r in location.get("regs") or [location["reg"]])
            for reg in regs:
                self.register_home(reg)          # known in this frame, or say why not
            return TValue(t, Location("register", reg=regs[0], regs=regs))
        if kind == "value":
            size = t.strip().size or 4
            return TValue(t, None, (int(location["value"]) % (1 << 8 * size)).to_bytes(
                size, "little"))
        raise EvalError(f"{local.name} is not available at this pc (optimised out)")


class RefTable:
    """Expandable values handed to clients as integers (`ref`), newest kept."""

    def __init__(self) -> None:
        self._refs: OrderedDict[int, tuple[int, int, str, TValue]] = OrderedDict()
        self._next = 1

    def add(self, pid: int, frame: int, name: str, value: TValue) -> int:
        ref = self._next
        self._next += 1
        self._refs[ref] = (pid, frame, name, value)
        if len(self._refs) > MAX_REFS:
            self._refs.popitem(last=False)
        return ref

    def get(self, ref: int) -> tuple[int, int, str, TValue] | None:
        return self._refs.get(ref)

    def forget(self, pid: int) -> None:
        for ref in [r for r, entry in self._refs.items() if entry[0] == pid]:
            del self._refs[ref]


class Presenter:
    """Turns values of one frame into the JSON of `frame.variables` and friends."""

    def __init__(self, scope: FrameScope, refs: RefTable, pid: int,
                 formatter: C.Formatter) -> None:
        self.scope, self.refs, self.pid, self.formatter = scope, refs, pid, formatter

    def entry(self, name: str, value: TValue, **extra: Any) -> dict[str, Any]:
        t = value.type
        out: dict[str, Any] = {"name": name, "type": t.display, **extra}
        try:
            data = cvalue.load(value, self.scope)
        except EvalError as error:
            return {**out, "value": f"<{error}>", "available": False, "ref": 0}
        out["value"] = self.formatter.summary(t, data)
        out["available"] = True
        if value.loc is not None and value.loc.kind == "memory":
            out["address"] = value.loc.addr
        elif value.loc is not None and value.loc.kind == "register":
            out["register"] = value.loc.reg
        children = self.child_count(value, data)
        out["ref"] = self.refs.add(self.pid, self.scope.frame.index, name, value) \
            if children else 0
        out["children"] = children
        return out

    def child_count(self, value: TValue, data: bytes) -> int:
        s = value.type.strip()
        if s.kind in ("struct", "union"):
            return len(s.fields)
        if s.kind == "array":
            return s.count or 0
        if s.kind == "pointer":
            target = s.target.strip() if s.target else C.VOID
            if target.kind in ("void", "function") or int.from_bytes(data[:4], "little") == 0:
                return 0
            return 1
        return 0

    def children(self, name: str, value: TValue, start: int, count: int) -> list[dict]:
        s = value.type.strip()
        if s.kind in ("struct", "union"):
            base = cvalue.address_of(value)
            out = []
            for f in s.fields[start:start + count]:
                loc = (Location("bitfield", base + f.offset, field=f) if f.bit_size is not None
                       else Location("memory", base + f.offset))
                out.append(self.entry(f.name, TValue(f.type, loc),
                                      **({"bits": f.bit_size} if f.bit_size else {})))
            return out
        if s.kind == "array":
            base = cvalue.address_of(value)
            element = s.target or C.VOID
            size = max(element.strip().size, 1)
            stop = min(start + count, s.count or 0)
            return [self.entry(f"[{i}]", TValue(element, Location("memory", base + i * size)))
                    for i in range(start, stop)]
        if s.kind == "pointer" and start == 0 and count > 0:
            target = s.target or C.VOID
            addr = int.from_bytes(cvalue.load(value, self.scope)[:4], "little")
            return [self.entry(f"*{name}", TValue(target, Location("memory", addr)))]
        return []


def registers(ctx, frame: Frame) -> list[dict[str, Any]]:
    """The registers of frame 0 (outer frames: what the stack walk knows)."""
    def reg(name: str, value: int) -> dict[str, Any]:
        return {"name": name, "type": "unsigned int", "value": f"0x{value:08X}",
                "decimal": value, "ref": 0, "children": 0, "available": True}
    if frame.index != 0:
        out = [reg("pc", frame.pc), reg("sp", frame.sp)]
        if frame.fp is not None:
            out.append(reg("fp", frame.fp))
        return out
    out = [reg(f"r{i}", value) for i, value in enumerate(ctx.regs.tolist())]
    psw = ctx.psw
    flags = " ".join(name for bit, name in FLAG_NAMES if psw & bit) or "-"
    out += [reg("pc", ctx.pc), {**reg("psw", psw), "value": f"0x{psw:X} [{flags}]",
                                "flags": {name: bool(psw & bit) for bit, name in FLAG_NAMES}}]
    return out


def frame_fp(ctx, code: CodeMap, index: int, pc: int, fp: int) -> int | None:
    """The frame pointer of a frame, or None while its prologue/epilogue runs (frame 0
    only: callers are always inside their bodies)."""
    if index != 0:
        return fp
    function = code.function_at(pc)
    if function is None or not function.in_frame(pc):
        return None
    return None if code.returns_at(pc) else fp
