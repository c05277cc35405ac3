"""Calls and the ABI (docs/abi.md): argument words in R1..R5, the rest in the
outgoing area at SP, results in R0 (R1).  The register allocator sees argument and
result registers as physical registers with short fixed live ranges, so argument set-up
can never clobber a value still needed (no sequential-move hazard).  Also the
function's entry (incoming arguments), runtime-library calls and by-value copies."""
from __future__ import annotations

from ..irtext import CGlobal
from ..mir import ARG_REGS, CALLER_SAVED, FP, R, SP, PReg, VReg
from ..naming import symbol_name
from ..ir import Const, Instr, Value
from ..types import FloatT, FuncT, Type, VoidT
from .core import SelectorBase

class ArgLocation:
    """Where one argument travels: registers (a list) or a stack offset."""

    def __init__(self, regs: list[PReg] | None = None, stack: int | None = None) -> None:
        self.regs = regs
        self.stack = stack


def assign_arguments(word_counts: list[int], aligns: list[int], fixed: int
                     ) -> tuple[list[ArgLocation], int, int]:
    """The ABI's argument placement (docs/abi.md).

    Fixed arguments take R1..R5 in order while they fit (a 64-bit one needs two
    consecutive registers); once one goes to the stack all later ones do.  Variadic
    arguments always go to the stack, each at its natural alignment.  Returns the
    locations, the bytes of fixed stack arguments and the total stack bytes."""
    locations = []
    next_reg = 0
    on_stack = False
    offset = 0
    fixed_bytes = 0
    for index, (words, align) in enumerate(zip(word_counts, aligns)):
        variadic = index >= fixed
        if not variadic and not on_stack and next_reg + words <= len(ARG_REGS):
            locations.append(ArgLocation(regs=list(ARG_REGS[next_reg:next_reg + words])))
            next_reg += words
            continue
        if not variadic:
            on_stack = True
        offset = (offset + align - 1) // align * align
        locations.append(ArgLocation(stack=offset))
        offset += 4 * words
        if not variadic:
            fixed_bytes = offset
    return locations, fixed_bytes, offset


PRINTF_FLOAT = "__hsx_printf_float"



class CallOps(SelectorBase):
    """The function's entry, `call`, runtime-library calls."""

    def _entry(self) -> None:
        fn = self.fn
        counts = [self.words(p.ty) for p in fn.params]
        aligns = [self.arg_align(p.ty) for p in fn.params]
        locations, fixed_bytes, _ = assign_arguments(counts, aligns, len(fn.params))
        self.mf.incoming_stack = fixed_bytes
        in_regs = [r for loc in locations if loc.regs for r in loc.regs]
        self.emit("entry", in_regs, [])
        for param, loc in zip(fn.params, locations):
            if loc.regs:
                regs = [self.new() for _ in loc.regs]
                arrived = []                    # -g: in its argument register until the copy
                for d, s in zip(regs, loc.regs):
                    self.mov(d, s)
                    arrived.append((s.n, self.cur.insts[-1]))
                self.mf.debug.setdefault("arrivals", {})[param] = arrived
            else:
                regs = []
                for k in range(counts[param.index]):
                    d = self.new()
                    self.emit("load", [d], [FP], ("LD", 8 + loc.stack + 4 * k, None))
                    regs.append(d)
            self.vals[param] = regs

    # -- calls --------------------------------------------------------------------------

    def libcall(self, name: str, args: list, ret_words: int) -> list:
        """Call a runtime routine with 32-bit argument words; returns the result words."""
        return self.call_words(("sym", name), [[a] for a in args], [4] * len(args),
                               len(args), ret_words)

    def call_words(self, callee, arg_words: list[list], aligns: list[int], fixed: int,
                   ret_words: int) -> list:
        locations, _, stack = assign_arguments([len(w) for w in arg_words], aligns, fixed)
        self.mf.outgoing = max(self.mf.outgoing, stack)
        for words, loc in zip(arg_words, locations):
            if loc.stack is not None:
                for k, r in enumerate(words):
                    self.emit("store", [], [r, SP], ("ST", loc.stack + 4 * k, None))
        used = []
        for words, loc in zip(arg_words, locations):
            if loc.regs:
                for preg, r in zip(loc.regs, words):
                    self.mov(preg, r)
                    used.append(preg)
        results = list(R[0:ret_words])
        if callee[0] == "sym":
            self.emit("call", results, used, (callee[1],), clobbers=CALLER_SAVED)
        else:
            self.emit("callr", results, [callee[1]] + used, (), clobbers=CALLER_SAVED)
        out = []
        for preg in results:
            d = self.new()
            self.mov(d, preg)
            out.append(d)
        return out

    def op_call(self, i: Instr) -> None:
        callee = i.ops[-1]
        args = i.ops[:-1]
        if i.asm is not None:
            self._inline_asm(i, args)
            return
        name = callee.c.name if isinstance(callee, Const) and isinstance(callee.c, CGlobal) \
            else None
        if name is not None and name.startswith("llvm."):
            self._intrinsic(i, name, args)
            return
        fn_ty: FuncT = i.fn_ty
        if fn_ty.vararg and any(isinstance(a.ty, FloatT) for a in args[len(fn_ty.params):]):
            # like MSVC's _fltused: only programs that can print floating point link
            # printf's %f/%e/%g code (lib/src/printf_float.c) and its soft double
            self.mf.imports.add(PRINTF_FLOAT)
        arg_words = []
        aligns = []
        for k, arg in enumerate(args):
            attrs = i.arg_attrs[k] if k < len(i.arg_attrs) else {}
            byval = attrs.get("byval")
            if byval is not None:
                arg_words.append([self._byval_copy(arg, byval, attrs.get("align", 4))])
                aligns.append(4)
                continue
            arg_words.append(self.get(arg))
            aligns.append(self.arg_align(arg.ty))
        ret_words = 0 if isinstance(i.ty, VoidT) else self.words(i.ty)
        if ret_words > 2:
            raise self.error("calls returning more than 64 bits in registers are not "
                             "supported", i)
        if name is not None:
            target = ("sym", symbol_name(self._resolve_alias(name)))
        else:
            target = ("reg", self.get1(callee))
        out = self.call_words(target, arg_words, aligns, len(fn_ty.params), ret_words)
        if ret_words:
            self.define(i, out)

    def _resolve_alias(self, name: str) -> str:
        seen = 0
        while name in self.module.aliases and seen < 16:
            target = self.module.aliases[name]
            if not isinstance(target, CGlobal):
                break
            name = target.name
            seen += 1
        return name

    def _byval_copy(self, arg: Value, ty: Type, align: int) -> VReg:
        """A by-value aggregate argument: copy it to a fresh frame slot, pass its address."""
        size = self.layout.size(ty)
        slot = self.mf.slot(size, max(4, min(align, 8)), name="byval")
        dst = self.new()
        self.emit("frameaddr", [dst], [], (slot, 0))
        self.copy_memory(dst, self.get1(arg), size)
        d = self.new()
        self.emit("frameaddr", [d], [], (slot, 0))
        return d

    def copy_memory(self, dst, src, size: int) -> None:
        """memcpy with a constant size: inline loads and stores when short (the VM allows
        unaligned accesses), else a call."""
        if size > 32:
            self.libcall("memcpy", [dst, src, self.li(size)], 1)
            return
        off = 0
        for width, load, store in ((4, "LD", "ST"), (2, "LDH", "STH"), (1, "LDB", "STB")):
            while size - off >= width:
                t = self.new()
                self.emit("load", [t], [src], (load, off, None))
                self.emit("store", [], [t, dst], (store, off, None))
                off += width
