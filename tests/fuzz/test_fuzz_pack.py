"""`baloot fuzz --out DIR` writes a pack: `baloot conform --cases DIR` reruns it as it
is, failing the planted bug on the engine that has it and passing on the reference."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.fuzz.casefile import FUZZ_PACK, pack_manifest, write_case_file
from baloot.conformance.harness.engine_process import REFERENCE_ARGV
from baloot.conformance.harness.pack import Problem, default_pack_folder, load_manifest

WRAPPED = [sys.executable, str(Path(__file__).with_name("wrapped_engine.py"))]
BUGGY = [*WRAPPED, "--bug", "sun_last_trick"]
SIGNATURE = "result:round_over:last_trick_bunts:SCORE.2"


def test_fuzz_out_is_a_pack_that_conform_reruns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "found"
    status = cli_main(["fuzz", "--engine", shlex.join(BUGGY), "--rounds", "12", "--seed", "1",
                       "--out", str(out)])
    assert status == 1 and SIGNATURE in capsys.readouterr().err
    manifest = json.loads((out / "pack.json").read_text(encoding="utf-8"))
    assert manifest == pack_manifest() and manifest["name"] == FUZZ_PACK
    problems: list[Problem] = []
    assert load_manifest(out, problems)[0] == FUZZ_PACK and problems == []
    cases = sorted(p.name for p in out.glob("*.json") if p.name != "pack.json")
    assert len(cases) == 1

    report = tmp_path / "rerun.json"
    status = cli_main(["conform", "--engine", shlex.join(BUGGY), "--cases", str(out),
                       "--json", str(report)])
    data = json.loads(report.read_text(encoding="utf-8"))
    assert status == 1 and data["pack"]["name"] == FUZZ_PACK
    assert [c["status"] for c in data["cases"]] == ["failed"], data["cases"]
    assert cli_main(["conform", "--engine", shlex.join(REFERENCE_ARGV),
                     "--cases", str(out)]) == 0
    assert cli_main(["conform", "lint", "--cases", str(out)]) == 0


def test_a_pack_json_already_there_is_kept(tmp_path: Path) -> None:
    (tmp_path / "pack.json").write_text('{"name": "mine", "version": "1.0.0", "protocol": 1}')
    case = {"id": "fuzz.x", "cases": "not checked here"}
    path = write_case_file(tmp_path, case)
    assert path == tmp_path / "fuzz.x.json"
    assert json.loads(path.read_text())["cases"] == [case]
    assert json.loads((tmp_path / "pack.json").read_text())["name"] == "mine"
    assert pack_manifest()["version"] == load_manifest(default_pack_folder(), [])[1]
