"""The hand-written code passes ruff, and the whole tree mypy (strict), as the project
promises. mypy runs through `tests/typecheck.py`, which names each file by its import
name (`grammar/model.py` is `baloot.grammar.model`) from pyproject.toml's mapping."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from baloot.conformance.harness import kept_results

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/ has no packages (pytest's importlib mode)

import typecheck  # noqa: E402

HAND_WRITTEN = ["grammar", "backends", "proofs", "explorer", "conformance", "cli", "tests",
                "benchmarks", "reference_impl/runtime.py", "reference_impl/notation.py",
                "reference_impl/plain.py", "reference_impl/runtime_support.py",
                "reference_impl/rule_swap.py", "reference_impl/__init__.py"]


def run(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *argv], cwd=cwd, capture_output=True,
                          text=True, check=False)


def test_ruff_passes_on_hand_written_code() -> None:
    present = [p for p in HAND_WRITTEN if (ROOT / p).exists()]
    result = run("ruff", "check", "--no-cache", *present)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_passes_on_the_whole_tree(tmp_path: Path) -> None:
    """`python tests/typecheck.py`: the packages under their import names, the tests and
    the benchmarks, from the plain checkout, with `[tool.mypy]` of pyproject.toml. mypy's
    own incremental cache is kept where the project keeps results between runs
    (`kept_results`, kind `mypy`): mypy checks again every file whose content changed and
    every file that depends on one. With keeping off, nothing is kept."""
    kept = kept_results.cache_folder("mypy")
    cache = ["--cache-dir", str(kept)] if kept is not None else \
        ["--no-incremental", "--cache-dir", str(tmp_path)]
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "typecheck.py"), *cache],
                            cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_the_type_check_sees_every_room_under_its_import_name() -> None:
    """A file in `conformance/` is checked as `baloot.conformance...`, so that another
    room's `from baloot.conformance... import` reaches it; a test helper imported by
    its bare name is checked under that name, and a test under its path."""
    names = {source.path: source.module for source in typecheck.sources()}
    assert names["cli/main.py"] == "baloot.cli.main"
    assert names["backends/document/__init__.py"] == "baloot.backends.document"
    assert names["reference_impl/runtime.py"] == "baloot.reference_impl.runtime"
    assert names["tests/engine/engine_helpers.py"] == "engine_helpers"
    assert names["tests/engine/test_engine_bidding.py"] == "tests.engine.test_engine_bidding"
    assert len(set(names.values())) == len(names), "two files under one module name"


def test_the_type_check_fails_on_a_type_error_across_rooms(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a project mapped as ours is, a wrong use of one room's type in another is found:
    the check follows `baloot.*` to the folders."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.setuptools]\npackage-dir = { "baloot.alpha" = "alpha", "baloot.beta" = "beta" }\n'
        '[tool.mypy]\nstrict = true\n', encoding="utf-8")
    for room in ("alpha", "beta", "tests"):
        (tmp_path / room).mkdir()
        (tmp_path / room / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "alpha" / "model.py").write_text(
        "class Spec:\n    rules: list[str] = []\n", encoding="utf-8")
    (tmp_path / "beta" / "use.py").write_text(
        "from baloot.alpha.model import Spec\n\n\n"
        "def rules_count(spec: Spec) -> str:\n    return len(spec.rules)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert typecheck.main(["--no-incremental", "--cache-dir", str(tmp_path / "cache")],
                          root=tmp_path) == 1
    out = capsys.readouterr().out
    assert "beta/use.py:5: error: Incompatible return value type" in out
    (tmp_path / "beta" / "use.py").write_text(
        "from baloot.alpha.model import Spec\n\n\n"
        "def rules_count(spec: Spec) -> int:\n    return len(spec.rules)\n", encoding="utf-8")
    assert typecheck.main(["--no-incremental", "--cache-dir", str(tmp_path / "cache")],
                          root=tmp_path) == 0

