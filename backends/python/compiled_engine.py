"""The reference engine compiled with mypyc: `baloot gen --compiled DIR`.

The build holds the same rules, text for text, as the checked-in engine; only the
records are laid out for mypyc (native attributes where the interpreted engine keeps
an instance dict, see `generate._compiled_record`). The generated modules and
`runtime_support.py` are compiled to C extensions; the hand-written runtime, notation
and JSON modules are copied as they are and stay interpreted.

The build is a folder to put first on `PYTHONPATH`: `DIR/baloot/reference_impl/`
then shadows the installed engine, and every other `baloot` package is found where it
was installed (`baloot` is a namespace package). It is made for the Python that runs
the build, and needs mypy (which brings mypyc), setuptools and a C compiler:
`pip install 'baloot-conformance[compiled]'`. `BUILD.json` in the folder names the
digest of the engine it was built from; a build whose digest differs is stale.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ...grammar import model as m
from . import generate

BUILD_RECORD = "BUILD.json"
ERROR_LINE = re.compile(r"\berror:", re.IGNORECASE)  # mypy's and the compiler's, not -Werror
COMPILED_SUPPORT = ("runtime_support.py",)  # hand-written, on the rules' hot path
SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(name="baloot-compiled-engine", script_args=["build_ext", "--inplace", "--parallel",
      sys.argv[1]], ext_modules=mypycify(sys.argv[3:], opt_level=sys.argv[2]))
"""


class CompiledBuildError(Exception):
    """The compiled engine could not be built: what went wrong, and what to do."""


@dataclass(frozen=True)
class CompiledBuild:
    folder: Path  # the folder to put on PYTHONPATH
    digest: str  # the engine's modules it was built from
    modules: tuple[str, ...]  # the modules compiled


def engine_digest(files: dict[str, str], copied: dict[str, str], opt_level: str = "3") -> str:
    """One digest of what a build is made from: the generated modules (compiled layout),
    the copied hand-written ones, the Python that compiles them, and its optimisation
    level (any but the default's)."""
    digest = hashlib.sha256(sys.version.encode())
    if opt_level != "3":
        digest.update(f"opt_level {opt_level}\0".encode())
    for name, text in sorted({**files, **copied}.items()):
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()[:16]


def hand_written(engine: Path, generated: dict[str, str]) -> dict[str, str]:
    """The engine folder's hand-written modules (those the spec does not generate)."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(engine.glob("*.py"))
            if p.name not in generated}


def built_digest(folder: Path) -> str | None:
    """The digest a build folder records, or None when it holds no finished build."""
    try:
        record = json.loads((folder / BUILD_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    digest = record.get("digest") if isinstance(record, dict) else None
    return digest if isinstance(digest, str) else None


def build(spec: m.Spec, folder: Path, engine: Path | None = None,
          jobs: int | None = None, opt_level: str = "3") -> CompiledBuild:
    """Build the compiled engine into `folder` (made afresh; kept when it already holds a
    build of the same digest). `engine` is the interpreted engine's folder, whose
    generated modules must be those the spec generates. `opt_level` is the C compiler's
    (mypyc's `opt_level`): "3" for speed, "0" for a build made sooner that runs slower."""
    engine = engine or generate.default_out_dir()
    interpreted = generate.generate(spec)
    stale = generate.differences(engine, interpreted)
    if stale:
        raise CompiledBuildError(
            f"the engine in {engine} differs from what the spec generates "
            f"({stale[0].splitlines()[0]}); run `baloot gen` first")
    # the rules as checked in; only the records are laid out for mypyc
    files = {**interpreted, "definitions.py": generate.definitions_module(spec, compiled=True)}
    copied = hand_written(engine, files)
    digest = engine_digest(files, copied, opt_level)
    compiled = (*sorted(files), *COMPILED_SUPPORT)
    if built_digest(folder) == digest:
        return CompiledBuild(folder, digest, compiled)
    _check_tools()
    if folder.exists() and not folder.is_dir():
        raise CompiledBuildError(f"{folder} is a file, not a folder: name a folder to build in")
    try:
        _write_and_compile(folder, {**copied, **files}, compiled, digest, jobs, opt_level)
    except OSError as exc:
        raise CompiledBuildError(f"cannot build in {folder}: {exc.strerror or exc} "
                                 f"({exc.filename or folder})") from None
    return CompiledBuild(folder, digest, compiled)


def _write_and_compile(folder: Path, modules: dict[str, str], compiled: tuple[str, ...],
                       digest: str, jobs: int | None, opt_level: str) -> None:
    """The engine's modules written in `folder` afresh, compiled, and the build recorded."""
    if folder.exists() and any(folder.iterdir()) and not (folder / BUILD_RECORD).exists():
        raise CompiledBuildError(f"{folder} is not empty and holds no compiled engine: "
                                 "name a new folder, or an earlier build's")
    shutil.rmtree(folder, ignore_errors=True)
    package = folder / "baloot" / "reference_impl"
    package.mkdir(parents=True)
    (folder / BUILD_RECORD).write_text('{"digest": null}\n', encoding="utf-8")  # building
    for name, text in modules.items():
        (package / name).write_text(text, encoding="utf-8")
    marker = folder / "baloot" / "__init__.py"  # mypyc names modules from the packages
    marker.write_text("", encoding="utf-8")
    try:
        _compile(folder, [f"baloot/reference_impl/{name}" for name in compiled], jobs,
                 opt_level)
    finally:
        marker.unlink()
        shutil.rmtree(folder / "build", ignore_errors=True)
    (folder / BUILD_RECORD).write_text(json.dumps(
        {"digest": digest, "python": sys.version.split()[0], "compiled": list(compiled)},
        indent=2) + "\n", encoding="utf-8")


def _check_tools() -> None:
    missing = [name for name in ("mypyc", "setuptools") if not _importable(name)]
    if missing:
        raise CompiledBuildError(
            f"the compiled engine needs {' and '.join(missing)}: "
            "pip install 'baloot-conformance[compiled]' (mypy brings mypyc)")


def _importable(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _compile(folder: Path, sources: list[str], jobs: int | None, opt_level: str) -> None:
    count = str(jobs or os.cpu_count() or 1)
    done = subprocess.run([sys.executable, "-c", SETUP, count, opt_level, *sources], cwd=folder,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = (done.stdout + done.stderr).strip().splitlines()
        errors = [line for line in lines if ERROR_LINE.search(line)]
        shown = "\n".join(line[:300] for line in (errors or lines)[-15:])
        raise CompiledBuildError(f"mypyc could not compile the engine (exit status "
                                 f"{done.returncode}; a C compiler is needed); its "
                                 f"{'errors' if errors else 'last lines'}:\n{shown}")
