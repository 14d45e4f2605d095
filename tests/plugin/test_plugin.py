"""The pytest plugin: `pytest --baloot-engine COMMAND` turns the pack into test items; an
expected failure, a skip and an unexpected pass mean there what they mean to `baloot conform`."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.harness import exit_status
from baloot.conformance.mutants.build import build_all
from baloot.conformance.mutants.catalogue import by_name

from ..conformance.conftest import engine_command, legal_case, write_pack

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


# ------------------------------------------- the CLI and the plugin agree --


def xfail_pack(folder: Path) -> tuple[Path, Path]:
    """A pack of four cases on the fake engine `good`: `wrong.a` and `wrong.b` fail (they
    expect `pass` alone), `right` and `plain` pass; an xfail file lists `wrong.*` (a glob)
    and `right`, which passes: an unexpected pass, and a stale line."""
    wrong = [legal_case(i, expect={"player": 0, "actions": ["pass"]}) for i in ("wrong.a",
                                                                            "wrong.b")]
    pack = write_pack(folder / "pack", [*wrong, legal_case("right"), legal_case("plain")])
    xfail = folder / "engine.xfail"
    xfail.write_text("wrong.*  bids beyond the first\nright    fixed since\n")
    return pack, xfail


@pytest.mark.parametrize("strict", [False, True])
def test_the_cli_and_the_plugin_agree_an_unexpected_pass_fails_only_under_strict(
    pytester: pytest.Pytester, tmp_path: Path, capsys: pytest.CaptureFixture[str], strict: bool
) -> None:
    """Both skip `wrong.b` (--skip, --baloot-skip), excuse `wrong.a` (the glob line) and
    pass `plain`; `right` passes unexpectedly, which fails both only when strict."""
    pack, xfail = xfail_pack(tmp_path)
    engine = engine_command("good")
    report = tmp_path / "report.json"
    status = cli_main(["conform", "--engine", engine, "--cases", str(pack), "--xfail", str(xfail),
                       "--skip", "wrong.b", "--json", str(report),
                       *(["--strict"] if strict else [])])
    capsys.readouterr()
    result = pytester.runpytest("-p", "no:cacheprovider", "-rsX", "--baloot-engine", engine,
                                "--baloot-cases", str(pack), "--baloot-xfail", str(xfail),
                                "--baloot-skip", "wrong.b",
                                *(["--baloot-strict"] if strict else []))
    assert status == (exit_status.UNEXPECTED_PASSES if strict else exit_status.OK)
    assert (status != 0) is (result.ret != 0) is strict
    cli = {c["id"]: c["status"] for c in json.loads(report.read_text())["cases"]}
    assert cli == {"wrong.a": "xfailed", "wrong.b": "skipped", "right": "xpassed",
                   "plain": "passed"}
    if strict:
        result.assert_outcomes(passed=1, xfailed=1, skipped=1, failed=1)
        result.stdout.fnmatch_lines(["*XPASS(strict)*listed as an expected failure*"
                                     f"{xfail}:2*fixed since*"])
    else:
        result.assert_outcomes(passed=1, xfailed=1, skipped=1, xpassed=1)
    result.stdout.fnmatch_lines([f"stale xfail line {xfail}:2 right: no case it lists failed*",
                                 "SKIPPED*skipped by the user*"])


@pytest.mark.parametrize(("option", "text", "needle"), [
    ("--baloot-xfail", "ghost.*  no such case\n", "engine.xfail:1: the glob 'ghost.*' matches no"),
    ("--baloot-xfail", "right\n", "engine.xfail:1: expected 'CASE-ID|GLOB REASON'"),
    ("--baloot-skip", "ghost.*", "--skip ghost.*: matches no case"),
])
def test_plugin_reports_bad_xfail_and_skip_input_as_usage_errors(
    pytester: pytest.Pytester, tmp_path: Path, option: str, text: str, needle: str
) -> None:
    pack, xfail = xfail_pack(tmp_path)
    value = text
    if option == "--baloot-xfail":
        xfail.write_text(text)
        value = str(xfail)
    result = pytester.runpytest("-p", "no:cacheprovider", "--baloot-engine",
                                engine_command("good"), "--baloot-cases", str(pack), option, value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert needle in result.stderr.str(), result.stderr.str()
    assert "Traceback" not in result.stderr.str() + result.stdout.str()


@pytest.mark.parametrize("timeout", ["nan", "0", "-1", "inf"])
def test_plugin_refuses_a_timeout_that_is_no_number_of_seconds(
    pytester: pytest.Pytester, tmp_path: Path, timeout: str
) -> None:
    pack, _ = xfail_pack(tmp_path)
    result = pytester.runpytest("-p", "no:cacheprovider", "--baloot-engine",
                                engine_command("good"), "--baloot-cases", str(pack),
                                "--baloot-timeout", timeout)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--baloot-timeout must be a positive number of seconds" in result.stderr.str()
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
