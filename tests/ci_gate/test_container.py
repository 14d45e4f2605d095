"""The `Containerfile`: a python:3.11-slim image with the package installed from the build
context and `baloot` as its entry point, working in /work (where `podman run -v
$PWD:/work IMAGE conform --engine ...` mounts the engine's folder).

No image is built here (that needs a container engine and the network); the test reads
the instructions, and checks that `.containerignore` keeps in the context every file the
package is built from (pyproject.toml's package folders, README, LICENSE)."""

from __future__ import annotations

import fnmatch
import json
import shlex
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order; comments dropped, continued lines joined."""
    text = (ROOT / "Containerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = "\n".join(lines).replace("\\\n", " ")
    found = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def test_the_image_installs_the_package_and_runs_baloot_in_work() -> None:
    steps = instructions()
    names = [name for name, _ in steps]
    assert steps[0] == ("FROM", "python:3.11-slim")
    copy = next(args for name, args in steps if name == "COPY")
    source, destination = shlex.split(copy)
    assert source == "."
    run = next(args for name, args in steps if name == "RUN")
    assert f"python -m pip install {destination}" in run and "baloot --version" in run
    assert dict(steps)["WORKDIR"] == "/work" and names.index("WORKDIR") > names.index("RUN")
    assert json.loads(dict(steps)["ENTRYPOINT"]) == ["baloot"]  # exec form: arguments pass on


def test_the_build_context_keeps_what_the_package_is_built_from() -> None:
    ignored = [line.strip() for line in (ROOT / ".containerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    needed = {"pyproject.toml", "README.md", "LICENSE",
              *project["tool"]["setuptools"]["package-dir"].values()}
    for path in sorted(needed):
        assert (ROOT / path).exists(), path
        assert not any(fnmatch.fnmatch(path, pattern) for pattern in ignored), (path, ignored)
