"""Per-task symbols: the `.sym` table, the code map, and turning what users type into
addresses and addresses back into names.

A task without symbols still works: everything degrades to plain addresses and the
answers carry a warning saying why names are missing.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from typing import Any, Union

from hsx.image.sym import SymbolFileError, SymbolTable, load_sym, read_sym, write_sym
from hsx.kernel.executive import Kernel
from hsx.kernel.task import Task

from . import errors as E
from .code import CodeMap
from .errors import DebugError, quoted
from .store import DebugStore

# A code location: an address, a symbol ("main", "main+0x10"), a numeric string, or a
# source line as ("file.c", 12) or "file.c:12".
Where = Union[int, str, tuple[str, int]]

MAX_DESCRIBED = 4096             # code addresses whose description a task remembers
_SYMBOL_OFFSET = re.compile(r"^([A-Za-z_.$][\w.$]*)\s*(?:([+-])\s*(0[xX][0-9a-fA-F]+|\d+))?$")
_FILE_LINE = re.compile(r"^(.+):(\d+)$")


@dataclass
class TaskSymbols:
    task: Task
    table: SymbolTable | None
    code: CodeMap
    path: str | None = None
    warnings: list[str] = field(default_factory=list)
    described: dict[int, dict[str, Any]] = field(default_factory=dict)   # describe() by pc


class SymbolService:
    def __init__(self, kernel: Kernel, store: DebugStore | None = None) -> None:
        self.kernel = kernel
        self.store = store
        self._tasks: dict[int, TaskSymbols] = {}

    # -- attaching tables -----------------------------------------------------------------

    def attach(self, task: Task) -> TaskSymbols:
        """Give a new task its code map, and its `.sym` when the kernel found one."""
        for pid in [p for p in self._tasks if p not in self.kernel.tasks]:
            del self._tasks[pid]                   # tasks the kernel has forgotten
        warnings: list[str] = []
        table = path = None
        if task.symbols_path is not None:
            table, path = self._read(task, task.symbols_path, warnings)
            self._remember(task, table)
        else:
            table = self._remembered(task)
            if table is None:
                warnings.append(f"no symbols for {task.app_name}: showing addresses only")
        entry = TaskSymbols(task, table, self._code_map(task, table), path, warnings)
        self._tasks[task.pid] = entry
        return entry

    def load(self, pid: int, source: str | os.PathLike | SymbolTable) -> dict[str, Any]:
        """Load (or replace) a task's symbols from a `.sym` path or a table."""
        entry = self.get(pid)
        warnings: list[str] = []
        table, path = self._read(entry.task, source, warnings)
        if table is None:
            raise DebugError(E.SYMBOL_FILE, warnings[-1])
        entry.table, entry.path, entry.warnings = table, path, warnings
        entry.code = self._code_map(entry.task, table)
        entry.described = {}
        self._remember(entry.task, table)
        return self.info(pid)

    def _remember(self, task: Task, table: SymbolTable | None) -> None:
        if self.store is not None and table is not None:
            self.store.save_symbols(task.base_name, code_hash(task), write_sym(table).decode())

    def _remembered(self, task: Task) -> SymbolTable | None:
        """The table stored for this very build of the app, if any."""
        text = self.store.symbols(task.base_name, code_hash(task)) if self.store else None
        if text is None:
            return None
        try:
            return read_sym(text)
        except SymbolFileError:
            return None

    @staticmethod
    def _read(task: Task, source: str | os.PathLike | SymbolTable,
              warnings: list[str]) -> tuple[SymbolTable | None, str | None]:
        """The table from `source`; problems go to `warnings` (a stale file still loads)."""
        if isinstance(source, SymbolTable):
            table, path = source, None
        else:
            path = str(source)
            try:
                table = load_sym(path)
            except SymbolFileError as error:
                warnings.append(f"symbols not loaded: {error}")
                return None, None
        crc = task.image.crc
        if table.hxe_crc and crc and table.hxe_crc != crc:
            warnings.append(f"symbol file does not match the image (crc 0x{table.hxe_crc:08X} "
                            f"vs 0x{crc:08X}): names may be wrong")
        return table, path

    @staticmethod
    def _code_map(task: Task, table: SymbolTable | None) -> CodeMap:
        ctx = task.ctx
        handlers = [c.handler_offset for c in task.image.metadata.commands]
        return CodeMap(ctx.decoded, ctx.code_len, task.image.entry, table, handlers)

    def live(self, pid: int) -> Task:
        """The task, which must not have ended (control needs a live task)."""
        task = self.get(pid).task
        if task.ended:
            raise DebugError(E.TASK_ENDED, f"task {pid} has ended ({task.state.value})")
        return task

    def get(self, pid: int) -> TaskSymbols:
        """The task's entry; ended tasks stay inspectable until the kernel forgets them."""
        if type(pid) is int:               # the common case: attached, and still the task
            entry = self._tasks.get(pid)
            if entry is not None and self.kernel.tasks.get(pid) is entry.task:
                return entry
        task = self.kernel.tasks.get(pid) if isinstance(pid, int) else None
        if task is None:
            raise DebugError(E.UNKNOWN_PID, f"no task with pid {pid!r}")
        entry = self._tasks.get(pid)
        if entry is None or entry.task is not task:
            entry = self.attach(task)
        return entry

    def info(self, pid: int) -> dict[str, Any]:
        entry = self.get(pid)
        table = entry.table
        return {"pid": pid, "loaded": table is not None, "path": entry.path,
                "count": len(table.functions) + len(table.variables) if table else 0,
                "warnings": list(entry.warnings)}

    # -- lookups --------------------------------------------------------------------------

    def describe(self, pid: int, pc: int) -> dict[str, Any]:
        """`symbol`/`offset` (the containing function) and `file`/`line` of a code
        address; keys are left out when unknown."""
        return dict(self.description(pid, pc))

    def description(self, pid: int, pc: int) -> dict[str, Any]:
        """`describe` without the copy: the remembered dict, which must not be changed."""
        entry = self.get(pid)
        out = entry.described.get(pc)
        if out is None:                   # every step's debug_break asks: remembered
            out = code_place(entry.code, entry.table, pc)
            if len(entry.described) < MAX_DESCRIBED:
                entry.described[pc] = out
        return out

    def resolve_code(self, pid: int, where: Where, *, past_prologue: bool = False) -> int:
        """The code address of `where`; it must start an instruction.  `past_prologue`
        (breakpoints, run-to, jump): a function named without an offset, or a source
        line whose code starts a function (its opening line), means where the
        function's body begins, past its prologue, when the compiler recorded that (as
        gdb and lldb place them: the arguments are in place there).  An address, or a
        symbol with an offset, is always taken exactly."""
        entry = self.get(pid)
        if isinstance(where, tuple) and len(where) == 2:
            addr = self._line_address(entry, *where)
        elif isinstance(where, str):
            text = where.strip()
            number = _parse_int(text)
            match = _FILE_LINE.match(text)
            if number is not None:
                addr = number
            elif match:
                addr = self._line_address(entry, match.group(1), int(match.group(2)))
            else:
                addr = self._symbol_address(entry, text, space="code")
        elif isinstance(where, int) and not isinstance(where, bool):
            addr = where
        else:
            raise DebugError(E.BAD_ARGUMENT, f"not a code location: {quoted(where)}")
        if not entry.code.is_instruction(addr):
            raise DebugError(E.BAD_ADDRESS, f"0x{addr:X} is not the start of an instruction "
                             f"(code is 0x0..0x{entry.code.code_len:X})")
        if past_prologue and entry.table is not None and _names_function_or_line(where):
            body = entry.table.body_of(addr)
            return addr if body is None else body
        return addr

    def resolve_data(self, pid: int, where: int | str) -> tuple[int, int | None, str | None]:
        """(address, size or None, symbol name or None) of a data location."""
        entry = self.get(pid)
        if isinstance(where, int) and not isinstance(where, bool):
            return where, None, None
        if isinstance(where, str):
            text = where.strip()
            number = _parse_int(text)
            if number is not None:
                return number, None, None
            addr = self._symbol_address(entry, text, space=None)
            name = _SYMBOL_OFFSET.match(text).group(1)
            symbol = entry.table.symbol(name)
            size = symbol.size if symbol.size and addr == symbol.address else None
            return addr, size, name
        raise DebugError(E.BAD_ARGUMENT, f"not a data location: {quoted(where)}")

    def line_start(self, pid: int, file: str, line: int) -> tuple[int, str, int]:
        """Lowest address of `file:line`, or of the next line of that file that has code
        (a breakpoint on a blank line lands on the next statement): (address, file as
        the symbol table names it, line)."""
        table = self._table(self.get(pid))
        found = [e for e in table.lines if e.line >= line and same_file(e.file, file)]
        if not found:
            raise DebugError(E.NO_CODE_FOR_LINE, f"no code at or after {file}:{line}")
        best = min(found, key=lambda e: (e.line, e.pc))
        return best.pc, best.file, best.line

    def _line_address(self, entry: TaskSymbols, file: Any, line: Any) -> int:
        if not isinstance(file, str) or not isinstance(line, int) or isinstance(line, bool):
            raise DebugError(E.BAD_ARGUMENT, f"a source line is (file, line), not {(file, line)!r}")
        return self.line_start(entry.task.pid, file, line)[0]

    def _symbol_address(self, entry: TaskSymbols, text: str, space: str | None) -> int:
        match = _SYMBOL_OFFSET.match(text)
        if match is None:
            raise DebugError(E.BAD_ARGUMENT, f"not a symbol or address: {quoted(text)}")
        table = self._table(entry)
        symbol = table.symbol(match.group(1))
        if symbol is None or (space is not None and symbol.space != space):
            kind = "code symbol" if space == "code" else "symbol"
            raise DebugError(E.UNKNOWN_SYMBOL, f"no {kind} {match.group(1)!r} in "
                             f"{entry.task.app_name}")
        offset = int(match.group(3), 0) if match.group(3) else 0
        return symbol.address + (-offset if match.group(2) == "-" else offset)

    @staticmethod
    def _table(entry: TaskSymbols) -> SymbolTable:
        if entry.table is None:
            raise DebugError(E.NO_SYMBOLS, f"no symbols loaded for {entry.task.app_name} "
                             f"(pid {entry.task.pid}); use an address")
        return entry.table

    # -- listing --------------------------------------------------------------------------

    def list(self, pid: int, kind: str = "all") -> dict[str, Any]:
        """`symbols.list`: kind is "all", "functions" (code labels) or "variables"; or
        "globals" / "locals", the C variables of a -g build with their `types` table."""
        if kind not in ("all", "functions", "variables", "globals", "locals"):
            raise DebugError(E.BAD_ARGUMENT, "type must be all, functions, variables, "
                             f"globals or locals, not {kind!r}")
        entry = self.get(pid)
        table = entry.table
        if kind in ("globals", "locals"):
            records = (table.globals if kind == "globals" else table.locals) if table else []
            listed = [{k: (dict(v) if isinstance(v, dict) else v)
                       for k, v in r.__dict__.items()} for r in records]
            return {"pid": pid, "type": kind, "count": len(listed), "symbols": listed,
                    "types": [dict(t) for t in table.types] if table else [],
                    "warnings": list(entry.warnings)}
        symbols = []
        if table is not None:
            chosen = (table.functions if kind == "functions" else table.variables
                      if kind == "variables" else table.functions + table.variables)
            symbols = [_symbol_json(s) for s in chosen]
        return {"pid": pid, "type": kind, "count": len(symbols), "symbols": symbols,
                "warnings": list(entry.warnings)}

    def lookup(self, pid: int, key: int | str, space: str = "code") -> dict[str, Any]:
        """`symbols.lookup`: by name → the symbol; by address → what holds it."""
        entry = self.get(pid)
        if isinstance(key, str) and _parse_int(key.strip()) is None:
            table = self._table(entry)
            symbol = table.symbol(key.strip())
            if symbol is None:
                raise DebugError(E.UNKNOWN_SYMBOL, f"no symbol {key!r} in {entry.task.app_name}")
            return {"pid": pid, **_symbol_json(symbol)}
        addr = _parse_int(key.strip()) if isinstance(key, str) else key
        if not isinstance(addr, int) or isinstance(addr, bool) or space not in ("code", "data"):
            raise DebugError(E.BAD_ARGUMENT, "lookup needs a name, or an address in code or data space")
        out: dict[str, Any] = {"pid": pid, "address": addr, "space": space}
        if space == "code":
            out.update(self.describe(pid, addr))
        if entry.table is not None:
            found = entry.table.lookup_address(addr, space)
            if found is not None:
                out["label"], out["label_offset"] = found
        else:
            out["warnings"] = list(entry.warnings)
        return out


def code_place(code: CodeMap, table: SymbolTable | None, pc: int) -> dict[str, Any]:
    """`symbol`/`offset` (the function holding code address `pc`) and its `file`/`line`;
    keys are left out when unknown."""
    out: dict[str, Any] = {}
    function = code.function_at(pc)
    if function is not None and function.name is not None:
        out["symbol"], out["offset"] = function.name, pc - function.start
    line = table.line_for(pc) if table is not None else None
    if line is not None:
        out["file"], out["line"] = line.file, line.line
    return out


def code_hash(task: Task) -> str:
    """Identifies a build: its code and rodata."""
    return hashlib.sha256(task.image.code + task.image.rodata).hexdigest()[:32]


def _names_function_or_line(where: Where) -> bool:
    """Is `where` a source line or a bare symbol (no address, no offset)?"""
    if isinstance(where, tuple):
        return True
    if not isinstance(where, str):
        return False
    text = where.strip()
    if _parse_int(text) is not None:
        return False
    if _FILE_LINE.match(text):
        return True
    match = _SYMBOL_OFFSET.match(text)
    return match is not None and match.group(2) is None


def _parse_int(text: str) -> int | None:
    try:
        return int(text, 0)
    except ValueError:
        return None


def _symbol_json(symbol) -> dict[str, Any]:
    out = {"name": symbol.name, "address": symbol.address, "size": symbol.size,
           "section": symbol.section, "space": symbol.space, "scope": symbol.scope,
           "file": symbol.file, "line": symbol.line,
           "type": "function" if symbol.space == "code" else "variable"}
    if symbol.body is not None:
        out["body"] = symbol.body
    return out


def same_file(stored: str, wanted: str) -> bool:
    """File names match when equal or when one ends with the other at a path separator
    (as `SymbolTable.pcs_for_line` matches them)."""
    stored, wanted = stored.replace("\\", "/"), wanted.replace("\\", "/")
    return stored == wanted or stored.endswith("/" + wanted) or wanted.endswith("/" + stored)
