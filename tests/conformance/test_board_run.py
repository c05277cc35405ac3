"""`hsx board run --board host` serves the C executive where the client finds it by URL:
it prints the URL, the client connects, and the hello names the variant asked for."""
from __future__ import annotations

import re
import signal
import subprocess
import sys

import pytest
from hostboard import board_available
from executives import image, wait_for
from mvasmkit import HELLO

from execdkit import readline

from hsx.client import Client

pytestmark = pytest.mark.skipif(not board_available(), reason="no hsx board in this checkout")


@pytest.mark.parametrize("variant", ["minimal", "development", "full"])
def test_hsx_board_run_serves_the_variant_a_client_connects_to(variant, tmp_path):
    board = subprocess.Popen([sys.executable, "-m", "hsx", "board", "run", "--board", "host",
                              "--variant", variant, "--listen", "socket://127.0.0.1:0"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             cwd=tmp_path)
    try:
        url = re.search(r"socket://127\.0\.0\.1:\d+", readline(board.stdout)).group(0)
        with Client.connect(url, timeout=30) as client:
            assert client.hello["variant"] == variant and client.hello["board"] == "host"
            pid = client.request("load", image=image(HELLO, "hello"))["pid"]
            wait_for(lambda: client.request("ps", pid=pid)["tasks"]["tasks"][0]["state"]
                     == "returned")
    finally:
        board.send_signal(signal.SIGINT)             # it stops as at Ctrl-C
        board.wait(30)
        board.stdout.close()
