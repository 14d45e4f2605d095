"""`baloot explore`: for each variant and each pair of its readings, a concrete
situation where the two readings part, or a proof that none exists.

This module runs the searches and writes what they find:

- `explore_symbolic.py`: z3 arguments on which a rule that consults the
  variant gives two values (or a proof that the readings are equal);
- `explore_engine.py`: a seeded, bounded search of the generated engine for a
  deal and actions after which the two readings differ (`protocol_view.py`
  shows the engine's games in protocol fields);
- `witness_cases.py`: each engine witness as two conformance cases;
- `witnesses_file.py`: everything found, as `explorer/results/witnesses.json`;
- `ambiguities_markdown.py`: `conformance/ambiguities.md`, from that data.

Each pair is searched in a fresh process (`fresh_process.py`), bounded by z3's
resource count and by a number of seeded deals, never by time: a run writes
the same files on every machine, and `--check` compares them with a fresh run.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..grammar import model as m
from ..proofs.fresh_process import each_in_fresh_process
from ..proofs.proof_outcome import format_example
from . import witnesses_file
from .ambiguities_markdown import ambiguities_markdown
from .explore_engine import (
    DEFAULT_BOUND,
    SearchBound,
    engine_search,
    relevant_requires,
)
from .explore_findings import Finding, describe_outcome, short
from .explore_symbolic import same_branch, symbolic_search
from .witness_cases import explored_case_texts

PROJECT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class StoredPaths:
    """Where a run's files go."""

    witnesses: Path = field(
        default_factory=lambda: witnesses_file.results_folder() / "witnesses.json")
    cases: Path = PROJECT / "conformance" / "cases" / "variants"
    notes: Path = PROJECT / "conformance" / "ambiguities.md"


@dataclass(frozen=True)
class PairSearch:
    """One pair of readings to search, with everything the search reads."""

    spec: m.Spec
    variant: str
    variant_id: str
    a: str
    b: str
    base_profile: str
    seed: int
    bound: SearchBound


def search_pair(task: PairSearch) -> Finding:
    """Both searches for one pair of readings (run in a fresh process)."""
    spec = task.spec
    base = spec.profile(task.base_profile).readings()
    f = Finding(task.variant, task.variant_id, task.a, task.b)
    f.same_branch = same_branch(spec, task.variant, task.a, task.b)
    f.symbolic, f.symbolic_note = symbolic_search(spec, task.variant, task.a, task.b, base)
    if f.same_branch:
        f.engine_note = "not searched: the spec never tells the two readings apart"
        return f
    f.engine, f.engine_note = engine_search(task.variant, task.a, task.b, task.base_profile,
                                            task.seed, task.bound)
    if f.engine is not None:
        w = f.engine
        w.requires_a = relevant_requires(spec, task.variant, task.a, task.base_profile, w,
                                         w.outcome_a)
        w.requires_b = relevant_requires(spec, task.variant, task.b, task.base_profile, w,
                                         w.outcome_b)
    return f


def pair_searches(spec: m.Spec, variants: list[str] | None = None, seed: int = 1,
                  bound: SearchBound = DEFAULT_BOUND,
                  base_profile: str | None = None) -> list[PairSearch]:
    """Every pair of readings of the variants (all of them by default), in spec order."""
    profile = base_profile or spec.profiles[0].name
    return [PairSearch(spec, v.name, v.id, a, b, profile, seed, bound)
            for v in spec.variants if not variants or v.name in variants
            for a, b in itertools.combinations(v.reading_names, 2)]


def explore(spec: m.Spec, variants: list[str] | None = None, seed: int = 1,
            bound: SearchBound = DEFAULT_BOUND, jobs: int = 2, console: Console | None = None,
            base_profile: str | None = None) -> list[Finding]:
    """The findings for every pair of readings of the variants (all by default)."""
    findings: list[Finding] = []
    tasks = pair_searches(spec, variants, seed, bound, base_profile)
    for f in each_in_fresh_process(search_pair, tasks, jobs):
        if console is not None:
            console.print(f"  {f.variant_id} {f.variant}: {f.a} / {f.b}: {f.verdict}",
                          highlight=False)
        findings.append(f)
    return findings


# ------------------------------------------------------------------ files --


def stored_texts(spec: m.Spec, findings: list[Finding], paths: StoredPaths
                 ) -> dict[Path, str | None]:
    """What each file a run touches must hold (None: the file must not exist): the
    witnesses data (the explored variants replaced in the stored data), each explored
    variant's witness cases, and the notes written from the whole data."""
    data = witnesses_file.witnesses_data(spec, findings, witnesses_file.load(paths.witnesses))
    texts: dict[Path, str | None] = {paths.witnesses: witnesses_file.dumps(data)}
    texts.update(explored_case_texts(spec, findings, paths.cases))
    texts[paths.notes] = ambiguities_markdown(data)
    return texts


def write_texts(texts: dict[Path, str | None]) -> list[Path]:
    """Write (or remove) the files; the paths changed."""
    changed: list[Path] = []
    for path, text in texts.items():
        if text is None:
            if path.exists():
                path.unlink()
                changed.append(path)
            continue
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


def stale_files(texts: dict[Path, str | None]) -> Iterator[str]:
    """Each file that differs from what a fresh run writes, and how."""
    for path, text in texts.items():
        exists = path.exists()
        if text is None and exists:
            yield f"{path}: a fresh run has no engine witness for it; it should not exist"
        elif text is not None and not exists:
            yield f"{path}: missing"
        elif text is not None and path.read_text(encoding="utf-8") != text:
            yield f"{path}: differs from a fresh run"


# ------------------------------------------------------------------ table --


def print_findings(console: Console, findings: list[Finding]) -> None:
    table = Table(title="Variants: where two readings part", expand=True, show_lines=True)
    for col in ("variant", "readings", "verdict", "symbolic witness (z3)", "engine witness",
                "outcome under the first", "outcome under the second"):
        table.add_column(col, ratio=2 if "outcome" in col or "witness" in col else 1)
    for f in findings:
        sym = "; ".join(f"{s.rule}({format_example(s.args)}): {short(s.value_a, 30)} vs "
                        f"{short(s.value_b, 30)}" for s in f.symbolic[:2]) or \
            (f.symbolic_note or "-")
        if f.engine is not None:
            w = f.engine
            eng = f"{w.kind} after {len(w.actions)} action(s), dealer {w.dealer}" + \
                (f", totals {w.totals}" if w.totals else "")
            oa, ob = describe_outcome(w, "a"), describe_outcome(w, "b")
        else:
            eng, oa, ob = f.engine_note or "-", "", ""
        style = {"witness": "green", "proven-equal": "cyan"}.get(f.verdict, "yellow")
        table.add_row(f"{f.variant_id} {f.variant}", f"{f.a}\n{f.b}",
                      f"[{style}]{f.verdict}[/]", sym, eng, oa, ob)
    console.print(table)
