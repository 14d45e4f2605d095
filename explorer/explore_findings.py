"""What `baloot explore` finds for one pair of readings: the data every other
explorer module passes along (plain dataclasses, picklable across processes)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["witness", "proven-equal", "not-found"]


@dataclass
class SymbolicWitness:
    """Arguments (decoded from a z3 model) on which a rule gives two values."""

    rule: str
    args: dict[str, object]
    value_a: object
    value_b: object


@dataclass
class EngineWitness:
    """A deal and an action sequence after which the generated engine, under two
    readings, lists other legal actions (`legal`), shows another state (`state`),
    ends the round otherwise (`round`), or deals again otherwise (`redeal`)."""

    kind: str
    dealer: int
    deck: list[str]
    totals: list[int] | None
    actions: list[str]
    outcome_a: dict[str, Any]
    outcome_b: dict[str, Any]
    requires_a: dict[str, str] = field(default_factory=dict)
    requires_b: dict[str, str] = field(default_factory=dict)
    redeal: list[str] | None = None  # the second deal, when the witness follows a redeal


@dataclass
class Finding:
    """The two searches' answers for readings `a` and `b` of a variant."""

    variant: str
    variant_id: str
    a: str
    b: str
    symbolic: list[SymbolicWitness] = field(default_factory=list)
    symbolic_note: str = ""  # the rules proven equal, not translated, or undecided
    same_branch: bool = False  # every choose/is of the variant treats a and b alike
    engine: EngineWitness | None = None
    engine_note: str = ""

    @property
    def verdict(self) -> Verdict:
        if self.engine is not None or self.symbolic:
            return "witness"
        if self.same_branch:
            return "proven-equal"
        return "not-found"


def case_id(variant: str, a: str, b: str, reading: str) -> str:
    """The id of the conformance case that a witness of `variant` (readings `a` and `b`)
    becomes under `reading` (the pack's `witness_cases.py` writes it)."""
    return f"explore.{variant}.{a}-vs-{b}.{reading}".replace("_", "-").lower()


def short(value: object, width: int = 70) -> str:
    """A value as compact text (JSON unless a string), cut to `width` characters."""
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return text if len(text) <= width else text[:width - 1] + "…"


def describe_outcome(w: EngineWitness, which: str) -> str:
    """What the engine does under the first (`which="a"`) or second reading."""
    out = w.outcome_a if which == "a" else w.outcome_b
    if w.kind == "legal":
        return f"player {out.get('player')}: {short(out.get('actions'), 60)}"
    if w.kind == "state":
        return short(out)
    other = w.outcome_b if which == "a" else w.outcome_a
    keys = [k for k in out if out.get(k) != other.get(k)]
    return ", ".join(f"{k}={short(out.get(k), 30)}" for k in keys)
