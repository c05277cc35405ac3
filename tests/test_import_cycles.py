"""The layers import downward only and no module imports itself through others: the
handlers/dispatcher and the executive/syscall cycles the developers' guide names stay
broken.  Imports under `if TYPE_CHECKING:` are for type checkers only and do not count."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(path: Path, name: str, modules: set[str]) -> set[str]:
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
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


def import_graph(package: str) -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in (SRC / "hsx").rglob("*.py")}
    modules = set(paths)
    return {name: _runtime_imports(path, name, modules) for name, path in paths.items()
            if name.startswith(package)}


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
    graph = {k: {m for m in v if m.startswith(package) and m != package}
             for k, v in import_graph(package).items()}
    assert cycles(graph) == []
