"""From a command line to an `Invocation`: which command, with which values.

    parse("peek 1 counter 32")          -> peek {pid: 1, addr: "counter", length: 32}
    parse("regs", default_pid=3)        -> regs {pid: 3}
    parse("x/8xw 1 buf")                -> x {pid: 1, addr: "buf"} format "8xw"
    parse('{"cmd": "ps"}')              -> the raw request
    parse("start_auto")                 -> any other protocol command, fields as name=value

The PID rule: the PID comes first wherever a command takes one.  With a current task
(`default_pid`, the shell's `use PID`, the debugger's attached task) it may be left out:
the first value is then the PID only when the line has more values than the command's
other arguments can take (`step 5` steps the current task 5 times, `step 2 5` steps
task 2) -- for a command whose last argument takes the rest of the line (`stdin`,
`print`, `set`, `poke`, `reg`), when it is a number and the rest still has what the
command needs (`stdin 2 hello` writes to task 2, `stdin 2` writes "2" to the current
task).  `pid=N` always names one.  `names_pid` is that rule, for completion too.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .syntax import ANY, PID, Arg, Command, UsageError, Word, parse_format, split_words

GLOBAL_FLAGS = {"--json": "json", "-y": "force", "--yes": "force", "--force": "force"}
END_OF_OPTIONS = "--"     # a keyword after which every word is the argument's, flags too


@dataclass
class Invocation:
    command: Command
    values: dict[str, Any] = field(default_factory=dict)    # by Arg.key, converted
    extra: dict[str, Any] = field(default_factory=dict)     # further name=value fields
    json: bool = False
    force: bool = False
    format: str = ""                                        # x/FMT
    line: str = ""

    def fields(self) -> dict[str, Any]:
        """The request's fields: fixed ones, the arguments, then name=value extras."""
        out = dict(self.command.fixed)
        for arg in self.command.args:
            if arg.key in self.values:
                out[arg.field_for(self.values[arg.key])] = self.values[arg.key]
        out.update(self.extra)
        return out

    @property
    def pid(self) -> int | None:
        value = self.values.get("pid")
        return value if isinstance(value, int) else None


class Table:
    """The commands by every name they answer to, and the titles of their groups."""

    def __init__(self, commands: list[Command], titles: dict[str, str] | None = None) -> None:
        self.commands = commands
        self.titles = titles or {}
        self.by_name: dict[str, Command] = {}
        for command in commands:
            for name in (command.name, *command.aliases):
                if name in self.by_name:
                    raise ValueError(f"two commands called {name!r}")
                self.by_name[name] = command

    def find(self, words: list[str]) -> tuple[Command | None, int]:
        """The command the first word (or two) name, and how many words that took."""
        if not words:
            return None, 0
        first = words[0].lower().partition("/")[0]
        if len(words) > 1 and (found := self.by_name.get(f"{first} {words[1].lower()}")):
            return found, 2
        return self.by_name.get(first), 1

    def groups(self) -> dict[str, list[Command]]:
        out: dict[str, list[Command]] = {}
        for command in self.commands:
            out.setdefault(command.group, []).append(command)
        return out


RAW = Command("raw", "A protocol request, given as JSON or as NAME field=value ...",
              group="protocol", view="json")


def parse(line: str, table: Table, default_pid: int | None = None) -> Invocation:
    text = line.strip()
    if not text:
        raise UsageError("no command")
    if text.startswith("{"):
        return _raw_json(text)
    words = split_words(text)
    command, used = table.find([w.text for w in words])
    if command is None:
        return _passthrough(words, text)
    invocation = Invocation(command, line=text)
    head = words[0].text
    if "/" in head:
        if not command.formats:
            raise UsageError(f"{command.name} takes no /FORMAT", command.usage)
        invocation.format = head.partition("/")[2]
        parse_format(invocation.format, command.usage)
    _bind(invocation, text, words[used:], default_pid if command.current else None)
    return invocation


def _raw_json(text: str) -> Invocation:
    try:
        request = json.loads(text)
    except ValueError as error:
        raise UsageError(f"bad JSON request: {error}") from None
    if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
        raise UsageError("a JSON request needs a string 'cmd'")
    request.pop("version", None)
    request.pop("id", None)
    cmd = request.pop("cmd")
    return Invocation(RAW, extra={"cmd": cmd, **request}, line=text)


def _passthrough(words: list[Word], text: str) -> Invocation:
    """Any protocol command by its own name: `NAME field=value ...`."""
    name = words[0].text
    fields: dict[str, Any] = {}
    invocation = Invocation(RAW, line=text)
    for word in words[1:]:
        if word.text in GLOBAL_FLAGS:
            setattr(invocation, GLOBAL_FLAGS[word.text], True)
            continue
        key, equals, value = word.text.partition("=")
        if not equals or not key.isidentifier():
            raise UsageError(f"unknown command {name!r} ('help' lists the commands; "
                             f"protocol commands take field=value, not {word.text!r})")
        fields[key] = ANY.convert(value)
    invocation.extra = {"cmd": name, **fields}
    return invocation


def names_pid(slots: list[Arg], values: list[str], given: set[str],
              default_pid: int | None) -> bool:
    """Whether the first of a line's positional `values` is the PID, `slots` being the
    command's positional arguments still to fill and `given` the flags on the line (see
    the module's docstring)."""
    if not values or not slots or slots[0].kind is not PID:
        return False
    if default_pid is None:
        return True
    others = slots[1:]
    if any(a.rest for a in others):
        needed = sum(1 for a in others if not a.optional and a.unless not in given)
        return values[0].isdigit() and len(values) - 1 >= needed
    return len(values) > len(others)


def switches(command: Command) -> dict[str, Arg]:
    """The command's flags by every spelling (`--no-newline`, `-n`)."""
    out = {f"--{a.name}": a for a in command.args if a.flag}
    out.update({a.short: a for a in command.args if a.flag and a.short})
    return out


def option(command: Command, word: Word) -> tuple[Arg, str | None] | None:
    """An option word: its argument and the value written onto it (`-O2`), or None when
    the value is the next word (`-O 2`)."""
    for arg in command.args:
        if arg.option and word.switch and word.text.startswith(arg.option):
            return arg, word.text[len(arg.option):] or None
    return None


def _flag(flags: dict[str, Arg], word: Word) -> Arg | None:
    return flags.get(word.text) if word.switch else None


def value_words(command: Command, words: list[Word]) -> list[Word]:
    """The positional values of a line (no flags, options or name=value fields), up to
    an `if COND`."""
    keywords = {a.keyword for a in command.args if a.keyword}
    flags = switches(command)
    out: list[Word] = []
    i = 0
    while i < len(words) and words[i].text not in keywords:
        word = words[i]
        found = option(command, word)
        if found is not None:
            i += 1 if found[1] is not None else 2
            continue
        if not (word.switch and (word.text in GLOBAL_FLAGS or word.text in flags)) \
                and _named(command, word.text) is None:
            out.append(word)
        i += 1
    return out


def given_flags(command: Command, words: list[Word]) -> set[str]:
    flags = switches(command)
    return {flag.key for w in words if (flag := _flag(flags, w)) is not None}


def _bind(invocation: Invocation, text: str, words: list[Word],
          default_pid: int | None) -> None:
    command, values = invocation.command, invocation.values
    positional: list[Word] = []
    keywords = {a.keyword: a for a in command.args if a.keyword}
    flags = switches(command)
    slots = [a for a in command.args if a.slot]
    if default_pid is not None and any(a.rest for a in slots) and names_pid(
            slots, [w.text for w in value_words(command, words)],
            given_flags(command, words), default_pid):
        default_pid = None                              # `stdin 2 hello`: task 2
    i = 0
    while i < len(words):
        word = words[i]
        if word.text in keywords:                       # `if COND`: the rest of the line
            arg = keywords[word.text]
            end = len(words) if word.text == END_OF_OPTIONS else \
                _rest_end(words, i + 1, keywords, invocation)
            if end <= i + 1:
                raise UsageError(f"{word.text} needs {arg.name.upper()}", command.usage)
            values[arg.key] = _convert(command, arg, _rest(text, words, i + 1, end))
            i = end
        elif word.switch and word.text in GLOBAL_FLAGS:
            setattr(invocation, GLOBAL_FLAGS[word.text], True)
            i += 1
        elif (flag := _flag(flags, word)) is not None:
            values[flag.key] = True
            i += 1
        elif (found := option(command, word)) is not None:
            i = _take_option(invocation, words, i, *found)
        elif word.switch and (word.text.startswith("--") or _has_short_switches(command)):
            raise UsageError(f"unknown option {word.text} (quote a value that starts with "
                             "-)", command.usage)
        elif (named := _named(command, word.text)) is not None:
            arg, key, value = named
            if arg is None:
                invocation.extra[key] = ANY.convert(value)
            elif arg.repeat:
                values.setdefault(arg.key, []).append(_convert(command, arg, value))
            else:
                values[arg.key] = _convert(command, arg, value)
            i += 1
        elif (rest := _rest_slot(command, values, default_pid)) is not None \
                and rest[0] == len(positional):
            end = _rest_end(words, i, keywords, invocation)
            values[rest[1].key] = _convert(command, rest[1], _rest(text, words, i, end))
            i = end
        else:
            positional.append(word)
            i += 1
    _assign(invocation, positional, default_pid)
    missing = [a for a in command.args if not a.optional and not a.switch
               and a.key not in values and not values.get(a.unless)]
    if missing:
        needs = missing[0].name.upper() + (f" or --{missing[0].unless}" if missing[0].unless
                                           else "")
        raise UsageError(f"{command.name} needs {needs}", command.usage)


def _take_option(invocation: Invocation, words: list[Word], i: int, arg: Arg,
                 attached: str | None) -> int:
    """An option's value (`-O2`, or `-O 2`) into its slot; the index after it."""
    command = invocation.command
    if attached is None:
        if i + 1 >= len(words):
            raise UsageError(f"{arg.option} needs {arg.name.upper()}", command.usage)
        attached, i = words[i + 1].text, i + 1
    value = _convert(command, arg, attached)
    if arg.repeat:
        invocation.values.setdefault(arg.key, []).append(value)
    else:
        invocation.values[arg.key] = value
    return i + 1


def _has_short_switches(command: Command) -> bool:
    """Whether `-x` words are the command's options (otherwise they are values: `-5`)."""
    return any(a.option or a.short for a in command.args)


def _rest(text: str, words: list[Word], start: int, end: int) -> str:
    """Words start..end as typed; one quoted word is taken without its quotes."""
    first = words[start]
    if end == start + 1 and text[first.start] in "\"'":
        return first.text
    return text[first.start:words[end - 1].end].strip()


def _rest_slot(command: Command, values: dict[str, Any],
               default_pid: int | None) -> tuple[int, Arg] | None:
    """(how many positional values come before it, the rest-of-line argument)."""
    slots = [a for a in command.args if a.slot and a.key not in values]
    for index, arg in enumerate(slots):
        if arg.rest:
            if slots[0].kind is PID and default_pid is not None and index:
                index -= 1                  # the current task; `pid=N` names another
            return index, arg
    return None


def _rest_end(words: list[Word], start: int, keywords: dict[str, Arg],
              invocation: Invocation) -> int:
    """Where a rest-of-line value ends: at a keyword, or before trailing flags."""
    end = next((i for i in range(start, len(words)) if words[i].text in keywords),
               len(words))
    flags = switches(invocation.command)
    while end > start and words[end - 1].switch and (
            words[end - 1].text in GLOBAL_FLAGS or words[end - 1].text in flags):
        word = words[end - 1].text
        if word in flags:
            invocation.values[flags[word].key] = True
        else:
            setattr(invocation, GLOBAL_FLAGS[word], True)
        end -= 1
    return end


def _named(command: Command, text: str) -> tuple[Arg | None, str, str] | None:
    """`name=value` for one of the command's arguments or extra fields, else None (a
    positional value such as an expression `a=b`)."""
    key, equals, value = text.partition("=")
    if not equals or not key.isidentifier():
        return None
    arg = command.arg(key)
    if arg is not None:
        return arg, key, value
    return (None, key, value) if key in command.extras else None


def _convert(command: Command, arg: Arg, text: str) -> Any:
    try:
        return arg.convert(text)
    except ValueError as error:
        raise UsageError(f"{arg.name.upper()}: {error}", command.usage) from None


def _assign(invocation: Invocation, positional: list[Word], default_pid: int | None) -> None:
    """Positional values into the free argument slots, in order.  With a current task
    the PID slot is skipped unless the values need it; if skipping it makes a value
    misfit (`peek 3 counter`: LENGTH 'counter'), the first value is taken as the PID."""
    command, values = invocation.command, invocation.values
    slots = [a for a in command.args if a.slot and not a.rest and a.key not in values]
    if default_pid is not None and slots and slots[0].kind is PID and not names_pid(
            slots, [w.text for w in positional], set(), default_pid):
        try:
            values.update(_fill(command, slots[1:], positional))
            values[slots[0].key] = default_pid
            return
        except UsageError:
            if not positional:
                raise
    values.update(_fill(command, slots, positional))


def _fill(command: Command, slots: list[Arg], positional: list[Word]) -> dict[str, Any]:
    if len(positional) > len(slots):
        extra = positional[len(slots)].text
        raise UsageError(f"{command.name}: unexpected {extra!r}", command.usage)
    return {arg.key: _convert(command, arg, word.text) for arg, word in zip(slots, positional)}
