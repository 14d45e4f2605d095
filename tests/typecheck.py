"""mypy --strict over the whole tree, on a plain checkout: `python tests/typecheck.py`.

The packages are imported as `baloot.grammar`, `baloot.conformance`, ... but live
in folders named `grammar/`, `conformance/`, ... (the mapping is
`[tool.setuptools] package-dir` in pyproject.toml). mypy finds a module from its
file's path, so it cannot follow that mapping by itself. This script reads the
mapping from pyproject.toml and hands mypy every file with the module name it
has when installed; mypy's own settings come from `[tool.mypy]` in the same
file. The tests (`tests.*`) and the benchmarks (`benchmarks.*`) are checked
under their paths' names.

Extra arguments are passed to mypy (`python tests/typecheck.py --no-incremental`).
Exit status: mypy's (0 clean, 1 type errors, 2 usage or crash).
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

from mypy import build
from mypy.errors import CompileError
from mypy.main import process_options
from mypy.modulefinder import BuildSource

ROOT = Path(__file__).resolve().parent.parent
NAMESPACE = "baloot"
CHECKED_UNDER_THEIR_PATHS = ("tests", "benchmarks")
TOP_LEVEL_IMPORT = re.compile(r"^(?:from|import) ([a-z_][a-z0-9_]*)\b", re.MULTILINE)


def installed_folders(pyproject: Path) -> dict[str, Path]:
    """Package name -> its folder, for each mapped top-level folder of `package-dir`."""
    setuptools = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["setuptools"]
    return {package: pyproject.parent / folder
            for package, folder in setuptools["package-dir"].items()}


def module_name(prefix: str, folder: Path, file: Path) -> str:
    parts = list(file.relative_to(folder).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([prefix, *parts]) if prefix else ".".join(parts)


def python_files(folder: Path) -> list[Path]:
    return sorted(f for f in folder.rglob("*.py") if "__pycache__" not in f.parts)


def imported_as_top_level(files: list[Path]) -> set[Path]:
    """The helper modules that test files and script engines import by their bare name
    (`from engine_helpers import ...`, with the helper's folder on `sys.path`)."""
    by_stem: dict[str, list[Path]] = {}
    for file in files:
        by_stem.setdefault(file.stem, []).append(file)
    return {helper for file in files
            for name in TOP_LEVEL_IMPORT.findall(file.read_text(encoding="utf-8"))
            for helper in by_stem.get(name, [])}


def sources(root: Path = ROOT) -> list[BuildSource]:
    """Every hand-written and generated Python file, each under its import name."""
    # `baloot` itself is a namespace package with no folder of its own: an empty one
    found = [BuildSource(None, NAMESPACE, text="")]
    for package, folder in installed_folders(root / "pyproject.toml").items():
        found += [BuildSource(str(f.relative_to(root)), module_name(package, folder, f))
                  for f in python_files(folder)]
    others = [f for name in CHECKED_UNDER_THEIR_PATHS for f in python_files(root / name)]
    by_bare_name = imported_as_top_level(others)
    for f in others:
        name = f.stem if f in by_bare_name else module_name("", root, f)
        found.append(BuildSource(str(f.relative_to(root)), name))
    return found


def main(argv: list[str], root: Path = ROOT) -> int:
    os.chdir(root)  # the sources are named relative to the root, and so are mypy's messages
    _, options = process_options(
        ["--config-file", str(root / "pyproject.toml"), *argv, "-c", "pass"]
    )
    checked = sources(root)
    try:
        result = build.build(checked, options)
    except CompileError as exc:
        print("\n".join(exc.messages), file=sys.stderr)
        return 2
    errors = [line for line in result.errors if ": error:" in line]
    for line in result.errors:
        print(line)
    if errors:
        files = len({line.split(":", 1)[0] for line in errors})
        print(f"Found {len(errors)} errors in {files} files ({len(checked)} source files)")
        return 1
    print(f"Success: no issues found in {len(checked)} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
