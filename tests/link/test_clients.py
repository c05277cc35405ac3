"""`Client.connect` and `AsyncClient.connect` over framed links (socket://, serial://):
the same API and replies as over tcp://, retries, board resets, streamed loads with
progress, events; against simulated devices and a board whose executive is hsx execd."""
from __future__ import annotations

import asyncio
import base64
import socket
import threading

import cbor2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hsx.client import AsyncClient, Client, ConnectionClosed, ProtocolError
from hsx.link import keys
from hsx.link.frames import encode_frame
from hsx.client.url import URLError, parse_url
from hsx.image.hxe import write_hxe
from hsx.server import BackgroundServer, ServerConfig
from hsx.toolchain.build import build_source
from simdevice import FakeDevice, PtyDevice, bridged_device, ok, wait_until

# a program with enough code to take several chunks of a small frame
BIG = ".data\nmsg: .ascii \"done\\n\"\n.text\n.entry start\nstart:\n" + "    LDI R1, 1\n" * 120 + """
    LDI R1, 1
    LDI32 R2, msg
    LDI R3, 5
    SVC MOD=4, FN=2
    LDI R0, 7
    SVC MOD=1, FN=0
"""


def image_text(source: str, name: str) -> str:
    return base64.b64encode(write_hxe(build_source(source, filename=f"{name}.mvasm",
                                                   app_name=name))).decode()


@pytest.fixture
def execd(tmp_path):
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as server:
        yield server


@pytest.fixture
def board(execd):
    """A board (small frames: a load takes many chunks) running hsx execd's executive."""
    device = bridged_device(execd.host, execd.port, window=200, max_frame=160)
    yield device
    device.close()
    device.bridge.close()


def counting(device_box):
    def handler(request):
        return ok(runs=sum(1 for _, r in device_box[0].device.executed if r == request))
    return handler


# -- URLs -------------------------------------------------------------------------------

def test_urls_name_the_link_and_its_options():
    assert parse_url("tcp://127.0.0.1:9998").framed is False
    endpoint = parse_url("serial:///dev/ttyACM0?baud=921600&gateway=0")
    assert (endpoint.device, endpoint.baud, endpoint.gateway) == ("/dev/ttyACM0", 921600, False)
    assert parse_url("socket://[::1]:4000?retry_ms=50").retry_s == 0.05
    for bad, why in (("127.0.0.1:9998", "not a URL"), ("udp://h:1", "unknown scheme"),
                     ("socket://h", "with a port"), ("serial://", "which serial port"),
                     ("socket://h:1?baud=9600", "baud is for serial"),
                     ("serial:///dev/x?baud=fast", "baud must be"),
                     ("tcp://h:1?colour=red", "unknown option")):
        with pytest.raises(URLError, match=why):
            parse_url(bad)


# -- the blocking client ----------------------------------------------------------------

def test_a_request_and_its_reply_read_as_over_tcp():
    with FakeDevice(lambda request: ok(echo=request)) as device, \
            Client.connect(device.url, timeout=5) as client:
        reply = client.request("peek", pid=1, addr=4, length=2)
        assert reply["echo"] == {"cmd": "peek", "pid": 1, "addr": 4, "length": 2}
        assert reply["version"] == 1 and reply["status"] == "ok" and "id" in reply
        assert client.hello["variant"] == "development"


def test_an_error_reply_raises_protocol_error_with_its_fields():
    def refuse(request):
        return {"status": "error", "error": "unsupported", "message": "no breakpoints here",
                "variant_required": "development"}
    with FakeDevice(refuse, variant="minimal") as device, Client.connect(device.url) as client:
        with pytest.raises(ProtocolError) as error:
            client.request("bp.set", pid=1, addr=0)
        assert error.value.code == "unsupported"
        assert error.value.reply["variant_required"] == "development"


def test_a_lost_reply_is_retried_and_the_command_runs_once():
    box: list = []
    with FakeDevice(counting(box)) as device:
        box.append(device)
        with Client.connect(device.url + "?retry_ms=100", timeout=10) as client:
            device.drop_replies = 1
            assert client.request("step", pid=1)["runs"] == 1
            assert len(device.device.executed) == 1


def test_a_board_reset_fails_the_request_in_flight_and_is_reported():
    with FakeDevice() as device, Client.connect(device.url + "?retry_ms=60000") as client:
        client.request("ping")
        device.drop_replies = 1
        threading.Timer(0.2, device.reset).start()
        with pytest.raises(ProtocolError) as error:
            client.request("step", pid=1)
        assert error.value.code == "board_reset"
        event = client.next_event(5)
        assert event["type"] == "board_reset" and event["data"]["boot"] == 2
        assert client.request("ping")["status"] == "ok"          # usable again at once
        assert client.resets == 1


def test_no_hello_is_a_clear_connection_error():
    with socket.create_server(("127.0.0.1", 0)) as mute:
        url = f"socket://127.0.0.1:{mute.getsockname()[1]}"
        with pytest.raises(ConnectionClosed, match="no hello from socket://.* within 1 s"):
            Client.connect(url, timeout=1)


def test_a_board_built_with_another_key_table_is_refused_with_what_to_do(monkeypatch):
    """Its hello's digest is not this hsx's: its numbers would read as other words."""
    with FakeDevice() as device:
        hello = {keys.NUMBERS[k]: v for k, v in device.device.hello().items()}
        monkeypatch.setattr(device.device, "hello_frame", lambda: encode_frame(
            "H", 0, cbor2.dumps([keys.DIGEST ^ 1, hello]), lead=True))
        for connect in (Client.connect, lambda url: asyncio.run(AsyncClient.connect(url))):
            with pytest.raises(ConnectionClosed, match="built by another version of hsx; "
                               "build it again with this one"):
                connect(device.url)


def test_a_streamed_load_reports_progress_and_the_program_runs(board):
    seen = []
    with Client.connect(board.url, timeout=10,
                        progress=lambda what, done, total: seen.append((done, total))) as client:
        client.subscribe(["stdout", "task_state"])
        reply = client.request("load", image=image_text(BIG, "big"), name="big")
        assert reply["image"]["app_name"] == "big"
        total = seen[-1][1]
        assert len(seen) > 3 and seen[-1][0] == total
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)
        wait_until(lambda: any(e["type"] == "stdout" and e["pid"] == reply["pid"]
                               for e in client.drain_events() + [client.next_event(0.2) or {}]
                               ))


def test_a_load_sizes_the_task_through_the_header_and_refuses_arguments(board):
    """A board reads a load's stack and memory from the image header, where the client
    writes them; arguments, which a board does not pass to main, are refused, not lost."""
    with Client.connect(board.url, timeout=10) as client:
        reply = client.request("load", image=image_text(BIG, "big"), paused=True,
                               stack_size=0x3000, memory=0x20000)
        registers = client.request("regs", pid=reply["pid"])["registers"]
        assert registers["stack_top"] - registers["stack_base"] == 0x3000
        assert registers["reg_base"] + 64 == 0x20000
        for given in ({"args": ["a"]}, {"env": ["A=1"]}):
            with pytest.raises(ProtocolError) as refused:
                client.request("load", image=image_text(BIG, "big"), **given)
            assert refused.value.code == "unsupported"
            assert next(iter(given)) in refused.value.message
        with pytest.raises(ProtocolError) as refused:
            client.request("load", image=image_text(BIG, "big"), stack_size=6)
        assert refused.value.code == "bad_argument" and "stack_size" in refused.value.message


def test_a_load_cut_off_by_a_reset_starts_again(board):
    handle = board.device.handler
    writes = []

    def reset_on_second_write(request):
        if request.get("cmd") == "load.write":
            writes.append(1)
            if len(writes) == 2:
                board._send(board.device.reset())
        return handle(request)
    board.device.handler = reset_on_second_write
    seen = []
    with Client.connect(board.url, timeout=10,
                        progress=lambda what, done, total: seen.append(what)) as client:
        reply = client.request("load", image=image_text(BIG, "big"), paused=True)
        assert reply["pid"] >= 1
        assert any("again: the board was reset" in what for what in seen)
        assert client.request("regs", pid=reply["pid"])["registers"]["pc"] == 0


def test_events_arrive_between_replies(board):
    with Client.connect(board.url, timeout=10) as client:
        client.subscribe(["task_state"])
        pid = client.request("load", image=image_text(BIG, "big"))["pid"]
        ended = wait_until(lambda: next((e for e in iter(lambda: client.next_event(0.1), None)
                                         if e["data"].get("new_state") == "returned"), None))
        assert ended["pid"] == pid and ended["data"]["exit_status"] == 7


def test_a_serial_port_reaches_the_device():
    device = PtyDevice(lambda request: ok(got=request["cmd"]))
    try:
        with Client.connect(device.url, timeout=5) as client:
            assert client.request("ps")["got"] == "ps"
            assert client.hello["board"] == "sim"
    finally:
        device.close()


# -- the asyncio client -----------------------------------------------------------------

def test_the_asyncio_client_sends_concurrent_requests_one_at_a_time():
    box: list = []
    with FakeDevice(counting(box), window=120, max_frame=100) as device:
        box.append(device)

        async def main():
            client = await AsyncClient.connect(device.url, timeout=5)
            try:
                replies = await asyncio.gather(*(client.request("ping", count=n) for n in range(20)))
            finally:
                await client.close()
            return replies
        replies = asyncio.run(main())
        assert [r["runs"] for r in replies] == [1] * 20
        assert device.device.overruns == 0


def test_the_asyncio_client_reports_a_reset_and_streams_a_load(board):
    async def main():
        seen = []
        client = await AsyncClient.connect(board.url, timeout=10,
                                           progress=lambda w, d, t: seen.append(d))
        try:
            reply = await client.request("load", image=image_text(BIG, "big"), paused=True)
            board.reset()
            event = await client.next_event(5)
            regs = await client.request("regs", pid=reply["pid"])
        finally:
            await client.close()
        return seen, event, regs
    seen, event, regs = asyncio.run(main())
    assert len(seen) > 3
    assert event["type"] == "board_reset"
    assert regs["registers"]["state"] == "paused"


def test_the_asyncio_client_over_a_serial_port():
    device = PtyDevice(lambda request: ok(got=request["cmd"]))

    async def main():
        client = await AsyncClient.connect(device.url, timeout=5)
        try:
            return await client.request("ps")
        finally:
            await client.close()
    try:
        assert asyncio.run(main())["got"] == "ps"
    finally:
        device.close()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.booleans(), max_size=24), st.integers(1, 8))
def test_over_a_socket_that_loses_answers_every_request_runs_once(lost, count):
    """The blocking client against a device on a socket that loses the answers `lost`
    picks: each request gets its own reply (or link_timeout after 4 lost answers in a
    row), runs at most once, and the window is never overrun."""
    box: list = []
    with FakeDevice(counting(box), window=120, max_frame=100) as device:
        box.append(device)
        with Client.connect(device.url + "?retry_ms=30", timeout=10) as client:
            device.fates = list(lost)
            for nonce in range(count):
                try:
                    assert client.request("ping", count=nonce)["runs"] == 1
                except ProtocolError as error:
                    assert error.code == "link_timeout"
        nonces = [r.get("count") for _, r in device.device.executed if r.get("cmd") == "ping"]
        assert len(nonces) == len(set(nonces))
        assert device.device.overruns == 0
