"""The composite GitHub Action (`action.yml`), run through the same commands it contains.

The test reads action.yml with a YAML parser, checks its shape (inputs, and the four
steps: set up Python, install the package from the action's own path, run the pack,
upload the reports whatever happened), then runs the conform step's `run:` script
with bash as GitHub runs a `shell: bash` step (`bash --noprofile --norc -eo pipefail
FILE`), its `env:` filled in from the inputs as GitHub's expressions would: the
engine is the reference adapter, the selection a few cases (`--only` through the
`extra-args` input), an xfail file listing a case that passes. GITHUB_STEP_SUMMARY
and GITHUB_OUTPUT point at temporary files.

Not run: the steps that `uses:` another action (setup-python, upload-artifact),
which need GitHub's runner, and the install step, since the package is installed
already in the environment running the tests; their inputs are checked instead.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import yaml

from baloot.conformance.harness.pack import default_pack_folder

ROOT = Path(__file__).resolve().parents[2]
EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")
SELECTION = "var.trump_lead.*"


def action() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return data


def steps_by_id(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    steps = data["runs"]["steps"]
    return {step.get("id") or step["uses"].split("@")[0]: step for step in steps}


def evaluate(text: str, inputs: dict[str, str], github: dict[str, str]) -> str:
    """`text` with its `${{ inputs.NAME }}` and `${{ github.NAME }}` expressions replaced;
    any other expression fails the test."""
    def value(match: re.Match[str]) -> str:
        scope, _, name = match.group(1).partition(".")
        table = {"inputs": inputs, "github": github}.get(scope)
        assert table is not None and name in table, f"unexpected expression {match.group(0)}"
        return table[name]
    return EXPRESSION.sub(value, text)


def test_the_action_has_the_inputs_and_steps_of_a_ci_gate() -> None:
    data = action()
    assert data["runs"]["using"] == "composite"
    inputs = data["inputs"]
    assert inputs["engine"]["required"] is True
    for name in ("profile", "xfail", "pack-version", "python-version", "extra-args",
                 "report-dir", "artifact-name"):
        assert inputs[name]["required"] is False and isinstance(inputs[name]["default"], str)
    steps = steps_by_id(data)
    assert list(steps) == ["actions/setup-python", "install", "conform",
                           "actions/upload-artifact"]
    assert steps["actions/setup-python"]["with"]["python-version"] == (
        "${{ inputs.python-version }}")
    install = steps["install"]
    assert install["shell"] == "bash" and install["env"] == {
        "BALOOT_ACTION_PATH": "${{ github.action_path }}"}
    assert 'pip install' in install["run"] and '"$BALOOT_ACTION_PATH"' in install["run"]
    upload = steps["actions/upload-artifact"]
    assert upload["if"] == "always()"
    assert upload["with"]["path"] == "${{ inputs.report-dir }}"
    conform = steps["conform"]
    assert conform["shell"] == "bash"
    assert "${{" not in conform["run"]  # inputs reach the script only through env
    assert '--summary-md "$GITHUB_STEP_SUMMARY"' in conform["run"]
    for output in data["outputs"].values():
        assert output["value"].startswith("${{ steps.conform.outputs.")


def test_the_conform_step_runs_the_pack_and_writes_reports_and_a_summary(
    tmp_path: Path,
) -> None:
    data = action()
    conform = steps_by_id(data)["conform"]
    pack = json.loads((default_pack_folder() / "pack.json").read_text(encoding="utf-8"))
    major, minor, _ = pack["version"].split(".")
    listed = "var.trump_lead.any_trump.partner-winning"
    xfail = tmp_path / "engine.xfail"
    xfail.write_text(f"{listed}  listed, though the reference passes it\n")
    inputs = {name: spec.get("default", "") for name, spec in data["inputs"].items()}
    inputs.update({
        "engine": f"{sys.executable} -m baloot.conformance.adapters.reference_adapter",
        "profile": "literal",
        "xfail": str(xfail),
        "pack-version": f"{major}.{minor}",
        "extra-args": f"--only '{SELECTION}' --timeout 20",
    })
    github = {"action_path": str(ROOT), "workspace": str(tmp_path)}
    env = {key: evaluate(str(value), inputs, github) for key, value in conform["env"].items()}
    script = tmp_path / "conform.sh"
    script.write_text(conform["run"], encoding="utf-8")
    summary, outputs = tmp_path / "step-summary.md", tmp_path / "github-output"
    summary.write_text("## An earlier step\n")
    run_env = {
        **os.environ, **env,
        "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs),
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
    }
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=tmp_path, env=run_env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr

    reports = tmp_path / inputs["report-dir"]
    written = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    assert written == {"json-report": f"{inputs['report-dir']}/conform.json",
                       "junit-report": f"{inputs['report-dir']}/conform.junit.xml"}
    report = json.loads((reports / "conform.json").read_text())
    assert report["pack"]["version"] == pack["version"] and report["profile"] == "literal"
    ids = [c["id"] for c in report["cases"]]
    assert ids and all(re.fullmatch(SELECTION.replace(".", r"\.").replace("*", ".*"), i)
                       for i in ids)
    statuses = {c["id"]: c["status"] for c in report["cases"]}
    assert statuses.pop(listed) == "xpassed" and set(statuses.values()) == {"passed"}
    assert [s["pattern"] for s in report["stale_xfails"]] == [listed]
    suite = ET.parse(reports / "conform.junit.xml").getroot()
    assert int(suite.get("tests", "0")) == len(ids) and suite.get("failures") == "0"

    text = summary.read_text()
    assert text.startswith("## An earlier step\n")
    assert "### Baloot conformance: OK, baloot-reference" in text
    assert f"| pack | {pack['name']} {pack['version']} |" in text
    assert f"| {len(ids) - 1} | 0 | 0 | 0 | 0 | 0 | 1 | {len(ids)} |" in text
    assert "#### Stale xfail lines (1)" in text and listed.replace("_", "\\_") in text
