"""A template adapter: copy this file, replace the toy engine with yours.

The conformance runner starts this script once per run and speaks JSON lines
over stdin/stdout (see PROTOCOL.md): every request has a `seq`, every reply
echoes it. Print nothing else to stdout; log to stderr.

    baloot conform --engine "python my_adapter.py"

The toy engine below knows almost nothing about Baloot (it answers every
request in the right shape, so the template runs as is and passes
`--validate-protocol`, while failing the cases). Each `# >>> PLUG IN` marks
where your engine's API goes.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import Any


class Refused(Exception):
    """What the toy engine raises for an illegal action."""


class ToyEngine:
    """>>> PLUG IN: replace this class with your engine (or a wrapper of it)."""

    def __init__(
        self, profile: str, overrides: dict[str, str], dealer: int, deck: list[str]
    ) -> None:
        self.profile = profile
        self.overrides = overrides
        self.dealer = dealer
        self.deck = deck
        self.player = (dealer + 1) % 4  # the dealer's right bids first
        self.passes = 0

    def legal_actions(self) -> list[str]:
        return ["pass"] if self.passes < 8 else []

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise Refused(f"{action!r} is not legal here")
        self.passes += 1
        self.player = (self.player + 1) % 4

    def state(self) -> dict[str, Any]:
        hands = [self.deck[5 * k : 5 * k + 5] for k in range(4)]
        return {
            "phase": "bidding" if self.passes < 8 else "deal",
            "dealer": self.dealer,
            "current_player": self.player if self.passes < 8 else None,
            "face_up": self.deck[20],
            "hands": [hands[(seat - self.dealer - 1) % 4] for seat in range(4)],
            "contract": None,
            "raises": [],
            "multiplier": 1,
            "trick": [],
            "trick_winners": [],
            "totals": [0, 0],
        }


class Session:
    """Translates protocol requests to engine calls. One per run."""

    def __init__(self) -> None:
        self.engine: ToyEngine | None = None

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        # >>> PLUG IN: what your engine plays and implements (PROTOCOL.md, `hello`).
        return {
            "protocol": 1,
            "name": "toy-engine",
            "version": "0.0.1",
            # the profile it plays: "literal" or "federation"
            "profile": "literal",
            # variant -> the reading it plays where that differs from the profile,
            # e.g. {"sun_overcall": "earlier_seat_priority"}
            "overrides": {},
            # variant -> every reading it can play when a start asks for it (the one it
            # plays among them); a variant left out: only the reading it plays
            "readings": {},
            # the parts of the game it implements; a part left out is one it lacks (an
            # empty or missing list: none). All of them: "raises", "raise_triple",
            # "raise_four", "raise_gahwa", "ashkal", "second_session", "redeal",
            # "pass_only_turns", "projects", "declarations", "game_score".
            "capabilities": [],
        }

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        setup = request["setup"]
        register = load_register()
        if register is not None:  # >>> PLUG IN: your hello's `readings` as `implemented`
            start_readings(setup, register, implemented={})
        # >>> PLUG IN: build a game from the pinned setup; never shuffle yourself.
        self.engine = ToyEngine(
            setup["profile"], setup["overrides"], setup["dealer"], setup["deck"]
        )
        return {}

    def deal(self, request: dict[str, Any]) -> dict[str, Any]:
        # >>> PLUG IN: deal your game's next round from the pinned deck. Your rules say
        # who deals it (after a redeal, variant A20); the toy just moves the deal on.
        old = self._engine()
        self.engine = ToyEngine(old.profile, old.overrides, (old.dealer + 1) % 4,
                                request["deck"])
        return {}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        engine = self._engine()
        return {"player": engine.state()["current_player"], "actions": engine.legal_actions()}

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            self._engine().apply(request["action"])
        except Refused as refusal:  # >>> PLUG IN: your engine's illegal-action exception
            return {"ok": False, "refused": {"reason": str(refusal)}}
        return {}

    def state(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"state": self._engine().state()}

    def result(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"result": None}  # >>> PLUG IN: the round result once a round is over

    def bye(self, request: dict[str, Any]) -> dict[str, Any]:
        return {}

    def _engine(self) -> ToyEngine:
        if self.engine is None:
            raise ValueError("no game: send start first")
        return self.engine


# --------------------------------------------------------------------------------------
# Checking a `start` request against the spec register (standard library only).
#
# The register, `cases/spec-register.json` in the pack (beside this file in a checkout or
# an installed `baloot`, at baloot/conformance/cases/), lists every variant with its
# readings, and each profile's reading of every variant. `start_readings` turns a
# start's `profile` and `overrides` into the reading of every variant, and refuses a
# profile, variant or reading the register does not name; check the result against
# what your engine implements. Copy this block with the rest; point
# BALOOT_SPEC_REGISTER at the register when the template does not sit in the pack.


def register_path() -> Path:
    """BALOOT_SPEC_REGISTER, else the register of the pack this file sits in."""
    configured = os.environ.get("BALOOT_SPEC_REGISTER")
    return Path(configured) if configured else Path(__file__).with_name("cases") / (
        "spec-register.json")


@functools.cache
def load_register(path: Path | None = None) -> dict[str, Any] | None:
    """The register's data, or None when there is no register at `path` (the check is
    then skipped)."""
    try:
        data: dict[str, Any] = json.loads((path or register_path()).read_text("utf-8"))
    except FileNotFoundError:
        return None
    return data


def start_readings(
    setup: dict[str, Any],
    register: dict[str, Any],
    implemented: dict[str, list[str]] | None = None,
) -> dict[str, str]:
    """Variant name -> reading for every variant, as a `start`'s setup asks: the
    profile's readings with the overrides on top. ValueError when the setup names a
    profile, variant or reading the register does not, or a reading `implemented` (your
    hello's `readings`: variant -> the readings your engine can play) leaves out; the
    start is then answered with an error reply."""
    readings = {v["name"]: v["readings"] for v in register["variants"]}
    profile = setup.get("profile")
    if profile not in register["profiles"]:
        raise ValueError(f"unknown profile {profile!r}; the register has "
                         + ", ".join(register["profiles"]))
    chosen = dict(register["profiles"][profile])
    for variant, reading in (setup.get("overrides") or {}).items():
        if variant not in readings:
            raise ValueError(f"unknown variant {variant!r} in overrides")
        if reading not in readings[variant]:
            raise ValueError(f"{variant}: unknown reading {reading!r}; expected one of "
                             + ", ".join(readings[variant]))
        chosen[variant] = reading
    for variant, reading in sorted(chosen.items()):
        if implemented is not None and variant in implemented and (
                reading not in implemented[variant]):
            raise ValueError(f"{variant}={reading} is not implemented")
    return chosen


# --------------------------------------------------------------------------------------


def main() -> int:
    session = Session()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            seq, kind = request["seq"], request["type"]
        except (ValueError, KeyError, TypeError) as exc:
            print(
                json.dumps({"seq": None, "ok": False, "error": f"bad request: {exc}"}), flush=True
            )
            continue
        try:
            reply = {"seq": seq, "ok": True, **getattr(session, kind)(request)}
        except Exception as exc:  # report engine errors; never die on one request
            reply = {"seq": seq, "ok": False, "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(reply), flush=True)  # flush: the runner waits for each reply
        if kind == "bye":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
