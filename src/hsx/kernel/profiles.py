"""Profiles, the executive's variants: what it offers and the limits it enforces, sized
for a class of target (DESIGN.md §8; the C executive's port/c/hsx_config.h has the same
three).

`minimal` approximates a small microcontroller: tasks, mailboxes, values and commands,
stdio, stepping, registers and memory -- no debugger, no event stream.  `development`
(the default for a host executive) adds the debugger (breakpoints, run-to, the stack
walk, watches, variables, reverse execution) and events, with a ~100-record trace ring;
`full` adds observer sessions, 1,000+ trace records and larger buffers.  A variant's
sizes are caps as well as defaults: a client cannot ask for more.  Any limit can be
overridden by name; an unknown name or a nonsensical value is refused with a message,
so a typo never silently leaves a default in place.  docs/variants.md has the table.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

# What each variant offers, as session features (docs/protocol.md, "Sessions"): each
# variant has everything the one before it has.  A command the executive's variant
# lacks answers `unsupported` with `variant_required`, the first variant that has it.
MINIMAL_FEATURES = frozenset({"commands", "load_stream", "mailbox", "memory", "stdio",
                              "values"})
DEVELOPMENT_FEATURES = MINIMAL_FEATURES | {"debug", "disasm", "events", "expressions",
                                           "reverse", "stack", "symbols", "timeline",
                                           "trace", "variables", "watch"}
FULL_FEATURES = DEVELOPMENT_FEATURES | {"observers"}


@dataclass(frozen=True)
class Profile:
    """Resource limits and defaults of one executive (`--profile`)."""

    name: str
    max_tasks: int
    task_memory: int           # bytes of data address space per task (the default)
    stack_size: int            # bytes of stack arena per task (the default)
    max_task_memory: int       # the most a load or an image may ask for
    max_descriptors: int       # mailbox descriptors in the whole executive
    max_handles_per_task: int
    mailbox_capacity: int      # default mailbox capacity in bytes
    max_message_size: int
    max_values: int
    max_commands: int
    trace_records: int         # per-task instruction trace ring: default and cap (0: none)
    scheduler_trace: int       # scheduler events kept for `info`
    event_queue: int           # per-session event queue of the server
    event_history: int         # events kept for `since_seq` resync
    features: frozenset[str] = FULL_FEATURES      # what it offers (see above)

    def with_overrides(self, **overrides: int) -> "Profile":
        """A copy with some limits changed; raises ValueError naming a bad key or value."""
        known = {f.name for f in fields(self)} - {"name", "features"}
        for key, value in overrides.items():
            if key not in known:
                raise ValueError(f"unknown limit {key!r} (known: {', '.join(sorted(known))})")
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"limit {key} must be a positive integer, not {value!r}")
        changed = replace(self, **overrides)
        changed.validate()
        return changed

    def validate(self) -> None:
        if self.stack_size + 0x4000 + 256 > self.task_memory:
            raise ValueError(
                f"profile {self.name}: stack_size {self.stack_size} does not fit in "
                f"task_memory {self.task_memory} above rodata at 0x4000")
        if self.task_memory > self.max_task_memory:
            raise ValueError(f"profile {self.name}: task_memory {self.task_memory} is more "
                             f"than max_task_memory {self.max_task_memory}")
        if self.task_memory % 4 or self.stack_size % 4:
            raise ValueError(f"profile {self.name}: task_memory and stack_size must be multiples of 4")

    def as_dict(self) -> dict[str, int | str]:
        """The name and the limits (`info`'s `limits`; the features are listed apart)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "features"}

    def offers(self, feature: str) -> bool:
        return feature in self.features


PROFILES: dict[str, Profile] = {
    "minimal": Profile(
        name="minimal", max_tasks=4, task_memory=0x8000, stack_size=0x800,
        max_task_memory=0x10000, max_descriptors=32,
        max_handles_per_task=8, mailbox_capacity=256, max_message_size=128, max_values=32,
        max_commands=16, trace_records=0, scheduler_trace=64, event_queue=64,
        event_history=256, features=MINIMAL_FEATURES),
    "development": Profile(
        name="development", max_tasks=128, task_memory=0x10000, stack_size=0x2000,
        max_task_memory=64 << 20, max_descriptors=1024, max_handles_per_task=32,
        mailbox_capacity=1024, max_message_size=512, max_values=256, max_commands=128,
        trace_records=100, scheduler_trace=256, event_queue=1024, event_history=4096,
        features=DEVELOPMENT_FEATURES),
    "full": Profile(
        name="full", max_tasks=1024, task_memory=0x40000, stack_size=0x8000,
        max_task_memory=1 << 30, max_descriptors=8192, max_handles_per_task=256,
        mailbox_capacity=8192, max_message_size=4096, max_values=4096, max_commands=1024,
        trace_records=16384, scheduler_trace=4096, event_queue=8192, event_history=65536,
        features=FULL_FEATURES),
}
DEFAULT_PROFILE = "development"


def variant_offering(feature: str) -> str | None:
    """The first variant (minimal, development, full) that offers `feature`."""
    for profile in PROFILES.values():
        if feature in profile.features:
            return profile.name
    return None


def get_profile(name: str = DEFAULT_PROFILE, **overrides: int) -> Profile:
    """Look up a profile by name and apply overrides."""
    try:
        base = PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r} (choose {', '.join(PROFILES)})") from None
    return base.with_overrides(**overrides) if overrides else base
