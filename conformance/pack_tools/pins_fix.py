"""`baloot conform pins --fix`: rewrite case files to minimal pins.

For each hand-worked case (generated cases, witnesses and regression snapshots, get their
pins from their generator and are only reported):
1. while the case fails under another reading of a variant it leaves out, pin that
   variant to a reading under which the case passes from every profile (the profiles'
   own readings first), re-checking after each pin;
2. then drop, one at a time, each pin the case does not depend on, re-checking after
   each drop and putting the pin back when the case then fails somewhere.
A case filed under a variant's reading (`variants/<variant>/<reading>.json`) keeps that
pin even when it passes under every reading: it is reported, since such a case does not
tell the reading it is filed under apart. A case that holds under no choice of pins is
reported, not rewritten.

Files are rewritten in their own conventions: indentation, escaping, final newline, the
order of a case's keys and of the variants inside `requires`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..harness.pack import (
    HAND_WORKED,
    REGRESSION_SNAPSHOT,
    SYNTHESISED,
    WITNESS,
    Case,
    case_from_json,
)
from ..harness.variants import Register
from .pins import (
    CaseCheck,
    PinChecker,
    Pins,
    map_with_checker,
    with_pins,
)


@dataclass
class PinFix:
    """What minimal pins came to for one case."""

    case: Case
    pins: Pins | None  # the minimal pins; None when none were found
    problem: str = ""  # why the case cannot be fixed
    filed_under: tuple[str, str] | None = None  # kept although the case passes under every
    # reading of it: the variant reading its file is named after

    @property
    def changed(self) -> bool:
        return self.pins is not None and self.pins != self.case.pins

    def changes(self) -> list[str]:
        """`+variant=readings` for a new pin, `~variant=readings` for one listing other
        readings now, `-variant=readings` for a dropped one."""
        if self.pins is None:
            return []
        old = self.case.pins
        found = [f"{'~' if v in old else '+'}{v}={'|'.join(r)}"
                 for v, r in self.pins.items() if old.get(v) != r]
        found += [f"-{v}={'|'.join(r)}" for v, r in old.items() if v not in self.pins]
        return found


def filed_reading(case: Case, register: Register) -> tuple[str, str] | None:
    """(variant, reading) of a case file named `variants/<variant>/<reading>.json`."""
    parts = Path(case.file).parts
    if len(parts) == 3 and parts[0] == "variants":
        variant, reading = parts[1], Path(parts[2]).stem
        info = register.variants.get(variant)
        if info is not None and reading in info.readings:
            return variant, reading
    return None


def _ordered(first: str | None, passing: list[str]) -> tuple[str, ...]:
    """The readings of a pin: `first` (the reading the case names first now) leading."""
    return tuple(([first] if first in passing else []) + [r for r in passing if r != first])


def minimal_pins(checker: PinChecker, case: Case, first: CaseCheck | None = None) -> PinFix:
    """The case's pins made minimal (see the module's description)."""
    register = checker.register
    check = first or checker.check(case)
    if not check.holds:
        return PinFix(case, None, problem="fails under its own pins from profile "
                      + ", ".join(check.failing_profiles()))
    pins = dict(case.pins)
    # 1. pin each variant left out that the case depends on, to the readings it passes under
    for _ in range(len(register.variants)):
        left_out = [u.variant for u in check.unpinned() if u.variant not in pins]
        if not left_out:
            break
        variant = left_out[0]
        own = [register.readings_of(p)[variant] for p in checker.profiles]
        passing = check.passing_readings(variant)
        if not passing:
            return PinFix(case, None, problem=f"depends on {variant} and holds under none "
                          f"of its readings from every profile")
        pins[variant] = _ordered(next((r for r in own if r in passing), passing[0]), passing)
        check = checker.check(with_pins(case, pins))
        if not check.holds:  # pragma: no cover - the reading passed from every profile
            return PinFix(case, None, problem=f"fails once {variant} is pinned")
    # 2. make each pin list exactly the readings the case passes under; drop a pin the case
    # passes under every reading of, unless the case then fails under another variant
    filed = filed_reading(case, register)
    kept_filed: tuple[str, str] | None = None
    for variant in list(pins):
        passing = check.passing_readings(variant)
        if len(passing) < len(register.variants[variant].readings):
            pins[variant] = _ordered(pins[variant][0], passing)
            check.case = with_pins(case, pins)  # the runs are those of the first reading
            continue
        if filed == (variant, pins[variant][0]):
            kept_filed = filed
            continue
        trial_pins = {v: r for v, r in pins.items() if v != variant}
        trial = checker.check(with_pins(case, trial_pins))
        if trial.holds and not trial.unpinned():
            pins, check = trial_pins, trial
    return PinFix(case, pins, filed_under=kept_filed)


def fixable(case: Case) -> bool:
    """Every case is rewritten: hand-worked ones here, generated ones (witnesses, golden
    playthroughs) also by their generators, which call `minimal_requires` on what they
    write, so that `--fix` and a regeneration agree."""
    return case.origin in (HAND_WORKED, REGRESSION_SNAPSHOT, WITNESS, SYNTHESISED)


def minimal_requires(raw: dict[str, Any], file: str, register: Register) -> dict[str, Any]:
    """The `requires` of a case about to be written, made minimal against the in-process
    reference (in the register's order); the case's own when it holds under no pins."""
    case = case_from_json(raw, file)
    fix = minimal_pins(PinChecker(register, list(register.profiles)), case)
    if fix.pins is None:
        return dict(raw.get("requires", {}))
    return _ordered_pins({}, fix.pins, register, alphabetical=False)


def with_minimal_requires(raw: dict[str, Any], file: str, register: Register) -> dict[str, Any]:
    """The case's JSON with minimal `requires` (see `minimal_requires`), keys in order."""
    return _set_requires(raw, minimal_requires(raw, file, register), "origin"
                         if "origin" in raw else "clauses")


# ------------------------------------------------------------- case files --


@dataclass(frozen=True)
class FileStyle:
    indent: int | str | None
    ensure_ascii: bool
    final_newline: bool

    def dumps(self, data: Any) -> str:
        text = json.dumps(data, indent=self.indent, ensure_ascii=self.ensure_ascii)
        return text + ("\n" if self.final_newline else "")


def file_style(text: str) -> FileStyle:
    """How a JSON file is written: the indentation of its first indented line, whether it
    escapes non-ASCII characters, whether it ends in a newline."""
    indent: int | str | None = None
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            indent = len(lead) if set(lead) == {" "} else lead
            break
    ensure_ascii = text.isascii()  # a file holding non-ASCII text was written unescaped
    return FileStyle(indent, ensure_ascii, text.endswith("\n"))


def _ordered_pins(existing: dict[str, Any], pins: Pins, register: Register,
                  alphabetical: bool) -> dict[str, Any]:
    """`pins` as JSON (a reading, or a list of several) in the order the case (or, for a
    case with fewer than two pins, its file) lists them: alphabetical, the register's
    order, or else kept pins where they were and new ones after them."""
    value = {v: (r[0] if len(r) == 1 else list(r)) for v, r in pins.items()}
    order = list(register.variants)
    keys = list(existing)
    if len(keys) >= 2:
        if keys == sorted(keys):
            alphabetical = True
        elif keys == [v for v in order if v in existing]:
            alphabetical = False
        else:
            kept = {v: value[v] for v in keys if v in value}
            return {**kept, **{v: r for v, r in value.items() if v not in kept}}
    if alphabetical:
        return dict(sorted(value.items()))
    return {v: value[v] for v in order if v in value}


def _sorted_style(raw_cases: list[Any], register: Register) -> bool:
    """Whether the file lists pins alphabetically (else in the register's order); a file
    with no case pinning two or more variants is taken as alphabetical."""
    order = list(register.variants)
    alphabetical = by_register = 0
    for raw in raw_cases:
        keys = list(raw.get("requires", {})) if isinstance(raw, dict) else []
        if len(keys) < 2:
            continue
        if keys == sorted(keys):
            alphabetical += 1
        elif keys == [v for v in order if v in keys]:
            by_register += 1
    return alphabetical >= by_register


def _requires_after(raw_cases: list[Any], raw: dict[str, Any]) -> str | None:
    """The key a new `requires` goes after: the one it follows in the file's other cases,
    else the later of `origin` and `clauses`."""
    for other in raw_cases:
        if isinstance(other, dict) and "requires" in other:
            keys: list[str] = list(other)
            index = keys.index("requires")
            if index > 0 and keys[index - 1] in raw:
                return keys[index - 1]
    present = [k for k in raw if k in ("clauses", "origin")]
    return present[-1] if present else None


def _set_requires(raw: dict[str, Any], pins: dict[str, Any], after: str | None
                  ) -> dict[str, Any]:
    if not pins:
        return {k: v for k, v in raw.items() if k != "requires"}
    if "requires" in raw:
        return {k: (pins if k == "requires" else v) for k, v in raw.items()}
    out: dict[str, Any] = {}
    if after is None:
        out["requires"] = pins
    for key, value in raw.items():
        out[key] = value
        if key == after:
            out["requires"] = pins
    return out


def rewrite_pins(path: Path, pins_by_id: dict[str, Pins], register: Register) -> int:
    """Write new pins for the cases named into one case file; returns how many changed."""
    text = path.read_text(encoding="utf-8")
    style = file_style(text)
    data = json.loads(text)
    cases = data["cases"]
    alphabetical = _sorted_style(cases, register)
    changed = 0
    for index, raw in enumerate(cases):
        if not isinstance(raw, dict) or raw.get("id") not in pins_by_id:
            continue
        existing = dict(raw.get("requires", {}))
        pins = _ordered_pins(existing, pins_by_id[raw["id"]], register, alphabetical)
        if pins == existing and list(pins) == list(existing):
            continue
        cases[index] = _set_requires(raw, pins, _requires_after(cases, raw))
        changed += 1
    if changed:
        path.write_text(style.dumps(data), encoding="utf-8")
    return changed


# ------------------------------------------------------------ the whole pack --


def _fix(checker: PinChecker, check: CaseCheck) -> PinFix:
    return minimal_pins(checker, check.case, check)


def plan_fixes(
    checks: list[CaseCheck], register: Register, profiles: list[str], *, jobs: int = 1
) -> list[PinFix]:
    """Minimal pins for every hand-worked case with a finding (a case that fails under its
    own pins is `baloot conform`'s to report, and is left out)."""
    todo = [c for c in checks if fixable(c.case) and c.holds and (c.unpinned() or c.overpinned())]
    return list(map_with_checker(_fix, todo, register, profiles, jobs=jobs))


def apply_fixes(folder: Path, fixes: list[PinFix], register: Register) -> dict[str, int]:
    """Write the changed pins into the pack's case files; returns file -> cases changed."""
    by_file: dict[str, dict[str, Pins]] = {}
    for fix in fixes:
        if fix.changed and fix.pins is not None:
            by_file.setdefault(fix.case.file, {})[fix.case.id] = fix.pins
    written: dict[str, int] = {}
    for name, pins_by_id in sorted(by_file.items()):
        count = rewrite_pins(folder / name, pins_by_id, register)
        if count:
            written[name] = count
    return written
