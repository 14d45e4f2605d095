"""Differential fuzzing: the reference agrees with itself and with engines that leave
parts of the game out; an engine with three planted bugs is reported as three
groups, each shrunk to a case that fails it and passes the reference; the
handshake's failures are one-line errors with their own exit statuses.

The planted-bug engine is `wrapped_engine.py` (the reference adapter with
capabilities removed and bugs planted on demand). Each bug's case is also
run on an engine with that bug alone, so a group is that bug's and no other's.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.fuzz_command import write_cases
from baloot.cli.main import main as cli_main
from baloot.conformance.fuzz.campaign import FuzzReport, Settings, run_campaign
from baloot.conformance.fuzz.casefile import case_from_replay, case_id_for, round_steps
from baloot.conformance.fuzz.driver import (
    Disagreement,
    Move,
    RoundTrace,
    random_trial,
    replay,
)
from baloot.conformance.fuzz.normal import action_shape
from baloot.conformance.harness.declared import CAPABILITIES
from baloot.conformance.harness.engine_process import REFERENCE_ARGV, EngineProcess
from baloot.conformance.harness.lint import lint_case
from baloot.conformance.harness.pack import case_from_json
from baloot.conformance.harness.protocol_notation import ALL_CARDS
from baloot.conformance.harness.runner import PASSED, Runner
from baloot.conformance.harness.variants import load_register
from baloot.conformance.pack_tools.case_needs import case_needs, needs_differ

WRAPPED = [sys.executable, str(Path(__file__).with_name("wrapped_engine.py"))]
# The planted bug -> the signature its group must have (kind:phase:what:clause).
PLANTED = {
    "triple_multiplier": "state:raising:multiplier:RAISE.1",
    "revoke_accepted": "accepted_illegal:playing:play:PLAY.2",
    "sun_last_trick": "result:round_over:last_trick_bunts:SCORE.2",
}
# The planted-bug engine also plays without `declarations` and overrides a reading.
HELLO = json.dumps({"overrides": {"void_in_hokum": "must_trump"}})
OPTIONS = ["--without", "declarations", "--hello", HELLO]


def wrapped(*options: str) -> list[str]:
    return [*WRAPPED, *options]


def planted(*bugs: str) -> list[str]:
    return wrapped(*OPTIONS, *itertools.chain.from_iterable(("--bug", b) for b in bugs))


def fuzz(capsys: pytest.CaptureFixture[str], argv: list[str], *options: str) -> tuple[int, str]:
    status = cli_main(["fuzz", "--engine", shlex.join(argv), *options])
    return status, capsys.readouterr().err


def run_cases(argv: list[str], cases: list[dict[str, Any]]) -> list[str]:
    """The runner's verdict on each case, on one engine process."""
    runner = Runner(EngineProcess(argv), load_register())
    try:
        return [runner.run_case(case_from_json(raw, "fuzz.json")).status for raw in cases]
    finally:
        runner.engine.close()


# ---- agreement --------------------------------------------------------------------


def test_the_reference_agrees_with_itself() -> None:
    report = run_campaign(Settings(argv=REFERENCE_ARGV, seed=7, games=12, game_rounds=2))
    assert not report.groups
    assert report.games == 12 and report.rounds >= 12
    print(f"fuzz throughput against the reference adapter: {report.games_per_second:.1f} games/s")


@pytest.mark.parametrize(
    "without",
    [
        ["raises", "declarations", "game_score"],
        ["ashkal", "raise_triple", "second_session", "redeal", "pass_only_turns"],
        ["projects", "declarations", "raise_gahwa"],
    ],
)
def test_an_engine_without_capabilities_agrees_with_the_reference(without: list[str]) -> None:
    """The engine leaves those parts out as PROTOCOL.md says (and reports their state
    fields empty, totals 0-0): the fuzzer plays the reference the same way and
    compares only what both can say."""
    options = [*itertools.chain.from_iterable(("--without", w) for w in without)]
    report = run_campaign(Settings(argv=wrapped(*options), seed=2, games=16), jobs=2)
    assert report.declared is not None
    assert report.declared.capabilities.isdisjoint(without)
    assert not report.groups, [g.example.disagreement for g in report.groups.values()]
    if "game_score" in without:
        assert report.rounds == report.games  # one round a game
    if "second_session" in without:
        assert report.ended["second_session"] >= 1  # played up to it, then stopped


def test_trials_are_reproducible_and_shards_split_the_seed() -> None:
    assert random_trial(3, 5, profile="literal") == random_trial(3, 5, profile="literal")
    assert random_trial(3, 5, profile="literal") != random_trial(3, 6, profile="literal")
    taken = [
        set(itertools.islice(Settings(REFERENCE_ARGV, 1, 9, shard=(k, 3)).indices(), 4))
        for k in (1, 2, 3)
    ]
    assert not (taken[0] & taken[1]) and not (taken[1] & taken[2])
    assert set().union(*taken) == set(range(12))


# ---- the planted bugs ----------------------------------------------------------------


@pytest.fixture(scope="module")
def planted_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[FuzzReport, dict[str, Path]]:
    """300 rounds of the planted-bug engine, the groups shrunk and written as cases."""
    out = tmp_path_factory.mktemp("fuzz-cases")
    began = time.monotonic()
    report = run_campaign(
        Settings(argv=planted(*PLANTED), seed=1, games=150, game_rounds=2),
        jobs=2,
        shrink_seconds=6.0,
        shrink_attempts=300,
    )
    written = write_cases(report, out, "the planted-bug engine")
    print(f"planted-bug run: {len(report.groups)} groups in {time.monotonic() - began:.1f} s")
    return report, {s: p for s, p in written.items() if p is not None}


def test_every_planted_bug_is_its_own_group_with_a_case_that_fails_it(
    planted_run: tuple[FuzzReport, dict[str, Path]],
) -> None:
    report, written = planted_run
    assert report.rounds >= 150
    assert sorted(report.groups) == sorted(PLANTED.values())
    assert sum(g.count for g in report.groups.values()) > len(PLANTED)  # grouped, not listed
    register = load_register()
    cases = []
    for signature in PLANTED.values():
        group = report.groups[signature]
        assert group.shrunk is not None and group.shrunk.signature == signature
        assert group.shrunk.actions <= group.example.actions
        case = json.loads(written[signature].read_text())["cases"][0]
        assert not lint_case(case_from_json(case, "fuzz.json"), case, register)
        cases.append(case)
    bugs = list(PLANTED)
    assert run_cases(REFERENCE_ARGV, cases) == [PASSED] * len(bugs)
    assert PASSED not in run_cases(planted(*bugs), cases)
    for bug in bugs:
        # the case of each bug fails on an engine with that bug alone, and only there
        alone = run_cases(planted(bug), cases)
        assert [status == PASSED for status in alone] == [b != bug for b in bugs], (bug, alone)


def test_cases_are_written_in_the_seated_step_format(
    planted_run: tuple[FuzzReport, dict[str, Path]],
) -> None:
    _, written = planted_run
    for path in written.values():
        case = json.loads(path.read_text())["cases"][0]
        for step in [*case["actions"], *(s for r in case.get("then", []) for s in r["actions"])]:
            if isinstance(step, str):
                assert re.fullmatch(r"[0-3]: [a-z_]+( [A-Za-z0-9_]+)*", step), step
            else:
                assert set(step) in ({"if_asked"}, {"repeat", "while_phase"}) or (
                    len(step) == 1 and next(iter(step)).startswith("expect_")
                ), step
        assert set(case["capabilities"]) <= set(CAPABILITIES) - {"declarations"}
        assert case["capabilities"] == sorted(case["capabilities"])
        # the seats, pass-only turns and capabilities are those `baloot conform needs` finds
        parsed = case_from_json(case, path.name)
        assert needs_differ(parsed, case, case_needs(parsed, load_register())) == []
        assert case["requires"]["void_in_hokum"] == "must_trump"  # the engine's own reading


# ---- the command: known differences, exit statuses -----------------------------------


def test_a_known_difference_is_shown_but_does_not_fail_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = planted("sun_last_trick")
    options = ["--rounds", "12", "--seed", "1", "--no-shrink", "--out", str(tmp_path / "new")]
    status, err = fuzz(capsys, engine, *options)
    signature = PLANTED["sun_last_trick"]
    assert status == 1 and signature in err and "1 new" in err
    assert len([p for p in (tmp_path / "new").glob("*.json") if p.name != "pack.json"]) == 1
    known = tmp_path / "known.txt"
    known.write_text(
        f"# accepted\n{signature}   the last trick counts double in sun here\n"
        "legal:bidding:missing-ashkal:BID.2   not seen in this run\n"
    )
    options = [*options[:-1], str(tmp_path / "again"), "--known", str(known)]
    status, err = fuzz(capsys, engine, *options)
    assert status == 0
    assert "known: the last trick counts double" in err and "0 new" in err
    assert "not seen this run: legal:bidding:missing-ashkal:BID.2" in err
    assert not (tmp_path / "again").exists()  # nothing new, nothing written


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("state:playing:hands:SETUP.5\n", "the reason is required"),
        ("nonsense because\n", "is not a signature"),
        ("a:b:c one\na:b:c two\n", "listed twice"),
    ],
)
def test_a_bad_known_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    known = tmp_path / "known.txt"
    known.write_text(text)
    status, err = fuzz(capsys, REFERENCE_ARGV, "--known", str(known))
    assert status == 2
    assert message in err and f"{known}:" in err


def _one_line_error(err: str) -> str:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("engine", "status", "message"),
    [
        (wrapped("--refuse-start"), 4, "refused to start a game under the literal profile"),
        (
            wrapped("--hello", json.dumps({"profile": "street"})),
            3,
            'hello cannot be read: profile "street" is not a profile of the spec',
        ),
        (
            wrapped("--hello", json.dumps({"capabilities": ["teleport"]})),
            3,
            "hello cannot be read: capabilities: unknown teleport",
        ),
        (["/nonexistent/engine"], 3, "could not be launched: cannot run '/nonexistent/engine': "
         "No such file or directory; likely cause: no such file: check the --engine path"),
    ],
)
def test_an_engine_that_cannot_play_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], engine: list[str], status: int, message: str
) -> None:
    got, err = fuzz(capsys, engine, "--rounds", "2")
    assert got == status
    assert message in _one_line_error(err)


def test_the_start_timeout_is_apart_from_the_reply_timeout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    slow = ["sh", "-c", f"sleep 1; exec {shlex.join(REFERENCE_ARGV)}"]
    status, err = fuzz(capsys, slow, "--rounds", "2", "--timeout", "5", "--start-timeout", "0.3")
    assert status == 3 and "no reply within 0.3 s" in _one_line_error(err)
    status, err = fuzz(capsys, slow, "--rounds", "2", "--timeout", "0.9", "--start-timeout", "9")
    assert status == 0 and "no disagreement" in err


# ---- signatures and the case format --------------------------------------------------


def test_disagreements_of_one_kind_share_a_signature_whatever_the_cards() -> None:
    def legal(missing: str, phase: str = "playing") -> Disagreement:
        what = "missing-" + action_shape(missing)
        return Disagreement(
            "legal", f"missing {missing}", None, None, phase, None, ["PLAY.2"], what=what
        )

    assert (
        legal("play 7H").signature
        == legal("play AS").signature
        == ("legal:playing:missing-play:PLAY.2")
    )
    assert legal("hokum S", "bidding").signature != legal("ashkal", "bidding").signature
    result = Disagreement("result", "", None, None, "game_over", None, ["SCORE.8"], what="points")
    assert result.signature == "result:round_over:points:SCORE.8"  # the game's end is a round's


def test_moves_become_seated_steps() -> None:
    trace = RoundTrace(list(ALL_CARDS), 0, [0, 0], 0)
    bidding = [
        Move(1, "hokum", "bidding"),
        Move(2, "pass", "bidding"),
        Move(3, "pass", "bidding"),
        Move(0, "pass", "bidding"),
        Move(1, "hokum", "bidding"),
    ]
    seated = ["1: hokum", "2: pass", "3: pass", "0: pass", "1: hokum"]
    # nobody raised: one repeat step, which an engine without raises plays through too
    trace.moves = [
        *bidding,
        Move(2, "pass", "raising"),
        Move(0, "pass", "raising"),
        Move(1, "play 7S", "playing"),
    ]
    steps, needs = round_steps(trace, open_raising=False)
    assert steps == [*seated, {"repeat": "pass", "while_phase": "raising"}, "1: play 7S"]
    assert needs == set()
    # a double, then the bidder, who could only pass there (an engine without
    # raise_triple need not ask it)
    trace.moves = [
        *bidding,
        Move(2, "double", "raising"),
        Move(1, "pass", "raising", forced=True),
        Move(1, "play 7S", "playing"),
    ]
    steps, needs = round_steps(trace, open_raising=False)
    assert steps == [*seated, "2: double", {"if_asked": "1: pass"}, "1: play 7S"]
    assert needs == {"raises"}


def test_a_refused_start_is_a_case_not_a_crash() -> None:
    trial = random_trial(0, 0, profile="literal")
    engine = EngineProcess(wrapped("--refuse-start"))
    try:
        found = replay(trial, engine)
    finally:
        engine.close()
    assert found.disagreement is not None and found.signature == "refused_start:deal:start"
    case = case_from_replay(found, case_id_for(found))
    assert case["kind"] == "legal" and case["actions"] == []
    assert run_cases(REFERENCE_ARGV, [case]) == [PASSED]
    assert run_cases(wrapped("--refuse-start"), [case]) != [PASSED]
