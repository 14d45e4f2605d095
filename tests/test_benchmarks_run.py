"""The benchmarks still run end to end, on a tiny budget. No figure is asserted here:
speed targets live in the benchmarks themselves, never in timed tests."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_engine_rounds_benchmark_plays_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("engine_rounds")
    assert bench.main(["--seconds", "0.05", "--repeats", "1", "--no-jass"]) == 0
    out = capsys.readouterr().out
    for row in ("baloot reference, records", "baloot reference, text"):
        line = next(x for x in out.splitlines() if x.startswith(f"| {row}"))
        rounds_per_second = float(line.split("|")[2])
        assert rounds_per_second > 0, line
    for places in ("1st", "2nd-5th", "6th+"):
        assert f"| {places}" in out


def test_engine_rounds_sessions_count_every_round() -> None:
    bench = _load("engine_rounds")
    import random

    tally = bench.sessions(10, 0.0, random.Random(4), "federation")
    assert tally.rounds == 10  # one session of 10 rounds, however short the budget
    assert sum(len(t) for t in tally.by_place.values()) == 10
    assert len(tally.by_place["1st"]) >= 1 and tally.actions >= 10 * 32


def test_conformance_runner_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("conformance_runner")
    bench.main(["--baseline-sample", "2", "--synthetic", "0"])  # its exit status is a speed target
    out = capsys.readouterr().out
    assert "streamed, one process" in out and "one process per case (first 2)" in out
    assert "targets:" in out and "not passed!" not in out  # every case passed, both ways


def test_fuzz_throughput_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("fuzz_throughput")
    assert bench.main(["--seconds", "0.2", "--repeats", "1"]) == 0  # 1: a disagreement
    out = capsys.readouterr().out
    for row in ("fuzz, engine process", "fuzz, in-process engine", "engine alone, text"):
        line = next(x for x in out.splitlines() if x.startswith(f"| {row}"))
        assert float(line.split("|")[2]) > 0, line
    assert "ratio fuzz/engine alone: engine process" in out


def test_suite_time_benchmark_times_both_contenders(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("suite_time")
    skip = ["spec-trace", "gen", "render", "verify", "lint", "coverage", "pins", "needs",
            "conform-*"]
    # the baseline is a git revision: HEAD, where the project is a git checkout
    in_git = shutil.which("git") is not None and subprocess.run(
        ["git", "-C", str(BENCHMARKS.parent), "rev-parse", "HEAD"], capture_output=True,
        check=False).returncode == 0
    baseline = ["--baseline", "HEAD"] if in_git else []
    assert bench.main([*baseline, *[x for step in skip for x in ("--skip", step)]]) == 0
    out = capsys.readouterr().out
    rows = {line.split("|")[1].strip(): line for line in out.splitlines()
            if line.startswith("| ours") or line.startswith("| baseline HEAD")}
    assert set(rows) == ({"ours", "baseline HEAD"} if in_git else {"ours"})
    assert all(float(row.split("|")[2]) > 0 for row in rows.values())
    assert "| spec: parse and check | " in out  # a step's seconds, read from the summary
    assert ("ratio ours/baseline (best):" in out) == in_git
    assert "not judged, steps were skipped" in out


def test_suite_time_reads_the_summary_rows() -> None:
    bench = _load("suite_time")
    row = bench.SUMMARY_ROW.match("│ pack: lint                        │ passed │     1.7 │")
    assert row is not None and row["step"] == "pack: lint" and row["seconds"] == "1.7"
    assert bench.SUMMARY_ROW.match("│ invariants: z3 proofs │ skipped: --skip │  │") is None


def test_spec_mutation_benchmark_runs_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("spec_mutation")
    assert bench.main(["--mutants", "1", "--seed", "3"]) == 0  # the verdicts agree
    out = capsys.readouterr().out
    assert "| in process (spec-wide) |" in out and "ratio, built and served" in out
