"""The mps2-an385 board under QEMU over its emulated UART: boot to ready, a `step` round
trip, and an 8 KiB image loaded in acknowledged chunks (benchmarks/README.md).

    python benchmarks/board_bench.py [--boots 10] [--steps 300] [--loads 5]

- boot to ready: from `hsx.board.serve.start` (QEMU started, the firmware already built)
  until the board has answered a hello on its socket -- what `hsx board run` waits for;
- a `step {pid}` round trip from hsx.client, without the gateway (the link alone) and
  with it (what hsx dbg and the debug adapter send through);
- an 8 KiB image (an MVASM program with 8 KiB of random data) loaded with `load {image}`,
  which hsx.client sends as load.begin, acknowledged load.write chunks and load.end.

Targets (issue 25): step <= 5 ms, the 8 KiB load <= 1.2 s, boot to ready <= 0.5 s. QEMU's
CMSDK UART moves a byte as soon as the guest and QEMU's I/O loop get to it: it does not
pace the line at the programmed 115,200 baud, so the figures are the firmware's and the
emulator's; the time the same bytes take on a real 115,200 baud line is printed beside
them (10 bits a byte).
"""
from __future__ import annotations

import argparse
import base64
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from hsx.board.build import find_or_build  # noqa: E402
from hsx.link.frames import encode_frame  # noqa: E402
from hsx.board.serve import start  # noqa: E402
from hsx.client import Client  # noqa: E402
from hsx.toolchain.build import assemble_file, link_modules  # noqa: E402
from hsx.image.hxe import write_hxe  # noqa: E402

LINE_BYTES_PER_S = 115_200 / 10
IMAGE_BYTES = 8192
SPIN = ".text\n.entry start\nstart:\n    ADDI R1, R1, 1\n    JMP start\n"


def program(directory: Path, name: str, source: str) -> bytes:
    path = directory / f"{name}.mvasm"
    path.write_text(source)
    return write_hxe(link_modules([assemble_file(path)], app_name=name).image)


def image_of_size(directory: Path, size: int) -> bytes:
    """A valid image of exactly `size` bytes: a spinning task and random data."""
    rng = random.Random(25)
    pad = 0
    while True:
        data = ", ".join(str(rng.randrange(256)) for _ in range(pad))
        built = program(directory, "eightk", SPIN + (f".data\nblob: .byte {data}\n" if pad else ""))
        if len(built) == size:
            return built
        if len(built) > size:
            raise SystemExit(f"board_bench: no image of {size} bytes ({len(built)})")
        pad += size - len(built)


def boot_times(count: int, flash: Path) -> list[float]:
    times = []
    for _ in range(count):
        begun = time.perf_counter()
        served = start("mps2-an385", "socket://127.0.0.1:0", "development", str(flash))
        times.append(time.perf_counter() - begun)
        served.stop()
    return times


def step_times(url: str, pid: int, count: int, gateway: bool) -> list[float]:
    with Client.connect(url, gateway=gateway) as client:
        client.request("step", pid=pid)
        times = []
        for _ in range(count):
            begun = time.perf_counter()
            client.request("step", pid=pid)
            times.append(time.perf_counter() - begun)
    return times


def load_times(url: str, image: bytes, count: int) -> list[float]:
    text = base64.b64encode(image).decode()
    times = []
    with Client.connect(url, gateway=False) as client:
        for _ in range(count):
            begun = time.perf_counter()
            pid = client.request("load", image=text, paused=True)["pid"]
            times.append(time.perf_counter() - begun)
            client.request("kill", pid=pid)
            client.request("kill", pid=pid)         # an ended task leaves the list
    return times


def wire_bytes_of_load(image: bytes, max_frame: int) -> int:
    """Bytes a streamed load puts on the line both ways (frames as hsx.client sends them:
    chunks of max_frame - 64 bytes; replies of about 40 bytes)."""
    import cbor2
    chunk = max_frame - 64
    total = 0
    for offset in range(0, len(image), chunk):
        request = cbor2.dumps({"version": 1, "cmd": "load.write", "stream": 1, "id": 1,
                               "data": image[offset:offset + chunk]})
        total += len(encode_frame("Q", 1, request)) + 1 + 40
    return total + 2 * 80


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"median {statistics.median(times) * 1000:.1f} ms, 95% {p95 * 1000:.1f} ms, "
            f"max {ordered[-1] * 1000:.1f} ms ({len(times)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boots", type=int, default=10)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    find_or_build("development", "mps2-an385")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        boots = boot_times(args.boots, work / "flash.bin")
        print(f"boot to ready:        {summary(boots)}   target <= 500 ms")
        served = start("mps2-an385", "socket://127.0.0.1:0", "development", str(work / "flash.bin"))
        try:
            with Client.connect(served.url, gateway=False) as client:
                pid = client.request("load", image=base64.b64encode(
                    program(work, "spin", SPIN)).decode(), paused=True)["pid"]
            for gateway in (False, True):
                times = step_times(served.url, pid, args.steps, gateway)
                print(f"step round trip{' (gateway)' if gateway else '          '}: "
                      f"{summary(times)}   target <= 5 ms")
            image = image_of_size(work, IMAGE_BYTES)
            times = load_times(served.url, image, args.loads)
            line = wire_bytes_of_load(image, served.hello["max_frame"]) / LINE_BYTES_PER_S
            print(f"8 KiB image load:     {summary(times)}   target <= 1200 ms; the same "
                  f"bytes on a real 115,200 baud line: {line * 1000:.0f} ms")
        finally:
            served.stop()


if __name__ == "__main__":
    main()
