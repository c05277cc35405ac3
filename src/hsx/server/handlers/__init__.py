"""Command groups, one module each; the server serves the union of `GROUPS`.

Adding a family (the debugger's `bp.*`, `stack.info`, `disasm.read`, `watch.*`,
`trace.*`) means one more module with a `group` and one more entry here.
"""
from . import core, events, mailbox, memory, registry, run, session, tasks

GROUPS = [core.group, session.group, events.group, tasks.group, run.group, memory.group,
          mailbox.group, registry.group]
