"""The engine's API: a game driven by the generated rules.

`new_game` builds a game from a profile (plus single-variant overrides), a
dealer and a deck; `Game` asks the rules for the legal actions, applies
actions, deals the next round, and reads and writes the whole state as JSON.
Every Baloot rule lives in the generated modules; this file only holds the
state between calls, translates the text notation, and keeps the state
unchanged when an action is refused. Hand-written.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import definitions, entry_points
from .notation import (
    NotationError,
    action_text,
    card_text,
    parse_action,
    parse_deck,
)
from .plain import Plain, from_plain, to_plain
from .readings import PROFILES, VARIANT_IDS, VARIANTS, Readings
from .runtime_support import IllegalAction


class SetupError(ValueError):
    """A profile, reading, dealer or deck the engine cannot start from."""


def _with_readings(rule: Callable[..., Any]) -> Callable[..., Any]:
    """Call a generated rule the same way whether or not it consults the readings."""
    if next(iter(inspect.signature(rule).parameters), None) == "readings":
        return rule  # it takes them first already: no wrapper on the hot path

    def call(readings: Readings, *args: Any) -> Any:
        return rule(*args)

    return call


_start_game = _with_readings(entry_points.start_game)
_start_game_at = _with_readings(entry_points.start_game_at)
_deal_next = _with_readings(entry_points.deal_next)
_legal_actions = _with_readings(entry_points.legal_actions)
_apply_action = _with_readings(entry_points.apply_action)
_apply_legal_action = _with_readings(entry_points.apply_legal_action)
_current_player = _with_readings(entry_points.current_player)


_PHASE_TEXT: dict[definitions.Phase, str] = {p: str(p.value) for p in definitions.Phase}


def choose_readings(profile: str = "literal", overrides: dict[str, str] | None = None) -> Readings:
    """A profile's readings with single variants overridden (by name or by ID, A1...)."""
    if profile not in PROFILES:
        raise SetupError(f"unknown profile {profile!r}: expected one of {', '.join(PROFILES)}")
    readings = PROFILES[profile]
    for key, reading in (overrides or {}).items():
        name = VARIANT_IDS.get(key, key)
        if name not in VARIANTS:
            raise SetupError(f"unknown variant {key!r}: expected a variant name or ID "
                             f"({', '.join(VARIANTS)})")
        if reading not in VARIANTS[name]:
            raise SetupError(f"{reading!r} is not a reading of {name}: expected one of "
                             f"{', '.join(VARIANTS[name])}")
        readings = replace(readings, **{name: reading})
    return readings


def shuffled_deck(seed: int) -> list[str]:
    """A deck in an order fixed by the seed: the only randomness, and it is explicit."""
    deck = [card_text(definitions.Card(suit=s, rank=r))
            for s in definitions.Suit for r in definitions.Rank]
    random.Random(seed).shuffle(deck)
    return deck


def _deck(deck: list[str]) -> list[definitions.Card]:
    try:
        return parse_deck(deck)
    except NotationError as err:
        raise SetupError(str(err)) from None


class Game:
    """One game of Baloot under a fixed choice of readings."""

    # The legal actions of one state, records and texts, kept while that state lasts (speed:
    # both are asked for, often more than once, between two actions).
    _legal: tuple[definitions.Game, Readings, list[definitions.Action], list[str] | None] | None

    def __init__(self, readings: Readings, state: definitions.Game) -> None:
        self.readings = readings
        self.state = state
        self._legal = None

    # -- reading the state -----------------------------------------------------------

    @property
    def phase(self) -> str:
        return _PHASE_TEXT[self.state.phase]

    @property
    def current_player(self) -> int | None:
        player: int | None = _current_player(self.readings, self.state)
        return player

    def legal_action_records(self) -> list[definitions.Action]:
        return list(self._legal_now()[2])

    def legal_actions(self) -> list[str]:
        state, readings, records, texts = self._legal_now()
        if texts is None:
            texts = [action_text(a) for a in records]
            self._legal = (state, readings, records, texts)
        return list(texts)

    def _legal_now(
        self,
    ) -> tuple[definitions.Game, Readings, list[definitions.Action], list[str] | None]:
        """The cached legal actions if they are those of the current state, else fresh ones."""
        cached = self._legal
        if cached is None or cached[0] is not self.state or cached[1] is not self.readings:
            records: list[definitions.Action] = _legal_actions(self.readings, self.state)
            cached = self._legal = (self.state, self.readings, records, None)
        return cached

    def observation(self) -> dict[str, Plain]:
        """The whole state as plain JSON values, with the phase and player to act."""
        plain = to_plain(self.state)
        assert isinstance(plain, dict)
        return {"phase": self.phase, "current_player": self.current_player, **plain}

    def round_result(self) -> dict[str, Plain] | None:
        """The last finished round's result, or None before the first round ends."""
        result = self.state.last_result
        if result is None:
            return None
        plain = to_plain(result)
        assert isinstance(plain, dict)
        return plain

    # -- acting ---------------------------------------------------------------------

    def apply(self, action: str | definitions.Action) -> None:
        """Apply one action; an illegal one raises `IllegalAction` and changes nothing.

        An action that is one of the legal actions just listed for this state (the same
        record, or the same text) goes to the rules' `apply_legal_action`, which does not
        judge again what is known to be legal; any other goes to `apply_action`."""
        legal = self._listed(action)
        if legal is not None:
            self.state = _apply_legal_action(self.readings, self.state, legal)
            return
        if isinstance(action, str):
            try:
                record = parse_action(action)
            except NotationError as err:
                raise IllegalAction(str(err), rule="notation", clauses=()) from None
        elif isinstance(action, definitions.Action):
            record = action
        else:
            raise TypeError(f"{action!r} is not an action: expected its text (as 'play 10S') "
                            "or an Action record")
        self.state = _apply_action(self.readings, self.state, record)

    def _listed(self, action: str | definitions.Action) -> definitions.Action | None:
        """The listed legal record that `action` is (by identity) or names (by its text)."""
        cached = self._legal
        if cached is None or cached[0] is not self.state or cached[1] is not self.readings:
            return None
        records, texts = cached[2], cached[3]
        if isinstance(action, str):
            if texts is not None and action in texts:
                return records[texts.index(action)]
            return None
        for record in records:
            if record is action:
                return record
        return None

    def deal(self, deck: list[str]) -> None:
        """Deal the next round (after a round, or after everyone passed twice)."""
        self.state = _deal_next(self.readings, self.state, _deck(deck))

    # -- JSON ------------------------------------------------------------------------

    def to_json(self) -> str:
        return json.dumps({"readings": to_plain(self.readings), "state": to_plain(self.state)},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """A game saved by `to_json`. A state no game can reach (a card twice or missing, a
        hand of more than 8 cards, a seat or a total out of range) is a SetupError."""
        data = json.loads(text)
        readings = choose_readings("literal", data["readings"])
        state = from_plain(definitions.Game, data["state"], "$.state")
        problem = _impossible_state(state)
        if problem is not None:
            raise SetupError(f"the saved game cannot be played: {problem}")
        return cls(readings, state)


def _impossible_state(state: definitions.Game) -> str | None:
    """What makes a state one no game reaches, or None: every card is in one place only
    (a hand, the stock, the trick, a finished trick; the face-up card besides, before it
    is taken), a hand holds at most 8 cards, the seats are seats, the totals are whole
    numbers not below 0."""
    for name in ("dealer", "next_dealer_seat", "leader"):
        seat = getattr(state, name)
        if type(seat) is not int or seat not in range(4):
            return f"{name} {seat!r} is not a seat"
    if len(state.hands) != 4 or any(len(hand) > 8 for hand in state.hands):
        return "expected four hands of at most 8 cards"
    if len(state.totals) != 2 or any(type(t) is not int or t < 0 for t in state.totals):
        return f"totals {state.totals!r}: expected two whole numbers, 0 or more"
    placed = [card for hand in state.hands for card in hand] + list(state.stock)
    placed += [play.card for play in state.trick]
    placed += [play.card for trick in state.tricks for play in trick.plays]
    texts = [card_text(card) for card in placed]
    doubled = sorted({t for t in texts if texts.count(t) > 1})
    if doubled:
        return "a card is in two places: " + ", ".join(doubled)
    if card_text(state.face_up) not in texts:
        texts.append(card_text(state.face_up))
    if len(texts) != 32:
        return f"{32 - len(texts)} card(s) are nowhere (a deck has 32)"
    return None


def new_game(profile: str = "literal", overrides: dict[str, str] | None = None,
             dealer: int = 0, deck: list[str] | None = None, seed: int | None = None,
             totals: list[int] | None = None) -> Game:
    """A new game, its first round dealt from `deck` (or from the deck `seed` fixes),
    from running totals of 0 each unless `totals` gives others."""
    readings = choose_readings(profile, overrides)
    if type(dealer) is not int or dealer not in range(4):  # 1.0 and True are no seats
        raise SetupError(f"dealer {dealer!r} is not a seat: expected 0, 1, 2 or 3")
    if deck is None:
        deck = shuffled_deck(seed if seed is not None else 0)
    if totals is None:
        state = _start_game(readings, dealer, _deck(deck))
    else:
        if len(totals) != 2 or not all(type(t) is int for t in totals):
            raise SetupError(f"totals {totals!r}: expected two whole numbers, one per team")
        state = _start_game_at(readings, dealer, _deck(deck), list(totals))
    return Game(readings, state)
