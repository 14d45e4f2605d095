"""The conformance suite judges an engine it has never seen: diwaniya, an
independent Baloot engine in JavaScript (tests/conformance/independent_engines/
diwaniya.mjs), written from the rules notes, the rules document and
PROTOCOL.md only.

Its hello declares a mix that matches no profile: the literal profile with
five readings overridden (A5 bidder_takes_rest, A4 half_points_or_more, A15
must_trump_unless_partner_wins, A9 sun_44_hokum_25, A10 any_raise), a choice of
two roundings (A5 each_team or bidder_takes_rest), and only some capabilities
(no ashkal, four, gahwa, redeal or game score). The clean engine must pass
every case that applies to it; cases needing what it lacks are skipped or
unsupported. Each rule break it can plant with `--bug NAME` must fail the run,
only through cases that the clean engine passes, and at least one of them a case
citing the broken clause's family.

The clean run's counts and the cases each bug fails are a regression
snapshot of the pack as it stands, `independent_engines/diwaniya_verdicts.json`,
checked exactly. Regenerate it after the pack changes with:

    python tests/conformance/test_independent_diwaniya.py

which runs the pack clean and once per bug and writes the file.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ENGINE = Path(__file__).parent / "independent_engines" / "diwaniya.mjs"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not on PATH: the diwaniya engine is a Node.js program"
)

SNAPSHOT = Path(__file__).parent / "independent_engines" / "diwaniya_verdicts.json"

# Planted bugs, each with the clause (or clause family, ending in '.') it breaks: at
# least one failed case must cite it. The failed ids themselves are in the snapshot.
CAUGHT: dict[str, str] = {
    "no_sun_switch": "BID.",
    "ten_eleven": "SCORE.",
    "no_partner_exemption": "PLAY.2",
    "sub_runs": "PROJ.",
    "trump_instead_of_follow": "PLAY.2",
    "projects_multiplied": "RAISE.",
}


def snapshot() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return found


@dataclass(frozen=True)
class Verdict:
    status: int
    report: dict[str, Any]
    stderr: str

    def ids(self, status: str) -> set[str]:
        return {c["id"] for c in self.report["cases"] if c["status"] == status}

    def case(self, case_id: str) -> dict[str, Any]:
        return next(c for c in self.report["cases"] if c["id"] == case_id)


def conform(bug: str | None, folder: Path) -> Verdict:
    """Run `baloot conform` on the built-in pack against diwaniya (with one bug)."""
    engine = [str(NODE), str(ENGINE)] + (["--bug", bug] if bug else [])
    report_path = folder / f"{bug or 'clean'}.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "baloot.cli.main",
            "conform",
            "--engine",
            shlex.join(engine),
            "--json",
            str(report_path),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    if not report_path.exists():
        raise RuntimeError(
            f"conform wrote no report (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    return Verdict(done.returncode, json.loads(report_path.read_text()), done.stderr)


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str | None, Verdict]:
    folder = tmp_path_factory.mktemp("diwaniya")
    runs: list[str | None] = [None, *CAUGHT]
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(runs, pool.map(lambda bug: conform(bug, folder), runs), strict=True))


def test_the_engine_declares_a_mix_of_no_profile(verdicts: dict[str | None, Verdict]) -> None:
    hello = verdicts[None].report["engine"]["hello"]
    assert hello["profile"] == "literal"
    assert hello["overrides"] == {
        "rounding": "bidder_takes_rest",
        "bidder_success": "half_points_or_more",
        "void_in_hokum": "must_trump_unless_partner_wins",
        "kaboot": "sun_44_hokum_25",
        "locked_round": "any_raise",
    }
    assert hello["readings"] == {"rounding": ["each_team", "bidder_takes_rest"]}
    assert sorted(hello["capabilities"]) == sorted(
        ["raises", "raise_triple", "declarations", "projects", "second_session"]
    )


def test_clean_engine_passes_every_case_that_applies(
    verdicts: dict[str | None, Verdict],
) -> None:
    clean = verdicts[None]
    summary = clean.report["summary"]
    problems = sorted(clean.ids("failed") | clean.ids("errored"))
    assert clean.status == 0, f"failed or errored: {problems}\n{clean.stderr}"
    assert summary["failed"] == 0 and summary["errored"] == 0
    assert summary == snapshot()["clean"], "regression snapshot: see the module doc"
    assert summary["unsupported"] > 0  # cases needing ashkal, four, gahwa, redeal, game score
    assert summary["skipped"] > 0  # cases pinning readings the engine does not play


@pytest.mark.parametrize("bug", sorted(CAUGHT))
def test_planted_bug_fails_only_cases_it_explains(
    verdicts: dict[str | None, Verdict], bug: str
) -> None:
    clause = CAUGHT[bug]
    expected = set(snapshot()["failed_by_bug"][bug])
    verdict = verdicts[bug]
    failed = verdict.ids("failed")
    assert verdict.status == 1, verdict.stderr
    assert verdict.report["summary"]["errored"] == 0
    assert failed, f"--bug {bug} failed no case"
    for case_id in sorted(failed):  # each failure is the bug's: the clean engine passes it
        assert case_id in verdicts[None].ids("passed"), f"{case_id} fails without the bug too"
    # and the bug is caught by a case about the rule it breaks (others, a round's result
    # say, may fail through it too)
    assert any(
        any(c.startswith(clause) for c in verdict.case(case_id)["clauses"]) for case_id in failed
    ), f"--bug {bug}: no failed case cites {clause}"
    assert failed == expected, (
        f"regression snapshot of --bug {bug}: new {sorted(failed - expected)}, "
        f"gone {sorted(expected - failed)}"
    )


def write_snapshot() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        clean = conform(None, Path(scratch)).report["summary"]
        table = {bug: sorted(conform(bug, Path(scratch)).ids("failed")) for bug in CAUGHT}
    SNAPSHOT.write_text(json.dumps({"clean": clean, "failed_by_bug": table}, indent=1) + "\n",
                        encoding="utf-8")
    print(f"wrote {SNAPSHOT}")


if __name__ == "__main__":
    write_snapshot()
