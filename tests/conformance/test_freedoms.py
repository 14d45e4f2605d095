"""No false verdict under the protocol's freedoms: an engine that answers as freely as
PROTOCOL.md lets it (`fake_engines/freedom_proxy.py`: hands and every free-order list in
another order each reply, extra fields at the top and at every depth with values that
change, optional fields left out) passes the whole pack and agrees with the reference
under `baloot fuzz`, each freedom alone and all at once; and a real difference (a card of
a hand changed by a refused action, the trick's cards out of order) is still caught.
The freedoms are those the schemas list (`protocol/normal_form.freedoms`), so a freedom
added to a schema is one the proxy uses, or this test names it."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import default_pack_folder
from baloot.conformance.protocol import normal_form
from baloot.conformance.protocol.normal_form import Freedom, comparable, freedoms

FAKE_ENGINES = Path(__file__).parent / "fake_engines"
sys.path.insert(0, str(FAKE_ENGINES))
import freedom_proxy  # noqa: E402

# The refusals (a state before and after), and results with projects: a chance for each
# freedom (the whole pack runs with every freedom at once).
SUBSET = ("--only", "refusal.*", "--only", "explore.projects*", "--only", "depth.score*")
PROXY = [sys.executable, str(FAKE_ENGINES / "freedom_proxy.py")]


def proxy(*modes: str) -> str:
    return shlex.join([*PROXY, *modes])


def conform(engine: str, tmp_path: Path, *options: str) -> dict[str, int]:
    report = tmp_path / "report.json"
    cli_main(["conform", "--engine", engine, "--json", str(report), *options])
    summary: dict[str, int] = json.loads(report.read_text())["summary"]
    return summary


def fuzz(engine: str, capsys: pytest.CaptureFixture[str], rounds: int) -> tuple[int, str]:
    status = cli_main(["fuzz", "--engine", engine, "--rounds", str(rounds), "--seed", "1",
                       "--no-shrink"])
    return status, capsys.readouterr().err


def test_every_freedom_the_schemas_list_has_a_mode_of_the_proxy() -> None:
    listed = freedoms()
    kinds = {f.kind for f in listed}
    assert kinds == set(normal_form.FREEDOM_KINDS)
    assert [f for f in listed if freedom_proxy.mode_of(f) is None] == []
    # the freedoms PROTOCOL.md names are among them
    for kind, reply, path in [
        ("order", "state.reply", "/state/hands/*"),
        ("order", "legal.reply", "/actions"),
        ("order", "result.reply", "/result/projects/*"),
        ("extra", "state.reply", "/state/bids/*"),
        ("extra", "state.reply", "/state/contract"),
        ("optional", "state.reply", "/state/face_up"),
        ("optional", "state.reply", "/state/contract/ashkal"),
        ("optional", "result.reply", "/result/contract/ashkal"),
    ]:
        assert Freedom(kind, reply, path) in listed


@pytest.mark.parametrize("mode", freedom_proxy.FREEDOM_MODES)
def test_each_freedom_alone_fails_no_case_and_each_is_used(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "used.txt"
    monkeypatch.setenv("FREEDOM_LOG", str(log))
    summary = conform(proxy(mode), tmp_path, *SUBSET)
    assert summary["failed"] == 0 and summary["errored"] == 0 and summary["passed"] >= 100
    used = {Freedom(*line.split(" ")) for line in log.read_text().splitlines()}
    wanted = {f for f in freedoms() if freedom_proxy.uses(mode, f)}
    assert wanted and wanted <= used  # the pack gives every one of them a chance


def test_every_freedom_at_once_fails_no_case_of_the_pack(tmp_path: Path) -> None:
    summary = conform(proxy("all"), tmp_path)
    cases = len(lint_pack(default_pack_folder())[0].cases)
    assert summary == {**summary, "failed": 0, "errored": 0, "passed": cases}


@pytest.mark.parametrize("mode", [*freedom_proxy.FREEDOM_MODES, "all"])
def test_the_fuzzer_finds_no_disagreement_under_the_freedoms(
    mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = fuzz(proxy(mode), capsys, 24 if mode == "all" else 8)
    assert status == 0, err
    assert "no disagreement" in err


def test_a_card_changed_by_a_refused_action_is_still_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = conform(proxy("all", "bug_hand_after_refusal"), tmp_path, "--only", "refusal.play*")
    assert summary["failed"] >= 5
    status, err = fuzz(proxy("all", "bug_hand_after_refusal"), capsys, 12)
    assert status == 1 and "changed_after_refusal:" in err


def test_the_tricks_order_is_not_free(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    status, err = fuzz(proxy("all", "bug_trick_order"), capsys, 4)
    assert status == 1 and "state:playing:trick:PLAY.2" in err
    # and a case of the pack sees it: a trick of three cards shown in play order
    summary = conform(proxy("all", "bug_trick_order"), tmp_path, "--only",
                      "play.legal.trick-in-play-order")
    assert summary["failed"] == 1


def test_the_normal_form_keeps_what_is_not_free() -> None:
    state: dict[str, Any] = {"phase": "playing", "hands": [["9H", "AS"], [], [], []],
             "trick": [{"seat": 0, "card": "9H"}, {"seat": 1, "card": "AS"}],
             "contract": {"kind": "sun", "trump": None, "bidder": 1, "ashkal": False}}
    freer = {**state, "hands": [["AS", "9H"], [], [], []], "note": 1,
             "contract": {"kind": "sun", "trump": None, "bidder": 1, "caller": 1}}
    a, b = comparable(state, freer, "state")
    assert a == b  # a hand's order, an extra field, an optional field sent once
    reversed_trick = {**state, "trick": state["trick"][::-1]}
    a, b = comparable(state, reversed_trick, "state")
    assert a != b
    other_card = {**state, "hands": [["9H", "KS"], [], [], []]}
    a, b = comparable(state, other_card, "state")
    assert a != b
