"""`baloot suite` as a newcomer runs it, with every cache cold, beside a baseline
revision of the project run the same way, interleaved in one run.

    python benchmarks/suite_time.py --baseline REV [--repeats N] [--skip STEP]

Each contender runs `baloot suite` in a fresh process with `BALOOT_CACHE_DIR` pointed
at an empty folder (so `conform pins` keeps no verdict from an earlier run) and
`PYTHONPATH` at a folder that maps the `baloot.*` packages onto that contender's
tree, as the package-dir mapping of `pyproject.toml` does: this checkout, or the
baseline checked out with `git worktree` (removed afterwards). Both run the
dependencies installed here. The repeats alternate the contenders, so a busy
machine slows both alike.

It prints each run's wall time and the steps' seconds from its summary table, then
the best and median of each contender, the ratio ours over the baseline, and the
target: under 60 s on 2 cores. Exit status 1 when a run's suite fails.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 60.0
# A row of the suite's summary table: "│ step title │ passed │ 12.3 │".
SUMMARY_ROW = re.compile(r"^[│|]\s*(?P<step>[^│|]+?)\s*[│|]\s*(?P<result>passed|FAILED)\s*"
                         r"[│|]\s*(?P<seconds>[0-9.]+)\s*[│|]\s*$")


@dataclass
class Contender:
    label: str
    tree: Path  # the project folder whose code runs
    walls: list[float] = field(default_factory=list)
    steps: dict[str, list[float]] = field(default_factory=dict)
    failed: bool = False


def package_links(tree: Path, folder: Path) -> None:
    """`folder/baloot/<room>` -> `tree/<dir>` for every entry of the tree's package-dir
    mapping, so that `PYTHONPATH=folder` imports that tree's code as `baloot.*`."""
    with (tree / "pyproject.toml").open("rb") as handle:
        mapping = tomllib.load(handle)["tool"]["setuptools"]["package-dir"]
    package = folder / "baloot"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name, directory in mapping.items():
        room = name.removeprefix("baloot.")
        (package / room).symlink_to(tree / directory, target_is_directory=True)


def run_suite(contender: Contender, links: Path, skip: list[str]) -> str:
    """One cold run; its wall time and step seconds are added to the contender."""
    with tempfile.TemporaryDirectory(prefix="suite-cache-") as cache:
        env = {**os.environ, "BALOOT_CACHE_DIR": cache, "PYTHONPATH": str(links),
               "COLUMNS": "200", "NO_COLOR": "1"}
        argv = [sys.executable, "-m", "baloot.cli.main", "suite"]
        for step in skip:
            argv += ["--skip", step]
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=contender.tree, env=env, capture_output=True,
                              text=True, check=False)
        wall = time.perf_counter() - started
    contender.walls.append(wall)
    contender.failed |= done.returncode != 0
    for line in done.stdout.splitlines():
        row = SUMMARY_ROW.match(line.strip())
        if row:
            contender.steps.setdefault(row["step"], []).append(float(row["seconds"]))
    status = "passed" if done.returncode == 0 else f"exit {done.returncode}"
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
    return f"{contender.label}: {wall:.1f} s ({status})"


def worktree(revision: str, folder: Path) -> Path:
    subprocess.run(["git", "-C", str(PROJECT), "worktree", "add", "--detach", "--quiet",
                    str(folder), revision], check=True)
    return folder


def report(contenders: list[Contender], skipped: list[str]) -> None:
    print()
    print("| contender | best s | median s | runs |")
    print("|---|---:|---:|---:|")
    for c in contenders:
        print(f"| {c.label} | {min(c.walls):.1f} | {statistics.median(c.walls):.1f} | "
              f"{len(c.walls)} |")
    ours = contenders[0]
    steps = list(ours.steps)
    if steps:
        print()
        print("| step (median s) | " + " | ".join(c.label for c in contenders) + " |")
        print("|---|" + "---:|" * len(contenders))
        for step in steps:
            cells = [f"{statistics.median(c.steps[step]):.1f}" if step in c.steps else "-"
                     for c in contenders]
            print(f"| {step} | " + " | ".join(cells) + " |")
    print()
    best = min(ours.walls)
    if len(contenders) > 1:
        base = min(contenders[1].walls)
        print(f"ratio ours/baseline (best): {best / base:.2f}")
    if skipped:
        verdict = "not judged, steps were skipped (" + ", ".join(skipped) + ")"
    else:
        verdict = "met" if best < TARGET_SECONDS else "not met"
    print(f"target: the whole suite under {TARGET_SECONDS:.0f} s on 2 cores: {verdict} "
          f"(ours {best:.1f} s, {os.cpu_count()} CPU(s) here)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV",
                        help="a git revision of this project to time beside (e.g. a tag)")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each contender")
    parser.add_argument("--skip", action="append", default=[], metavar="STEP",
                        help="passed on to `baloot suite --skip` (repeatable)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be 1 or more")
    with tempfile.TemporaryDirectory(prefix="suite-bench-") as scratch:
        root = Path(scratch)
        contenders = [Contender("ours", PROJECT)]
        base_tree: Path | None = None
        if args.baseline:
            base_tree = worktree(args.baseline, root / "baseline")
            contenders.append(Contender(f"baseline {args.baseline}", base_tree))
        try:
            links = {}
            for at, c in enumerate(contenders):
                links[c.label] = root / f"links{at}"
                package_links(c.tree, links[c.label])
            for repeat in range(args.repeats):
                for c in contenders:
                    print(f"run {repeat + 1}: " + run_suite(c, links[c.label], args.skip),
                          flush=True)
            report(contenders, args.skip)
        finally:
            if base_tree is not None:
                subprocess.run(["git", "-C", str(PROJECT), "worktree", "remove", "--force",
                                str(base_tree)], check=False)
    return 1 if any(c.failed for c in contenders) else 0


if __name__ == "__main__":
    sys.exit(main())
