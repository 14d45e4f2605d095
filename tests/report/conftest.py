"""Three engines' real reports for the report tests, made once per test session.

- `reference`: the reference engine (every case passes);
- `hostile`: the reference engine behind `tests/conformance/fake_engines/reference_with.py`,
  declaring a name with markup in it, no reading beyond the ones it plays, few
  capabilities, and asking the wrong seat in the playing phase: failures,
  skips and unsupported cases;
- `crashing`: `fake_engines/crashes_on_deal.py`, which dies when asked to deal a
  further round (errors), with an xfail list naming one such case (xfailed)
  and one passing case (xpassed).

Each runs the same selection of the built-in pack (`SELECTION`), through
`baloot conform --json --junit`.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main as cli_main

HERE = Path(__file__).parent
REFERENCE_WITH = HERE.parent / "conformance" / "fake_engines" / "reference_with.py"
CRASHES_ON_DEAL = HERE / "fake_engines" / "crashes_on_deal.py"
SELECTION = ("BID.*", "PLAY.*", "GAME.*", "END.*")
MARKUP_NAME = "<script>alert('name')</script> & \"co\""
HOSTILE_HELLO = {
    "name": MARKUP_NAME,
    "version": "2.0<b>",
    "readings": {},
    "capabilities": ["ashkal", "redeal", "second_session", "pass_only_turns", "game_score"],
}


@dataclass(frozen=True)
class EngineRunFiles:
    status: int
    json_path: Path
    junit_path: Path

    @property
    def report(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.json_path.read_text(encoding="utf-8"))
        return data


def conform(folder: Path, name: str, engine: list[str], *extra: str) -> EngineRunFiles:
    json_path, junit_path = folder / f"{name}.json", folder / f"{name}.junit.xml"
    only = [word for glob in SELECTION for word in ("--only", glob)]
    status = cli_main(["conform", "--engine", shlex.join(engine), *only, "--json", str(json_path),
                       "--junit", str(junit_path), *extra])
    return EngineRunFiles(status, json_path, junit_path)


@pytest.fixture(scope="session")
def engine_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, EngineRunFiles]:
    folder = tmp_path_factory.mktemp("reports")
    runs = {"reference": conform(folder, "reference", [sys.executable, "-m",
                                 "baloot.conformance.adapters.reference_adapter"])}
    with pytest.MonkeyPatch.context() as env:
        env.setenv("FAKE_HELLO", json.dumps(HOSTILE_HELLO))
        env.setenv("FAKE_WRONG_ACTOR", "playing")
        runs["hostile"] = conform(folder, "hostile", [sys.executable, str(REFERENCE_WITH)])
    reference = runs["reference"].report["cases"]
    dealt = next(c["id"] for c in reference if c["kind"] == "game")
    passing = next(c["id"] for c in reference if c["kind"] == "legal")
    xfail = folder / "crashing.xfail"
    xfail.write_text(f"{dealt} dies when dealing\n{passing} listed, though it passes\n")
    runs["crashing"] = conform(folder, "crashing", [sys.executable, str(CRASHES_ON_DEAL)],
                               "--xfail", str(xfail))
    return runs
