"""The reference engine's games as the conformance protocol shows them: its
observation and round result converted to the protocol's fields (the reference
adapter serves them), and the comparison of two games played side by side under
two readings."""

from __future__ import annotations

from typing import Any

from ...reference_impl import definitions
from ...reference_impl.notation import action_text, card_text
from ...reference_impl.plain import from_plain
from ...reference_impl.runtime import Game
from . import schemas

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
# does not name (stock, session, asking, ...) is left out.
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
    return {k: plain[k] for k in ("kind", "trump", "bidder", "ashkal")}


def state_fields(observation: dict[str, Plain]) -> dict[str, Any]:
    """The protocol's `state` object from the engine's observation."""
    o = observation
    face_up = o.get("face_up")
    return {
        "phase": o["phase"],
        "dealer": o["dealer"],
        "current_player": o["current_player"],
        "face_up": card(face_up) if face_up is not None else None,
        "hands": [cards(hand) for hand in o["hands"]],
        "bids": [call(c) for c in o.get("bids", [])],
        "contract": contract(o["contract"]),
        "raises": [call(c) for c in o["raises"]],
        "multiplier": o["multiplier"],
        "locked": o.get("locked", False),
        "declarations": [project(p) for p in o.get("declarations", [])],
        "trick": [{"seat": p["seat"], "card": card(p["card"])} for p in o["trick"]],
        "trick_winners": list(o["trick_winners"]),
        "totals": list(o["totals"]),
    }


def result_fields(result: dict[str, Plain] | None) -> dict[str, Any] | None:
    """The protocol's `result` object from the engine's `RoundResult` (None before any)."""
    if result is None:
        return None
    out: dict[str, Any] = {"contract": contract(result["contract"])}
    # every other field is a plain number, pair or flag, in the protocol's terms already
    out.update({k: result[k] for k in schemas.result_fields() if k not in out and k != "projects"})
    out["projects"] = [[project(p) for p in team] for team in result["projects"]]
    return out



# The state fields every engine must send (PROTOCOL.md): a witness seen only in an optional
# field (`locked`, `declarations`...) would check nothing on an engine that leaves it out.
VISIBLE: tuple[str, ...] = schemas.state_fields()[0]
RESULT_KEYS = ("contract", "multiplier", "card_bunts", "last_trick_bunts", "projects", "points",
               "success", "kaboot", "added", "totals", "game_over", "winner")


def visible(g: Game) -> dict[str, Any]:
    """The required fields of the protocol's `state` reply for the game."""
    shown: dict[str, Any] = state_fields(g.observation())
    return {k: shown.get(k) for k in VISIBLE}


def result(g: Game) -> dict[str, Any] | None:
    """The protocol's round result of the game's last round (None before any)."""
    r: dict[str, Any] | None = result_fields(g.round_result())
    return None if r is None else {k: r.get(k) for k in RESULT_KEYS if k in r}


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
        keys = [k for k in VISIBLE if va[k] != vb[k]]
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
