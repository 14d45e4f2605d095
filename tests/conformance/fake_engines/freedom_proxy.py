"""The reference engine behind the protocol, answering as freely as PROTOCOL.md lets an
engine answer: a correct engine, which no check may fail.

    python freedom_proxy.py MODE [MODE...]

Each mode uses freedoms of the protocol, as the schemas list them
(`protocol/normal_form.freedoms`: `order`, `optional`, `extra`, each at a path of a
reply), changing every reply anew:

- `hands`: each hand's cards in another order, every reply;
- `order`: every list whose order is free in another order (hands, legal sets,
  declarations, a project's cards, each team's projects);
- `extra_top`: extra fields, their values changing from reply to reply, at the top of
  every reply and of its state or result;
- `extra_nested`: the same inside every nested object and list entry (a bid, a raise,
  a card of the trick, a declaration, a project, the contract, the refusal);
- `optional`: every optional field left out (`face_up`, `bids`, `locked`,
  `declarations`, the contract's `ashkal`, a project's `cards`, a refusal's `rule` and
  `clauses`);
- `all`: every one of them at once.

And two modes that are no freedom, which a check must catch:

- `bug_hand_after_refusal`: after a refused action, a card of a hand is another card
  (until the next accepted action);
- `bug_trick_order`: the trick's cards in reverse play order (its order is not free).

With FREEDOM_LOG=FILE set, every freedom used is written to FILE once, as
`KIND REPLY PATH` lines (for the test that each freedom the schemas list is used).
"""

from __future__ import annotations

import copy
import itertools
import os
import random
import sys
from typing import Any

import baloot.reference_impl as api
from baloot.conformance.adapters.reference_adapter import Adapter, serve_lines
from baloot.conformance.harness.protocol_notation import ALL_CARDS
from baloot.conformance.protocol.normal_form import (
    EXTRA,
    ITEM,
    OPTIONAL,
    ORDER,
    Freedom,
    freedoms,
)
from baloot.reference_impl.readings import VARIANTS

FREEDOM_MODES = ("hands", "order", "extra_top", "extra_nested", "optional")
BUG_MODES = ("bug_hand_after_refusal", "bug_trick_order")
MODES = (*FREEDOM_MODES, "all", *BUG_MODES)
# The objects at the top of a reply: the reply itself, its state, its result.
TOP = ("/", "/state", "/result")


def uses(mode: str, freedom: Freedom) -> bool:
    """Whether `mode` uses `freedom`."""
    if mode == "all":
        return mode_of(freedom) is not None
    return mode_of(freedom) == mode or (mode == "order" and mode_of(freedom) == "hands")


def mode_of(freedom: Freedom) -> str | None:
    """The freedom mode that uses `freedom` (the narrowest); None: no mode does."""
    if freedom.kind == ORDER:
        return "hands" if freedom.path == "/state/hands/*" else "order"
    if freedom.kind == EXTRA:
        return "extra_top" if freedom.path in TOP else "extra_nested"
    if freedom.kind == OPTIONAL:
        return "optional"
    return None


class FreedomProxy(Adapter):
    def __init__(self, modes: list[str]) -> None:
        super().__init__(api, {name: list(r) for name, r in VARIANTS.items()})
        self.modes = set(modes)
        by_reply: dict[str, list[Freedom]] = {}
        for freedom in freedoms():
            if any(uses(mode, freedom) for mode in self.modes):
                by_reply.setdefault(freedom.reply.removesuffix(".reply"), []).append(freedom)
        for chosen in by_reply.values():  # a field left out before the one holding it
            chosen.sort(key=lambda f: (f.kind != OPTIONAL, -f.path.count("/")))
        self.freedoms = by_reply
        self.top_extra = any(uses(m, Freedom(EXTRA, "", "/")) for m in self.modes)
        self.count = itertools.count()
        self.random = random.Random(7)
        self.used: set[Freedom] = set()
        self.log = os.environ.get("FREEDOM_LOG")
        self.refused = False  # bug_hand_after_refusal: a refusal since the last accepted action

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        kind = request.get("type") if isinstance(request, dict) else None
        reply = copy.deepcopy(super().answer(request))  # the adapter shares parts: never change
        self._bugs(str(kind), reply)
        for freedom in self.freedoms.get(str(kind), ()):
            if self._use(freedom, reply):
                self._note(freedom)
        if self.top_extra and str(kind) not in self.freedoms:  # hello, start, deal, batch, bye
            reply[f"x_{kind}_note"] = {"n": next(self.count)}
        return reply

    # -- the freedoms --

    def _use(self, freedom: Freedom, reply: dict[str, Any]) -> bool:
        if freedom.kind == OPTIONAL:
            parent, _, name = freedom.path.rpartition("/")
            used = False
            for holder in _at(reply, parent):
                if isinstance(holder, dict) and name in holder:
                    del holder[name]
                    used = True
            return used
        used = False
        for target in _at(reply, freedom.path.rstrip("/")):
            if (freedom.kind == ORDER and isinstance(target, list)
                    and len(set(map(str, target))) > 1):
                before = list(target)
                while target == before:
                    self.random.shuffle(target)
                used = True
            elif freedom.kind == EXTRA and isinstance(target, dict):
                n = next(self.count)
                target["x_note"] = n
                target["x_detail"] = {"n": n, "list": [n, {"deep": n}]}
                used = True
        return used

    def _note(self, freedom: Freedom) -> None:
        if self.log and freedom not in self.used:
            self.used.add(freedom)
            with open(self.log, "a", encoding="utf-8") as out:
                out.write(f"{freedom.kind} {freedom.reply} {freedom.path}\n")

    # -- the bugs --

    def _bugs(self, kind: str, reply: dict[str, Any]) -> None:
        if kind == "start" or (kind == "apply" and reply.get("ok")):
            self.refused = False
        elif kind == "apply":
            self.refused = True
        state = reply.get("state")
        if kind != "state" or not isinstance(state, dict):
            return
        if "bug_hand_after_refusal" in self.modes and self.refused:
            _swap_a_card(state)
        if "bug_trick_order" in self.modes and len(state.get("trick") or []) > 1:
            state["trick"].reverse()


def _swap_a_card(state: dict[str, Any]) -> None:
    """A card of the first hand that has one becomes a card nobody holds."""
    hands = state.get("hands") or []
    held = {card for hand in hands for card in hand}
    for hand in hands:
        if hand:
            hand[0] = next((c for c in ALL_CARDS if c not in held), hand[0])
            return


def _at(value: Any, path: str) -> list[Any]:
    """Every value at `path` ("/state/hands/*") of `value`."""
    found: list[Any] = [value]
    for step in (s for s in path.split("/") if s):
        found = [inner for v in found for inner in _step(v, step)]
    return found


def _step(value: Any, step: str) -> list[Any]:
    if step == ITEM:
        return _every(value)
    return [value[step]] if isinstance(value, dict) and step in value else []


def _every(value: Any) -> list[Any]:
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return list(value.values())
    return []


def main() -> int:
    modes = sys.argv[1:] or ["all"]
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        print(f"freedom_proxy: unknown mode(s) {unknown}; the modes: {', '.join(MODES)}",
              file=sys.stderr)
        return 2
    return serve_lines(FreedomProxy(modes), sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
