"""`hsx asm`, `hsx link` and `hsx disasm`.

Problems are printed one per line on stderr as `file:line:col: message` (or
`module: message`) and the command exits with status 1; no tracebacks.  An input file
that is missing or not a file is reported like every `hsx` command does (`errors`), with
status 2.
"""
from __future__ import annotations

from pathlib import Path

import click

from hsx.image.errors import ImageError
from hsx.image.hxe import normalize_app_name, read_hxe_file, write_hxe
from hsx.image.hxo import ObjectFileError, load_hxo, write_hxo
from hsx.image.sym import SymbolFileError, load_sym, write_sym
from hsx.toolchain.build import assemble_file, link_modules
from hsx.toolchain.diagnostics import ToolchainError
from hsx.toolchain.disassembler import listing, to_mvasm

from .errors import EXIT_FAILED, cannot_write, fail, input_file
from .sizes import task_size_options, with_task_sizes


def _fail(lines: list[str]) -> None:
    for line in lines:
        click.echo(line, err=True)
    raise SystemExit(1)


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise cannot_write(path, exc) from None


def _link_and_write(modules, out: Path, sym: Path | None, *, entry: str | None,
                    app_name: str | None, single_instance: bool, req_cap: int,
                    stack_size: int | None = None, memory: int | None = None,
                    gc_sections: bool = False) -> None:
    result = link_modules(modules, entry=entry,
                          app_name=app_name or normalize_app_name(out.stem),
                          allow_multiple=not single_instance, req_caps=req_cap,
                          gc_sections=gc_sections)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    _write(out, write_hxe(with_task_sizes(result.image, stack_size, memory)))
    _write(sym or out.with_suffix(".sym"), write_sym(result.symbols))


def _run(action) -> None:
    """Run `action`, turning every expected failure into messages and exit status 1."""
    try:
        action()
    except ToolchainError as exc:
        _fail([str(d) for d in exc.diagnostics])
    except (ImageError, ObjectFileError, SymbolFileError) as exc:
        _fail([f"hsx: {exc}"])


def _object(path: Path):
    try:
        return load_hxo(path)
    except ObjectFileError as exc:
        why = str(exc).removeprefix(f"{path}: ")
        if why.startswith("not a JSON object file"):
            why = "not an object file (.hxo)"
        fail(str(path), why,
             "hsx link takes .hxo object files, made by `hsx asm` (or `hsx cc -c`)", EXIT_FAILED)


@click.command("asm")
@click.argument("source", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="OUT.hxo (default: SOURCE with .hxo), or OUT.hxe to link as well.")
@click.option("-I", "--include-dir", "include_dirs", multiple=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Also look for .include files here (after the including file's directory).")
def asm_command(source: Path, output: Path | None, include_dirs: tuple[Path, ...]) -> None:
    """Assemble an MVASM file to an object (.hxo) or a linked image (.hxe + .sym)."""
    out = output or source.with_suffix(".hxo")
    input_file(source)

    def action() -> None:
        module = assemble_file(source, [str(d) for d in include_dirs])
        if out.suffix.lower() == ".hxe":
            _link_and_write([module], out, None, entry=None, app_name=None,
                            single_instance=False, req_cap=0)
        else:
            _write(out, write_hxo(module))

    _run(action)


@click.command("link")
@click.argument("objects", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The image to write (.hxe).")
@click.option("--sym", type=click.Path(dir_okay=False, path_type=Path),
              help="Symbol file to write (default: OUTPUT with .sym).")
@click.option("--app-name", help="Name stored in the image (default: OUTPUT's stem).")
@click.option("--single-instance", is_flag=True, help="Refuse to load the app twice.")
@click.option("--entry", help="Start at this symbol (default: _start, else the first .entry).")
@click.option("--req-cap", default="0", metavar="N",
              help="Capability mask written to the header (decimal or 0x…).")
@click.option("--gc-sections", is_flag=True,
              help="Leave out the functions and data of `hsx cc -c` objects that nothing "
                   "reachable from the entry point uses (.mvasm objects stay whole).")
@task_size_options
def link_command(objects: tuple[Path, ...], output: Path, sym: Path | None,
                 app_name: str | None, single_instance: bool, entry: str | None,
                 req_cap: str, gc_sections: bool, stack_size: int | None,
                 memory: int | None) -> None:
    """Link .hxo objects, in the order given, into an .hxe image and its .sym file."""
    try:
        caps = int(req_cap, 0)
    except ValueError:
        raise click.BadParameter(f"not an integer: {req_cap!r}", param_hint="--req-cap")
    for path in objects:
        input_file(path)

    def action() -> None:
        modules = [_object(path) for path in objects]
        _link_and_write(modules, output, sym, entry=entry, app_name=app_name,
                        single_instance=single_instance, req_cap=caps, stack_size=stack_size,
                        memory=memory, gc_sections=gc_sections)

    _run(action)


@click.command("disasm")
@click.argument("image", type=click.Path(path_type=Path))
@click.option("--sym", type=click.Path(dir_okay=False, path_type=Path),
              help="Symbol file (default: IMAGE with .sym, if it exists).")
@click.option("--mvasm", is_flag=True, help="Print MVASM that reassembles to the same image.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of stdout.")
def disasm_command(image: Path, sym: Path | None, mvasm: bool, output: Path | None) -> None:
    """List an .hxe image (v1 or v2): addresses, words, instructions and symbols."""
    input_file(image)

    def action() -> None:
        try:
            hxe = read_hxe_file(image)
        except ImageError as exc:
            fail(str(image), f"not an HXE image: {exc.message}",
                 "hsx disasm lists .hxe images; `hsx asm -o X.hxe` or `hsx cc` make one",
                 EXIT_FAILED)
        sym_path = sym or image.with_suffix(".sym")
        symbols = load_sym(sym_path) if sym or sym_path.is_file() else None
        text = (to_mvasm if mvasm else listing)(hxe, symbols, image.name)
        if output:
            _write(output, text.encode("utf-8"))
        else:
            click.echo(text, nl=False)

    _run(action)
