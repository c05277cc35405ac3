"""`hsx fs`: SD card images (FAT12/16/32) and the file server over CAN (docs/backends.md).

    hsx fs mkfs card.img --size 64M [--type 16]     make an empty image
    hsx fs ls card.img [/logs]                     list a directory
    hsx fs cp notes.txt card.img:/notes.txt        copy into an image ...
    hsx fs cp card.img:/logs/run.log run.log       ... and out of it
    hsx fs mkdir card.img:/logs                    make a directory
    hsx fs serve DIR --can hsx                     serve DIR (or fat:IMAGE) over CAN ISO-TP
"""
from __future__ import annotations

import errno
import os
import re
import signal
from pathlib import Path

import click

from .errors import EXIT_FAILED, fail, input_file

SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMG]?)(?:i?B)?\s*$", re.IGNORECASE)
OWN = 0                       # the descriptors `hsx fs` opens itself


@click.group("fs")
def fs_command() -> None:
    """Make, list and copy files on SD card images; serve files over CAN.

    \b
    An image is a FAT12, FAT16 or FAT32 volume in a file, as `hsx run --fs fat:IMAGE`
    and `hsx execd --fs fat:IMAGE` give it to the guests.  IMAGE:PATH names a file in an
    image (the image is the part before the first colon).
    \b
    Examples:
      hsx fs mkfs card.img --size 64M
      hsx fs mkdir card.img:/input
      hsx fs cp data.csv card.img:/input/data.csv
      hsx fs ls card.img /input
      hsx fs cp card.img:/input/data.csv copy.csv
      hsx fs serve ./files --can hsx
    """


def parse_size(text: str) -> int:
    match = SIZE.match(text)
    if not match:
        fail(f"--size {text}", "not a size", "e.g. --size 64M, --size 512K or --size 1G")
    scale = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[match.group(2).upper()]
    return int(float(match.group(1)) * scale)


@fs_command.command("mkfs")
@click.argument("image", type=click.Path(dir_okay=False))
@click.option("--size", required=True, metavar="SIZE",
              help="Image size: bytes, or with K, M or G (e.g. 64M).")
@click.option("--type", "fat_type", type=click.Choice(["12", "16", "32", "auto"]),
              default="auto", show_default=True,
              help="FAT type; auto picks the one the size suits (FAT12 up to 2 MiB, FAT16 "
                   "up to 512 MiB, FAT32 above).")
@click.option("--force", is_flag=True, help="Replace an existing file.")
def mkfs_command(image: str, size: str, fat_type: str, force: bool) -> None:
    """Make IMAGE an empty FAT volume of SIZE bytes (FAT32 needs about 33 MiB or more)."""
    from hsx.kernel.blockdev import ImageBlockDevice
    from hsx.kernel.filesystems.fatformat import FormatError, geometry, mkfs
    nbytes = parse_size(size)
    if Path(image).exists() and not force:
        fail(image, "already exists", "give --force to replace it, or another name")
    sectors = nbytes // 512
    kind = int(fat_type) if fat_type != "auto" else (
        12 if nbytes <= 2 << 20 else 16 if nbytes <= 512 << 20 else 32)
    try:
        geometry(sectors, kind)
    except FormatError as error:
        fail(f"--size {size}", str(error), "choose another --size or --type")
    try:
        device = ImageBlockDevice(image, create_size=nbytes)
    except OSError as error:
        fail(image, (error.strerror or str(error)).lower())
    try:
        layout = mkfs(device, kind)
    finally:
        device.close()
    click.echo(f"{image}: FAT{kind}, {nbytes} bytes, {layout.clusters} clusters of "
               f"{layout.sectors_per_cluster * 512} bytes")


@fs_command.command("ls")
@click.argument("image", type=click.Path(dir_okay=False))
@click.argument("path", default="/")
def ls_command(image: str, path: str) -> None:
    """List PATH (default /) in IMAGE; directories end in /."""
    with _mounted(image) as fs:
        listing = fs.listdir(path)
        if isinstance(listing, int):
            _failed(f"{image}:{path}", listing)
        if listing:
            click.echo(listing.decode())


@fs_command.command("mkdir")
@click.argument("target", metavar="IMAGE:PATH")
def mkdir_command(target: str) -> None:
    """Make a directory in an image."""
    image, sep, path = target.partition(":")
    if not sep:
        fail(target, "not IMAGE:PATH", "e.g. hsx fs mkdir card.img:/logs")
    with _mounted(image) as fs:
        result = fs.mkdir(path)
        if result < 0:
            _failed(target, result)


@fs_command.command("cp")
@click.argument("source")
@click.argument("target")
def cp_command(source: str, target: str) -> None:
    """Copy a file into an image (TARGET is IMAGE:PATH) or out of one (SOURCE is)."""
    from_image, to_image = ":" in source, ":" in target
    if from_image == to_image:
        fail(f"{source} {target}", "exactly one of them must be IMAGE:PATH",
             "e.g. hsx fs cp notes.txt card.img:/notes.txt")
    if to_image:
        image, path = target.split(":", 1)
        data = input_file(source).read_bytes()
        with _mounted(image) as fs:
            _write(fs, f"{image}:{path}", path, data)
    else:
        image, path = source.split(":", 1)
        with _mounted(image) as fs:
            data = _read(fs, f"{image}:{path}", path)
        try:
            Path(target).write_bytes(data)
        except OSError as error:
            fail(target, (error.strerror or str(error)).lower())


@fs_command.command("serve")
@click.argument("served")
@click.option("--can", "channel", required=True, metavar="CHANNEL", help="The CAN channel.")
@click.option("--interface", default="virtual", show_default=True,
              help="python-can interface (socketcan, ...; virtual is in-process only).")
def serve_command(served: str, channel: str, interface: str) -> None:
    """Serve SERVED (a directory, or fat:IMAGE) to one client over CAN ISO-TP, until
    Ctrl-C.  The client is `hsx run --fs can:CHANNEL` on another node."""
    from hsx.kernel.filesystems import SandboxFS
    from hsx.kernel.filesystems.can import CanFileServer, open_can_bus
    fs = _open_fat(served[4:]) if served.startswith("fat:") else _directory(served, SandboxFS)
    try:
        bus = open_can_bus(interface, channel)
    except Exception as error:               # python-can's own error types
        fs.shutdown()
        fail(f"--can {channel}", str(error), "check --interface and the channel")
    server = CanFileServer(fs, bus)
    signal.signal(signal.SIGTERM, lambda *_: server.stop())
    server.start()
    click.echo(f"hsx fs serving {fs.location} on {interface}:{channel}")
    try:
        server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        fs.shutdown()


# -- helpers ---------------------------------------------------------------------------------

class _mounted:
    def __init__(self, image: str) -> None:
        self.fs = _open_fat(image)

    def __enter__(self):
        return self.fs

    def __exit__(self, *exc) -> None:
        self.fs.shutdown()


def _open_fat(image: str):
    from hsx.kernel.blockdev import ImageBlockDevice
    from hsx.kernel.filesystems.fat import FatFileSystem
    input_file(image, hint="give an image file (hsx fs mkfs makes one)")
    try:
        device = ImageBlockDevice(image)
    except OSError as error:
        fail(image, str(error).removeprefix(f"{image}: "), "give an image hsx fs mkfs made")
    try:
        return FatFileSystem(device, location=image)
    except OSError as error:
        device.close()
        fail(image, str(error).removeprefix(f"{image}: "), "make one with hsx fs mkfs")


def _directory(path: str, sandbox):
    if not Path(path).is_dir():
        fail(path, "no such directory", "give a directory, or fat:IMAGE")
    return sandbox(path, max_open_per_task=256)


def _failed(what: str, result: int):
    fail(what, os.strerror(-result).lower(), code=EXIT_FAILED)


def _write(fs, what: str, path: str, data: bytes) -> None:
    from hsx.kernel.filesystems import O_CREAT, O_TRUNC, O_WRONLY
    fd = fs.open(OWN, path, O_WRONLY | O_CREAT | O_TRUNC)
    if fd < 0:
        _failed(what, fd)
    try:
        written = fs.write(OWN, fd, data)
        if written < 0:
            _failed(what, written)
    finally:
        fs.close(OWN, fd)


def _read(fs, what: str, path: str) -> bytes:
    from hsx.kernel.filesystems import read_file
    data = read_file(fs, path)
    if isinstance(data, int):
        _failed(what, data if data != -errno.EISDIR else -errno.EISDIR)
    return data
