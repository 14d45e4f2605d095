"""A pytest plugin: the conformance pack as test items of an engine's own test suite.

Installed with the package (entry point `pytest11`, name `baloot`); it does
nothing unless asked:

    pytest --baloot-engine "python my_adapter.py" [--baloot-profile literal]
           [--baloot-only 'SCORE.*'] [--baloot-skip ID|GLOB] [--baloot-cases DIR]
           [--baloot-timeout 5] [--baloot-xfail FILE] [--baloot-strict]

Every case of the pack becomes a test item named by its case id, under
`baloot-pack::`. One engine process serves them all (restarted after a
protocol error, as `baloot conform` does). A failed case fails its item with
the runner's message and diff; a case needing readings the engine does not
implement, or a capability it lacks, is skipped (the reason says which), and
so is a case `--baloot-skip` names ("skipped by the user").

A case the `--baloot-xfail FILE` list names (by id or glob, as `baloot conform
--xfail` reads it) carries an `xfail` mark: when it fails it is an xfail, when
it passes an xpass, which fails the run only under `--baloot-strict`, as an
unexpected pass fails `baloot conform` only under `--strict`. The mark's
strictness is the plugin's option, not pytest's `xfail_strict`. Stale xfail
lines are listed in the terminal summary.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest

from .case_selection import SkipList, select_cases
from .engine_process import EngineProcess
from .lint import lint_pack
from .pack import Case, default_pack_folder
from .runner import (
    ERRORED,
    FAILED,
    SKIPPED,
    UNSUPPORTED,
    XFAILED,
    XPASSED,
    CaseOutcome,
    Runner,
)
from .variants import load_register
from .xfail import XfailFileError, XfailList, read_xfail_list

_RUNNER_KEY = pytest.StashKey[Any]()
_OUTCOMES_KEY = pytest.StashKey[list[CaseOutcome]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("baloot", "Baloot conformance pack")
    group.addoption(
        "--baloot-engine",
        metavar="COMMAND",
        help="run the Baloot conformance pack against this engine command",
    )
    group.addoption(
        "--baloot-profile", metavar="NAME", help="the run's profile (default: the engine's)"
    )
    group.addoption(
        "--baloot-only",
        action="append",
        default=[],
        metavar="ID|GLOB",
        help="only cases with this id, id glob or clause glob (repeatable)",
    )
    group.addoption(
        "--baloot-skip",
        action="append",
        default=[],
        metavar="ID|GLOB",
        help="skip cases with this id, id glob or clause glob, not run (repeatable)",
    )
    group.addoption("--baloot-cases", metavar="DIR", help="a case pack folder (default: built-in)")
    group.addoption("--baloot-timeout", type=float, default=5.0, help="seconds per reply")
    group.addoption(
        "--baloot-xfail",
        metavar="FILE",
        help="expected failures: 'CASE-ID REASON' or 'GLOB REASON' lines",
    )
    group.addoption(
        "--baloot-strict",
        action="store_true",
        default=False,
        help="a case listed in --baloot-xfail that passes fails the run (as conform --strict)",
    )


class CaseFailure(Exception):
    def __init__(self, message: str, diff: str) -> None:
        super().__init__(message)
        self.message = message
        self.diff = diff


class BalootPack(pytest.Collector):
    """The pack's cases, as items."""

    def __init__(self, *, cases: list[Case], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases = cases

    def collect(self) -> list[pytest.Item]:
        return [BalootCase.from_parent(self, name=case.id, case=case) for case in self.cases]


class BalootCase(pytest.Item):
    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        for clause in case.clauses:
            self.add_marker(pytest.mark.baloot_clause(clause))

    def runtest(self) -> None:
        runner = self.config.stash[_RUNNER_KEY]
        outcome = runner.run_case(self.case)
        self.config.stash[_OUTCOMES_KEY].append(outcome)
        if outcome.status in (SKIPPED, UNSUPPORTED):
            pytest.skip(f"{outcome.status}: {outcome.message}")
        if outcome.status == XFAILED:
            pytest.xfail(outcome.xfail_reason or "expected failure")
        if outcome.status == XPASSED:
            return  # the item's xfail mark makes it an xpass, strict or not
        if outcome.status in (FAILED, ERRORED):
            prefix = f"[{outcome.reason}] " if outcome.reason else ""
            raise CaseFailure(prefix + outcome.message, outcome.diff)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            lines = [
                f"case {self.case.id}: {self.case.title}",
                f"clauses {', '.join(self.case.clauses)}    file {self.case.file}",
                excinfo.value.message,
            ]
            if excinfo.value.diff:
                lines.append(excinfo.value.diff)
            return "\n".join(lines)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return self.case.file or "baloot-pack", None, f"baloot case {self.case.id}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "baloot_clause(id): the clause a conformance case cites")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    command = config.getoption("--baloot-engine")
    if not command:
        return
    folder = Path(config.getoption("--baloot-cases") or default_pack_folder())
    register = load_register()
    pack, problems = lint_pack(folder, register)
    if problems:
        raise pytest.UsageError(
            f"--baloot-cases {folder}: the pack has problems: "
            + "; ".join(str(p) for p in problems[:5])
        )
    cases = select_cases(pack, list(config.getoption("--baloot-only")))
    xfails = _xfail_list(config, pack.cases, f"{pack.name} {pack.version}")
    skips = SkipList.from_patterns(list(config.getoption("--baloot-skip")))
    unmatched = skips.problems(pack)
    if unmatched:
        raise pytest.UsageError("--baloot-skip: " + "; ".join(unmatched))
    strict = bool(config.getoption("--baloot-strict"))
    timeout = config.getoption("--baloot-timeout")
    if not 0 < timeout < float("inf"):  # NaN too
        raise pytest.UsageError(
            f"--baloot-timeout must be a positive number of seconds, not {timeout!r}")
    engine = EngineProcess(shlex.split(command), timeout=timeout)
    config.stash[_RUNNER_KEY] = Runner(
        engine, register, profile=config.getoption("--baloot-profile"), xfails=xfails,
        skips=skips, strict=strict,
    )
    config.stash[_OUTCOMES_KEY] = []
    config.add_cleanup(engine.close)
    collector = BalootPack.from_parent(
        session, name="baloot-pack", nodeid="baloot-pack", cases=cases
    )
    for item in collector.collect():
        entry = xfails.entry_for(item.name)
        if entry is not None:
            item.add_marker(pytest.mark.xfail(
                reason=f"listed as an expected failure ({entry.where}): {entry.reason}",
                strict=strict,
            ))
        items.append(item)


def _xfail_list(config: pytest.Config, cases: list[Case], pack: str) -> XfailList:
    """The --baloot-xfail list; a bad file, or a glob matching no case, is a usage error."""
    xfail_file = config.getoption("--baloot-xfail")
    if not xfail_file:
        return XfailList()
    try:
        xfails = read_xfail_list(Path(xfail_file))
    except XfailFileError as exc:
        raise pytest.UsageError(f"--baloot-xfail: {exc}") from None
    problems = xfails.problems((c.id for c in cases), pack)
    if problems:
        raise pytest.UsageError("--baloot-xfail: " + "; ".join(problems))
    return xfails


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The stale lines of the --baloot-xfail list, as `baloot conform` prints them."""
    if _OUTCOMES_KEY not in config.stash:
        return
    runner: Runner = config.stash[_RUNNER_KEY]
    stale = runner.stale_xfails(config.stash[_OUTCOMES_KEY])
    if not stale:
        return
    terminalreporter.section("baloot: stale xfail lines")
    for line in stale:
        terminalreporter.write_line(
            f"stale xfail line {line.entry.where} {line.entry.pattern}: no case it lists "
            f"failed ({len(line.passed)} passed: {', '.join(line.passed)}); take it off the list"
        )


def pytest_report_header(config: pytest.Config) -> str | None:
    command = config.getoption("--baloot-engine")
    return f"baloot conformance engine: {command}" if command else None
