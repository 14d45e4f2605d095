"""The spec-wide mutation report: kill rates by rule, clause, reading and operator,
and every survivor with how it was excused, killed by a synthesised witness, or
left alive.

The report is data first (`SpecReport`, written as JSON by `to_json`) so that
shards run on several machines merge exactly (`merge`): each shard holds its
mutants' verdicts, and the merged report is the same as one run of them all.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...grammar import model as m
from .operators import SpecMutant
from .spec_run import KILLED, SAME_CODE, SpecRun

FORMAT = "baloot-spec-mutants/1"
ANY_READING = "(every reading)"


class MergeError(ValueError):
    """Shards that cannot be merged: another spec, other profiles, or a mutant twice."""


@dataclass
class MutantRow:
    """One mutant: what it is, what the pack did to it under each profile, and what was
    found of a survivor (`excused`: proven equivalent; `witness`: a game where it differs;
    `probably_equivalent`: none found in the games played)."""

    id: str
    index: int  # its place among every mutant of the spec
    operator: str
    kind: str
    target: str
    clauses: list[str]
    readings: list[str]  # `variant=reading|reading` of the choose branches around it
    place: str
    description: str
    # profile -> {status, killed_by, at_check, cases_run, screened}
    verdicts: dict[str, dict[str, Any]]
    excused: dict[str, str] | None = None  # {method, detail}
    witness: str | None = None  # the case written from the witness, or what it showed
    probably_equivalent: bool = False

    def killed(self, profile: str) -> bool:
        return self.verdicts.get(profile, {}).get("status") == KILLED

    def kills(self, profile: str) -> int:
        return len(self.verdicts.get(profile, {}).get("killed_by", []))

    def counted(self) -> bool:
        """Whether it counts in the kill rate: not proven equivalent."""
        return self.excused is None


@dataclass
class SpecReport:
    spec_digest: str
    profiles: list[str]
    cases: int
    kills_wanted: int
    rows: list[MutantRow]
    shards: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def kill_rate(self, profile: str, rows: Iterable[MutantRow] | None = None) -> float:
        counted = [r for r in (self.rows if rows is None else rows) if r.counted()]
        return sum(r.killed(profile) for r in counted) / max(1, len(counted))

    def twice_rate(self, profile: str) -> float:
        """Among the counted mutants, the share killed by two cases or more."""
        counted = [r for r in self.rows if r.counted()]
        return sum(r.kills(profile) >= 2 for r in counted) / max(1, len(counted))

    def enough_kills(self) -> int:
        """The cases a mutant must be killed by to count towards the target: those the run
        stopped at (`--kills`), or two when it ran every case."""
        return self.kills_wanted if self.kills_wanted > 0 else 2

    def target_rate(self, profile: str) -> float:
        """Among the counted mutants, the share killed by `enough_kills` cases or more."""
        counted = [r for r in self.rows if r.counted()]
        return sum(r.kills(profile) >= self.enough_kills() for r in counted) / max(1, len(counted))

    def survivors(self, profile: str) -> list[MutantRow]:
        return [r for r in self.rows if r.counted() and not r.killed(profile)]

    def groups(self, key: str) -> dict[str, list[MutantRow]]:
        """The rows by operator, rule (target), clause or reading."""
        out: dict[str, list[MutantRow]] = defaultdict(list)
        for row in self.rows:
            if key == "operator":
                names = [row.operator]
            elif key == "rule":
                names = [row.target]
            elif key == "clause":
                names = row.clauses or ["(none)"]
            else:
                names = row.readings or [ANY_READING]
            for name in names:
                out[name].append(row)
        return dict(sorted(out.items()))


def spec_digest(spec: m.Spec) -> str:
    digest = hashlib.sha256()
    for file, text in spec.sources:
        digest.update(file.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()[:16]


def _readings(mutant: SpecMutant) -> list[str]:
    return [f"{variant}={'|'.join(readings)}" for variant, readings in mutant.readings]


def report_of(spec: m.Spec, run: SpecRun, kills_wanted: int) -> SpecReport:
    by_id: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for v in run.verdicts:
        by_id[v.id][v.profile] = {"status": v.status, "killed_by": v.killed_by,
                                  "at_check": v.at_check, "cases_run": v.cases_run,
                                  "screened": v.screened}
    rows = []
    for mut in run.mutants:
        verdicts = by_id[mut.id]
        row = MutantRow(mut.id, mut.index, mut.operator, mut.kind, mut.target, list(mut.clauses),
                        _readings(mut), f"{mut.pos.file}:{mut.pos.line}:{mut.pos.column}",
                        mut.description, verdicts)
        if any(v["status"] == SAME_CODE for v in verdicts.values()):
            row.excused = {"method": "same_code",
                           "detail": "the mutated rule is written as the reference's"}
        rows.append(row)
    shards = [f"{run.shard.index}/{run.shard.count}"] if run.shard else []
    return SpecReport(spec_digest(spec), list(run.profiles), run.cases, kills_wanted, rows,
                      shards, round(run.seconds, 1))


def to_json(report: SpecReport) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "spec_digest": report.spec_digest,
        "profiles": report.profiles,
        "cases": report.cases,
        "kills_wanted": report.kills_wanted,
        "shards": report.shards,
        "seconds": report.seconds,
        "kill_rate": {p: round(report.kill_rate(p), 4) for p in report.profiles},
        "killed_twice_rate": {p: round(report.twice_rate(p), 4) for p in report.profiles},
        "mutants": [vars(row) for row in report.rows],
    }


def from_json(data: Any, where: str) -> SpecReport:
    """A report read back (a shard's JSON); MergeError naming `where` when it is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MergeError(f"{where}: not a spec mutation report (expected \"format\": "
                         f"\"{FORMAT}\")")
    try:
        rows = [MutantRow(**row) for row in data["mutants"]]
        return SpecReport(data["spec_digest"], list(data["profiles"]), int(data["cases"]),
                          int(data["kills_wanted"]), rows, list(data.get("shards", [])),
                          float(data.get("seconds", 0.0)))
    except (KeyError, TypeError, ValueError) as exc:
        raise MergeError(f"{where}: a spec mutation report with a missing or wrong field "
                         f"({exc})") from None


def merge(reports: list[tuple[str, SpecReport]]) -> SpecReport:
    """One report of several shards' (each named by where it was read)."""
    if not reports:
        raise MergeError("nothing to merge")
    first_where, first = reports[0]
    seen: dict[str, str] = {}
    rows: list[MutantRow] = []
    for where, report in reports:
        for what, mine, theirs in (("spec", report.spec_digest, first.spec_digest),
                                   ("profiles", report.profiles, first.profiles),
                                   ("case count", report.cases, first.cases),
                                   ("kills wanted", report.kills_wanted, first.kills_wanted)):
            if mine != theirs:
                raise MergeError(f"{where}: its {what} ({mine}) is not that of {first_where} "
                                 f"({theirs}); run every shard on the same spec and options")
        for row in report.rows:
            if row.id in seen:
                raise MergeError(f"{where}: mutant {row.id} is also in {seen[row.id]}")
            seen[row.id] = where
            rows.append(row)
    shards = sorted({s for _, r in reports for s in r.shards})
    counts = {s.split("/")[1] for s in shards}
    if len(counts) == 1:
        total = int(next(iter(counts)))
        missing = [f"{k}/{total}" for k in range(1, total + 1) if f"{k}/{total}" not in shards]
        if missing:
            raise MergeError(f"shard(s) {', '.join(missing)} missing from the merge")
    rows.sort(key=lambda r: r.index)
    return SpecReport(first.spec_digest, first.profiles, first.cases, first.kills_wanted, rows,
                      shards, round(max(r.seconds for _, r in reports), 1))
