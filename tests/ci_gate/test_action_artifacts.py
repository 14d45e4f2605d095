"""What the action uploads holds up once published: the reports link to the copy of the
rules document written beside them (uploaded with them), or to the address the
`rules-url` input passes on as BALOOT_RULES_URL; and a run stopped before any case (a
bad xfail glob) still leaves a step summary saying why. The conform step's script runs
as in test_action.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .test_action import ROOT, action, evaluate, steps_by_id

REFERENCE = f"{sys.executable} -m baloot.conformance.adapters.reference_adapter"


def run_step(tmp_path: Path, **given: str) -> tuple[int, str, Path, str]:
    """Run the conform step with the inputs `given` (names with `_` for `-`); return its
    exit status, the step summary, the report folder and the step's output."""
    data = action()
    conform = steps_by_id(data)["conform"]
    inputs = {name: spec.get("default", "") for name, spec in data["inputs"].items()}
    inputs.update({name.replace("_", "-"): value for name, value in given.items()})
    github = {"action_path": str(ROOT), "workspace": str(tmp_path)}
    env = {key: evaluate(str(value), inputs, github) for key, value in conform["env"].items()}
    script = tmp_path / "conform.sh"
    script.write_text(conform["run"], encoding="utf-8")
    summary = tmp_path / "step-summary.md"
    summary.write_text("## An earlier step\n")
    run_env = {
        **{k: v for k, v in os.environ.items() if k != "BALOOT_RULES_URL"}, **env,
        "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(tmp_path / "out"),
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
    }
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=tmp_path, env=run_env, capture_output=True, text=True,
                          timeout=300, check=False)
    return (done.returncode, summary.read_text(), tmp_path / inputs["report-dir"],
            done.stdout + done.stderr)


def test_the_action_passes_rules_url_to_the_run() -> None:
    """The input becomes BALOOT_RULES_URL (what the harness does with it:
    tests/report/test_report_artifact_links.py)."""
    data = action()
    assert data["inputs"]["rules-url"] == {
        "description": data["inputs"]["rules-url"]["description"], "required": False,
        "default": ""}
    assert steps_by_id(data)["conform"]["env"]["BALOOT_RULES_URL"] == "${{ inputs.rules-url }}"


def test_the_uploaded_folder_holds_the_rules_document_its_reports_link_to(
        tmp_path: Path) -> None:
    status, _, reports, output = run_step(tmp_path, engine=REFERENCE,
                                          extra_args="--only var.trump_lead.any_trump.*")
    assert status == 0, output
    report = json.loads((reports / "conform.json").read_text())
    links = {link for case in report["cases"] for link in case["rules"]}
    assert links and all(link.startswith("rules.html#clause-") for link in links)
    document = (reports / "rules.html").read_text(encoding="utf-8")
    assert all(f'id="{link.split("#")[1]}"' in document for link in links)
    assert "file:" not in (reports / "conform.junit.xml").read_text()


def test_a_bad_xfail_glob_still_leaves_a_summary_saying_why(tmp_path: Path) -> None:
    xfail = tmp_path / "engine.xfail"
    xfail.write_text("score.nothing.*  no such cases\n")
    status, summary, _, output = run_step(tmp_path, engine=REFERENCE, xfail=str(xfail))
    assert status == 2, output
    assert "matches no case id" in output  # the log keeps the message too
    assert summary.startswith("## An earlier step\n\n### Baloot conformance: FAILED, not run "
                              "(exit status 2)")
    unescaped = summary.replace("\\", "")  # markdown's escapes (`\_`, `\*`)
    assert f"{xfail}:1: the glob 'score.nothing.*' matches no case id" in unescaped
