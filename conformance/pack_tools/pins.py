"""`baloot conform pins`: does every case pin exactly the readings its expectation depends on?

A case runs under the engine's readings with its `requires` on top, so a variant the case
leaves out is played under whatever reading the engine has. Each case is run against the
reference engine under every reading of every variant, one variant at a time, from each
profile (its other pins kept). Two faults are found:

- under-pinning: the case fails under another reading of a variant it leaves out. An
  engine implementing that reading would fail it wrongly. The fix is to pin the variant
  in `requires`, or to write the script so that it holds under every reading (a `repeat`
  or `if_asked` step for calls that one reading has and another has not);
- over-pinning: the case pins a variant and passes under every reading of it. Its
  expectation does not depend on that variant, yet an engine implementing another
  reading of it never runs the case. The fix is to drop the pin.

`pins_fix.py` rewrites case files to minimal pins.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ...reference_impl.readings import Readings
from ..adapters.inprocess import InProcessEngine
from ..harness.engine_process import EngineProcess
from ..harness.pack import Case
from ..harness.runner import PASSED, Runner
from ..harness.variants import Register
from . import pins_cache
from .pins_screen import Call, ReadingScreen
from .pins_trace import NotingApi

# variant -> the readings a case pins (one, or every reading it holds under)
Pins = dict[str, tuple[str, ...]]


def with_pins(case: Case, pins: Pins) -> Case:
    """The case with other pins (each variant's first reading is its `requires` one)."""
    return dataclasses.replace(
        case,
        requires={v: readings[0] for v, readings in pins.items()},
        also_holds={v: readings[1:] for v, readings in pins.items() if len(readings) > 1},
    )


@dataclass(frozen=True)
class Unpinned:
    """A case that fails under a reading it lets an engine play: another reading of a
    variant it leaves out, or one its pin lists."""

    case: Case
    variant: str
    reading: str  # the reading it fails under
    profile: str  # the profile the reading was swapped into
    message: str  # the runner's message for that run

    def render(self) -> str:
        first_line = self.message.splitlines()[0] if self.message else ""
        what = (f"lists {self.variant}={self.reading} in its pin" if self.variant in
                self.case.requires else f"leaves {self.variant} out")
        return (f"{self.case.id} ({self.case.file}): {what}, but fails under "
                f"{self.variant}={self.reading} (profile {self.profile}): {first_line}")


@dataclass(frozen=True)
class Overpinned:
    """A case that pins a variant yet passes, from each profile, under readings of it the
    pin leaves out: under every reading (the pin is not needed) or some."""

    case: Case
    variant: str
    pinned: tuple[str, ...]  # the readings the pin lists
    passing: tuple[str, ...]  # every reading the case passes under
    all_readings: tuple[str, ...]  # every reading of the variant

    @property
    def needless(self) -> bool:
        """Passes under every reading: the pin is not needed at all."""
        return set(self.passing) == set(self.all_readings)

    def render(self) -> str:
        pinned = f"{self.variant}={'|'.join(self.pinned)}"
        if self.needless:
            return (f"{self.case.id} ({self.case.file}): pins {pinned}, but passes under "
                    f"every reading of {self.variant} from each profile")
        more = [r for r in self.passing if r not in self.pinned]
        return (f"{self.case.id} ({self.case.file}): pins {pinned}, but passes under "
                f"{', '.join(more)} too, from each profile")


# (passed, the runner's message) of one run
Verdict = tuple[bool, str]


@dataclass
class CaseCheck:
    """Every run of one case: under its own pins, and with each variant set to each reading."""

    case: Case
    profiles: list[str]
    own: dict[str, Verdict]  # profile -> the run under the case's own pins
    readings: dict[str, tuple[str, ...]]  # variant -> all its readings
    runs: dict[tuple[str, str, str], Verdict] = field(default_factory=dict)
    # (profile, variant, reading) -> the run with the variant set to that reading
    # per alternative of the case (CASES.md), in order: (holds from every profile under
    # its pins and under every reading of what it leaves out, the first failure)
    alternatives: list[Verdict] = field(default_factory=list)

    def failing_alternatives(self) -> list[str]:
        """`alternatives[i] (readings): why` for each alternative that does not hold."""
        return [f"alternatives[{i}] ({self.case.alternatives[i].describe()}): {message}"
                for i, (holds, message) in enumerate(self.alternatives) if not holds]

    @property
    def holds(self) -> bool:
        """Passes under its own pins from every profile."""
        return all(passed for passed, _ in self.own.values())

    def failing_profiles(self) -> list[str]:
        return [p for p, (passed, _) in self.own.items() if not passed]

    def unpinned(self) -> list[Unpinned]:
        """Runs that fail under a reading the case lets an engine play."""
        pins = self.case.pins
        return [
            Unpinned(self.case, variant, reading, profile, message)
            for (profile, variant, reading), (passed, message) in self.runs.items()
            if not passed and (variant not in pins or reading in pins[variant])
        ]

    def overpinned(self) -> list[Overpinned]:
        """Pins that leave out a reading the case passes under from every profile."""
        if not self.holds:
            return []
        found = []
        for variant, pinned in self.case.pins.items():
            passing = tuple(self.passing_readings(variant))
            if set(passing) - set(pinned):
                found.append(Overpinned(self.case, variant, pinned, passing,
                                        self.readings[variant]))
        return found

    def passing_readings(self, variant: str) -> list[str]:
        """The readings of `variant` under which the case passes from every profile."""
        return [
            r for r in self.readings[variant]
            if all(self.runs.get((p, variant, r), (False, ""))[0] for p in self.profiles)
        ]


class PinChecker:
    """Runs cases under chosen readings on one engine (the in-process reference by default)."""

    def __init__(
        self, register: Register, profiles: list[str], engine: EngineProcess | None = None
    ) -> None:
        self.register = register
        self.profiles = profiles
        # The in-process reference notes the variants each run consults (`pins_trace`);
        # an engine given here is played under every reading.
        self.noting = NotingApi() if engine is None else None
        self.engine = engine or InProcessEngine(self.noting)
        self.runners = {p: Runner(self.engine, register, profile=p) for p in profiles}
        self.runs = 0
        self.screened = 0  # runs not played: shown alike to the run under the case's pins
        self._seen: dict[tuple[str, tuple[tuple[str, str], ...]], Verdict] = {}
        # the same keys -> the variants that run consulted, where they were noted
        self._consulted: dict[tuple[str, tuple[tuple[str, str], ...]], frozenset[str]] = {}
        # the same keys -> the calls of the rules that take the readings, and the readings
        # (`pins_screen`), where they were noted
        self.screen = ReadingScreen() if self.noting is not None else None
        self._calls: dict[tuple[str, tuple[tuple[str, str], ...]],
                          tuple[list[Call], Readings]] = {}

    def _key(self, case: Case, profile: str, requires: dict[str, str]
             ) -> tuple[str, tuple[tuple[str, str], ...]]:
        # Two runs with the same readings in effect are the same run (a case pinning every
        # variant a profile sets plays alike from each profile).
        played = tuple(sorted({**self.register.readings_of(profile), **requires}.items()))
        return (case.id, played)

    def verdict(self, case: Case, profile: str, requires: dict[str, str]) -> Verdict:
        """The case played from `profile` with exactly these readings pinned."""
        key = self._key(case, profile, requires)
        if key not in self._seen:
            self.runs += 1
            probe = dataclasses.replace(case, requires=requires, also_holds={})
            noting = self.noting if self.noting is not None and self.noting.noting else None
            if noting is None or self.screen is None:
                outcome = self.runners[profile].run_case(probe)
            else:
                noting.forget()
                with self.screen.tracing() as calls:
                    outcome = self.runners[profile].run_case(probe)
                if noting.readings is not None:
                    self._calls[key] = (calls, noting.readings)
            self._seen[key] = (outcome.status == PASSED, outcome.message)
            if noting is not None:
                self._consulted[key] = noting.forget()
        return self._seen[key]

    def alike(self, case: Case, profile: str, variant: str, reading: str) -> bool:
        """Whether the case, played from `profile` under its pins with `variant` set to
        `reading`, is shown to play as it does under its pins (`pins_screen`)."""
        noted = self._calls.get(self._key(case, profile, dict(case.requires)))
        if self.screen is None or noted is None:
            return False
        calls, readings = noted
        if self.screen.alike(calls, readings, variant, reading):
            self.screened += 1
            return True
        return False

    def _own(self, case: Case, profile: str) -> Verdict:
        """The case under its own pins, the variants it consults noted."""
        if self.noting is None:
            return self.verdict(case, profile, dict(case.requires))
        self.noting.noting = True
        try:
            return self.verdict(case, profile, dict(case.requires))
        finally:
            self.noting.noting = False

    def consulted(self, case: Case, profile: str, requires: dict[str, str]
                  ) -> frozenset[str] | None:
        """The variants the run of `verdict(case, profile, requires)` consulted; None when
        not known (an engine process, or a checker whose verdicts come from elsewhere)."""
        return self._consulted.get(self._key(case, profile, requires))

    def check(self, case: Case) -> CaseCheck:
        """The case under its own pins from each profile and, where it passes there, under
        every reading of every variant (one at a time, its other pins kept at their first
        reading)."""
        self._seen.clear()  # a case edited between two checks keeps its id
        self._consulted.clear()
        self._calls.clear()
        own = {p: self._own(case, p) for p in self.profiles}
        readings = {name: tuple(info.readings) for name, info in self.register.variants.items()}
        found = CaseCheck(case, self.profiles, own, readings)
        for profile in self.profiles:
            if not own[profile][0]:
                continue  # a case failing under its own readings is `baloot conform`'s to report
            base = self.register.readings_of(profile)
            # A variant the run never consulted plays alike under each of its readings
            # (`pins_trace`): the run under another reading of it is this one.
            consulted = self.consulted(case, profile, dict(case.requires))
            for name, info in self.register.variants.items():
                played = case.requires.get(name, base.get(name))
                alike = consulted is not None and name not in consulted
                for reading in info.readings:
                    found.runs[(profile, name, reading)] = (
                        own[profile] if reading == played or alike
                        or self.alike(case, profile, name, reading)
                        else self.verdict(case, profile, {**case.requires, name: reading})
                    )
        return found

    def close(self) -> None:
        self.engine.close()


# --------------------------------------------------------------- many cases --

T = TypeVar("T")
R = TypeVar("R")

_worker: PinChecker | None = None


def _start_worker(register: Register, profiles: list[str]) -> None:
    global _worker
    _worker = PinChecker(register, profiles)


def _call_in_worker(job: tuple[Callable[[PinChecker, T], R], T]) -> R:
    task, item = job
    assert _worker is not None
    return task(_worker, item)


def map_with_checker(
    task: Callable[[PinChecker, T], R],
    items: list[T],
    register: Register,
    profiles: list[str],
    *,
    jobs: int = 1,
    engine_argv: list[str] | None = None,
) -> Iterator[R]:
    """`task(checker, item)` for each item, in order: in `jobs` worker processes each with
    its own in-process engine, or here (always here for an engine process, `engine_argv`).
    `task` must be a module-level function (it is sent to the workers by name)."""
    if jobs > 1 and engine_argv is None and len(items) > 1:
        # A worker that dies breaks the pool (BrokenProcessPool) instead of leaving its task
        # unanswered, as multiprocessing.Pool would, for ever.
        with ProcessPoolExecutor(min(jobs, len(items)), initializer=_start_worker,
                                 initargs=(register, profiles)) as pool:
            yield from pool.map(_call_in_worker, [(task, item) for item in items],
                                chunksize=4)
        return
    engine = EngineProcess(engine_argv, timeout=30) if engine_argv else None
    checker = PinChecker(register, profiles, engine)
    try:
        for item in items:
            yield task(checker, item)
    finally:
        checker.close()


def _check(checker: PinChecker, case: Case) -> CaseCheck:
    found = checker.check(case)
    for index in range(len(case.alternatives)):
        found.alternatives.append(alternative_verdict(checker.check(case.alternative(index))))
    return found


def alternative_verdict(check: CaseCheck) -> Verdict:
    """Whether an alternative, played as a case, holds: from every profile under its pins,
    and under every reading of every variant it leaves out or lists (one at a time)."""
    failing = check.failing_profiles()
    if failing:
        return False, (f"fails under its pins from profile {failing[0]}: "
                       + check.own[failing[0]][1].splitlines()[0] if check.own[failing[0]][1]
                       else f"fails under its pins from profile {failing[0]}")
    unpinned = check.unpinned()
    if unpinned:
        first = unpinned[0]
        return False, (f"fails under {first.variant}={first.reading} (profile {first.profile}): "
                       + (first.message.splitlines()[0] if first.message else ""))
    return True, ""


def check_cases(
    cases: list[Case],
    register: Register,
    profiles: list[str],
    *,
    jobs: int = 1,
    engine_argv: list[str] | None = None,
    on_case: Callable[[CaseCheck], None] | None = None,
) -> list[CaseCheck]:
    """Check every case, in the order given. Against the in-process reference, a case
    checked before, unchanged, under the same register and code, is not played again
    (`pins_cache`)."""
    folder = pins_cache.cache_folder() if engine_argv is None else None
    keys = [pins_cache.check_key(c, register, profiles) for c in cases] if folder else []
    kept: dict[int, CaseCheck] = {}
    if folder is not None:
        for at, (case, key) in enumerate(zip(cases, keys, strict=True)):
            data = pins_cache.load(folder, key)
            if data is not None:
                kept[at] = _from_data(case, register, profiles, data)
    todo = [c for at, c in enumerate(cases) if at not in kept]
    played = map_with_checker(_check, todo, register, profiles, jobs=jobs,
                              engine_argv=engine_argv)
    checks: list[CaseCheck] = []
    for at in range(len(cases)):
        check = kept.get(at)
        if check is None:
            check = next(played)
            if folder is not None:
                pins_cache.store(folder, keys[at], _to_data(check))
        checks.append(check)
        if on_case:
            on_case(check)
    return checks


def _to_data(check: CaseCheck) -> dict[str, Any]:
    return {"own": {p: list(v) for p, v in check.own.items()},
            "runs": [[p, v, r, passed, message]
                     for (p, v, r), (passed, message) in check.runs.items()],
            "alternatives": [list(v) for v in check.alternatives]}


def _from_data(case: Case, register: Register, profiles: list[str], data: dict[str, Any]
               ) -> CaseCheck:
    readings = {name: tuple(info.readings) for name, info in register.variants.items()}
    own = {str(p): (bool(v[0]), str(v[1])) for p, v in data["own"].items()}
    found = CaseCheck(case, list(profiles), own, readings)
    for p, v, r, passed, message in data["runs"]:
        found.runs[(str(p), str(v), str(r))] = (bool(passed), str(message))
    found.alternatives = [(bool(v[0]), str(v[1])) for v in data.get("alternatives", [])]
    return found


def unpinned_cases(
    cases: list[Case],
    register: Register,
    profiles: list[str],
    engine_argv: list[str] | None = None,
    jobs: int = 1,
) -> list[Unpinned]:
    """Every (case, variant, reading, profile) where a case fails for want of a pin.
    Cases that fail under their own readings are left to `baloot conform`."""
    checks = check_cases(cases, register, profiles, jobs=jobs, engine_argv=engine_argv)
    return [u for check in checks for u in check.unpinned()]


def overpinned_cases(
    cases: list[Case], register: Register, profiles: list[str], jobs: int = 1
) -> list[Overpinned]:
    """Every (case, variant) where a case pins a variant its expectation does not depend on."""
    checks = check_cases(cases, register, profiles, jobs=jobs)
    return [o for check in checks for o in check.overpinned()]
