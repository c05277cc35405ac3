"""The grammar of a command line: words, argument kinds, commands and their usage.

A line is a command name (one word, or a group and its sub-command: `bp set`), then
positional values, `field=value` pairs and flags (`--json`, `-y`/`--force`, and the
command's own, such as `--paused`).  Quoting follows the shell: "two words" or 'two
words'; inside double quotes C's escapes work ("a line\n", "\t", "\x41", "\\", "\""),
single quotes take everything as it is.  An argument of kind `rest` takes the remainder
of the line as typed (C expressions keep their quotes and spaces).  Every wrong argument
is a `UsageError` that carries the command's usage line, never a bare type error.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple


REGISTERS = tuple(f"r{i}" for i in range(16)) + ("sp", "fp", "pc", "psw")


class UsageError(Exception):
    """A line that does not fit its command; `usage` is that command's usage (or None)."""

    def __init__(self, message: str, usage: str | None = None) -> None:
        super().__init__(message if usage is None else f"{message}\nusage: {usage}")
        self.message = message
        self.usage = usage


class Word(NamedTuple):
    text: str       # unquoted
    start: int      # where it begins in the line
    end: int
    quoted: bool = False    # written with quotes: a value, never a flag ("--eof", "-n")

    @property
    def switch(self) -> bool:
        """Written like a flag or an option: `--eof`, `-n`, `-O2` (not `-5`, not quoted)."""
        return (not self.quoted and self.text.startswith("-") and len(self.text) > 1
                and not self.text[1:2].isdigit())


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
            "e": "\x1b", "\\": "\\", '"': '"', "'": "'", "?": "?"}
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)", re.S)


def unescape(text: str) -> str:
    """C's escapes in `text` (what double quotes hold); an unknown one (`\\q`) stays as
    it is."""
    def one(match: re.Match) -> str:
        code = match.group(1)
        if code[0] == "x":
            return chr(int(code[1:], 16))
        if code[0] in "01234567":
            return chr(int(code, 8))
        return _ESCAPES.get(code, match.group(0))
    return _ESCAPE.sub(one, text)


def split_words(line: str) -> list[Word]:
    """Words with their positions; quotes group, C's escapes work inside "..."."""
    words: list[Word] = []
    i, n = 0, len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        start, text, quoted = i, [], False
        while i < n and not line[i].isspace():
            quote = line[i]
            if quote in "\"'":
                close = i + 1
                while close < n and line[close] != quote:
                    if quote == '"' and line[close] == "\\" and close + 1 < n:
                        close += 1
                    close += 1
                if close >= n:
                    raise UsageError(f"no closing {quote} in: {line[start:]}")
                body = line[i + 1:close]
                text.append(unescape(body) if quote == '"' else body)
                i, quoted = close + 1, True
            else:
                text.append(quote)
                i += 1
        words.append(Word("".join(text), start, i, quoted))
    return words


_UNITS = {"b": 1, "h": 2, "w": 4, "g": 8}
_FORMATS = "xduotcsi"


def parse_format(text: str, usage: str | None = None) -> tuple[int, str, int]:
    """gdb's /FMT of `x`: (count, format letter, unit bytes); x/16xb, x/4dw, x/s, x/8i."""
    match = re.fullmatch(r"(\d*)([a-z]*)", text)
    letters = match.group(2) if match else "?"
    if match is None or any(c not in _FORMATS + "".join(_UNITS) for c in letters):
        raise UsageError(f"bad format /{text}: /COUNT FORMAT UNIT, format one of "
                         f"x d u o t c s i, unit b h w g", usage)
    fmt = next((c for c in letters if c in _FORMATS), "x")
    unit = next((_UNITS[c] for c in letters if c in _UNITS), 1 if fmt in "cs" else 4)
    default = 1 if fmt == "s" else 16 if unit == 1 else 8
    count = int(match.group(1)) if match.group(1) else default
    if not 1 <= count * unit <= 65536:
        raise UsageError(f"/{text} asks for {count * unit} bytes (1 to 65536)", usage)
    return count, fmt, unit


# ------------------------------------------------------------------ argument kinds

def _int(text: str) -> int:
    try:
        return int(text.replace("_", ""), 0)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None


def _task(text: str) -> int | str:
    """A PID, or the name of a task's app (resolved to its PID when the line runs)."""
    if re.fullmatch(r"[A-Za-z_][\w.\-]*", text):
        return text
    try:
        return _pid(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a PID or an app name") from None


def _pid(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise ValueError(f"{text!r} is not a PID")
    return value


def _number(text: str) -> int | float | bool:
    if text.lower() in ("true", "on", "false", "off"):
        return text.lower() in ("true", "on")
    try:
        return _int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None


def _location(text: str) -> int | str:
    """A number stays a number; anything else (a symbol, `file:line`, `main+8`, a
    register, an expression) is sent or resolved as text."""
    try:
        return _int(text)
    except ValueError:
        return text


def _hex(text: str) -> str:
    digits = re.sub(r"\s|^0x", "", text)
    try:
        bytes.fromhex(digits)
    except ValueError:
        raise ValueError(f"{text!r} is not hex bytes (e.g. 01ff or \"de ad\")") from None
    return digits.lower()


def _path(text: str) -> str:
    return os.path.abspath(os.path.expanduser(text))     # the executive's cwd is not ours


def _value(text: str) -> Any:
    """A loose value for `field=value`: numbers, booleans, JSON, else the text."""
    import json
    try:
        return _int(text)
    except ValueError:
        pass
    if text in ("true", "false", "null") or text[:1] in "[{\"":
        try:
            return json.loads(text)
        except ValueError:
            pass
    try:
        return float(text)
    except ValueError:
        return text


@dataclass(frozen=True)
class Kind:
    """What an argument is: how its text becomes a value, and what completes it."""
    name: str
    convert: Callable[[str], Any]
    completes: str | None = None        # pids, symbols, code, data, values, ... (complete.py)
    by_type: tuple[str, str] | None = None   # (field for a number, field for text)
    help: str = ""


PID = Kind("pid", _task, "pids", help="task: its PID (see ps) or app name")
INT = Kind("int", _int)
NUMBER = Kind("number", _number)
TEXT = Kind("text", str)
CODE = Kind("code", _location, "code",
            help="address, symbol, symbol+offset or file:line")           # sent as is: the executive resolves it
DATA = Kind("data", _location, "data",
            help="address, symbol[+offset], register (SP, R3) or C expression")           # resolved here (resolve.py)
EXPR = Kind("expression", str, "expr", help="a C expression")   # completes variables
HEX = Kind("hex", _hex, help="hex bytes: 01ff or \"01 ff\"")
PATH = Kind("path", _path, "paths", help="a file here (sent as an absolute path)")
REMOTE_PATH = Kind("remote path", str, "paths", help="a file on the executive's machine")
VALUE = Kind("value", _location, "values", ("oid", "name"),
             "a value's name (rpm, motor.rpm) or OID (0x0102)")      # a value's OID or name
COMMAND_ID = Kind("command", _location, "commands", ("oid", "name"),
                  "a command's name or OID")
MAILBOX = Kind("mailbox", str, "mailboxes", help="app:name, shared:name, svc:..., pid:3")
TARGET = Kind("target", _location, "mailboxes", ("pid", "target"),
              "a mailbox (app:name, svc:..., pid:3) or a PID for its stdin")  # a PID means its stdin
BREAKPOINT = Kind("breakpoint id", _pid, "breakpoints", help="a breakpoint id (see bp)")
WATCH = Kind("watch id", _pid, "watches", help="a watch id (see watch)")
CATEGORY = Kind("category", str, "categories",
                help="task, break, fault, stdout, stderr, watch, mailbox, value, log, all")
APP = Kind("app", str, "apps")
REGISTER = Kind("register", str, "registers", help="R0..R15, SP, FP, PC or PSW")
COMMAND_NAME = Kind("command name", str, "command_names")
ANY = Kind("value", _value)
FLAG = Kind("flag", bool)
WORDS = Kind("words", lambda text: [w.text for w in split_words(text)],
             help="words, quoted as in the shell")


def _bytes(multiple: int):
    """A size argument's parser (the kernel's own, imported when one is given)."""
    def parse(text: str) -> int:
        from hsx.kernel.taskargs import parse_size
        return parse_size(text, multiple)
    return parse


STACK_BYTES = Kind("size", _bytes(4), help="bytes: 65536, 0x10000, 64K")
MEMORY_BYTES = Kind("size", _bytes(16), help="bytes: 1048576, 1M")


@dataclass(frozen=True)
class Arg:
    name: str
    kind: Kind
    optional: bool = False
    help: str = ""
    field: str | None = None             # the protocol field (default: name)
    choices: tuple[str, ...] = ()
    rest: bool = False                   # takes the rest of the line
    keyword: str | None = None           # introduced by a word (`if COND`)
    flag: bool = False                   # `--NAME` (or `short`), True when given
    short: str | None = None             # a flag's short spelling (`-n`)
    option: str | None = None            # `-O LEVEL` / `-O2`: an option with a value
    named: bool = False                  # only as NAME=VALUE, never positional
    repeat: bool = False                 # an option or NAME=VALUE given again adds to a list
    unless: str | None = None            # a required argument a flag makes optional

    @property
    def key(self) -> str:
        return self.field or self.name

    @property
    def switch(self) -> bool:
        """Given by its spelling (a flag or an option), not by its place."""
        return self.flag or self.option is not None

    @property
    def slot(self) -> bool:
        """Given by its place among the positional values (not the `if COND` kind, nor
        one given only as NAME=VALUE)."""
        return not self.switch and not self.keyword and not self.named

    @property
    def description(self) -> str:
        return self.help or self.kind.help

    def field_for(self, value: Any) -> str:
        """The protocol field a value goes in (a value's number is its `oid`, its name
        its `name`)."""
        if self.kind.by_type is None:
            return self.key
        return self.kind.by_type[0 if isinstance(value, int) else 1]

    def usage(self) -> str:
        if self.flag:
            return f"[{self.short}|--{self.name}]" if self.short else f"[--{self.name}]"
        if self.named:
            return f"[{self.name}={self.kind.name.upper()}]" + ("..." if self.repeat else "")
        text = self.name.upper() + ("..." if self.rest and not self.keyword else "")
        if self.choices and not self.option:
            text = "|".join(self.choices)
        if self.keyword:
            text = f"{self.keyword} {text}"
        if self.option:
            return f"[{self.option} {text}]" + ("..." if self.repeat else "")
        return f"[{text}]" if self.optional or self.unless else text

    def convert(self, text: str) -> Any:
        if self.choices and text not in self.choices:
            raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, "
                             f"not {text!r}")
        return self.kind.convert(text)


class Request(NamedTuple):
    cmd: str
    fields: dict[str, Any]


@dataclass(frozen=True)
class Command:
    """One command of the language.  Without `plan` it sends `cmd` with the arguments as
    fields (plus `fixed`); a `plan` is a generator that yields `Request`s, receives
    their replies and returns the result (see run.py); `local` commands are carried out
    by the front end itself (help, quit, events, use)."""
    name: str
    summary: str
    args: tuple[Arg, ...] = ()
    cmd: str | None = None
    aliases: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    group: str = ""
    fixed: Mapping[str, Any] = field(default_factory=dict)
    extras: tuple[str, ...] = ()         # further protocol fields accepted as name=value
    confirm: str | None = None           # "write" (memory, registers) or "danger"
    view: str = "reply"                  # how a front end shows the result
    plan: Callable[..., Any] | None = None
    local: bool = False
    formats: bool = False                # takes /FMT after its name (x/16xw)
    details: str = ""
    current: bool = True                 # a left-out PID means the current task (not
                                         # for overviews: ps, info; nor for `use`)
    feature: str | None = None           # the session feature it needs (a variant may lack it)

    @property
    def usage(self) -> str:
        name = self.name + ("[/FMT]" if self.formats else "")
        return " ".join([name, *(a.usage() for a in self.args)])

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name or a.key == name), None)

    @property
    def takes_pid(self) -> bool:
        return any(a.kind is PID for a in self.args)
