"""Engine witnesses as conformance cases: two cases per witness (one per reading,
the same deal and actions, each expecting what its reading gives), gathered per
variant in `conformance/cases/variants/<variant>/explored.json`, their pins and
needs settled by the pack's own tools, and each carrying its expectation under
the other readings of its pins (`derive.derived_alternatives`), so that an
engine playing any reading under which the script plays through gets a
verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..backends.register import register_data
from ..conformance.harness.pack import case_from_json
from ..conformance.harness.variants import Register, register_from_data
from ..conformance.pack_tools.case_needs import annotated, case_needs
from ..conformance.pack_tools.derive import derived_alternatives, with_alternatives
from ..conformance.pack_tools.pins_fix import with_minimal_requires
from ..conformance.protocol.reference_view import legal, result
from ..conformance.protocol.schemas import schema_errors
from ..grammar import model as m
from .explore_engine import replay
from .explore_findings import Finding, case_id, describe_outcome

CASE_FILE = "explored.json"
ROUND_ACTION_BOUND = 200  # the most actions the redealt round of a redeal case is played for


def witness_cases(spec: m.Spec, f: Finding) -> list[dict[str, Any]]:
    """Two conformance cases (one per reading) for an engine witness."""
    w = f.engine
    if w is None:
        return []
    profile = spec.profiles[0].name
    clauses = [c.clause for c in spec.variant(f.variant).cites]
    cases = []
    for reading, outcome, requires in ((f.a, w.outcome_a, w.requires_a),
                                       (f.b, w.outcome_b, w.requires_b)):
        other = f.b if reading == f.a else f.a
        then: list[dict[str, Any]] | None = None
        g = replay(profile, {**requires, f.variant: reading}, w)
        if w.kind == "redeal":
            # A redeal needs a second deal, which only a game case holds: play the
            # redealt round to its end (first legal action each time) and expect
            # its result, which the changed dealer changes.
            kind = "game"
            played: list[str] = []
            while g.phase in ("bidding", "raising", "playing") \
                    and len(played) < ROUND_ACTION_BOUND:
                action = sorted(g.legal_actions())[0]
                g.apply(action)
                played.append(action)
            got = result(g)
            if got is None:
                return []
            then = [{"deck": w.redeal, "actions": played}]
            expect: dict[str, Any] = {"result": got}
        elif w.kind == "round":
            kind = "round"
            expect = {"result": outcome}
        else:
            kind = "legal"
            now = legal(g)
            expect = {"actions": now["actions"]}
            if now["player"] is not None:
                expect["player"] = now["player"]
            if w.kind == "state":
                expect["state"] = outcome
        setup: dict[str, Any] = {"dealer": w.dealer, "deck": w.deck}
        if w.totals is not None:
            setup["totals"] = w.totals
        case: dict[str, Any] = {
            "id": case_id(f.variant, f.a, f.b, reading),
            "kind": kind,
            "title": f"{f.variant_id} {f.variant}: {reading} against {other} "
                     f"(found by baloot explore)",
            "clauses": clauses,
            "origin": "witness",
            "requires": requires,
            "working": [
                f"Found by `baloot explore` (seeded search of the generated engine): the "
                f"shortest action sequence found after which the readings {f.a} and {f.b} "
                f"of {f.variant} ({f.variant_id}) differ in the {w.kind}.",
                f"Under {reading}: {describe_outcome(w, 'a' if reading == f.a else 'b')}.",
                f"Under {other}: {describe_outcome(w, 'b' if reading == f.a else 'a')}.",
            ],
            "setup": setup,
            "actions": list(w.actions),
            "expect": expect,
        }
        if then is not None:
            case["then"] = then
        cases.append(case)
    return cases


NEEDS_ROUNDS = 4  # pins and needs settle in two rounds on every witness found so far


def _settled(raw: dict[str, Any], label: str, register: Register) -> dict[str, Any]:
    """The case with its seats and pass-only turns (which depend on the pins) and its
    minimal pins (which depend on the pass-only turns), each recomputed from the other
    until neither changes, so that `conform pins` and `conform needs` find nothing to fix."""
    case = annotated(raw, case_needs(case_from_json(raw, label), register))
    for _ in range(NEEDS_ROUNDS):
        pinned = with_minimal_requires(case, label, register)
        again = annotated(pinned, case_needs(case_from_json(pinned, label), register))
        if again == case:
            return case
        case = again
    raise ValueError(f"{raw.get('id')}: its pins and needs do not settle in "
                     f"{NEEDS_ROUNDS} rounds")


def _with_derived(raw: dict[str, Any], label: str, register: Register) -> dict[str, Any]:
    """The case with its expectation under the other readings of its pins."""
    return with_alternatives(raw, derived_alternatives(raw, label, register))


def case_file_text(spec: m.Spec, variant: str, findings: list[Finding]) -> str | None:
    """The text of the variant's `explored.json` (None when it has no engine witness):
    each case with its minimal pins (pins_fix.py), the seat of each action and the
    capabilities it needs (case_needs.py), checked against the case-file schema."""
    found = [c for f in findings if f.variant == variant for c in witness_cases(spec, f)]
    if not found:
        return None
    register = register_from_data(register_data(spec))  # the spec's own, not the stored file
    label = f"variants/{variant}/{CASE_FILE}"
    cases = [_with_derived(_settled(c, label, register), label, register) for c in found]
    data = {"description": f"Witnesses that separate the readings of {variant}, found "
                           "by `baloot explore` (regenerate with it; do not edit).",
            "cases": cases}
    errors = schema_errors("case-file", data)
    if errors:
        raise ValueError(f"explore made cases the schema rejects: {errors[:3]}")
    return json.dumps(data, indent=1) + "\n"


def explored_case_texts(spec: m.Spec, findings: list[Finding], folder: Path
                        ) -> dict[Path, str | None]:
    """What each explored variant's case file under `folder` must hold (None: the file
    must not exist), for the variants the findings explored."""
    return {folder / variant / CASE_FILE: case_file_text(spec, variant, findings)
            for variant in sorted({f.variant for f in findings})}
