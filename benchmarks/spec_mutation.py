"""Spec-wide mutation, per mutant: played in this process beside built and served.

    python benchmarks/spec_mutation.py [--mutants N] [--seed S] [--profile P]

Draws N spec mutants (seeded) and runs the pack on each two ways, interleaved:

- `in process` (ours, `baloot conform mutants --spec`): the mutated rule written
  by the generator's emitter and swapped into the live reference engine, the pack
  run by the in-process runner on the cases that reach the rule, to the second kill;
- `built and served` (the peer: the way `baloot conform mutants` runs its
  catalogue): the whole engine generated from the mutated spec into a folder on
  disk, served by the mutant adapter in its own process, the same cases run
  through the protocol, to the second kill.

Both give each mutant the same verdict (the benchmark checks it). It prints the
seconds per mutant of each, the ratio, and the whole spec-wide run this makes on
2 cores against the target of 15 minutes. Exit 1 when a verdict differs.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from baloot.conformance.harness.engine_process import EngineProcess
from baloot.conformance.harness.runner import ERRORED, FAILED, Runner
from baloot.conformance.harness.variants import load_register
from baloot.conformance.mutants.build import MUTANT_PACKAGE, generate_unformatted, runtime_dir
from baloot.conformance.mutants.catalogue import RUNTIME_FILES
from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.operators import SpecMutant, spec_mutants
from baloot.conformance.mutants.run import load_cases, with_pins
from baloot.conformance.mutants.spec_run import KILLED, PackOnMutants
from baloot.conformance.pack_tools.spec_model import spec_model
from baloot.grammar import model as m

TARGET_SECONDS = 15 * 60
CORES = 2


def mutated_spec(spec: m.Spec, mutant: SpecMutant) -> m.Spec | None:
    """The spec with the mutant's change, for a build on disk (rule mutants only)."""
    if mutant.kind != "rule" or mutant.rule is None:
        return None
    rules = tuple(mutant.rule if r.name == mutant.target else r for r in spec.rules)
    return dataclasses.replace(spec, rules=rules)


def built_and_served(spec: m.Spec, mutant: SpecMutant, pack: PackOnMutants) -> bool:
    """Generate the mutant's engine on disk, serve it in a process, run its cases."""
    changed = mutated_spec(spec, mutant)
    assert changed is not None
    home = Path(tempfile.mkdtemp(prefix="spec-mutant-"))
    try:
        files = generate_unformatted(changed)
        target = home / MUTANT_PACKAGE
        target.mkdir()
        for name, text in files.items():
            (target / name).write_text(text, encoding="utf-8")
        for name in RUNTIME_FILES:
            shutil.copy(runtime_dir() / name, target / name)
        argv = [sys.executable, "-m", "baloot.conformance.mutants.adapter", "--package-dir",
                str(home)]
        runner = Runner(EngineProcess(argv), load_register(), profile=pack.profile)
        kills = 0
        pins = tuple(mutant.pins().items())
        try:
            for case in pack.selected(mutant):
                if runner.run_case(with_pins(case, pins)).status in (FAILED, ERRORED):
                    kills += 1
                    if kills >= 2:
                        break
        finally:
            runner.engine.close()
        return kills > 0
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", default="literal")
    args = parser.parse_args(argv)
    spec = spec_model()
    every = spec_mutants(spec)
    rules = [mt for mt in every if mt.kind == "rule"]
    chosen = random.Random(args.seed).sample(rules, min(args.mutants, len(rules)))
    live = LiveSpec(spec)
    pack = PackOnMutants(live, load_cases()[1], args.profile)
    ours: list[float] = []
    peer: list[float] = []
    differ = 0
    for mutant in chosen:
        began = time.perf_counter()
        here = pack.run(mutant, kills=2).status == KILLED
        ours.append(time.perf_counter() - began)
        began = time.perf_counter()
        there = built_and_served(spec, mutant, pack)
        peer.append(time.perf_counter() - began)
        if here != there:
            differ += 1
            print(f"verdicts differ on {mutant.id}: in process {here}, served {there}")
    mean_ours, mean_peer = statistics.fmean(ours), statistics.fmean(peer)
    whole = mean_ours * len(every) * 2 / CORES  # two profiles
    print(f"| way | seconds per mutant (mean of {len(chosen)}) |")
    print("|---|---|")
    print(f"| in process (spec-wide) | {mean_ours:.3f} |")
    print(f"| built and served (catalogue's way) | {mean_peer:.3f} |")
    print(f"ratio, built and served over in process: {mean_peer / max(mean_ours, 1e-9):.1f}x")
    print(f"the whole spec-wide run at this pace: {len(every)} mutants x 2 profiles on "
          f"{CORES} cores = {whole / 60:.1f} min (target under {TARGET_SECONDS // 60} min; "
          "the survivors' witness search comes on top)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
