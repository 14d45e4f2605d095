"""The exit statuses of `baloot conform` (PROTOCOL.md and the README list them),
and the run verdict they come from."""

from __future__ import annotations

from .runner import ERRORED, FAILED, XPASSED, RunReport

OK = 0  # every case that ran passed (or failed as listed in --xfail)
FAILURES = 1  # a case failed or errored
USAGE = 2  # a bad command line, an unreadable pack, xfail or skip file
ENGINE_DID_NOT_START = 3  # the engine could not be started, or its handshake failed
NOTHING_CHECKED = 4  # no case applied to the engine, or fewer than --min-checked
UNEXPECTED_PASSES = 5  # --strict: a case listed in --xfail passed (and none failed)
INTERRUPTED = 130  # stopped by Ctrl-C; the reports cover the cases that ran

_MEANING = {
    OK: "every case that ran passed, or failed as its --xfail line says",
    FAILURES: "a case failed or errored",
    USAGE: "a bad command line, pack, xfail or skip file, or a report that cannot be written",
    ENGINE_DID_NOT_START: "the engine did not start (it could not be run, or it never "
                          "completed a handshake)",
    NOTHING_CHECKED: "nothing was checked",
    UNEXPECTED_PASSES: "--strict: a case listed in --xfail passed",
    INTERRUPTED: "interrupted",
}


def describe_status(status: int) -> str:
    """What an exit status of `baloot conform` means, in a few words."""
    return _MEANING.get(status, "unknown status")


def conform_verdict(report: RunReport, min_checked: int = 1) -> tuple[int, str]:
    """The exit status of a run and, when it is not OK, why (one line)."""
    if report.interrupted and not report.stopped_by_maxfail:  # --maxfail: a case failed
        return INTERRUPTED, f"interrupted after {len(report.outcomes)} case(s)"
    if report.never_started or report.declaration_error:
        why = report.declaration_error or next(
            (o.message.splitlines()[0] for o in report.outcomes if o.message), "no reply"
        )
        if report.declaration_error:
            return ENGINE_DID_NOT_START, f"the engine's hello cannot be read: {why}"
        return ENGINE_DID_NOT_START, f"the engine did not start: {why}"
    if report.keeps_dying is not None:  # the engine started, then could not play a case
        return FAILURES, f"the engine kept dying: {report.keeps_dying.describe()}"
    if report.count(FAILED) or report.count(ERRORED):
        return FAILURES, ""
    if report.strict and report.count(XPASSED):
        return UNEXPECTED_PASSES, (
            f"--strict: {report.count(XPASSED)} case(s) listed in --xfail passed; "
            "take them off the list"
        )
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
