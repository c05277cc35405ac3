"""hsx.image layer (DESIGN.md §1): the `.hxe` format and the shared image model."""
from .errors import ERROR_CODES, ImageError
from .hxe import HeaderInfo, normalize_app_name, parse_header, read_hxe, read_hxe_file, write_hxe
from .metadata import parse_mailbox_mode
from .model import (APP_NAME_MAX, AUTH_LEVELS, COMMAND_FLAGS, FLAG_ALLOW_MULTIPLE,
                    FLAG_MANIFEST, HEADER_SIZE_V1, HEADER_SIZE_V2, HXE_MAGIC, MAILBOX_MODES,
                    MAX_BSS_SIZE, MAX_CODE_LEN, MAX_RODATA_LEN, RODATA_BASE, SECTION_COMMAND,
                    SECTION_MAILBOX, SECTION_VALUE, VALUE_FLAGS, CommandSpec, HxeImage,
                    MailboxBinding, MailboxSpec, Metadata, ValueSpec)

__all__ = [
    "ERROR_CODES", "ImageError",
    "HeaderInfo", "normalize_app_name", "parse_header", "read_hxe", "read_hxe_file", "write_hxe",
    "parse_mailbox_mode",
    "APP_NAME_MAX", "AUTH_LEVELS", "COMMAND_FLAGS", "FLAG_ALLOW_MULTIPLE", "FLAG_MANIFEST",
    "HEADER_SIZE_V1", "HEADER_SIZE_V2", "HXE_MAGIC", "MAILBOX_MODES", "MAX_BSS_SIZE",
    "MAX_CODE_LEN", "MAX_RODATA_LEN", "RODATA_BASE", "SECTION_COMMAND", "SECTION_MAILBOX",
    "SECTION_VALUE", "VALUE_FLAGS",
    "CommandSpec", "HxeImage", "MailboxBinding", "MailboxSpec", "Metadata", "ValueSpec",
]
