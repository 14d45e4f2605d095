"""majlis: an independent Baloot engine behind the JSON-lines protocol of
conformance/PROTOCOL.md, written from the rules alone.

It plays the federation profile with seven readings moved off it (OVERRIDES),
four of them (A15, A23, A25, a variant it predates, and A4) where the pack moved
the profile from under it,
without raises and without a declaration step (CAPABILITIES), and does not ask
a player whose only call would be `pass`.

    python majlis.py [--bug NAME]...

`--bug NAME` plants a rule break (BUGS lists them), for checking that the
conformance suite catches it.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from majlis_bidding import IllegalAction
from majlis_game import Game, SetupError, read_deck

NAME, VERSION = "majlis", "1.0"
PROFILE = "federation"
OVERRIDES = {
    "first_leader": "bid_winner",
    "projects_on_failure": "maximum_and_own_projects",
    "baloot_overlap": "overlap_allowed",
    # written against pack 0.4, whose federation profile read A15 and A23 so; pack 0.5's
    # federation reads them otherwise, and the engine says what it plays
    "void_in_hokum": "must_trump",
    "trump_lead": "any_trump",
    # written before A25: the third and fourth bidders may call ashkal whatever the
    # face-up card and after a pass alike (may_call_ashkal), which the federation profile
    # now limits; the engine says what it plays
    "ashkal_limits": "unlimited",
    # written when the federation profile read A4 as more_than_half_bunts (a tie in bunts
    # fails: _succeeded in majlis_scoring.py); the profile now reads the app's ties
    # (more_points_app_ties), and the engine says what it plays
    "bidder_success": "more_than_half_bunts",
    # written before A27: a sweep scores the kaboot whoever bid; the federation profile
    # now gives the reverse kaboot its 88, and the engine says what it plays
    "reverse_kaboot": "as_any_kaboot",
    # written before A28: no kawesh call; the federation profile now has it
    "kawesh": "no_kawesh",
}
# The federation profile's readings (pack 0.5) of the variants this engine's rules depend on.
FEDERATION = {
    "sequence_order": "natural", "sun_overcall": "earlier_seat_priority",
    "hokum_answer": "all_others", "bidder_success": "more_than_half_bunts",
    "rounding": "bidder_takes_rest", "project_units": "points_after_rounding",
    "scoring_projects": "best_team_only", "projects_on_failure": "maximum_and_all_projects",
    "kaboot": "sun_44_hokum_25", "locked_round": "doubler_chooses_bidder_opens",
    "sun_raises": "gate_strict_double_only", "multipliers": "points_and_projects_but_baloot",
    "gahwa": "round_decides_game", "ashkal": "third_fourth_any_session",
    "void_in_hokum": "must_trump_unless_partner_wins", "first_leader": "dealer_right",
    "long_sequence": "hundred_only", "baloot_overlap": "hundred_cancels",
    "both_reach_target": "higher_total_wins", "redeal_dealer": "next_dealer",
    "low_four_of_a_kind": "no_project", "aces_in_hokum": "hundred",
    "trump_lead": "must_overtrump_opponent", "raised_share": "winner_takes_all",
}
PLAYED = {**FEDERATION, **OVERRIDES}
CAPABILITIES = ["ashkal", "second_session", "redeal", "projects", "game_score"]
BUGS = {
    "last_trick_to_losers": "SCORE.2: the 10 bunts of the last trick go to the team that lost it",
    "sun_ten_below_king": "SETUP.7: in sun the ten ranks below the king in a trick",
    "ashkal_second_bidder": "BID.6: the second bidder may already call ashkal",
    "sun_fives_rounded_up": "SCORE.7: a sun figure ending in 5 is rounded up like any other",
    "void_no_trump_duty": "PLAY.2: void in the led suit in hokum, any card may be played",
}


class RequestError(ValueError):
    """A request the engine cannot serve; its text goes back as the error."""


class Server:
    def __init__(self, bugs: frozenset[str]) -> None:
        self.bugs = bugs
        self.game: Game | None = None

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        kind = request.get("type")
        handler = {
            "hello": self.hello, "start": self.start, "deal": self.deal,
            "legal": self.legal, "apply": self.apply, "state": self.state,
            "result": self.result, "bye": self.bye,
        }.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise RequestError(f"type: unknown request type {kind!r}; expected one of hello, "
                               "start, deal, legal, apply, state, result, bye")
        return handler(request)

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("protocol") != 1:
            raise RequestError(f"protocol: this engine speaks protocol 1, "
                               f"not {request.get('protocol')!r}")
        return {"protocol": 1, "name": NAME, "version": VERSION, "profile": PROFILE,
                "overrides": dict(OVERRIDES), "capabilities": list(CAPABILITIES)}

    def bye(self, _request: dict[str, Any]) -> dict[str, Any]:
        return {}

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        setup = request.get("setup")
        if not isinstance(setup, dict):
            raise RequestError("setup: expected an object with dealer, deck and totals")
        self._check_readings(setup)
        dealer = setup.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
            raise RequestError(f"setup.dealer: expected a seat 0-3, got {dealer!r}")
        totals = setup.get("totals", [0, 0])
        if (not isinstance(totals, list) or len(totals) != 2
                or not all(isinstance(t, int) and not isinstance(t, bool) for t in totals)):
            raise RequestError(f"setup.totals: expected two whole numbers, got {totals!r}")
        try:
            deck = read_deck(setup.get("deck"))
        except SetupError as error:
            raise RequestError(f"setup.{error}") from error
        self.game = Game(dealer, deck, totals, self.bugs)
        return {}

    def _check_readings(self, setup: dict[str, Any]) -> None:
        profile = setup.get("profile", PROFILE)
        if profile != PROFILE:
            raise RequestError(f"setup.profile: this engine plays {PROFILE}, not {profile!r}")
        overrides = setup.get("overrides", {})
        if not isinstance(overrides, dict):
            raise RequestError("setup.overrides: expected an object of variant readings")
        for variant, reading in overrides.items():
            if PLAYED.get(variant) != reading:
                raise RequestError(
                    f"setup.overrides.{variant}: reading {reading!r} is not implemented; "
                    f"this engine plays {PLAYED.get(variant, 'no such variant')!r}")

    def _game(self) -> Game:
        if self.game is None:
            raise RequestError("no game in progress: send start first")
        return self.game

    def deal(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        try:
            game.deal(read_deck(request.get("deck")))
        except SetupError as error:
            raise RequestError(str(error)) from error
        return {}

    def legal(self, _request: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        return {"player": game.to_act(), "actions": game.legal()}

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        action = request.get("action")
        if not isinstance(action, str):
            raise RequestError(f"action: expected an action string, got {action!r}")
        try:
            game.apply(" ".join(action.split()))
        except IllegalAction as refusal:
            return {"ok": False, "refused": {"reason": refusal.reason, "rule": refusal.rule,
                                             "clauses": refusal.clauses}}
        return {}

    def state(self, _request: dict[str, Any]) -> dict[str, Any]:
        return {"state": self._game().state()}

    def result(self, _request: dict[str, Any]) -> dict[str, Any]:
        score = self._game().last_result
        return {"result": None if score is None else score.as_json()}


def reply_to(server: Server, line: str) -> tuple[dict[str, Any], bool]:
    """The reply to one request line, and whether it ends the run."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        return {"seq": None, "ok": False, "error": f"not a JSON request: {error}"}, False
    if not isinstance(request, dict):
        return {"seq": None, "ok": False, "error": "a request must be a JSON object"}, False
    seq = request.get("seq")
    try:
        fields = server.answer(request)
    except RequestError as error:
        return {"seq": seq, "ok": False, "error": str(error)}, False
    return {"seq": seq, "ok": True, **fields}, request.get("type") == "bye"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The majlis Baloot engine (JSON lines).")
    parser.add_argument("--bug", action="append", default=[], choices=sorted(BUGS),
                        help="plant a rule break (repeatable)")
    options = parser.parse_args(argv)
    server = Server(frozenset(options.bug))
    for line in sys.stdin:
        if not line.strip():
            continue
        reply, done = reply_to(server, line)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
