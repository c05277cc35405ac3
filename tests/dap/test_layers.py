"""The adapter is a front end: it reaches the executive only through hsx.client (and
the protocol), never the kernel, debugger or server, nor another front end."""
from __future__ import annotations

import ast
from pathlib import Path

DAP = Path(__file__).parents[2] / "src" / "hsx" / "dap"


def test_the_adapter_imports_only_the_client():
    wrong = []
    for path in DAP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and not node.level
                     and node.module else [])
            wrong += [f"{path.relative_to(DAP)}: {name}" for name in names
                      if name.startswith("hsx") and name.split(".")[1:2] not in (["client"],
                                                                                 ["dap"])]
    assert wrong == []
