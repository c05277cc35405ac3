"""Values and commands (SVC modules 0x07 and 0x08): the executive's named registry.

`ValueRegistry` and `CommandRegistry` hold the entries and answer the SVCs and the
server; `PersistStore` keeps persistent values across restarts; `chains` decodes the
descriptor chains REGISTER finds in guest memory.  docs/values.md is the user
documentation.
"""
from hsx.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".access": ("Pin", "may_access"),
    ".chains": ("decode_command_descriptors", "decode_value_descriptors", "read_c_string"),
    ".commands": ("CommandRegistry",),
    ".constants": ("CMD_REGISTER_HANDLER", "COMPLETION", "GROUP_ALL", "LIST_ENTRY",
                   "LIST_VISIBLE", "NOTIFY", "Auth", "CmdFlag", "CmdFn", "CmdStatus",
                   "DescType", "PersistMode", "ValFlag", "ValFn", "ValStatus", "make_oid",
                   "split_oid"),
    ".errors": ("DescriptorError", "RegistryError"),
    ".events": ("EmitFn", "NotifyFn", "RegistryEvent"),
    ".model": ("CallTicket", "CommandDescriptor", "CommandInfo", "Completion", "GetResult",
               "HelpResult", "OidResult", "SetResult", "ValueDescriptor", "ValueInfo"),
    ".persist": ("PersistStore",),
    ".store": ("PersistenceStore", "PersistError", "PersistKey"),
    ".values": ("ValueRegistry",),
})
