"""The hostile-input campaigns, small: mutated spec texts, case files and engine replies
each end in our error or a success, never another exception, never a hang. The scripts
run at full size by hand (`python tests/hostile/campaign_spec.py --count 10000`, ...);
here each runs a few dozen inputs, and Hypothesis draws more of each kind."""

from __future__ import annotations

import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import campaign_cases
import campaign_replies
import campaign_spec
import pytest
from campaign_common import OURS, SUCCESS, Tally, attempt, check_reports, json_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot.conformance.harness.pack import Pack
from baloot.conformance.harness.report_files import write_junit
from baloot.conformance.harness.runner import Runner, RunReport

CHEAP = settings(max_examples=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def assert_clean(tally: Tally) -> None:
    assert tally.clean, tally.report()
    assert tally.inputs and tally.ours  # the inputs were hostile enough to be refused


def test_the_spec_campaign() -> None:
    assert_clean(campaign_spec.run_campaign(40, seed=1))


def test_the_case_file_campaign() -> None:
    assert_clean(campaign_cases.run_campaign(60, seed=1))


def test_the_reply_campaign_in_process_and_through_a_pipe() -> None:
    assert_clean(campaign_replies.run_campaign(120, seed=1, pipe=1))


@pytest.mark.parametrize("module", [campaign_spec, campaign_cases, campaign_replies])
def test_each_campaign_prints_its_counts(module: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert module.main(["--count", "2", "--seed", "3"]) == 0
    assert re.search(r"\d+ inputs, \d+ our errors, \d+ successes, 0 tracebacks, 0 hangs",
                     capsys.readouterr().out)


def _outcome(run: Any) -> str:
    tally = Tally("one input")
    outcome = attempt(tally, "drawn input", run, 30)
    assert tally.clean, tally.report()
    return outcome


# ---- Hypothesis draws the hostile part -----------------------------------------------

HOSTILE_TEXT = st.lists(st.text(st.characters(codec="utf-8"), max_size=4) | st.sampled_from(
    ["\x00", "\r", "\u2028", "\ufeff", '"', "\\", "{", "(" * 200, "9" * 30]), max_size=6).map(
    "".join)


@settings(CHEAP, max_examples=20)  # a spec check costs about 0.2 s
@given(st.sampled_from(sorted(campaign_spec.TEXTS)), st.floats(0, 1), HOSTILE_TEXT,
       st.integers(0, 40))
def test_any_text_anywhere_in_a_spec_file(name: str, where: float, text: str,
                                          cut: int) -> None:
    original = campaign_spec.TEXTS[name]
    at = int(where * len(original))
    data = (original[:at] + text + original[at + cut:]).encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        assert _outcome(lambda: campaign_spec.read_spec(Path(tmp), name, data)) in (
            OURS, SUCCESS)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**20) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8,
)


@CHEAP
@given(st.integers(0, len(campaign_cases.CASES) - 1), st.data())
def test_any_value_anywhere_in_a_case(index: int, data: st.DataObject) -> None:
    case = json.loads(json.dumps(campaign_cases.CASES[index]))
    paths = json_paths(case)[1:]
    path = data.draw(st.sampled_from(paths))
    parent = case
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = data.draw(JSON_VALUES)
    manifest = json.dumps(campaign_cases.MANIFEST).encode("utf-8")
    text = json.dumps({"description": "drawn", "cases": [case]}).encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        _outcome(lambda: campaign_cases.run_pack(Path(tmp) / "p", manifest, text))


class DrawnEngine(campaign_replies.HostileEngine):
    """Replies whose hostile values Hypothesis draws."""

    def __init__(self, data: st.DataObject) -> None:
        super().__init__(random.Random(0), rate=0.0)
        self.data = data

    def request(self, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        if self._adapter is None or not self.data.draw(st.booleans(), label="hostile"):
            return super().request(message, timeout)
        self._seq += 1
        sent = {"seq": self._seq, **message}
        reply = self._adapter.handle(json.dumps(sent))
        paths = json_paths(reply)[1:]
        path = self.data.draw(st.sampled_from(paths), label="where")
        parent: Any = reply
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = self.data.draw(JSON_VALUES, label="value")
        return self._check_reply(sent, json.dumps(reply).encode("utf-8"))


@CHEAP
@given(st.data())
def test_any_value_anywhere_in_a_reply(data: st.DataObject) -> None:
    cases = data.draw(st.lists(st.sampled_from(campaign_replies.PACK.cases), min_size=1,
                               max_size=3))
    engine = DrawnEngine(data)
    pack = campaign_replies.PACK

    def run() -> str:
        report = Runner(engine, campaign_replies.REGISTER).run(
            Pack(pack.name, pack.version, pack.protocol, pack.folder, cases), cases)
        with tempfile.TemporaryDirectory() as tmp:
            check_reports(report, Path(tmp))
        return OURS

    _outcome(run)


def test_the_junit_report_of_an_interrupted_run_says_so(tmp_path: Path) -> None:
    pack = campaign_replies.PACK
    report = RunReport(Pack(pack.name, pack.version, pack.protocol, pack.folder, []),
                       ["engine"], "literal", {}, interrupted=True)
    write_junit(report, tmp_path / "r.xml")
    suite = ElementTree.parse(tmp_path / "r.xml").getroot()
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["interrupted"] == "true"
    assert "was interrupted" in (suite.findtext("system-err") or "")
    report.interrupted = False
    write_junit(report, tmp_path / "whole.xml")
    whole = ElementTree.parse(tmp_path / "whole.xml").getroot()
    assert {p.get("name"): p.get("value") for p in whole.iter("property")}["interrupted"] == (
        "false")
    assert whole.find("system-err") is None
