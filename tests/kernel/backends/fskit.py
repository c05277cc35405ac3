"""One factory for every FileSystem backend, so a suite runs once per backend."""
from __future__ import annotations

import itertools
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

FS_BACKENDS = ["host", "fat12", "fat16", "fat32", "can"]
# The smallest image each FAT type allows here, rounded up (fatformat.geometry says why).
FAT_SIZES = {12: 1 << 20, 16: 4 << 20, 32: 40 << 20}
HAVE_FSCK = shutil.which("fsck.fat") is not None or Path("/usr/sbin/fsck.fat").exists()
needs_fsck = pytest.mark.skipif(not HAVE_FSCK, reason="fsck.fat not installed (Debian package "
                                                      "dosfstools)")


def fsck_path() -> str:
    return shutil.which("fsck.fat") or "/usr/sbin/fsck.fat"


def make_image(path: Path, fat_type: int, size: int | None = None) -> Path:
    from hsx.kernel.blockdev import ImageBlockDevice
    from hsx.kernel.filesystems.fatformat import mkfs
    device = ImageBlockDevice(path, create_size=size or FAT_SIZES[fat_type])
    try:
        mkfs(device, fat_type)
    finally:
        device.close()
    return path


@contextmanager
def file_system(kind: str, tmp_path: Path, max_open: int = 32):
    """A fresh, empty file system of `kind` (see FS_BACKENDS); shut down afterwards."""
    if kind == "host":
        from hsx.kernel.filesystems import SandboxFS
        fs = SandboxFS(tmp_path / "root", max_open_per_task=max_open)
        yield fs
        fs.shutdown()
    elif kind.startswith("fat"):
        from hsx.kernel.blockdev import ImageBlockDevice
        from hsx.kernel.filesystems.fat import FatFileSystem
        image = make_image(tmp_path / f"{kind}.img", int(kind[3:]))
        fs = FatFileSystem(ImageBlockDevice(image), max_open_per_task=max_open)
        try:
            yield fs
        finally:
            fs.shutdown()
    elif kind == "can":
        with can_file_system(tmp_path, max_open) as (fs, _server):
            yield fs
    else:
        raise ValueError(kind)


@contextmanager
def can_server(served):
    """A file server serving `served` on a fresh python-can virtual channel of its own:
    (server, channel).  The served file system is shut down afterwards."""
    from hsx.kernel.filesystems.can import CanFileServer, open_can_bus
    channel = f"hsx-fs-test-{next(_channels)}"
    server = CanFileServer(served, open_can_bus("virtual", channel))
    server.start()
    try:
        yield server, channel
    finally:
        server.stop()
        served.shutdown()


@contextmanager
def can_file_system(tmp_path: Path, max_open: int = 32, *, client_bus=None, timeout: float = 2.0):
    """A file server on its own node serving a host directory, and a client FileSystem
    on another node (its bus wrapped by `client_bus`, to inject faults): (client, server)."""
    from hsx.kernel.filesystems import SandboxFS
    from hsx.kernel.filesystems.can import CanFileSystem, open_can_bus
    with can_server(SandboxFS(tmp_path / "served")) as (server, channel):
        bus = open_can_bus("virtual", channel)
        fs = CanFileSystem(client_bus(bus) if client_bus else bus, max_open_per_task=max_open,
                           timeout=timeout, location=f"can:{channel}")
        try:
            yield fs, server
        finally:
            fs.shutdown()


_channels = itertools.count(1)
