"""initialize, launch, attach, configurationDone, restart, terminate, disconnect."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hsx.client import DEFAULT_HOST, DEFAULT_PORT, ProtocolError
from hsx.client.launch import LAUNCHABLE, LaunchError, launch as start_program
from hsx.client.locations import function_body
from hsx.client.url import URLError, parse_url

from ..debuggee import Debuggee
from ..events import EventPump
from ..protocol import DapError
from ..requests import handles
from .breakpoints import apply_pending

# Only what works (docs/dap.md); supportsStepBack follows in a `capabilities` event once
# the executive says it can run backwards.
CAPABILITIES: dict[str, Any] = {
    "supportsConfigurationDoneRequest": True,
    "supportsFunctionBreakpoints": True,
    "supportsConditionalBreakpoints": True,
    "supportsHitConditionalBreakpoints": True,
    "supportsLogPoints": True,
    "supportsInstructionBreakpoints": True,
    "supportsDataBreakpoints": True,
    "supportsEvaluateForHovers": True,
    "supportsSetVariable": True,
    "supportsSetExpression": True,
    "supportsExceptionInfoRequest": True,
    "supportsGotoTargetsRequest": True,
    "supportsRestartRequest": True,
    "supportsStepBack": False,
    "supportsSteppingGranularity": True,
    "supportsDisassembleRequest": True,
    "supportsReadMemoryRequest": True,
    "supportsWriteMemoryRequest": True,
    "supportsLoadedSourcesRequest": True,
    "supportsTerminateRequest": True,
    "supportTerminateDebuggee": True,
    "supportsDelayedStackTraceLoading": True,
    "supportsCompletionsRequest": True,
    "completionTriggerCharacters": [".", ">"],       # members after `.` and `->`
    "exceptionBreakpointFilters": [],
}
OPTIMISE = (0, 1, 2, 3)
PROGRESS_ID = "hsx-launch"


@handles("initialize")
async def initialize(adapter, args: dict[str, Any]) -> dict[str, Any]:
    adapter.client_info = args
    adapter.line_base = 1 if args.get("linesStartAt1", True) else 0
    adapter.column_base = 1 if args.get("columnsStartAt1", True) else 0
    return dict(CAPABILITIES)


@handles("launch")
async def launch(adapter, args: dict[str, Any]) -> None:
    _not_started(adapter)
    program = _program(args)
    host, port, token = _address(args)
    arguments, env = _command_line(args)
    optimise = args.get("optimise", args.get("optimize", 0))
    if optimise not in OPTIMISE:
        raise DapError(f"\"optimise\" must be one of 0, 1, 2, 3, not {optimise!r}")
    loop = asyncio.get_running_loop()
    reporting = bool(adapter.client_info.get("supportsProgressReporting"))

    def progress(text: str) -> None:          # from the launch's thread
        loop.call_soon_threadsafe(adapter.output, text + "\n")
        if reporting:
            loop.call_soon_threadsafe(lambda: adapter.event(
                "progressUpdate", progressId=PROGRESS_ID, message=text))

    if reporting:
        adapter.event("progressStart", progressId=PROGRESS_ID,
                      title=f"Launching {program.name}", cancellable=False)
    try:
        started = await asyncio.to_thread(start_program, program, host, port, token=token,
                                          optimise=optimise, progress=progress,
                                          args=arguments, env=env)
    except LaunchError as error:
        raise DapError(str(error)) from None
    finally:
        if reporting:
            adapter.event("progressEnd", progressId=PROGRESS_ID)
    try:
        debuggee = await Debuggee.connect(host, port, pid=started.pid, launched=started,
                                          token=token)
    except BaseException:
        await asyncio.to_thread(started.close)
        raise
    debuggee.stop_on_entry = bool(args.get("stopOnEntry", False))
    await _begin(adapter, debuggee, bool(args.get("reverse", True)))


@handles("attach")
async def attach(adapter, args: dict[str, Any]) -> None:
    _not_started(adapter)
    host, port, token = _address(args)
    pid, app = args.get("pid"), args.get("app") or args.get("name")
    if pid is not None:
        try:
            pid = int(pid, 0) if isinstance(pid, str) else int(pid)
        except (TypeError, ValueError):
            raise DapError(f"\"pid\" must be a task's number, not {pid!r}") from None
    elif not isinstance(app, str) or not app:
        raise DapError("attach needs \"pid\" (a task's PID) or \"app\" (its app name)")
    debuggee = await Debuggee.connect(host, port, pid=pid, app=app, token=token)
    await _begin(adapter, debuggee, bool(args.get("reverse", False)))


async def _begin(adapter, debuggee: Debuggee, record: bool) -> None:
    """The session is there: events flow, the client may now configure."""
    adapter.debuggee = debuggee
    adapter.events = EventPump(adapter, debuggee)
    adapter.pump = asyncio.create_task(adapter.events.run())
    adapter.output(f"debugging {debuggee.app_name} (PID {debuggee.pid}) on the executive at "
                   f"{debuggee.address}\n")
    for stream, text in debuggee.recent:
        adapter.events.output(debuggee.pid, stream, text)
    if record and "reverse" in debuggee.features:
        try:
            await debuggee.request("history.on", pid=debuggee.pid)
            debuggee.recording = True
        except ProtocolError as error:
            adapter.output(f"reverse execution is off: {error.message or error.code}\n")
    if debuggee.recording:
        adapter.event("capabilities", capabilities={"supportsStepBack": True})
    await apply_pending(adapter)
    adapter.event("initialized")


@handles("configurationDone")
async def configuration_done(adapter, args: dict[str, Any]) -> None:
    debuggee = adapter.need_debuggee()
    if debuggee.configured:
        return
    debuggee.configured = True
    pid = debuggee.pid
    if not debuggee.launched:
        row = await debuggee.task(pid)
        if row["state"] == "paused":
            adapter.later(lambda: adapter.event("stopped", reason="pause", threadId=pid,
                                                allThreadsStopped=False))
        return
    await _start(adapter, debuggee)


async def _start(adapter, debuggee: Debuggee) -> None:
    """Set a launched (or restarted) task going: to main's first line with stopOnEntry
    (its entry point without a main), else running."""
    pid = debuggee.pid
    if debuggee.stop_on_entry:
        try:
            where = await function_body(debuggee.client, pid, "main")
        except ProtocolError as error:
            if error.code not in ("unknown_symbol", "no_symbols"):
                raise
            adapter.later(lambda: adapter.event("stopped", reason="entry", threadId=pid,
                                                allThreadsStopped=False))
            return
        reply = await debuggee.run(pid, debuggee.request("run.to", pid=pid, addr=where))
        debuggee.entry_breakpoint = reply["result"].get("breakpoint_id")
    else:
        await debuggee.run(pid, debuggee.request("resume", pid=pid))


@handles("restart")
async def restart(adapter, args: dict[str, Any]) -> None:
    """VS Code's restart: a program the adapter built is built again; the executive loads
    it as a new task (`restart`) with the breakpoints carried over, and it starts as
    at the beginning."""
    debuggee = adapter.need_debuggee()
    if debuggee.launch is not None:
        try:
            await asyncio.to_thread(debuggee.launch.rebuild)
        except LaunchError as error:
            raise DapError(str(error)) from None
    reply = await debuggee.request("restart", pid=debuggee.pid, paused=True)
    debuggee.restarted(reply["reload"])
    adapter.handles.reset()
    adapter.output(f"restarted {debuggee.app_name} as PID {debuggee.pid}\n")
    for warning in reply.get("warnings", ()):
        adapter.output(f"{warning}\n", "important")
    if debuggee.recording:
        try:
            await debuggee.request("history.on", pid=debuggee.pid)
        except ProtocolError as error:
            debuggee.recording = False
            adapter.output(f"reverse execution is off: {error.message or error.code}\n")
    await apply_pending(adapter)
    await _start(adapter, debuggee)


@handles("terminate")
async def terminate(adapter, args: dict[str, Any]) -> None:
    debuggee = adapter.need_debuggee()
    if debuggee.ended:
        adapter.later(lambda: adapter.event("terminated"))
        return
    await debuggee.request("kill", pid=debuggee.pid)     # exited + terminated follow


@handles("disconnect")
async def disconnect(adapter, args: dict[str, Any]) -> None:
    debuggee, adapter.debuggee = adapter.debuggee, None
    if debuggee is not None:
        if adapter.pump is not None:
            adapter.pump.cancel()
        terminate = args.get("terminateDebuggee", debuggee.launched)
        await debuggee.close(terminate=bool(terminate))
    adapter.finished.set()


def _not_started(adapter) -> None:
    if adapter.debuggee is not None:
        raise DapError(f"already debugging {adapter.debuggee.app_name} "
                       f"(PID {adapter.debuggee.pid}): one program per debug session")


def _command_line(args: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The launch's `args` (a list of strings: argv[1:]) and `env` (an object of names
    and string values), as the executive's load takes them."""
    arguments = args.get("args") or []
    if not isinstance(arguments, list) or not all(isinstance(a, str) for a in arguments):
        raise DapError("\"args\" must be a list of strings (the program's argv[1:])")
    env = args.get("env") or {}
    if not isinstance(env, dict) or not all(isinstance(k, str) and k and "=" not in k
                                            and isinstance(v, str) for k, v in env.items()):
        raise DapError("\"env\" must be an object of variable names and string values")
    return arguments, [f"{name}={value}" for name, value in env.items()]


def _program(args: dict[str, Any]) -> Path:
    program = args.get("program")
    if not isinstance(program, str) or not program:
        raise DapError("launch needs \"program\": the .c, .mvasm or .hxe file to debug")
    path = Path(program).expanduser()
    cwd = args.get("cwd")
    if not path.is_absolute() and isinstance(cwd, str) and cwd:
        path = Path(cwd).expanduser() / path
    if path.suffix.lower() not in LAUNCHABLE:
        raise DapError(f"{program}: hsx dap launches .c, .mvasm and .hxe files")
    if not path.is_file():
        raise DapError(f"{program}: no such file" + (f" (looked in {cwd})" if cwd else ""))
    return path


def _address(args: dict[str, Any]) -> tuple[str, int, str | None]:
    """(host, port, token); with "connect" (a URL: a board's socket:// or serial://, or
    tcp://) the URL stands where the host goes."""
    token = args.get("token")
    token = token if isinstance(token, str) and token else None
    url = args.get("connect")
    if url is not None:
        if "host" in args or "port" in args:
            raise DapError("give \"connect\" (a URL) or \"host\" and \"port\", not both")
        try:
            parse_url(url)
        except URLError as error:
            raise DapError(f"\"connect\": {error}") from None
        return url, 0, token
    host = args.get("host") or DEFAULT_HOST
    port = args.get("port", DEFAULT_PORT)
    if not isinstance(host, str):
        raise DapError(f"\"host\" must be a host name, not {host!r}")
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise DapError(f"\"port\" must be a TCP port number (1-65535), not {port!r}")
    return host, port, token
