"""What a case looks like to an engine without some capabilities.

An engine that leaves out a part of the game (a capability: `fields.capabilities`) is
checked on what it does implement. A case that needs a missing capability is
not run at all (unsupported); a case that does not need it is run with the
parts that only that capability could show left out:

- without `declarations`, the engine counts every project by itself: the
  script's `declare` steps are not sent, `declare` actions are left out of the
  expected legal sets and `declarations` out of the expected state;
- without `raises`, there is no raising phase: `raises` and `locked` are left
  out of the expected state (a case that raises, or checks a raising turn,
  needs the capability);
- without `raise_triple`, `raise_four`, `raise_gahwa` or `ashkal`, those
  actions are left out of the expected legal sets; without `raise_gahwa`, a
  four ends the raising, so the pass that answers a four (the bidder's turn to
  call gahwa) is left out of the expected `raises`;
- without `game_score`, `totals`, `game_over` and `winner` are left out of the
  expected results, and `totals` out of the expected state;
- without `pass_only_turns`, the (optional) `bids` are left out of the expected
  state: the passes of players never asked may be missing there.

The fields each capability gates are the schema's (`x-capability`, read by `fields.py`);
the actions, and what a missing capability implies, are here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import fields

# capability -> the first word of the actions only it offers
_ACTION_WORDS = {
    "declarations": "declare",
    "raise_triple": "triple",
    "raise_four": "four",
    "raise_gahwa": "gahwa",
    "ashkal": "ashkal",
}


class CapabilityView:
    """The expectations of a case as an engine with `capabilities` can meet them
    (None: every capability)."""

    def __init__(self, capabilities: Iterable[str] | None) -> None:
        every = set(fields.capabilities())
        has = every if capabilities is None else set(capabilities)
        missing = every - has
        if "projects" in missing:
            missing.add("declarations")  # no projects, nothing to declare
        self.dropped_words = {word for cap, word in _ACTION_WORDS.items() if cap in missing}
        # the state's and the result's fields only a missing capability gives meaning to
        # (an engine that passes for pass-only players may not list those passes: `bids`)
        gated_state, gated_result = fields.gated(fields.STATE), fields.gated(fields.RESULT)
        self.dropped_state = {f for cap in missing for f in gated_state.get(cap, ())}
        self.dropped_result = {f for cap in missing for f in gated_result.get(cap, ())}
        self.no_gahwa = "raise_gahwa" in missing

    def keeps_action(self, action: str) -> bool:
        """Is a scripted action sent? (Only `declare` steps are ever left out: the other
        actions of a missing capability make the case unsupported.)"""
        return not (action.startswith("declare") and "declare" in self.dropped_words)

    def actions(self, actions: Iterable[str]) -> list[str]:
        return [a for a in actions if a.split(" ", 1)[0] not in self.dropped_words]

    def state(self, expected: dict[str, Any]) -> dict[str, Any]:
        kept = {k: v for k, v in expected.items() if k not in self.dropped_state}
        if self.no_gahwa and isinstance(kept.get("raises"), list):
            kept["raises"] = _without_gahwa_turn(kept["raises"])
        return kept

    def result(self, expected: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in expected.items() if k not in self.dropped_result}


def _without_gahwa_turn(raises: list[Any]) -> list[Any]:
    """The raises with every pass that answers a four left out (the gahwa turn)."""
    kept: list[Any] = []
    for entry in raises:
        answers_four = bool(kept) and isinstance(kept[-1], dict) and \
            kept[-1].get("action") == "four"
        if answers_four and isinstance(entry, dict) and entry.get("action") == "pass":
            continue
        kept.append(entry)
    return kept
