"""Deals designed for the witness search (`differential.py`): hands laid out so that a
rare part of the rules is reached whatever the random play after them does.

Random deals seldom reach a sweep with a baloot in a doubled round, or a hand with two
hundreds that share a card. A designed deal names its four hands, the seat that takes
the face-up card (the deck is `deal_layout.deck_for_hands` of them), the readings it is
played under, an `opening` of actions taken before the random ones (the bidding and the
raise that lead there), the clauses it is for, and how many games to play from it.
Survivors citing one of its clauses play from it first (`seeded_setups`).

The deals are data, in `designed_deals.json` beside this module, each with a note that
says what it reaches and why, worked out from the rules.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..harness.deal_layout import deck_for_hands
from ..harness.variants import load_register
from .differential import Setup

DEALS_FILE = Path(__file__).with_name("designed_deals.json")
FIELDS = {"name", "note", "clauses", "dealer", "taker", "hands", "requires", "opening",
          "games"}


class DesignedDealError(ValueError):
    """A designed deal that cannot be played: which one, and what is wrong."""


@cache
def designed_setups(path: Path = DEALS_FILE) -> tuple[Setup, ...]:
    """The designed deals as starts of the witness search."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(_setup(raw, f"{path.name}: deals[{index}]")
                 for index, raw in enumerate(data["deals"]))


def _setup(raw: dict[str, Any], where: str) -> Setup:
    unknown = set(raw) - FIELDS
    missing = FIELDS - set(raw)
    if unknown or missing:
        raise DesignedDealError(f"{where}: expected the fields {', '.join(sorted(FIELDS))}"
                                f" (unknown: {sorted(unknown)}, missing: {sorted(missing)})")
    try:
        deck = deck_for_hands(raw["hands"], raw["dealer"], raw["taker"])
    except (ValueError, IndexError, TypeError) as exc:
        raise DesignedDealError(f"{where} ({raw['name']}): hands: {exc}") from None
    register = load_register()
    for variant, reading in raw["requires"].items():
        if reading not in getattr(register.variants.get(variant), "readings", ()):
            raise DesignedDealError(f"{where} ({raw['name']}): requires: no reading "
                                    f"{reading!r} of a variant {variant!r}")
    return Setup(raw["dealer"], tuple(deck), None, tuple(sorted(raw["requires"].items())),
                 frozenset(raw["clauses"]), opening=tuple(raw["opening"]),
                 games=int(raw["games"]), deal=raw["name"])
