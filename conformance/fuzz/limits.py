"""What the fuzzer leaves out for an engine that lacks a capability.

The reference engine plays every part of the game; an engine may declare
fewer (`declared.CAPABILITIES`). The fuzzer then plays the reference the way
such an engine plays, and compares only what both can say:

- no `raises`: the engine has no raising phase. The reference's players pass
  all through it (the engine is not asked), and `raises` and `locked` are
  not compared. `raise_triple`, `raise_four`, `raise_gahwa`: those calls are
  never made and are left out of the legal sets compared; a player left with
  only `pass` may go unasked (see below).
- no `ashkal`: never called, and left out of the legal sets compared.
- no `declarations`: the engine counts every player's projects itself. The
  reference's players declare every project on offer at their first turn
  (sent to the reference only); `declare` actions are left out of the legal
  sets compared, and the `declarations` state field is not compared.
- no `projects`: nobody declares, `declare` actions and `declarations` are
  not compared, and a round whose result scores a project (baloot included)
  ends the game there, unscored.
- no `game_score`: games of one round, from totals 0-0; `totals`,
  `game_over` and `winner` are not compared, and `game_over` counts as
  `round_over`.
- no `second_session` / no `redeal`: a deal that reaches the second bidding
  session (everyone passed once) / a new deal (everyone passed twice) ends
  the game there, without a disagreement.

- no `pass_only_turns`: the engine passes for a player whose only action
  (among those it has) is `pass`, without asking (the case format's
  `if_asked` step). At such a turn, when the engine's phase and player to act
  are not the reference's, the pass goes to the reference alone, the
  comparison waits for the next turn, and that pass may be missing from the
  engine's `bids` / `raises`. With `pass_only_turns` the engine must ask.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..harness.declared import CAPABILITIES

ALL = frozenset(CAPABILITIES)

_CALL_NEEDS = {
    "double": "raises",
    "triple": "raise_triple",
    "four": "raise_four",
    "gahwa": "raise_gahwa",
}


def action_needs(action: str, phase: str) -> frozenset[str]:
    """The capabilities an action of the phase needs (beyond playing a card)."""
    head = action.split(" ", 1)[0]
    if phase == "raising":
        return frozenset({"raises", _CALL_NEEDS.get(head, "raises")})
    if head == "declare":
        return frozenset({"projects", "declarations"})
    return frozenset({"ashkal"}) if head == "ashkal" else frozenset()


def playable(actions: Iterable[str], phase: str, capabilities: frozenset[str]) -> list[str]:
    """The actions an engine with these capabilities has among `actions`."""
    if capabilities is ALL or capabilities >= ALL:  # every action needs only these (speed)
        return list(actions)
    return [a for a in actions if action_needs(a, phase) <= capabilities]


def unsent_state_fields(capabilities: frozenset[str]) -> frozenset[str]:
    """The state fields not compared for an engine with these capabilities."""
    out: set[str] = set()
    if "raises" not in capabilities:
        out |= {"raises", "locked"}
    if not {"declarations", "projects"} <= capabilities:
        out.add("declarations")
    if "game_score" not in capabilities:
        out.add("totals")
    return frozenset(out)


def unsent_result_fields(capabilities: frozenset[str]) -> frozenset[str]:
    """The result fields not compared for an engine with these capabilities."""
    if "game_score" in capabilities:
        return frozenset()
    return frozenset({"totals", "game_over", "winner"})


def phase_seen(phase: str, capabilities: frozenset[str]) -> str:
    """The phase as an engine with these capabilities names it."""
    if phase == "game_over" and "game_score" not in capabilities:
        return "round_over"
    return phase
