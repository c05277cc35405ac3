"""Library entry points: MVASM text or files to objects, objects to images.

Everything raises `ToolchainError` (its `diagnostics` list every problem, each with
`file:line:col` where known).  Typical use in tests::

    image = build_source('''
        .entry main
    main:  LDI R0, 7
           RET
    ''')
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from .assembler import Assembler
from .diagnostics import DiagnosticSink, TooManyErrors
from .parser import Parser, SourceLine, Statement

if TYPE_CHECKING:           # (the linker and image formats: loaded when linking)
    from hsx.image.hxo import ObjectModule
    from hsx.image.model import HxeImage
    from hsx.image.sym import SymbolTable

    from .linker import LinkResult


def assemble_source(text: str, filename: str = "<source>",
                    include_dirs: Iterable[str] = ()) -> ObjectModule:
    """Assemble MVASM `text`; `filename` names it in messages and anchors `.include`."""
    return _assemble(filename, include_dirs, lambda parser: parser.parse_text(text, filename))


def assemble_statements(statements: Iterable[Statement | SourceLine],
                        filename: str, function_sections: bool = False) -> ObjectModule:
    """Assemble statements a compiler built (each carrying its own location), with
    `SourceLine`s among them parsed in place; `filename` names the unit in messages.
    `function_sections`: every function and data object an atom the linker may drop
    (hsx.toolchain.gc)."""
    sink = DiagnosticSink()
    parser = Parser(sink)
    flat: list[Statement] = []
    try:
        for statement in statements:
            if isinstance(statement, SourceLine):
                flat.extend(parser.parse_line(statement.text, statement.loc.file,
                                              statement.loc.line))
            else:
                flat.append(statement)
    except TooManyErrors:
        flat = []
    return Assembler(sink, filename, function_sections).assemble(flat)


def assemble_file(path: str | os.PathLike, include_dirs: Iterable[str] = ()) -> ObjectModule:
    path = os.fspath(path)
    return _assemble(path, include_dirs, lambda parser: parser.parse_file(path))


def _assemble(filename: str, include_dirs: Iterable[str],
              parse: Callable[[Parser], list[Statement]]) -> ObjectModule:
    sink = DiagnosticSink()
    try:
        statements = parse(Parser(sink, tuple(include_dirs)))
    except TooManyErrors:
        statements = []
    return Assembler(sink, filename).assemble(statements)


def link_modules(objects: Sequence[ObjectModule], *, entry: str | None = None,
                 app_name: str | None = None, allow_multiple: bool = True,
                 req_caps: int = 0, gc_sections: bool = False) -> LinkResult:
    """Link and also return the linker's warnings (see `LinkResult`)."""
    from .linker import LinkOptions, link
    return link(objects, LinkOptions(entry, app_name, allow_multiple, req_caps,
                                     gc_sections=gc_sections))


def link_objects(objects: Sequence[ObjectModule], *, entry: str | None = None,
                 app_name: str | None = None, allow_multiple: bool = True,
                 req_caps: int = 0) -> tuple[HxeImage, SymbolTable]:
    result = link_modules(objects, entry=entry, app_name=app_name,
                          allow_multiple=allow_multiple, req_caps=req_caps)
    return result.image, result.symbols


def build_source(text: str, filename: str = "<source>", include_dirs: Iterable[str] = (),
                 app_name: str | None = None) -> HxeImage:
    """Assemble and link one MVASM program held in a string."""
    return link_objects([assemble_source(text, filename, include_dirs)], app_name=app_name)[0]


def build_file(path: str | os.PathLike, include_dirs: Iterable[str] = ()) -> HxeImage:
    """Assemble and link one `.mvasm` file in memory (`hsx run prog.mvasm`).

    The app name is the file's stem, as when linking to `<stem>.hxe`."""
    from hsx.image.hxe import normalize_app_name
    module = assemble_file(path, include_dirs)
    stem = os.path.splitext(os.path.basename(os.fspath(path)))[0]
    return link_objects([module], app_name=normalize_app_name(stem))[0]
