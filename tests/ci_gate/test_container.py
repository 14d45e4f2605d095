"""The `Containerfile`: a python:3.11-slim image, pinned by digest, with the package
installed from the build context and `baloot` as its entry point, run by a user who is
not root, working in /work (where `podman run -v $PWD:/work IMAGE conform --engine ...`
mounts the engine's folder).

An image is built only where a container engine answers (`docker info` or `podman
info`): the last test builds it and runs `baloot --version` in it, and is skipped, saying
why, where none does. The other tests read the instructions; check that `.dockerignore`
(docker's) and `.containerignore` (podman's) list the same patterns, leave out version
control, the tests and the caches, and keep in the context every file the package is
built from (pyproject.toml's package folders, README, LICENSE); and read README's recipe
of an image for an engine in another language (Node), built FROM this one."""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PINNED = re.compile(r"python:3\.11-slim@sha256:[0-9a-f]{64}")
IGNORE_FILES = (".dockerignore", ".containerignore")


def instructions(text: str | None = None) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order; comments dropped, continued lines joined."""
    if text is None:
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
    assert steps[0][0] == "FROM" and PINNED.fullmatch(steps[0][1]), steps[0]
    copy = next(args for name, args in steps if name == "COPY")
    source, destination = shlex.split(copy)
    assert source == "."
    run = next(args for name, args in steps if name == "RUN")
    assert f"python -m pip install {destination}" in run and "baloot --version" in run
    assert dict(steps)["WORKDIR"] == "/work" and names.index("WORKDIR") > names.index("RUN")
    assert json.loads(dict(steps)["ENTRYPOINT"]) == ["baloot"]  # exec form: arguments pass on


def test_the_suite_runs_as_a_user_who_is_not_root() -> None:
    steps = instructions()
    names = [name for name, _ in steps]
    users = [args for name, args in steps if name == "USER"]
    assert len(users) == 1 and users[0].split(":")[0] not in ("root", "0"), users
    user = users[0].split(":")[0]
    run = " ".join(args for name, args in steps if name == "RUN")
    assert f"useradd --uid 1000 --gid 1000 --create-home --shell /bin/sh {user}" in run
    assert f"chown {user}:{user} /work" in run  # /work is writable without a mount too
    # root installs, the user runs: USER after the install, before the entry point
    assert names.index("RUN") < names.index("USER") < names.index("ENTRYPOINT")


def ignored(name: str) -> list[str]:
    return [line.strip() for line in (ROOT / name).read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def test_docker_and_podman_leave_the_same_out() -> None:
    docker, podman = (ignored(name) for name in IGNORE_FILES)
    assert docker == podman
    for left_out in (".git", "tests", "benchmarks", ".pytest_cache", ".mypy_cache",
                     ".ruff_cache", ".hypothesis", "**/__pycache__"):
        assert left_out in docker, left_out


@pytest.mark.parametrize("name", IGNORE_FILES)
def test_the_build_context_keeps_what_the_package_is_built_from(name: str) -> None:
    patterns = ignored(name)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    needed = {"pyproject.toml", "README.md", "LICENSE",
              *project["tool"]["setuptools"]["package-dir"].values()}
    for path in sorted(needed):
        assert (ROOT / path).exists(), path
        assert not any(fnmatch.fnmatch(path, pattern) for pattern in patterns), (path, patterns)


def test_readme_builds_a_node_engine_image_from_this_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    recipe = re.search(r"```Containerfile\n(.*?)```", readme, re.S)
    assert recipe is not None, "README: the recipe of an image for an engine in another language"
    steps = instructions(recipe.group(1))
    ours = instructions()
    tag = re.search(r"podman build -t (\S+) -f Containerfile \.",
                    (ROOT / "Containerfile").read_text(encoding="utf-8"))
    assert tag is not None
    assert steps[0] == ("FROM", tag.group(1))  # the image this Containerfile builds
    assert [name for name, _ in steps] == ["FROM", "USER", "RUN", "USER"]
    assert steps[1] == ("USER", "root")  # apt needs root; then back to the suite's user
    assert steps[-1] == next(step for step in ours if step[0] == "USER")
    assert "apt-get install -y --no-install-recommends nodejs" in steps[2][1]
    assert "rm -rf /var/lib/apt/lists/*" in steps[2][1]
    assert f"podman build -t {tag.group(1)} -f Containerfile ." in readme
    run = readme[recipe.end():]
    assert '--engine "node my-adapter.js"' in run and '-v "$PWD:/work"' in run


def _container_engine() -> str | None:
    """docker or podman, where its daemon (or podman's own service) answers."""
    for tool in ("docker", "podman"):
        if shutil.which(tool) is None:
            continue
        try:
            answered = subprocess.run([tool, "info"], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if answered.returncode == 0:
            return tool
    return None


def test_the_image_builds_and_runs_baloot() -> None:
    tool = _container_engine()
    if tool is None:
        pytest.skip("no container engine answers here (`docker info` and `podman info` "
                    "fail or are missing): the image is not built")
    tag = "baloot-conformance-test:latest"
    built = subprocess.run([tool, "build", "-t", tag, "-f", "Containerfile", "."], cwd=ROOT,
                           capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stderr[-3000:]
    ran = subprocess.run([tool, "run", "--rm", tag, "--version"], capture_output=True,
                         text=True, timeout=300)
    assert ran.returncode == 0 and "baloot" in ran.stdout.lower(), ran.stdout + ran.stderr
