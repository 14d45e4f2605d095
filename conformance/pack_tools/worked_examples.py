"""The worked examples of the rules document, played by the reference engine and stored.

One round per contract kind is dealt from a fixed deck and played by the
generated engine (`baloot.reference_impl`) with a fixed policy: the first
player who may bid the contract does, every other call is a pass, nobody
raises, each project offered in the first trick is declared, and every card
played is the first the rules allow. The seeds are tried in order until one
gives a finished round of that contract. Nothing depends on time or on the
machine, so the file is the same, byte for byte, on every run.

`baloot conform examples` writes docs/worked-examples.json; the rules
document (`baloot spec render`) reads it and never runs the engine. The file:

    {"format": 1, "command": "baloot conform examples",
     "value_rule": "card_value",          # the rule that priced each trick's cards
     "contracts": ["sun", "hokum"],       # the contracts played, in the engine's order
     "examples": [{"contract": "sun", "profile": "literal", "dealer": 0, "seed": 3,
                   "deck": [32 cards], "face_up": "QS",
                   "calls": [[seat, "sun"], ...],                # bids, raises, projects
                   "tricks": [{"plays": [[seat, "9H"], ...], "winner": 1, "bunts": 20}, ...],
                   "result": {... the engine's round result, field by field ...}}, ...]}

A contract with no finished round among the seeds has no entry in "examples".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ...reference_impl import definitions, new_game, shuffled_deck
from ...reference_impl.cards_rules import card_value
from ...reference_impl.notation import card_text
from ...reference_impl.plain import Plain

FORMAT = 1
COMMAND = "baloot conform examples"
PROFILE = "literal"
DEALER = 0
MAX_ACTIONS = 400
SEEDS = range(0, 40)


def default_path() -> Path:
    """docs/worked-examples.json of the project (this module is conformance/pack_tools/)."""
    return Path(__file__).resolve().parents[2] / "docs" / "worked-examples.json"


def _choice(phase: str, actions: list[str], contract: str, bid: bool) -> str:
    """The policy's action among the legal ones (see the module's docstring)."""
    if phase == "bidding":
        if not bid:
            mine = next((x for x in actions if x.split()[0] == contract), None)
            if mine is not None:
                return mine
        return "pass" if "pass" in actions else actions[0]
    if phase == "raising":
        return "pass" if "pass" in actions else actions[0]
    return next((x for x in actions if x.startswith("declare")), None) or \
        next((x for x in actions if x.startswith("play")), actions[0])


def play_example(contract: str) -> dict[str, Plain] | None:
    """A round won by a `contract` bid, played by the engine with the fixed policy, or None
    when no seed tried gives one."""
    for seed in SEEDS:
        deck = shuffled_deck(seed)
        game = new_game(PROFILE, dealer=DEALER, deck=deck)
        assert game.state.face_up is not None, "a fresh deal shows its face-up card"
        face_up = card_text(game.state.face_up)
        calls: list[Plain] = []
        bid = False
        for _ in range(MAX_ACTIONS):
            seat = game.current_player
            if game.round_result() is not None or seat is None:
                break
            phase = game.phase
            choice = _choice(phase, game.legal_actions(), contract, bid)
            bid = bid or (phase == "bidding" and choice.split()[0] == contract)
            if phase in ("bidding", "raising") or choice.startswith("declare"):
                calls.append([seat, choice])
            game.apply(choice)
        result = game.round_result()
        if result is None or not bid:
            continue
        played = result.get("contract")
        if isinstance(played, dict) and played.get("kind") not in (None, contract):
            continue
        trump = game.state.contract.trump if game.state.contract is not None else None
        tricks: list[Plain] = [
            {"plays": [[p.seat, card_text(p.card)] for p in trick.plays],
             "winner": trick.winner,
             "bunts": sum(card_value(p.card, trump) for p in trick.plays)}
            for trick in game.state.tricks]
        return {"contract": contract, "profile": PROFILE, "dealer": DEALER, "seed": seed,
                "deck": list(deck), "face_up": face_up, "calls": calls, "tricks": tricks,
                "result": result}
    return None


def contracts() -> list[str]:
    """The contract kinds, in the order the engine (and the spec) declares them."""
    return [mode.value for mode in definitions.Mode]


def record() -> dict[str, Plain]:
    """The whole file's content: one example per contract that has one."""
    kinds = contracts()
    examples = [x for x in (play_example(k) for k in kinds) if x is not None]
    return {"format": FORMAT, "command": COMMAND, "value_rule": card_value.__name__,
            "contracts": list(kinds), "examples": list(examples)}


def file_text(content: dict[str, Plain]) -> str:
    """The file as written: UTF-8 JSON, indent 1, a trailing newline."""
    return json.dumps(content, indent=1, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class Staleness:
    """How a stored file differs from a fresh recording."""

    path: Path
    line: int  # 1-based; 0 when the file is missing
    expected: str
    found: str

    def render(self) -> str:
        if self.line == 0:
            return f"{self.path}: missing"
        return (f"{self.path}:{self.line}: differs from a fresh recording\n"
                f"  expected: {self.expected}\n  found:    {self.found}")


def staleness(path: Path, fresh: str) -> Staleness | None:
    """None when the file at `path` is `fresh`, byte for byte; else its first difference."""
    if not path.is_file():
        return Staleness(path, 0, "", "")
    found = path.read_text(encoding="utf-8")
    if found == fresh:
        return None
    want, have = fresh.splitlines(keepends=True), found.splitlines(keepends=True)
    for number, (a, b) in enumerate(zip(want, have, strict=False), start=1):
        if a != b:
            return Staleness(path, number, repr(a), repr(b))
    shorter = min(len(want), len(have))
    return Staleness(path, shorter + 1,
                     want[shorter] if shorter < len(want) else "(end of file)",
                     have[shorter] if shorter < len(have) else "(end of file)")
