"""`--summary-md FILE`: a markdown summary of a run, as GitHub's job summaries take it
(`--summary-md "$GITHUB_STEP_SUMMARY"`).

The engine, its version and command, the profile, the pack and its version, the
verdict and exit status; the cases by status; a table of the failures (case,
clauses, one-line reason; errored cases with the same reason share a row, which
counts them, so an engine that never starts is one row, not one per case), of
the unexpected passes and of the stale xfail lines; the cases by clause family
(each in the family of its first clause, as the console and the results page count
them); the readings and capabilities that alone would run the most cases not run.
A run stopped before any
case ran (a bad xfail glob, an unreadable file: exit 2) has a summary too
(`stopped_summary_markdown`), saying why and that no report was written.
The file is appended to, never replaced: `$GITHUB_STEP_SUMMARY` is shared by the
steps of a job. Text an engine or a user gave (a name, a message, a reason, a
path) has every markdown-significant character backslash-escaped and its
control characters (newlines included) written as escapes, so it cannot break
a table, open a code span or inject markup.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from .exit_status import USAGE, describe_status
from .report_console import (
    STATUSES,
    UNLOCK_ROWS,
    by_family,
    failure_reason,
    one_line,
    unlocks,
)
from .report_files import engine_identity, played_readings
from .runner import (
    ERRORED,
    FAILED,
    XPASSED,
    CaseOutcome,
    RunReport,
)

# At most this many rows per table; the rest is counted (the JSON report has them all).
MAX_ROWS = 100

# Characters with a meaning inside GitHub-flavoured markdown inline text and table
# cells (emphasis, code, links and images, HTML and entities, strike-through, math,
# cell borders, a heading's closing #): each is written backslash-escaped, as
# CommonMark allows for any ASCII punctuation. The text never starts a line, so
# block markers (-, 1.) are plain there.
_SIGNIFICANT = re.compile(r"([\\`*_\[\]<>|~!&$#])")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def md(text: str) -> str:
    """`text` as literal markdown inline text, on one line."""
    escaped = _SIGNIFICANT.sub(r"\\\1", text)
    return _CONTROL.sub(lambda m: ascii(m.group())[1:-1], escaped)


def _table(header: list[str], rows: list[list[str]], right: int = 0) -> list[str]:
    """A markdown table; cells are already escaped; the last `right` columns right-aligned."""
    align = ["---"] * (len(header) - right) + ["---:"] * right
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    shown = rows[:MAX_ROWS]
    lines += ["| " + " | ".join(row) + " |" for row in shown]
    if len(rows) > len(shown):
        more = [f"and {len(rows) - len(shown)} more (see the JSON report)"]
        lines.append("| " + " | ".join(more + [""] * (len(header) - 1)) + " |")
    return lines


def _clauses(o: CaseOutcome) -> str:
    return md(", ".join(o.case.clauses))


# A row of errors sharing a reason names at most this many of their clauses.
MAX_GROUP_CLAUSES = 6


# The runner's message for a case it did not run after the engine failed to start
# (runner.py, `_ensure_engine`), or after it died on the first case of each of its last
# launches (`Death.not_run_message`): such a case joins the row of the error that stopped it.
_NOT_STARTED = re.compile(
    r"not run: the engine (?:(?P<start>failed to start \d+ times in a row)"
    r"|(?P<died>died at `[^`]*` on the first case of each of its last \d+ launches)) "
    r"\(last: (?P<last>.*)\)")


def _error_key(o: CaseOutcome) -> tuple[str, str]:
    """The reason a row of errors shares, and why the case was not run at all (empty: it
    ran)."""
    line = one_line(o.message)
    not_started = _NOT_STARTED.fullmatch(line)
    if not_started is None:
        return failure_reason(o), ""
    last = not_started.group("last")
    why = ("the engine had failed to start too often" if not_started.group("start")
           else f"the engine {not_started.group('died')}")
    return (f"{o.reason}: {last}" if o.reason else last), why


def failure_rows(failures: list[CaseOutcome]) -> list[list[str]]:
    """A row per failed case; the errored cases that share a reason (a handshake that
    failed, an engine that crashes on every case) share one row, in the place of the
    first of them: `FIRST-ID and N more`, their clauses, the reason, and how many were
    not run once the engine had failed to start, or died on its first case, too often."""
    entries: list[list[str] | str] = []  # a failed case's row, or an error group's key
    groups: dict[str, list[CaseOutcome]] = {}
    not_run: dict[str, int] = {}
    why_not: dict[str, str] = {}
    for o in failures:
        if o.status != ERRORED:
            entries.append([md(o.case.id), _clauses(o), o.status, md(failure_reason(o))])
            continue
        key, unrun = _error_key(o)
        if key not in groups:
            groups[key], not_run[key] = [], 0
            entries.append(key)
        groups[key].append(o)
        not_run[key] += bool(unrun)
        why_not[key] = why_not.get(key) or unrun
    return [entry if isinstance(entry, list)
            else _group_row(entry, groups[entry], not_run[entry], why_not[entry])
            for entry in entries]


def _group_row(key: str, group: list[CaseOutcome], not_run: int,
               why_not: str = "the engine had failed to start too often") -> list[str]:
    first = group[0]
    if len(group) == 1:
        return [md(first.case.id), _clauses(first), first.status, md(failure_reason(first))]
    clauses = list(dict.fromkeys(c for o in group for c in o.case.clauses))
    shown = ", ".join(clauses[:MAX_GROUP_CLAUSES])
    if len(clauses) > MAX_GROUP_CLAUSES:
        shown += f" and {len(clauses) - MAX_GROUP_CLAUSES} more"
    reason = key
    if not_run:
        reason += f" ({not_run} of these {len(group)} cases not run: {why_not})"
    return [md(f"{first.case.id} and {len(group) - 1} more"), md(shown), first.status,
            md(reason)]


def summary_markdown(report: RunReport, status: int, why: str = "") -> str:
    name, version = engine_identity(report)
    verdict = {0: "OK", 130: "INTERRUPTED"}.get(status, "FAILED")
    title = f"### Baloot conformance: {verdict}"
    if name:
        title += f", {md(name)}" + (f" {md(version)}" if version else "")
    lines = [title, ""]
    about = [
        ["engine", md(name or "(no name in its hello)")],
        ["version", md(version or "(none given)")],
        ["command", md(shlex.join(report.engine_argv))],
        ["profile", md(report.profile)],
        ["readings", md(played_readings(report) or "(none read)")],
        ["pack", md(f"{report.pack.name} {report.pack.version}")],
        ["strict", "yes" if report.strict else "no"],
        ["exit status", md(f"{status}: {why or describe_status(status)}")],
    ]
    if report.stopped is not None:
        about.append(["stopped", md(report.stopped.describe())])
    lines += _table(["run", ""], about)
    lines.append("")
    counts = [str(report.count(s)) for s in STATUSES] + [str(report.checked)]
    lines += _table([*STATUSES, "checked"], [counts], right=len(STATUSES) + 1)
    lines.append("")
    failures = [o for o in report.outcomes if o.status in (FAILED, ERRORED)]
    if failures:
        lines += [f"#### Failures ({len(failures)})", ""]
        lines += _table(["case", "clauses", "status", "reason"], failure_rows(failures))
        lines.append("")
    xpassed = [o for o in report.outcomes if o.status == XPASSED]
    if xpassed:
        heading = "Unexpected passes" + (", failing the run (--strict)" if report.strict else "")
        lines += [f"#### {heading} ({len(xpassed)})", ""]
        lines += _table(
            ["case", "clauses", "listed as an expected failure because"],
            [[md(o.case.id), _clauses(o), md(one_line(o.xfail_reason or ""))] for o in xpassed],
        )
        lines.append("")
    if report.stale_xfails:
        lines += [f"#### Stale xfail lines ({len(report.stale_xfails)})", "",
                  "No case these lines list failed: take them off the list.", ""]
        lines += _table(
            ["line", "case id or glob", "reason", "passed"],
            [
                [md(s.entry.where), md(s.entry.pattern), md(one_line(s.entry.reason)),
                 md(", ".join(s.passed))]
                for s in report.stale_xfails
            ],
        )
        lines.append("")
    families = by_family(report)
    if families:
        lines += ["#### By clause family (of each case's first clause)", ""]
        rows = [[md(f), *(str(c[s]) for s in STATUSES), str(sum(c.values()))]
                for f, c in families.items()]
        lines += _table(["family", *STATUSES, "cases"], rows, right=len(STATUSES) + 1)
        lines.append("")
    found = unlocks(report)
    if found:
        lines += ["#### What would run the most cases not run (each implemented alone)", ""]
        lines += _table(["implement", "cases it would run"],
                        [[md(name), str(n)] for name, n in found[:UNLOCK_ROWS]], right=1)
        lines.append("")
    if report.unknown_xfails:
        lines += ["The xfail list names cases the pack does not hold: "
                  + ", ".join(md(i) for i in report.unknown_xfails), ""]
    return "\n".join(lines)


def append_summary(report: RunReport, path: Path, status: int, why: str = "") -> None:
    """Append the run's summary to `path` (created if missing), a blank line before it
    when the file already holds text."""
    append_markdown(path, summary_markdown(report, status, why))


def stopped_summary_markdown(problems: list[str], status: int = USAGE,
                             engine_argv: list[str] | None = None) -> str:
    """The summary of a run stopped before any case ran: the exit status, and each
    problem (one line each: a bad xfail glob, an unreadable file, a pack of another
    version), and that no report was written."""
    lines = [f"### Baloot conformance: FAILED, not run (exit status {status})", ""]
    about = [["exit status", md(f"{status}: {describe_status(status)}")]]
    if engine_argv is not None:
        about.insert(0, ["command", md(shlex.join(engine_argv))])
    lines += _table(["run", ""], about)
    lines += ["", "The run stopped before any case ran, so it wrote no JSON or JUnit "
              "report. Why:", ""]
    lines += [f"- {md(one_line(problem, 2000))}" for problem in problems[:MAX_ROWS]]
    if len(problems) > MAX_ROWS:
        lines.append(f"- and {len(problems) - MAX_ROWS} more")
    lines.append("")
    return "\n".join(lines)


def append_stopped_summary(path: Path, problems: list[str], status: int = USAGE,
                           engine_argv: list[str] | None = None) -> None:
    """Append `stopped_summary_markdown` to `path`, as `append_summary` appends a run's."""
    append_markdown(path, stopped_summary_markdown(problems, status, engine_argv))


def append_markdown(path: Path, text: str) -> None:
    """Append `text` to `path` (created if missing), a blank line before it when the file
    already holds text."""
    if path.exists() and path.stat().st_size > 0:
        text = "\n" + text
    with path.open("a", encoding="utf-8") as out:
        out.write(text)
