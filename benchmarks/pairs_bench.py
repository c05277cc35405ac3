"""Packed against unpacked code at -O2: `python benchmarks/pairs_bench.py [--rounds N] [--only W]`.

The four peer workloads (benchmarks/peers, peer_bench.py's sizes) built by `hsx cc -O2`
twice, one instruction a word and with compact pairs (`--compact`), and run on the
native engine, alternating, the best of N runs each (in-process time, as peer_bench).
It prints both times, their ratio and the code words, and checks that the two builds
print the same. What decides whether `hsx cc` packs at -O2 by default
(benchmarks/README.md, "Pairs in the threaded loop").
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peer_bench  # noqa: E402

from hsx.toolchain.cc.driver import Options, build_c  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="runs of each build (best kept)")
    parser.add_argument("--only", choices=sorted(peer_bench.WORKLOADS), action="append",
                        help="this workload only (repeatable)")
    args = parser.parse_args()
    size = peer_bench.sizes(quick=False)
    defines = tuple(f"{k}={v}" for k, v in size.items())
    print(f"{'workload':<9} {'unpacked':>9} {'packed':>9} {'packed/unpacked':>16} {'words':>14}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "peer.h").write_text((peer_bench.PEERS / "peer.h").read_text())
        for name in args.only or sorted(peer_bench.WORKLOADS):
            source = work / f"{name}.c"
            source.write_text((peer_bench.PEERS / f"{name}.c").read_text())
            images = {packed: build_c([str(source)], Options(opt=2, defines=defines,
                                                               compact=packed), name)[0].image
                      for packed in (False, True)}
            best, output = {False: float("inf"), True: float("inf")}, {}
            for _ in range(args.rounds):
                for packed, image in images.items():
                    seconds, _, out = peer_bench.run_image(image, "native", 1, name)
                    best[packed] = min(best[packed], seconds)
                    output[packed] = out
            if output[False] != output[True]:
                sys.exit(f"{name}: the packed build printed {output[True]!r}, "
                         f"the unpacked one {output[False]!r}")
            words = f"{len(images[False].code) // 4} -> {len(images[True].code) // 4}"
            print(f"{name:<9} {best[False]:>8.3f}s {best[True]:>8.3f}s "
                  f"{best[True] / best[False]:>16.2f} {words:>14}", flush=True)


if __name__ == "__main__":
    main()
