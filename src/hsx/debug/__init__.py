"""hsx.debug layer (DESIGN.md §1)."""
