"""The client library: AsyncClient, keepalives, and the shell's prompt."""
from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time

import pytest
from mvasmkit import HELLO
from serverkit import CHATTY, LOOP, image_b64

from hsx.client import AsyncClient, Client, ConnectionClosed, ProtocolError
from hsx.server import BackgroundServer, ServerConfig


def test_async_client_requests_events_and_errors(server):
    async def main() -> None:
        async with await AsyncClient.connect(server.host, server.port) as client:
            replies = await asyncio.gather(*(client.request("ping") for _ in range(50)))
            assert {r["reply"] for r in replies} == {"pong"}
            assert len({r["id"] for r in replies}) == 50
            await client.subscribe(["stdout"])
            await client.request("load", image=image_b64(CHATTY, "chatty"))
            event = await client.next_event(timeout=5)
            assert event["type"] == "stdout" and event["data"]["text"] == "tick\n"
            with pytest.raises(ProtocolError) as refused:
                await client.request("kill", pid=42)
            assert refused.value.code == "unknown_pid"
            assert (await client.request("ping"))["reply"] == "pong"   # still usable

    asyncio.run(main())


def test_async_client_batches_events_and_reads_long_lines(server):
    """next_events hands over what has queued up, in order, without gaps; a reply longer
    than the reader's chunk arrives whole."""
    async def main() -> None:
        async with await AsyncClient.connect(server.host, server.port) as client:
            await client.subscribe(["stdout"])
            await client.request("load", image=image_b64(CHATTY, "chatty"))
            seqs: list[int] = []
            while len(seqs) < 200:
                batch = await client.next_events(limit=64, timeout=5)
                assert 1 <= len(batch) <= 64
                assert {e["type"] for e in batch} == {"stdout"}
                seqs += [e["seq"] for e in batch]
            assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
            big = await client.request("peek", pid=1, addr=0, length=60_000)
            assert len(big["data"]) == 120_000 and all(c in "0123456789abcdef" for c in big["data"])
            assert await client.next_events(timeout=5)          # the stream goes on

    asyncio.run(main())


def test_async_client_keeps_its_session_alive(server):
    async def main() -> None:
        async with await AsyncClient.connect(server.host, server.port) as client:
            await client.open_session("async", heartbeat_s=1)
            await asyncio.sleep(2.2)
            listed = await client.request("session.list")
            assert [s.get("id") for s in listed["sessions"]] == [client.session_id]
            await client.close_session()
            assert (await client.request("session.list"))["sessions"] == []

    asyncio.run(main())


def test_sync_client_keepalive_while_listening(server):
    with Client(server.host, server.port) as client:
        client.open_session("listener", heartbeat_s=1)
        client.subscribe(["stdout"])
        assert list(client.events(timeout=2.2)) == []         # idle, but keepalives went out
        assert client.request("session.list")["sessions"][0]["id"] == client.session_id


def test_sync_client_sends_a_line_larger_than_the_socket_takes_at_once(server):
    with Client(server.host, server.port) as client:
        assert client.request("ping", padding="x" * 900_000)["reply"] == "pong"
        assert client.request("ping")["reply"] == "pong"


def test_sync_client_times_out_on_a_peer_that_never_answers_or_reads():
    with socket.create_server(("127.0.0.1", 0)) as mute:
        port = mute.getsockname()[1]
        with Client("127.0.0.1", port, timeout=0.3) as client:
            started = time.monotonic()
            with pytest.raises(TimeoutError, match="no reply to 'ping' within 0.3 s"):
                client.request("ping")
            assert 0.25 <= time.monotonic() - started < 2
            assert client.next_event(timeout=0.05) is None
            with pytest.raises(ConnectionClosed, match="took nothing"):
                client.request("ping", padding="x" * 64_000_000)    # nobody reads it


@pytest.mark.parametrize("waiting", ["kernel timeouts", "poll", "select"])
def test_sync_client_waits_the_same_every_way_it_can(server, monkeypatch, waiting):
    """64-bit Linux: a blocking socket with kernel timeouts; elsewhere non-blocking with
    poll (macOS) or select (Windows).  Each answers, times out, reads events and
    sends what the socket cannot take at once."""
    import select as select_module

    from hsx.client import sync
    if waiting == "kernel timeouts" and not sync._KERNEL_TIMEOUTS:
        pytest.skip("kernel timeouts are for 64-bit Linux")
    if waiting != "kernel timeouts":
        monkeypatch.setattr(sync, "_KERNEL_TIMEOUTS", False)
    if waiting == "select":
        monkeypatch.delattr(select_module, "poll", raising=False)
    with Client(server.host, server.port, timeout=5) as client:
        assert (client._poll is None) == (waiting == "kernel timeouts")
        assert client.request("ping")["reply"] == "pong"
        assert client.request("ping", padding="x" * 900_000)["reply"] == "pong"
        client.subscribe(["task_state"])
        pid = client.request("load", image=image_b64(HELLO, "hello"))["pid"]
        states = [e["data"]["new_state"] for e in client.events(timeout=2) if e["pid"] == pid]
        assert states[-1] == "returned"
        started = time.monotonic()
        assert client.next_event(timeout=0.2) is None
        assert 0.15 <= time.monotonic() - started < 2
    with socket.create_server(("127.0.0.1", 0)) as mute:
        with Client("127.0.0.1", mute.getsockname()[1], timeout=0.3) as client:
            with pytest.raises(TimeoutError):
                client.request("ping")
            with pytest.raises(ConnectionClosed, match="took nothing"):
                client.request("ping", padding="x" * 64_000_000)


@pytest.mark.parametrize("spin_s", [0.0, 0.0002, 0.05])
def test_sync_client_looks_for_its_reply_before_sleeping_without_changing_answers(server,
                                                                                  spin_s):
    """However long a request looks for its reply before it sleeps (0: not at all),
    the answers, the events it passes and its timeouts are the same."""
    with Client(server.host, server.port, spin_s=spin_s) as client:
        client.subscribe(["task_state"])
        pid = client.request("load", image=image_b64(LOOP, "loop"), paused=True)["pid"]
        steps = [client.request("step", pid=pid, count=1)["result"]["executed"]
                 for _ in range(20)]
        assert steps == [1] * 20
        assert any(e["pid"] == pid for e in client.drain_events())    # queued on the way
        with pytest.raises(ProtocolError):
            client.request("step", pid=999)
    with socket.create_server(("127.0.0.1", 0)) as mute:
        with Client("127.0.0.1", mute.getsockname()[1], timeout=0.3, spin_s=spin_s) as client:
            with pytest.raises(TimeoutError):
                client.request("ping")


def test_sync_client_sees_the_server_go(tmp_path):
    srv = BackgroundServer(ServerConfig(port=0, root=tmp_path)).start()
    with Client(srv.host, srv.port) as client:
        assert client.request("ping")["reply"] == "pong"
        srv.stop()
        with pytest.raises(ConnectionClosed):
            client.request("ping")
        with pytest.raises(ConnectionClosed):
            client.request("ping")


def test_async_client_sees_the_server_go(tmp_path):
    srv = BackgroundServer(ServerConfig(port=0, root=tmp_path)).start()

    async def main() -> None:
        client = await AsyncClient.connect(srv.host, srv.port)
        srv.stop()
        with pytest.raises(ConnectionClosed):
            for _ in range(50):
                await client.request("ping")
                await asyncio.sleep(0.05)
        await client.close()

    asyncio.run(main())


def test_async_event_waiter_wakes_when_the_server_goes(tmp_path):
    """A next_event() already waiting when the link drops raises, rather than waiting
    forever (and so does the next one)."""
    srv = BackgroundServer(ServerConfig(port=0, root=tmp_path)).start()

    async def main() -> None:
        client = await AsyncClient.connect(srv.host, srv.port)
        await client.subscribe()
        waiting = asyncio.ensure_future(client.next_event())
        await asyncio.sleep(0.1)
        srv.stop()
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(waiting, 5)
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(client.next_event(), 5)
        await client.close()

    asyncio.run(main())


def test_shell_prompt(server, tmp_path):
    (tmp_path / "hello.mvasm").write_text(HELLO)
    script = "session.open repl pid_lock=1\nload hello.mvasm\nps\nbogus\nquit\n"
    done = subprocess.run([sys.executable, "-m", "hsx", "shell", "--port", str(server.port)],
                          input=script, cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0
    assert "hello" in done.stdout and "s1" in done.stdout           # the lock shows in ps
    assert "unknown_cmd" in done.stderr
