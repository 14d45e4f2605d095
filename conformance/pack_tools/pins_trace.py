"""Which variants a case's run consults: the reference engine played with readings that
note every variant a rule reads.

A run of a case is a function of the case and of the readings the rules consult on
the way, nothing else: the engine is deterministic, and the runner acts on the
engine's replies alone. So a run that never consulted a variant plays the same,
reply for reply, under every reading of it, and `baloot conform pins` takes its
verdict for those readings without playing them (`PinChecker.check`).

The noting readings are a fresh object for each game, never one of the interned
`Readings`, so a rule whose results are kept (`@cache`, keyed on the readings)
computes each result afresh in that game, its reads noted; those kept results
are dropped after the run, with the object.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from ... import reference_impl as api
from ...reference_impl import (
    bidding_rules,
    cards_rules,
    deal_rules,
    game_rules,
    play_rules,
    projects_rules,
    raises_rules,
    scoring_rules,
)
from ...reference_impl.readings import Readings

_VARIANT_FIELDS = frozenset(f.name for f in fields(Readings))


class NotingReadings(Readings):
    """Readings that add the name of every variant read to `consulted`."""

    __slots__ = ("consulted",)
    consulted: set[str]

    def __new__(cls, readings: Readings, consulted: set[str]) -> NotingReadings:
        value = object.__new__(cls)
        for name in _VARIANT_FIELDS:
            object.__setattr__(value, name, object.__getattribute__(readings, name))
        object.__setattr__(value, "consulted", consulted)
        return value

    def __getattribute__(self, name: str) -> Any:
        if name in _VARIANT_FIELDS:
            object.__getattribute__(self, "consulted").add(name)
        return object.__getattribute__(self, name)


def _kept_rules_of_readings() -> list[Callable[..., Any]]:
    """The generated rules that keep their results and take the readings."""
    found = []
    for module in (bidding_rules, cards_rules, deal_rules, game_rules, play_rules,
                   projects_rules, raises_rules, scoring_rules):
        for value in vars(module).values():
            wrapped = getattr(value, "__wrapped__", None)
            if (callable(value) and hasattr(value, "cache_clear") and wrapped is not None
                    and next(iter(inspect.signature(wrapped).parameters), None) == "readings"):
                found.append(value)
    return found


class NotingApi:
    """The reference engine's API for an `InProcessEngine`; while `noting`, each game's
    readings note what they are asked into `consulted` (one set for every game since
    `forget`). Only the interpreted engine can note: a compiled build refuses."""

    IllegalAction = api.IllegalAction
    __version__ = str(getattr(api, "__version__", "0"))

    def __init__(self) -> None:
        refused = api.interpreted_only("conform pins")
        if refused is not None:
            raise RuntimeError(refused)
        self.consulted: set[str] = set()
        self.noting = False  # off: the games play the interned readings, at full speed
        self._kept = _kept_rules_of_readings()
        self.readings: Readings | None = None  # those of the last game made while noting

    def new_game(self, profile: str = "literal", overrides: dict[str, str] | None = None,
                 **setup: Any) -> api.Game:
        if not self.noting:
            return api.new_game(profile, overrides, **setup)
        self.readings = api.choose_readings(profile, overrides)
        readings = NotingReadings(self.readings, self.consulted)
        return api.new_game(profile, overrides, readings=readings, **setup)

    def forget(self) -> frozenset[str]:
        """The variants consulted since the last call; the results kept under noting
        readings dropped."""
        consulted = frozenset(self.consulted)
        self.consulted.clear()
        for rule in self._kept:
            rule.cache_clear()  # type: ignore[attr-defined]
        return consulted
