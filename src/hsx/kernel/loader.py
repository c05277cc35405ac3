"""Turning image bytes into a task: instance names and streamed loads.

A streamed load (begin/write/end/abort) checks the header as soon as it has one, so a
wrong file is refused after its first chunk instead of after the whole transfer.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hsx.image.errors import ImageError
from hsx.image.hxe import parse_header
from hsx.image.model import APP_NAME_MAX, HEADER_SIZE_V1, HEADER_SIZE_V2, MAX_CODE_LEN

from .errors import KernelError

MAX_IMAGE_BYTES = 2 * MAX_CODE_LEN   # the largest code, and as much again of rodata and metadata


def instance_name(base: str, allow_multiple: bool, taken: set[str]) -> str:
    """The first instance keeps `base`; later ones are `base_#0`, `base_#1`, …

    An image that forbids several instances is refused while one is alive.
    """
    base = base[:APP_NAME_MAX] or "task"
    if base not in taken:
        return base
    if not allow_multiple:
        raise KernelError(f"app_exists:{base}",
                          f"app {base!r} is already running and its image forbids a second instance")
    index = 0
    while True:
        suffix = f"_#{index}"
        candidate = base[:APP_NAME_MAX - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        index += 1


@dataclass
class StreamLoad:
    """An image arriving in chunks."""

    sid: int
    label: str | None
    data: bytearray = field(default_factory=bytearray)
    expected: int | None = None      # minimum total size once the header is known

    def write(self, chunk: bytes) -> None:
        if len(self.data) + len(chunk) > MAX_IMAGE_BYTES:
            raise KernelError("image_too_large",
                              f"streamed image exceeds {MAX_IMAGE_BYTES >> 20} MiB")
        self.data += chunk
        if self.expected is None and self._header_complete():
            try:
                self.expected = parse_header(bytes(self.data)).total_size_hint
            except ImageError as error:
                raise KernelError(f"bad_image:{error.code}", str(error)) from None

    def _header_complete(self) -> bool:
        if len(self.data) < 6:
            return False
        version = int.from_bytes(self.data[4:6], "big")
        needed = HEADER_SIZE_V2 if version == 2 else HEADER_SIZE_V1
        return len(self.data) >= needed

    def finish(self) -> bytes:
        if self.expected is not None and len(self.data) < self.expected:
            raise KernelError("bad_image:truncated",
                              f"image incomplete: {len(self.data)} of at least "
                              f"{self.expected} bytes received")
        return bytes(self.data)
