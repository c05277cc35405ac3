"""Files over CAN when the bus misbehaves: a lost frame, a duplicated frame and a dead
server each give the caller an errno (docs/backends.md), never a hang, and the next call
works again."""
import errno
import time

import can
import pytest
from fskit import can_file_system

from hsx.kernel.filesystems import O_CREAT, O_RDONLY, O_RDWR

TIMEOUT = 1.0
# Generous: a failed call returns within the client's timeout plus ISO-TP's own.
NO_HANG = 10 * TIMEOUT


class FaultyBus(can.BusABC):
    """A node's bus that loses or repeats chosen frames.  `faults` maps ("tx" | "rx",
    index of the frame in that direction, counted from when the fault was armed) to
    "drop" or "dup"."""

    def __init__(self, inner: can.BusABC) -> None:
        self.inner = inner
        self.faults: dict[tuple[str, int], str] = {}
        self.counts = {"tx": 0, "rx": 0}
        self.pending_rx: list[can.Message] = []
        super().__init__(channel=inner.channel_info)

    def arm(self, direction: str, index: int, fault: str) -> None:
        self.counts = {"tx": 0, "rx": 0}
        self.faults = {(direction, index): fault}

    def _fault(self, direction: str) -> str | None:
        index = self.counts[direction]
        self.counts[direction] += 1
        return self.faults.pop((direction, index), None)

    def send(self, msg, timeout=None):
        fault = self._fault("tx")
        if fault != "drop":
            self.inner.send(msg, timeout)
        if fault == "dup":
            self.inner.send(msg, timeout)

    def _recv_internal(self, timeout):
        if self.pending_rx:
            return self.pending_rx.pop(0), False
        msg = self.inner.recv(timeout)
        if msg is None:
            return None, False
        fault = self._fault("rx")
        if fault == "drop":
            return None, False
        if fault == "dup":
            self.pending_rx.append(msg)
        return msg, False

    def shutdown(self):
        self.inner.shutdown()
        super().shutdown()


@pytest.fixture
def faulty(tmp_path):
    with can_file_system(tmp_path, client_bus=FaultyBus, timeout=TIMEOUT) as (fs, server):
        fd = fs.open(1, "data.bin", O_RDWR | O_CREAT)
        assert fd == 3
        assert fs.write(1, fd, bytes(range(256)) * 40) == 10240     # two full ISO-TP messages
        yield fs, fs._bus, server, fd


def timed(call):
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


def still_works(fs):
    fd = fs.open(1, "data.bin", O_RDONLY)
    assert fd >= 3
    assert fs.read(1, fd, 100000) == bytes(range(256)) * 40
    assert fs.close(1, fd) == 0


@pytest.mark.parametrize("direction, index", [
    ("tx", 0),        # the request's single frame
    ("rx", 0),        # the answer's first frame
    ("rx", 3),        # a consecutive frame of the answer
])
def test_a_lost_frame_is_an_error_not_a_hang(faulty, direction, index):
    fs, bus, _server, fd = faulty
    fs.seek(1, fd, 0, 0)
    bus.arm(direction, index, "drop")
    result, took = timed(lambda: fs.read(1, fd, 4000))
    assert result in (-errno.EIO, -errno.ETIMEDOUT), result
    assert took < NO_HANG
    still_works(fs)


def test_a_lost_frame_of_a_long_request_is_an_error(faulty):
    fs, bus, _server, fd = faulty
    bus.arm("tx", 2, "drop")                  # a consecutive frame of a WRITE
    result, took = timed(lambda: fs.write(1, fd, b"x" * 3000))
    assert result in (-errno.EIO, -errno.ETIMEDOUT), result
    assert took < NO_HANG


def test_a_duplicated_consecutive_frame_is_an_error(faulty):
    fs, bus, _server, fd = faulty
    fs.seek(1, fd, 0, 0)
    bus.arm("rx", 2, "dup")
    result, took = timed(lambda: fs.read(1, fd, 4000))
    assert result in (-errno.EIO, -errno.ETIMEDOUT), result
    assert took < NO_HANG
    still_works(fs)


def test_a_duplicated_request_is_answered_once_not_run_twice(faulty):
    fs, bus, server, fd = faulty
    fs.seek(1, fd, 0, 2)
    before = server.served
    bus.arm("tx", 0, "dup")                   # a single-frame WRITE sent twice
    assert fs.write(1, fd, b"END") == 3
    assert server.served == before + 1
    assert fs.seek(1, fd, 0, 2) == 10243      # appended once


def test_a_dead_server_times_out(faulty):
    fs, _bus, server, fd = faulty
    server.stop()
    result, took = timed(lambda: fs.read(1, fd, 10))
    assert result == -errno.ETIMEDOUT
    assert TIMEOUT * 0.9 <= took < NO_HANG
    assert fs.open(1, "other", O_RDONLY) == -errno.ETIMEDOUT


def test_no_server_at_all_times_out(tmp_path):
    from hsx.kernel.filesystems.can import CanFileSystem, open_can_bus
    fs = CanFileSystem(open_can_bus("virtual", "hsx-fs-nobody"), timeout=TIMEOUT)
    try:
        result, took = timed(lambda: fs.listdir("/"))
        assert result == -errno.ETIMEDOUT and took < NO_HANG
    finally:
        fs.shutdown()
