"""The engine's API: a game driven by the generated rules.

`new_game` builds a game from a profile (plus single-variant overrides), a
dealer and a deck; `Game` asks the rules for the legal actions, applies
actions, deals the next round, and reads and writes the whole state as JSON.
Every Baloot rule lives in the generated modules; this file only holds the
state between calls, translates the text notation, and keeps the state
unchanged when an action is refused. Hand-written.
"""

from __future__ import annotations

import importlib.machinery
import inspect
import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import definitions, entry_points
from .notation import (
    NotationError,
    action_text,
    card_text,
    parse_action,
    parse_deck,
)
from .plain import Plain, PlainError, from_plain, to_plain
from .readings import PROFILES, VARIANT_IDS, VARIANTS, Readings, readings_from
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
    if type(profile) is not str or profile not in PROFILES:
        raise SetupError(f"unknown profile {profile!r}: expected one of {', '.join(PROFILES)}")
    readings = PROFILES[profile]
    if overrides is not None and not isinstance(overrides, dict):
        raise SetupError(f"overrides {overrides!r}: expected an object of variant: reading")
    if not overrides:
        return readings
    chosen = {name: getattr(readings, name) for name in VARIANTS}
    for key, reading in overrides.items():
        name = VARIANT_IDS.get(key, key)
        if name not in VARIANTS:
            raise SetupError(f"unknown variant {key!r}: expected a variant name or ID "
                             f"({', '.join(VARIANTS)})")
        if reading not in VARIANTS[name]:
            raise SetupError(f"{reading!r} is not a reading of {name}: expected one of "
                             f"{', '.join(VARIANTS[name])}")
        chosen[name] = reading
    return readings_from(chosen)


def is_compiled() -> bool:
    """Whether the rules run compiled: a build of `baloot gen --compiled DIR` is first on
    the path (its generated modules are C extensions, its records laid out for them)."""
    return isinstance(definitions.__loader__, importlib.machinery.ExtensionFileLoader)


def interpreted_only(command: str) -> str | None:
    """Why `baloot COMMAND`, which watches the rules read the readings (`conform pins`,
    `explore --impact`), cannot run on the engine on the path: a compiled build reads them
    natively, past any object that watches. None on the interpreted engine."""
    if not is_compiled():
        return None
    return (f"baloot {command}: the reference engine on the path is a compiled build "
            f"({Path(__file__).parent}), whose rules read the readings natively, past the "
            "readings that watch them; run it on the interpreted engine (without that build "
            "on PYTHONPATH)")


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
        cached = self._legal
        if cached is None or cached[0] is not self.state or cached[1] is not self.readings:
            cached = self._legal_now()
        return list(cached[2])

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
        state, readings, cached = self.state, self.readings, self._legal
        if cached is not None and cached[0] is state and cached[1] is readings:
            if isinstance(action, str):
                texts = cached[3]
                if texts is not None and action in texts:
                    legal = cached[2][texts.index(action)]
                    self.state = _apply_legal_action(readings, state, legal)
                    return
            else:
                for record in cached[2]:
                    if record is action:
                        self.state = _apply_legal_action(readings, state, record)
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
        self.state = _apply_action(readings, state, record)

    def deal(self, deck: list[str]) -> None:
        """Deal the next round (after a round, or after everyone passed twice)."""
        self.state = _deal_next(self.readings, self.state, _deck(deck))

    # -- JSON ------------------------------------------------------------------------

    def to_json(self) -> str:
        return json.dumps({"readings": to_plain(self.readings), "state": to_plain(self.state)},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """A game saved by `to_json`. Text that is no saved game, or a state no game can reach
        (a card twice or missing, a hand of the wrong size for its phase, a seat or a total out
        of range) is a SetupError naming the field."""
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as err:  # UnicodeDecodeError is a ValueError
            raise SetupError(f"the saved game is not JSON: {err}") from None
        if not isinstance(data, dict) or set(data) != {"readings", "state"}:
            raise SetupError('the saved game: expected an object {"readings", "state"}')
        readings = choose_readings("literal", data["readings"])
        try:
            state = from_plain(definitions.Game, data["state"], "$.state")
        except PlainError as err:
            raise SetupError(f"the saved game cannot be read: {err}") from None
        problem = _impossible_state(state)
        if problem is not None:
            raise SetupError(f"the saved game cannot be played: {problem}")
        return cls(readings, state)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is no JSON number")


def _impossible_state(state: definitions.Game) -> str | None:
    """What makes a state one no game reaches, or None: every card is in one place only
    (a hand, the stock, the trick, a finished trick; the face-up card besides, before it
    is taken), the hands, the stock and the tricks have the sizes of their phase, the seats
    are seats, the totals are whole numbers from 0 to 9,999, a multiplier 1 to 4, a session
    1 or 2."""
    seats = {name: getattr(state, name) for name in ("dealer", "next_dealer_seat", "leader")}
    for name in ("hokum_bidder", "sun_caller", "doubler"):
        if getattr(state, name) is not None:
            seats[name] = getattr(state, name)
    seats.update({f"asking[{i}]": seat for i, seat in enumerate(state.asking)})
    seats.update({f"trick_winners[{i}]": seat for i, seat in enumerate(state.trick_winners)})
    seats.update({f"trick[{i}].seat": play.seat for i, play in enumerate(state.trick)})
    seats.update({f"bids[{i}].seat": call.seat for i, call in enumerate(state.bids)})
    seats.update({f"raises[{i}].seat": call.seat for i, call in enumerate(state.raises)})
    seats.update({f"declarations[{i}].seat": p.seat for i, p in enumerate(state.declarations)})
    for i, trick in enumerate(state.tricks):
        seats[f"tricks[{i}].winner"] = trick.winner
        seats.update({f"tricks[{i}].plays[{j}].seat": p.seat for j, p in enumerate(trick.plays)})
    for name, seat in seats.items():
        if type(seat) is not int or seat not in range(4):
            return f"{name} {seat!r} is not a seat"
    if state.winner is not None and state.winner not in (0, 1):
        return f"winner {state.winner!r} is not a team (0 or 1)"
    if len(state.totals) != 2 or any(type(t) is not int or not 0 <= t < 10_000
                                     for t in state.totals):
        return f"totals {state.totals!r}: expected two whole numbers from 0 to 9999"
    if state.multiplier not in range(1, 5) or state.session not in (1, 2):
        return f"multiplier {state.multiplier!r} or session {state.session!r} is out of range"
    placed = [card for hand in state.hands for card in hand] + list(state.stock)
    placed += [play.card for play in state.trick]
    placed += [play.card for trick in state.tricks for play in trick.plays]
    texts = [card_text(card) for card in placed]
    doubled = sorted(t for t, n in Counter(texts).items() if n > 1)  # Counter: no n * n
    if doubled:
        return "a card is in two places: " + ", ".join(doubled)
    if card_text(state.face_up) not in texts:
        texts.append(card_text(state.face_up))
    if len(texts) != 32:
        return f"{32 - len(texts)} card(s) are nowhere (a deck has 32)"
    return _sizes_problem(state)


def _sizes_problem(state: definitions.Game) -> str | None:
    """Whether the hands, the stock, the trick and the finished tricks have the sizes of the
    phase: 5 cards a hand and 11 in the stock until the contract (DEAL), 8 a hand while
    raising, one card fewer for each trick played (PLAY.4), none after the round."""
    phase = state.phase.value
    sizes = [len(hand) for hand in state.hands]
    played = len(state.tricks)
    if len(sizes) != 4:
        return f"{len(sizes)} hands: expected four"
    if len(state.trick_winners) != played or any(len(t.plays) != 4 for t in state.tricks):
        return "expected a winner for each finished trick, and four plays in each"
    in_trick = {play.seat for play in state.trick}
    if phase in ("deal", "bidding"):
        wanted, stock, tricks, trick = [5] * 4, 11, 0, 0
    elif phase == "raising":
        wanted, stock, tricks, trick = [8] * 4, 0, 0, 0
    elif phase == "playing":
        if played > 7 or len(state.trick) > 3 or len(in_trick) != len(state.trick):
            return (f"{played} finished tricks and {len(state.trick)} cards in the trick "
                    "while playing")
        wanted = [8 - played - (seat in in_trick) for seat in range(4)]
        stock, tricks, trick = 0, played, len(state.trick)
    else:  # round_over, game_over
        wanted, stock, tricks, trick = [0] * 4, 0, 8, 0
    if sizes != wanted:
        return f"hands of {sizes} cards in the {phase} phase: expected {wanted}"
    if (len(state.stock), played, len(state.trick)) != (stock, tricks, trick):
        return (f"{len(state.stock)} cards in the stock, {played} finished tricks and "
                f"{len(state.trick)} cards in the trick in the {phase} phase: expected "
                f"{stock}, {tricks} and {trick}")
    if (state.contract is None) != (phase in ("deal", "bidding")):
        return f"the contract {'is missing' if state.contract is None else 'is set'} " \
               f"in the {phase} phase"
    return _bidding_problem(state, phase)


# The bidding stages of each phase, and which bids each stage has seen (BID).
_STAGES = {"bidding": ("open_bidding", "answering_hokum", "hokum_choice", "sun_overcalls"),
           "deal": ("dealt_again", "open_bidding")}


def _bidding_problem(state: definitions.Game, phase: str) -> str | None:
    """Whether the bidding stage, its bidders and the queue of seats to answer fit the phase."""
    stage = state.stage.value
    if stage not in _STAGES.get(phase, ("contract_made",)):
        return f"bidding stage {stage} in the {phase} phase"
    hokum, sun = state.hokum_bidder is not None, state.sun_caller is not None
    if (stage == "open_bidding" and (hokum or sun)) or (
            stage in ("answering_hokum", "hokum_choice") and not hokum) or (
            stage == "sun_overcalls" and not sun) or (
            stage == "contract_made" and not (hokum or sun)):
        return f"bidding stage {stage} with hokum_bidder {state.hokum_bidder!r} and " \
               f"sun_caller {state.sun_caller!r}"
    if bool(state.asking) != (phase in ("bidding", "raising")):
        return f"asking {state.asking!r} in the {phase} phase"
    return None


def new_game(profile: str = "literal", overrides: dict[str, str] | None = None,
             dealer: int = 0, deck: list[str] | None = None, seed: int | None = None,
             totals: list[int] | None = None, *, readings: Readings | None = None) -> Game:
    """A new game, its first round dealt from `deck` (or from the deck `seed` fixes),
    from running totals of 0 each unless `totals` gives others. `readings`, when given,
    are played instead of the profile's with the overrides (a stand-in that notes which
    readings the rules consult, say)."""
    if readings is None:
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
