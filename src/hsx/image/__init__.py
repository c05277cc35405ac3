"""hsx.image layer (DESIGN.md §1)."""
