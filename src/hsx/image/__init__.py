"""hsx.image layer (DESIGN.md §1): the `.hxe` format and the shared image model.

Its names are imported on first use (`hsx.lazy`): a module that needs only the object
format (`hsx.image.hxo`, `hsx cc -c`) does not load the image reader and writer.
"""
from hsx.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".errors": ("ERROR_CODES", "ImageError"),
    ".hxe": ("HeaderInfo", "normalize_app_name", "parse_header", "read_hxe", "read_hxe_file",
             "write_hxe"),
    ".metadata": ("parse_mailbox_mode",),
    ".model": ("APP_NAME_MAX", "AUTH_LEVELS", "COMMAND_FLAGS", "FLAG_ALLOW_MULTIPLE",
               "FLAG_MANIFEST", "HEADER_SIZE_V1", "HEADER_SIZE_V2", "HXE_MAGIC",
               "MAILBOX_MODES", "MAX_BSS_SIZE", "MAX_CODE_LEN", "MAX_RODATA_LEN",
               "RODATA_BASE", "SECTION_COMMAND", "SECTION_MAILBOX", "SECTION_VALUE",
               "VALUE_FLAGS", "CommandSpec", "HxeImage", "MailboxBinding", "MailboxSpec",
               "Metadata", "ValueSpec"),
})
