"""What other parts of the project produce about the spec: the explorer's witnesses
of each ambiguity, and the z3 results of `baloot verify`.

Both are read when present and never invented: without them the document
says how to produce them.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baloot.grammar import model as m
from baloot.grammar.render import blocks as d

AMBIGUITIES = Path("conformance/ambiguities.md")
WITNESS_CASES = Path("conformance/cases/variants")


def project_root() -> Path:
    """The project folder: the one holding `grammar/` (this package is grammar/render/)."""
    return Path(__file__).resolve().parents[2]


def _rel(path: Path, out_dir: Path) -> str:
    """A link from the document's folder to a project file."""
    return Path(os.path.relpath(path.resolve(), out_dir.resolve())).as_posix()


# --------------------------------------------------------------- witnesses --


def _notes_by_variant(text: str, spec: m.Spec) -> dict[str, str]:
    """The part of conformance/ambiguities.md about each ambiguity, found by its heading."""
    found: dict[str, str] = {}
    lines = text.splitlines()
    starts: list[tuple[int, int, str]] = []  # line, heading level, variant ID
    for i, line in enumerate(lines):
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        if not heading:
            continue
        for v in spec.variants:
            if re.search(rf"\b{re.escape(v.id)}\b", heading.group(2)):
                starts.append((i, len(heading.group(1)), v.id))
                break
    for k, (start, level, vid) in enumerate(starts):
        end = len(lines)
        for j in range(start + 1, len(lines)):
            h = re.match(r"^(#{1,6})\s", lines[j])
            if h and len(h.group(1)) <= level:
                end = j
                break
        if k + 1 < len(starts):
            end = min(end, starts[k + 1][0])
        found.setdefault(vid, "\n".join(lines[start + 1:end]).strip())
    if not starts:  # a table with one row per ambiguity
        for line in lines:
            if line.startswith("|"):
                for v in spec.variants:
                    if re.search(rf"\|\s*{re.escape(v.id)}\b", line):
                        found.setdefault(v.id, line.strip())
    return found


@dataclass(frozen=True)
class Witness:
    case_id: str
    title: str
    requires: dict[str, str]
    file: Path


def _witness_cases(folder: Path) -> list[Witness]:
    found = []
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        cases = data.get("cases", []) if isinstance(data, dict) else []
        for case in cases:
            if isinstance(case, dict):
                found.append(Witness(str(case.get("id", "")), str(case.get("title", "")),
                                     {str(k): str(v) for k, v in
                                      dict(case.get("requires", {})).items()}, path))
    return found


def witness_blocks(spec: m.Spec, root: Path, out_dir: Path
                   ) -> tuple[dict[str, tuple[d.Block, ...]], tuple[d.Block, ...]]:
    """Per variant ID, its witness material; and a note for the head of the register."""
    notes_path = root / AMBIGUITIES
    cases_dir = root / WITNESS_CASES
    notes = _notes_by_variant(notes_path.read_text(encoding="utf-8"), spec) \
        if notes_path.is_file() else {}
    cases = _witness_cases(cases_dir) if cases_dir.is_dir() else []
    per: dict[str, tuple[d.Block, ...]] = {}
    for v in spec.variants:
        blocks: list[d.Block] = []
        mine = [c for c in cases if v.name in c.requires or v.id in c.requires
                or re.search(rf"(^|[^a-z0-9]){v.id.lower()}([^0-9]|$)", c.case_id)]
        if notes.get(v.id):
            blocks.append(d.Details(f"The explorer's minimal witness ({AMBIGUITIES.as_posix()})",
                                    (d.CodeBlock(notes[v.id], "markdown"),)))
        if mine:
            blocks.append(d.Para((d.Em("witness cases: "), *d.joined([
                (d.Link(c.case_id, _rel(c.file, out_dir), code=True),
                 d.Str(f" ({c.title}; " + ", ".join(f"{k} = {r}" for k, r in
                                                    c.requires.items()) + ")"))
                for c in mine], "; "))))
        if blocks:
            per[v.id] = (d.Heading(4, d.inlines("Witness")), *blocks)
    head: list[d.Block] = []
    if notes_path.is_file():
        head.append(d.Para((d.Str("The explorer's notes: "),
                            d.Link(AMBIGUITIES.as_posix(), _rel(notes_path, out_dir), code=True),
                            d.Str("."))))
    if not notes and not cases:
        head.append(d.Note(d.inlines(
            "No witnesses yet: `baloot explore` finds, for each ambiguity, a situation where "
            f"its readings differ, and writes {AMBIGUITIES.as_posix()} and witness cases "
            f"under {WITNESS_CASES.as_posix()}/; render again afterwards to include them.")))
    return per, tuple(head)


# ------------------------------------------------------------------ proofs --


@dataclass(frozen=True)
class ProofRow:
    check: str
    title: str
    contract: str
    readings: str
    status: str
    method: str
    detail: str


def _row(item: Any) -> ProofRow:
    get: Callable[[str], Any] = (item.get if isinstance(item, dict)
                                 else lambda k: getattr(item, k, ""))
    return ProofRow(*(str(get(k) or "") for k in
                      ("check", "title", "contract", "readings", "status", "method", "detail")))


def run_proofs(spec: m.Spec) -> list[ProofRow] | str:
    """The z3 checks of `baloot verify` (without the engine explorations), or why not."""
    try:
        verify = importlib.import_module("baloot.proofs.verify")
    except ImportError as err:
        return f"the proofs module is not available ({err})"
    all_checks = getattr(verify, "all_checks", None)
    if all_checks is None:
        return "baloot.proofs.verify offers no all_checks()"
    rows: list[ProofRow] = []
    try:
        for _name, check in all_checks(engine=False, budget=0.0, seed=1):
            rows.extend(_row(o) for o in check(spec))
    except Exception as err:  # another part of the project, perhaps mid-change: say so
        return f"running the z3 checks failed ({type(err).__name__}: {err})"
    return rows


def read_proofs(path: Path) -> list[ProofRow]:
    """Outcomes written by `baloot verify --json FILE`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [_row(item) for item in data]


def proofs_section(rows: Iterable[ProofRow] | None, why_missing: str | None) -> d.Section:
    how = d.Para(d.inlines(
        "To produce these results: `baloot verify` proves the spec's invariants with z3 "
        "(and explores the generated engine where a proof would need the whole state "
        "machine); `baloot verify --json proofs.json` writes them, and `baloot spec render "
        "--proofs proofs.json` puts that file's results here. By default the rendering runs "
        "the z3 checks itself, without the engine explorations."))
    if rows is None:
        return d.Section("proofs", "Proofs (z3)", (
            d.Note(d.inlines("No proof results are included in this rendering"
                             + (f": {why_missing}." if why_missing else "."))),
            how))
    listed = list(rows)
    counts: dict[str, int] = {}
    for r in listed:
        counts[r.status] = counts.get(r.status, 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    table_rows = tuple(
        ((d.Code(r.check),), d.inlines(r.title), d.inlines(r.contract), d.inlines(r.readings),
         (d.Strong(r.status),), d.inlines(r.method), d.inlines(r.detail)) for r in listed)
    return d.Section("proofs", "Proofs (z3)", (
        d.Para(d.inlines(f"{len(listed)} outcome(s): {summary or 'none'}. Times are left out "
                         "so that the document is the same on every run.")),
        d.Table((d.inlines("check"), d.inlines("invariant"), d.inlines("contract"),
                 d.inlines("readings"), d.inlines("result"), d.inlines("method"),
                 d.inlines("detail")), table_rows),
        how))
