"""The key map: every global key of the debugger, in one table that the app binds, the
footer shows, the help lists and docs/tui.md documents (a test keeps them equal)."""
from __future__ import annotations

from textual.binding import Binding

# (keys, action, description, in the footer)
RUN = [
    ("f5,c", "continue", "Continue", True),
    ("f6,p", "pause", "Pause", True),
    ("f10,n", "next_line", "Step over", True),
    ("f11,s", "step_into", "Step into", True),
    ("shift+f11,f", "step_out", "Step out", True),
    ("f7,i", "step_instruction", "Step instruction", False),
    ("shift+f7,I", "next_instruction", "Step over instruction", False),
    ("f4,t", "run_to_cursor", "Run to cursor", False),
    ("J", "jump_to_cursor", "Jump to cursor", False),
    ("ctrl+r", "restart", "Rebuild and restart", False),
    ("R", "record", "Record history", False),
    ("[", "step_back", "Reverse step", False),
    ("{", "continue_back", "Reverse continue", False),
]
BREAK = [
    ("f9,b", "toggle_breakpoint", "Breakpoint", True),
    ("B", "add_breakpoint", "Add breakpoint…", False),
    ("w", "add_watch", "Add watch…", False),
    ("ctrl+t", "trace", "Trace instructions on/off", False),
    ("ctrl+e", "timeline", "Timeline recording on/off", False),
]
NAVIGATE = [
    ("g", "go_to", "Go to…", False),
    ("T", "switch_task", "Switch task…", False),
    ("colon", "command_line", "Command line", False),
    ("ctrl+p", "command_palette", "Palette", True),
    ("f2", "cycle_layout", "Layout", False),
    ("z", "zoom", "Zoom panel", False),
    ("ctrl+l", "reload", "Refresh", False),
    ("f1,question_mark", "help", "Keys", True),
    ("q,ctrl+q", "quit", "Quit", True),
]
GROUPS = {"Run": RUN, "Breakpoints and watches": BREAK, "Navigate": NAVIGATE}
# What an action needs of the executive (a session feature): on a variant without it
# (docs/variants.md) the key is greyed out.
FEATURES = {
    "next_line": "debug", "step_into": "debug", "step_out": "debug",
    "next_instruction": "debug", "run_to_cursor": "debug", "jump_to_cursor": "debug",
    "toggle_breakpoint": "debug", "add_breakpoint": "debug", "add_watch": "expressions",
    "record": "reverse", "step_back": "reverse", "continue_back": "reverse",
    "trace": "trace", "timeline": "timeline", "go_to": "disasm",
}


def bindings() -> list[Binding]:
    """The app's bindings (the palette's ctrl+p is Textual's own)."""
    return [Binding(keys, action, description, show=shown, key_display=label(keys.split(",")[0]))
            for table in GROUPS.values() for keys, action, description, shown in table
            if action != "command_palette"]


def label(key: str) -> str:
    """A key as people write it: "shift+f11" -> "Shift+F11", "colon" -> ":"."""
    named = {"colon": ":", "question_mark": "?"}
    if key in named:
        return named[key]
    parts = key.split("+")
    *mods, last = parts
    last = last.upper() if (last[:1] == "f" and last[1:].isdigit()) or mods else last
    return "+".join([m.capitalize() for m in mods] + [last])


def rows() -> list[tuple[str, str, str]]:
    """(group, keys, description) for the help screen and the docs."""
    return [(group, " / ".join(label(k) for k in keys.split(",")), description)
            for group, table in GROUPS.items() for keys, _, description, _ in table]
