"""Machine-readable reports: `--json FILE` and `--junit FILE`."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from baloot.conformance.harness.report_console import (
    STATUSES,
    by_family,
    not_run_by_reason,
    rerun_command,
)
from baloot.conformance.harness.rules_links import clause_link
from baloot.conformance.harness.runner import (
    ERRORED,
    FAILED,
    SKIPPED,
    UNSUPPORTED,
    XFAILED,
    XPASSED,
    RunReport,
)


def report_as_json(report: RunReport, extra_args: list[str] | None = None) -> dict[str, Any]:
    return {
        "pack": {"name": report.pack.name, "version": report.pack.version},
        "engine": {
            "command": report.engine_argv,
            "hello": report.hello,
            "starts": report.engine_starts,
        },
        "profile": report.profile,
        "declared": None
        if report.declared is None
        else {
            "profile": report.declared.profile,
            "plays": report.declared.plays,
            "implemented": {v: sorted(r) for v, r in report.declared.implemented.items()},
            "capabilities": sorted(report.declared.capabilities),
        },
        "declaration_error": report.declaration_error,
        "ok": report.ok and not report.interrupted,
        "interrupted": report.interrupted,
        "seconds": round(report.seconds, 3),
        "checked": report.checked,
        "summary": {s: report.count(s) for s in STATUSES},
        "by_family": by_family(report),
        "not_run": [
            {"status": status, "lacking": lacking, "by_family": families}
            for (status, lacking), families in not_run_by_reason(report).items()
        ],
        "unknown_xfails": report.unknown_xfails,
        "cases": [
            {
                "id": o.case.id,
                "kind": o.case.kind,
                "file": o.case.file,
                "clauses": o.case.clauses,
                "rules": [clause_link(c) for c in o.case.clauses],
                "requires": {k: list(v) if len(v) > 1 else v[0] for k, v in o.case.pins.items()},
                "capabilities": list(o.case.capabilities),
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
                "seconds": round(o.seconds, 3),
                "rerun": rerun_command(report, o, extra_args),
            }
            for o in report.outcomes
        ],
    }


def write_json(report: RunReport, path: Path, extra_args: list[str] | None = None) -> None:
    path.write_text(
        json.dumps(report_as_json(report, extra_args), indent=2) + "\n", encoding="utf-8"
    )


def write_junit(report: RunReport, path: Path) -> None:
    suite = ET.Element(
        "testsuite",
        name=f"baloot-conformance {report.pack.name} {report.pack.version}",
        tests=str(len(report.outcomes)),
        failures=str(report.count(FAILED)),
        errors=str(report.count(ERRORED)),
        skipped=str(report.count(SKIPPED) + report.count(UNSUPPORTED) + report.count(XFAILED)),
        time=f"{report.seconds:.3f}",
    )
    for o in report.outcomes:
        family = o.case.clauses[0].split(".")[0]
        element = ET.SubElement(
            suite,
            "testcase",
            classname=f"{family}.{o.case.kind}",
            name=o.case.id,
            time=f"{o.seconds:.3f}",
        )
        links = "\n".join(f"rules: {clause_link(c)}" for c in o.case.clauses)
        text = f"clauses: {', '.join(o.case.clauses)}\n{links}\n{o.message}\n{o.diff}".strip()
        if o.status == FAILED:
            ET.SubElement(
                element, "failure", message=o.message.splitlines()[0] if o.message else ""
            ).text = text
        elif o.status == ERRORED:
            ET.SubElement(
                element, "error", message=f"{o.reason}: {o.message.splitlines()[0]}"
            ).text = text
        elif o.status in (SKIPPED, UNSUPPORTED):
            ET.SubElement(element, "skipped", message=f"{o.status}: {o.message}")
        elif o.status == XFAILED:
            ET.SubElement(element, "skipped", message=f"expected failure: {o.xfail_reason}")
        elif o.status == XPASSED:
            ET.SubElement(
                element, "system-out"
            ).text = f"passed but listed as xfail: {o.xfail_reason}"
    for element in suite.iter():  # an engine's text may hold bytes XML cannot carry
        element.text = _xml_safe(element.text) if element.text is not None else None
        for key, value in element.attrib.items():
            element.set(key, _xml_safe(value))
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_safe(text: str) -> str:
    """`text` with the characters XML 1.0 forbids (control bytes, lone surrogates) written
    as escapes, so the report parses whatever the engine printed."""
    return _NOT_XML.sub(lambda m: ascii(m.group())[1:-1], text)
