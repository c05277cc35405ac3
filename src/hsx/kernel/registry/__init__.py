"""Values and commands (SVC modules 0x07 and 0x08): the executive's named registry.

`ValueRegistry` and `CommandRegistry` hold the entries and answer the SVCs and the
server; `PersistStore` keeps persistent values across restarts; `chains` decodes the
descriptor chains REGISTER finds in guest memory.  docs/values.md is the user
documentation.
"""
from hsx.kernel.registry.access import Pin, may_access
from hsx.kernel.registry.chains import (
    decode_command_descriptors,
    decode_value_descriptors,
    read_c_string,
)
from hsx.kernel.registry.commands import CommandRegistry
from hsx.kernel.registry.constants import (
    CMD_REGISTER_HANDLER,
    COMPLETION,
    GROUP_ALL,
    LIST_ENTRY,
    LIST_VISIBLE,
    NOTIFY,
    Auth,
    CmdFlag,
    CmdFn,
    CmdStatus,
    DescType,
    PersistMode,
    ValFlag,
    ValFn,
    ValStatus,
    make_oid,
    split_oid,
)
from hsx.kernel.registry.errors import DescriptorError, RegistryError
from hsx.kernel.registry.events import EmitFn, NotifyFn, RegistryEvent
from hsx.kernel.registry.model import (
    CallTicket,
    CommandDescriptor,
    CommandInfo,
    Completion,
    GetResult,
    HelpResult,
    OidResult,
    SetResult,
    ValueDescriptor,
    ValueInfo,
)
from hsx.kernel.registry.persist import PersistStore
from hsx.kernel.registry.store import PersistenceStore, PersistError, PersistKey
from hsx.kernel.registry.values import ValueRegistry

__all__ = [
    "CMD_REGISTER_HANDLER", "COMPLETION", "GROUP_ALL", "LIST_ENTRY", "LIST_VISIBLE", "NOTIFY",
    "Auth", "CallTicket", "CmdFlag", "CmdFn", "CmdStatus", "CommandDescriptor", "CommandInfo",
    "CommandRegistry", "Completion", "DescType", "DescriptorError", "EmitFn", "GetResult",
    "HelpResult", "NotifyFn", "OidResult", "PersistError", "PersistKey", "PersistMode",
    "PersistStore", "PersistenceStore", "Pin", "RegistryError", "RegistryEvent", "SetResult", "ValFlag", "ValFn",
    "ValStatus", "ValueDescriptor", "ValueInfo", "ValueRegistry", "decode_command_descriptors",
    "decode_value_descriptors", "make_oid", "may_access", "read_c_string", "split_oid",
]
