"""The reference adapter: serves the engine protocol (PROTOCOL.md) by driving
the reference engine's Python API, `baloot.reference_impl`.

    python -m baloot.conformance.reference_adapter      (or: baloot conform adapter)

It is deliberately a thin translation layer, and doubles as the example for
engine authors: read one JSON request per line from stdin, call the engine,
write one JSON reply per line to stdout, echoing `seq`. Nothing else may go
to stdout (log to stderr). `adapter_template.py` is the same loop around a toy
engine, to copy.

The reference API used here:
    new_game(profile, overrides, dealer, deck) -> Game
    game.phase, game.current_player, game.legal_actions(), game.apply(action)
        (raises IllegalAction with .rule and .clauses; the state is unchanged)
    game.deal(deck), game.observation() -> dict, game.round_result() -> dict | None
"""

from __future__ import annotations

import inspect
import json
import sys
from typing import IO, Any

from .engine_process import PROTOCOL_VERSION
from .variants import load_register

# The protocol's state fields, in the order of PROTOCOL.md; the adapter copies
# the ones the engine's observation has, and takes phase, current player and
# dealer from the game itself.
STATE_FIELDS = (
    "phase",
    "dealer",
    "current_player",
    "face_up",
    "hands",
    "bids",
    "contract",
    "raises",
    "multiplier",
    "locked",
    "declarations",
    "trick",
    "trick_winners",
    "totals",
)


class Adapter:
    """One protocol session around an engine API module (or any object with its functions)."""

    def __init__(self, api: Any) -> None:
        self.api = api
        self.game: Any = None

    # --- one method per request type; each returns the reply's fields -------

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        register = load_register()
        return {
            "protocol": PROTOCOL_VERSION,
            "name": "baloot-reference",
            "version": str(getattr(self.api, "__version__", "0")),
            "profile": "literal",
            # The reference engine is generated from the spec: every reading of every variant.
            "readings": {name: list(v.readings) for name, v in register.variants.items()},
        }

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        setup = request["setup"]
        kwargs: dict[str, Any] = {
            "profile": setup["profile"],
            "overrides": setup["overrides"] or None,
            "dealer": setup["dealer"],
            "deck": setup["deck"],
        }
        if "totals" in setup:
            # Running totals are passed on only if the engine's new_game takes them.
            if "totals" not in inspect.signature(self.api.new_game).parameters:
                raise ValueError("this engine cannot start from running totals")
            kwargs["totals"] = setup["totals"]
        self.game = self.api.new_game(**kwargs)
        return {}

    def deal(self, request: dict[str, Any]) -> dict[str, Any]:
        self._game().deal(request["deck"])
        return {}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        return {"player": game.current_player, "actions": list(game.legal_actions())}

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            self._game().apply(request["action"])
        except self.api.IllegalAction as refusal:
            # A refusal is an answer, not an error: the runner checks it.
            return {
                "ok": False,
                "refused": {
                    "reason": str(refusal),
                    "rule": str(getattr(refusal, "rule", "")),
                    "clauses": [str(c) for c in getattr(refusal, "clauses", ())],
                },
            }
        return {}

    def state(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        observation = dict(game.observation())
        state = {k: observation[k] for k in STATE_FIELDS if k in observation}
        state["phase"] = game.phase
        state["current_player"] = game.current_player
        return {"state": state}

    def result(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"result": self._game().round_result()}

    def bye(self, request: dict[str, Any]) -> dict[str, Any]:
        return {}

    def _game(self) -> Any:
        if self.game is None:
            raise ValueError("no game: send start first")
        return self.game

    # --- the loop -----------------------------------------------------------

    def handle(self, line: str) -> dict[str, Any]:
        try:
            request = json.loads(line)
            seq = request["seq"]
            handler = getattr(self, f"{request['type']}")
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            return {"seq": _seq_of(line), "ok": False, "error": f"cannot read request: {exc!r}"}
        try:
            reply = handler(request)
        except Exception as exc:  # an engine bug: report it, keep serving
            return {"seq": seq, "ok": False, "error": f"{type(exc).__name__}: {exc}"}
        return {"seq": seq, "ok": True, **reply}


def _seq_of(line: str) -> int | None:
    try:
        seq = json.loads(line).get("seq")
    except (ValueError, AttributeError):
        return None
    return seq if isinstance(seq, int) else None


def serve(api: Any, stdin: IO[str], stdout: IO[str]) -> int:
    adapter = Adapter(api)
    for line in stdin:
        if not line.strip():
            continue
        reply = adapter.handle(line)
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()  # one reply per request, at once: the runner is waiting
        if reply.get("ok") and json.loads(line).get("type") == "bye":
            break
    return 0


def main() -> int:
    try:
        import baloot.reference_impl as api
    except ImportError as exc:
        print(f"reference adapter: cannot import baloot.reference_impl: {exc}", file=sys.stderr)
        return 2
    if not hasattr(api, "new_game"):
        print(
            "reference adapter: baloot.reference_impl has no new_game yet "
            "(the reference engine is not generated)",
            file=sys.stderr,
        )
        return 2
    return serve(api, sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
