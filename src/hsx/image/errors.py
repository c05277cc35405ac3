"""The one error type of the image layer.

Callers (loader, linker, CLI, protocol handlers) branch on `ImageError.code`, a stable
string, and show `str(error)` to people; the message names the values involved.
"""
from __future__ import annotations

ERROR_CODES = frozenset({
    # file and header
    "unreadable", "too_small", "header_truncated", "bad_magic", "unsupported_version",
    "reserved_nonzero", "bad_app_name", "code_too_large", "rodata_too_large",
    "bss_too_large", "code_misaligned", "entry_misaligned", "entry_outside_code",
    "field_out_of_range", "bad_task_size",
    # layout and integrity
    "truncated", "crc_mismatch", "trailing_bytes", "metadata_table_missing",
    "metadata_overlap", "metadata_out_of_bounds",
    # metadata contents
    "metadata_truncated", "metadata_string_out_of_range", "metadata_string_unterminated",
    "metadata_string_invalid", "metadata_too_large", "mailbox_metadata_invalid",
    "unknown_mailbox_mode", "duplicate_metadata", "handler_outside_code",
})


class ImageError(ValueError):
    """An image that cannot be read, or an `HxeImage` that cannot be written."""

    def __init__(self, code: str, message: str) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown image error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self):
        return (type(self), (self.code, self.message))


def check_uint(what: str, value: object, bits: int) -> int:
    """Reject a field the writer cannot pack into `bits` unsigned bits."""
    limit = (1 << bits) - 1
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        raise ImageError("field_out_of_range",
                         f"{what} must be an integer in 0..0x{limit:X}, got {value!r}")
    return value
