"""The two gates a request passes before its handler runs: what this executive's variant
offers (`unsupported` otherwise, naming the variant that has it, as the C executive
answers), and what the caller's session negotiated (`capability_required` otherwise).

Each command belongs to a feature (`Command.feature`, one of the session feature names
of docs/protocol.md); the variants' features are in hsx.kernel.profiles.  A client
without a session negotiated nothing and is only held to the variant.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from hsx.kernel.profiles import Profile, variant_offering

from .errors import RequestError

if TYPE_CHECKING:
    from .sessions import Session

# `debug` is the whole debugger: a session that negotiated it may use every part of it.
DEBUGGER_PARTS = frozenset({"stack", "disasm", "symbols", "watch", "trace", "variables",
                            "expressions", "timeline"})
# The prior executive's clients named the parts they wanted with these (it checked none
# of them) and set breakpoints under any of them: each lets a session use `debug` too.
PRIOR_DEBUGGER_NAMES = frozenset({"stack", "disasm", "symbols", "watch"})


def unsupported(what: str, feature: str, running: str, hint: str = "",
                plural: bool = False) -> RequestError:
    """`what` (a command; with `plural`, e.g. "observer sessions") needs a variant this
    executive (variant `running`) is not; `hint` says what it offers instead."""
    needed = variant_offering(feature) or "full"
    variants = "the full variant" if needed == "full" else "the development or full variant"
    verb = "need" if plural else "needs"
    return RequestError("unsupported", f"{what} {verb} {variants}; this executive runs "
                        f"{running}{hint}", variant_required=needed)


def check_variant(name: str, feature: str | None, profile: Profile) -> None:
    if feature is not None and feature not in profile.features:
        raise unsupported(name, feature, profile.name)


def negotiated(features: Iterable[str], feature: str) -> bool:
    """Whether a session that negotiated `features` may use what needs `feature`."""
    have = frozenset(features)
    return (feature in have or (feature in DEBUGGER_PARTS and "debug" in have)
            or (feature == "debug" and bool(have & PRIOR_DEBUGGER_NAMES)))


def check_session(name: str, feature: str | None, session: Session | None) -> None:
    if feature is None or session is None or negotiated(session.features, feature):
        return
    have = ", ".join(session.features) or "none"
    raise RequestError("capability_required",
                       f"{name} needs the session feature '{feature}', which session "
                       f"{session.handle} did not negotiate (it has: {have}); open a session "
                       f"whose capabilities.features include it", feature=feature)
