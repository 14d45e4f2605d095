"""The pytest plugin: `pytest --baloot-engine COMMAND` turns the pack into test items."""

from __future__ import annotations

import shlex
import sys

import pytest

from baloot.conformance.mutants.build import build_all
from baloot.conformance.mutants.catalogue import by_name

pytest_plugins = ["pytester"]

REFERENCE = shlex.join([sys.executable, "-m", "baloot.conformance.adapters.reference_adapter"])


def test_every_case_is_an_item_named_by_its_id(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_own():\n    assert True\n")
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--baloot-engine",
        REFERENCE,
        "--baloot-only",
        "bid.legal.first-bidder",
        "--collect-only",
        "-q",
    )
    result.stdout.fnmatch_lines(["*test_own*", "baloot-pack::bid.legal.first-bidder"])


def test_the_reference_passes_the_selected_cases(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_own():\n    assert True\n")
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--baloot-engine",
        REFERENCE,
        "--baloot-only",
        "PLAY.*",
        "--baloot-profile",
        "literal",
    )
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) == 0 and outcomes.get("errors", 0) == 0
    assert outcomes["passed"] > 5
    assert result.ret == 0


def test_a_broken_engine_fails_the_cases_it_breaks(pytester: pytest.Pytester) -> None:
    broken = build_all([by_name()["follow_suit_not_enforced"]], jobs=1)[0]
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--baloot-engine",
        shlex.join(broken.adapter_argv()),
        "--baloot-only",
        "play.*",
    )
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 1
    result.stdout.fnmatch_lines(["*FAILED*play.legal.follow-suit*"])
    result.stdout.fnmatch_lines(["*legal actions differ*"])
    assert result.ret == 1


def test_without_the_option_the_plugin_adds_nothing(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_own():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
