"""hsx.server layer (DESIGN.md §1)."""
