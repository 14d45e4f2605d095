"""`explorer/results/witnesses.json`: what `baloot explore` found, as data.

    {"format": 1, "command": "baloot explore", "variants": [
      {"id", "name", "title", "clauses": [{"id", "text"}],
       "readings": [{"name", "text", "source", "default"}],
       "pairs": [{"readings": [a, b], "verdict": "witness" | "proven-equal" | "not-found",
                  "symbolic": null | {"rule", "inputs", "values": {a: text, b: text}},
                  "engine": null | {"dealer", "totals", "deck", "actions", "redeal",
                                    "differs": "legal" | "state" | "result",
                                    "under": {a: text, b: text}, "cases": [id, id]},
                  "more_symbolic": [further symbolic witnesses, one per rule],
                  "same_branch": bool, "notes": {"z3": text, "engine": text}}]}]}

`symbolic` is the first rule's witness, `more_symbolic` the other rules'; `redeal`
is the second deal when the readings part after everyone passed twice (else
null). The file holds no timings: a rerun writes it byte for byte again. The
ambiguity notes (`ambiguities_markdown.py`) and the rules document read it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..grammar import model as m
from ..proofs.proof_outcome import format_example
from .explore_findings import Finding, SymbolicWitness, case_id, describe_outcome

FORMAT = 1
COMMAND = "baloot explore"
DIFFERS = {"legal": "legal", "state": "state", "round": "result", "redeal": "state"}


def results_folder() -> Path:
    """`explorer/results/`, beside this module."""
    return Path(__file__).resolve().parent / "results"


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def _symbolic(f: Finding, s: SymbolicWitness) -> dict[str, Any]:
    return {"rule": s.rule, "inputs": format_example(s.args),
            "values": {f.a: _text(s.value_a), f.b: _text(s.value_b)}}


def pair_data(f: Finding) -> dict[str, Any]:
    """One pair of readings: its verdict and witnesses."""
    engine: dict[str, Any] | None = None
    w = f.engine
    if w is not None:
        engine = {"dealer": w.dealer, "totals": w.totals, "deck": list(w.deck),
                  "actions": list(w.actions), "redeal": w.redeal,
                  "differs": DIFFERS[w.kind],
                  "under": {f.a: describe_outcome(w, "a"), f.b: describe_outcome(w, "b")},
                  "cases": [case_id(f.variant, f.a, f.b, r) for r in (f.a, f.b)]}
    return {"readings": [f.a, f.b], "verdict": f.verdict,
            "symbolic": _symbolic(f, f.symbolic[0]) if f.symbolic else None,
            "more_symbolic": [_symbolic(f, s) for s in f.symbolic[1:]],
            "engine": engine, "same_branch": f.same_branch,
            "notes": {"z3": f.symbolic_note, "engine": f.engine_note}}


def variant_data(spec: m.Spec, v: m.Variant, findings: list[Finding]) -> dict[str, Any]:
    """A variant as the spec has it, with the pairs of `findings` (none: not explored)."""
    return {"id": v.id, "name": v.name, "title": v.doc,
            "clauses": [{"id": c.clause, "text": spec.clause(c.clause).text} for c in v.cites],
            "readings": [{"name": r.name, "text": r.text, "source": r.source,
                          "default": r.name == v.default} for r in v.readings],
            "pairs": [pair_data(f) for f in findings if f.variant == v.name]}


def witnesses_data(spec: m.Spec, findings: list[Finding],
                   stored: dict[str, Any] | None = None) -> dict[str, Any]:
    """The file's data: the explored variants from `findings`, every other variant of
    the spec as `stored` has it (a run over some variants keeps the others)."""
    explored = {f.variant for f in findings}
    kept = {v["name"]: v for v in (stored or {}).get("variants", [])}
    variants = [variant_data(spec, v, findings) if v.name in explored or v.name not in kept
                else kept[v.name] for v in spec.variants]
    return {"format": FORMAT, "command": COMMAND, "variants": variants}


def dumps(data: dict[str, Any]) -> str:
    """The stored form: UTF-8 JSON, indent 1, sorted keys, a trailing newline."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load(path: Path) -> dict[str, Any] | None:
    """The stored data, or None when the file does not exist."""
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: format {data.get('format')!r}, expected {FORMAT}")
    return data
