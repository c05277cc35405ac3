"""The C compiler back end (clang -> LLVM IR -> MVASM), see docs/c-compiler.md.

    reader    LLVM IR text into ir.py objects: irtext (tokens,
              types, constants), instructions (bodies), irmeta (metadata)
    isel      instruction selection to machine IR over virtual registers (a package,
              one module per concern)
    regalloc  linear-scan register allocation with spilling
    frame     frame layout, prologue and epilogue (docs/abi.md)
    emit      MVASM text
    driver    clang, the runtime library, linking; `build_c_file` for `hsx run`
"""
from hsx.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".driver": ("Options", "build_c", "build_c_file", "compile_c_file"),
})
