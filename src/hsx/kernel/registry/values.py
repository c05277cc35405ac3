"""The value registry: named f16 values that tasks publish, read, set and watch.

One registry per executive, keyed by OID (group << 8 | id), so CAN, the shell and
other tasks can address a value without knowing which task owns it.  Like the mailbox
manager it is pure bookkeeping: the kernel passes the time, and the injected `notify`
and `emit` hooks carry notifications and events out.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hsx.image.model import ValueSpec
from hsx.isa.f16 import f16_to_float

from .access import Pin, may_access
from .constants import (
    DEFAULT_MAX_VALUES,
    GROUP_ALL,
    NOTIFY,
    VAL_FLAGS_ALL,
    Auth,
    PersistMode,
    ValFlag,
    ValFn,
    ValStatus,
    make_oid,
    split_oid,
)
from .errors import RegistryError
from .events import EmitFn, NotifyFn, RegistryEvent
from .model import GetResult, OidResult, SetResult, ValueDescriptor, ValueInfo, json_float
from .model import qualified_name
from .store import PersistenceStore, PersistKey

if TYPE_CHECKING:
    from hsx.kernel.profiles import Profile

_BOOL_TRUE = 0x3C00          # 1.0


@dataclass
class _Value:
    oid: int
    owner_pid: int
    flags: int
    auth: int
    descriptor: ValueDescriptor
    raw: int
    app: str
    mode: PersistMode
    last_change: float | None = None
    restored: bool = False          # its bits came from the store, not the init value
    subscribers: list[tuple[int, int]] = field(default_factory=list)   # (pid, handle)

    @property
    def store_key(self) -> PersistKey:
        return PersistKey(self.app, self.descriptor.persist_key)

    @property
    def label(self) -> str:
        name = qualified_name(self.descriptor.group_name, self.descriptor.name)
        return f"value 0x{self.oid:04x}" + (f" ({name})" if name else "")

    def info(self) -> ValueInfo:
        return ValueInfo(self.oid, self.owner_pid, self.flags, self.auth, self.raw,
                         self.descriptor, self.mode, self.app, len(self.subscribers))


class ValueRegistry:
    """Every value of one executive.

    Guest-facing calls return statuses (R0) and report refusals as `value_error`
    events; `register_from_metadata` is kernel-facing and raises `RegistryError`.
    """

    def __init__(self, *, max_values: int = DEFAULT_MAX_VALUES, store: PersistenceStore | None = None,
                 emit: EmitFn | None = None, notify: NotifyFn | None = None,
                 pin: Pin | None = None) -> None:
        if max_values < 1:
            raise ValueError("max_values must be at least 1")
        self.max_values = max_values
        self.store = store
        self.pin = pin or Pin()
        self._emit_fn = emit
        self._notify_fn = notify
        self._values: dict[int, _Value] = {}

    @classmethod
    def from_profile(cls, profile: Profile, **hooks: Any) -> ValueRegistry:
        return cls(max_values=profile.max_values, **hooks)

    def __len__(self) -> int:
        return len(self._values)

    # -- registration ------------------------------------------------------------------

    def register(self, owner_pid: int, group: int, ident: int, flags: int = 0,
                 auth: int = Auth.PUBLIC, descriptor: ValueDescriptor = ValueDescriptor(),
                 init_f16: int = 0, *, app: str = "") -> OidResult:
        """Create a value owned by `owner_pid`; a persisted value wins over `init_f16`.

        `app` names the store namespace (the app's base name, so every load of the app
        finds its values again).
        """
        try:
            value = self._prepare(owner_pid, group, ident, flags, auth, descriptor, init_f16, app)
            self._check_room(1)
        except RegistryError as error:
            self._refused(ValFn.REGISTER, owner_pid, error)
            return OidResult(error.status)
        self._add(value)
        return OidResult(ValStatus.OK, value.oid)

    def register_from_metadata(self, pid: int, specs: Iterable[ValueSpec], *,
                               app: str = "") -> list[int]:
        """Register an image's `.value` records for task `pid`, all or none.

        A record with a persist key is persistent (its PERSIST flag is implied) and is
        debounced by METADATA_DEBOUNCE_MS.  Raises RegistryError for the first record
        that cannot be registered; then nothing of the batch is registered.
        """
        batch: list[_Value] = []
        for spec in specs:
            flags = spec.flags | (ValFlag.PERSIST if spec.persist_key else 0)
            value = self._prepare(pid, spec.group, spec.value, flags, spec.auth,
                                  ValueDescriptor.from_spec(spec), spec.init_f16, app)
            if any(v.oid == value.oid for v in batch):
                raise RegistryError("value", ValStatus.EEXIST,
                                    f"{value.label} is declared twice", value.oid)
            batch.append(value)
        self._check_room(len(batch))
        for value in batch:
            self._add(value)
        return [value.oid for value in batch]

    def lookup(self, group: int, ident: int) -> OidResult:
        if not (0 <= group <= 0xFF and 0 <= ident <= 0xFF):
            return OidResult(ValStatus.EINVAL)
        oid = make_oid(group, ident)
        return OidResult(ValStatus.OK, oid) if oid in self._values else OidResult(ValStatus.ENOENT)

    # -- reading and writing -----------------------------------------------------------

    def get(self, caller_pid: int, oid: int, caller_auth: int = Auth.PUBLIC) -> GetResult:
        value = self._values.get(oid)
        if value is None:
            return GetResult(ValStatus.ENOENT)
        if not may_access(value.owner_pid, value.auth, caller_pid, caller_auth):
            return GetResult(ValStatus.EPERM)
        return GetResult(ValStatus.OK, value.raw)

    def set(self, caller_pid: int, oid: int, raw: int, caller_auth: int, now: float,
            token: bytes | None = None) -> SetResult:
        """Write f16 bits, checking in this order: existence, access, RO, PIN, rate,
        range; then a write within epsilon of the current value (or bit-identical) is
        accepted without change, and a real change is stored, announced once as
        `value_changed`, scheduled for the store and sent once to each subscriber.
        """
        try:
            value = self._writable(caller_pid, oid, raw, caller_auth, token)
        except RegistryError as error:
            self._refused(ValFn.SET, caller_pid, error)
            return SetResult(error.status)
        try:
            new = self._admissible(value, raw, now)
        except RegistryError as error:
            if error.status is not ValStatus.EBUSY:      # being throttled is flow control
                self._refused(ValFn.SET, caller_pid, error)
            return SetResult(error.status, value.raw)
        if _same(value, new):
            return SetResult(ValStatus.OK, value.raw)
        self._change(value, new, caller_pid, now, "set")
        return SetResult(ValStatus.OK, new, True)

    def info(self, oid: int) -> ValueInfo | None:
        value = self._values.get(oid)
        return value.info() if value else None

    def list(self, *, owner: int | None = None, group: int | None = None,
             name: str | None = None,
             visible_to: tuple[int, int] | None = None) -> list[ValueInfo]:
        """Values in OID order, filtered by owner, group (GROUP_ALL = any), name (plain
        or `group.name`) and by what a (pid, auth) caller may read."""
        rows = []
        for oid in sorted(self._values):
            value = self._values[oid]
            d = value.descriptor
            if owner is not None and value.owner_pid != owner:
                continue
            if group not in (None, GROUP_ALL) and split_oid(oid)[0] != group:
                continue
            if name is not None and name not in (d.name, qualified_name(d.group_name, d.name)):
                continue
            if visible_to is not None and not may_access(value.owner_pid, value.auth,
                                                         *visible_to):
                continue
            rows.append(value.info())
        return rows

    # -- subscriptions -----------------------------------------------------------------

    def subscribe(self, pid: int, oid: int, handle: int,
                  caller_auth: int = Auth.PUBLIC) -> ValStatus:
        """Send every later change of `oid` to `pid`'s mailbox `handle`.

        Subscribing the same (pid, handle) twice is one subscription.  On a refusal the
        kernel closes the handle it opened for the subscription.
        """
        value = self._values.get(oid)
        if value is None:
            error = RegistryError("value", ValStatus.ENOENT, f"no value 0x{oid:04x}", oid)
        elif not may_access(value.owner_pid, value.auth, pid, caller_auth):
            error = RegistryError("value", ValStatus.EPERM,
                                  f"task {pid} may not read {value.label}", oid)
        else:
            if (pid, handle) not in value.subscribers:
                value.subscribers.append((pid, handle))
            return ValStatus.OK
        self._refused(ValFn.SUB, pid, error)
        return error.status

    def unsubscribe(self, pid: int, *, oid: int | None = None, handle: int | None = None) -> int:
        """End `pid`'s subscriptions to `oid` and/or through `handle` (None: any);
        the kernel calls it with `handle` when a task closes a mailbox handle."""
        removed = 0
        for value in self._values.values():
            if oid is not None and value.oid != oid:
                continue
            keep = [(p, h) for p, h in value.subscribers
                    if p != pid or (handle is not None and h != handle)]
            removed += len(value.subscribers) - len(keep)
            value.subscribers = keep
        return removed

    # -- persistence -------------------------------------------------------------------

    def persist(self, caller_pid: int, oid: int, mode: int, now: float) -> ValStatus:
        """VAL_PERSIST, owner only: VOLATILE stops saving; LOAD restores the stored value
        now; SAVE restores it (or, with nothing stored, saves the current value) and
        saves every later change.  LOAD and SAVE need the value's persist key."""
        value = self._values.get(oid)
        try:
            if value is None:
                raise RegistryError("value", ValStatus.ENOENT, f"no value 0x{oid:04x}", oid)
            if caller_pid != value.owner_pid:
                raise RegistryError("value", ValStatus.EPERM,
                                    f"only task {value.owner_pid} may change how {value.label} "
                                    f"is persisted", oid)
            if mode not in {m.value for m in PersistMode}:
                raise RegistryError("value", ValStatus.EINVAL,
                                    f"persist mode {mode} is not 0, 1 or 2", oid)
            if mode != PersistMode.VOLATILE and not value.descriptor.persist_key:
                raise RegistryError("value", ValStatus.EINVAL,
                                    f"{value.label} has no persist key", oid)
        except RegistryError as error:
            self._refused(ValFn.PERSIST, caller_pid, error)
            return error.status
        value.mode = PersistMode(mode)
        if value.mode is PersistMode.SAVE:
            value.flags |= int(ValFlag.PERSIST)
        else:
            value.flags &= ~int(ValFlag.PERSIST)
        if value.mode is not PersistMode.VOLATILE and self.store is not None:
            stored = self._restorable(value)
            if stored is None and value.mode is PersistMode.SAVE:
                self.store.schedule_write(value.store_key, value.raw,
                                          value.descriptor.debounce_ms, now)
            elif stored is not None and not _same(value, stored):
                self._change(value, stored, caller_pid, now, "restore")
        return ValStatus.OK

    # -- tasks -------------------------------------------------------------------------

    def release_task(self, pid: int) -> list[int]:
        """Drop the values `pid` owns and its subscriptions; returns the dropped OIDs.

        Writes already scheduled for the store still happen.
        """
        gone = [oid for oid, value in self._values.items() if value.owner_pid == pid]
        for oid in gone:
            del self._values[oid]
        self.unsubscribe(pid)
        return gone

    # -- internals ---------------------------------------------------------------------

    def _prepare(self, owner_pid: int, group: int, ident: int, flags: int, auth: int,
                 descriptor: ValueDescriptor, init_f16: int, app: str) -> _Value:
        """A checked, not yet registered value with its initial or restored bits."""
        def refuse(status: ValStatus, message: str) -> RegistryError:
            return RegistryError("value", status, message, oid)

        oid = make_oid(group & 0xFF, ident & 0xFF)
        if not (0 <= group < GROUP_ALL and 0 <= ident <= 0xFF):
            raise refuse(ValStatus.EINVAL, f"value ({group},{ident}): group must be 0..254 "
                                           f"and id 0..255")
        if flags & ~VAL_FLAGS_ALL or auth not in {a.value for a in Auth}:
            raise refuse(ValStatus.EINVAL, f"value 0x{oid:04x}: unknown flags 0x{flags:x} "
                                           f"or auth level {auth}")
        problem = descriptor.problem()
        if problem is not None:
            raise refuse(ValStatus.EINVAL, f"value 0x{oid:04x}: {problem}")
        if flags & ValFlag.PERSIST and not descriptor.persist_key:
            raise refuse(ValStatus.EINVAL, f"value 0x{oid:04x} is PERSIST but has no persist key")
        if not 0 <= init_f16 <= 0xFFFF:
            raise refuse(ValStatus.EINVAL, f"value 0x{oid:04x}: init 0x{init_f16:x} is not f16")
        existing = self._values.get(oid)
        if existing is not None:
            raise refuse(ValStatus.EEXIST,
                         f"{existing.label} is already registered by task {existing.owner_pid}")
        mode = PersistMode.SAVE if flags & ValFlag.PERSIST else PersistMode.VOLATILE
        value = _Value(oid, owner_pid, int(flags), int(auth), descriptor,
                       _normalise(flags, init_f16), app, mode)
        if not descriptor.in_range(value.raw):
            raise refuse(ValStatus.EINVAL, f"{value.label}: initial value "
                                           f"{f16_to_float(value.raw)} is outside its range")
        if mode is PersistMode.SAVE:
            stored = self._restorable(value)
            if stored is not None:
                value.raw, value.restored = stored, True
        return value

    def _restorable(self, value: _Value) -> int | None:
        """The stored bits for `value` if the store has some that fit its range."""
        if self.store is None:
            return None
        stored = self.store.load(value.store_key)
        if stored is None:
            return None
        stored = _normalise(value.flags, stored)
        return stored if value.descriptor.in_range(stored) else None

    def _check_room(self, count: int) -> None:
        if len(self._values) + count > self.max_values:
            raise RegistryError("value", ValStatus.ENOSPC,
                                f"value table full: {len(self._values)} of {self.max_values} "
                                f"used, {count} more requested")

    def _add(self, value: _Value) -> None:
        self._values[value.oid] = value
        group, ident = split_oid(value.oid)
        d = value.descriptor
        self._emit(RegistryEvent.VALUE_REGISTERED, value.owner_pid, oid=value.oid,
                   group_id=group, value_id=ident, flags=value.flags, auth_level=value.auth,
                   name=d.name, group_name=d.group_name, unit=d.unit, f16=value.raw,
                   value=json_float(f16_to_float(value.raw)), persist_key=d.persist_key,
                   restored=value.restored)

    def _writable(self, caller_pid: int, oid: int, raw: int, caller_auth: int,
                  token: bytes | None) -> _Value:
        value = self._values.get(oid)
        if value is None:
            raise RegistryError("value", ValStatus.ENOENT, f"no value 0x{oid:04x}", oid)
        if not 0 <= raw <= 0xFFFF:
            raise RegistryError("value", ValStatus.EINVAL, f"0x{raw:x} is not f16 bits", oid)
        owner = caller_pid == value.owner_pid
        if not may_access(value.owner_pid, value.auth, caller_pid, caller_auth):
            raise RegistryError("value", ValStatus.EPERM,
                                f"task {caller_pid} (auth {caller_auth}) may not write "
                                f"{value.label} (auth {value.auth})", oid)
        if value.flags & ValFlag.RO and not owner:
            raise RegistryError("value", ValStatus.EPERM,
                                f"{value.label} is read-only for all but task {value.owner_pid}",
                                oid)
        if value.flags & ValFlag.PIN and not owner and not self.pin.check(token):
            raise RegistryError("value", ValStatus.EPERM,
                                f"{value.label} needs the PIN to be written", oid)
        return value

    def _admissible(self, value: _Value, raw: int, now: float) -> int:
        """The bits a write of `raw` would store, after the rate limit and range checks."""
        rate = value.descriptor.rate_ms
        if rate and value.last_change is not None and now - value.last_change < rate / 1000.0:
            raise RegistryError("value", ValStatus.EBUSY,
                                f"{value.label} may change once every {rate} ms", value.oid)
        new = _normalise(value.flags, raw)
        if not value.descriptor.in_range(new):
            d = value.descriptor
            raise RegistryError("value", ValStatus.EINVAL,
                                f"{f16_to_float(new)} is outside {value.label}'s range "
                                f"[{f16_to_float(d.min_f16)}, {f16_to_float(d.max_f16)}]",
                                value.oid)
        return new

    def _change(self, value: _Value, new: int, caller_pid: int, now: float, reason: str) -> None:
        old, value.raw, value.last_change = value.raw, new, now
        group, ident = split_oid(value.oid)
        self._emit(RegistryEvent.VALUE_CHANGED, value.owner_pid, caller_pid=caller_pid,
                   oid=value.oid, group_id=group, value_id=ident, old_f16=old, new_f16=new,
                   old_value=json_float(f16_to_float(old)),
                   new_value=json_float(f16_to_float(new)), flags=value.flags,
                   auth_level=value.auth, reason=reason)
        if value.mode is PersistMode.SAVE and self.store is not None:
            self.store.schedule_write(value.store_key, new, value.descriptor.debounce_ms, now)
        if self._notify_fn is None:
            return
        payload = NOTIFY.pack(value.oid, old, new)
        for pid, handle in list(value.subscribers):
            if self._notify_fn(pid, handle, payload) is False:
                value.subscribers.remove((pid, handle))

    def _refused(self, fn: ValFn, pid: int, error: RegistryError) -> None:
        self._emit(RegistryEvent.VALUE_ERROR, pid, fn=int(fn), oid=error.oid,
                   status=int(error.status), error=error.message)

    def _emit(self, event: RegistryEvent, pid: int | None, **data: Any) -> None:
        if self._emit_fn is not None:
            self._emit_fn(event.value, pid, data)


def _normalise(flags: int, raw: int) -> int:
    """BOOL values hold exactly 0.0 or 1.0: zero of either sign is false, all else true."""
    if flags & ValFlag.BOOL:
        return 0 if f16_to_float(raw) == 0.0 else _BOOL_TRUE
    return raw


def _same(value: _Value, new: int) -> bool:
    """Whether writing `new` would not count as a change: identical bits, or closer to
    the current value than the value's epsilon."""
    if new == value.raw:
        return True
    eps = value.descriptor.epsilon
    return eps > 0 and abs(f16_to_float(new) - f16_to_float(value.raw)) < eps

