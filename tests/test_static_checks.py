"""The hand-written code passes ruff, and the whole tree mypy (strict), as the project
promises. mypy runs through `tests/typecheck.py`, which names each file by its import
name (`grammar/model.py` is `baloot.grammar.model`) from pyproject.toml's mapping."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/ has no packages (pytest's importlib mode)

import typecheck  # noqa: E402

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


def test_mypy_strict_passes_on_the_whole_tree(tmp_path: Path) -> None:
    """`python tests/typecheck.py`: the packages under their import names, the tests and
    the benchmarks, from the plain checkout, with `[tool.mypy]` of pyproject.toml."""
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "typecheck.py"),
                             "--no-incremental", "--cache-dir", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_the_type_check_sees_every_room_under_its_import_name() -> None:
    """A file in `conformance/` is checked as `baloot.conformance...`, so that another
    room's `from baloot.conformance... import` reaches it; a test helper imported by
    its bare name is checked under that name, and a test under its path."""
    names = {source.path: source.module for source in typecheck.sources()}
    assert names["conformance/cli.py"] == "baloot.conformance.cli"
    assert names["grammar/render/__init__.py"] == "baloot.grammar.render"
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
    assert typecheck.main(["--cache-dir", str(tmp_path / "cache")], root=tmp_path) == 1
    out = capsys.readouterr().out
    assert "beta/use.py:5: error: Incompatible return value type" in out
    (tmp_path / "beta" / "use.py").write_text(
        "from baloot.alpha.model import Spec\n\n\n"
        "def rules_count(spec: Spec) -> int:\n    return len(spec.rules)\n", encoding="utf-8")
    assert typecheck.main(["--cache-dir", str(tmp_path / "cache")], root=tmp_path) == 0


# ---- imports at the top --------------------------------------------------------------

# The optional dependencies (each an extra of pyproject.toml): a module may import
# one of them, or a module of ours that loads one, inside a function, so that a
# command that does not need it runs without it.
OPTIONAL = {"z3", "lark", "black", "hypothesis"}
# Modules that exist only at run time: a mutant engine's build, imported from its folder.
BUILT_AT_RUN_TIME = {"baloot_mutant"}


def imported_names(node: ast.stmt) -> list[str]:
    """The modules an import statement loads (for `from a.b import c`, `a.b` and `a.b.c`,
    since `c` may be a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return []


def loads_an_optional_dependency(modules: dict[str, ast.Module]) -> set[str]:
    """Our modules whose top-level imports load an optional dependency, directly or
    through other modules of ours."""
    top = {name: [imported for node in tree.body for imported in imported_names(node)]
           for name, tree in modules.items()}
    heavy = {name for name, imports in top.items()
             if any(i.split(".")[0] in OPTIONAL for i in imports)}
    grew = True
    while grew:
        more = {name for name, imports in top.items() if heavy.intersection(imports)}
        grew = not more <= heavy
        heavy |= more
    return heavy


def imports_inside_functions(
        modules: dict[str, ast.Module]) -> list[tuple[str, int, tuple[str, ...]]]:
    """(module, line, what the statement imports) for each import inside a function."""
    found = []
    for name, tree in modules.items():
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [(name, node.lineno, tuple(imported_names(node)))
                          for node in ast.walk(function)
                          if isinstance(node, ast.stmt) and imported_names(node)]
    return sorted(set(found))


def test_imports_inside_functions_are_only_of_optional_dependencies() -> None:
    """An import inside a function hides a dependency from the reader and the tools; it is
    kept only where it defers an optional dependency (directly, or a module of ours that
    loads one at its top)."""
    sources = [s for s in typecheck.sources() if s.path and s.module.startswith("baloot.")]
    modules = {s.module: ast.parse(Path(ROOT / s.path).read_text(encoding="utf-8"))
               for s in sources}
    heavy = loads_an_optional_dependency(modules)
    assert {"baloot.grammar.parser", "baloot.proofs.symbolic"} <= heavy
    assert "baloot.conformance.harness.runner" not in heavy
    paths = {s.module: s.path for s in sources}
    wrong = [f"{paths[module]}:{line}: imports {imported[0]} inside a function"
             for module, line, imported in imports_inside_functions(modules)
             if not any(i.split(".")[0] in OPTIONAL | BUILT_AT_RUN_TIME or i in heavy
                        for i in imported)]
    assert not wrong, "\n".join(wrong)
