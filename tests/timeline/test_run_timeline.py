"""`hsx run --timeline FILE` records the whole run and writes it at the end (the issue's
"done when": the demo's trace decodes into the expected tracks, flows and counters)."""
from __future__ import annotations

import json
import subprocess
import sys

from timelinekit import DEMO, decode_perfetto


def hsx_run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "hsx", "run", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_the_demo_timeline_decodes_into_tracks_flows_and_counters(tmp_path):
    done = hsx_run("--timeline", "t.pftrace", *DEMO, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    trace = decode_perfetto((tmp_path / "t.pftrace").read_bytes())
    tasks = ["producer (pid 1)", "consumer (pid 2)", "sensor (pid 3)", "hello (pid 4)"]
    assert sorted(trace.names.values()) == sorted(["HSX executive", *tasks, "sensor.temp"])
    assert [(s, r) for s, _, r, _ in trace.flows()] == [(tasks[0], tasks[1])] * 5
    assert [value for _, value in trace.counters["sensor.temp"]] == [20.0, 21.0, 22.0, 23.0]
    got = [name for _, category, name, *_ in trace.instants[tasks[1]] if category == "stdout"]
    assert "".join(got) == "".join(f"consumer got: reading #{n}\n" for n in range(1, 6))
    assert any(name == "sleeping: 80 ms" for *_, name, _ in trace.slices[tasks[2]])


def test_a_json_or_vcd_name_chooses_the_format(tmp_path):
    done = hsx_run("--timeline", "t.json", DEMO[2], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    events = json.loads((tmp_path / "t.json").read_text())["traceEvents"]
    assert [e["args"]["value"] for e in events if e["ph"] == "C"] == [20.0, 21.0, 22.0, 23.0]
    done = hsx_run("--timeline", "t.vcd", "--timeline-value", "temp", DEMO[2], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "$var real 64" in (tmp_path / "t.vcd").read_text()


def test_bad_timeline_arguments_are_named(tmp_path):
    done = hsx_run("--timeline", "nowhere/t.pftrace", DEMO[3], cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "hsx: nowhere/t.pftrace: its directory does not exist" in done.stderr
    done = hsx_run("--timeline", "t.vcd", "--timeline-value", "pressure", DEMO[2], cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert "hsx: --timeline t.vcd: no value 'pressure' in the timeline (values: sensor.temp)" \
        in done.stderr
