"""qahwa: a Baloot engine behind the JSON-lines protocol of conformance/PROTOCOL.md.

The game is an event log: `start`, each accepted action and each `deal` is an
event, and every reply reads the snapshot the log folds to (qahwa_fold.py);
the rules' numbers and readings are tables (qahwa_tables.py).

It plays the federation profile with seven readings moved off it (OVERRIDES, two of
them A12 and A4, where the pack moved the profile from under it),
can be asked for the other readings listed in READINGS, and leaves out ashkal,
the gahwa (a four ends the raising) and pass-only turns (a player who could
only pass is not asked).

    python qahwa.py [--bug NAME]...

`--bug NAME` plants a rule break (BUGS lists them), for checking that the
conformance suite catches it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

import qahwa_bugs
from qahwa_fold import Illegal, choices, evolve, locked, opening
from qahwa_state import Table
from qahwa_tables import DECK, FEDERATION, PROFILES

NAME, VERSION = "qahwa", "1.0"
PROFILE = "federation"
OVERRIDES = {
    "locked_round": "doubler_chooses",
    "kaboot": "sun_44_hokum_25",
    "redeal_dealer": "same_dealer",
    "long_sequence": "hundred_and_rest",
    "sun_raises": "gate_strict_no_gahwa",
    # written against pack 0.7, whose federation profile read A12 so; pack 0.8's caps the
    # projects at x2, and the engine says what it plays
    "multipliers": "points_and_projects_but_baloot",
    # written when the federation profile read A4 as more_than_half_bunts (its tables'
    # FEDERATION); the profile now reads the app's ties (more_points_app_ties), which the
    # engine does not implement, and the engine says what it plays
    "bidder_success": "more_than_half_bunts",
    # written before A27: a sweep scores the kaboot whoever bid; the federation profile
    # now gives the reverse kaboot its 88, and the engine says what it plays
    "reverse_kaboot": "as_any_kaboot",
    # written before A28: no kawesh call; the federation profile now has it
    "kawesh": "no_kawesh",
}
# every reading a `start` may ask for, variant by variant (the played one among them)
READINGS = {
    "sun_overcall": ["earlier_seat_priority", "last_caller_wins", "sun_ends_bidding"],
    "hokum_answer": ["all_others", "not_yet_passed"],
    "bidder_success": ["more_than_half_bunts", "half_bunts_or_more", "margin_points",
                       "more_than_half_points", "half_points_or_more"],
    "rounding": ["bidder_takes_rest", "each_team", "adjusted_to_total"],
    "scoring_projects": ["best_team_only", "all_declared"],
    "projects_on_failure": ["maximum_and_all_projects", "maximum_only",
                            "maximum_and_own_projects"],
    "kaboot": ["sun_44_hokum_25", "flat_44", "flat_44_with_projects_and_raises",
               "sun_44_hokum_25_nothing_added", "sun_44_hokum_25_projects_unraised"],
    "locked_round": ["doubler_chooses", "double_and_four", "any_raise"],
    "sun_raises": ["gate_strict_no_gahwa", "gate_strict_all", "gate_inclusive_all",
                   "gate_strict_double_only"],
    "multipliers": ["points_and_projects_but_baloot", "points_only", "points_and_projects"],
    "void_in_hokum": ["must_trump_unless_partner_wins", "must_trump", "any_card"],
    "first_leader": ["dealer_right", "bid_winner"],
    "long_sequence": ["hundred_and_rest", "hundred_only"],
    "baloot_overlap": ["hundred_cancels", "exclusive", "overlap_allowed"],
    "both_reach_target": ["higher_total_wins", "bidder_team_wins"],
    "redeal_dealer": ["same_dealer", "next_dealer"],
    "low_four_of_a_kind": ["no_project", "nines_hundred"],
    "trump_lead": ["must_overtrump_opponent", "must_overtrump", "any_trump"],
    "raised_share": ["winner_takes_all", "each_keeps_share"],
}
PLAYED = {**FEDERATION, **OVERRIDES}
CAPABILITIES = ["raises", "raise_triple", "raise_four", "second_session", "redeal",
                "projects", "declarations", "game_score"]
BUGS = qahwa_bugs.BUGS


class RequestError(ValueError):
    """A request the engine cannot serve; its text goes back as the error."""


def implemented(variant: str) -> list[str]:
    return READINGS.get(variant, [PLAYED[variant]])


def readings_of(setup: Mapping[str, Any]) -> dict[str, str]:
    profile = setup.get("profile", PROFILE)
    if profile not in PROFILES:
        raise RequestError(f"setup.profile: unknown profile {profile!r}")
    overrides = setup.get("overrides") or {}
    readings = {**PROFILES[profile], **overrides}
    for variant, reading in readings.items():
        if variant not in PLAYED:
            raise RequestError(f"setup.overrides: unknown variant {variant!r}")
        if reading not in implemented(variant):
            raise RequestError(f"setup: {variant} = {reading} is not implemented "
                               f"(only {', '.join(implemented(variant))})")
    return readings


def deck_of(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != 32 or set(value) != DECK:
        raise RequestError("deck: expected the 32 cards, each once")
    return tuple(value)


Event = tuple[str, Any]  # ("start", setup), ("act", action) or ("deal", deck)


def fold_event(t: Table | None, event: Event) -> Table:
    """The snapshot one more event of the log makes."""
    kind, data = event
    if kind == "start":
        totals = data.get("totals", [0, 0])
        return opening(readings_of(data), data["dealer"], tuple(data["deck"]),
                       (int(totals[0]), int(totals[1])))
    assert t is not None
    if kind == "act":
        return evolve(t, data)
    if t.phase == "deal" and t.readings["redeal_dealer"] == "same_dealer":  # BID.9, A20
        dealer = t.dealer
    else:
        dealer = (t.dealer + 1) % 4
    return opening(t.readings, dealer, tuple(data), t.totals, t.result)


class Engine:
    """The event log of the game in progress; every reply reads the snapshot it folds to."""

    def __init__(self) -> None:
        self.log: list[Event] = []
        self.folded: tuple[int, Table | None] = (0, None)

    def table(self) -> Table:
        done, view = self.folded
        for event in self.log[done:]:
            view = fold_event(view, event)
        self.folded = (len(self.log), view)
        if view is None:
            raise RequestError("no game: send start first")
        return view

    # --- the requests ---

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"protocol": 1, "name": NAME, "version": VERSION, "profile": PROFILE,
                "overrides": OVERRIDES, "readings": READINGS, "capabilities": CAPABILITIES}

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        setup = request.get("setup")
        if not isinstance(setup, dict):
            raise RequestError("setup: expected an object")
        readings_of(setup)
        if setup.get("dealer") not in (0, 1, 2, 3):
            raise RequestError("setup.dealer: expected a seat 0-3")
        deck_of(setup.get("deck"))
        self.log, self.folded = [("start", setup)], (0, None)
        self.table()
        return {}

    def deal(self, request: dict[str, Any]) -> dict[str, Any]:
        phase = self.table().phase
        if phase not in ("round_over", "deal"):
            raise RequestError(f"deal: not in phase {phase}")
        self.log.append(("deal", deck_of(request.get("deck"))))
        return {}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        t = self.table()
        return {"player": t.to_act, "actions": list(choices(t))}

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        action = request.get("action")
        if not isinstance(action, str):
            raise RequestError("action: expected a string")
        before = self.table()
        try:
            after = evolve(before, action)
        except Illegal as refusal:
            return {"ok": False, "refused": {"reason": str(refusal),
                                              "clauses": list(refusal.clauses)}}
        self.log.append(("act", action))
        self.folded = (len(self.log), after)
        return {}

    def state(self, request: dict[str, Any]) -> dict[str, Any]:
        t = self.table()
        return {"state": {
            "phase": t.phase,
            "dealer": t.dealer,
            "current_player": t.to_act,
            "face_up": t.deck[20],
            "hands": [list(hand) for hand in t.hands],
            "bids": [{"seat": s, "action": a} for s, a in t.bids],
            "contract": None if t.contract is None else {
                "kind": t.contract[0], "trump": t.contract[1], "bidder": t.contract[2],
                "ashkal": False},
            "raises": [{"seat": s, "action": a} for s, a in t.raises],
            "multiplier": t.multiplier,
            "locked": locked(t),
            "declarations": [{"seat": s, "kind": k, "cards": list(c)}
                             for s, k, c in t.declarations],
            "trick": [{"seat": s, "card": c} for s, c in t.trick],
            "trick_winners": [won for won, _ in t.tricks],
            "totals": list(t.totals),
        }}

    def result(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"result": self.table().result}

    def bye(self, request: dict[str, Any]) -> dict[str, Any]:
        return {}

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        kind = request.get("type")
        handler = {
            "hello": self.hello, "start": self.start, "deal": self.deal, "legal": self.legal,
            "apply": self.apply, "state": self.state, "result": self.result, "bye": self.bye,
        }.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise RequestError(f"type: unknown request type {kind!r}")
        reply = handler(request)
        return reply if "ok" in reply else {"ok": True, **reply}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", action="append", default=[], choices=sorted(BUGS))
    args = parser.parse_args(argv)
    qahwa_bugs.plant(frozenset(args.bug))
    engine = Engine()
    for line in sys.stdin:
        seq: Any = None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise RequestError("request: expected a JSON object")
            seq = request.get("seq")
            reply = engine.answer(request)
        except (RequestError, ValueError, KeyError, TypeError, IndexError) as exc:
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps({"seq": seq, **reply}), flush=True)
        if isinstance(request, dict) and request.get("type") == "bye":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
