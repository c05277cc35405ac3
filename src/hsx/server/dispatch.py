"""Command tables and the per-request context handlers work with.

Each handler module owns a `Group` of commands (tasks, memory, mailboxes, …); the
server builds one `Dispatcher` from all groups, so a new family (the debugger's `bp.*`,
`stack.info`, …) is one more module and one more entry in `handlers.GROUPS`.

Names: dotted names are canonical.  Older forms resolve too: an alias listed with the
command (`dumpregs` → `regs`), and the `{"cmd": "clock", "op": "start"}` form, which is
looked up as `clock.start`.  Every command declares its arguments (`args=`, a
`schema.Schema`): the dispatcher checks a request against it before the handler runs, and
`Call` gives handlers typed access to the checked fields (reading an undeclared one is a
bug the tests catch), so every wrong or missing field becomes a `bad_argument` reply that
names the field and its range.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable, Union

from hsx.kernel.task import Task

from .errors import RequestError, bad_argument
from .schema import ENVELOPE, Bool, Field, Int, Num, Schema, Str
from .sessions import DEFAULT_AUTH

if TYPE_CHECKING:
    from .connection import Connection
    from .context import ServerContext
    from .sessions import Session

Reply = dict[str, Any]
Handler = Callable[["Call"], Union[Reply, Awaitable[Reply]]]
_MISSING: Any = object()
_INT_MIN, _INT_MAX = -(2 ** 64), 2 ** 64       # Call.int's bounds when none are given


@dataclass(frozen=True)
class Command:
    name: str
    handler: Handler
    aliases: tuple[str, ...] = ()
    writes: bool = False           # refused for observer sessions before the handler runs
    needs_session: bool = False
    schema: Schema | None = None   # the arguments it reads (None: not declared yet)
    feature: str | None = None     # the part of the executive it belongs to (variants.py);
                                   # None: every variant has it and every session may use it

    def arguments(self, request: dict[str, Any]) -> dict[str, Any]:
        """The request's fields, checked against the schema (`bad_argument` otherwise)."""
        return request if self.schema is None else self.schema.apply(request)


@dataclass
class Group:
    """The commands of one handler module; `feature` is the session feature (and part of
    a variant) its commands belong to unless one says otherwise."""

    name: str
    feature: str | None = None
    commands: list[Command] = field(default_factory=list)

    @property
    def features(self) -> set[str]:
        return {c.feature for c in self.commands if c.feature is not None}

    def command(self, name: str, *aliases: str, writes: bool = False,
                needs_session: bool = False, args: dict[str, Field] | None = None,
                feature: Any = _MISSING) -> Callable[[Handler], Handler]:
        """Register a handler; `args` declares every field it reads, e.g.
        `args={"pid": PID, "count|steps": Int(1, 100)}` (see `schema`); `feature`
        (default: the group's) is the session feature it needs (None: none)."""
        schema = Schema(args) if args is not None else None
        needs = self.feature if feature is _MISSING else feature

        def register(handler: Handler) -> Handler:
            self.commands.append(Command(name, handler, aliases, writes, needs_session,
                                         schema, needs))
            return handler
        return register


class Dispatcher:
    def __init__(self, groups: Iterable[Group]) -> None:
        self.groups = list(groups)
        self._by_name: dict[str, Command] = {}
        for group in self.groups:
            for command in group.commands:
                for name in (command.name, *command.aliases):
                    if name in self._by_name:
                        raise ValueError(f"command name {name!r} registered twice")
                    self._by_name[name] = command
        self._families = {name.split(".", 1)[0] for name in self._by_name if "." in name}

    @property
    def features(self) -> list[str]:
        """Every feature some command belongs to."""
        return sorted({f for group in self.groups for f in group.features})

    def resolve(self, request: dict[str, Any]) -> Command:
        cmd = request["cmd"]
        if "op" not in request and "action" not in request:     # the common case
            command = self._by_name.get(cmd)
            if command is not None:
                return command
        op = request.get("op", request.get("action"))
        if isinstance(op, str) and op and "." not in cmd:
            command = self._by_name.get(f"{cmd}.{op.strip().lower()}")
            if command is not None:
                return command
            if cmd in self._families:
                raise bad_argument(f"unknown {cmd} op {op!r}")
        command = self._by_name.get(cmd)
        if command is None:
            raise RequestError("unknown_cmd", f"unknown command {cmd!r}")
        return command


class Call:
    """One request on its way through a handler: the fields, the caller, the server."""

    def __init__(self, server: ServerContext, conn: Connection, session: Session | None,
                 args: dict[str, Any], schema: Schema | None = None) -> None:
        self.server = server
        self.kernel = server.kernel
        self.conn = conn
        self.session = session
        self.args = args
        self.schema = schema
        self.auth = session.auth if session is not None else DEFAULT_AUTH

    # ------------------------------------------------------------------ fields

    def has(self, name: str) -> bool:
        return self.field(name) is not None

    def field(self, name: str) -> Any:
        """A field's checked value (None when absent); only declared fields can be read."""
        schema = self.schema
        if schema is not None and name not in schema.fields and name not in ENVELOPE:
            raise LookupError(f"{self.args['cmd']} reads {name!r}, which its schema does "
                              "not declare")
        return self.args.get(name)

    def int(self, name: str, default: Any = _MISSING, *, min: int | None = None,
            max: int | None = None, aliases: tuple[str, ...] = ()) -> Any:
        """An integer field (JSON number, or a string like "0x4000"), within min..max."""
        lo = _INT_MIN if min is None else min
        hi = _INT_MAX if max is None else max
        value = self.args.get(name)
        if (type(value) is int and lo <= value <= hi
                and (self.schema is None or name in self.schema.fields)):
            return value              # the common case, without building a checker
        return self._checked(name, default, aliases, Int(lo, hi))

    def number(self, name: str, default: Any = _MISSING, *, min: float = 0.0) -> Any:
        return self._checked(name, default, (), Num(min, 1e308))

    def str(self, name: str, default: Any = _MISSING, *, aliases: tuple[str, ...] = ()) -> Any:
        return self._checked(name, default, aliases, Str(1 << 24))

    def bool(self, name: str, default: bool = False) -> bool:
        return self._checked(name, default, (), Bool())

    def _checked(self, name: str, default: Any, aliases: tuple[str, ...], kind: Field) -> Any:
        """The field (or the first alias given), checked by `kind`; `default` when absent."""
        value = self._get(name, aliases)
        if value is None:
            if default is _MISSING:
                raise bad_argument(f"{self.args['cmd']} requires '{name}'")
            return default
        return kind.check(name, value)

    def _get(self, name: str, aliases: tuple[str, ...]) -> Any:
        value = self.field(name)
        if value is None:
            for key in aliases:
                value = self.field(key)
                if value is not None:
                    break
        return value

    # ------------------------------------------------------------------ tasks and access

    def task(self, name: str = "pid") -> Task:
        """The task a PID field names (live or ended), or `unknown_pid`."""
        pid = self.int(name, min=0)
        task = self.kernel.tasks.get(pid)
        if task is None:
            raise RequestError("unknown_pid", f"no task with pid {pid}")
        return task

    def control(self, pid: int) -> None:
        """Refuse unless the caller may change task `pid` (observer / `pid_locked:<pid>`)."""
        self.server.sessions.check_control(self.session, pid)

    def require_session(self) -> Session:
        if self.session is None:
            raise RequestError("session_required", f"{self.args['cmd']} needs a 'session'")
        return self.session

