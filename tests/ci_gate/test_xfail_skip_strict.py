"""The expected-failure features of `baloot conform`, on tiny packs and the fake engines of
the conformance tests: xfail globs and stale lines, `--skip`, `--strict` and `--write-xfail`.

`good` knows the first bid only: the dealer's right may pass, bid hokum or sun, and
ashkal is refused. A case expecting `pass` alone fails on it; the plain legal case
passes.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main
from baloot.conformance.harness import exit_status

from ..conformance.conftest import engine_command, legal_case, write_pack

WRONG = {"player": 0, "actions": ["pass"]}  # `good` offers hokum and sun too


def wrong_case(case_id: str, **overrides: Any) -> dict[str, Any]:
    return legal_case(case_id, expect=WRONG, **overrides)


class Run:
    def __init__(self, status: int, report: dict[str, Any], text: str, junit: ET.Element | None):
        self.status, self.report, self.text, self.junit = status, report, text, junit

    @property
    def by_id(self) -> dict[str, dict[str, Any]]:
        return {c["id"]: c for c in self.report["cases"]}

    def properties(self, name: str) -> list[str]:
        assert self.junit is not None
        return [p.get("value", "") for p in self.junit.iterfind("properties/property")
                if p.get("name") == name]


@pytest.fixture
def conform(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    def run(pack: Path, *extra: str, engine: str = "good") -> Run:
        json_path, junit_path = tmp_path / "r.json", tmp_path / "r.xml"
        for old in (json_path, junit_path):
            old.unlink(missing_ok=True)
        status = main(["conform", "--engine", engine_command(engine), "--cases", str(pack),
                       "--json", str(json_path), "--junit", str(junit_path), *extra])
        out = capsys.readouterr()
        report = json.loads(json_path.read_text()) if json_path.exists() else {}
        junit = ET.parse(junit_path).getroot() if junit_path.exists() else None
        return Run(status, report, out.out + out.err, junit)

    return run


# ----------------------------------------------------------------- globs --


def test_xfail_globs_take_the_exact_line_first_then_the_first_glob(
    conform: Any, tmp_path: Path
) -> None:
    pack = write_pack(tmp_path / "p", [wrong_case("wrong.a"), wrong_case("wrong.b"),
                                       wrong_case("wrong.c"), legal_case("right")])
    xfail = tmp_path / "x.txt"
    xfail.write_text("wrong.b      the exact line\n"
                     "wrong.*      the first glob\n"
                     "w*           a later glob\n")
    run = conform(pack, "--xfail", str(xfail))
    assert run.status == exit_status.OK, run.text
    reasons = {i: (c["status"], c["xfail_reason"]) for i, c in run.by_id.items()}
    assert reasons == {
        "wrong.a": ("xfailed", "the first glob"),
        "wrong.b": ("xfailed", "the exact line"),
        "wrong.c": ("xfailed", "the first glob"),
        "right": ("passed", None),
    }
    assert run.report["stale_xfails"] == []  # `w*` applied to no case: nothing to tell


def test_a_line_whose_cases_all_pass_is_stale_and_strict_fails_the_run(
    conform: Any, tmp_path: Path
) -> None:
    pack = write_pack(tmp_path / "p", [wrong_case("wrong.a"), legal_case("right.a"),
                                       legal_case("right.b"), legal_case("fine")])
    xfail = tmp_path / "x.txt"
    xfail.write_text("# the engine's known differences\n"
                     "wrong.a   knows too many bids\n"
                     "right.*   fixed since\n"
                     "\n"
                     "fine      fixed too\n")
    run = conform(pack, "--xfail", str(xfail))
    assert run.status == exit_status.OK
    assert run.report["ok"] is True and run.report["strict"] is False
    stale = [(s["line"], s["pattern"], s["reason"], s["passed"], s["file"])
             for s in run.report["stale_xfails"]]
    assert stale == [(3, "right.*", "fixed since", ["right.a", "right.b"], str(xfail)),
                     (5, "fine", "fixed too", ["fine"], str(xfail))]
    assert f"stale xfail line {xfail}:3 right.*" in run.text
    assert f"stale xfail line {xfail}:5 fine" in run.text
    assert f"stale xfail line {xfail}:2" not in run.text
    assert run.properties("xfail.stale") == [f"{xfail}:3 right.*", f"{xfail}:5 fine"]
    assert run.properties("strict") == ["false"]

    strict = conform(pack, "--xfail", str(xfail), "--strict")
    assert strict.status == exit_status.UNEXPECTED_PASSES == 5
    assert strict.report["ok"] is False and strict.report["strict"] is True
    assert strict.report["summary"]["xpassed"] == 3
    assert "--strict: 3 case(s) listed in --xfail passed" in strict.text
    assert strict.properties("strict") == ["true"]


def test_a_failure_outranks_an_unexpected_pass_under_strict(
    conform: Any, tmp_path: Path
) -> None:
    pack = write_pack(tmp_path / "p", [wrong_case("wrong.a"), legal_case("right")])
    xfail = tmp_path / "x.txt"
    xfail.write_text("right  fixed since\n")
    assert conform(pack, "--xfail", str(xfail), "--strict").status == exit_status.FAILURES


@pytest.mark.parametrize(("text", "line", "needle"), [
    ("wrong.a  fine\nnothing.*  no case has this id\n", 2, "the glob 'nothing.*' matches no case"),
    ("BID.*  a clause glob\n", 1, "neither a case id nor a glob of case ids"),
    ("wrong.a\n", 1, "the reason is required"),
    ("wrong.a  one\n\nwrong.a  two\n", 3, "'wrong.a' is listed twice"),
])
def test_a_bad_xfail_line_is_an_error_naming_file_and_line(
    conform: Any, tmp_path: Path, text: str, line: int, needle: str
) -> None:
    pack = write_pack(tmp_path / "p", [wrong_case("wrong.a")])
    xfail = tmp_path / "x.txt"
    xfail.write_text(text)
    run = conform(pack, "--xfail", str(xfail))
    assert run.status == exit_status.USAGE
    assert f"{xfail}:{line}: " in run.text and needle in run.text, run.text
    assert "Traceback" not in run.text and run.report == {}  # stopped before any case ran


def test_an_unreadable_xfail_file_is_an_error_naming_it(conform: Any, tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "p", [wrong_case("wrong.a")])
    binary = tmp_path / "latin1.txt"
    binary.write_bytes(b"wrong.a  caf\xe9\n")
    for path, needle in ((tmp_path, "cannot read"), (binary, "not UTF-8 text")):
        run = conform(pack, "--xfail", str(path))
        assert run.status == exit_status.USAGE
        assert f"{path}: {needle}" in run.text and "Traceback" not in run.text


# ------------------------------------------------------------------ skip --


def test_skipped_cases_are_reported_as_skipped_by_the_user_not_run(
    conform: Any, tmp_path: Path
) -> None:
    pack = write_pack(tmp_path / "p", [
        wrong_case("wrong.a"), wrong_case("wrong.b"), wrong_case("scored", clauses=["SCORE.7"]),
        wrong_case("flaky"), legal_case("right"),
    ])
    skip_file = tmp_path / "skip.txt"
    skip_file.write_text("# cases we do not run\nflaky   times out on the CI machines\n")
    xfail = tmp_path / "x.txt"
    xfail.write_text("wrong.a  listed, but skipped first\n")
    run = conform(pack, "--skip", "wrong.*", "--skip", "SCORE.*", "--skip-file",
                  str(skip_file), "--xfail", str(xfail))
    assert run.status == exit_status.OK, run.text  # the failing cases never ran
    statuses = {i: (c["status"], c["reason"], c["message"]) for i, c in run.by_id.items()}
    assert statuses == {
        "wrong.a": ("skipped", "skipped by the user", "skipped by the user"),
        "wrong.b": ("skipped", "skipped by the user", "skipped by the user"),
        "scored": ("skipped", "skipped by the user", "skipped by the user"),
        "flaky": ("skipped", "skipped by the user",
                  f"skipped by the user: times out on the CI machines ({skip_file}:2)"),
        "right": ("passed", None, ""),
    }
    assert run.report["checked"] == 1
    (not_run,) = run.report["not_run"]
    assert not_run["status"] == "skipped" and not_run["lacking"] == "skipped by the user"
    assert not_run["by_family"] == {"BID": 3, "SCORE": 1}
    assert run.report["stale_xfails"] == []  # a skipped case says nothing of its line
    skipped = run.junit.findall("testcase/skipped") if run.junit is not None else []
    assert len(skipped) == 4 and all(s.get("type") == "skipped" for s in skipped)


@pytest.mark.parametrize("use_file", [False, True])
def test_a_skip_matching_no_case_is_an_error(
    conform: Any, tmp_path: Path, use_file: bool
) -> None:
    pack = write_pack(tmp_path / "p", [legal_case("right")])
    if use_file:
        skip_file = tmp_path / "skip.txt"
        skip_file.write_text("right  fine\nghost.*  no such case\n")
        run, where = conform(pack, "--skip-file", str(skip_file)), f"{skip_file}:2"
    else:
        run, where = conform(pack, "--skip", "right", "--skip", "ghost.*"), "--skip ghost.*"
    assert run.status == exit_status.USAGE
    assert f"{where}: matches no case of the pack test-pack 9.8.7" in run.text, run.text
    assert "Traceback" not in run.text and run.report == {}


# ----------------------------------------------------------- write-xfail --


def listed(path: Path) -> list[tuple[str, str]]:
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return [(line.split(None, 1)[0], line.split(None, 1)[1]) for line in lines]


def test_write_xfail_lists_every_failure_and_reading_it_back_passes(
    conform: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`hostile` (HOSTILE=control) answers the first `legal` of its second game with an
    error holding control bytes; the engine is then restarted, so every second case errors."""
    monkeypatch.setenv("HOSTILE", "control")
    pack = write_pack(tmp_path / "p", [
        legal_case("right"),                                  # game 1: passes
        legal_case("errs.a"),                                 # game 2: errors
        wrong_case("wrong.b"),                                # a new engine's game 1: fails
        legal_case("refused", actions=["0: ashkal"]),         # game 2: errors
        legal_case("refused.alone", actions=["0: ashkal"]),   # game 1: refused, fails
    ])
    written = tmp_path / "engine.xfail"
    run = conform(pack, "--write-xfail", str(written), engine="hostile")
    assert run.status == exit_status.FAILURES
    failing = {i: c for i, c in run.by_id.items() if c["status"] in ("failed", "errored")}
    assert sorted(failing) == ["errs.a", "refused", "refused.alone", "wrong.b"]
    assert [case_id for case_id, _ in listed(written)] == sorted(failing)
    text = written.read_text()
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert any("fake 1" in h for h in header)  # the engine's name and version
    assert any("profile literal" in h and "test-pack 9.8.7" in h for h in header)
    for case_id, reason in listed(written):
        case = failing[case_id]
        first = case["message"].splitlines()[0].strip()
        if case["status"] == "errored":
            assert reason.startswith(f"{case['reason']}: ")
            assert "\x07" not in reason and "\\x07" in reason  # one line, bytes escaped
        else:
            assert reason == first
    assert "\x07" not in text and "\x0b" not in text

    back = conform(pack, "--xfail", str(written), "--strict", engine="hostile")
    assert back.status == exit_status.OK, back.text
    assert {c["status"] for i, c in back.by_id.items() if i in failing} == {"xfailed"}
    assert back.report["stale_xfails"] == []

    # written again from the run that read it, the list keeps its reasons
    again = tmp_path / "again.xfail"
    conform(pack, "--xfail", str(written), "--write-xfail", str(again), engine="hostile")
    assert listed(again) == listed(written)


def test_write_xfail_keeps_the_reasons_of_the_list_and_drops_what_passes(
    conform: Any, tmp_path: Path
) -> None:
    pack = write_pack(tmp_path / "p", [wrong_case("wrong.a"), wrong_case("wrong.b"),
                                       legal_case("right")])
    xfail = tmp_path / "x.txt"
    xfail.write_text("wrong.*  bids beyond the first are not done\nright  fixed since\n")
    written = tmp_path / "new.xfail"
    run = conform(pack, "--xfail", str(xfail), "--write-xfail", str(written))
    assert run.status == exit_status.OK
    assert listed(written) == [("wrong.a", "bids beyond the first are not done"),
                               ("wrong.b", "bids beyond the first are not done")]
    assert conform(pack, "--xfail", str(written), "--strict").status == exit_status.OK
