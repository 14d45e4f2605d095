"""What an install may and may not do, checked without building a wheel: the
destinations a command refuses, the message of a missing extra, the suite's
skipped steps, the rules links and the version line. `test_wheel_install.py`
runs the same through a real installed wheel."""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from baloot.cli import destinations, extras, suite
from baloot.cli.main import version_text
from baloot.conformance.harness import rules_links

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------- destinations --


def installed_layout(tmp_path: Path) -> Path:
    """A folder laid out as site-packages/baloot: rooms, and no pyproject.toml."""
    rooms = tmp_path / "site-packages" / "baloot"
    for room in ("grammar", "conformance", "docs"):
        (rooms / room).mkdir(parents=True)
    return rooms


def test_this_checkout_is_a_checkout_and_refuses_nothing() -> None:
    assert destinations.ROOMS_FOLDER == ROOT
    assert destinations.is_checkout()
    assert destinations.installed_package_folder() is None
    assert destinations.refusal("gen", [None, ROOT / "reference_impl"], "pass --out") is None


def test_an_install_refuses_a_destination_inside_the_package(tmp_path: Path) -> None:
    rooms = installed_layout(tmp_path)
    assert destinations.installed_package_folder(rooms) == rooms
    inside = rooms / "docs"
    message = destinations.refusal("spec render", [inside], "pass --out DIR", rooms)
    assert message == (f"baloot spec render: will not write {inside} inside the installed "
                       f"package ({rooms}), which stays as installed; pass --out DIR")
    # through a link out of the package and back into it, too
    (tmp_path / "link").symlink_to(rooms / "conformance", target_is_directory=True)
    assert destinations.refusal("conform golden", [tmp_path / "link" / "cases"], "x", rooms)


def test_an_install_refuses_a_default_destination_and_allows_one_outside(
        tmp_path: Path) -> None:
    rooms = installed_layout(tmp_path)
    outside = tmp_path / "out"
    assert destinations.refusal("gen", [outside, outside / "spec-register.json"], "x",
                                rooms) is None
    default = destinations.refusal("verify --write", [None], "pass --results FILE", rooms)
    assert default is not None and "its default destination" in default
    assert default.endswith("pass --results FILE")
    # one refused target among several is enough
    assert destinations.refusal("explore", [outside, None, outside], "x", rooms)


def test_a_folder_with_pyproject_is_a_checkout(tmp_path: Path) -> None:
    rooms = installed_layout(tmp_path)
    (rooms / "pyproject.toml").write_text("[project]\n")
    assert destinations.is_checkout(rooms)
    assert destinations.refusal("gen", [None, rooms / "docs"], "x", rooms) is None


# ----------------------------------------------------------- missing extras --


def without(tmp_path: Path, *modules: str) -> dict[str, str]:
    """An environment in which `modules` fail to import as a missing package does."""
    for name in modules:
        (tmp_path / f"{name}.py").write_text(
            f"raise ModuleNotFoundError(\"No module named {name!r}\", name={name!r})\n")
    path = os.pathsep.join([str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])])
    return {**os.environ, "PYTHONPATH": path}


def baloot(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "baloot.cli.main", *argv], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(("argv", "needs", "extra"), [
    (["spec", "check"], "lark", "spec"),
    (["conform", "coverage"], "lark", "spec"),
    (["gen", "--check"], "lark", "dev"),
    (["verify", "--only", "points-*"], "lark", "proofs"),
])
def test_a_command_without_its_extra_names_the_extra(tmp_path: Path, argv: list[str],
                                                     needs: str, extra: str) -> None:
    result = baloot(argv, without(tmp_path, "lark", "z3", "black"))
    assert result.returncode == 2, result.stdout[-2000:] + result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    command = " ".join(argv[:2] if argv[0] in ("spec", "conform") else argv[:1])
    assert result.stderr.strip().splitlines()[-1] == (
        f"baloot {command}: needs {needs}, which the base install leaves out; "
        f"install with: pip install 'baloot-conformance[{extra}]'")
    assert result.stdout.strip() == ""  # said before any output, not after half a report


def test_the_message_names_every_module_the_command_lacks() -> None:
    """No stand-in can make find_spec miss a module that is installed, so the real lookup
    is given a name no environment has."""
    extras.OPTIONAL["baloot_nowhere"] = ("nowhere-dist", "proofs")
    extras.COMMAND_EXTRA["probe"] = ("proofs", ("baloot_nowhere", "json"))
    try:
        message = extras.missing_message("probe", ModuleNotFoundError(name="baloot_nowhere"))
    finally:
        del extras.OPTIONAL["baloot_nowhere"], extras.COMMAND_EXTRA["probe"]
    assert message == ("baloot probe: needs nowhere-dist, which the base install leaves out; "
                       "install with: pip install 'baloot-conformance[proofs]'")


def test_another_missing_module_is_not_taken_for_an_extra() -> None:
    assert extras.missing_message("conform", ModuleNotFoundError(name="baloot.nope")) is None
    assert extras.missing_message("conform", ModuleNotFoundError()) is None


def test_the_strategies_without_hypothesis_name_their_extra(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import baloot.conformance.harness.strategies"],
        env=without(tmp_path, "hypothesis"), capture_output=True, text=True, timeout=60,
        check=False)
    assert result.returncode == 1
    assert ("baloot.conformance.harness.strategies needs hypothesis, which the base install "
            "leaves out: pip install 'baloot-conformance[hypothesis]'") in result.stderr


def test_the_extras_of_pyproject_bring_what_the_messages_promise() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["optional-dependencies"]

    def names(requirements: list[str]) -> set[str]:
        return {r.split(";")[0].split("=")[0].split(">")[0].split("<")[0].split("[")[0].strip()
                for r in requirements}

    base = names(project["dependencies"])
    assert base.isdisjoint({"lark", "z3-solver", "black", "hypothesis"})
    for module, (distribution, extra) in extras.OPTIONAL.items():
        assert distribution in names(wanted[extra]), (module, extra)
    for command, (extra, modules) in extras.COMMAND_EXTRA.items():
        assert {extras.OPTIONAL[m][0] for m in modules} <= names(wanted[extra]), command
    assert names(wanted["test"]) >= (names(wanted["dev"]) | names(wanted["proofs"])
                                     | names(wanted["hypothesis"]) | names(wanted["spec"]))
    assert "black==26.10.1" in wanted["dev"] and "black==26.10.1" in wanted["test"]
    every = [*project["dependencies"], *(r for group in wanted.values() for r in group)]
    pinned = [r for r in every if "==" in r.split(";")[0]]  # a version pinned, not a marker
    assert set(pinned) == {"black==26.10.1"}  # the one pin generation needs


# -------------------------------------------------------------------- suite --


def suite_args(*argv: str) -> tuple[argparse.Namespace, list[list[str]]]:
    ran: list[list[str]] = []

    def command(step: list[str]) -> int:
        ran.append(step)
        return 0

    parser = argparse.ArgumentParser(prog="baloot")
    suite.register(parser.add_subparsers(), command)
    return parser.parse_args(["suite", *argv]), ran


def test_the_suite_skips_a_step_whose_module_is_missing_and_says_why(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(extras.OPTIONAL, "baloot_nowhere", ("nowhere-dist", "spec"))
    monkeypatch.setattr(suite, "steps", lambda profiles: [
        suite.Step("first", "the first step", ("conform", "lint")),
        suite.Step("absent", "a step of a missing extra", ("spec", "check"),
                   ("baloot_nowhere",)),
    ])
    args, ran = suite_args()
    assert args.run(args) == 0
    assert ran == [["conform", "lint"]]
    out = " ".join(capsys.readouterr().out.split())
    assert "skipped: needs nowhere-dist: pip install 'baloot-conformance[spec]'" in out
    assert "1 passed, 0 failed, 1 skipped" in out


def test_outside_a_checkout_the_suite_skips_the_rules_document_check(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(suite, "is_checkout", lambda: False)
    args, ran = suite_args("--profile", "literal", "--skip", "pins", "--skip", "needs")
    planned = suite.steps(("literal",))
    assert args.run(args) == 0
    ran_ids = [step.id for step in planned if list(step.argv) in ran]
    assert ran_ids == ["spec-check", "spec-trace", "gen", "verify", "lint", "coverage",
                       "conform-literal"]
    out = " ".join(capsys.readouterr().out.split())
    assert "needs the project's checkout" in out and "7 passed, 0 failed, 3 skipped" in out


def test_suite_skip_takes_globs_and_refuses_a_name_of_no_step(
        capsys: pytest.CaptureFixture[str]) -> None:
    args, ran = suite_args("--profile", "literal", "--skip", "spec-*", "--skip", "conform-*",
                           "--skip", "pins", "--skip", "needs", "--skip", "verify",
                           "--skip", "gen", "--skip", "render", "--skip", "coverage")
    assert args.run(args) == 0
    assert ran == [["conform", "lint"]]
    args, ran = suite_args("--skip", "lnit")
    assert args.run(args) == 2 and ran == []
    assert "--skip lnit names no step" in capsys.readouterr().err


# ---------------------------------------------------- links and the version --


def test_clause_links_default_to_the_shipped_document(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(rules_links.RULES_URL_VARIABLE, raising=False)
    document = ROOT / "docs" / "rules.html"
    assert rules_links.shipped_document() == document and document.is_file()
    assert rules_links.clause_link("SCORE.7") == f"{document.as_uri()}#clause-SCORE-7"


def test_clause_links_follow_the_configured_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(rules_links.RULES_URL_VARIABLE, "https://example.org/baloot/rules.html")
    assert rules_links.clause_link("PLAY.2") == (
        "https://example.org/baloot/rules.html#clause-PLAY-2")
    monkeypatch.setenv(rules_links.RULES_URL_VARIABLE, " https://example.org/r.html#old ")
    assert rules_links.clause_link("PLAY.2") == "https://example.org/r.html#clause-PLAY-2"


def test_the_version_names_the_spec_by_its_register() -> None:
    register = (ROOT / "conformance" / "cases" / "spec-register.json").read_bytes()
    digest = hashlib.sha256(register).hexdigest()[:12]
    assert f"; spec register sha256:{digest}; " in version_text()
