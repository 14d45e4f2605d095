"""The exit statuses of `baloot conform` (PROTOCOL.md and the README list them),
and the run verdict they come from."""

from __future__ import annotations

from baloot.conformance.harness.runner import RunReport

OK = 0  # every case that ran passed (or failed as listed in --xfail)
FAILURES = 1  # a case failed or errored
USAGE = 2  # a bad command line, an unreadable pack or xfail file
ENGINE_DID_NOT_START = 3  # the engine could not be started, or its handshake failed
NOTHING_CHECKED = 4  # no case applied to the engine, or fewer than --min-checked
INTERRUPTED = 130  # stopped by Ctrl-C; the reports cover the cases that ran


def conform_verdict(report: RunReport, min_checked: int = 1) -> tuple[int, str]:
    """The exit status of a run and, when it is not OK, why (one line)."""
    if report.interrupted:
        return INTERRUPTED, f"interrupted after {len(report.outcomes)} case(s)"
    if report.never_started or report.declaration_error:
        why = report.declaration_error or next(
            (o.message.splitlines()[0] for o in report.outcomes if o.message), "no reply"
        )
        return ENGINE_DID_NOT_START, f"the engine did not complete its handshake: {why}"
    if not report.ok:
        return FAILURES, ""
    if report.checked < min_checked:
        ran = len(report.outcomes)
        if report.checked == 0:
            why = (
                f"no case was checked: of {ran} case(s), the engine's declared readings and "
                "capabilities apply to none; see the table of cases not run, by reason"
            )
        else:
            why = (
                f"only {report.checked} of {ran} case(s) were checked, fewer than "
                f"--min-checked {min_checked}; see the table of cases not run, by reason"
            )
        return NOTHING_CHECKED, why
    return OK, ""
