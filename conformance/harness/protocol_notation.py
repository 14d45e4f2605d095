"""The text notation of the protocol: cards, seats, teams and actions.

Cards are a rank then a suit letter: ranks 7 8 9 10 J Q K A, suits S H D C
("10S", "JD"). Seats are 0-3 counterclockwise, so the next player after seat s
is (s + 1) % 4; team 0 is seats 0 and 2, team 1 is seats 1 and 3. Actions are
strings; `parse_action` tells whether a string is a well-formed action (it
says nothing about whether the action is legal: that is the engine's job).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

RANKS: tuple[str, ...] = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
ALL_CARDS: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
SEATS: tuple[int, ...] = (0, 1, 2, 3)
PROJECT_KINDS: tuple[str, ...] = ("sira", "fifty", "hundred", "four_hundred")
RAISE_CALLS: tuple[str, ...] = ("double", "triple", "four", "gahwa")
# The raises that may be called closed or open (A10: the double under doubler_chooses and
# doubler_chooses_bidder_opens, the double, the triple and the four under
# each_raiser_chooses); gahwa never is.
LOCKABLE_RAISES: tuple[str, ...] = ("double", "triple", "four")
LOCKED_FORMS: tuple[str, ...] = tuple(
    f"{r} {f}" for r in LOCKABLE_RAISES for f in ("closed", "open")
)
PHASES: tuple[str, ...] = ("deal", "bidding", "raising", "playing", "round_over", "game_over")

CARD_PATTERN = r"(?:7|8|9|10|J|Q|K|A)[SHDC]"
_CARD_RE = re.compile(rf"^{CARD_PATTERN}$")


def is_card(text: str) -> bool:
    """True when `text` is one of the 32 card strings."""
    return bool(_CARD_RE.match(text))


def team_of(seat: int) -> int:
    """The team of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


def next_seat(seat: int) -> int:
    """The next player counterclockwise."""
    return (seat + 1) % 4


@dataclass(frozen=True)
class Action:
    """A parsed action: its kind and its arguments."""

    kind: str  # bid, stay, raise, declare, play
    word: str  # the first word: pass, hokum, sun, ashkal, double, ..., declare, play
    args: tuple[str, ...]


class NotationError(ValueError):
    """A string that is not a well-formed card or action."""


_BIDS = ("pass", "hokum", "sun", "ashkal", "kawesh")


def parse_action(text: str) -> Action:
    """Parse an action string, or raise NotationError saying what was expected."""
    words = text.split(" ")
    if not text or any(not w for w in words):
        raise NotationError(f"action {text!r}: expected words separated by single spaces")
    head, args = words[0], tuple(words[1:])
    if head in _BIDS and not args:
        return Action("bid", head, args)
    if head == "hokum" and len(args) == 1:
        if args[0] not in SUITS:
            raise NotationError(f"action {text!r}: expected a suit letter S, H, D or C")
        return Action("bid", head, args)
    if head in RAISE_CALLS:
        if not args:
            return Action("raise", head, args)
        if head in LOCKABLE_RAISES and args in (("closed",), ("open",)):
            return Action("raise", head, args)
        raise NotationError(
            f"action {text!r}: expected no word after it, or after a double, a triple "
            "or a four 'closed' or 'open' (e.g. 'double closed', 'triple open')"
        )
    if head == "play":
        if len(args) != 1 or not is_card(args[0]):
            raise NotationError(f"action {text!r}: expected 'play CARD', e.g. 'play 10S'")
        return Action("play", head, args)
    if head == "declare":
        if not args or args[0] not in PROJECT_KINDS:
            raise NotationError(
                f"action {text!r}: expected 'declare KIND CARD...', KIND one of "
                + ", ".join(PROJECT_KINDS)
            )
        cards = args[1:]
        bad = [c for c in cards if not is_card(c)]
        if not cards or bad:
            raise NotationError(f"action {text!r}: expected card strings after the kind")
        if len(set(cards)) != len(cards):
            raise NotationError(f"action {text!r}: a card is named twice")
        return Action("declare", head, args)
    raise NotationError(
        f"action {text!r}: expected pass, hokum [SUIT], sun, ashkal, kawesh, double [closed|open], "
        "triple [closed|open], four [closed|open], gahwa, 'declare KIND CARDS' or 'play CARD'"
    )


def is_action(text: str) -> bool:
    try:
        parse_action(text)
    except NotationError:
        return False
    return True


def deck_problems(deck: object) -> list[str]:
    """What is wrong with a pinned deck (empty when it is a permutation of the 32 cards)."""
    if not isinstance(deck, list):
        return ["expected a list of 32 card strings"]
    problems: list[str] = []
    bad = [c for c in deck if not (isinstance(c, str) and is_card(c))]
    if bad:
        problems.append("not card strings: " + ", ".join(repr(c) for c in bad))
    cards = [c for c in deck if isinstance(c, str)]
    dupes = sorted(card for card, count in Counter(cards).items() if count > 1)
    if dupes:
        problems.append("cards named twice: " + ", ".join(dupes))
    missing = [c for c in ALL_CARDS if c not in cards]
    if missing:
        problems.append("missing cards: " + ", ".join(missing))
    if len(deck) != 32 and not problems:
        problems.append(f"expected 32 cards, got {len(deck)}")
    return problems


def action_key(action: str) -> str:
    """An action with a declaration's cards sorted (their order is the engine's)."""
    if not action.startswith("declare "):  # (speed: most actions are no declaration)
        return action
    words = action.split(" ")
    if len(words) > 2:
        return " ".join([*words[:2], *sorted(words[2:])])
    return action


def illegal_candidates(phase: str, state: dict[str, Any], legal: list[str]) -> list[str]:
    """Actions of the phase's vocabulary that are not in `legal` now: the calls of the
    bidding or the raises, or, in the play, each card of the hand of the player to act,
    three cards not in it, a declaration of its first three cards, and a pass."""
    if phase == "bidding":
        vocabulary = ["pass", "hokum", "sun", "ashkal", "kawesh", *(f"hokum {s}" for s in SUITS),
                      "double"]
    elif phase == "raising":
        vocabulary = ["pass", *RAISE_CALLS, *LOCKED_FORMS, "sun"]
    elif phase == "playing":
        seat = state.get("current_player")
        hands = state.get("hands") or []
        hand = hands[seat] if isinstance(seat, int) and seat < len(hands) else []
        others = [c for c in ALL_CARDS if c not in hand][:3]
        vocabulary = [f"play {c}" for c in [*hand, *others]]
        if len(hand) >= 3:
            vocabulary.append(f"declare {PROJECT_KINDS[0]} " + " ".join(hand[:3]))
        vocabulary.append("pass")
    else:
        return []
    allowed = {action_key(a) for a in legal}
    return [a for a in vocabulary if action_key(a) not in allowed]
