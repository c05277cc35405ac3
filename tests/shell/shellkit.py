"""Programs and helpers for the console's tests: a real `hsx execd` process, programs
built with their symbols, and a pseudo-terminal running `hsx shell`."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
from execdkit import readline

from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym
from hsx.toolchain.build import assemble_file, link_modules

REPO = Path(__file__).resolve().parents[2]
PROMPT = r"hsx(\[\d+\])?>"

# sleeps 500 ms, then counts in `counter` for ever (a breakpoint at `target` hits late)
DELAYED = """
.data
counter: .word 0x11223344
msg:     .ascii "tick\\n"
.text
.entry start
start:
    LDI R0, 500
    SVC MOD=6, FN=0
target:
    LDI32 R2, counter
loop:
    LD R1, [R2+0]
    ADDI R1, R1, 1
    ST [R2+0], R1
    JMP loop
"""

# a value, a command and a mailbox to look at
MOTOR = """
.value {"group": 1, "id": 2, "name": "rpm", "unit": "rpm", "init": 1.0, "max": 100.0}
.cmd {"group": 1, "id": 3, "name": "boost", "help": "Add one to the base", "handler": "boost"}
.text
.entry start
start:
    LDI R0, 1000
    SVC MOD=6, FN=0
    JMP start
boost:
    LDI R0, 41
    ADDI R0, R0, 1
    RET
"""

VARS_C = """
struct point { int x; int y; };
int total = 0;

int add(struct point *p, int n) {
    int sum = p->x + p->y + n;
    total += sum;
    return sum;
}

int main(void) {
    struct point here = {1, 2};
    for (int i = 0; i < 100000000; i++) {
        add(&here, i);
    }
    return total & 0xff;
}
"""

# shows each piece of input as it arrives (a read returns what one write sent)
ECHO_C = r"""
#include <stdio.h>
#include <hsx_fs.h>

int main(void) {
    char buf[64];
    int n;
    while ((n = hsx_fs_read(0, buf, sizeof buf - 1)) > 0) {
        buf[n] = 0;
        printf("got [%s]\n", buf);
    }
    printf("input ended\n");
    return 0;
}
"""

# reads lines with the C library's fgets until the end of its input
LINES_C = r"""
#include <stdio.h>
#include <string.h>

int main(void) {
    char buf[64];
    int n = 0;
    while (fgets(buf, sizeof buf, stdin)) {
        size_t len = strlen(buf);
        int whole = len > 0 && buf[len - 1] == '\n';
        if (whole)
            buf[--len] = 0;
        printf("line %d: [%s]%s\n", ++n, buf, whole ? "" : " (no newline)");
    }
    printf("done after %d lines\n", n);
    return n;
}
"""

# an inventory with a function to finish and globals to complete
INV_C = """\
typedef struct { int id; int qty; } Item;

Item stock[4] = {{1, 5}, {2, 3}, {3, 0}, {4, 9}};

int take(Item *it, int count) {
    if (it->qty < count)
        return 0;
    it->qty -= count;
    return count;
}

int main(void) {
    int got = take(&stock[0], 2);
    got += take(&stock[3], 4);
    return got;
}
"""


def build(directory: Path, source: str, name: str) -> Path:
    """directory/name.hxe with its .sym (as `hsx asm` writes them)."""
    src = directory / f"{name}.mvasm"
    src.write_text(source)
    result = link_modules([assemble_file(src)], app_name=name)
    (directory / f"{name}.sym").write_bytes(write_sym(result.symbols))
    image = directory / f"{name}.hxe"
    image.write_bytes(write_hxe(result.image))
    return image


def build_c(directory: Path, source: str, name: str) -> Path:
    src = directory / f"{name}.c"
    src.write_text(source)
    image = directory / f"{name}.hxe"
    subprocess.run([sys.executable, "-m", "hsx", "cc", "-g", "-O0", str(src), "-o", str(image)],
                   check=True, capture_output=True, timeout=300)
    return image


def start_execd(directory: Path, *options: str) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0", "--root",
                             str(directory / "fs"), *options], cwd=directory,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = readline(proc.stdout)
    assert line.startswith("hsx execd listening on 127.0.0.1:"), (line, proc.stderr.read())
    return proc, int(line.rsplit(":", 1)[1])


def drawn(text: str) -> str:
    """A pattern for `text` as the prompt draws it: maybe in pieces, with cursor
    movements and style changes between the characters."""
    return r"(\x1b\[[0-9;?]*[a-zA-Z])*".join(re.escape(c) for c in text)


def terminal_env(data_dir: Path) -> dict[str, str]:
    """No colour, no cursor-position queries (nobody answers them in a test), and the
    history in a directory of the test's own."""
    return {**os.environ, "NO_COLOR": "1", "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm",
            "XDG_DATA_HOME": str(data_dir)}


class Terminal:
    """`hsx shell` in a pseudo-terminal."""

    def __init__(self, port: int, data_dir: Path, *args: str) -> None:
        self.child = pexpect.spawn(sys.executable, ["-m", "hsx", "shell", "--port", str(port),
                                                    *args],
                                   env=terminal_env(data_dir), cwd=str(REPO),
                                   encoding="utf-8", timeout=20, dimensions=(50, 160))
        self.prompt()

    def prompt(self) -> None:
        self.child.expect(PROMPT)

    def send(self, text: str) -> None:
        self.child.send(text)

    def expect(self, pattern: str) -> str:
        self.child.expect(pattern)
        return self.child.before + self.child.after

    def run(self, line: str, *patterns: str) -> str:
        """Type a line and Enter, see each pattern (in any order), then the prompt; the
        text seen meanwhile."""
        self.child.sendline(line)
        waiting, seen = list(patterns), []
        while waiting:
            del waiting[self.child.expect(waiting)]
            seen.append(self.child.before + self.child.after)
        self.prompt()
        return "".join(seen) + self.child.before

    def close(self) -> int:
        self.child.sendline("quit")
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus
