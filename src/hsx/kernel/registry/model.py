"""What the registries hold and hand back: descriptors, snapshots and call results."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from hsx.image.model import CommandSpec, ValueSpec
from hsx.isa.f16 import f16_to_float

from .constants import (
    HELP_MAX,
    METADATA_DEBOUNCE_MS,
    NAME_MAX,
    PERSIST_KEY_MAX,
    PERSIST_KEY_MIN,
    CmdStatus,
    PersistMode,
    ValStatus,
    split_oid,
)


@dataclass(frozen=True)
class ValueDescriptor:
    """Everything about a value beyond its number, flags and auth level.

    A min/max pair of raw 0/0 means unbounded; any other pair bounds the value to
    [min, max].  `persist_key` 0 means the value has no place in the store.
    """

    name: str | None = None
    group_name: str | None = None
    unit: str | None = None
    epsilon_f16: int = 0
    rate_ms: int = 0
    min_f16: int = 0
    max_f16: int = 0
    persist_key: int = 0
    debounce_ms: int = 0

    @classmethod
    def from_spec(cls, spec: ValueSpec) -> ValueDescriptor:
        """A `.value` record's descriptor; records have no rate or debounce field."""
        return cls(name=spec.name, group_name=spec.group_name, unit=spec.unit,
                   epsilon_f16=spec.epsilon_f16, min_f16=spec.min_f16, max_f16=spec.max_f16,
                   persist_key=spec.persist_key, debounce_ms=METADATA_DEBOUNCE_MS)

    @property
    def bounded(self) -> bool:
        return bool(self.min_f16 or self.max_f16)

    @property
    def epsilon(self) -> float:
        return f16_to_float(self.epsilon_f16)

    def in_range(self, raw: int) -> bool:
        if not self.bounded:
            return True
        x = f16_to_float(raw)
        return f16_to_float(self.min_f16) <= x <= f16_to_float(self.max_f16)

    def problem(self) -> str | None:
        """Why this descriptor cannot be registered, or None."""
        for label, text in (("name", self.name), ("group name", self.group_name),
                            ("unit", self.unit)):
            if text is not None and len(text.encode()) > NAME_MAX:
                return f"{label} {text!r} is longer than {NAME_MAX} bytes"
        for label, raw in (("epsilon", self.epsilon_f16), ("min", self.min_f16),
                           ("max", self.max_f16)):
            if not 0 <= raw <= 0xFFFF:
                return f"{label} 0x{raw:x} is not f16 bits"
        for label, ms in (("rate_ms", self.rate_ms), ("debounce_ms", self.debounce_ms)):
            if not 0 <= ms <= 0xFFFF:
                return f"{label} {ms} is outside 0..65535"
        eps = self.epsilon
        if math.isnan(eps) or eps < 0:
            return f"epsilon {eps} must be a non-negative number"
        if self.bounded:
            low, high = f16_to_float(self.min_f16), f16_to_float(self.max_f16)
            if math.isnan(low) or math.isnan(high) or low > high:
                return f"range [{low}, {high}] is empty"
        if self.persist_key and not PERSIST_KEY_MIN <= self.persist_key <= PERSIST_KEY_MAX:
            return f"persist key 0x{self.persist_key:x} is outside 0x0001..0xFFFE"
        return None


@dataclass(frozen=True)
class CommandDescriptor:
    name: str | None = None
    help: str | None = None
    group_name: str | None = None

    @classmethod
    def from_spec(cls, spec: CommandSpec) -> CommandDescriptor:
        return cls(name=spec.name, help=spec.help, group_name=spec.group_name)

    def problem(self) -> str | None:
        for label, text, limit in (("name", self.name, NAME_MAX),
                                   ("group name", self.group_name, NAME_MAX),
                                   ("help", self.help, HELP_MAX)):
            if text is not None and len(text.encode()) > limit:
                return f"{label} {text!r} is longer than {limit} bytes"
        return None


def qualified_name(group_name: str | None, name: str | None) -> str | None:
    """`group.name` when both are known: what people type in the shell."""
    if name is None:
        return None
    return f"{group_name}.{name}" if group_name else name


@dataclass(frozen=True)
class ValueInfo:
    """A snapshot of one value for listings (the server's `val.list`)."""

    oid: int
    owner_pid: int
    flags: int
    auth: int
    raw: int
    descriptor: ValueDescriptor
    persist_mode: PersistMode
    app: str
    subscribers: int

    @property
    def value(self) -> float:
        return f16_to_float(self.raw)

    def as_dict(self) -> dict[str, Any]:
        group, ident = split_oid(self.oid)
        d = self.descriptor
        row: dict[str, Any] = {
            "oid": self.oid, "group_id": group, "value_id": ident, "flags": self.flags,
            "auth_level": self.auth, "owner_pid": self.owner_pid, "last_f16": self.raw,
            "last_value": json_float(self.value), "persist_mode": self.persist_mode.name.lower(),
            "subscribers": self.subscribers,
        }
        for key, text in (("name", d.name), ("group_name", d.group_name), ("unit", d.unit)):
            if text is not None:
                row[key] = text
        if d.epsilon_f16:
            row.update(epsilon=json_float(d.epsilon), epsilon_f16=d.epsilon_f16)
        if d.rate_ms:
            row["rate_ms"] = d.rate_ms
        if d.bounded:
            row.update(min=json_float(f16_to_float(d.min_f16)), min_f16=d.min_f16,
                       max=json_float(f16_to_float(d.max_f16)), max_f16=d.max_f16)
        if d.persist_key:
            row.update(persist_key=d.persist_key, debounce_ms=d.debounce_ms, app=self.app)
        return row


@dataclass(frozen=True)
class CommandInfo:
    oid: int
    owner_pid: int
    flags: int
    auth: int
    handler_addr: int | None
    descriptor: CommandDescriptor

    def as_dict(self) -> dict[str, Any]:
        group, ident = split_oid(self.oid)
        row: dict[str, Any] = {
            "oid": self.oid, "group_id": group, "cmd_id": ident, "flags": self.flags,
            "auth_level": self.auth, "owner_pid": self.owner_pid,
            "handler_addr": self.handler_addr,
        }
        d = self.descriptor
        for key, text in (("name", d.name), ("help", d.help), ("group_name", d.group_name)):
            if text is not None:
                row[key] = text
        return row


@dataclass(frozen=True)
class OidResult:
    """REGISTER and LOOKUP: R0 = status, R1 = OID."""

    status: ValStatus | CmdStatus
    oid: int = 0


@dataclass(frozen=True)
class GetResult:
    status: ValStatus
    raw: int = 0


@dataclass(frozen=True)
class SetResult:
    status: ValStatus
    raw: int = 0                 # the value held afterwards
    changed: bool = False        # False also when OK but within epsilon / unchanged


@dataclass(frozen=True)
class HelpResult:
    """HELP: `data` is what to write at the guest's buffer (NUL included)."""

    status: CmdStatus
    data: bytes = b""

    @property
    def length(self) -> int:
        """R1: bytes of text written, without the NUL."""
        return max(0, len(self.data) - 1)


@dataclass(frozen=True)
class CallTicket:
    """One command call in flight: the kernel runs `handler_addr` in the owner task and
    then hands the ticket back to `complete_call`."""

    id: int
    oid: int
    caller_pid: int
    owner_pid: int
    handler_addr: int
    reply_handle: int | None = None   # CALL_ASYNC: the caller's handle for the completion

    @property
    def is_async(self) -> bool:
        return self.reply_handle is not None


@dataclass(frozen=True)
class Completion:
    """A finished call.  For async calls whose caller still lives, `payload` is the
    8-byte completion message to send on (caller_pid, reply_handle).  `orphaned` means
    the caller has ended: there is nobody to resume or reply to."""

    ticket: CallTicket
    status: CmdStatus
    result: int = 0
    payload: bytes | None = None
    orphaned: bool = False


def json_float(x: float) -> float | str:
    """JSON has no NaN or infinities: spell those out."""
    return x if math.isfinite(x) else str(x)
