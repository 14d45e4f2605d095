"""The built-in case pack against the reference engine, through the real
adapter process: every case passes under both profiles, the protocol holds
with schema validation on, the coverage tables have no gaps, and the golden
playthroughs are what the engine gives today."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from baloot.cli.main import main
from baloot.conformance.harness.engine_process import EngineProcess
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import REGRESSION_SNAPSHOT, default_pack_folder
from baloot.conformance.harness.runner import PASSED, Runner
from baloot.conformance.harness.variants import load_register
from baloot.conformance.pack_tools.coverage import coverage

from .conftest import legal_case, write_pack

ADAPTER = [sys.executable, "-m", "baloot.conformance.adapters.reference_adapter"]


def run_pack(profile: str, *, validate: bool = False) -> list[tuple[str, str, str]]:
    pack, problems = lint_pack(default_pack_folder())
    assert problems == []
    engine = EngineProcess(ADAPTER, timeout=30, validate=validate)
    runner = Runner(engine, load_register(), profile=profile)
    report = runner.run(pack, pack.cases)
    assert report.engine_starts == 1
    return [
        (o.case.id, o.status, o.message)
        for o in report.outcomes
        if o.status != PASSED
    ]


@pytest.mark.parametrize("profile", ["literal", "federation"])
def test_reference_engine_passes_the_whole_pack(profile: str) -> None:
    assert run_pack(profile) == []


def test_whole_pack_keeps_the_protocol_schemas() -> None:
    assert run_pack("literal", validate=True) == []


def test_pack_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    version = json.loads((default_pack_folder() / "pack.json").read_text())["version"]
    status = main(["conform", "--engine", " ".join(ADAPTER), "--only", "bid.legal.first-bidder"])
    assert status == 0
    assert f"baloot-core {version}" in capsys.readouterr().out


def test_coverage_command_prints_both_tables(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["conform", "coverage"])
    out = capsys.readouterr().out
    assert "clauses by case" in out and "variant readings by case" in out
    assert "SETUP.1" in out and "rounding=bidder_takes_rest" in out
    pack, _ = lint_pack(default_pack_folder())
    assert status == (1 if coverage(pack, load_register()).gaps else 0)


def test_builtin_pack_has_no_coverage_gaps() -> None:
    pack, _ = lint_pack(default_pack_folder())
    assert [row.key for row in coverage(pack, load_register()).gaps] == []


def test_coverage_finds_gaps_and_ignores_snapshots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        legal_case("a", clauses=["BID.2"], requires={"rounding": "each_team"}),
        legal_case("b", clauses=["BID.2"]),
        legal_case("c", clauses=["BID.2", "BID.3"]),
        legal_case("snap", clauses=["BID.3"], origin=REGRESSION_SNAPSHOT),
    ]
    pack_folder = write_pack(tmp_path / "p", cases)
    pack, problems = lint_pack(pack_folder)
    assert problems == []
    found = coverage(pack, load_register())
    rows = {row.key: row for row in (*found.clauses, *found.readings)}
    assert rows["BID.2"].cases == ("a", "b", "c") and not rows["BID.2"].gap
    assert rows["BID.3"].cases == ("c",) and rows["BID.3"].gap  # the snapshot does not count
    assert not rows["rounding=each_team"].gap and rows["rounding=bidder_takes_rest"].gap
    assert (found.counted, found.snapshots) == (3, 1)
    status = main(["conform", "coverage", "--cases", str(pack_folder), "--ids", "0"])
    out = capsys.readouterr().out
    assert status == 1
    assert "gaps:" in out and "BID.3" in out and "a, b, c" in out


def test_variant_folders_name_their_reading() -> None:
    """conformance/cases/variants/<variant>/<reading>*.json: each case there requires it."""
    pack, _ = lint_pack(default_pack_folder())
    register = load_register()
    for case in pack.cases:
        parts = case.file.split("/")
        if parts[0] != "variants" or case.origin != "hand_worked":
            continue
        variant, stem = parts[1], parts[2].removesuffix(".json")
        assert variant in register.variants, case.file
        readings = register.variants[variant].readings
        reading = max((r for r in readings if stem.startswith(r)), key=len)
        assert case.requires.get(variant) == reading, case.id


def test_golden_playthroughs_are_current(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["conform", "golden", "--check"])
    assert status == 0, capsys.readouterr().out


def test_no_explored_witness_rests_on_an_optional_state_field() -> None:
    """An engine may leave the optional state fields out (PROTOCOL.md), and the runner then
    cannot check them: a witness must show its difference in what every engine sends."""
    from baloot.conformance.harness.pack import WITNESS
    from baloot.conformance.protocol.fields import state_fields

    required, optional = state_fields()
    pack, _ = lint_pack(default_pack_folder())
    witnesses = [c for c in pack.cases if c.origin == WITNESS]
    assert witnesses and optional
    for case in witnesses:
        shown = set(case.expect.get("state", {}))
        assert shown <= set(required), (case.id, sorted(shown - set(required)))


def test_the_distribution_and_the_pack_share_a_version() -> None:
    import json
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    pack = json.loads((root / "conformance" / "cases" / "pack.json").read_text(encoding="utf-8"))
    assert project["project"]["version"] == pack["version"]


def test_version_names_the_package_the_pack_and_the_protocol(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "case pack baloot-core 0.11.1" in out and "protocol 1" in out
