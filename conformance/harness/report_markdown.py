"""`--summary-md FILE`: a markdown summary of a run, as GitHub's job summaries take it
(`--summary-md "$GITHUB_STEP_SUMMARY"`).

The engine, its version and command, the profile, the pack and its version, the
verdict and exit status; the cases by status; a table of the failures (case,
clauses, one-line reason), of the unexpected passes and of the stale xfail lines.
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

from .exit_status import describe_status
from .report_console import STATUSES, failure_reason, one_line
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
    lines += _table(["run", ""], about)
    lines.append("")
    counts = [str(report.count(s)) for s in STATUSES] + [str(report.checked)]
    lines += _table([*STATUSES, "checked"], [counts], right=len(STATUSES) + 1)
    lines.append("")
    failures = [o for o in report.outcomes if o.status in (FAILED, ERRORED)]
    if failures:
        lines += [f"#### Failures ({len(failures)})", ""]
        lines += _table(
            ["case", "clauses", "status", "reason"],
            [[md(o.case.id), _clauses(o), o.status, md(failure_reason(o))] for o in failures],
        )
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
    if report.unknown_xfails:
        lines += ["The xfail list names cases the pack does not hold: "
                  + ", ".join(md(i) for i in report.unknown_xfails), ""]
    return "\n".join(lines)


def append_summary(report: RunReport, path: Path, status: int, why: str = "") -> None:
    """Append the run's summary to `path` (created if missing), a blank line before it
    when the file already holds text."""
    text = summary_markdown(report, status, why)
    if path.exists() and path.stat().st_size > 0:
        text = "\n" + text
    with path.open("a", encoding="utf-8") as out:
        out.write(text)
