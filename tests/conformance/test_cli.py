"""The `baloot` command is put together in one place (`cli/main.py`): each room
adds its subcommands, `conform`'s rooms through the group `conform`'s register returns,
and the suite runs its steps through the command it is given."""

from __future__ import annotations

import argparse
import subprocess
import sys
from importlib import metadata

import pytest

from baloot.cli import suite
from baloot.cli.conform_command import pack_version_matches
from baloot.cli.main import main

CONFORM_SUBCOMMANDS = ("lint", "adapter", "coverage", "golden", "pins", "applicability", "needs",
                       "examples", "mutants")


def test_every_conform_subcommand_is_registered(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["conform", "--help"])
    assert done.value.code == 0
    listed = capsys.readouterr().out
    for name in CONFORM_SUBCOMMANDS:
        assert f"\n    {name} " in listed or f"\n    {name}\n" in listed, name


@pytest.mark.parametrize("name", CONFORM_SUBCOMMANDS)
def test_each_conform_subcommand_has_its_own_help(name: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["conform", name, "--help"])
    assert done.value.code == 0
    assert f"usage: baloot conform {name}" in capsys.readouterr().out


def test_the_suite_runs_its_steps_through_the_command_it_is_given() -> None:
    ran: list[list[str]] = []

    def command(argv: list[str]) -> int:
        ran.append(argv)
        return 1 if argv[:2] == ["conform", "lint"] else 0

    parser = argparse.ArgumentParser(prog="baloot")
    suite.register(parser.add_subparsers(), command)
    args = parser.parse_args(["suite", "--profile", "literal"])
    assert args.run(args) == 1  # one step failed
    assert [s.argv for s in suite.steps(("literal",))] == [tuple(argv) for argv in ran]
    assert ran[-1][:3] == ["conform", "--engine", suite.REFERENCE_ENGINE]


def test_the_suite_module_does_not_import_the_root_command() -> None:
    code = ("import sys, baloot.cli.suite\n"
            "print('baloot.cli.main' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=False, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


REFERENCE = f"{sys.executable} -m baloot.conformance.adapters.reference_adapter"


@pytest.mark.parametrize(("pinned", "matches"), [
    ("0.5", True), ("0.5.0", True), ("0", True), ("0.4", False), ("0.5.1", False),
    ("1.5", False), ("0.5.0.1", False), ("", False),
])
def test_a_pinned_pack_version_matches_by_its_parts(pinned: str, matches: bool) -> None:
    assert pack_version_matches("0.5.0", pinned) is matches


def test_a_run_against_another_pack_than_the_pinned_one_stops(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The built-in pack's version is the distribution's (pyproject.toml); an engine pinned
    to an older minor version is told so before any case runs, with exit status 2."""
    version = metadata.version("baloot-conformance")
    major, minor, _ = version.split(".")
    older = f"{major}.{int(minor) - 1}"
    assert main(["conform", "--engine", REFERENCE, "--pack-version", older]) == 2
    err = capsys.readouterr().err
    assert f"--pack-version {older}" in err and version in err and "Pack versions" in err
    assert main(["conform", "--engine", REFERENCE, "--pack-version", f"{major}.{minor}",
                 "--only", "var.trump_lead.*"]) == 0
