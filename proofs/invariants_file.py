"""`proofs/results/invariants.json`: the outcomes of `baloot verify`, as data.

    {"format": 1, "command": "baloot verify --write",
     "outcomes": [{"check", "title", "contract", "readings", "status", "method",
                   "detail"}, ...]}

The rows of a whole run in report order, without timings or counterexample
objects (the `detail` text says what was found): a rerun writes the file byte
for byte again. The rules document reads it; `baloot verify --check` compares
it with a fresh run.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .proof_outcome import ProofOutcome

FORMAT = 1
COMMAND = "baloot verify --write"
FIELDS = ("check", "title", "contract", "readings", "status", "method", "detail")


def default_path() -> Path:
    return Path(__file__).resolve().parent / "results" / "invariants.json"


def row(o: ProofOutcome) -> dict[str, str]:
    return {k: str(getattr(o, k)) for k in FIELDS}


def dumps(outcomes: Iterable[ProofOutcome]) -> str:
    """The stored form: UTF-8 JSON, indent 1, sorted keys, a trailing newline."""
    data = {"format": FORMAT, "command": COMMAND, "outcomes": [row(o) for o in outcomes]}
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_rows(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not an outcomes file of format {FORMAT}")
    rows: list[dict[str, Any]] = data["outcomes"]
    return rows


def _key(r: dict[str, Any]) -> tuple[str, str, str]:
    return str(r["check"]), str(r["contract"]), str(r["readings"])


def stale_rows(path: Path, outcomes: list[ProofOutcome], whole: bool) -> Iterator[str]:
    """How the stored rows differ from a fresh run's: for each fresh row, the stored row
    of the same check, contract and readings; with `whole` (every check ran), also the
    order and any stored row the run no longer gives."""
    if not path.exists():
        yield f"{path}: missing; run `{COMMAND}`"
        return
    stored = load_rows(path)
    by_key = {_key(r): r for r in stored}
    fresh = [row(o) for o in outcomes if o.status != "skipped"]
    for r in fresh:
        old = by_key.get(_key(r))
        where = f"{r['check']} ({r['contract']}; {r['readings']})"
        if old is None:
            yield f"{where}: not in {path.name}"
        elif old != r:
            diff = [f"{k} {old.get(k)!r} -> {r[k]!r}" for k in FIELDS if old.get(k) != r[k]]
            yield f"{where}: {'; '.join(diff)}"
    if whole:
        keys = {_key(r) for r in fresh}
        for r in stored:
            if _key(r) not in keys:
                yield f"{r['check']} ({r['contract']}; {r['readings']}): stored, no longer found"
        if [_key(r) for r in stored if _key(r) in keys] != \
                [_key(r) for r in fresh if _key(r) in by_key]:
            yield f"{path.name}: the rows are in another order"
