"""Completion of a command line, for any front end.

    complete("bp set 1 ma", sources)   -> [Candidate("main", start=9, meta="function"), ...]

What can be completed comes from the argument's kind: command names and sub-commands,
PIDs, symbols and source files (code locations), variables and registers (data
locations), value and command names, mailboxes, breakpoint and watch ids, event
categories, field names (`name=`), flags and local file paths.  Anything that needs the
executive is asked of `sources.items(what, pid)`, which should answer at once from what
it already knows (a front end refreshes that in the background), never block.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Protocol

from .parse import GLOBAL_FLAGS, Table, given_flags, names_pid, switches, value_words
from .syntax import PID, REGISTERS, Arg, Command, UsageError, Word, split_words
from .table import TABLE

CATEGORY_NAMES = ("task", "break", "fault", "stdout", "stderr", "watch", "warning", "mailbox",
                  "value", "log", "can", "all")


@dataclass(frozen=True)
class Candidate:
    text: str
    start: int           # where in the line the word it replaces begins
    meta: str = ""


class Sources(Protocol):
    def items(self, what: str, pid: int | None) -> list[tuple[str, str]]:
        """(text, meta) pairs for `what`: pids, apps, code, data, values, commands,
        mailboxes, breakpoints or watches (code/data of task `pid`)."""


class NoSources:
    def items(self, what: str, pid: int | None) -> list[tuple[str, str]]:
        return []


def complete(text: str, sources: Sources | None = None, default_pid: int | None = None,
             table: Table = TABLE) -> list[Candidate]:
    """Candidates for the word the cursor is in (the end of `text`)."""
    sources = sources or NoSources()
    words = _words(text)
    typing = not text or text[-1].isspace()
    current = "" if typing or not words else words[-1].text
    start = len(text) if typing or not words else words[-1].start
    done = words if typing else words[:-1]
    if not done:                    # a command's own name first; aliases when none fits
        names, aliases = _command_words(table)
        return _match(names, current, start) or _match(aliases, current, start)
    command, used = table.find([w.text for w in done])
    out: list[Candidate] = []
    if len(done) == 1:
        out += _match(_sub_commands(table, done[0].text.lower()), current, start)
    if command is None or command.local and command.name == "help":
        if command is not None:
            names, aliases = _command_words(table)
            out += _match(names, current, start) or _match(aliases, current, start)
        return out
    return out + _arguments(command, done[used:], current, start, sources,
                            default_pid if command.current else None)


def line_task(text: str, default_pid: int | None = None, table: Table = TABLE) -> int | None:
    """The task a line being typed is about (what `complete` takes symbols from)."""
    words = _words(text)
    typing = not text or text[-1].isspace()
    done = words if typing or not words else words[:-1]
    command, used = table.find([w.text for w in done])
    if command is None:
        return default_pid
    return line_pid(command, done[used:], "" if typing else words[-1].text,
                    default_pid if command.current else None)


def _words(text: str) -> list[Word]:
    try:
        return split_words(text)
    except UsageError:                       # an open quote: complete the plain words
        return split_words(text[:text.rfind('"') if '"' in text else text.rfind("'")])


def _match(items: list[tuple[str, str]], prefix: str, start: int) -> list[Candidate]:
    seen: set[str] = set()
    out = []
    for text, meta in items:
        if text.startswith(prefix) and text not in seen:
            seen.add(text)
            out.append(Candidate(text, start, meta))
    return out


def _command_words(table: Table) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The first words of the command names, and of their aliases."""
    names = {c.name.split()[0]: "" for c in table.commands}
    names.update({c.name: c.summary for c in table.commands if c.name in names})
    aliases = sorted((a.split()[0], f"= {c.name}") for c in table.commands for a in c.aliases)
    return sorted(names.items()), aliases


def _sub_commands(table: Table, first: str) -> list[tuple[str, str]]:
    return [(name.split()[1], command.summary) for command in table.commands
            for name in (command.name, *command.aliases)
            if " " in name and name.split()[0] == first]


def _arguments(command: Command, words: list[Word], current: str, start: int,
               sources: Sources, default_pid: int | None) -> list[Candidate]:
    if current.startswith("-"):
        flags = [(spelling, arg.description) for spelling, arg in switches(command).items()]
        return _match(flags + [(f, "") for f in GLOBAL_FLAGS], current, start)
    key, equals, value = current.partition("=")
    if equals and key.isidentifier():
        arg = command.arg(key)
        if arg is None:
            return []
        return _match(_values(arg, sources, line_pid(command, words, current, default_pid)),
                      value, start + len(key) + 1)
    given = value_words(command, words)
    pid = line_pid(command, words, current, default_pid)
    keyword = next((a for w in reversed(words) for a in command.args if a.keyword == w.text),
                   None)
    if keyword is not None:                              # `if COND`
        return _expression(keyword, current, start, sources, pid)
    slots = [a for a in command.args if a.slot]
    candidates: list[Arg] = []
    if slots and slots[0].kind is PID and default_pid is not None and not names_pid(
            slots, [w.text for w in given] + [current], given_flags(command, words),
            default_pid):
        if not given:
            candidates.append(slots[0])
        slots = slots[1:]
    rest = next((i for i, a in enumerate(slots) if a.rest), None)
    if rest is not None and len(given) >= rest:          # inside a rest-of-line value
        return _expression(slots[rest], current, start, sources, pid)
    if len(given) < len(slots):
        candidates.append(slots[len(given)])
    required = sum(1 for a in slots if not a.optional)
    keywords = [a.keyword for a in command.args if a.keyword and len(given) >= required]
    out: list[Candidate] = []
    for arg in candidates:
        if arg.kind.completes == "paths":
            out += _match(complete_path(current), current, start)
        else:
            out += _match(_values(arg, sources, pid, current), current, start)
    out += _match([(k, "") for k in keywords], current, start)
    if current:
        names = [(f"{name}=", "field") for name in command.extras]
        out += _match(names, current, start)
    return out


def _expression(arg: Arg, current: str, start: int, sources: Sources,
                pid: int | None) -> list[Candidate]:
    """In a C expression, the identifier being typed: a variable's name (not a field's,
    after `.` or `->`)."""
    if arg.kind.completes != "expr":
        return []
    identifier = re.search(r"[A-Za-z_]\w*$", current)
    prefix = identifier.group(0) if identifier else ""
    before = current[:len(current) - len(prefix)]
    if before.endswith((".", "->")) or (not prefix and before[-1:].isalnum()):
        return []
    return _match(sources.items("expr", pid), prefix, start + len(before))


def line_pid(command: Command, words: list[Word], current: str,
             default_pid: int | None) -> int | None:
    """The task a line being typed is about: a pid=N, its first value when that is the
    PID (by the parser's rule), or the current task."""
    for word in words:
        if word.text.startswith("pid="):
            return _int(word.text[4:])
    values = [w.text for w in value_words(command, words)]
    if not any(a.keyword == w.text for w in words for a in command.args):
        values.append(current)                  # (not when it is in an `if COND`)
    slots = [a for a in command.args if a.slot]
    if len(values) > 1 and names_pid(slots, values, given_flags(command, words), default_pid):
        return _int(values[0])
    return default_pid


def _int(text: str) -> int | None:
    try:
        return int(text, 0)
    except ValueError:
        return None


def _values(arg: Arg, sources: Sources, pid: int | None,
            prefix: str = "") -> list[tuple[str, str]]:
    if arg.choices:
        return [(c, "") for c in arg.choices]
    what = arg.kind.completes
    if what is None:
        return []
    if what == "registers":
        return [(r.upper(), "register") for r in REGISTERS]
    if what == "categories":
        return [(c, "events") for c in CATEGORY_NAMES]
    if what == "command_names":
        return _command_words(TABLE)[0]
    items = list(sources.items(what, pid))
    if what == "pids" and prefix[:1].isalpha():        # a task by its app name
        items += sources.items("apps", pid)
    if what == "data":
        items += [(r.upper(), "register") for r in REGISTERS]
    return items


def complete_path(prefix: str) -> list[tuple[str, str]]:
    """Local files and directories starting with `prefix` (directories end in /)."""
    expanded = os.path.expanduser(prefix)
    folder, _, partial = expanded.rpartition(os.sep)
    directory = folder or ("/" if expanded.startswith(os.sep) else ".")
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    head = prefix[:len(prefix) - len(partial)]
    out = []
    for name in names:
        if name.startswith(partial) and (partial.startswith(".") or not name.startswith(".")):
            is_dir = os.path.isdir(os.path.join(directory, name))
            out.append((head + name + ("/" if is_dir else ""), "dir" if is_dir else "file"))
    return out
