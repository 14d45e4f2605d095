"""The options several commands share (cli/options.py, cli/pack_folder.py): one reading
of `--shard K/N` with one error message in the three commands that take it, `--jobs`,
`--seed`, `--spec DIR` and `--cases DIR` as each command declares them."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from baloot.cli import options
from baloot.cli.main import build_parser, main
from baloot.cli.pack_folder import PACK_FOLDER, add_pack_folder


def shard_error(text: str) -> str:
    return f"--shard {text!r}: expected K/N with 1 <= K <= N, such as 2/8"


@pytest.mark.parametrize(("text", "shard"), [
    ("1/1", (1, 1)), ("2/8", (2, 8)), ("8/8", (8, 8)), (" 3/100 ", (3, 100)), ("03/10", (3, 10)),
])
def test_a_shard_is_read_as_k_of_n(text: str, shard: tuple[int, int]) -> None:
    assert options.parse_shard(text) == shard


@pytest.mark.parametrize("text", ["0/2", "3/2", "2", "a/b", "", "/", "1/2/3", "-1/2", "1/-2",
                                  "1.0/2", "1 of 2"])
def test_a_bad_shard_says_what_is_expected(text: str) -> None:
    with pytest.raises(ValueError) as raised:
        options.parse_shard(text)
    assert str(raised.value) == shard_error(text)


@pytest.mark.parametrize(("argv", "prefix", "stream"), [
    (["fuzz", "--engine", "any", "--shard", "3/2"], "baloot fuzz", "err"),
    (["explore", "--impact", "--no-write", "--shard", "3/2"], "baloot explore --impact", "err"),
    (["conform", "mutants", "--spec", "--shard", "3/2"], "baloot conform mutants --spec", "out"),
])
def test_the_three_commands_that_split_a_run_refuse_a_bad_shard_alike(
        argv: list[str], prefix: str, stream: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    said = captured.err if stream == "err" else captured.out
    assert said.strip().splitlines()[-1] == f"{prefix}: {shard_error('3/2')}"


def test_the_shard_option_is_declared_once_for_every_command() -> None:
    parser = build_parser()
    fuzz = parser.parse_args(["fuzz", "--engine", "x"])
    assert fuzz.shard == "1/1"  # the whole run; read when the command runs
    assert parser.parse_args(["explore", "--impact"]).shard is None
    assert parser.parse_args(["conform", "mutants", "--spec", "--shard", "2/8"]).shard == "2/8"


def parser_with(add: object, **kwargs: object) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="probe")
    add(parser, **kwargs)  # type: ignore[operator]
    return parser


def test_jobs_default_to_one_per_cpu_or_to_the_commands_own() -> None:
    per_cpu = parser_with(options.add_jobs, dest="pins_jobs", metavar="J")
    assert per_cpu.parse_args([]).pins_jobs == 0
    assert per_cpu.parse_args(["--jobs", "3"]).pins_jobs == 3
    assert "--jobs J    worker processes (default: one per CPU)" in per_cpu.format_help()
    two = parser_with(options.add_jobs, default=2)
    assert two.parse_args([]).jobs == 2
    assert "worker processes (default 2)" in two.format_help()
    assert options.workers(0) == (os.cpu_count() or 1)
    assert options.workers(5) == 5


def test_negative_jobs_are_refused_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert not options.negative_jobs("conform needs", 0)
    assert capsys.readouterr().err == ""
    assert options.negative_jobs("conform needs", -1)
    assert capsys.readouterr().err == (
        "baloot conform needs: --jobs must be 0 (one per CPU) or more\n")


@pytest.mark.parametrize("command", ["needs", "derive", "pins"])
def test_the_pack_tools_refuse_negative_jobs(command: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", command, "--jobs", "-2"]) == 2
    assert (f"baloot conform {command}: --jobs must be 0 (one per CPU) or more"
            in capsys.readouterr().err)


def test_the_seed_says_its_default() -> None:
    parser = parser_with(options.add_seed, default=0, of="the random sets")
    assert parser.parse_args([]).seed == 0
    assert parser.parse_args(["--seed", "7"]).seed == 7
    assert "--seed N    seed of the random sets (default 0)" in parser.format_help()


def test_the_spec_folder_is_loaded_or_its_errors_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = parser_with(options.add_spec_folder)
    assert parser.parse_args([]).spec is None
    args = parser.parse_args(["--spec", str(tmp_path)])
    assert args.spec == tmp_path
    assert options.load_spec(args) is None
    assert "no spec files in this folder" in capsys.readouterr().err
    assert main(["spec", "check", "--spec", str(tmp_path)]) == 1
    assert main(["verify", "--spec", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("no spec files in this folder") == 2


def test_each_pack_tool_keeps_its_own_cases_folder(tmp_path: Path) -> None:
    parser = build_parser()
    for command, dest in [("lint", "lint_cases"), ("coverage", "coverage_cases"),
                          ("golden", "golden_cases"), ("pins", "pins_cases"),
                          ("applicability", "applicability_cases"), ("needs", "needs_cases"),
                          ("refusals", "refusals_cases"), ("derive", "derive_cases")]:
        args = parser.parse_args(["conform", "--cases", "run", command, "--cases", str(tmp_path)])
        assert getattr(args, dest) == tmp_path, command
        assert args.cases == Path("run"), command
    probe = parser_with(add_pack_folder)
    assert probe.parse_args([]).cases is None
    assert PACK_FOLDER in probe.format_help()
