"""The reference engine behind the protocol, changed by environment variables
into engines the runner must judge fairly:

- FAKE_HELLO: JSON merged into the hello reply (declare a profile, overrides,
  readings or capabilities other than the reference's);
- FAKE_WRONG_ACTOR=PHASE: in that phase, `legal` names the partner of the
  player to act (an engine that asks the wrong seat);
- FAKE_SKIP_PASS_ONLY=1: a player whose only legal action is `pass` is not
  asked; the engine passes for it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import baloot.reference_impl as api
from baloot.conformance.adapters.reference_adapter import Adapter, serve_lines
from baloot.reference_impl.readings import VARIANTS


class ChangedAdapter(Adapter):
    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = super().hello(request)
        reply.update(json.loads(os.environ.get("FAKE_HELLO", "{}")))
        return {k: v for k, v in reply.items() if v is not None}

    def _skip_pass_only(self) -> None:
        if os.environ.get("FAKE_SKIP_PASS_ONLY") and self.game is not None:
            while self.game.current_player is not None and self.game.legal_actions() == ["pass"]:
                self.game.apply("pass")

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = super().start(request)
        self._skip_pass_only()
        return reply

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = super().apply(request)
        self._skip_pass_only()
        return reply

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = super().legal(request)
        wrong_in = os.environ.get("FAKE_WRONG_ACTOR")
        if wrong_in and self._game().phase == wrong_in and reply["player"] is not None:
            reply["player"] = (reply["player"] + 2) % 4
        return reply


def main() -> int:
    adapter = ChangedAdapter(api, {name: list(r) for name, r in VARIANTS.items()})
    return serve_lines(adapter, sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
