"""hsx.kernel layer (DESIGN.md §1)."""
