"""Small points of an engine author's first hour: help texts print no doubled `%%`, `baloot
conform` without an engine names every subcommand its parser holds, and
`baloot conform mutants --list` works on the base install (no lark, black or z3)."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from baloot.cli.main import build_parser
from baloot.cli.main import main as cli_main


def every_parser(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                found += every_parser(sub)
    return found


def test_no_help_prints_a_doubled_percent() -> None:
    parsers = every_parser(build_parser())
    assert len(parsers) > 20
    for parser in parsers:
        text = parser.format_help()
        assert "%%" not in text, (parser.prog, text[text.index("%%") - 60:][:120])
    explore = next(p for p in parsers if p.prog.endswith(" explore"))
    assert "95% Wilson intervals" in " ".join(explore.format_help().split())


def test_conform_without_an_engine_names_every_subcommand(
        capsys: pytest.CaptureFixture[str]) -> None:
    conform = next(p for p in every_parser(build_parser()) if p.prog.endswith(" conform"))
    names = next(a for a in conform._actions
                 if isinstance(a, argparse._SubParsersAction)).choices
    assert len(names) >= 9
    assert cli_main(["conform"]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert "give --engine COMMAND" in said
    for name in names:
        assert name in said, (name, said)


BASE_INSTALL = """import sys
for name in ("lark", "black", "z3", "hypothesis"):
    sys.modules[name] = None  # as on the base install: importing them fails
from baloot.cli.main import main
sys.exit(main(["conform", "mutants", "--list"]))
"""


def test_listing_the_mutants_needs_no_extra() -> None:
    done = subprocess.run([sys.executable, "-c", BASE_INSTALL], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) > 10 and not any(line.startswith("boundary_") for line in lines)
    assert "pip install 'baloot-conformance[spec]'" in " ".join(done.stdout.split())
