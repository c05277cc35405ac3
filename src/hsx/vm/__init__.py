"""hsx.vm layer (DESIGN.md §1)."""
