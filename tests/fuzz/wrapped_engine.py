"""A test engine for the fuzzer: the reference adapter, with parts of the game left
out the way an engine without those capabilities plays, and bugs planted on demand.

    python tests/fuzz/wrapped_engine.py [--without CAPABILITY]... [--bug NAME]...
        [--hello JSON] [--refuse-start] [--exit-after N] [--odd-state deep|surrogate]

Without a capability it behaves as PROTOCOL.md describes such an engine, and
says so in its hello: no `raises`, no raising phase (every player passes,
unasked); no `declarations`, every player declares every project at its
first turn, unasked; no `ashkal` / `raise_*`, those actions are neither
offered nor accepted; no `game_score`, the totals, `game_over` and `winner`
are reported as 0-0, false and null, whatever the game; no `pass_only_turns`,
a player who can only pass (among the actions it has) is not asked. The
state fields an engine without a capability cannot keep are reported empty
(`raises`, `locked`, `declarations`), so a fuzzer that compared them would
see a difference.

The planted bugs (`BUGS`), each in its own part of the game:
- `triple_multiplier`: after a triple the state reports multiplier 2 (RAISE.1);
- `revoke_accepted`: a card that does not follow the led suit is accepted
  (the reply says ok; nothing is played) (PLAY.2);
- `sun_last_trick`: in sun the result's last-trick bunts are doubled (SCORE.2).

`--odd-state deep|surrogate` adds to each state reply from the first card played on
an extra field nested 40 deep, or holding a lone surrogate escape (a reply the
protocol's reader refuses, whatever else it says);
`--hello JSON` merges the object into the hello reply (a bad profile, say);
`--refuse-start` refuses every `start`; `--exit-after N` exits, unannounced, when a
request line comes after N answered.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import baloot.reference_impl as api
from baloot.conformance.adapters.reference_adapter import Adapter, serve_lines
from baloot.conformance.harness.declared import CAPABILITIES
from baloot.reference_impl.readings import VARIANTS

BUGS = ("triple_multiplier", "revoke_accepted", "sun_last_trick")
_WORD_NEEDS = {
    "ashkal": "ashkal",
    "triple": "raise_triple",
    "four": "raise_four",
    "gahwa": "raise_gahwa",
    "double": "raises",
    "declare": "declarations",
}


class WrappedEngine:
    def __init__(
        self,
        without: set[str],
        bugs: set[str],
        hello: dict[str, Any],
        refuse_start: bool,
        exit_after: int | None = None,
        odd_state: str | None = None,
    ) -> None:
        self.inner = Adapter(api, {name: list(r) for name, r in VARIANTS.items()})
        self.has = set(CAPABILITIES) - without
        self.bugs = bugs
        self.hello_patch = hello
        self.refuse_start = refuse_start
        self.lines_left = exit_after
        self.odd_state = odd_state

    def offered(self, actions: list[str]) -> list[str]:
        """The actions this engine has (those of its capabilities)."""
        return [a for a in actions if _WORD_NEEDS.get(a.split(" ")[0], "") in {"", *self.has}]

    def autoplay(self) -> None:
        """Play the turns this engine does not ask anyone."""
        game = self.inner.game
        while game is not None and game.phase in ("bidding", "raising", "playing"):
            legal = list(game.legal_actions())
            declarations = sorted(a for a in legal if a.startswith("declare "))
            if game.phase == "raising" and "raises" not in self.has:
                game.apply("pass")
            elif declarations and "declarations" not in self.has and "projects" in self.has:
                game.apply(declarations[0])
            elif "pass_only_turns" not in self.has and self.offered(legal) == ["pass"]:
                game.apply("pass")
            else:
                return

    def handle(self, line: str) -> dict[str, Any]:
        if self.lines_left is not None:
            if self.lines_left == 0:
                sys.exit(3)
            self.lines_left -= 1
        request = json.loads(line)
        seq = request.get("seq")
        if request.get("type") == "batch":  # each request as if it came alone
            replies = [self.answer(r) for r in request["requests"]]
            return {"seq": seq, "ok": True, "replies": replies}
        return {"seq": seq, **self.answer(request)}

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        kind = request.get("type")
        if kind == "start" and self.refuse_start:
            return {"ok": False, "refused": {"reason": "this engine starts no games"}}
        if kind == "apply":
            return self.apply(request)
        reply = self.inner.answer(request)
        if not reply.get("ok"):
            return reply
        if kind == "hello":
            reply["capabilities"] = sorted(self.has)
            reply.update(self.hello_patch)
        elif kind in ("start", "deal"):
            self.autoplay()
        elif kind == "legal":
            reply["actions"] = self.offered(list(reply["actions"]))
        elif kind == "state":
            self.patch_state(reply["state"])
        elif kind == "result" and isinstance(reply.get("result"), dict):
            self.patch_result(reply["result"])
        return reply

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        action = str(request.get("action"))
        if not self.offered([action]):
            return {"ok": False, "refused": {"reason": "not played by this engine"}}
        reply = self.inner.answer(request)
        refused = reply.get("refused") or {}
        if (
            "revoke_accepted" in self.bugs
            and action.startswith("play ")
            and (refused.get("clauses") or [None])[0] == "PLAY.2"
        ):
            return {"ok": True}
        if reply.get("ok"):
            self.autoplay()
        return reply

    def patch_state(self, state: dict[str, Any]) -> None:
        if "raises" not in self.has:
            state["raises"], state["locked"] = [], False
        if "declarations" not in self.has:
            state["declarations"] = []
        if "game_score" not in self.has:
            state["totals"] = [0, 0]
            if state["phase"] == "game_over":
                state["phase"] = "round_over"
        if "triple_multiplier" in self.bugs and state.get("multiplier") == 3:
            state["multiplier"] = 2
        if self.odd_state and state.get("trick"):
            note: Any = "\ud800" if self.odd_state == "surrogate" else "deep"
            for _ in range(40 if self.odd_state == "deep" else 0):
                note = [note]
            state["note"] = note

    def patch_result(self, result: dict[str, Any]) -> None:
        if "game_score" not in self.has:
            result.update(totals=[0, 0], game_over=False, winner=None)
        contract = result.get("contract") or {}
        if "sun_last_trick" in self.bugs and contract.get("kind") == "sun":
            result["last_trick_bunts"] = [2 * b for b in result["last_trick_bunts"]]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--without", action="append", default=[], choices=sorted(CAPABILITIES))
    parser.add_argument("--bug", action="append", default=[], choices=BUGS)
    parser.add_argument("--hello", default="{}")
    parser.add_argument("--refuse-start", action="store_true")
    parser.add_argument("--exit-after", type=int, default=None, metavar="N")
    parser.add_argument("--odd-state", choices=["deep", "surrogate"], default=None)
    args = parser.parse_args()
    engine = WrappedEngine(
        set(args.without),
        set(args.bug),
        json.loads(args.hello),
        args.refuse_start,
        args.exit_after,
        args.odd_state,
    )
    return serve_lines(engine, sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
