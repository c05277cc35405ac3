"""The mps2-an385 board under QEMU (`hsx board run --board mps2-an385`, docs/port.md "The
mps2-an385 board").

QEMU's `mps2-an385` machine (a Cortex-M3 with CMSDK UARTs and SysTick) runs the firmware
`hsx.board.build` links. Its UART0 is the link: on `socket://HOST:PORT` QEMU serves it on
a listening socket this module binds first (so the port is known, a busy one is reported
before QEMU starts, and port 0 picks a free one), handed to QEMU by file descriptor; on
`pty` QEMU opens a pseudo-terminal. UART1 carries the firmware's diagnostics into a log,
semihosting gives it the host file that emulates its flash, and QMP (QEMU's control
socket) resets the board and says where a pty is.
"""
from __future__ import annotations

import errno
import json
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .build import BuildError, find_or_build
from .serve import BoardError, Served, end_with_parent, listen_endpoint, probe_hello

QEMU = "qemu-system-arm"
MACHINE = "mps2-an385"
INSTALL_HINT = ("install QEMU's Arm system emulator, the OS package qemu-system-arm "
                "(Debian, Ubuntu: apt-get install qemu-system-arm; Fedora: dnf install "
                "qemu-system-arm; macOS: brew install qemu)")


# QEMU's one complaint about every run: the board's Ethernet controller is not connected.
NOISE = "has no peer"


def qemu_program() -> str | None:
    """The path of qemu-system-arm, or None when it is not installed."""
    return shutil.which(QEMU)


class Qmp:
    """A QMP connection (QEMU's JSON control socket): one command at a time."""

    def __init__(self, path: Path, deadline: float) -> None:
        end = time.monotonic() + deadline
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.settimeout(max(0.1, end - time.monotonic()))
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > end:
                    raise BoardError("the mps2-an385 board", "QEMU's control socket did not "
                                     "open") from None
                time.sleep(0.02)
        self.reader = self.sock.makefile("rb")
        self._answer()                      # the greeting
        self.command("qmp_capabilities")

    def _answer(self) -> dict[str, Any]:
        while True:
            line = self.reader.readline()
            if not line:
                raise BoardError("the mps2-an385 board", "QEMU closed its control socket")
            message = json.loads(line)
            if "event" not in message:
                return message

    def command(self, name: str, **arguments: Any) -> Any:
        request: dict[str, Any] = {"execute": name}
        if arguments:
            request["arguments"] = arguments
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        answer = self._answer()
        if "error" in answer:
            raise BoardError("the mps2-an385 board", f"QEMU refused {name}: "
                             f"{answer['error'].get('desc', answer['error'])}")
        return answer.get("return")

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


@dataclass
class QemuServed(Served):
    """The mps2-an385 board running in QEMU: besides a Served, its work directory (the
    diagnostics log, QEMU's own log, the control socket and a temporary flash) and a reset."""

    workdir: tempfile.TemporaryDirectory | None = None
    qmp_path: Path | None = None
    flash: Path | None = None
    _qmp: Qmp | None = field(default=None, repr=False)

    def diagnostics(self) -> str:
        """What the firmware wrote on its diagnostics UART, then what QEMU said."""
        lines = []
        for name in ("diag.log", "qemu.log"):
            path = Path(self.workdir.name) / name if self.workdir else None
            if path and path.is_file():
                lines += [line for line in path.read_text(errors="replace").splitlines()
                          if line.strip() and NOISE not in line]
        return "\n".join(lines)

    def reset(self) -> None:
        """Reset the board as its reset button does (the RAM is kept, the firmware starts
        again and sends a new hello)."""
        if self._qmp is None:
            self._qmp = Qmp(self.qmp_path, 10.0)
        self._qmp.command("system_reset")

    def stop(self, timeout: float = 10.0) -> int:
        if self._qmp is not None:
            self._qmp.close()
            self._qmp = None
        status = super().stop(timeout)
        if self.workdir is not None:
            self.workdir.cleanup()
            self.workdir = None
        return status


def _listening_socket(listen: str) -> tuple[socket.socket, str]:
    """Bind socket://HOST:PORT for QEMU: the socket and the URL a client connects to."""
    endpoint = listen_endpoint(listen)
    assert endpoint is not None                   # (a pty has no socket)
    host, port = endpoint.host, endpoint.port
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise BoardError(f"{host}:{port}", f"cannot listen there: {error.strerror}") from None
    family, kind, proto, _, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(1)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise BoardError(f"{host}:{port}", "the port is already in use",
                             "stop what listens there, or choose another port in --listen "
                             "(socket://127.0.0.1:0 picks a free one)") from None
        raise BoardError(f"{host}:{port}", f"cannot listen there: {error.strerror}") from None
    shown, bound = sock.getsockname()[:2]
    return sock, f"socket://[{shown}]:{bound}" if ":" in shown else f"socket://{shown}:{bound}"


def _option_value(text: str) -> str:
    """A value for a QEMU -option list (a comma is written twice)."""
    return text.replace(",", ",,")


def command_line(firmware: Path, link: str, workdir: Path, flash: Path) -> list[str]:
    """QEMU's arguments: the machine, the firmware, UART0 on `link` (a -chardev spec with
    id=link), UART1 into diag.log, semihosting for the flash file, QMP on qmp.sock."""
    return [QEMU, "-machine", MACHINE, "-nodefaults", "-display", "none",
            "-kernel", str(firmware),
            "-chardev", link, "-serial", "chardev:link",
            "-chardev", f"file,id=diag,path={_option_value(str(workdir / 'diag.log'))}",
            "-serial", "chardev:diag",
            "-semihosting-config", "enable=on,target=native,arg=hsx-mps2,"
            f"arg=persist={_option_value(str(flash))}",
            "-qmp", f"unix:{_option_value(str(workdir / 'qmp.sock'))},server=on,wait=off"]


def start(spec: str, listen: str, variant: str, flash: str | None,
          hello_deadline: float) -> QemuServed:
    """Start the firmware for `variant` in QEMU with its link on `listen` (`spec` is
    serve.link_spec's: "tcp:HOST:PORT" or "pty"), and wait for its hello."""
    program = qemu_program()
    if program is None:
        raise BoardError("the mps2-an385 board", f"{QEMU} is not installed", INSTALL_HINT)
    try:
        firmware = find_or_build(variant, "mps2-an385")
    except BuildError as error:
        raise BoardError("the mps2-an385 board", f"cannot build its firmware: {error}",
                         "hsx builds it with the zig compiler of the 'ziglang' package "
                         "(pip install ziglang)") from None
    listener, url = (None, None) if spec == "pty" else _listening_socket(listen)
    workdir = tempfile.TemporaryDirectory(prefix="hsx-mps2-")
    work = Path(workdir.name)
    flash_path = Path(flash).resolve() if flash else work / "flash.bin"
    link = ("pty,id=link" if listener is None else
            f"socket,id=link,fd={listener.fileno()},server=on,wait=off,nodelay=on")
    args = command_line(firmware, link, work, flash_path)
    args[0] = program
    try:
        with open(work / "qemu.log", "wb") as log:
            process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                       pass_fds=() if listener is None else (listener.fileno(),),
                                       preexec_fn=end_with_parent)
    except OSError as error:
        workdir.cleanup()
        raise BoardError("the mps2-an385 board", f"cannot start {QEMU}: {error}") from None
    finally:
        if listener is not None:
            listener.close()            # QEMU has its own
    served = QemuServed(process, url or "", {}, None, workdir=workdir,
                        qmp_path=work / "qmp.sock", flash=flash_path)
    try:
        if url is None:
            served.url = url = _pty_url(served)
        served.hello = probe_hello(url, hello_deadline, alive=process)
    except BoardError as error:
        died = process.poll() is not None
        said = served.diagnostics()
        served.stop(timeout=2.0)
        if died:
            last = said.splitlines()[-1] if said else f"exit status {process.returncode}"
            raise BoardError("the mps2-an385 board", f"QEMU stopped: {last}") from None
        raise error
    except BaseException:
        served.stop(timeout=2.0)
        raise
    return served


def _pty_url(served: QemuServed) -> str:
    """Where QEMU put the pty of UART0 (QMP's query-chardev)."""
    served._qmp = Qmp(served.qmp_path, 10.0)
    for chardev in served._qmp.command("query-chardev"):
        if chardev.get("label") == "link" and chardev.get("filename", "").startswith("pty:"):
            return "serial://" + chardev["filename"].removeprefix("pty:")
    raise BoardError("the mps2-an385 board", "QEMU did not say where its pty is")
