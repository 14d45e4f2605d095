"""The reference engine's games as the conformance protocol shows them: its
observation and round result converted to the protocol's fields (the reference
adapter serves them), and the comparison of two games played side by side under
two readings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...reference_impl import definitions
from ...reference_impl.notation import action_text, card_text
from ...reference_impl.plain import from_plain
from ...reference_impl.runtime import Game
from . import fields

# ---------------------------------------------------------------------------
# The translation layer: the engine's observation (the spec's `Game` record as
# JSON values) and round result (`RoundResult`) into the protocol's fields.
#
#   engine (plain JSON of the spec's records)      protocol (PROTOCOL.md)
#   card  {"rank": "10", "suit": "S"}              "10S"          (card_text)
#   call  {"seat": 0, "action": Action record}     {"seat": 0, "action": "hokum"}
#                                                                  (action_text)
#   project {"seat", "kind", "cards": [card...]}   {"seat", "kind", "cards": ["9H", ...]}
#   play  {"seat", "card": card}                   {"seat", "card": "9H"}
#   contract {kind, trump, bidder, ashkal,         {kind, trump, bidder, ashkal}
#             caller, taker}
#
# Everything else (seats, teams, per-team pairs, phases, booleans) is already
# in the protocol's terms and is copied as is. Engine bookkeeping the protocol
# does not name (stock, session, asking, ...) is left out. Which fields there are
# is protocol/fields.py's (the schemas'): a new field the engine keeps under the
# protocol's name, in the protocol's terms, needs no line here.
# ---------------------------------------------------------------------------

Plain = Any  # a JSON value as the engine's `plain` module writes it


def card(plain: Plain) -> str:
    """{"rank": "10", "suit": "S"} -> "10S", through the engine's own notation."""
    text: str = card_text(
        definitions.Card(suit=definitions.Suit(plain["suit"]), rank=definitions.Rank(plain["rank"]))
    )
    return text


def cards(plain: Plain) -> list[str]:
    return [card(c) for c in plain]


def action(plain: Plain) -> str:
    """An `Action` record as JSON values -> its text ("declare sira 9H 8H 7H")."""
    text: str = action_text(from_plain(definitions.Action, plain))
    return text


def call(plain: Plain) -> dict[str, Any]:
    return {"seat": plain["seat"], "action": action(plain["action"])}


def project(plain: Plain) -> dict[str, Any]:
    return {"seat": plain["seat"], "kind": plain["kind"], "cards": cards(plain["cards"])}


def contract(plain: Plain) -> dict[str, Any] | None:
    if plain is None:
        return None
    # `bidder` is the seat scored as the bidder (under A14 partner_is_bidder the
    # partner); the engine's `caller` and `taker` are its own bookkeeping.
    return {k: plain[k] for k in fields.contract_fields()}


def _face_up(plain: Plain) -> str | None:
    return None if plain is None else card(plain)


def _calls(plain: Plain) -> list[dict[str, Any]]:
    return [call(c) for c in plain]


def _projects(plain: Plain) -> list[dict[str, Any]]:
    return [project(p) for p in plain]


def _trick(plain: Plain) -> list[dict[str, Any]]:
    return [{"seat": p["seat"], "card": card(p["card"])} for p in plain]


# The fields whose engine values are not in the protocol's terms yet, and their translation;
# every other field of the state and the result (protocol/fields.py) is copied as the
# engine has it under the same name.
STATE_TRANSLATIONS: dict[str, Callable[[Plain], Any]] = {
    "face_up": _face_up,
    "hands": lambda hands: [cards(hand) for hand in hands],
    "bids": _calls,
    "contract": contract,
    "raises": _calls,
    "declarations": _projects,
    "trick": _trick,
    "trick_winners": list,
    "totals": list,
}
RESULT_TRANSLATIONS: dict[str, Callable[[Plain], Any]] = {
    "contract": contract,
    "projects": lambda teams: [_projects(team) for team in teams],
}
# The state's optional fields and their value where an observation leaves them out.
_STATE_DEFAULTS: dict[str, Plain] = {"face_up": None, "bids": [], "locked": False,
                                     "declarations": []}


def state_fields(observation: dict[str, Plain]) -> dict[str, Any]:
    """The protocol's `state` object from the engine's observation: each of its fields, in
    the schema's order; an optional one the observation does not hold is left out."""
    state = fields.protocol_fields().state
    out: dict[str, Any] = {}
    for name in state.names:
        if name in observation:
            value = observation[name]
        elif name in _STATE_DEFAULTS:
            value = _STATE_DEFAULTS[name]
        elif name in state.optional:
            continue
        else:
            raise KeyError(name)
        translate = STATE_TRANSLATIONS.get(name)
        out[name] = value if translate is None else translate(value)
    return out


def result_fields(result: dict[str, Plain] | None) -> dict[str, Any] | None:
    """The protocol's `result` object from the engine's `RoundResult` (None before any):
    its fields in the schema's order, `projects` last (as the golden playthroughs have it)."""
    if result is None:
        return None
    names = fields.result_fields()
    out: dict[str, Any] = {}
    for name in (*(k for k in names if k != "projects"), "projects"):
        translate = RESULT_TRANSLATIONS.get(name)
        out[name] = result[name] if translate is None else translate(result[name])
    return out


def visible_fields() -> tuple[str, ...]:
    """The state fields every engine must send (PROTOCOL.md): a witness seen only in an
    optional field (`locked`, `declarations`...) would check nothing on an engine that
    leaves it out."""
    return fields.state_fields()[0]


def visible(g: Game) -> dict[str, Any]:
    """The required fields of the protocol's `state` reply for the game."""
    shown: dict[str, Any] = state_fields(g.observation())
    return {k: shown.get(k) for k in visible_fields()}


def result(g: Game) -> dict[str, Any] | None:
    """The protocol's round result of the game's last round (None before any)."""
    r: dict[str, Any] | None = result_fields(g.round_result())
    return None if r is None else {k: r[k] for k in fields.result_fields() if k in r}


def legal(g: Game) -> dict[str, Any]:
    """The sorted legal actions and the player to act."""
    return {"actions": sorted(g.legal_actions()), "player": g.current_player}


def compare(ga: Game, gb: Game) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
    """How two games differ: `legal` (actions or player to act), `round` (the round
    result), `state` (the visible fields that differ), or None."""
    la, lb = legal(ga), legal(gb)
    if la != lb:
        return "legal", la, lb
    ra, rb = result(ga), result(gb)
    if ra != rb and ra is not None and rb is not None:
        return "round", ra, rb
    va, vb = visible(ga), visible(gb)
    if va != vb:
        keys = [k for k in va if va[k] != vb[k]]
        return "state", {k: va[k] for k in keys}, {k: vb[k] for k in keys}
    return None


def outcome_of(g: Game, kind: str, like: dict[str, Any]) -> dict[str, Any] | None:
    """The part of the game that a witness of `kind` compares, with the keys of `like`."""
    if kind == "redeal":
        shown = visible(g)
        return {k: shown[k] for k in like} if like else shown
    if kind == "legal":
        return legal(g)
    if kind == "state":
        shown = visible(g)
        return {k: shown[k] for k in like}
    return result(g)
