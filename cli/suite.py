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

What a step prints goes to a log file (`--log FILE`; by default a new file in
the system's temporary folder), whose path the suite prints at the end; the
terminal gets a line for each failing step (where its output starts in the
log, and its last line) and the summary table. With `-v` each step prints to
the terminal as it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import functools
import os
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

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
    suite.add_argument("-v", "--verbose", action="store_true",
                       help="print each step's output on the terminal as it runs, not in the log")
    suite.add_argument("--log", type=Path, metavar="FILE",
                       help="write the steps' output to FILE (default: a new file in the "
                       "system's temporary folder, named at the end)")
    suite.set_defaults(run=functools.partial(run_suite, command=command))


# A step's result: passed, FAILED, or skipped with its reason.
@dataclass(frozen=True)
class Result:
    step: Step
    status: int | None  # None: skipped
    seconds: float = 0.0
    reason: str = ""
    log_line: int = 0  # where its output starts in the log (0: not in a log)
    last_line: str = ""  # the last line it printed, in the log


class _Log:
    """The file the steps' output goes to, counting its lines."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def lines(self) -> int:
        self.stream.flush()
        with open(self.stream.name, encoding="utf-8", errors="replace") as read:
            return sum(1 for _ in read)

    def last_line(self, since: int) -> str:
        self.stream.flush()
        with open(self.stream.name, encoding="utf-8", errors="replace") as read:
            lines = [line.strip() for line in read][since:]
        return next((line for line in reversed(lines) if line), "")

    @contextlib.contextmanager
    def capturing(self) -> Iterator[None]:
        with contextlib.redirect_stdout(self.stream), contextlib.redirect_stderr(self.stream):
            yield


def _open_log(path: Path | None) -> IO[str]:
    if path is not None:
        return open(path, "w", encoding="utf-8")
    handle, name = tempfile.mkstemp(prefix="baloot-suite-", suffix=".log")
    os.close(handle)
    return open(name, "w", encoding="utf-8")


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
    verbose = bool(getattr(args, "verbose", False))
    try:
        stream = None if verbose else _open_log(getattr(args, "log", None))
    except OSError as exc:
        print(f"baloot suite: --log: cannot write {args.log}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    log = None if stream is None else _Log(stream)
    try:
        results = _run_steps(planned, args.skip, checkout, command, log)
    finally:
        if stream is not None:
            stream.close()
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
    if log is not None:
        console.print(f"each step's output: {escape(log.stream.name)}", highlight=False,
                      soft_wrap=True)
    return 1 if failed else 0


def _run_steps(planned: list[Step], skip: list[str], checkout: bool, command: Command,
               log: _Log | None) -> list[Result]:
    """Run the steps not skipped, their output on the terminal, or in `log` with a line
    on the terminal for each step that fails."""
    console = make_console()
    results: list[Result] = []
    for step in planned:
        chosen = any(fnmatch.fnmatchcase(step.id, glob) for glob in skip)
        reason = "--skip" if chosen else step.skip_reason(checkout)
        if reason is not None:
            if log is None:
                console.print(f"[dim]skipped {step.title} (baloot {' '.join(step.argv)}): "
                              f"{escape(reason)}[/dim]", highlight=False)
            results.append(Result(step, None, reason=reason))
            continue
        heading = f"{step.title}  (baloot {' '.join(step.argv)})"
        start = 0
        if log is None:
            console.rule(f"[bold]{escape(heading)}[/bold]")
        else:
            print(f"==== {heading}", file=log.stream)
            start = log.lines() + 1
        started = time.perf_counter()
        with contextlib.nullcontext() if log is None else log.capturing():
            status = _run_step(step, command)
        result = Result(step, status, time.perf_counter() - started, log_line=start)
        if log is not None and status != 0:
            result = Result(step, status, result.seconds, log_line=start,
                            last_line=log.last_line(start - 1))
            console.print(f"[bold red]FAILED[/bold red] {escape(step.title)} "
                          f"(baloot {escape(' '.join(step.argv))}): "
                          f"{escape(result.last_line)} [dim](log line {start})[/dim]",
                          highlight=False, soft_wrap=True)
        results.append(result)
    return results


def _run_step(step: Step, command: Command) -> int:
    """A step's exit status; a step that breaks must not hide the others' results."""
    console = make_console()
    try:
        return command(list(step.argv))
    except SystemExit as exit_:  # argparse and commands that exit
        return exit_.code if isinstance(exit_.code, int) else 1
    except Exception as err:
        console.print(f"[bold red]the step stopped with an internal error:[/bold red] "
                      f"{type(err).__name__}: {escape(str(err))}")
        return 1
