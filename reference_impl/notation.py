"""The text notation of cards and actions, shared with the conformance protocol.

A card is its rank then its suit, each by its notation in the spec
(`10S`, `JD`, `7H`). An action is its kind, then each field that is set, in
the record's field order: a card or a list of cards as cards, an enum member
by its notation (`play 10S`, `hokum H`, `declare sira 9H 8H 7H`, `double closed`).
Hand-written and generic over the `Action` record; no Baloot rule lives here.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, cast

from . import definitions
from .definitions import Action, Card, Rank, Suit
from .plain import _hints

_SUITS = {s.value: s for s in Suit}
_RANKS = {r.value: r for r in Rank}


class NotationError(ValueError):
    """Text that is not a card or an action."""


def card_text(card: Card) -> str:
    return f"{card.rank.value}{card.suit.value}"


_CARDS = {card_text(Card(suit=s, rank=r)): Card(suit=s, rank=r) for s in Suit for r in Rank}


def parse_card(text: str) -> Card:
    card = _CARDS.get(text) if isinstance(text, str) else None
    if card is None:
        raise NotationError(
            f"{text!r} is not a card: expected a rank ({' '.join(_RANKS)}) then a suit "
            f"({' '.join(_SUITS)}), as in 10S"
        )
    return card


def parse_deck(cards: list[str]) -> list[Card]:
    found = [_CARDS.get(c) if type(c) is str else None for c in cards]  # each looked up once
    # some text is no card (or a str of a subclass): parse_card judges each
    deck = [parse_card(c) for c in cards] if None in found else cast("list[Card]", found)
    if len(deck) != len(_SUITS) * len(_RANKS) or len(set(deck)) != len(deck):
        raise NotationError(f"a deck is each of the {len(_SUITS) * len(_RANKS)} cards once; "
                            f"got {len(deck)} cards, {len(set(deck))} different")
    return deck


def _value_text(value: Any) -> list[str]:
    if isinstance(value, Card):
        return [card_text(value)]
    if isinstance(value, enum.Enum):
        return [str(value.value)]
    if isinstance(value, list):
        return [t for item in value for t in _value_text(item)]
    if isinstance(value, bool):
        return [] if not value else ["yes"]
    return [str(value)]


_ACTION_FIELDS = tuple(field.name for field in dataclasses.fields(Action))


def action_text(action: Action) -> str:
    known = _TEXTS.get(id(action))
    if known is not None and known[0] is action:
        return known[1]
    text = _action_text(action)
    if len(_TEXTS) < _CACHE_LIMIT:
        _TEXTS[id(action)] = (action, text)  # the record is kept, so its id stays its own
    return text


# Texts of records already written, by the record's identity (speed: the engine hands out
# the same records for the same actions all game). Records are never changed.
_TEXTS: dict[int, tuple[Action, str]] = {}
_CACHE_LIMIT = 100_000


def _action_text(action: Action) -> str:
    words: list[str] = []
    for name in _ACTION_FIELDS:
        value = getattr(action, name)
        if value is None or value == []:
            continue
        words.extend(_value_text(value))
    return " ".join(words)


def parse_action(text: str) -> Action:
    """Read an action from its text, field by field in the record's order.

    The first word is the kind; each later word fills the next field that
    can take it (a card, a list of cards, or an enum member by notation).
    """
    record = _PARSED.get(text)
    if record is None:
        record = _parse_action(text)
        if len(_PARSED) < _CACHE_LIMIT:
            _PARSED[text] = record
    return record


# Texts already read, and their records (speed: the same few texts come back all game;
# records are never changed, so one record serves every reading of a text).
_PARSED: dict[str, Action] = {}


def _parse_action(text: str) -> Action:
    words = text.split()
    hints = _hints(Action)
    values: dict[str, Any] = {name: None for name in hints}
    for name, hint in hints.items():
        if _is_list(hint):
            values[name] = []
    pending = list(words)
    for name, hint in hints.items():
        if not pending:
            break
        inner = _inner(hint)
        if _is_list(hint):
            taken = []
            while pending and _fits(_list_item(hint), pending[0]):
                taken.append(_read(_list_item(hint), pending.pop(0)))
            values[name] = taken
        elif _fits(inner, pending[0]):
            values[name] = _read(inner, pending.pop(0))
    if pending or any(values[n] is None and not _optional(h) for n, h in hints.items()):
        raise NotationError(f"{text!r} is not an action: expected a kind "
                            f"({' '.join(k.value for k in definitions.ActionKind)}) "
                            "followed by its cards or choices, as in 'play 10S'")
    return Action(**values)


def _optional(hint: Any) -> bool:
    return type(None) in getattr(hint, "__args__", ())


def _inner(hint: Any) -> Any:
    args = [a for a in getattr(hint, "__args__", ()) if a is not type(None)]
    return args[0] if _optional(hint) else hint


def _is_list(hint: Any) -> bool:
    return getattr(_inner(hint), "__origin__", None) is list


def _list_item(hint: Any) -> Any:
    return _inner(hint).__args__[0]


def _fits(hint: Any, word: str) -> bool:
    try:
        _read(hint, word)
    except (NotationError, ValueError):
        return False
    return True


def _read(hint: Any, word: str) -> Any:
    if hint is Card:
        return parse_card(word)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(word)
    if hint is int:
        return int(word)
    if hint is bool:
        if word != "yes":
            raise NotationError(word)
        return True
    raise NotationError(f"cannot read {word!r}")
