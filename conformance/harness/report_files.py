"""Machine-readable reports: `--json FILE` and `--junit FILE`.

The JSON report carries its format version (`REPORT_FORMAT`) and is described
by the JSON Schema `conformance/schema/report.json`; the JUnit report follows
the common Ant/Jenkins JUnit XML form, with the run's properties (engine, its
version, profile, readings, pack version, strict, and an `xfail.stale` property
for each stale xfail line), a timestamp, and a `type` on every failure, error
and skip. conformance/README.md, "Use it as a CI gate", lists
both.

Each case's clauses link to the rules document (`rules_links.py`): the
published one when BALOOT_RULES_URL names it, else a copy written beside the
report (`rules.html`), linked relatively, so the folder of reports stands on
its own as an artifact. Under `--strict` an unexpected pass fails the run, and
its <testcase> carries a <failure> of type `xpassed` (counted in the suite's
`failures`), as pytest reports a strict xpass; without `--strict` it passes,
with a note in its <system-out>.
"""

from __future__ import annotations

import json
import re
import shlex
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .declared import CAPABILITIES
from .report_console import (
    STATUSES,
    by_family,
    not_run_by_reason,
    rerun_command,
)
from .rules_links import clause_link, document_beside
from .runner import (
    ERRORED,
    FAILED,
    PASSED,
    SKIPPED,
    UNSUPPORTED,
    XFAILED,
    XPASSED,
    CaseOutcome,
    RunReport,
)

# The version of the JSON report's format: it changes when a field is removed or
# changes meaning; fields may be added within a version (readers ignore unknown ones).
REPORT_FORMAT = 1

# The `type` of a JUnit <failure>: the engine answered, and a checked answer differs
# from the expected one (the diff shows both); or it would not follow the case's
# script (a refused action, start or deal) or accepted an action it must refuse.
DIFFERS, NOT_AS_SCRIPTED = "differs", "not_as_scripted"
# The `type` of the <failure> of a case listed in --xfail that passed, under --strict.
STRICT_XPASS = XPASSED


def run_started(report: RunReport, now: datetime | None = None) -> datetime:
    """When the run began (UTC, to the second): the end, less its length."""
    end = now or datetime.now(UTC)
    return (end - timedelta(seconds=report.seconds)).replace(microsecond=0)


def engine_identity(report: RunReport) -> tuple[str | None, str | None]:
    """The engine's name and version as its hello gave them (None when it gave none)."""
    name, version = report.hello.get("name"), report.hello.get("version")
    return (
        name if isinstance(name, str) else None,
        version if isinstance(version, str) else None,
    )


def played_readings(report: RunReport) -> str:
    """The readings the run played when a case pins nothing, `variant=reading, ...`."""
    if report.declared is None:
        return ""
    return ", ".join(f"{v}={r}" for v, r in sorted(report.declared.plays.items()))


def report_as_json(
    report: RunReport,
    extra_args: list[str] | None = None,
    *,
    now: datetime | None = None,
    rules: str | None = None,
) -> dict[str, Any]:
    """The JSON report; `rules` is the rules document's address the links use (see
    `rules_links.document_beside`; None: the console's, `document_url()`)."""
    name, version = engine_identity(report)
    return {
        "format": REPORT_FORMAT,
        "rules_document": rules,
        "timestamp": run_started(report, now).isoformat(),
        "pack": {"name": report.pack.name, "version": report.pack.version},
        "engine": {
            "command": report.engine_argv,
            "name": name,
            "version": version,
            "hello": report.hello,
            "starts": report.engine_starts,
        },
        "profile": report.profile,
        "declared": None
        if report.declared is None
        else {
            "profile": report.declared.profile,
            "plays": report.declared.plays,
            "off_profile": report.declared.off_profile_readings(),
            "implemented": {v: sorted(r) for v, r in report.declared.implemented.items()},
            "capabilities": sorted(report.declared.capabilities),
            "lacking_capabilities": sorted(set(CAPABILITIES) - report.declared.capabilities),
        },
        "declaration_error": report.declaration_error,
        "ok": report.ok and not report.interrupted,
        "interrupted": report.interrupted,
        "stopped": None if report.stopped is None else report.stopped.as_json(),
        "seconds": round(report.seconds, 3),
        "checked": report.checked,
        "summary": {s: report.count(s) for s in STATUSES},
        "by_family": by_family(report),
        "not_run": [
            {"status": status, "lacking": lacking, "by_family": families}
            for (status, lacking), families in not_run_by_reason(report).items()
        ],
        "unknown_xfails": report.unknown_xfails,
        "strict": report.strict,
        "stale_xfails": [
            {
                "file": stale.entry.file,
                "line": stale.entry.line,
                "pattern": stale.entry.pattern,
                "reason": stale.entry.reason,
                "passed": list(stale.passed),
            }
            for stale in report.stale_xfails
        ],
        "cases": [
            {
                "id": o.case.id,
                "kind": o.case.kind,
                "title": o.case.title,
                "file": o.case.file,
                "clauses": o.case.clauses,
                "rules": [clause_link(c, rules) for c in o.case.clauses],
                "requires": {k: list(v) if len(v) > 1 else v[0] for k, v in o.case.pins.items()},
                "capabilities": list(o.case.capabilities),
                "alternative": None if o.alternative is None else {
                    "index": o.alternative,
                    "requires": {k: list(v) if len(v) > 1 else v[0]
                                 for k, v in o.case.alternatives[o.alternative].requires.items()},
                },
                "status": o.status,
                "lacking": list(o.lacking),
                "raw_status": o.raw_status,
                "reason": o.reason,
                "message": o.message,
                "expected": o.expected,
                "actual": o.actual,
                "diff": o.diff,
                "xfail_reason": o.xfail_reason,
                "engine_restarted": o.engine_restarted,
                "stderr": o.stderr,
                "seconds": round(o.seconds, 3),
                "rerun": rerun_command(report, o, extra_args),
            }
            for o in report.outcomes
        ],
    }


def write_json(report: RunReport, path: Path, extra_args: list[str] | None = None) -> None:
    """Write the JSON report, and the copy of the rules document its links need beside it
    (unless BALOOT_RULES_URL names the published one)."""
    rules = document_beside(path.parent)
    path.write_text(
        json.dumps(report_as_json(report, extra_args, rules=rules), indent=2) + "\n",
        encoding="utf-8",
    )


def junit_properties(report: RunReport) -> dict[str, str]:
    """The <properties> of the JUnit report: who ran what, under which readings."""
    name, version = engine_identity(report)
    properties = {
        "engine": name or "",
        "engine.version": version or "",
        "engine.command": shlex.join(report.engine_argv),
        "profile": report.profile,
        "readings": played_readings(report),
        "pack": report.pack.name,
        "pack.version": report.pack.version,
    }
    if report.declared is not None:
        properties["capabilities"] = ", ".join(sorted(report.declared.capabilities))
    if report.declaration_error:
        properties["declaration_error"] = report.declaration_error
    properties["strict"] = "true" if report.strict else "false"
    properties["interrupted"] = "true" if report.interrupted else "false"
    if report.stopped is not None:
        properties["stopped"] = report.stopped.reason
    return properties


def stale_xfail_properties(report: RunReport) -> list[str]:
    """One `xfail.stale` property value per stale xfail line: `FILE:LINE PATTERN`."""
    return [f"{s.entry.where} {s.entry.pattern}" for s in report.stale_xfails]


def failure_type(outcome: CaseOutcome) -> str:
    """The `type` of a failed case's <failure> (see DIFFERS)."""
    return DIFFERS if outcome.expected is not None or outcome.actual is not None else (
        NOT_AS_SCRIPTED
    )


def junit_failures(report: RunReport) -> int:
    """The suite's `failures`: the failed cases, and under --strict the unexpected passes."""
    return report.count(FAILED) + (report.count(XPASSED) if report.strict else 0)


def write_junit(report: RunReport, path: Path, *, now: datetime | None = None) -> None:
    """Write the JUnit report, and the copy of the rules document its links need beside it
    (unless BALOOT_RULES_URL names the published one)."""
    rules = document_beside(path.parent)
    suite = ET.Element(
        "testsuite",
        name=f"baloot-conformance {report.pack.name} {report.pack.version}",
        tests=str(len(report.outcomes)),
        failures=str(junit_failures(report)),
        errors=str(report.count(ERRORED)),
        skipped=str(report.count(SKIPPED) + report.count(UNSUPPORTED) + report.count(XFAILED)),
        time=f"{report.seconds:.3f}",
        timestamp=run_started(report, now).isoformat(),
    )
    properties = ET.SubElement(suite, "properties")
    for key, value in junit_properties(report).items():
        ET.SubElement(properties, "property", name=key, value=value)
    for value in stale_xfail_properties(report):
        ET.SubElement(properties, "property", name="xfail.stale", value=value)
    for o in report.outcomes:
        _add_testcase(suite, o, rules, strict=report.strict)
    if report.interrupted:
        ET.SubElement(suite, "system-err").text = (
            "the run was interrupted"
            + (f" ({report.stopped.describe()})" if report.stopped else "")
            + f": this report covers the {len(report.outcomes)} cases that ran before it "
            "stopped")
    elif report.stopped is not None:  # the engine was launched no more: every case is here
        ET.SubElement(suite, "system-err").text = (
            f"the run {report.stopped.describe()}: every case is listed, those not run "
            "errored")
    for element in suite.iter():  # an engine's text may hold bytes XML cannot carry
        element.text = _xml_safe(element.text) if element.text is not None else None
        for key, value in element.attrib.items():
            element.set(key, _xml_safe(value))
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


def _add_testcase(suite: ET.Element, o: CaseOutcome, rules: str, *, strict: bool) -> None:
    family = o.case.clauses[0].split(".")[0]
    element = ET.SubElement(
        suite,
        "testcase",
        classname=f"{family}.{o.case.kind}",
        name=o.case.id,
        time=f"{o.seconds:.3f}",
    )
    links = "\n".join(f"rules: {clause_link(c, rules)}" for c in o.case.clauses)
    text = f"clauses: {', '.join(o.case.clauses)}\n{links}\n{o.message}\n{o.diff}".strip()
    first_line = o.message.splitlines()[0] if o.message else ""
    if o.status == FAILED:
        ET.SubElement(element, "failure", type=failure_type(o), message=first_line).text = text
    elif o.status == ERRORED:
        ET.SubElement(
            element, "error", type=o.reason or ERRORED, message=f"{o.reason}: {first_line}"
        ).text = text
    elif o.status in (SKIPPED, UNSUPPORTED):
        ET.SubElement(element, "skipped", type=o.status, message=f"{o.status}: {o.message}")
    elif o.status == XFAILED:
        ET.SubElement(
            element, "skipped", type=XFAILED, message=f"expected failure: {o.xfail_reason}"
        )
    elif o.status == XPASSED and strict:
        reason = o.xfail_reason or ""
        ET.SubElement(
            element, "failure", type=STRICT_XPASS,
            message=f"passed, but listed as an expected failure (--strict): {reason}",
        ).text = (f"clauses: {', '.join(o.case.clauses)}\n{links}\n"
                  f"listed in --xfail because: {reason}\n"
                  "the case passes now: take its line off the xfail list")
    elif o.status == XPASSED:
        ET.SubElement(
            element, "system-out"
        ).text = f"passed but listed as xfail: {o.xfail_reason}"
    elif o.status != PASSED:
        raise ValueError(f"case {o.case.id}: no JUnit form for status {o.status!r}")


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_safe(text: str) -> str:
    """`text` with the characters XML 1.0 forbids (control bytes, lone surrogates) written
    as escapes, so the report parses whatever the engine printed."""
    return _NOT_XML.sub(lambda m: ascii(m.group())[1:-1], text)
