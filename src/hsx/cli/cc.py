"""`hsx cc SRC.c … -o OUT.hxe [-O0|-O1|-O2|-Os|-Oz] [-g] [-I DIR] [-D NAME[=V]] [-S] [-c]
[--stack-size N] [--memory N]`.

Sources are C (`.c`) files, and MVASM (`.mvasm`) files linked in with them; anything
else is refused before anything is built.  Problems go to stderr and the command exits
with status 1: clang's diagnostics as clang wrote them (`file:line:col`, the source line
and caret, every one of them), the back end's as `file:line: message`.  clang's warnings
are shown too, and the build goes on.

`compiler_options` and `cc_options` are shared with `hsx run`, which builds a `.c` with
the same options.
"""
from __future__ import annotations

from contextlib import closing
from pathlib import Path

import click

from .errors import cannot_write, input_file
from .sizes import task_size_options, with_task_sizes

OPT_LEVELS = ("0", "1", "2", "3", "s", "z")
SOURCES = (".c", ".mvasm")


def compiler_options(default_opt: str):
    """The options `hsx cc` and `hsx run` give the C compiler: -O, -g, -I, -D."""
    def decorate(command):
        for option in reversed((
            click.option("-O", "opt", type=click.Choice(OPT_LEVELS), default=default_opt,
                         show_default=True, metavar="LEVEL",
                         help="Optimisation: -O0, -O1, -O2 (-O3 is taken as -O2), "
                              "-Os or -Oz (small code)."),
            click.option("-g", "debug", is_flag=True,
                         help="Debug info in the .sym: the C line of every instruction, "
                              "types, globals and locals."),
            click.option("-I", "include_dirs", multiple=True, metavar="DIR",
                         help="Add an include directory (repeatable)."),
            click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]",
                         help="Define a macro (repeatable)."),
        )):
            command = option(command)
        return command
    return decorate


def cc_options(opt: str, debug: bool, include_dirs, defines, **more):
    """The compiler's `Options` for the command-line values."""
    from hsx.toolchain.cc.driver import Options
    level: int | str = min(int(opt), 2) if opt.isdigit() else opt
    return Options(opt=level, debug=debug, include_dirs=tuple(include_dirs),
                   defines=tuple(defines), **more)


def print_warnings(units) -> None:
    for unit in units:
        for warning in unit.warnings:
            click.echo(warning, err=True)


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
        raise cannot_write(path, exc) from None


@click.command("cc")
@click.argument("sources", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file (default: first source with .hxe, .mvasm or .hxo).")
@compiler_options(default_opt="0")
@click.option("-S", "emit_asm", is_flag=True, help="Stop after code generation: write MVASM.")
@click.option("-c", "emit_object", is_flag=True, help="Stop after assembly: write .hxo.")
@click.option("--clang", "clang", metavar="PATH", envvar="HSX_CLANG",
              help="Use this clang instead of the bundled one (also $HSX_CLANG).")
@click.option("--soft-float", is_flag=True,
              help="float, double and 64-bit division through the C library instead of the "
                   "VM's instructions (for a VM without them; same results).")
@click.option("--gc-sections/--no-gc-sections", "gc_sections", default=None,
              help="Leave out the functions and variables nothing reachable from main "
                   "uses, as ld's --gc-sections does, or link them all (default: leave "
                   "them out, but keep them all with -g, for the debugger).")
@click.option("--compact/--no-compact", default=None,
              help="Pack adjacent short instructions two to a code word (docs/isa.md, "
                   "\"Compact pairs\"; about a quarter less code), or one instruction a "
                   "word, the program and the C library alike (default: pack at -Os "
                   "and -Oz, where size is asked for).")
@click.option("--far-addresses", is_flag=True,
              help="Load the addresses of functions and variables in two words, reaching "
                   "the whole address space, instead of one (LDI20: below 512 KiB). "
                   "hsx cc switches to it by itself when a program needs it; give it "
                   "for objects (-c) that go into such a program.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Compile up to N C files at once (default: one per CPU; Linux).")
@task_size_options
def cc_command(sources: tuple[Path, ...], output: Path | None, opt: str, debug: bool,
               include_dirs: tuple[str, ...], defines: tuple[str, ...], emit_asm: bool,
               emit_object: bool, clang: str | None, soft_float: bool,
               gc_sections: bool | None, compact: bool | None, far_addresses: bool,
               jobs: int | None, stack_size: int | None, memory: int | None) -> None:
    """Compile C files (and link MVASM files with them) to an HSX image: crt0, the
    program and the parts of the C library it uses."""
    from hsx.toolchain.cc.driver import build_c, compile_sources
    from hsx.toolchain.diagnostics import ToolchainError

    for source in sources:
        input_file(source, SOURCES, "a C or MVASM source",
                   "hsx cc compiles .c files and links .mvasm files with them")
    options = cc_options(opt, debug, include_dirs, defines, clang=clang,
                         soft_float=soft_float, gc_sections=gc_sections, jobs=jobs,
                         compact=compact, far_addresses=far_addresses)
    if (emit_asm or emit_object) and output is not None and len(sources) > 1:
        _fail(["hsx: -o with -S or -c needs exactly one source file"])
    if emit_asm and any(s.suffix.lower() == ".mvasm" for s in sources):
        _fail(["hsx: -S writes the MVASM of C files; an .mvasm file already is MVASM"])
    try:
        if emit_asm or emit_object:
            # closed at once if a write fails: no compiling on of files nobody wants
            with closing(compile_sources([str(s) for s in sources], options)) as units:
                for source, unit in zip(sources, units):
                    from hsx.image.hxo import write_hxo      # (after clang has started)
                    print_warnings([unit])
                    out = output or source.with_suffix(".mvasm" if emit_asm else ".hxo")
                    _write(out, unit.mvasm if emit_asm else write_hxo(unit.module))
            return
        from hsx.image.hxe import normalize_app_name
        out = output or sources[0].with_suffix(".hxe")
        result, units = build_c([str(s) for s in sources], options,
                                normalize_app_name(out.stem))
    except ToolchainError as exc:
        _fail([str(d) for d in exc.diagnostics])
        return
    print_warnings(units)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    from hsx.image.hxe import write_hxe
    from hsx.image.sym import write_sym
    _write(out, write_hxe(with_task_sizes(result.image, stack_size, memory)))
    _write(out.with_suffix(".sym"), write_sym(result.symbols))
