"""How fast the conformance runner drives an engine: the whole case pack
against the reference adapter, streamed through one engine process, side by
side in the same run with a one-process-per-case baseline (the way toml-test
and CommonMark's spec runner drive engines: the adapter started afresh for
every case).

    python benchmarks/conformance_runner.py [--synthetic 1000] [--baseline-sample N]

Prints protocol messages per second (requests and replies both counted),
cases per second and wall time for both ways, and the ratio. When the pack has
fewer cases than `--synthetic`, a synthetic pack of that size (the pack's
cases repeated) is timed streamed too; the per-case baseline is timed on the
real pack (or on a sample of `--baseline-sample` cases, and extrapolated, as
labelled). Targets: >= 5,000 messages/s, < 10 s for 1,000 cases on 2 cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from dataclasses import dataclass
from typing import Any

from baloot.conformance.harness.engine_process import EngineProcess
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Case, Pack, default_pack_folder
from baloot.conformance.harness.runner import PASSED, Runner
from baloot.conformance.harness.variants import load_register

ADAPTER = [sys.executable, "-m", "baloot.conformance.adapters.reference_adapter"]


class CountingEngine(EngineProcess):
    """An EngineProcess that counts the messages both ways (a request is a post and a
    collect; the runner posts a named seat's `legal` and `apply` together)."""

    messages = 0

    def post(self, message: dict[str, Any]) -> None:
        super().post(message)
        CountingEngine.messages += 1

    def collect(
        self, timeout: float | None = None, *, lines: list[bytes] | None = None
    ) -> dict[str, Any]:
        reply = super().collect(timeout, lines=lines)
        CountingEngine.messages += 1
        return reply


@dataclass
class Timing:
    label: str
    cases: int
    messages: int
    seconds: float
    failures: int

    def line(self) -> str:
        return (
            f"{self.label:<34} {self.cases:>6} cases {self.messages:>8} msgs "
            f"{self.seconds:>8.2f} s {self.messages / self.seconds:>10,.0f} msg/s "
            f"{self.cases / self.seconds:>8,.1f} cases/s"
            + (f"  ({self.failures} not passed!)" if self.failures else "")
        )


def streamed(pack: Pack, cases: list[Case], profile: str, label: str) -> Timing:
    CountingEngine.messages = 0
    began = time.perf_counter()
    engine = CountingEngine(ADAPTER, timeout=30)
    report = Runner(engine, load_register(), profile=profile).run(pack, cases)
    seconds = time.perf_counter() - began
    failures = sum(1 for o in report.outcomes if o.status != PASSED)
    return Timing(label, len(cases), CountingEngine.messages, seconds, failures)


def per_case(pack: Pack, cases: list[Case], profile: str, label: str) -> Timing:
    CountingEngine.messages = 0
    failures = 0
    began = time.perf_counter()
    for case in cases:
        engine = CountingEngine(ADAPTER, timeout=30)
        report = Runner(engine, load_register(), profile=profile).run(pack, [case])
        failures += sum(1 for o in report.outcomes if o.status != PASSED)
    seconds = time.perf_counter() - began
    return Timing(label, len(cases), CountingEngine.messages, seconds, failures)


def synthetic(cases: list[Case], size: int) -> list[Case]:
    return [
        dataclasses.replace(cases[k % len(cases)], id=f"{cases[k % len(cases)].id}~{k}")
        for k in range(size)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="literal")
    parser.add_argument("--synthetic", type=int, default=1000, metavar="N")
    parser.add_argument(
        "--baseline-sample",
        type=int,
        default=0,
        metavar="N",
        help="time the per-case baseline on N cases only (default: the whole pack)",
    )
    args = parser.parse_args(argv)
    pack, problems = lint_pack(default_pack_folder())
    if problems:
        print(f"the pack has {len(problems)} problem(s); run baloot conform lint", file=sys.stderr)
        return 2
    cases = list(pack.cases)
    print(f"pack {pack.name} {pack.version}: {len(cases)} cases, profile {args.profile}")
    stream = streamed(pack, cases, args.profile, "streamed, one process")
    sample = cases[: args.baseline_sample] if args.baseline_sample else cases
    label = "one process per case" + (f" (first {len(sample)})" if len(sample) < len(cases) else "")
    base = per_case(pack, sample, args.profile, label)
    print(stream.line())
    print(base.line())
    ratio = (stream.cases / stream.seconds) / (base.cases / base.seconds)
    print(f"streamed / per-case: {ratio:.1f}x the cases per second")
    big = stream
    if len(cases) < args.synthetic:
        big = streamed(pack, synthetic(cases, args.synthetic), args.profile,
                       f"streamed, synthetic {args.synthetic}")
        print(big.line())
        estimate = args.synthetic / (base.cases / base.seconds)
        print(f"one process per case, {args.synthetic} cases: ~{estimate:.0f} s (extrapolated)")
    rate = big.messages / big.seconds
    per_1000 = big.seconds * 1000 / big.cases
    ok = rate >= 5000 and per_1000 < 10
    print(
        f"targets: >= 5,000 msg/s ({rate:,.0f}: {'met' if rate >= 5000 else 'MISSED'}), "
        f"< 10 s per 1,000 cases ({per_1000:.1f} s: {'met' if per_1000 < 10 else 'MISSED'})"
    )
    return 0 if ok and not (stream.failures or base.failures or big.failures) else 1


if __name__ == "__main__":
    sys.exit(main())
