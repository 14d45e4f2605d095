"""The generated engine's games as the conformance protocol shows them: its
state and round result converted to protocol fields by the reference adapter,
and the comparison of two games played side by side under two readings."""

from __future__ import annotations

from typing import Any

from baloot.conformance.adapters.reference_adapter import result_fields, state_fields
from baloot.conformance.harness import schemas
from baloot.reference_impl.runtime import Game

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
