"""`--write-xfail FILE`: the xfail file of a run.

Every case that failed or errored, and every case an `--xfail` line excused
(xfailed), gets one `CASE-ID REASON` line, sorted by id, under a header comment
naming the engine, the profile and the pack. The reason is the failure's first
line (an error's protocol reason first), trimmed, control characters written
as escapes; a case the `--xfail` list excused keeps that list's reason. Globs
of the list are written out as the ids they matched; lines that no longer
fail are left out. Read back with `--xfail`, the same run exits 0.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from .report_console import failure_reason, one_line
from .report_files import engine_identity
from .runner import ERRORED, FAILED, XFAILED, CaseOutcome, RunReport

# A reason the --xfail list gave is kept whole (it is already one line).
_KEPT_REASON_LIMIT = 10_000


def xfail_entries(report: RunReport) -> list[tuple[str, str]]:
    """`(case id, reason)` for each case that failed or errored, sorted by id."""
    failing = [o for o in report.outcomes if o.status in (FAILED, ERRORED, XFAILED)]
    return sorted((o.case.id, _reason(o)) for o in failing)


def _reason(o: CaseOutcome) -> str:
    if o.status == XFAILED and o.xfail_reason:
        kept = one_line(o.xfail_reason, _KEPT_REASON_LIMIT)
        if kept:
            return kept
    return failure_reason(o)


def xfail_file_text(report: RunReport) -> str:
    name, version = engine_identity(report)
    engine = " ".join(part for part in (name, version) if part) or "(no name in its hello)"
    lines = [
        f"# Expected failures of the engine {one_line(engine)}",
        f"# command: {one_line(shlex.join(report.engine_argv))}",
        f"# profile {one_line(report.profile)}, pack {one_line(report.pack.name)} "
        f"{one_line(report.pack.version)}",
        "# Written by `baloot conform --write-xfail`; read it with `--xfail FILE`.",
        "# One line per case: CASE-ID REASON (a glob of case ids may stand for several).",
    ]
    entries = xfail_entries(report)
    width = max((len(case_id) for case_id, _ in entries), default=0)
    lines += [f"{case_id:<{width}}  {reason}" for case_id, reason in entries]
    return "\n".join(lines) + "\n"


def write_xfail(report: RunReport, path: Path) -> int:
    """Write the run's xfail file; return how many cases it lists."""
    path.write_text(xfail_file_text(report), encoding="utf-8")
    return len(xfail_entries(report))
