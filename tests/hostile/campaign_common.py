"""What every hostile-input campaign shares: the tally of outcomes, a time limit per
input, and the command line (`--count N --seed S`).

Each input ends in one of four ways: our error (the project's own error type, with its
place), a success, a traceback (any other exception: a bug), or a hang (no outcome
within the time limit: a bug). A campaign prints the counts and exits 1 when it met a
traceback or a hang, showing the first few.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal
import sys
import time
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from baloot.conformance.harness.report_console import print_report
from baloot.conformance.harness.report_files import write_json, write_junit
from baloot.conformance.harness.runner import RunReport
from baloot.conformance.protocol.schemas import schema_errors

OURS, SUCCESS = "ours", "success"


class Hang(Exception):
    """An input that took longer than its time limit."""


class Misplaced(Exception):
    """Our error, but pointing at no real place of the input: a bug like a traceback."""


@dataclass
class Tally:
    name: str
    inputs: int = 0
    ours: int = 0
    successes: int = 0
    tracebacks: int = 0
    hangs: int = 0
    seconds: float = 0.0
    examples: list[str] = field(default_factory=list)
    began: float = field(default_factory=time.monotonic)

    def add(self, other: Tally) -> None:
        self.inputs += other.inputs
        self.ours += other.ours
        self.successes += other.successes
        self.tracebacks += other.tracebacks
        self.hangs += other.hangs
        self.examples += other.examples[: max(0, 5 - len(self.examples))]

    @property
    def clean(self) -> bool:
        return self.tracebacks == 0 and self.hangs == 0

    def line(self) -> str:
        seconds = time.monotonic() - self.began
        return (f"{self.name}: {self.inputs} inputs, {self.ours} our errors, "
                f"{self.successes} successes, {self.tracebacks} tracebacks, {self.hangs} hangs "
                f"in {seconds:.1f} s")

    def report(self) -> str:
        shown = "\n\n".join(self.examples[:5])
        return self.line() + (f"\n\nfirst problems:\n{shown}" if shown else "")


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise Hang in the main thread after `seconds` (POSIX interval timer; elsewhere,
    and outside the main thread, no limit)."""
    if not hasattr(signal, "setitimer") or seconds <= 0:
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise Hang(f"no outcome within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def attempt(tally: Tally, what: str, run: Callable[[], str], seconds: float) -> str:
    """Run one input; `run` returns OURS or SUCCESS, or raises. Returns the outcome."""
    tally.inputs += 1
    try:
        with time_limit(seconds):
            outcome = run()
    except Hang as hang:
        tally.hangs += 1
        tally.examples.append(f"HANG {what}: {hang}")
        return "hang"
    except Exception as exc:  # a bug of ours: counted, shown, and the campaign goes on
        tally.tracebacks += 1
        if len(tally.examples) < 5:
            text = "".join(traceback.format_exception(exc))
            tally.examples.append(f"TRACEBACK {what}:\n{text[-3000:]}")
        return "traceback"
    if outcome == OURS:
        tally.ours += 1
    else:
        tally.successes += 1
    return outcome


def make_parser(description: str, count: int) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--count", type=int, default=count, help="how many inputs")
    parser.add_argument("--seed", type=int, default=0, help="the inputs of a seed are fixed")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="time limit of one input: past it, a hang")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    return parser


def finish(tally: Tally) -> int:
    print(tally.report())
    sys.stdout.flush()
    return 0 if tally.clean else 1


def json_paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path (keys and indexes) of every value inside a JSON value, itself first."""
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += json_paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += json_paths(item, (*at, index))
    return found


def check_reports(report: RunReport, folder: Path) -> None:
    """The reports of a run are whole: JSON read back strictly and valid, JUnit parsed,
    the console report printed."""
    write_json(report, folder / "report.json")
    write_junit(report, folder / "report.xml")
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"),
                      parse_constant=_not_json)
    errors = schema_errors("report", data)
    if errors:
        raise AssertionError(f"the JSON report breaks its schema: {errors[:3]}")
    if data["interrupted"] != report.interrupted or len(data["cases"]) != len(report.outcomes):
        raise AssertionError("the JSON report does not say what the run did")
    ET.parse(folder / "report.xml")
    print_report(Console(file=io.StringIO(), width=120), report)


def _not_json(name: str) -> Any:
    raise AssertionError(f"the report holds {name}, which is not JSON")
