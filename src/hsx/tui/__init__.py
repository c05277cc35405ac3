"""hsx.tui: `hsx dbg`, the full-screen terminal debugger (a Textual application).

It talks to the executive only through `hsx.client` and the protocol (docs/protocol.md):
`target.Target` holds the connection and the attached task, `app.DebuggerApp` the
reactive state the panels in `widgets` are bound to.  docs/tui.md is the user's guide.
"""
from .app import DebuggerApp

__all__ = ["DebuggerApp"]
