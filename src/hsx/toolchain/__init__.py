"""hsx.toolchain layer (DESIGN.md §1): MVASM assembler, linker and disassembler.

Library entry points live in `hsx.toolchain.build`; every failure is a
`ToolchainError` listing `file:line:col: message` diagnostics.
"""
from hsx.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".build": ("assemble_file", "assemble_source", "build_file", "build_source",
               "link_modules", "link_objects"),
    ".diagnostics": ("Diagnostic", "ToolchainError"),
})
