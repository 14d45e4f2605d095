"""The shared loop of the fake engines: a tiny, well-behaved engine whose
`misbehave` hook the broken variants override.

It knows only the first bid: the dealer's right may pass, bid hokum or sun;
`ashkal` is refused. Good enough for the runner tests' small case packs.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

Hook = Callable[[dict[str, Any], int], bool]


def state(dealer: int, bids: list[str]) -> dict[str, Any]:
    return {
        "phase": "bidding",
        "dealer": dealer,
        "current_player": (dealer + 1 + len(bids)) % 4,
        "hands": [[], [], [], []],
        "contract": None,
        "raises": [],
        "multiplier": 1,
        "trick": [],
        "trick_winners": [],
        "totals": [0, 0],
    }


def reply_to(request: dict[str, Any], game: dict[str, Any]) -> dict[str, Any]:
    seq, kind = request["seq"], request["type"]
    if kind == "hello":
        return {
            "seq": seq,
            "ok": True,
            "protocol": 1,
            "name": "fake",
            "version": "1",
            "profile": "literal",
            "readings": {"rounding": ["each_team", "bidder_takes_rest"]},
            "capabilities": [
                "raises", "raise_triple", "raise_four", "raise_gahwa", "ashkal",
                "second_session", "redeal", "pass_only_turns", "projects", "declarations",
                "game_score",
            ],
        }
    if kind == "start":
        game.clear()
        game.update(dealer=request["setup"]["dealer"], bids=[])
        return {"seq": seq, "ok": True}
    if kind == "legal":
        player = (game["dealer"] + 1 + len(game["bids"])) % 4
        return {"seq": seq, "ok": True, "player": player, "actions": ["pass", "hokum", "sun"]}
    if kind == "apply":
        if request["action"] == "ashkal":
            return {
                "seq": seq,
                "ok": False,
                "refused": {"reason": "not the third bidder", "clauses": ["BID.6"]},
            }
        game["bids"].append(request["action"])
        return {"seq": seq, "ok": True}
    if kind == "state":
        return {"seq": seq, "ok": True, "state": state(game["dealer"], game["bids"])}
    if kind == "result":
        return {"seq": seq, "ok": True, "result": None}
    if kind == "bye":
        return {"seq": seq, "ok": True}
    return {"seq": seq, "ok": False, "error": f"unknown request {kind}"}


def serve(misbehave: Hook | None = None) -> None:
    """Serve requests; `misbehave(request, starts)` may act instead and return True."""
    game: dict[str, Any] = {}
    starts = 0
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] == "start":
            starts += 1
        if misbehave is not None and misbehave(request, starts):
            continue
        print(json.dumps(reply_to(request, game)), flush=True)
        if request["type"] == "bye":
            return
