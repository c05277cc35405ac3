"""The executive daemon: the kernel, its auto clock and protocol v1 on one event loop.

Everything runs on a single asyncio loop thread: connections, the clock's kernel batches
and every handler.  So the kernel is never touched from two threads and needs no locks,
and a request is always served against a consistent kernel between two batches.
"""
from __future__ import annotations

import asyncio
import gc
import inspect
import os
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable

from hsx.debug import Debugger, DebugError
from hsx.kernel.backends import Backends
from hsx.kernel.errors import KernelError
from hsx.kernel.executive import Kernel
from hsx.kernel.task import Task
from hsx.kernel.profiles import get_profile
from hsx.kernel.taskconfig import with_task_defaults
from hsx.vm import MachineError

from .auth import MAX_FAILURES_PER_CONNECTION, AuthLimiter, is_loopback, same_secret
from .clock import AutoClock
from .connection import Connection
from .dispatch import Call, Dispatcher
from .dmesg import KERNEL_TYPES, Dmesg
from .errors import RequestError
from .framing import MAX_LINE, PROTOCOL_VERSION, decode_request
from .handlers import GROUPS
from .images import load_file
from .outputs import OutputBuffers
from .sessions import Session, SessionTable
from .subscriptions import EventHub
from .transports import TcpTransport, Transport, link_transport
from .variants import check_session, check_variant

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 9998
EXPIRY_CHECK_S = 0.25
CLOSE_GRACE_S = 2.0
ACCEPT_GRACE_S = 0.01
MAX_CONNECTIONS = 256           # clients at once; each may hold a few MiB of buffers


@dataclass
class ServerConfig:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    token: str | None = None
    profile: str = "development"
    root: str | os.PathLike | None = None        # the tasks' sandboxed file system
    state_dir: str | os.PathLike | None = None
    load: list[str] = field(default_factory=list)
    max_line: int = MAX_LINE
    write_buffer: int | None = None     # bytes buffered per connection (None: OS default)
    pin: str | None = None              # for PIN-flagged values and commands
    engine: str | None = None           # "native" | "python" | None (see hsx.vm.Machine)
    echo: bool = False                  # print task output on the daemon's stdout too
    max_connections: int = MAX_CONNECTIONS
    task_defaults: dict[str, int] = field(default_factory=dict)  # a config's [task]
    backends: Backends | None = None    # built from --config / --fs (hsx.kernel.backends)
    link: dict[str, Any] | None = None  # the framed link also served ([link], --link)


class Server:
    def __init__(self, config: ServerConfig) -> None:
        if config.token is not None and not config.token.strip():
            raise ValueError("a blank token would let anyone in")
        if not is_loopback(config.host) and not config.token:
            raise ValueError(f"refusing to listen on non-loopback address {config.host!r} "
                             "without a token (--token or --token-file)")
        self.config = config
        self.token = config.token or None
        self.auth_limiter = AuthLimiter()
        self.max_line = config.max_line
        self.kernel = self._make_kernel(config)
        self.debugger = Debugger(self.kernel, state_dir=config.state_dir)
        self.dispatcher = Dispatcher(GROUPS)
        self.sessions = SessionTable(features=self.kernel.profile.features,
                                     default_max_events=self.kernel.profile.event_queue,
                                     variant=self.kernel.profile.name)
        self.log = Dmesg()
        self.outputs = OutputBuffers(sys.stdout if config.echo else None, self._app_name)
        self.kernel.events.subscribe(self.outputs.on_event, {"stdout", "stderr"},
                                     batch=self.outputs.on_events)
        self.connections: set[Connection] = set()
        self.closing = False
        self.address: tuple[str, int] | None = None
        self.link_url: str | None = None        # where the framed link is served
        self.clock: AutoClock
        self.hub: EventHub
        self._transports: list[Transport] = []
        self._tasks: list[asyncio.Task] = []
        self._shutdown: asyncio.Event | None = None            # made on the loop in start()

    def _app_name(self, pid: int) -> str:
        task = self.kernel.tasks.get(pid)
        return task.app_name if task is not None else "?"

    @staticmethod
    def _make_kernel(config: ServerConfig) -> Kernel:
        root = config.root
        if root is None and config.state_dir is not None:
            root = Path(config.state_dir) / "fs"
        chosen = config.backends
        profile = with_task_defaults(get_profile(config.profile), config.task_defaults)
        return Kernel(profile=profile, fs_root=root,
                      fs=chosen.fs if chosen else None, store=chosen.store if chosen else None,
                      can_bus=chosen.bus if chosen else None, state_dir=config.state_dir,
                      pin=config.pin, engine=config.engine)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> tuple[str, int]:
        """Bind, load the startup images and start the clock; returns (host, port)."""
        self._shutdown = asyncio.Event()
        self.clock = AutoClock(self.kernel, self._saturated, self._clock_failed)
        self.hub = EventHub(self.kernel.events, self.kernel.clock.now(), self.clock.wake,
                            owner_of=self.sessions.owner)
        self.kernel.events.subscribe(self.log.on_kernel_event, KERNEL_TYPES)
        self.sessions.add_release_hook(self._session_released)
        for path in self.config.load:
            task = load_file(self.kernel, path)
            self.attach_symbols(task)
            self.log.log("info", f"loaded {path} as pid {task.pid}", pid=task.pid)
        loop = asyncio.get_running_loop()
        tcp = TcpTransport(self.config.host, self.config.port)
        self._transports.append(tcp)
        await tcp.open(self)
        assert tcp.address is not None
        self.address = tcp.address
        if self.config.link is not None:
            link = link_transport(self.config.link)
            self._transports.append(link)
            self.link_url = await link.open(self)
        self._tasks = [asyncio.create_task(self.clock.run(), name="hsx-clock"),
                       asyncio.create_task(self._expire_sessions(), name="hsx-expiry")]
        loop_kind = "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"
        self.log.log("info", f"listening on {self.address[0]}:{self.address[1]} "
                     f"({loop_kind} event loop); guest files in {self.kernel.fs.location}")
        return self.address

    async def serve(self) -> None:
        """Run until `request_shutdown`, then shut down cleanly."""
        assert self._shutdown is not None
        await self._shutdown.wait()
        await self._stop()

    def request_shutdown(self) -> None:
        if self._shutdown is not None:
            self._shutdown.set()

    async def _stop(self) -> None:
        self.closing = True
        if self._transports:
            for transport in self._transports:
                transport.close()
            # asyncio (3.11) drops a connection accepted just before close() without
            # closing its socket; collecting frees it, so that client sees EOF, not silence.
            await asyncio.sleep(ACCEPT_GRACE_S)
            gc.collect()
        self.clock.close()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CLOSE_GRACE_S
        while any(c.busy for c in self.connections) and loop.time() < deadline:
            await asyncio.sleep(0.01)            # long steps see `closing` and finish
        self.kernel.shutdown()
        self.debugger.close()
        for conn in list(self.connections):
            conn.flush_events()
            conn.close()
        while self.connections and loop.time() < deadline:
            await asyncio.sleep(0.01)
        for conn in list(self.connections):
            conn.abort()
        await asyncio.sleep(0)

    async def _expire_sessions(self) -> None:
        while True:
            await asyncio.sleep(EXPIRY_CHECK_S)
            try:
                self.sessions.expire()
            except Exception as error:      # a release hook failed; the others still ran
                self._internal_error("session expiry", error)

    def _clock_failed(self, error: BaseException) -> None:
        self._internal_error("the auto clock (now stopped)", error)

    def _saturated(self) -> bool:
        return self.hub.saturated()

    # ------------------------------------------------------------------ connections

    def connection_opened(self, conn: Connection) -> None:
        if len(self.connections) >= self.config.max_connections:
            conn.send(self._error(RequestError(
                "too_many_connections", f"the executive already serves "
                f"{self.config.max_connections} connections, the most it takes: close one "
                "and try again"), None, False))
            conn.close()
            return
        self.connections.add(conn)

    def connection_closed(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self.hub.drop_sink(conn)
        self.sessions.close_home(conn)
        for handle in conn.mailbox_handles:
            self.kernel.mailboxes.close(0, handle)
        for sid in conn.load_streams:
            try:
                self.kernel.load_abort(sid)
            except KernelError:
                pass
        self.clock.wake()

    def attach_symbols(self, task: Task) -> None:
        """Hand a task loaded from a file its `.sym`: the kernel announced the task (and
        the debugger attached to it) before `load_image` found the file.  This also
        restores remembered breakpoints that need names.  A broken file only warns."""
        if task.symbols_path is None:
            return
        try:
            self.debugger.load_symbols(task.pid, task.symbols_path)
        except DebugError as error:
            self.log.log("warning", f"pid {task.pid}: {error.message}", pid=task.pid)

    def _session_released(self, session: Session, reason: str) -> None:
        self.hub.unsubscribe(session)
        self.debugger.release_owner(session.handle)
        self.log.log("info", f"session {session.handle} ({session.client}) closed: {reason}",
                     session=session.handle)
        self.clock.wake()

    # ------------------------------------------------------------------ requests

    def handle_line(self, conn: Connection, line: bytes) -> dict[str, Any] | Awaitable[dict]:
        """One request line -> its reply, or an awaitable of it (long-running commands)."""
        try:
            request = decode_request(line)
        except RequestError as error:
            return self._error(error, error.request_id, error.has_request_id)
        has_id = "id" in request
        rid = request.get("id")
        try:
            if self.closing:
                raise RequestError("shutting_down", "the executive is shutting down")
            if not conn.authenticated:
                self._authenticate(conn, request)
            command = self.dispatcher.resolve(request)
            check_variant(command.name, command.feature, self.kernel.profile)
            session = None
            session_id = request.get("session")
            if session_id is not None and command.name != "session.open":
                session = self.sessions.get(session_id)
                check_session(command.name, command.feature, session)
            call = Call(self, conn, session, command.arguments(request), command.schema)
            if command.needs_session:
                call.require_session()
            if command.writes and session is not None:
                self.sessions.check_writer(session)
            result = command.handler(call)
        except Exception as error:       # every failure becomes a reply; the server lives on
            return self._failure(error, rid, has_id, request)
        if type(result) is not dict and inspect.isawaitable(result):
            return self._complete(result, rid, has_id, request)
        self.clock.wake()
        return self._ok(result, rid, has_id)

    async def _complete(self, pending: Awaitable[dict], rid: Any, has_id: bool,
                        request: dict[str, Any]) -> dict[str, Any]:
        try:
            result = await pending
        except Exception as error:
            return self._failure(error, rid, has_id, request)
        finally:
            self.clock.wake()
        return self._ok(result, rid, has_id)

    def _authenticate(self, conn: Connection, request: dict[str, Any]) -> None:
        if conn.authenticated:
            return
        token = request.get("token")
        if token is None:
            raise RequestError("auth_required",
                               "this executive requires a token (field 'token' on the first "
                               "request or in session.open)")
        wait = self.auth_limiter.wait_s(conn.peer_host)
        if wait:
            self._auth_refused(conn)
            raise RequestError("auth_rate_limited", f"too many wrong tokens from "
                               f"{conn.peer_host}: try again in {wait:.2f} s",
                               retry_after_s=max(round(wait, 3), 0.001))
        if not isinstance(token, str) or not same_secret(token, self.token or ""):
            delay = self.auth_limiter.failed(conn.peer_host)
            self.log.log("warning", f"authentication failed from {conn.peer}")
            self._auth_refused(conn)
            raise RequestError("auth_failed", f"wrong token (next attempt from this address "
                               f"in {delay:.2f} s)", retry_after_s=round(delay, 3))
        self.auth_limiter.succeeded(conn.peer_host)
        conn.authenticated = True

    @staticmethod
    def _auth_refused(conn: Connection) -> None:
        """A wrong or too-early token: the connection is cut after a few of them."""
        conn.auth_failures += 1
        if conn.auth_failures >= MAX_FAILURES_PER_CONNECTION:
            asyncio.get_running_loop().call_soon(conn.close)

    @staticmethod
    def _ok(payload: dict[str, Any], rid: Any, has_id: bool) -> dict[str, Any]:
        reply: dict[str, Any] = {"version": PROTOCOL_VERSION, "status": "ok"}
        if has_id:
            reply["id"] = rid
        reply.update(payload)
        return reply

    @staticmethod
    def _error(error: RequestError, rid: Any, has_id: bool) -> dict[str, Any]:
        reply: dict[str, Any] = {"version": PROTOCOL_VERSION, "status": "error"}
        if has_id:
            reply["id"] = rid
        reply.update(error.reply())
        return reply

    def _failure(self, error: Exception, rid: Any, has_id: bool,
                 request: dict[str, Any]) -> dict[str, Any]:
        if isinstance(error, RequestError):
            return self._error(error, rid, has_id)
        if isinstance(error, KernelError):
            return self._error(RequestError(error.code, error.message), rid, has_id)
        if isinstance(error, MachineError):
            return self._error(RequestError("bad_argument", str(error)), rid, has_id)
        return self.internal_failure(f"command {request.get('cmd')!r}", error, rid, has_id)

    def internal_failure(self, where: str, error: BaseException, rid: Any = None,
                         has_id: bool = False) -> dict[str, Any]:
        """The reply to a request that hit a bug; the traceback goes to dmesg."""
        self._internal_error(where, error)
        return self._error(RequestError("internal_error",
                                        f"{type(error).__name__}: {error}"), rid, has_id)

    def _internal_error(self, where: str, error: BaseException) -> None:
        self.log.log("error", f"internal error in {where}: {error!r}",
                     traceback="".join(traceback.format_exception(error, limit=8)))

    def line_too_long(self) -> dict[str, Any]:
        return self._error(RequestError(
            "line_too_long", f"request line longer than {self.max_line} bytes; discarded"),
            None, False)

