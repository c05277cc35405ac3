"""The native engine: the C core of port/c/ behind the Machine interface (docs/port.md)."""
