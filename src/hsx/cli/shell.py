"""`hsx shell`: talk to a running executive (DESIGN.md §7).

    hsx shell ps                         one command, then exit
    hsx shell peek 1 0x4000 16 --json    the raw reply as JSON
    hsx shell clock rate 1000
    hsx shell send app:chan hello
    hsx shell '{"cmd": "ps"}'            any request, verbatim
    hsx shell                            a prompt (same syntax; `quit` to leave)

A command is its name followed by positional values (see `POSITIONAL`) and/or
`field=value` pairs; values that look like numbers, booleans or JSON are sent as such.
`stdio PID` and `events.subscribe …` keep printing events until Ctrl-C.
Exit status: 0 ok, 1 error reply, 2 no connection (or a bad command line).
"""
from __future__ import annotations

import json
import os
import shlex
import sys
from typing import Any

import click

from hsx.cli.errors import no_executive

from hsx.client import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    Client,
    ConnectionClosed,
    ProtocolError,
)

EXIT_OK, EXIT_ERROR, EXIT_CONNECTION = 0, 1, 2

POSITIONAL: dict[str, list[str]] = {
    "info": ["pid"], "ps": ["pid"], "load": ["path"], "exec": ["path"], "kill": ["pid"],
    "pause": ["pid"], "resume": ["pid"], "restart": ["pid"], "reload": ["pid"],
    "step": ["count", "pid"], "clock": ["op"], "clock.step": ["count", "pid"],
    "clock.rate": ["rate"], "sched": ["pid", "quantum", "priority"],
    "peek": ["pid", "addr", "length"], "poke": ["pid", "addr", "data"], "regs": ["pid"],
    "dumpregs": ["pid"], "send": ["target", "data"], "listen": ["target", "limit"],
    "stdio": ["pid"], "dmesg": ["limit"], "session.open": ["client"],
    "session.lock": ["pid"], "session.unlock": ["pid"], "events.ack": ["seq"],
    "mailbox.open": ["target", "mode"], "mailbox.close": ["handle"],
    "val.get": ["oid"], "val.set": ["oid", "value"], "cmd.call": ["oid"],
}
CLOCK_OPS = {"rate": ["rate"], "step": ["count", "pid"]}
TEXT_FIELDS = {"path", "target", "data", "data_hex", "name", "client", "op", "mode", "level",
               "pin", "auth"}
FOLLOW = {"stdio", "events.subscribe", "subscribe"}


class UsageError(Exception):
    pass


def parse_command(words: list[str]) -> tuple[str, dict[str, Any]]:
    """`["peek", "1", "0x4000"]` -> ("peek", {"pid": 1, "addr": 0x4000})."""
    if not words:
        raise UsageError("no command")
    if words[0].lstrip().startswith("{"):
        try:
            request = json.loads(" ".join(words))
        except ValueError as error:
            raise UsageError(f"bad JSON request: {error}") from None
        if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
            raise UsageError("a JSON request needs a string 'cmd'")
        cmd = request.pop("cmd")
        request.pop("version", None)
        request.pop("id", None)
        return cmd, request
    cmd, fields, positional = words[0].lower(), {}, []
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if eq and key.isidentifier():
            fields[key] = _value(key, value)
        else:
            positional.append(word)
    names = list(POSITIONAL.get(cmd, []))
    if cmd == "clock" and positional:
        names += CLOCK_OPS.get(positional[0], [])
    if len(positional) > len(names):
        raise UsageError(f"too many values for {cmd} (takes {' '.join(names) or 'none'}; "
                         "use field=value)")
    for name, value in zip(names, positional):
        fields[name] = _value(name, value)
    if cmd in ("load", "exec") and isinstance(fields.get("path"), str):
        fields["path"] = os.path.abspath(fields["path"])   # the daemon's cwd is not ours
    return cmd, fields


def _value(name: str, text: str) -> Any:
    if name in TEXT_FIELDS:
        return text
    for number in (lambda t: int(t, 0), float):
        try:
            return number(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if text[:1] in "[{\"" or text == "null":
        try:
            return json.loads(text)
        except ValueError:
            pass
    return text


# ---------------------------------------------------------------------- output

def render(cmd: str, reply: dict[str, Any], as_json: bool) -> str:
    if as_json:
        return json.dumps(reply)
    payload = {k: v for k, v in reply.items() if k not in ("version", "status", "id")}
    if cmd in ("ps", "list_tasks") and "tasks" in payload:
        return _ps_table(payload["tasks"]["tasks"])
    if cmd in ("dmesg", "log"):
        return "\n".join(f"{e['seq']:>5} {e['level']:<7} {e['message']}" for e in payload["logs"])
    if cmd == "ping":
        return payload["reply"]
    return json.dumps(payload, indent=2)


def _ps_table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'PID':>4}  {'STATE':<11} {'PC':>6}  {'INSTR':>12}  {'PRI':>3}  {'LOCK':<5} NAME"]
    for r in rows:
        lines.append(f"{r['pid']:>4}  {r['state']:<11} {r['pc']:#06x}  {r['instructions']:>12}  "
                     f"{r['priority']:>3}  {r.get('locked_by') or '-':<5} {r['app_name']}")
    return "\n".join(lines)


def render_event(event: dict[str, Any], as_json: bool) -> str:
    if as_json:
        return json.dumps(event)
    if event.get("type") in ("stdout", "stderr"):
        return event["data"].get("text", "").rstrip("\n")
    return f"[{event.get('seq')}] {event.get('type')} pid={event.get('pid')} " \
           f"{json.dumps(event.get('data'))}"


# ---------------------------------------------------------------------- running

def run_one(client: Client, words: list[str], as_json: bool, follow: bool) -> int:
    try:
        cmd, fields = parse_command(words)
    except UsageError as error:
        click.echo(f"hsx: {error}", err=True)
        return EXIT_CONNECTION
    try:
        reply = client.request(cmd, **fields)
    except ProtocolError as error:
        if as_json:
            click.echo(json.dumps(error.reply))
        click.echo(f"hsx: error {error.code}: {error.message}", err=True)
        return EXIT_ERROR
    if "session" in reply and isinstance(reply["session"], dict) and "id" in reply["session"]:
        client.session_id = reply["session"]["id"]       # later commands act as this session
        client.session = reply["session"]
    elif cmd == "session.close":
        client.session_id = client.session = None
    click.echo(render(cmd, reply, as_json))
    if follow and cmd in FOLLOW and fields.get("op") not in ("write", "unsubscribe"):
        try:
            for event in client.events():
                click.echo(render_event(event, as_json))
        except KeyboardInterrupt:
            pass
    return EXIT_OK


def repl(client: Client, as_json: bool) -> int:
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    click.echo(f"connected to {client.host}:{client.port}; 'quit' to leave")
    while True:
        for event in client.drain_events():
            click.echo(render_event(event, as_json))
        try:
            line = input("hsx> ")
        except EOFError:
            click.echo()
            return EXIT_OK
        except KeyboardInterrupt:
            click.echo()
            continue
        if line.strip() in ("quit", "exit"):
            return EXIT_OK
        if not line.strip():
            continue
        try:
            words = shlex.split(line)
        except ValueError as error:
            click.echo(f"hsx: {error}", err=True)
            continue
        run_one(client, words, as_json, follow=False)


@click.command("shell", context_settings={"ignore_unknown_options": True})
@click.option("--host", default=DEFAULT_HOST, show_default=True)
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT, show_default=True)
@click.option("--token", envvar="HSX_TOKEN", help="Secret the executive requires.")
@click.option("--json", "as_json", is_flag=True, help="Print replies (and events) as JSON.")
@click.option("--timeout", type=float, default=30.0, show_default=True,
              help="Seconds to wait for a reply.")
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def shell_command(host: str, port: int, token: str | None, as_json: bool, timeout: float,
                  command: tuple[str, ...]) -> None:
    """Send COMMAND to the executive and print the reply, or start a prompt."""
    try:
        client = Client(host, port, timeout=timeout, token=token)
    except ProtocolError as error:
        click.echo(f"hsx: error {error.code}: {error.message}", err=True)
        sys.exit(EXIT_ERROR)
    except OSError as error:
        raise no_executive(host, port, error) from None
    try:
        with client:
            code = run_one(client, list(command), as_json, follow=True) if command \
                else repl(client, as_json)
    except (ConnectionClosed, TimeoutError) as error:
        click.echo(f"hsx: {error}", err=True)
        code = EXIT_CONNECTION
    sys.exit(code)
