"""The debugger's C-level view of stopped tasks: frames with their variables,
expansion of structs/arrays/pointers, expressions, and assignments (the work behind
`frame.variables`, `variables.expand`, `evaluate` and `set`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import cexpr, cvalue, stack, unwind
from . import ctype as C
from . import errors as E
from .changes import describe_change
from .cvalue import EvalError, TValue
from .code import frame_code_pc
from .errors import DebugError
from .symbols import SymbolService, TaskSymbols
from .variables import (DEFAULT_PAGE, Frame, FrameScope, Presenter, RefTable, frame_fp,
                        registers)
from .watches import Describe

SCOPES = ("all", "locals", "arguments", "globals", "registers")


@dataclass(frozen=True)
class Watched:
    """The object a C expression names, as a watch covers it."""

    address: int
    size: int
    describe: Describe                   # (old, new) -> what changed, from what to what


class Inspector:
    def __init__(self, symbols: SymbolService,
                 wrote: Callable[[Any], None] = lambda task: None) -> None:
        """`wrote(task)` is told after `set` changed a task (watches compare then)."""
        self.symbols = symbols
        self.refs = RefTable()
        self._wrote = wrote
        self._types: dict[int, tuple[Any, C.TypeTable]] = {}

    # -- frames -----------------------------------------------------------------------

    def scope(self, pid: int, index: int) -> tuple[TaskSymbols, FrameScope]:
        entry = self.symbols.get(pid)
        if not isinstance(index, int) or isinstance(index, bool) or not (
                0 <= index < stack.MAX_FRAMES):
            raise DebugError(E.BAD_ARGUMENT, f"frame must be 0..{stack.MAX_FRAMES - 1}")
        ctx = entry.task.ctx
        walked = stack.walk(ctx, entry.code, lambda pc: self.symbols.describe(pid, pc),
                            index + 1)["frames"]
        if index >= len(walked):
            raise DebugError(E.BAD_ARGUMENT, f"task {pid} has {len(walked)} frame"
                             f"{'s' if len(walked) != 1 else ''}; there is no frame {index}")
        regs = [unwind.FrameRegs(k, f["pc"], f["sp"],
                                 frame_fp(ctx, entry.code, k, f["pc"], f["fp"]))
                for k, f in enumerate(walked[:index + 1])]
        saved, live = unwind.register_homes(entry.code, regs[:index])
        mine = regs[index]
        frame = Frame(index, mine.pc, mine.sp, mine.fp, walked[index].get("function"), saved, live)
        return entry, FrameScope(ctx, entry.table, self._type_table(entry), frame)

    def frame0(self, pid: int) -> FrameScope:
        """The innermost frame without walking the stack (what conditions see)."""
        entry = self.symbols.get(pid)
        ctx = entry.task.ctx
        pc, regs = ctx.pc, ctx.regs
        frame = Frame(0, pc, regs[15], frame_fp(ctx, entry.code, 0, pc, regs[14]), None)
        return FrameScope(ctx, entry.table, self._type_table(entry), frame)

    def _type_table(self, entry: TaskSymbols) -> C.TypeTable:
        table = entry.table
        cached = self._types.get(id(table))
        if cached is None or cached[0] is not table:
            cached = self._types[id(table)] = (table, C.TypeTable(table.types if table else []))
        return cached[1]

    def _presenter(self, pid: int, entry: TaskSymbols, scope: FrameScope) -> Presenter:
        return Presenter(scope, self.refs, pid, self._formatter(entry, scope))

    @staticmethod
    def _formatter(entry: TaskSymbols, scope: FrameScope) -> C.Formatter:
        table = entry.table

        def read(addr: int, size: int) -> bytes | None:
            mem = scope.ctx.mem
            return bytes(mem[addr:addr + size]) if 0 <= addr < len(mem) else None

        def symbol(addr: int, space: str) -> str | None:
            if table is None:
                return None
            found = table.lookup_address(addr, space)
            if found is None:
                return None
            name, offset = found
            return name if offset == 0 else f"{name}+{offset}"
        return C.Formatter(read, symbol)

    # -- the commands ---------------------------------------------------------------------

    def variables(self, pid: int, frame: int = 0, scope: str = "all") -> dict[str, Any]:
        if scope not in SCOPES:
            raise DebugError(E.BAD_ARGUMENT, f"scope must be one of {', '.join(SCOPES)}, "
                             f"not {scope!r}")
        entry, fs = self.scope(pid, frame)
        present = self._presenter(pid, entry, fs)
        out: dict[str, Any] = {"pid": pid, "frame": frame, "pc": fs.frame.pc,
                               "function": fs.frame.function,
                               **self.symbols.describe(pid, frame_code_pc(fs.frame.pc, frame))}
        out.pop("symbol", None)
        out.pop("offset", None)
        if scope in ("all", "arguments", "locals"):
            args, local = [], []
            for var in fs.locals():
                try:
                    value = fs.local_value(var)
                except EvalError as error:
                    item = {"name": var.name, "type": fs.types.get(var.type).display,
                            "value": f"<{error}>", "available": False, "ref": 0,
                            "children": 0}
                else:
                    item = present.entry(var.name, value)
                (args if var.arg else local).append(item)
            if scope in ("all", "arguments"):
                out["arguments"] = args
            if scope in ("all", "locals"):
                out["locals"] = local
        if scope in ("all", "globals"):
            table = entry.table
            found = sorted(table.globals, key=lambda g: (g.static, g.name)) if table else []
            out["globals"] = [present.entry(g.name, TValue(fs.types.get(g.type),
                                                           cvalue.Location("memory", g.address)),
                                            **({"file": g.file} if g.static else {}))
                              for g in found if g.type is not None]
        if scope in ("all", "registers"):
            out["registers"] = registers(fs.ctx, fs.frame)
        out["warnings"] = list(entry.warnings)
        if entry.table is not None and not entry.table.types:
            out["warnings"].append(f"{entry.task.app_name} has no C debug information "
                                   "(build it with hsx cc -g)")
        return out

    def expand(self, ref: int, start: int = 0, count: int = DEFAULT_PAGE) -> dict[str, Any]:
        found = self.refs.get(ref)
        if found is None:
            raise DebugError(E.BAD_ARGUMENT, f"no expandable value {ref} (the task has run since, "
                             "or it was never handed out): list the variables again")
        if start < 0 or count < 1:
            raise DebugError(E.BAD_ARGUMENT, "start must be >= 0 and count >= 1")
        pid, frame, name, value = found
        entry, fs = self.scope(pid, frame)
        present = self._presenter(pid, entry, fs)
        try:
            children = present.children(name, value, start, count)
        except EvalError as error:
            raise DebugError(E.BAD_ARGUMENT, str(error)) from None
        total = present.child_count(value, cvalue.load(value, fs)) if value.loc is not None \
            else len(children)
        return {"pid": pid, "ref": ref, "name": name, "start": start, "total": total,
                "variables": children}

    def evaluate(self, pid: int, frame: int, text: str) -> dict[str, Any]:
        entry, fs = self.scope(pid, frame)
        try:
            value = cexpr.parse(text).evaluate(fs)
            result = self._presenter(pid, entry, fs).entry(text, value)
        except EvalError as error:
            raise DebugError(E.BAD_EXPRESSION, str(error)) from None
        if not result.get("available", True):
            raise DebugError(E.BAD_EXPRESSION, result["value"].strip("<>"))
        return {"pid": pid, "frame": frame, **result}

    def returned(self, pid: int, function: str) -> dict[str, Any] | None:
        """What `function` returned, the task having just returned from it: read where
        the ABI leaves it (R0; R0 and R1 for 64 bits).  None without the function's C
        type (a build without -g, MVASM); no `value` for void, nor for a struct or union
        (returned through memory the caller chose)."""
        entry = self.symbols.get(pid)
        symbol = entry.table.symbol(function) if entry.table is not None else None
        if symbol is None or symbol.type is None:
            return None
        fs = self.frame0(pid)
        raw = fs.types.raw[symbol.type] if 0 <= symbol.type < len(fs.types.raw) else {}
        result = fs.types.get(raw.get("returns"))
        out: dict[str, Any] = {"function": function, "type": result.display}
        if result.strip().kind in ("void", "struct", "union", "array", "function"):
            return out
        shown = self._presenter(pid, entry, fs).entry(
            function, TValue(result, cvalue.Location("register", reg=0)))
        return {**out, "value": shown["value"], "ref": shown["ref"]}

    def watched(self, pid: int, frame: int, text: str) -> Watched | None:
        """What a watch on `text` covers when it is a C lvalue in memory (None when it
        is not C: an MVASM label, a plain address): its address and size, and how to
        say what changed in it (`describe_change`)."""
        entry, fs = self.scope(pid, frame)
        if not fs.types.raw:
            return None
        try:
            value = cexpr.parse(text).evaluate(fs)
        except EvalError:
            return None
        if value.loc is None or value.loc.kind != "memory":
            return None
        formatter, t = self._formatter(entry, fs), value.type
        return Watched(value.loc.addr, max(t.strip().size, 1),
                       lambda old, new: describe_change(t, text, old, new, formatter))

    def assign(self, pid: int, frame: int, target: str, source: str) -> dict[str, Any]:
        """`set`: store the value of expression `source` into lvalue `target`."""
        entry, fs = self.scope(pid, frame)
        task = entry.task
        if task.ended:
            raise DebugError(E.TASK_ENDED, f"task {pid} has ended ({task.state.value})")
        try:
            place = cexpr.parse(target).evaluate(fs)
            if place.loc is None:
                raise EvalError(f"{target!r} cannot be assigned: it is a value, not a "
                                "variable, field, element or register")
            value = cexpr.parse(source).evaluate(fs)
            data = cvalue.assignment(place, value, fs)
        except EvalError as error:
            raise DebugError(E.BAD_EXPRESSION, str(error)) from None
        self._store(fs, place, data)
        self._wrote(task)
        self.refs.forget(pid)
        result = self._presenter(pid, entry, fs).entry(target, place)
        return {"pid": pid, "frame": frame, **result}

    @staticmethod
    def _store(fs: FrameScope, place: TValue, data: bytes) -> None:
        loc, ctx = place.loc, fs.ctx
        if loc.kind == "memory":
            if loc.addr < 0 or loc.addr + len(data) > len(ctx.mem):
                raise DebugError(E.BAD_ADDRESS, f"0x{loc.addr:X}+{len(data)} is outside the task")
            ctx.mem[loc.addr:loc.addr + len(data)] = data
        elif loc.kind == "register":
            padded = data + bytes(-len(data) % 4)
            try:
                homes = [(reg, fs.register_home(reg))
                         for reg in cvalue.register_words(loc, len(padded))]
            except EvalError as error:
                raise DebugError(E.BAD_EXPRESSION, str(error)) from None
            for k, (reg, home) in enumerate(homes):
                word = padded[4 * k:4 * k + 4]
                if home is None:
                    ctx.regs[reg] = int.from_bytes(word, "little")
                else:                            # a caller's register, saved by a callee
                    ctx.mem[home:home + 4] = word
        elif loc.kind == "special":
            value = int.from_bytes(data[:4], "little")
            if fs.frame.index != 0:
                raise DebugError(E.BAD_EXPRESSION, f"${loc.special} can only be set in frame 0")
            if loc.special == "pc":
                if value & 3 or value >= ctx.code_len:
                    raise DebugError(E.BAD_ADDRESS, f"0x{value:X} is not an instruction address")
                ctx.pc = value
                ctx.skip_breakpoint = None
            else:
                if value > 0xF:
                    raise DebugError(E.BAD_ARGUMENT, "psw is 0..15 (Z=1 C=2 N=4 V=8)")
                ctx.psw = value
        else:                                            # a bit-field: read, modify, write
            f = loc.field
            span = C.bitfield_span(f)
            storage = int.from_bytes(fs.read(loc.addr, span), "little")
            mask = ((1 << f.bit_size) - 1) << (f.bit_offset or 0)
            value = int.from_bytes(data, "little") << (f.bit_offset or 0)
            ctx.mem[loc.addr:loc.addr + span] = ((storage & ~mask) | (value & mask)).to_bytes(
                span, "little")
