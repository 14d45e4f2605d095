"""Running the case pack against every mutant engine: the kill table.

The pack is the built-in pack, the mutant-kill cases of `cases/mutant_kills/`
included. First the reference engine runs it: a case the
reference itself fails kills nothing (it is reported, and left out). Then
each mutant, served by its own adapter process, runs the cases that pass on
the reference; a case that fails or errors on the mutant kills it. With
`first_failure` a mutant's run stops at its first kill, its own kill cases
(ids naming the mutant) and the cases citing its clause running first.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..harness.engine_process import REFERENCE_ARGV, EngineProcess
from ..harness.lint import lint_pack
from ..harness.pack import Case, Pack, case_files, default_pack_folder
from ..harness.runner import ERRORED, FAILED, PASSED, Runner
from ..harness.variants import load_register
from .build import BuiltMutant, MutationError, build_all
from .catalogue import MUTANTS, Mutant


def mutant_kills_folder() -> Path:
    return Path(str(resources.files("baloot.conformance") / "cases" / "mutant_kills"))


class PackError(RuntimeError):
    """The pack (or the mutant-kill cases) has problems: lint it first."""


def load_cases(folders: Iterable[Path] | None = None) -> tuple[Pack, list[Case], list[str]]:
    """The cases of the packs in `folders` (default: the built-in pack, the mutant kills
    included), each id once, and the problems of the cases left out (a case with a
    lint problem is left out, and said, rather than stopping the run)."""
    if folders is None:
        folders = [default_pack_folder()]  # its subfolder mutant_kills/ included
    register = load_register()
    seen: dict[str, Case] = {}
    first: Pack | None = None
    problems: list[str] = []
    for folder in folders:
        if not folder.is_dir() or not case_files(folder):
            continue
        pack, found = lint_pack(folder, register)
        problems += [f"{folder}: {p}" for p in found]
        first = first or pack
        for case in pack.cases:
            seen.setdefault(case.id, case)
    if first is None:
        raise PackError("no case pack found")
    cases = list(seen.values())
    return Pack(first.name, first.version, first.protocol, first.folder, cases), cases, problems


@dataclass
class Verdict:
    mutant: Mutant
    killed_by: list[str] = field(default_factory=list)
    cases_run: int = 0
    seconds: float = 0.0
    problem: str | None = None  # the mutant could not be built or started
    why: dict[str, str] = field(default_factory=dict)  # killing case -> its first line

    @property
    def killed(self) -> bool:
        return bool(self.killed_by)


@dataclass
class KillReport:
    verdicts: list[Verdict]
    reference_failures: dict[str, str]  # case id -> why it fails on the reference
    cases: int
    seconds: float
    pack_problems: list[str] = field(default_factory=list)  # cases left out by the linter

    @property
    def survivors(self) -> list[Verdict]:
        """The mutants no case kills, equivalent mutants aside."""
        return [v for v in self.verdicts if not v.killed and not v.mutant.equivalent]

    @property
    def kill_rate(self) -> float:
        """Killed mutants among those that can be killed (equivalent ones aside)."""
        killable = [v for v in self.verdicts if not v.mutant.equivalent]
        return sum(v.killed for v in killable) / max(1, len(killable))


def order_for(mutant: Mutant, cases: list[Case]) -> list[Case]:
    """The mutant's own kill cases first, then the cases citing its clause, then the rest."""

    def rank(case: Case) -> int:
        if mutant.name.replace("_", "-") in case.id or mutant.name in case.id:
            return 0
        return 1 if mutant.clause in case.clauses else 2

    return sorted(cases, key=rank)


def with_pins(case: Case, pins: tuple[tuple[str, str], ...]) -> Case:
    """The case with a mutant's readings added for the variants it leaves open."""
    added = {variant: reading for variant, reading in pins if variant not in case.requires}
    return dataclasses.replace(case, requires={**case.requires, **added}) if added else case


def run_engine(
    argv: list[str],
    pack: Pack,
    cases: list[Case],
    *,
    profile: str | None = "literal",
    timeout: float = 5.0,
    first_failure: bool = False,
) -> tuple[list[str], dict[str, str], int]:
    """Run cases on one engine: (ids of the cases failed or errored, why each, cases run)."""
    engine = EngineProcess(argv, timeout=timeout)
    runner = Runner(engine, load_register(), profile=profile)
    failed: list[str] = []
    why: dict[str, str] = {}
    count = 0
    try:
        for case in cases:
            outcome = runner.run_case(case)
            count += 1
            if outcome.status in (FAILED, ERRORED):
                failed.append(case.id)
                why[case.id] = outcome.message.splitlines()[0] if outcome.message else ""
                if first_failure:
                    break
            elif outcome.status != PASSED and outcome.status != "skipped":
                why[case.id] = outcome.status
    finally:
        engine.close()
    return failed, why, count


def run_mutant(
    built: BuiltMutant,
    pack: Pack,
    cases: list[Case],
    *,
    profile: str | None = "literal",
    timeout: float = 5.0,
    first_failure: bool = False,
) -> Verdict:
    began = time.monotonic()
    verdict = Verdict(built.mutant)
    killed, why, verdict.cases_run = run_engine(
        built.adapter_argv(),
        pack,
        order_for(built.mutant, [with_pins(c, built.mutant.pins) for c in cases]),
        profile=profile,
        timeout=timeout,
        first_failure=first_failure,
    )
    verdict.killed_by = killed
    verdict.why = {i: why.get(i, "") for i in killed}
    verdict.seconds = time.monotonic() - began
    return verdict


def run_mutants(
    mutants: Iterable[Mutant] = MUTANTS,
    *,
    folders: Iterable[Path] | None = None,
    jobs: int | None = None,
    first_failure: bool = False,
    profile: str | None = "literal",
    timeout: float = 5.0,
    cache: Path | None = None,
    on_verdict: Callable[[Verdict], None] | None = None,
) -> KillReport:
    """Build the mutants, check the pack on the reference, then run it on every mutant."""
    began = time.monotonic()
    mutants = list(mutants)
    jobs = max(1, jobs or os.cpu_count() or 1)
    pack, cases, pack_problems = load_cases(folders)
    built: dict[str, BuiltMutant] = {}
    problems: dict[str, str] = {}
    try:
        for b in build_all(mutants, cache=cache, jobs=jobs):
            built[b.mutant.name] = b
    except MutationError:
        # Build one by one to say which mutant is broken, and keep the others.
        for m in mutants:
            try:
                built[m.name] = build_all([m], cache=cache, jobs=1)[0]
            except MutationError as exc:
                problems[m.name] = str(exc)
    failing, why, _ = run_engine(REFERENCE_ARGV, pack, cases, profile=profile, timeout=timeout)
    good = [c for c in cases if c.id not in failing]
    reference_failures = {i: why.get(i, "") for i in failing}

    def one(m: Mutant) -> Verdict:
        if m.name in problems:
            verdict = Verdict(m, problem=problems[m.name])
        else:
            verdict = run_mutant(
                built[m.name],
                pack,
                good,
                profile=profile,
                timeout=timeout,
                first_failure=first_failure,
            )
        if on_verdict:
            on_verdict(verdict)
        return verdict

    with ThreadPoolExecutor(jobs) as pool:
        verdicts = list(pool.map(one, mutants))
    return KillReport(
        verdicts, reference_failures, len(good), time.monotonic() - began, pack_problems
    )
