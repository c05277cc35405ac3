"""`hsx cc SRC.c … -o OUT.hxe [-O0|-O1|-O2] [-g] [-I DIR] [-D NAME[=V]] [-S] [-c]`.

Problems are printed one per line on stderr (clang's diagnostics as clang wrote them,
the back end's as `file:line: message`) and the command exits with status 1.
"""
from __future__ import annotations

from pathlib import Path

import click

from hsx.image.hxe import normalize_app_name, write_hxe
from hsx.image.hxo import write_hxo
from hsx.image.sym import write_sym
from hsx.toolchain.diagnostics import ToolchainError


def _fail(lines: list[str]) -> None:
    for line in lines:
        click.echo(line, err=True)
    raise SystemExit(1)


def _write(path: Path, data: bytes | str) -> None:
    try:
        if isinstance(data, str):
            path.write_text(data)
        else:
            path.write_bytes(data)
    except OSError as exc:
        _fail([f"hsx: cannot write {path}: {exc.strerror or exc}"])


@click.command("cc")
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file (default: first source with .hxe, .mvasm or .hxo).")
@click.option("-O", "opt", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Optimisation level given to clang (-O0 .. -O2; -O3 is taken as -O2).")
@click.option("-g", "debug", is_flag=True, help="Debug info: C line table, locals, "
              "globals in the .sym, and sources.json.")
@click.option("-I", "include_dirs", multiple=True, help="Add an include directory.")
@click.option("-D", "defines", multiple=True, help="Define a macro (NAME or NAME=VALUE).")
@click.option("-S", "emit_asm", is_flag=True, help="Stop after code generation: write MVASM.")
@click.option("-c", "emit_object", is_flag=True, help="Stop after assembly: write .hxo.")
@click.option("--clang", "clang", metavar="PATH", envvar="HSX_CLANG",
              help="Use this clang instead of the bundled one (also $HSX_CLANG).")
@click.option("--soft-float", is_flag=True,
              help="float, double and 64-bit division through the C library instead of the "
                   "VM's instructions (for a VM without them; same results).")
def cc_command(sources: tuple[Path, ...], output: Path | None, opt: int, debug: bool,
               include_dirs: tuple[str, ...], defines: tuple[str, ...], emit_asm: bool,
               emit_object: bool, clang: str | None, soft_float: bool) -> None:
    """Compile C files to an HSX image (linked with crt0 and the C library)."""
    from hsx.toolchain.cc.driver import Options, build_c, compile_c_file, sources_json

    options = Options(opt=min(opt, 2), debug=debug, include_dirs=include_dirs,
                      defines=defines, clang=clang, soft_float=soft_float)
    if (emit_asm or emit_object) and output is not None and len(sources) > 1:
        _fail(["hsx: -o with -S or -c needs exactly one source file"])
    try:
        if emit_asm or emit_object:
            for source in sources:
                unit = compile_c_file(str(source), options)
                suffix = ".mvasm" if emit_asm else ".hxo"
                out = output or source.with_suffix(suffix)
                _write(out, unit.mvasm if emit_asm else write_hxo(unit.module))
            return
        out = output or sources[0].with_suffix(".hxe")
        result, units = build_c([str(s) for s in sources], options,
                                normalize_app_name(out.stem))
    except ToolchainError as exc:
        _fail([str(d) for d in exc.diagnostics])
        return
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    _write(out, write_hxe(result.image))
    _write(out.with_suffix(".sym"), write_sym(result.symbols))
    if debug:
        _write(out.parent / "sources.json", sources_json(units))
