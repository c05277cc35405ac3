"""A persistent value survives the executive's restart (its store: a state directory
for hsx execd, the emulated flash of the host build)."""
from __future__ import annotations

from executives import image
from mvasmkit import MOTOR


def test_a_persistent_value_survives_a_restart(executive, tmp_path):
    client = executive.connect()
    client.request("load", image=image(MOTOR, "motor"))
    client.request("val.set", name="rpm", value=7)
    restarted = executive.restart()
    client = restarted.connect()
    client.request("load", image=image(MOTOR, "motor"))
    assert client.request("val.get", name="rpm")["value"]["value"] == 7.0
