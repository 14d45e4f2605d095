"""A shrunk disagreement as a conformance case, in the pack's format.

The expected values are the reference engine's at the point of the
disagreement. The case pins every reading of the trial (the profile's, with
the trial's overrides), so it means the same under any run profile. The
`working` lines say where the case came from, the hands dealt, and that the
expected values must be checked against the rules before the case joins the
pack.
"""

from __future__ import annotations

import re
from typing import Any

from ..clauses import known_clause_ids
from ..deal_layout import first_hands
from ..variants import load_register
from .driver import Replay, protocol_result


def _readings(profile: str, overrides: dict[str, str]) -> dict[str, str]:
    readings = load_register().readings_of(profile)
    readings.update(overrides)
    return dict(sorted(readings.items()))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "case"


def case_from_replay(replay: Replay, case_id: str, engine_label: str = "") -> dict[str, Any]:
    """The case that reproduces the replay's disagreement."""
    d = replay.disagreement
    assert d is not None
    trial = replay.trial
    first = replay.rounds[0]
    working = [
        f"Found by `baloot fuzz` ({trial.label or 'a trial'})"
        + (f" against {engine_label}" if engine_label else "")
        + f", shrunk to {len(replay.rounds)} round(s) and {replay.actions} action(s): {d.detail}.",
        "First hands (dealer "
        + str(first.dealer)
        + "): "
        + "; ".join(
            f"seat {s} {' '.join(h)}" for s, h in enumerate(first_hands(first.deck, first.dealer))
        )
        + f"; face-up {first.deck[20]}.",
        "The expected values are the reference engine's; work them out from the rules "
        "before adding the case to the pack.",
    ]
    known = known_clause_ids()
    clauses = [c for c in dict.fromkeys(d.clauses) if c in known] or ["GAME.1"]
    case: dict[str, Any] = {
        "id": case_id,
        "kind": "legal",
        "title": f"fuzz: {d.detail}"[:160],
        "clauses": clauses,
        "requires": _readings(trial.profile, trial.overrides),
        "working": working,
        "setup": {"dealer": first.dealer, "deck": list(first.deck)},
        "actions": list(first.actions),
        "expect": {},
    }
    if trial.totals is not None:
        case["setup"]["totals"] = list(trial.totals)
    if len(replay.rounds) > 1:
        case["kind"] = "game"
        case["then"] = [
            {"deck": list(r.deck), "actions": list(r.actions)} for r in replay.rounds[1:]
        ]
        finished = [r.result for r in replay.rounds if r.result is not None]
        last = d.kind == "result" or not finished
        result = replay.rounds[-1].result if last else finished[-1]
        case["expect"] = {"result": protocol_result(result) if result else {}}
        if d.kind == "state" and isinstance(d.expected, dict):
            case["expect"]["state"] = d.expected
        elif d.kind != "result":
            working.append(
                f"The {d.kind} disagreement of the last round cannot be checked by a game case: "
                "it checks the result and the state only. Shrinking could not bring it to one "
                "round."
            )
        return case
    if d.kind == "result":
        case["kind"] = "round"
        result = replay.rounds[-1].result
        case["expect"] = {"result": protocol_result(result) if result else d.expected}
    elif d.kind in ("accepted_illegal", "changed_after_refusal"):
        case["kind"] = "illegal"
        case["expect"] = {"action": d.action}
    elif d.kind == "state":
        legal = d.reference_legal or {}
        case["expect"] = {
            "player": legal.get("player"),
            "actions": list(legal.get("actions") or []),
            "state": d.expected,
        }
    elif d.kind == "refused_legal":
        case["expect"] = {"actions": list((replay.legal or {}).get("actions") or [])}
    else:  # legal, engine_error
        legal = d.expected if d.kind == "legal" else (replay.legal or {})
        case["expect"] = {"actions": list(legal.get("actions") or [])}
        if legal.get("player") is not None:
            case["expect"]["player"] = legal["player"]
    if case["kind"] == "legal" and case["expect"].get("player") is None:
        case["expect"].pop("player", None)
    return case


def case_id_for(replay: Replay, prefix: str = "fuzz") -> str:
    d = replay.disagreement
    assert d is not None
    return f"{prefix}.{d.kind.replace('_', '-')}.{_slug(d.detail)}"
