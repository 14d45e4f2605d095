"""`baloot conform` needs neither the spec's parser (lark), nor z3, nor black.

The harness reads the clause list and the variant register from the data file
`baloot gen` writes, and the `baloot` command loads the rooms that need those
libraries only when one of their subcommands runs.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from baloot.conformance.harness.engine_process import REFERENCE_ARGV

HEAVY = ("lark", "z3", "black")
CASE = "bid.legal.first-bidder"


def heavy_imports(importtime: str) -> list[str]:
    """The modules of lark, z3 or black that `-X importtime` output names."""
    found = []
    for line in importtime.splitlines():
        if not line.startswith("import time:") or line.count("|") != 2:
            continue
        module = line.rsplit("|", 1)[1].strip()
        if module.split(".")[0] in HEAVY:
            found.append(module)
    return found


def run(argv: list[str], env: dict[str, str] | None = None,
        input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False,
                          env=env, input=input)


def test_heavy_imports_reads_importtime_lines() -> None:
    text = ("import time: self [us] | cumulative | imported package\n"
            "import time:       120 |        300 |   lark.lexer\n"
            "import time:       120 |        300 | rich\n"
            "import time:        20 |         20 |     z3\n")
    assert heavy_imports(text) == ["lark.lexer", "z3"]


def test_conform_run_imports_no_lark_z3_or_black() -> None:
    result = run([sys.executable, "-X", "importtime", "-m", "baloot.cli.main", "conform",
                  "--engine", shlex.join(REFERENCE_ARGV), "--only", CASE])
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert "1 passed" in result.stdout
    assert "import time:" in result.stderr  # the option took effect
    assert heavy_imports(result.stderr) == []


def test_reference_adapter_imports_no_lark_z3_or_black() -> None:
    result = run([sys.executable, "-X", "importtime", *REFERENCE_ARGV[1:]],
                 input='{"seq": 1, "type": "hello", "protocol": 1}\n'
                       '{"seq": 2, "type": "bye"}\n')
    assert result.returncode == 0, result.stderr[-3000:]
    assert '"ok":true' in result.stdout.replace(" ", "")
    assert "import time:" in result.stderr
    assert heavy_imports(result.stderr) == []


def test_conform_runs_with_lark_z3_and_black_unimportable(tmp_path: Path) -> None:
    """Each of them replaced by a module that fails to import, for the command and the
    reference engine it starts."""
    for name in HEAVY:
        (tmp_path / f"{name}.py").write_text(f"raise ImportError('{name} is not installed')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])])}
    blocked = run([sys.executable, "-c", "import lark"], env=env)
    assert "lark is not installed" in blocked.stderr  # the stand-ins shadow the real ones
    result = run([sys.executable, "-m", "baloot.cli.main", "conform",
                  "--engine", shlex.join(REFERENCE_ARGV), "--only", CASE], env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout


def test_the_harness_modules_import_nothing_of_the_grammar_or_the_proofs() -> None:
    """The harness, and the command that runs it, load neither the language nor its
    backends, the proofs or the explorer."""
    modules = [f"baloot.conformance.harness.{m}" for m in (
        "runner", "lint", "pack", "variants", "clauses", "rules_links", "report_console",
        "report_files", "engine_process", "pytest_plugin")] + ["baloot.cli.conform_command"]
    code = ("import sys\n"
            + "".join(f"import {m}\n" for m in modules)
            + "print(sorted(m for m in sys.modules if m.startswith(('baloot.grammar', "
              "'baloot.backends', 'baloot.proofs', 'baloot.explorer'))))\n")
    result = run([sys.executable, "-c", code])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
