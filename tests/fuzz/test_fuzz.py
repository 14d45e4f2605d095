"""Differential fuzzing: the reference agrees with itself; five mutants are found and shrunk.

The five mutants all survived the case pack as it stood when the fuzzer was
written (before their kill cases): the fuzzer knows nothing of the pack, and
finds each from a seed, then shrinks it to a one-round case that passes on
the reference engine and fails on the mutant.
"""

from __future__ import annotations

import itertools
import json
import shlex
import sys
from pathlib import Path

import pytest

from baloot.conformance.cli import main as cli_main
from baloot.conformance.engine_process import EngineProcess
from baloot.conformance.fuzz.campaign import Settings, run_campaign
from baloot.conformance.fuzz.casefile import case_from_replay, case_id_for
from baloot.conformance.fuzz.driver import random_trial
from baloot.conformance.lint import lint_case
from baloot.conformance.mutants.build import build_all
from baloot.conformance.mutants.catalogue import by_name
from baloot.conformance.pack import case_from_json
from baloot.conformance.runner import PASSED, Runner
from baloot.conformance.variants import load_register

REFERENCE = [sys.executable, "-m", "baloot.conformance.reference_adapter"]

# mutant -> a seed whose games find it early
FOUND_BY_SEED = {
    "success_margin_inclusive": 2,
    "game_ends_at_151": 1,
    "sun_gate_inclusive": 0,
    "triple_multiplies_by_4": 0,
    "locked_on_triple": 2,
}


def run_case(argv: list[str], raw: dict[str, object]) -> str:
    case = case_from_json(raw, "fuzz.json")
    runner = Runner(EngineProcess(argv), load_register(), profile="literal")
    try:
        status: str = runner.run_case(case).status
        return status
    finally:
        runner.engine.close()


def test_the_reference_agrees_with_itself() -> None:
    report = run_campaign(Settings(argv=REFERENCE, seed=7, games=12, game_rounds=2))
    assert report.failing is None
    assert report.games == 12 and report.rounds >= 12
    print(f"fuzz throughput against the reference adapter: {report.games_per_second:.1f} games/s")


def test_trials_are_reproducible_and_shards_split_the_seed() -> None:
    assert random_trial(3, 5, profile="literal") == random_trial(3, 5, profile="literal")
    assert random_trial(3, 5, profile="literal") != random_trial(3, 6, profile="literal")
    taken = [
        set(itertools.islice(Settings(REFERENCE, 1, 9, shard=(k, 3)).indices(), 4))
        for k in (1, 2, 3)
    ]
    assert not (taken[0] & taken[1]) and not (taken[1] & taken[2])
    assert set().union(*taken) == set(range(12))


@pytest.mark.parametrize("name", sorted(FOUND_BY_SEED))
def test_fuzzing_finds_and_shrinks_a_mutant(name: str) -> None:
    built = build_all([by_name()[name]], jobs=1)[0]
    argv = built.adapter_argv()
    report = run_campaign(
        Settings(argv=argv, seed=FOUND_BY_SEED[name], games=80),
        shrink_seconds=6.0,
        shrink_attempts=250,
    )
    assert report.failing is not None, f"{name} not found"
    shrunk = report.shrunk
    assert shrunk is not None and shrunk.disagreement is not None
    assert len(shrunk.rounds) <= 1, "shrunk to at most one round"
    assert shrunk.actions <= report.failing.actions
    case = case_from_replay(shrunk, case_id_for(shrunk), name)
    assert not lint_case(case_from_json(case, "fuzz.json"), case, load_register())
    assert run_case(REFERENCE, case) == PASSED
    assert run_case(argv, case) != PASSED


def test_the_command_writes_a_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    built = build_all([by_name()["triple_multiplies_by_4"]], jobs=1)[0]
    status = cli_main(
        [
            "fuzz",
            "--engine",
            shlex.join(built.adapter_argv()),
            "--rounds",
            "20",
            "--seed",
            str(FOUND_BY_SEED["triple_multiplies_by_4"]),
            "--out",
            str(tmp_path),
            "--shrink-seconds",
            "4",
        ]
    )
    assert status == 1
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1
    data = json.loads(files[0].read_text())
    assert data["cases"][0]["id"].startswith("fuzz.")
    assert "games/s" in capsys.readouterr().err


def test_the_command_exits_0_when_the_engines_agree(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["fuzz", "--engine", shlex.join(REFERENCE), "--rounds", "4", "--seed", "1"]
    status = cli_main([*argv, "--jobs", "2", "--shard", "2/2"])
    assert status == 0
    assert "no disagreement" in capsys.readouterr().err
