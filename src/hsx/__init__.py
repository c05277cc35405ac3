"""HSX: a portable runtime, executive, debugger and toolchain for embedded applications."""

__version__ = "0.1.0"
