"""Every queue from the outside world to a task is bounded: the oldest is dropped and
counted, an event says so, and the queue goes when the task ends (issue 17, group 4)."""
from __future__ import annotations

import threading
import uuid

import can
from can.interfaces import virtual

from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.inputs import CAN_QUEUE, DropOldestQueue
from hsx.kernel.bus import VirtualCanBus
from hsx.toolchain.build import build_source

ATTACH_THEN_IGNORE = """
.bss
buf: .zero 8
.text
.entry start
start:
    LDI32 R1, buf
    SVC MOD=2, FN=1          ; one RX: attached to the bus, then never reads again
spin:
    LDI R0, 1
    SVC MOD=6, FN=0          ; sleep 1 ms
    JMP spin
"""


def test_the_queue_drops_the_oldest_and_never_blocks():
    box = DropOldestQueue(3)
    for item in range(10):
        box.put_nowait(item)
    assert [box.get_nowait() for _ in range(3)] == [7, 8, 9] and box.dropped == 7


def test_the_queue_is_safe_under_concurrent_producers():
    box = DropOldestQueue(50)
    threads = [threading.Thread(target=lambda: [box.put(i) for i in range(2000)])
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert box.qsize() == 50 and box.dropped == 8000 - 50


def test_a_task_that_never_reads_can_keeps_memory_bounded(tmp_path):
    channel = f"hsx-test-{uuid.uuid4().hex}"
    kernel = Kernel(clock=VirtualClock(1_000_000), fs_root=tmp_path / "fs",
                    can_bus=VirtualCanBus(channel))
    seen = []
    kernel.events.subscribe(seen.append, {"input_dropped"})
    task = kernel.load(build_source(ATTACH_THEN_IGNORE, "deaf.mvasm", app_name="deaf"))
    kernel.run(1000)
    port = kernel.can.ports[task.pid]
    sender = can.Bus(interface="virtual", channel=channel)
    try:
        for n in range(CAN_QUEUE * 4):
            sender.send(can.Message(arbitration_id=0x100, data=n.to_bytes(2, "little")))
        assert port.queue.qsize() == CAN_QUEUE
        kernel.run(1000)
        dropped = CAN_QUEUE * 3
        assert task.summary()["input_dropped"] == {"can": dropped}
        assert [e.data for e in seen] == [{"queue": "can", "dropped": dropped,
                                             "total": dropped, "limit": CAN_QUEUE}]
        assert seen[0].pid == task.pid
        oldest_kept = port.queue.get_nowait()
        assert int.from_bytes(oldest_kept.data, "little") == dropped
        kernel.kill(task.pid)
        assert port.queue not in virtual.channels.get(channel, [])
        sender.send(can.Message(arbitration_id=0x100, data=b"x"))     # nobody listens: fine
    finally:
        sender.shutdown()
