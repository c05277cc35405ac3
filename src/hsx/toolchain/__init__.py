"""hsx.toolchain layer (DESIGN.md §1): MVASM assembler, linker and disassembler.

Library entry points live in `hsx.toolchain.build`; every failure is a
`ToolchainError` listing `file:line:col: message` diagnostics.
"""
from .build import (assemble_file, assemble_source, build_file, build_source, link_modules,
                    link_objects)
from .diagnostics import Diagnostic, ToolchainError

__all__ = ["Diagnostic", "ToolchainError", "assemble_file", "assemble_source", "build_file",
           "build_source", "link_modules", "link_objects"]
