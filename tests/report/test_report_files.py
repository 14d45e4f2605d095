"""The JSON and JUnit reports of `baloot conform`, on real runs of three engines
(conftest.py): the JSON report against its JSON Schema and format version, the
JUnit report against a published JUnit XSD (junit-10.xsd, vendored here)."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from lxml import etree

from baloot.cli.main import main as cli_main
from baloot.conformance.harness.report_files import (
    DIFFERS,
    NOT_AS_SCRIPTED,
    REPORT_FORMAT,
)
from baloot.conformance.protocol.schemas import schema_errors

from ..conformance.conftest import engine_command, legal_case, write_pack
from .conftest import HOSTILE_HELLO, MARKUP_NAME, EngineRunFiles

XSD = Path(__file__).parent / "junit-10.xsd"
STATUSES = {"passed", "failed", "errored", "skipped", "unsupported", "xfailed", "xpassed"}


@cache
def junit_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD)))


def xsd_errors(document: bytes) -> list[str]:
    schema = junit_schema()
    if schema.validate(etree.fromstring(document)):
        return []
    return [str(error) for error in schema.error_log]


def report_schema() -> dict[str, Any]:
    text = (resources.files("baloot.conformance") / "schema" / "report.json").read_text()
    schema: dict[str, Any] = json.loads(text)
    return schema


def closed(schema: Any) -> Any:
    """The schema with `additionalProperties: false` on every object that lists its
    properties: a report validating against it has no field the schema leaves out."""
    if isinstance(schema, dict):
        out = {k: closed(v) for k, v in schema.items()}
        if "properties" in schema and "additionalProperties" not in schema:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [closed(v) for v in schema]
    return schema


def closed_errors(report: dict[str, Any]) -> list[str]:
    validator = Draft202012Validator(closed(report_schema()))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(report)]


# ---------------------------------------------------------------------- JSON --


def test_the_runs_reach_every_status(engine_runs: dict[str, EngineRunFiles]) -> None:
    statuses = {name: {c["status"] for c in run.report["cases"]}
                for name, run in engine_runs.items()}
    assert statuses["reference"] == {"passed"}
    assert {"failed", "skipped", "unsupported"} <= statuses["hostile"]
    assert {"errored", "xfailed", "xpassed"} <= statuses["crashing"]
    assert set().union(*statuses.values()) == STATUSES
    assert [run.status for run in engine_runs.values()] == [0, 1, 1]


def test_json_reports_match_their_schema(engine_runs: dict[str, EngineRunFiles]) -> None:
    Draft202012Validator.check_schema(report_schema())
    for name, run in engine_runs.items():
        report = run.report
        assert report["format"] == REPORT_FORMAT == 1
        assert schema_errors("report", report) == [], name
        assert closed_errors(report) == [], f"{name}: a field the schema does not describe"
        started = datetime.fromisoformat(report["timestamp"])
        assert started.utcoffset() == timedelta(0)
        assert abs(datetime.now(UTC) - started) < timedelta(minutes=10)


def test_json_report_says_who_ran(engine_runs: dict[str, EngineRunFiles]) -> None:
    hostile = engine_runs["hostile"].report
    assert hostile["engine"]["name"] == MARKUP_NAME
    assert hostile["engine"]["version"] == HOSTILE_HELLO["version"]
    declared = hostile["declared"]
    assert declared["capabilities"] == sorted(HOSTILE_HELLO["capabilities"])
    assert "raises" in declared["lacking_capabilities"]
    assert all(len(readings) == 1 for readings in declared["implemented"].values())
    reference = engine_runs["reference"].report
    assert reference["engine"]["name"] == "baloot-reference"
    assert reference["declared"]["lacking_capabilities"] == []


def test_a_field_the_schema_does_not_describe_is_caught(
    engine_runs: dict[str, EngineRunFiles],
) -> None:
    report = copy.deepcopy(engine_runs["hostile"].report)
    report["cases"][0]["surprise"] = 1
    report["engine"]["surprise"] = 1
    found = closed_errors(report)
    assert len(found) == 2 and all("surprise" in f for f in found), found
    assert schema_errors("report", report) == []  # readers ignore fields they do not know


@pytest.mark.parametrize(
    ("path", "value", "needle"),
    [
        (("format",), 2, "format"),
        (("timestamp",), "yesterday", "timestamp"),
        (("cases", 0, "status"), "fine", "status"),
        (("checked",), -1, "checked"),
        (("summary",), {"passed": 1}, "summary"),
        (("engine", "command"), [], "command"),
        (("declared", "plays"), {"rounding": 3}, "plays"),
    ],
)
def test_schema_rejects_a_broken_report(
    engine_runs: dict[str, EngineRunFiles], path: tuple[Any, ...], value: Any, needle: str
) -> None:
    report = copy.deepcopy(engine_runs["reference"].report)
    holder = report
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    found = schema_errors("report", report)
    assert found and any(needle in f for f in found), found


def test_schema_requires_every_field(engine_runs: dict[str, EngineRunFiles]) -> None:
    report = copy.deepcopy(engine_runs["reference"].report)
    del report["format"], report["cases"][0]["rules"]
    found = schema_errors("report", report)
    assert any("'format' is a required property" in f for f in found), found
    assert any("'rules' is a required property" in f for f in found), found


# --------------------------------------------------------------------- JUnit --


def test_junit_reports_validate_against_the_published_xsd(
    engine_runs: dict[str, EngineRunFiles],
) -> None:
    for name, run in engine_runs.items():
        assert xsd_errors(run.junit_path.read_bytes()) == [], name


def test_the_xsd_check_can_fail(engine_runs: dict[str, EngineRunFiles]) -> None:
    suite = ET.fromstring(engine_runs["hostile"].junit_path.read_bytes())
    suite.find("properties/property").attrib.pop("value")  # type: ignore[union-attr]
    suite.find("testcase").set("verdict", "odd")  # type: ignore[union-attr]
    found = xsd_errors(ET.tostring(suite))
    assert any("value" in f for f in found) and any("verdict" in f for f in found), found


def properties(suite: ET.Element) -> dict[str, str]:
    return {p.get("name", ""): p.get("value", "") for p in suite.iterfind("properties/property")}


def test_junit_carries_properties_and_a_timestamp(
    engine_runs: dict[str, EngineRunFiles],
) -> None:
    for run in engine_runs.values():
        report = run.report
        suite = ET.parse(run.junit_path).getroot()
        found = properties(suite)
        assert found["engine"] == report["engine"]["name"]
        assert found["engine.version"] == report["engine"]["version"]
        assert found["profile"] == report["profile"] == "literal"
        assert found["pack"] == report["pack"]["name"]
        assert found["pack.version"] == report["pack"]["version"]
        plays = report["declared"]["plays"]
        assert found["readings"] == ", ".join(f"{v}={r}" for v, r in sorted(plays.items()))
        assert found["capabilities"] == ", ".join(report["declared"]["capabilities"])
        # both are the time of writing less the run's length, so they may differ by a second
        between = datetime.fromisoformat(suite.get("timestamp", "")) - datetime.fromisoformat(
            report["timestamp"])
        assert abs(between) <= timedelta(seconds=2)
        assert int(suite.get("tests", "")) == len(report["cases"])
        assert int(suite.get("failures", "")) == report["summary"]["failed"]
        assert int(suite.get("errors", "")) == report["summary"]["errored"]
    assert properties(ET.parse(engine_runs["hostile"].junit_path).getroot())["engine"] == (
        MARKUP_NAME
    )


def test_junit_failures_errors_and_skips_have_types(
    engine_runs: dict[str, EngineRunFiles],
) -> None:
    for run in engine_runs.values():
        by_id = {c["id"]: c for c in run.report["cases"]}
        for testcase in ET.parse(run.junit_path).getroot().iterfind("testcase"):
            case = by_id[testcase.get("name", "")]
            outcome = [child for child in testcase if child.tag != "system-out"]
            if case["status"] in ("passed", "xpassed"):
                assert outcome == []
                continue
            (element,) = outcome
            if case["status"] == "failed":
                assert element.tag == "failure"
                expected_type = DIFFERS if case["diff"] else NOT_AS_SCRIPTED
                assert element.get("type") == expected_type
            elif case["status"] == "errored":
                assert element.tag == "error" and element.get("type") == case["reason"]
            else:
                assert element.tag == "skipped" and element.get("type") == case["status"]
    crashing = ET.parse(engine_runs["crashing"].junit_path).getroot()
    assert {e.get("type") for e in crashing.iterfind("testcase/error")} == {"exited"}
    hostile = ET.parse(engine_runs["hostile"].junit_path).getroot()
    assert {e.get("type") for e in hostile.iterfind("testcase/failure")} == {DIFFERS}


def test_a_refused_or_wrongly_accepted_action_is_a_failure_not_as_scripted(
    tmp_path: Path,
) -> None:
    pack = write_pack(tmp_path / "pack", [
        legal_case("accepts-what-it-must-refuse", kind="illegal", expect={"action": "pass"}),
        legal_case("refuses-a-scripted-action", actions=["0: ashkal"]),
    ])
    run = conform_on(tmp_path, pack)
    assert xsd_errors(run.junit_path.read_bytes()) == []
    failures = ET.parse(run.junit_path).getroot().findall("testcase/failure")
    assert [f.get("type") for f in failures] == [NOT_AS_SCRIPTED, NOT_AS_SCRIPTED]


def conform_on(folder: Path, pack: Path) -> EngineRunFiles:
    """`good` (a fake engine of the conformance tests) on a small pack."""
    json_path, junit_path = folder / "r.json", folder / "r.xml"
    status = cli_main(["conform", "--engine", engine_command("good"), "--cases", str(pack),
                       "--json", str(json_path), "--junit", str(junit_path)])
    return EngineRunFiles(status, json_path, junit_path)

