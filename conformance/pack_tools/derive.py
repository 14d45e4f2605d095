"""`baloot conform derive`: each case's expectation under the other readings of the
variants it pins, recorded from the reference engine as the case's `alternatives`
(CASES.md, "Alternatives").

For a hand-worked case with pins, every combination of readings of its pinned
variants that the case's own pins (and its hand-worked alternatives) leave out is a
candidate, nearest a profile first (the number of pinned variants whose reading is not
the profile's, the nearer profile counting), at most `MAX_COMBINATIONS` of them. For
each, the case's script is played on the in-process reference engine, the other
variants in the first profile's readings, the runner's own steps (seats, `repeat`,
`if_asked`), and the value at every check the case has is recorded: each inline
`expect_*` step, each further round's `result`, and the top-level `expect`, each cut to
the fields the case's own check names (a legal set in full). Under a combination where
the readings part ways with the script (another seat asked, a scripted action not in the
legal set, an illegal case's action in it), the run stops there and records the legal
reply: the alternative is the script up to that step, then an `expect_legal` of that
reply, marked `script_only` (the runner plays it and stops: no further rounds, no check
of the kind). A script that parts in a further round (`then`) or inside a `repeat`, or
breaks otherwise, gets no alternative: there the case is skipped as before. A run reads
only some variants (`pins_trace`): a combination that agrees, on
the pinned variants an earlier run read, with that run is that run, and is not played
again.

Combinations with the same record are merged into products (each pinned variant a
list of readings); each product is one alternative. An alternative replaces only what
differs from the case: `actions` when an inline check (or, under its readings, a seat
or a pass-only turn) differs, `then` for the further rounds, `expect`, and
`capabilities` when the script needs other parts of the game there (`case_needs`).
Each alternative is then checked as `baloot conform pins` checks a case: played from
every profile under its pins, and under every reading of every variant it leaves out
(one at a time); its pins are made minimal as `baloot conform pins --fix` makes a
case's: a variant it turns out to depend on is pinned too (first, where it fails from
another profile, the readings it was recorded in where the profiles differ; then those
it does not need are dropped); one that holds under no pins is dropped (named in the
report). The same alternative found from two profiles is written once.

A hokum raise is played in the form the A10 reading asks: the double `double` under
double_and_four and any_raise, `double closed` (the double that locks, as a plain one
does under those two) under doubler_chooses, doubler_chooses_bidder_opens and
each_raiser_chooses (`double open` has no counterpart there, and stays); the triple and
the four `triple closed` and `four closed` for a plain one under each_raiser_chooses
(the open forms stay), and plain, whatever their form, under the other readings, where
they have one form only. The alternative's script then says so.

Witnesses (`explored.json`, written by `baloot explore`) and regression snapshots (the
golden playthroughs, written by `baloot conform golden`) are their generators' to
write, and `derive` leaves them alone; `derived_alternatives` is what a generator calls
(`baloot explore` does, for each witness case, as spec-mutant synthesis does).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..harness.compare import project_onto, subset_matches
from ..harness.pack import (
    DERIVED,
    HAND_WORKED,
    Case,
    Check,
    Problem,
    alternative_from_json,
    case_files,
    case_from_json,
    file_label,
    read_json,
    seated,
)
from ..harness.runner import CaseFailed, Runner
from ..harness.variants import Register
from .case_needs import annotated, case_needs
from .pins import PinChecker, map_with_checker
from .pins_fix import file_style, minimal_pins

# A10 reading -> the forms of the hokum raises (PROTOCOL.md, "Raising"): for each raise
# that may be called closed or open, the form a script's other form is played as. A plain
# double locks the round under double_and_four and any_raise, `double closed` under the
# readings where the doubler chooses (`double open` has no counterpart, and stays); a
# plain triple or four is played `... closed` under each_raiser_chooses (the open forms
# stay), and either form plain under the readings where the triple and the four are plain.
DOUBLE_VARIANT = "locked_round"
_PLAIN_LATER = {"triple closed": "triple", "triple open": "triple",
                "four closed": "four", "four open": "four"}
DOUBLE_FORMS: dict[str, dict[str, str]] = {
    "double_and_four": {"double closed": "double", **_PLAIN_LATER},
    "any_raise": {"double closed": "double", **_PLAIN_LATER},
    "doubler_chooses": {"double": "double closed", **_PLAIN_LATER},
    "doubler_chooses_bidder_opens": {"double": "double closed", **_PLAIN_LATER},
    "each_raiser_chooses": {"double": "double closed", "triple": "triple closed",
                            "four": "four closed"},
}

# At most this many combinations of readings are played per case, the nearest a profile
# first: a case pinning many variants has tens of thousands, most of them far from any
# engine's readings.
MAX_COMBINATIONS = 192

_MISSING = "<missing>"  # what `project_onto` writes for a field the engine did not send
# The record of where the readings part ways with the script: PARTED + the step's place.
PARTED = "parted@"

Point = tuple[str, ...]  # a reading for each pinned variant, in the register's order
Cube = tuple[tuple[str, ...], ...]  # readings for each pinned variant


class _NotDerivable(Exception):
    """The script does not play through, or a check cannot be recorded."""


class _Recorder(Runner):
    """A runner that records what the engine says at each check of a case instead of
    judging it: (where, the value cut to the check's fields)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.records: list[tuple[str, str, Any]] = []  # (where, what, value)
        self.double_form: dict[str, str] | None = None  # hokum raises' forms to play (A10)
        self.parted = False  # the run stopped where the readings part ways with the script

    def _part_if_not_legal(self, seat: int, action: str, where: str) -> None:
        """Where the script's next action is not the engine's to take (another seat asked,
        the action not in the legal set), the readings part ways with the script."""
        legal = self._legal()
        if legal["player"] != seat or action not in legal["actions"]:
            self._part(legal, where)

    def _check_illegal(self, expect: dict[str, Any]) -> None:
        """Where the illegal case's action is legal, the readings part ways with it."""
        legal = self._legal()
        if expect["action"] in legal["actions"]:
            self._part(legal, "expect")
        super()._check_illegal(expect)

    def _part(self, legal: dict[str, Any], where: str) -> None:
        """Record the legal reply where the readings part ways with the script, and stop."""
        self.records.append((PARTED + where, "parted",
                             {"player": legal["player"], "actions": sorted(legal["actions"])}))
        self.parted = True
        raise CaseFailed(f"{where}: the readings part ways with the script here")

    def _batches(self, steps: list[Any]) -> dict[int, list[tuple[int, int, str]]]:
        """None: each scripted step is played alone, so that its form is chosen and where
        the readings part ways with the script is found (`_apply_as`)."""
        return {}

    def _apply_as(self, seat: int, action: str, where: str) -> None:
        # A hokum double is `double` under some A10 readings and `double closed` (the double
        # that locks, as the plain one does there) under the others, and the triple and the
        # four are plain or called closed or open: the script's raise is played in the form
        # the readings ask, and the alternative's script says so.
        if self.double_form and action in self.double_form:
            contract = self._state().get("contract")
            if isinstance(contract, dict) and contract.get("kind") == "hokum":
                action = self.double_form[action]
                self.records.append((where, "action", seated(seat, action)))
        self._part_if_not_legal(seat, action, where)
        super()._apply_as(seat, action, where)

    def _record(self, where: str, value: Any, what: str = "subset") -> None:
        if _MISSING in json.dumps(value):
            raise CaseFailed(f"{where}: the reference does not send a field the case checks")
        self.records.append((where, what, value))

    def _legal_value(self, expected: dict[str, Any]) -> dict[str, Any]:
        legal = self._legal()
        return {k: legal[k] for k in expected if k in ("player", "actions")}

    def _check_step(self, check: Check, where: str) -> None:
        if check.what == "legal":
            self._record(where, self._legal_value(check.expected), "legal")
        elif check.what == "result":
            self._check_result(check.expected, where)
        else:
            self._record(where, project_onto(self._state(), check.expected))

    def _check_state(self, expected: dict[str, Any], message: str) -> None:
        self._record("expect.state", project_onto(self._state(), expected))

    def _check_legal(self, expect: dict[str, Any], where: str = "") -> None:
        fields = {k: v for k, v in expect.items() if k != "state"}
        self._record("expect", self._legal_value(fields), "legal")

    def _check_trick(self, expect: dict[str, Any]) -> None:
        self._record("expect.trick_winners", self._state().get("trick_winners"), "equal")

    def _check_result(self, wanted: dict[str, Any], where: str) -> None:
        result = self.engine.request({"type": "result"}).get("result")
        if not isinstance(result, dict):
            raise CaseFailed(f"{where}: no round result")
        self._record(where, project_onto(result, wanted))


# ------------------------------------------------------------ one case --


@dataclass
class Derivation:
    """What deriving one case found."""

    case_id: str
    alternatives: list[dict[str, Any]]  # the `alternatives` to write (hand-worked first)
    combinations: int = 0  # outside the case's own pins (and hand-worked alternatives)
    played: int = 0  # combinations played (the rest: capped, or the same run as another)
    capped: int = 0  # combinations left out by MAX_COMBINATIONS
    illegal: int = 0  # combinations under which the script does not play through
    parted: int = 0  # of the others, those under which the script stops where they part
    dropped: list[str] = field(default_factory=list)  # alternatives that failed the check


def _in_cube(point: dict[str, str], pins: dict[str, tuple[str, ...]]) -> bool:
    return all(point.get(v, r[0]) in r for v, r in pins.items())


def _combinations(case: Case, register: Register, variants: list[str],
                  kept: list[dict[str, tuple[str, ...]]]) -> tuple[list[Point], int]:
    """The combinations to play, nearest a profile first (then in the register's order of
    readings), at most MAX_COMBINATIONS; and how many there are in all."""
    readings = [register.variants[v].readings for v in variants]
    bases = [[register.readings_of(p)[v] for v in variants] for p in register.profiles]

    def outside(point: Point) -> bool:
        named = dict(zip(variants, point, strict=True))
        return not _in_cube(named, case.pins) and not any(_in_cube(named, k) for k in kept)

    def order(point: Point) -> tuple[int, tuple[int, ...]]:
        distance = min(sum(a != b for a, b in zip(point, base, strict=True)) for base in bases)
        return distance, tuple(r.index(x) for r, x in zip(readings, point, strict=True))

    total = 1
    for r in readings:
        total *= len(r)
    if total <= 50_000:
        every = [p for p in itertools.product(*readings) if outside(p)]
        every.sort(key=order)
        return every[:MAX_COMBINATIONS], len(every)
    # too many to list: the nearest, by moving up to three variants off each profile
    near: set[Point] = set()
    for moved in range(4):
        for base in bases:
            for chosen in itertools.combinations(range(len(variants)), moved):
                options = [[x for x in readings[i] if x != base[i]] for i in chosen]
                for picks in itertools.product(*options):
                    point = list(base)
                    for i, x in zip(chosen, picks, strict=True):
                        point[i] = x
                    if outside(tuple(point)):
                        near.add(tuple(point))
        if len(near) >= MAX_COMBINATIONS:
            break
    found = sorted(near, key=order)
    return found[:MAX_COMBINATIONS], total


def _record(checker: PinChecker, recorder: _Recorder, case: Case, readings: dict[str, str]
            ) -> tuple[Records | None, frozenset[str]]:
    """The records of the case played with exactly these pins (None: it does not play
    through), and the variants the run read."""
    probe = dataclasses.replace(case, requires=readings, also_holds={}, alternatives=())
    noting = checker.noting
    assert noting is not None
    noting.forget()
    noting.noting = True
    recorder.records = []
    recorder.parted = False
    recorder.double_form = DOUBLE_FORMS.get(readings.get(DOUBLE_VARIANT, ""))
    try:
        outcome = recorder.run_case(probe)
    finally:
        noting.noting = False
        consulted = noting.forget()
    parted_in_rounds = recorder.parted and recorder.records[-1][0].startswith(PARTED + "then")
    if (outcome.status != "passed" and not recorder.parted) or parted_in_rounds:
        return None, consulted  # (a script that parts in a further round: none either)
    return tuple(recorder.records), consulted


def _merge(points: list[Point]) -> list[Cube]:
    """Points merged into products: cubes equal but in one variant are joined, until none
    are."""
    cubes: set[Cube] = {tuple((x,) for x in p) for p in points}
    width = len(points[0]) if points else 0
    changed = True
    while changed:
        changed = False
        for at in range(width):
            groups: dict[Cube, list[tuple[str, ...]]] = {}
            for cube in sorted(cubes):
                rest: Cube = cube[:at] + cube[at + 1:]
                groups.setdefault(rest, []).append(cube[at])
            merged: set[Cube] = set()
            for rest, parts in groups.items():
                joined = tuple(sorted({x for part in parts for x in part}))
                merged.add((*rest[:at], joined, *rest[at:]))
                changed = changed or len(parts) > 1
            cubes = merged
    return sorted(cubes)


def _replaced(raw: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The parts of the case (`actions`, `then`, `expect`) with the recorded values where
    they differ from the case's own, each only when something in it differs."""
    out: dict[str, Any] = {}

    def step_list(steps: list[Any], where: str) -> tuple[list[Any], bool]:
        new, changed = [], False
        for index, step in enumerate(steps):
            at = f"{where}[{index}]"
            if at in values and isinstance(step, str):  # a double in another form
                new.append(values[at])
                changed = True
            elif at in values and isinstance(step, dict):
                ((key, _),) = step.items()
                new.append({key: values[at]})
                changed = True
            else:
                new.append(step)
        return new, changed

    actions, changed = step_list(raw["actions"], "actions")
    if changed:
        out["actions"] = actions
    if "then" in raw:
        rounds, any_changed = [], False
        for index, script in enumerate(raw["then"]):
            steps, changed = step_list(script["actions"], f"then[{index}].actions")
            new = {**script, "actions": steps}
            if f"then[{index}].result" in values:
                new["result"] = values[f"then[{index}].result"]
                changed = True
            rounds.append(new)
            any_changed = any_changed or changed
        if any_changed:
            out["then"] = rounds
    expect = dict(raw["expect"])
    expect_changed = False
    for where, value in values.items():
        if where == "expect":
            expect.update(value)
            expect_changed = True
        elif where.startswith("expect."):
            expect[where.removeprefix("expect.")] = value
            expect_changed = True
    if expect_changed:
        out["expect"] = expect
    return out


def _parted(raw: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The script-only alternative of readings that part ways with the case's script: its
    steps (each recorded check and raise form in place) up to where they part, then the
    legal reply there as an `expect_legal` (CASES.md, "Alternatives")."""
    ((key, legal),) = [(k, v) for k, v in values.items() if k.startswith(PARTED)]
    where = key.removeprefix(PARTED)
    before = {k: v for k, v in values.items() if k != key}
    steps = _replaced(raw, before).get("actions", raw["actions"])
    cut = len(steps) if where == "expect" else int(where.removeprefix("actions[")[:-1])
    return {"actions": [*steps[:cut], {"expect_legal": legal}], "script_only": True}


def _primary_values(raw: dict[str, Any]) -> dict[str, Any]:
    """Where -> the case's own expectation at each check, keyed as the recorder keys."""
    found: dict[str, Any] = {}

    def steps(items: list[Any], where: str) -> None:
        for index, step in enumerate(items):
            if isinstance(step, dict) and len(step) == 1:
                ((key, value),) = step.items()
                if key.startswith("expect_"):
                    found[f"{where}[{index}]"] = value
    steps(raw["actions"], "actions")
    for index, script in enumerate(raw.get("then", [])):
        steps(script["actions"], f"then[{index}].actions")
        if "result" in script:
            found[f"then[{index}].result"] = script["result"]
    expect = raw["expect"]
    if raw["kind"] == "legal":
        found["expect"] = {k: v for k, v in expect.items() if k in ("player", "actions")}
    elif raw["kind"] == "trick":
        found["expect.trick_winners"] = expect["trick_winners"]
    elif raw["kind"] in ("round", "game"):
        found["expect.result"] = expect["result"]
    if "state" in expect:
        found["expect.state"] = expect["state"]
    return found


Records = tuple[tuple[str, str, Any], ...]


def _differences(records: Records, primary: dict[str, Any]) -> dict[str, Any]:
    """Where -> the recorded value, where the case's own expectation does not meet it:
    a legal set compared as a set (and its player), trick winners whole, anything else
    as the runner compares it (a subset)."""
    found: dict[str, Any] = {}
    for where, what, value in records:
        own = primary.get(where)
        if what in ("action", "parted"):  # a step played in another form, or none
            same = False
        elif what == "legal":
            same = isinstance(own, dict) and sorted(own.get("actions", [])) == value[
                "actions"] and own.get("player") == value.get("player")
        elif what == "equal":
            same = own == value
        else:
            same = own is not None and subset_matches(value, own)
        if not same:
            found[where] = value
    return found


def _pins_json(variants: list[str], cube: Cube, register: Register, order: list[str]
               ) -> dict[str, Any]:
    """A cube as `requires`: the variants in the case's own order, a variant holding every
    reading left out, a single reading as text."""
    pins = {}
    for variant, readings in zip(variants, cube, strict=True):
        every = register.variants[variant].readings
        if len(readings) == len(every):
            continue
        listed = [r for r in every if r in readings]
        pins[variant] = listed[0] if len(listed) == 1 else listed
    return {v: pins[v] for v in order if v in pins}


def derive_case(checker: PinChecker, raw: dict[str, Any], file: str) -> Derivation:
    """The alternatives of one case (see the module's description)."""
    register = checker.register
    case = case_from_json({k: v for k, v in raw.items() if k != "alternatives"}, file)
    kept_raw = [a for a in raw.get("alternatives", []) if a.get("origin") == HAND_WORKED]
    kept = [alternative_from_json(a).requires for a in kept_raw]
    found = Derivation(case.id, list(kept_raw))
    if not case.pins:
        return found
    variants = [v for v in register.variants if v in case.pins]
    points, total = _combinations(case, register, variants, kept)
    found.combinations = total
    found.capped = total - len(points)
    primary = _primary_values(raw)
    order = list(raw.get("requires", {}))
    alternatives: dict[str, tuple[Cube, dict[str, Any]]] = {}
    playable: set[Point] = set()
    parted: set[Point] = set()
    # From each profile in turn (the variants the case does not pin in its readings): an
    # expectation that depends on one of those is found from each side, pinned to it.
    for profile in register.profiles:
        recorder = _Recorder(checker.engine, register, profile=profile)
        runs: list[tuple[dict[str, str], Records | None]] = []
        by_record: dict[str, tuple[dict[str, Any], list[Point]]] = {}
        for point in points:
            named = dict(zip(variants, point, strict=True))
            records = next((rec for read, rec in runs
                            if all(named[v] == r for v, r in read.items())), _UNSEEN)
            if records is _UNSEEN:
                records, consulted = _record(checker, recorder, case, named)
                found.played += 1
                runs.append(({v: named[v] for v in variants if v in consulted}, records))
            if records is None:
                continue
            playable.add(point)
            if records and records[-1][1] == "parted":
                parted.add(point)
            values = _differences(records, primary)
            by_record.setdefault(json.dumps(values, sort_keys=True), (values, []))[1].append(
                point)
        for values, group in by_record.values():
            for cube in _merge(group):
                parts = (_parted(raw, values) if any(k.startswith(PARTED) for k in values)
                         else _replaced(raw, values))
                alt = {"origin": DERIVED,
                       "requires": _pins_json(variants, cube, register, order), **parts}
                checked = _checked(checker, raw, file, alt, profile)
                if checked is None:
                    found.dropped.append(f"{json.dumps(alt['requires'])} (from {profile})")
                    continue
                alternatives.setdefault(json.dumps(checked), (cube, checked))
    found.illegal = len(points) - len(playable)
    found.parted = len(parted)
    # those that play the whole case first: a runner takes the first that applies, and an
    # engine implementing several readings is checked on the whole case where it can be
    ordered = sorted(alternatives.items(),
                     key=lambda item: (bool(item[1][1].get("script_only")),
                                       _cube_order(item[1][0], variants, register), item[0]))
    found.alternatives += [alt for _, (_, alt) in ordered]
    return found


_UNSEEN: Any = object()


def _cube_order(cube: Cube, variants: list[str], register: Register) -> tuple[Any, ...]:
    return tuple(tuple(register.variants[v].readings.index(r) for r in readings)
                 for v, readings in zip(variants, cube, strict=True))


_PARTS = ("capabilities", "actions", "then", "expect", "script_only")


def _checked(checker: PinChecker, raw: dict[str, Any], file: str, alt: dict[str, Any],
             profile: str) -> dict[str, Any] | None:
    """The alternative with the seats, pass-only turns and capabilities its readings need
    (`case_needs`), and its pins made minimal as `baloot conform pins --fix` makes a
    case's (a variant its expectation turns out to depend on pinned too); None when it
    holds under no pins, or they fall inside the case's own."""
    register = checker.register
    as_case = {k: v for k, v in raw.items() if k != "alternatives"}
    as_case.update({k: alt[k] for k in ("actions", "then", "expect", "script_only")
                    if k in alt})
    if alt.get("script_only"):
        as_case.pop("then", None)  # played no further than its script
    as_case["requires"] = alt["requires"]
    order = [*raw.get("requires", {}), *register.variants]
    pinned_profile = False
    for _ in range(SETTLE_ROUNDS + 1):
        needs = case_needs(case_from_json(as_case, file), register)
        if needs.problem:
            return None
        as_case = annotated(as_case, needs)
        fix = minimal_pins(checker, case_from_json(as_case, file))
        if fix.pins is None and not pinned_profile:
            # it fails from another profile: pin the readings it was recorded in where the
            # profiles differ, and let the pins be made minimal from there
            pinned_profile = True
            base = register.readings_of(profile)
            others = [register.readings_of(p) for p in register.profiles if p != profile]
            as_case["requires"] = {**{v: base[v] for v in register.variants
                                      if any(o[v] != base[v] for o in others)},
                                   **as_case["requires"]}
            continue
        if fix.pins is None:
            return None
        pins = {v: fix.pins[v] for v in order if v in fix.pins}
        requires = {v: r[0] if len(r) == 1 else list(r) for v, r in pins.items()}
        if requires == as_case["requires"]:
            break
        as_case["requires"] = requires
    else:
        return None
    own = case_from_json(raw, file).pins
    if all(v in pins and set(pins[v]) <= set(r) for v, r in own.items()):
        return None  # it holds where the case's own does: nothing to add
    out: dict[str, Any] = {"origin": alt["origin"], "requires": as_case["requires"]}
    for part in _PARTS:
        if part in as_case and as_case[part] != raw.get(part, [] if part == "capabilities"
                                                          else None):
            out[part] = as_case[part]
    return out


# Pins and needs depend on each other (a pass-only turn on the readings, the readings
# pinned on what the script does): recomputed in turn until neither changes.
SETTLE_ROUNDS = 4


# ------------------------------------------------------------ case files --


def with_alternatives(raw: dict[str, Any], alternatives: list[dict[str, Any]]
                      ) -> dict[str, Any]:
    """The case's JSON with these `alternatives` (none: the key left out), placed where
    the case had them, else after `expect`."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "alternatives":
            if alternatives:
                out[key] = alternatives
            continue
        out[key] = value
        if key == "expect" and "alternatives" not in raw and alternatives:
            out["alternatives"] = alternatives
    if alternatives and "alternatives" not in out:
        out["alternatives"] = alternatives
    return out


def derived_alternatives(raw: dict[str, Any], file: str, register: Register
                         ) -> list[dict[str, Any]]:
    """The `alternatives` of one case (its hand-worked ones, then those derived), for a
    generator of case files to write (`baloot explore`'s witnesses could, as they take
    their pins from `pins_fix.minimal_requires`)."""
    return derive_case(PinChecker(register, list(register.profiles)), raw, file).alternatives


def derivable(raw: Any) -> bool:
    """Cases `derive` writes alternatives into: hand-worked ones (witnesses and regression
    snapshots are their generators' to write)."""
    return isinstance(raw, dict) and raw.get("origin", HAND_WORKED) == HAND_WORKED


@dataclass
class FilePlan:
    label: str
    path: Path
    text: str  # as it is
    new_text: str  # as derived
    derivations: list[Derivation]


def _derive_item(checker: PinChecker, item: tuple[dict[str, Any], str]) -> Derivation:
    raw, file = item
    return derive_case(checker, raw, file)


def plan_files(folder: Path, register: Register, *, select: Callable[[str], bool],
               jobs: int = 1, on_case: Callable[[Derivation], None] | None = None
               ) -> tuple[list[FilePlan], list[Problem]]:
    """The derivation of every selected case file of the pack in `folder` (files the
    pack linter must have passed)."""
    problems: list[Problem] = []
    files: list[tuple[Path, str, str, dict[str, Any]]] = []
    for path in case_files(folder):
        label = file_label(folder, path)
        if not select(label):
            continue
        data = read_json(path, problems)
        if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
            problems.append(Problem(label, 'expected an object {"cases": [...]}'))
            continue
        files.append((path, label, path.read_text(encoding="utf-8"), data))
    items = [(raw, label) for _, label, _, data in files for raw in data["cases"]
             if derivable(raw)]
    derived = iter(map_with_checker(_derive_item, items, register, list(register.profiles),
                                    jobs=jobs))
    plans = []
    for path, label, text, data in files:
        new_cases, derivations = [], []
        for raw in data["cases"]:
            if not derivable(raw):
                new_cases.append(raw)
                continue
            found = next(derived)
            derivations.append(found)
            if on_case:
                on_case(found)
            new_cases.append(with_alternatives(raw, found.alternatives))
        new_text = file_style(text).dumps({**data, "cases": new_cases})
        plans.append(FilePlan(label, path, text, new_text, derivations))
    return plans, problems


