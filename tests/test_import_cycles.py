"""The layers import downward only and no module imports itself through others: the
handlers/dispatcher and the executive/syscall cycles the developers' guide names stay
broken.  Imports under `if TYPE_CHECKING:` are checked too, separately: a cycle there is still a
module that knows the one that builds it."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str, modules: set[str], typing: bool) -> set[str]:
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if (not typing and isinstance(child, ast.If)
                    and "TYPE_CHECKING" in ast.unparse(child.test)):
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - child.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in child.names)
            visit(child)

    visit(tree)
    return {m for m in found if m in modules and m != name}


def import_graph(package: str, typing: bool = False) -> dict[str, set[str]]:
    """Who imports whom inside `package` (with `typing`, imports for type checkers too)."""
    paths = {_module_name(p): p for p in (SRC / "hsx").rglob("*.py")}
    modules = set(paths)
    return {name: {m for m in _imports(path, name, modules, typing)
                   if m.startswith(package) and m != package}
            for name, path in paths.items() if name.startswith(package)}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, state = [], {}

    def walk(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append(trail[trail.index(nxt):] + [nxt])
            elif nxt not in state:
                walk(nxt, trail + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            walk(node, [node])
    return found


@pytest.mark.parametrize("package", ["hsx.server", "hsx.kernel"])
def test_no_import_cycles(package):
    assert cycles(import_graph(package)) == []


@pytest.mark.parametrize("package", ["hsx.kernel", "hsx.server"])
def test_no_cycles_even_for_type_checkers(package):
    """The parts the executive (or the server) builds do not name it even in annotations:
    they are given the interface they need (`kernel/services.py`, `server/context.py`)."""
    assert cycles(import_graph(package, typing=True)) == []
