"""Debug facts of a compiled module (-g): where functions and globals are declared, the
C types, globals and locals a debugger shows.

Everything comes from the DWARF-like metadata clang puts in the IR, which `irtext`
parses into `MDNode`s (fields by name, `MDRef`s to other nodes).  Types become a table of
plain descriptions (see `hsx.image.sym`); a type reference is an index into it.

Locals are described only where the back end can say exactly where they live: a
`#dbg_declare` (or `llvm.dbg.declare`, or a `#dbg_assign` of the whole variable) of a
fixed-size alloca with an empty expression is a frame slot at a known offset below R14
for the whole function.  Values clang tracks with `#dbg_value` (promoted to registers at
-O1 and above) get the registers and spill slots the back end gave them, over the
instructions where those hold them (`debuglocs`), and `none` elsewhere.
"""
from __future__ import annotations

from .debuglocs import value_locals
from .irmeta import MDNode, MDRef
from .mir import MFunction
from .naming import symbol_name
from .ir import Function, Instr, Module

_QUALIFIERS = {"DW_TAG_const_type": "const", "DW_TAG_volatile_type": "volatile",
               "DW_TAG_restrict_type": "restrict", "DW_TAG_atomic_type": "atomic"}
_COMPOSITES = {"DW_TAG_structure_type": "struct", "DW_TAG_union_type": "union",
               "DW_TAG_class_type": "struct"}
_ENCODINGS = {"DW_ATE_signed": "signed", "DW_ATE_unsigned": "unsigned",
              "DW_ATE_signed_char": "signed_char", "DW_ATE_unsigned_char": "unsigned_char",
              "DW_ATE_float": "float", "DW_ATE_boolean": "boolean"}


class TypeTable:
    """C type descriptions from DI type nodes; `ref(node)` is the node's index (or None
    for `void`).  A node is entered before its parts, so recursive types terminate."""

    def __init__(self, metadata: dict) -> None:
        self.metadata = metadata
        self.types: list[dict] = []
        self._index: dict[int, int] = {}

    def node(self, value) -> MDNode | None:
        if isinstance(value, MDRef):
            return self.metadata.get(value.id)
        return value if isinstance(value, MDNode) else None

    def ref(self, value) -> int | None:
        node = self.node(value)
        if node is None:
            return None
        key = id(node)
        if key in self._index:
            return self._index[key]
        index = len(self.types)
        self._index[key] = index
        self.types.append({"kind": "unknown", "size": 0})
        self.types[index] = self._describe(node)
        return index

    def size_of(self, ref: int | None) -> int:
        return self.types[ref].get("size", 0) if ref is not None else 0

    def _describe(self, node: MDNode) -> dict:
        f = node.fields
        size = int(f.get("size") or 0) // 8
        name = f.get("name")
        if node.kind == "DIBasicType":
            return {"kind": "base", "name": name, "size": size,
                    "encoding": _ENCODINGS.get(f.get("encoding"), "unknown")}
        if node.kind == "DIDerivedType":
            tag = f.get("tag")
            base = self.ref(f.get("baseType"))
            if tag == "DW_TAG_pointer_type":
                return {"kind": "pointer", "size": size or 4, "pointee": base}
            if tag == "DW_TAG_typedef":
                return {"kind": "typedef", "name": name, "type": base,
                        "size": self.size_of(base)}
            if tag in _QUALIFIERS:
                return {"kind": _QUALIFIERS[tag], "type": base, "size": self.size_of(base)}
            return {"kind": "unknown", "name": name, "size": size}
        if node.kind == "DICompositeType":
            tag = f.get("tag")
            if tag in _COMPOSITES:
                return self._record(node, _COMPOSITES[tag], size)
            if tag == "DW_TAG_array_type":
                return self._array(node, size)
            if tag == "DW_TAG_enumeration_type":
                return {"kind": "enum", "name": name, "size": size,
                        "base": self.ref(f.get("baseType")),
                        "enumerators": [
                            {"name": e.fields.get("name"), "value": int(e.fields.get("value", 0))}
                            for e in self._elements(node) if e.kind == "DIEnumerator"]}
        if node.kind == "DISubroutineType":             # types: !{return type, args...}
            types = self.node(f.get("types"))
            returns = self.ref(types.items[0]) if types is not None and types.items else None
            return {"kind": "function", "size": 0, "returns": returns}
        return {"kind": "unknown", "name": name, "size": size}

    def _elements(self, node: MDNode) -> list[MDNode]:
        elements = self.node(node.fields.get("elements"))
        if elements is None:
            return []
        return [n for n in (self.node(item) for item in elements.items) if n is not None]

    def _record(self, node: MDNode, kind: str, size: int) -> dict:
        desc = {"kind": kind, "name": node.fields.get("name"), "size": size, "fields": []}
        for member in self._elements(node):
            if member.kind != "DIDerivedType" or member.fields.get("tag") != "DW_TAG_member":
                continue
            m = member.fields
            bits = int(m.get("offset") or 0)
            entry = {"name": m.get("name"), "type": self.ref(m.get("baseType")),
                     "offset": bits // 8}
            if "DIFlagBitField" in _flags(m.get("flags")):
                storage = int(m.get("extraData") or 0) if isinstance(m.get("extraData"), int) \
                    else bits - bits % 32
                entry.update(offset=storage // 8, bit_offset=bits - storage,
                             bit_size=int(m.get("size") or 0))
            desc["fields"].append(entry)
        return desc

    def _array(self, node: MDNode, size: int) -> dict:
        """`T a[N][M]` is an array of N arrays of M T, as in C."""
        counts = []
        for sub in self._elements(node):
            count = sub.fields.get("count") if sub.kind == "DISubrange" else None
            counts.append(count if isinstance(count, int) and count >= 0 else None)
        element = self.ref(node.fields.get("baseType"))
        for count in reversed(counts[1:]):
            inner = {"kind": "array", "element": element, "count": count,
                     "size": self.size_of(element) * count if count is not None else 0}
            self.types.append(inner)
            element = len(self.types) - 1
        count = counts[0] if counts else None
        return {"kind": "array", "element": element, "count": count,
                "size": size or (self.size_of(element) * count if count else 0)}


def _flags(value) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


class DebugCollector:
    def __init__(self, module: Module) -> None:
        self.module = module
        self.declarations: dict[str, tuple[str, int]] = {}
        self.types = TypeTable(module.metadata)
        self.globals: list[dict] = []
        self.locals: list[dict] = []
        self.bodies: list[dict] = []         # where each function's body begins
        self.functions: list[dict] = []      # each function's type (its return type)
        self._placing: tuple[Function, set[int]] | None = None

    def file_of(self, node: MDNode | None) -> str | None:
        return self.module.metadata.file_of(node)

    def function(self, fn: Function, mf: MFunction) -> None:
        slots = mf.debug.pop("alloca_slots", {})
        if fn.subprogram is not None:
            self.functions.append({"symbol": mf.symbol, "file": self.file_of(fn.subprogram),
                                   "type": self.types.ref(fn.subprogram.fields.get("type"))})
        seen = {id(var) for _, _, var, _, _ in fn.debug_records
                if self.subprogram_of(var) is not fn.subprogram}     # inlined callees' own
        for kind, value, var, expr, _ in fn.debug_records:
            if kind not in ("dbg_declare", "declare") or var.kind != "DILocalVariable":
                continue
            slot = slots.get(value) if isinstance(value, Instr) else None
            if slot is None or slot.offset is None or expr or id(var) in seen:
                continue                            # not a fixed frame slot: omitted
            seen.add(id(var))
            self.locals.append({"function": mf.symbol, **self.describe(var),
                                "location": {"kind": "frame", "offset": -slot.offset}})
        self._placing = (fn, seen)

    def subprogram_of(self, var: MDNode) -> MDNode | None:
        """The function a variable belongs to (through its lexical blocks)."""
        node, seen = self.types.node(var.fields.get("scope")), 0
        while node is not None and node.kind != "DISubprogram" and seen < 64:
            node, seen = self.types.node(node.fields.get("scope")), seen + 1
        return node

    def describe(self, var: MDNode) -> dict:
        """Name, type, file, line (and parameter number) of a DILocalVariable."""
        f = var.fields
        entry = {"name": f.get("name"), "type": self.types.ref(f.get("type")),
                 "file": self.file_of(var), "line": f.get("line")}
        if isinstance(f.get("arg"), int):
            entry["arg"] = f["arg"]
        return entry

    def placed(self, mf: MFunction, start: int, end: int) -> None:
        """The function's code is lines [start, end) of the listing: place the variables
        clang tracks by value and where its body begins (`lines` ranges, turned into
        code offsets after assembly)."""
        if self._placing is None:
            return
        fn, seen = self._placing
        self._placing = None
        self.locals.extend(value_locals(fn, mf, start, end, seen, self.describe))
        body = mf.debug.get("body")
        if body is not None:
            self.bodies.append({"function": mf.symbol, "static": fn.local,
                                "file": fn.loc.file if fn.loc is not None else None,
                                "lines": [body, body]})

    def finish(self) -> dict:
        for g in self.module.globals:
            if g.init is None:
                continue
            for node in g.debug:
                var = self.types.node(node.fields.get("var")) \
                    if node.kind == "DIGlobalVariableExpression" else node
                if var is None or var.kind != "DIGlobalVariable" or not var.fields.get("name"):
                    continue                        # (a string literal has no name)
                expr = self.types.node(node.fields.get("expr"))
                if expr is not None and expr.fields:
                    continue                        # a piece of the variable: omitted
                symbol = symbol_name(g.name)
                file, line = self.file_of(var), var.fields.get("line")
                if file and line:
                    self.declarations.setdefault(symbol, (file, int(line)))
                self.globals.append({"name": var.fields["name"],
                                     "symbol": symbol, "static": g.local,
                                     "type": self.types.ref(var.fields.get("type")),
                                     "file": file, "line": line})
        return {"declarations": self.declarations, "types": self.types.types,
                "globals": self.globals, "locals": self.locals, "bodies": self.bodies,
                "functions": self.functions}
