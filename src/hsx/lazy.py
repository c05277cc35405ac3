"""Package namespaces whose names are imported on first use (PEP 562).

A package `__init__` that imported all of its modules to re-export their names made
every `from hsx.debug.code import …` pay for the whole package (running `__init__`
comes first): `hsx run` loaded the debugger, `hsx cc` the kernel.  Such a package
now declares its names with `lazy_exports`, and the module defining one is imported
when the name is first used (`from hsx.toolchain import build_file` works as before).
"""
from __future__ import annotations

import importlib
import sys
from typing import Any, Callable


def lazy_exports(package: str, exports: dict[str, tuple[str, ...]]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """`__getattr__`, `__dir__` and `__all__` for `package`, whose public names are
    `exports`: the relative module that defines them -> their names."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)      # found directly from now on
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__, sorted(where)
