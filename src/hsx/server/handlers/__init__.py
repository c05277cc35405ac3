"""Command groups, one module each; the server serves the union of `GROUPS`.

Adding a family means one more module with a `group` and one more entry here.
"""
from . import (core, debug, events, legacy, mailbox, memory, registry, reverse, run, session,
               tasks, timeline, trace, variables)

GROUPS = [core.group, session.group, events.group, tasks.group, run.group, memory.group,
          mailbox.group, registry.group, debug.group, trace.group, variables.group,
          reverse.group, timeline.group, legacy.group]
