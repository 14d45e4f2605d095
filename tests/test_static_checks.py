"""The hand-written code passes ruff and mypy (strict), as the project promises.

mypy checks the installed import names (`baloot.grammar`, ...), which live in
folders named otherwise (`grammar/`, ...): the test lays a `baloot/` tree of
links to those folders and checks that.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"grammar": "grammar", "spec": "spec", "reference_impl": "reference_impl",
            "conformance": "conformance", "proofs": "proofs"}
HAND_WRITTEN = ["grammar", "conformance", "proofs", "tests", "benchmarks",
                "reference_impl/runtime.py", "reference_impl/notation.py",
                "reference_impl/plain.py", "reference_impl/runtime_support.py",
                "reference_impl/__init__.py"]


def run(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *argv], cwd=cwd, capture_output=True,
                          text=True, check=False)


def test_ruff_passes_on_hand_written_code() -> None:
    present = [p for p in HAND_WRITTEN if (ROOT / p).exists()]
    result = run("ruff", "check", "--no-cache", *present)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("mypy") is None and run("mypy", "--version").returncode != 0,
                    reason="mypy is not installed")
def test_mypy_strict_passes_on_the_packages(tmp_path: Path) -> None:
    tree = tmp_path / "baloot"
    tree.mkdir()
    for name, folder in PACKAGES.items():
        (tree / name).symlink_to(ROOT / folder, target_is_directory=True)
    result = run("mypy", "--config-file", str(ROOT / "pyproject.toml"), "--explicit-package-bases",
                 "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                 "-p", "baloot.grammar", "-p", "baloot.reference_impl", "-p", "baloot.conformance",
                 "-p", "baloot.proofs",
                 cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
