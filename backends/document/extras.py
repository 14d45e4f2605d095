"""What other parts of the project store about the spec: the explorer's witnesses of
each ambiguity and the outcomes of the invariants, shown by the rules document.

Both are read when present and never computed here: without them the document
says how to produce them. A file that is there but not in its format is an
error (`StoredFileError`). The formats (JSON, format 1):

    explorer/results/witnesses.json, written by `baloot explore`:
      {"format": 1, "command": ..., "variants": [{"id": "A1", "name": ..., "pairs": [
        {"readings": ["natural", "rank_order"],
         "verdict": "witness" | "proven-equal" | "not-found",
         "symbolic": null | {"rule", "inputs" (text), "values": {reading: text}},
         "engine": null | {"dealer", "deck", "actions", "differs": "legal" | "state" |
                           "result", "under": {reading: text}, "cases": [case ID]}}]}]}
      (the variants' other fields, their clauses and readings, come from the spec here)

    proofs/results/invariants.json, written by `baloot verify --write`:
      {"format": 1, "command": ..., "outcomes": [{"check", "title", "contract",
        "readings", "status", "method", "detail"}, ...]}
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...grammar import model as m
from . import blocks as d
from .cases import case_link
from .stored import Fields, StoredFileError, read_stored

WITNESSES = Path("explorer/results/witnesses.json")
INVARIANTS = Path("proofs/results/invariants.json")
WITNESS_CASES = Path("conformance/cases/variants")
EXPLORE = "baloot explore"
VERIFY = "baloot verify --write"

VERDICTS = {"witness": "witness found", "proven-equal": "proven equal",
            "not-found": "no witness found"}


def project_root() -> Path:
    """The project folder: the one holding `grammar/` (this package is backends/document/)."""
    return Path(__file__).resolve().parents[2]


def rel_link(path: Path, out_dir: Path) -> str:
    """A link from the document's folder to a project file."""
    return Path(os.path.relpath(path.resolve(), out_dir.resolve())).as_posix()



# --------------------------------------------------------------- witnesses --


@dataclass(frozen=True)
class Symbolic:
    """A z3 witness: a rule's inputs on which the readings give different values."""

    rule: str
    inputs: str  # human text of the inputs
    values: dict[str, str]  # reading -> the rule's value under it


@dataclass(frozen=True)
class EngineWitness:
    """An engine witness: a deal and actions after which the readings differ."""

    dealer: int
    deck: tuple[str, ...]
    actions: tuple[str, ...]
    differs: str  # "legal", "state" or "result"
    under: dict[str, str]  # reading -> what the engine shows under it
    cases: tuple[str, ...]  # the conformance cases written from it


@dataclass(frozen=True)
class Pair:
    readings: tuple[str, ...]
    verdict: str  # "witness", "proven-equal" or "not-found"
    symbolic: Symbolic | None
    engine: EngineWitness | None


def _texts(f: Fields, key: str) -> dict[str, str]:
    value = f.obj(key)
    return {str(k): v if isinstance(v, str) else json.dumps(v) for k, v in value.items()}


def _pair(f: Fields) -> Pair:
    verdict = f.text("verdict")
    if verdict not in VERDICTS:
        raise StoredFileError(f"{f.where}: unknown verdict {verdict!r} "
                              f"(expected one of {', '.join(VERDICTS)})")
    sym = f.optional("symbolic")
    eng = f.optional("engine")
    return Pair(
        tuple(f.texts("readings")), verdict,
        Symbolic(sym.text("rule"), sym.text("inputs"), _texts(sym, "values"))
        if sym is not None else None,
        EngineWitness(eng.number("dealer"), tuple(eng.texts("deck")),
                      tuple(eng.texts("actions")), eng.text("differs"), _texts(eng, "under"),
                      tuple(eng.texts("cases")))
        if eng is not None else None)


def read_witnesses(path: Path) -> dict[str, tuple[Pair, ...]]:
    """Per variant ID, the pairs of readings and what the explorer found for each."""
    top = Fields(read_stored(path, EXPLORE), str(path))
    found: dict[str, tuple[Pair, ...]] = {}
    for variant in top.each("variants"):
        found[variant.text("id")] = tuple(_pair(p) for p in variant.each("pairs"))
    return found


def case_files(folder: Path) -> dict[str, Path]:
    """Every case ID of the case files under `folder`, and its file."""
    found: dict[str, Path] = {}
    for path in sorted(folder.rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            raise StoredFileError(f"{path}: not a readable case file ({err}); "
                                  "run `baloot conform lint`") from err
        cases = data.get("cases", []) if isinstance(data, dict) else []
        for case in cases:
            if isinstance(case, dict) and isinstance(case.get("id"), str):
                found.setdefault(case["id"], path)
    return found


def _under(readings: Iterable[str], values: dict[str, str]) -> list[d.Inline]:
    """`v1` under `r1` and `v2` under `r2` ..."""
    out: list[d.Inline] = []
    for i, reading in enumerate(readings):
        if i:
            out.append(d.Str(" and "))
        out.extend([d.Code(values.get(reading, "?")), d.Str(" under "), d.Code(reading)])
    return out


def _case_ref(case_id: str, cases: dict[str, Path], indexed: frozenset[str],
              out_dir: Path) -> d.Inline:
    """A witness case: its row in the document's index of cases, else its file."""
    if case_id in indexed:
        return case_link(case_id)
    if case_id in cases:
        return d.Link(case_id, rel_link(cases[case_id], out_dir), code=True)
    return d.Code(case_id)


def pair_blocks(pair: Pair, cases: dict[str, Path], out_dir: Path,
                indexed: frozenset[str] = frozenset()) -> list[d.Block]:
    """One pair of readings: the verdict, then the symbolic and engine witnesses; a case
    in `indexed` links to its row in the document's index of cases."""
    title: list[d.Inline] = list(d.joined([d.Code(r) for r in pair.readings], " / "))
    title.extend([d.Str(": "), d.Strong(VERDICTS[pair.verdict])])
    items: list[d.Inlines] = []
    if pair.symbolic is not None:
        s = pair.symbolic
        items.append((d.Str("symbolic: "), d.Code(f"{s.rule}({s.inputs})"), d.Str(" gives "),
                      *_under(pair.readings, s.values), d.Str(".")))
    if pair.engine is not None:
        e = pair.engine
        item: list[d.Inline] = [
            d.Str(f"engine: dealer {e.dealer}, deck "), d.Code(" ".join(e.deck)),
            d.Str(f", after {len(e.actions)} action(s) ("), d.Code(" / ".join(e.actions)),
            d.Str(f"), the {e.differs} differs: ")]
        for i, reading in enumerate(pair.readings):
            item.extend([d.Str(("; " if i else "") + "under "), d.Code(reading),
                         d.Str(": " + e.under.get(reading, "?"))])
        if e.cases:
            item.append(d.Str("; cases "))
            item.extend(d.joined([_case_ref(c, cases, indexed, out_dir) for c in e.cases]))
        item.append(d.Str("."))
        items.append(tuple(item))
    blocks: list[d.Block] = [d.Para(tuple(title))]
    if items:
        blocks.append(d.BulletList(tuple(items)))
    return blocks


def witness_blocks(spec: m.Spec, root: Path, out_dir: Path,
                   indexed: frozenset[str] = frozenset()
                   ) -> tuple[dict[str, tuple[d.Block, ...]], tuple[d.Block, ...]]:
    """Per variant ID, its witnesses; and a paragraph for the head of the register. The
    witness cases in `indexed` (the document's index of cases) link to their rows."""
    path = root / WITNESSES
    if not path.is_file():
        return {}, (d.Note(d.inlines(
            f"No witnesses are stored yet: `{EXPLORE}` finds, for each ambiguity, a "
            f"situation where its readings differ, and writes {WITNESSES.as_posix()} and "
            f"witness cases under {WITNESS_CASES.as_posix()}/; render again afterwards to "
            "include them.")),)
    found = read_witnesses(path)
    cases = case_files(root / WITNESS_CASES) if (root / WITNESS_CASES).is_dir() else {}
    per: dict[str, tuple[d.Block, ...]] = {}
    for variant in spec.variants:
        pairs = found.get(variant.id, ())
        if pairs:
            blocks = [b for p in pairs for b in pair_blocks(p, cases, out_dir, indexed)]
            per[variant.id] = (d.Heading(4, d.inlines("Witnesses")), *blocks)
    head = (d.Para((d.Str("Each ambiguity's witnesses are those "), d.Code(EXPLORE),
                    d.Str(" found and stored in "),
                    d.Link(WITNESSES.as_posix(), rel_link(path, out_dir), code=True),
                    d.Str(": for each pair of readings, the smallest input on which a rule "
                          "gives different values (symbolic, z3), and a deal and actions "
                          "after which the engine's legal actions, state or result differ "
                          "(engine), with the conformance cases written from it."))),)
    return per, head


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


ROW_FIELDS = ("check", "title", "contract", "readings", "status", "method", "detail")


def _row(item: Any, where: str) -> ProofRow:
    f = Fields(item, where)
    return ProofRow(*(f.text(k) for k in ROW_FIELDS))


def read_proofs(path: Path) -> list[ProofRow]:
    """The outcomes stored by `baloot verify --write` ({"format": 1, "outcomes": [...]}),
    or the list that `baloot verify --json FILE` writes."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise StoredFileError(f"{path}: cannot read it ({err}); run `{VERIFY}`") from err
    if isinstance(data, list):
        return [_row(item, f"{path}[{i}]") for i, item in enumerate(data)]
    top = Fields(read_stored(path, VERIFY), str(path))
    return [_row(item, f"{path}.outcomes[{i}]") for i, item in enumerate(top.items("outcomes"))]


def stored_proofs(root: Path) -> list[ProofRow] | None:
    """The stored outcomes under the project folder `root`, or None when there are none."""
    path = root / INVARIANTS
    return read_proofs(path) if path.is_file() else None


def proofs_section(rows: Iterable[ProofRow] | None, why_missing: str | None) -> d.Section:
    how = d.Para(d.inlines(
        "To produce these results: `baloot verify` proves the spec's invariants with z3 "
        "(and explores the generated engine where a proof would need the whole state "
        f"machine); `{VERIFY}` stores its outcomes in {INVARIANTS.as_posix()}, which this "
        "section shows, and `baloot spec render --proofs FILE` shows another file of "
        "outcomes (one `baloot verify --json FILE` wrote) instead."))
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
