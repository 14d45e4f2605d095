"""The wheel, installed into a fresh venv outside the project, works as an engine
author's CI uses it, and leaves its installed files as they were.

The test builds the wheel from a copy of the project's packaged folders (so the
build writes nothing into the checkout), installs it with its base dependencies
only (rich, jsonschema: from the package index or pip's cache) into a venv
without the system's site packages, and from an unrelated folder runs
`baloot --version`, `baloot conform` against the reference adapter, every
command that writes files (each must refuse a destination inside the package,
or write under the option it is given) and `baloot suite`. The installed files
(the interpreter's own `__pycache__` aside) hash the same before and after.
It prints the base install's size.

It is skipped only when the wheel cannot be built or installed for want of a
package index and a cache; any other failure fails.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What pip prints when it cannot reach an index and has nothing cached.
OFFLINE = ("No matching distribution found", "Could not find a version that satisfies",
           "NewConnectionError", "Temporary failure in name resolution",
           "Network is unreachable", "Failed to establish a new connection")
# The installer's own packages, left out of the base install's size.
INSTALLER = ("pip", "setuptools", "pkg_resources", "_distutils_hack", "wheel")
CASES = "bid.legal.*"


def run(argv: list[str], cwd: Path, timeout: float = 300,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False, env=env)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without what would let the venv see the project's packages."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    return {**env, "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "200", **extra}


def skip_when_offline(step: str, result: subprocess.CompletedProcess[str]) -> None:
    """Skip the test when `step` failed for want of an index and a cache; fail otherwise."""
    if result.returncode == 0:
        return
    output = result.stdout + result.stderr
    if any(sign in output for sign in OFFLINE):
        pytest.skip(f"cannot {step} here: no package index and no pip cache to install "
                    f"from ({output.strip().splitlines()[-1]})")
    pytest.fail(f"{step} failed:\n{output[-4000:]}")


def packaged_copy(into: Path) -> Path:
    """pyproject.toml, the files it names and the folders of its package-dir mapping."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    folders = sorted(set(project["tool"]["setuptools"]["package-dir"].values()))
    source = into / "source"
    source.mkdir()
    for name in ("pyproject.toml", project["project"]["readme"], "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    for folder in folders:
        shutil.copytree(ROOT / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return source


def can_build_here() -> bool:
    """Whether this interpreter has what pyproject's build-system asks for, so the wheel
    builds without an isolated build environment (setuptools>=77, which has bdist_wheel)."""
    try:
        setuptools = tuple(int(p) for p in importlib.metadata.version("setuptools")
                           .split(".")[:2])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False
    return setuptools >= (77, 0)


def pip_version() -> tuple[int, ...]:
    """pip's major and minor version (`24.1b1` -> (24, 1))."""
    found = re.match(r"(\d+)\.(\d+)", importlib.metadata.version("pip"))
    return (int(found[1]), int(found[2])) if found else (0, 0)


def installed_files_hash(site: Path) -> str:
    """SHA-256 over the installed package's files and its dist-info, by relative path."""
    digest = hashlib.sha256()
    roots = [site / "baloot", *sorted(site.glob("baloot_conformance-*.dist-info"))]
    count = 0
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_dir() or "__pycache__" in path.parts:
                continue
            digest.update(path.relative_to(site).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
            count += 1
    assert count > 100, f"only {count} installed files under {site}"
    return digest.hexdigest()


def size_of(site: Path) -> int:
    """Bytes under site-packages, the installer's own packages left out."""
    total = 0
    for path in site.rglob("*"):
        top = path.relative_to(site).parts[0]
        if top.split("-")[0] in INSTALLER or not path.is_file():
            continue
        total += path.stat().st_size
    return total


def test_the_wheel_installs_and_runs_read_only(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    wheels = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels)]
    if can_build_here():
        build.append("--no-build-isolation")
    built = run([*build, str(packaged_copy(tmp_path))], cwd=tmp_path)
    skip_when_offline("build the wheel", built)
    (wheel,) = wheels.glob("baloot_conformance-*.whl")
    phases = {"build": time.perf_counter() - started}

    # a venv without the system's site packages; this pip installs into it (pip 22.3 and
    # later take --python), else the venv's own
    venv = tmp_path / "venv"
    own_pip = pip_version() < (22, 3)
    made = run([sys.executable, "-m", "venv", *([] if own_pip else ["--without-pip"]),
                str(venv)], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    pip = [str(python), "-m", "pip"] if own_pip else [sys.executable, "-m", "pip", "--python",
                                                      str(python)]
    installed = run([*pip, "install", "-q", str(wheel)], cwd=tmp_path, env=clean_env())
    skip_when_offline("install the wheel's base dependencies", installed)
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                    cwd=tmp_path, env=clean_env()).stdout.strip())
    package = site / "baloot"
    assert (package / "docs" / "rules.html").is_file()
    before = installed_files_hash(site)
    phases["install"] = time.perf_counter() - started - sum(phases.values())

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = clean_env()

    def baloot(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return run([str(bin_dir / "baloot"), *argv], cwd=elsewhere, env=env, timeout=timeout)

    probe_code = ("import importlib.util, json, baloot.conformance as c\n"
                  "from baloot.conformance.harness.rules_links import clause_link\n"
                  "print(json.dumps({'absent': [n for n in ('z3', 'black', 'lark')\n"
                  "                             if importlib.util.find_spec(n) is None],\n"
                  "                  'file': c.__file__, 'link': clause_link('PLAY.2')}))\n")
    reference = f"{python} -m baloot.conformance.adapters.reference_adapter"
    # every command that writes: refused a destination inside the package, before any work
    refused = {
        ("spec", "render"): "--out DIR",
        ("gen",): "--out DIR",
        ("verify", "--write"): "--results FILE",
        ("explore", "--variant", "kaboot"): "--results FILE, --cases DIR and --notes FILE",
        ("conform", "golden"): "--cases DIR",
        ("conform", "examples"): "--out FILE",
        ("conform", "pins", "--fix"): "--cases DIR",
        ("conform", "needs", "--fix"): "--cases DIR",
        ("spec", "render", "--out", str(package / "docs")): "--out DIR",
        ("conform", "examples", "--out", str(package / "x.json")): "--out FILE",
    }
    commands: dict[str, list[str]] = {
        "probe": [str(python), "-c", probe_code],
        "version": ["--version"],
        "conform": ["conform", "--engine", reference, "--only", CASES, "--json", "report.json"],
        "written": ["conform", "examples", "--out", "examples/worked.json"],
        "needs lark": ["spec", "check"],
        "needs z3": ["verify"],
        **{" ".join(argv): list(argv) for argv in refused},
    }
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:  # independent runs
        futures = {name: pool.submit(run, argv if name == "probe"
                                     else [str(bin_dir / "baloot"), *argv],
                                     elsewhere, 300, env)
                   for name, argv in commands.items()}
        done = {name: future.result() for name, future in futures.items()}

    # the base install: no z3, no black, no lark; the package and its rules document
    probe = done["probe"]
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert found["absent"] == ["z3", "black", "lark"]
    assert Path(found["file"]).is_relative_to(package)
    assert found["link"] == (package / "docs" / "rules.html").as_uri() + "#clause-PLAY-2"

    version = done["version"]
    assert version.returncode == 0, version.stderr
    pack = json.loads((ROOT / "conformance" / "cases" / "pack.json").read_text())
    register = (ROOT / "conformance" / "cases" / "spec-register.json").read_bytes()
    spec = hashlib.sha256(register).hexdigest()[:12]
    assert version.stdout.strip() == (
        f"baloot-conformance {pack['version']}; case pack {pack['name']} {pack['version']}; "
        f"spec register sha256:{spec}; protocol 1")

    conform = done["conform"]
    assert conform.returncode == 0, conform.stdout[-3000:] + conform.stderr
    report = json.loads((elsewhere / "report.json").read_text())
    assert report["cases"] and all(c["status"] == "passed" for c in report["cases"])

    for argv, option in refused.items():
        result = done[" ".join(argv)]
        assert result.returncode == 2, (argv, result.stdout[-2000:], result.stderr[-2000:])
        assert "inside the installed package" in result.stderr, (argv, result.stderr)
        assert option in result.stderr, (argv, result.stderr)
    written = done["written"]
    assert written.returncode == 0, written.stderr
    assert json.loads((elsewhere / "examples" / "worked.json").read_text())

    # a command that needs an extra says which, and stops with 2
    needs_lark = done["needs lark"]
    assert needs_lark.returncode == 2
    assert "pip install 'baloot-conformance[spec]'" in needs_lark.stderr, needs_lark.stderr
    needs_z3 = done["needs z3"]
    assert needs_z3.returncode == 2
    assert "needs lark and z3-solver" in needs_z3.stderr, needs_z3.stderr
    assert "pip install 'baloot-conformance[proofs]'" in needs_z3.stderr, needs_z3.stderr

    phases["commands"] = time.perf_counter() - started - sum(phases.values())
    # the suite: what the base install can check, and what it skipped
    suite = baloot("suite", "--profile", "literal", "--skip", "pins", "--skip", "needs",
                   timeout=600)
    assert suite.returncode == 0, suite.stdout[-5000:] + suite.stderr[-2000:]
    summary = " ".join(re.sub(r"[\u2500-\u257f]", " ", suite.stdout[suite.stdout.rindex(
        "Summary"):]).split())  # the table's text, its rules and cell wrapping aside
    assert "2 passed, 0 failed, 8 skipped" in summary, summary
    for ran in ("pack: lint", "pack: reference engine, literal profile"):
        assert re.search(re.escape(ran) + r"\W+passed", summary), (ran, summary)
    assert re.search(r"spec: parse and check\W+skipped: needs lark: "
                     r"pip install 'baloot-conformance\[spec\]'", summary), summary
    assert "pip install 'baloot-conformance[proofs]'" in summary, summary
    assert "pip install 'baloot-conformance[dev]'" in summary, summary
    assert "skipped: --skip" in summary, summary

    phases["suite"] = time.perf_counter() - started - sum(phases.values())
    assert installed_files_hash(site) == before
    assert not (package / "docs" / "rules.md").exists()
    size = size_of(site)
    with capsys.disabled():
        print(f"\nbase install of {wheel.name}: {size / 1e6:.1f} MB in site-packages "
              f"(pip and setuptools aside); wheel test {time.perf_counter() - started:.0f} s ("
              + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in phases.items()) + ")")
    assert size < 50e6  # z3 alone is some 60 MB
