"""hsx.toolchain layer (DESIGN.md §1)."""
