"""`baloot suite`: the main job, with a summary at the end.

It runs, in order: the spec's checks, the staleness checks of the generated
engine and of the rules document, the z3 invariants, and the conformance pack against the reference
engine under each profile. Each step is the same subcommand a user would
run alone; the suite goes on after a failing step, so the summary covers
every step, and exits 1 if any failed.

A step runs where it can: one that needs an optional part of the install
(lark, z3, black: the extras of pyproject.toml) it lacks, or the project's
checkout (the rules document's check compares the checked-in docs/rules.md and
stored results, which a wheel does not ship), is reported as skipped, with
the reason and what to install. `--skip STEP` leaves a step out by choice. An
installed wheel's base install thus checks the pack against the reference
engine and says what it left out.
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from rich.markup import escape
from rich.table import Table

from ..conformance.harness.engine_process import REFERENCE_ARGV
from ..conformance.harness.spec_register import RegisterFileError
from ..conformance.harness.variants import load_register
from . import extras
from .console import console as make_console
from .destinations import is_checkout

REFERENCE_ENGINE = shlex.join(REFERENCE_ARGV)


@dataclass(frozen=True)
class Step:
    id: str  # what --skip names
    title: str
    argv: tuple[str, ...]
    needs: tuple[str, ...] = ()  # optional modules the step imports (extras.OPTIONAL)
    checkout: bool = False  # the step reads files only the project's checkout has

    def skip_reason(self, checkout: bool) -> str | None:
        """Why the step cannot run here, with what to install; None when it can."""
        lacking = extras.missing(self.needs)
        if lacking:
            command = " ".join(self.argv[:2] if self.argv[0] == "conform" else self.argv[:1])
            names = ", ".join(extras.OPTIONAL[name][0] for name in lacking)
            return (f"needs {names}: "
                    f"{extras.install_hint(extras.extra_for(command, lacking[0]))}")
        if self.checkout and not checkout:
            return "needs the project's checkout (its docs/ and stored results)"
        return None


def steps(profiles: tuple[str, ...]) -> list[Step]:
    found = [
        Step("spec-check", "spec: parse and check", ("spec", "check"), ("lark",)),
        Step("spec-trace", "spec: every clause covered", ("spec", "trace"), ("lark",)),
        Step("gen", "engine: generated code up to date", ("gen", "--check"), ("lark", "black")),
        Step("render", "docs: rules document up to date", ("spec", "render", "--check"),
             ("lark",), checkout=True),
        Step("verify", "invariants: z3 proofs", ("verify",), ("lark", "z3")),
        Step("lint", "pack: lint", ("conform", "lint")),
        Step("coverage", "pack: coverage of clauses and readings", ("conform", "coverage"),
             ("lark",)),
        Step("pins", "pack: every case pins the readings it depends on", ("conform", "pins")),
        Step("needs", "pack: seats, pass-only turns and capabilities as a replay finds them",
             ("conform", "needs")),
    ]
    for profile in profiles:
        found.append(Step(f"conform-{profile}", f"pack: reference engine, {profile} profile",
                          ("conform", "--engine", REFERENCE_ENGINE, "--profile", profile)))
    return found


# The `baloot` command itself, as the suite runs each step: argv -> exit status.
Command = Callable[[list[str]], int]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             command: Command) -> None:
    """Add `baloot suite`, whose steps run through `command` (the root `baloot` main)."""
    suite = subparsers.add_parser(
        "suite", help="check the spec, prove the invariants, run the pack; print a summary",
        description="The main job: every check of the project against the reference engine. "
        "A step that needs an extra the install lacks, or the project's checkout, is "
        "skipped and the summary says why.")
    suite.add_argument("--profile", action="append", default=[],
                       help="run the pack under this profile (repeatable; default: every profile)")
    suite.add_argument("--skip", action="append", default=[], metavar="STEP",
                       help="leave out the steps of this id or glob (spec-check, spec-trace, gen, "
                       "render, verify, lint, coverage, pins, needs, conform-PROFILE); "
                       "repeatable")
    suite.set_defaults(run=functools.partial(run_suite, command=command))


# A step's result: passed, FAILED, or skipped with its reason.
@dataclass(frozen=True)
class Result:
    step: Step
    status: int | None  # None: skipped
    seconds: float = 0.0
    reason: str = ""


def run_suite(args: argparse.Namespace, command: Command) -> int:
    console = make_console()
    try:
        profiles = tuple(args.profile) or tuple(load_register().profiles)
    except RegisterFileError:
        profiles = ("literal",)  # the generated-code step below reports what is wrong
    planned = steps(profiles)
    unknown = [glob for glob in args.skip
               if not any(fnmatch.fnmatchcase(step.id, glob) for step in planned)]
    if unknown:
        print(f"baloot suite: --skip {', '.join(unknown)} names no step; the steps are "
              + ", ".join(step.id for step in planned), file=sys.stderr)
        return 2
    checkout = is_checkout()
    results: list[Result] = []
    for step in planned:
        chosen = any(fnmatch.fnmatchcase(step.id, glob) for glob in args.skip)
        reason = "--skip" if chosen else step.skip_reason(checkout)
        if reason is not None:
            console.print(f"[dim]skipped {step.title} (baloot {' '.join(step.argv)}): "
                          f"{escape(reason)}[/dim]", highlight=False)
            results.append(Result(step, None, reason=reason))
            continue
        console.rule(f"[bold]{step.title}[/bold]  (baloot {' '.join(step.argv)})")
        started = time.perf_counter()
        try:
            status = command(list(step.argv))
        except SystemExit as exit_:  # argparse and commands that exit
            status = exit_.code if isinstance(exit_.code, int) else 1
        except Exception as err:  # a step that breaks must not hide the others' results
            console.print(f"[bold red]the step stopped with an internal error:[/bold red] "
                          f"{type(err).__name__}: {err}")
            status = 1
        results.append(Result(step, status, time.perf_counter() - started))
    table = Table(title="Summary")
    table.add_column("step")
    table.add_column("result")
    table.add_column("seconds", justify="right")
    for result in results:
        if result.status is None:
            mark, seconds = f"[dim]skipped: {escape(result.reason)}[/dim]", ""
        else:
            mark = "[green]passed[/green]" if result.status == 0 else "[bold red]FAILED[/bold red]"
            seconds = f"{result.seconds:.1f}"
        table.add_row(result.step.title, mark, seconds)
    console.print(table)
    failed = sum(1 for r in results if r.status not in (None, 0))
    skipped = sum(1 for r in results if r.status is None)
    passed = len(results) - failed - skipped
    console.print(f"{passed} passed, {failed} failed, {skipped} skipped", highlight=False)
    return 1 if failed else 0
