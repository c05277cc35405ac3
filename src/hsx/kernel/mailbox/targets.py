"""Parsing of mailbox target strings (`pid:7`, `svc:log@3`, `app:demo`, `shared:bus`).

A target names a descriptor by (namespace, name, owner).  Parsing is strict where the
prior HSX was lenient: nothing is truncated, unknown prefixes and malformed `@pid`
suffixes are refused with a message instead of becoming private names or crashes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from hsx.kernel.constants import MAX_NAME_BYTES, MbxNamespace

_PREFIXES = {ns.prefix: ns for ns in MbxNamespace}
_PID = re.compile(r"[0-9]{1,10}")
_NAME = re.compile(r"[\x21-\x3f\x41-\x7e]+")   # printable ASCII without space and '@'
_MAX_PID = 0xFFFF_FFFF


class TargetError(ValueError):
    """A target string that does not name a mailbox."""


@dataclass(frozen=True)
class Target:
    """A parsed mailbox name: its namespace, its name and the owning pid."""

    namespace: MbxNamespace
    name: str            # `pid:<n>` for the PID namespace (as tools have always shown it)
    owner: int | None    # None: global (`app:x`, `shared:x`)

    @property
    def key(self) -> tuple[MbxNamespace, str, int | None]:
        return (self.namespace, self.name, self.owner)

    def __str__(self) -> str:
        """The canonical spelling: parsing it from any caller gives this target back."""
        if self.namespace is MbxNamespace.PID:
            return self.name
        suffix = "" if self.owner is None else f"@{self.owner}"
        return f"{self.namespace.prefix}{self.name}{suffix}"


def parse_target(text: str | bytes, caller: int) -> Target:
    """Resolve `text` as seen by task `caller` (bare names and `svc:x` belong to the caller)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("ascii")
        except UnicodeDecodeError:
            raise TargetError(f"mailbox target {text!r} is not ASCII") from None
    if not text:
        raise TargetError("empty mailbox target")
    head, colon, rest = text.partition(":")
    if not colon:
        namespace, rest = MbxNamespace.SVC, text
    elif head + colon in _PREFIXES:
        namespace = _PREFIXES[head + colon]
    else:
        known = ", ".join(_PREFIXES)
        raise TargetError(f"unknown mailbox namespace {head + colon!r} in {text!r} (use {known})")

    if namespace is MbxNamespace.PID:
        owner = caller if rest == "" else _parse_pid(rest, text)
        return Target(namespace, f"pid:{owner}", owner)

    name, at, pid_text = rest.partition("@")
    _check_name(name, text)
    if not at:
        owner = None if namespace in (MbxNamespace.APP, MbxNamespace.SHARED) else caller
    elif namespace is MbxNamespace.SHARED:
        raise TargetError(f"shared mailbox {text!r} cannot name an owner with @pid")
    else:
        owner = _parse_pid(pid_text, text)
    return Target(namespace, name, owner)


def _parse_pid(pid_text: str, text: str) -> int:
    if not _PID.fullmatch(pid_text) or int(pid_text) > _MAX_PID:
        raise TargetError(f"bad pid {pid_text!r} in mailbox target {text!r}")
    return int(pid_text)


def _check_name(name: str, text: str) -> None:
    if not name:
        raise TargetError(f"mailbox target {text!r} has an empty name")
    if len(name) > MAX_NAME_BYTES:
        raise TargetError(
            f"mailbox name {name!r} is {len(name)} bytes (limit {MAX_NAME_BYTES})")
    if not _NAME.fullmatch(name):
        raise TargetError(
            f"mailbox name {name!r} may only use printable ASCII without spaces or '@'")
