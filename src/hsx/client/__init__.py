"""hsx.client layer (DESIGN.md §1)."""
