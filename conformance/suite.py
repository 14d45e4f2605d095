"""`baloot suite`: the main job, with a summary at the end.

It runs, in order: the spec's checks, the staleness checks of the generated
engine and of the rules document, the z3 invariants, and the conformance pack against the reference
engine under each profile. Each step is the same subcommand a user would
run alone; the suite goes on after a failing step, so the summary covers
every step, and exits 1 if any failed.
"""

from __future__ import annotations

import argparse
import functools
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass

from rich.table import Table

from baloot.conformance.harness.engine_process import REFERENCE_ARGV
from baloot.conformance.harness.spec_register import RegisterFileError
from baloot.conformance.harness.terminal import console as make_console
from baloot.conformance.harness.variants import load_register

REFERENCE_ENGINE = shlex.join(REFERENCE_ARGV)


@dataclass(frozen=True)
class Step:
    title: str
    argv: tuple[str, ...]


def steps(profiles: tuple[str, ...]) -> list[Step]:
    found = [
        Step("spec: parse and check", ("spec", "check")),
        Step("spec: every clause covered", ("spec", "trace")),
        Step("engine: generated code up to date", ("gen", "--check")),
        Step("docs: rules document up to date", ("spec", "render", "--check")),
        Step("invariants: z3 proofs", ("verify",)),
        Step("pack: lint", ("conform", "lint")),
        Step("pack: coverage of clauses and readings", ("conform", "coverage")),
        Step("pack: every case pins the readings it depends on", ("conform", "pins")),
        Step("pack: seats, pass-only turns and capabilities as a replay finds them",
             ("conform", "needs")),
    ]
    for profile in profiles:
        found.append(Step(f"pack: reference engine, {profile} profile",
                          ("conform", "--engine", REFERENCE_ENGINE, "--profile", profile)))
    return found


# The `baloot` command itself, as the suite runs each step: argv -> exit status.
Command = Callable[[list[str]], int]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             command: Command) -> None:
    """Add `baloot suite`, whose steps run through `command` (the root `baloot` main)."""
    suite = subparsers.add_parser(
        "suite", help="check the spec, prove the invariants, run the pack; print a summary",
        description="The main job: every check of the project against the reference engine.")
    suite.add_argument("--profile", action="append", default=[],
                       help="run the pack under this profile (repeatable; default: every profile)")
    suite.set_defaults(run=functools.partial(run_suite, command=command))


def run_suite(args: argparse.Namespace, command: Command) -> int:
    console = make_console()
    try:
        profiles = tuple(args.profile) or tuple(load_register().profiles)
    except RegisterFileError:
        profiles = ("literal",)  # the generated-code step below reports what is wrong
    results: list[tuple[Step, int, float]] = []
    for step in steps(profiles):
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
        results.append((step, status, time.perf_counter() - started))
    table = Table(title="Summary")
    table.add_column("step")
    table.add_column("result")
    table.add_column("seconds", justify="right")
    for step, status, seconds in results:
        mark = "[green]passed[/green]" if status == 0 else "[bold red]FAILED[/bold red]"
        table.add_row(step.title, mark, f"{seconds:.1f}")
    console.print(table)
    failed = sum(1 for _, status, _ in results if status != 0)
    console.print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0
