"""Recent output of every task, kept by the executive so nothing a task printed is lost
because no client was subscribed at that moment.

Each task has a bounded buffer (`PER_TASK` characters, oldest dropped first) of its
stdout/stderr writes in order; `stdio {op: "recent"}` returns it and `stdio` subscribe
with `recent: true` returns it together with the subscription, atomically, so a front
end shows a task's output so far and then every new write exactly once.  Buffers of the
`MAX_TASKS` most recently writing tasks are kept, ended tasks included.  With `echo`, the
daemon also prints each write to its own stdout, prefixed with the task.
"""
from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from itertools import accumulate, groupby
from operator import attrgetter
from typing import Any, Callable, TextIO

PER_TASK = 64 * 1024             # characters of output kept per task
MAX_TASKS = 256
_PID = attrgetter("pid")


class TaskOutput:
    """A task's output, the newest `PER_TASK` characters.  Writes are appended and the
    oldest trimmed only once twice that is held (or when it is looked at), in one go:
    trimming a few characters after every write of a chatty task was a fifth of the
    executive's time for its output, and a chunk at a time still a tenth."""

    def __init__(self) -> None:
        self.chunks: list[tuple[str, str]] = []            # (stream, text), oldest first
        self.size = 0
        self.dropped = 0                                   # characters no longer kept

    def add(self, stream: str, text: str) -> None:
        self.extend([(stream, text)])

    def extend(self, chunks: list[tuple[str, str]]) -> None:
        """Writes, oldest first."""
        self.chunks += chunks
        self.size += sum([len(text) for _, text in chunks])
        if self.size > 2 * PER_TASK:
            self._trim()

    def view(self, streams: tuple[str, ...]) -> dict[str, Any]:
        self._trim()
        return {"output": [{"stream": s, "text": t} for s, t in self.chunks if s in streams],
                "dropped_chars": self.dropped}

    def _trim(self) -> None:
        """Drop the oldest characters beyond `PER_TASK`: the chunks that end within them,
        and the start of the one after."""
        excess = self.size - PER_TASK
        if excess <= 0:
            return
        chunks = self.chunks
        ends = list(accumulate([len(text) for _, text in chunks]))
        whole = bisect_right(ends, excess)
        rest = excess - (ends[whole - 1] if whole else 0)
        del chunks[:whole]
        if rest:                                           # keep the newest part of it
            stream, text = chunks[0]
            chunks[0] = (stream, text[rest:])
        self.size -= excess
        self.dropped += excess


class OutputBuffers:
    def __init__(self, echo: TextIO | None = None,
                 name_of: Callable[[int], str] = str) -> None:
        self._tasks: OrderedDict[int, TaskOutput] = OrderedDict()
        self._echo = echo
        self._name_of = name_of

    def on_event(self, event: Any) -> None:
        """A kernel `stdout`/`stderr` event."""
        self.on_events([event])

    def on_events(self, events: list[Any]) -> None:
        """Kernel `stdout`/`stderr` events, in order (a task's writes come in batches:
        `EventBus.hold`)."""
        for pid, of_task in groupby(events, _PID):
            chunks = [(event.type, event.data.get("text", "")) for event in of_task]
            self._buffer(pid).extend(chunks)
            if self._echo is not None:
                for stream, text in chunks:
                    self._print(pid, stream, text)

    def _buffer(self, pid: int) -> TaskOutput:
        """The task's buffer, made the most recently used."""
        buffer = self._tasks.get(pid)
        if buffer is None:
            buffer = self._tasks[pid] = TaskOutput()
            while len(self._tasks) > MAX_TASKS:
                self._tasks.popitem(last=False)
        else:
            self._tasks.move_to_end(pid)
        return buffer

    def pids(self) -> list[int]:
        return list(self._tasks)

    def recent(self, pid: int, streams: tuple[str, ...] = ("stdout", "stderr")) -> dict[str, Any]:
        buffer = self._tasks.get(pid)
        return {"pid": pid, **(buffer.view(streams) if buffer else
                               {"output": [], "dropped_chars": 0})}

    def _print(self, pid: int, stream: str, text: str) -> None:
        prefix = f"[{self._name_of(pid)} {pid}{' err' if stream == 'stderr' else ''}] "
        lines = text.splitlines() or [""]
        try:
            self._echo.write("".join(prefix + line + "\n" for line in lines))
            self._echo.flush()
        except (OSError, ValueError):              # the console went away: stop echoing
            self._echo = None

