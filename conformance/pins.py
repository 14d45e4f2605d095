"""`baloot conform pins`: does every case pin each reading its expectation depends on?

A case runs under the run's profile with its `requires` on top, so a variant the case
leaves out is played under whatever reading the engine has. For each case and each
variant it does not pin, the case is run against the reference engine under every other
reading of that variant, one variant at a time, from each profile. A case that fails
there depends on that variant without saying so: an engine implementing that reading
would fail it wrongly. The fix is to pin the variant in `requires`, or to write the
script so that it holds under every reading (a `repeat` step for calls that one reading
has and another has not).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from .engine_process import REFERENCE_ARGV, EngineProcess
from .pack import Case
from .runner import PASSED, Runner
from .variants import Register


@dataclass(frozen=True)
class Unpinned:
    """A case that fails under another reading of a variant it leaves out."""

    case: Case
    variant: str
    reading: str  # the reading it fails under
    profile: str  # the profile the reading was swapped into
    message: str  # the runner's message for that run

    def render(self) -> str:
        first_line = self.message.splitlines()[0] if self.message else ""
        return (f"{self.case.id} ({self.case.file}): leaves {self.variant} out, but fails "
                f"under {self.variant}={self.reading} (profile {self.profile}): {first_line}")


def probes(case: Case, register: Register, profile: str) -> list[tuple[str, str]]:
    """(variant, reading) to try the case under: every reading of a variant the case leaves
    out but the profile's own (which the plain run already covers)."""
    base = register.readings_of(profile)
    return [
        (name, reading)
        for name, info in register.variants.items()
        if name not in case.requires
        for reading in info.readings
        if reading != base.get(name)
    ]


def unpinned_cases(
    cases: list[Case],
    register: Register,
    profiles: list[str],
    engine_argv: list[str] | None = None,
    on_probe: Callable[[], None] | None = None,
) -> list[Unpinned]:
    """Every (case, variant, reading, profile) where a case fails for want of a pin.
    Cases that fail under their own readings are left to `baloot conform`."""
    engine = EngineProcess(engine_argv or REFERENCE_ARGV, timeout=30)
    found: list[Unpinned] = []
    try:
        for profile in profiles:
            runner = Runner(engine, register, profile=profile)
            for case in cases:
                if runner.run_case(case).status != PASSED:
                    continue
                for variant, reading in probes(case, register, profile):
                    probe = dataclasses.replace(case, requires={**case.requires, variant: reading})
                    outcome = runner.run_case(probe)
                    if on_probe:
                        on_probe()
                    if outcome.status != PASSED:
                        found.append(Unpinned(case, variant, reading, profile, outcome.message))
    finally:
        engine.close()
    return found


def probe_count(cases: list[Case], register: Register, profiles: list[str]) -> int:
    return sum(len(probes(c, register, p)) for p in profiles for c in cases)
