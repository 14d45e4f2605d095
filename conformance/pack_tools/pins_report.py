"""The console side of `baloot conform pins` (and `--fix`): check, plan, write, re-check."""

from __future__ import annotations

import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..harness.lint import lint_pack
from ..harness.pack import Case
from ..harness.variants import Register
from .pins import CaseCheck, check_cases
from .pins_fix import PinFix, apply_fixes, fixable, plan_fixes


def _print(console: Console, text: str) -> None:
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def _checks(console: Console, cases: list[Case], register: Register, jobs: int
            ) -> list[CaseCheck]:
    profiles = list(register.profiles)
    with Progress(TextColumn("pins"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("cases", total=len(cases))
        return check_cases(cases, register, profiles, jobs=jobs,
                           on_case=lambda _: progress.advance(task))


def render_fix(fix: PinFix) -> str:
    if fix.pins is None:
        return f"{fix.case.id} ({fix.case.file}): not rewritten: {fix.problem}"
    return f"{fix.case.id} ({fix.case.file}): " + ", ".join(fix.changes())


def report_pins(console: Console, folder: Path, cases: list[Case], register: Register, *,
                fix: bool, jobs: int) -> int:
    began = time.monotonic()
    profiles = list(register.profiles)
    checks = _checks(console, cases, register, jobs)
    failing = [c for c in checks if not c.holds]
    unpinned = [u for c in checks for u in c.unpinned()]
    over_hand = [o for c in checks if fixable(c.case) for o in c.overpinned()]
    over_generated = [o for c in checks if not fixable(c.case) for o in c.overpinned()]
    for under in unpinned:
        _print(console, under.render())
    if over_generated:
        _print(console, f"generated cases (witnesses, regression snapshots): "
               f"{len({o.case.id for o in over_generated})} pin {len(over_generated)} "
               "reading(s) they pass without; their generators write their pins")
    if failing:
        _print(console, f"{len(failing)} case(s) fail under their own pins from a profile "
               "(`baloot conform` reports them): " + ", ".join(c.case.id for c in failing))
    fixes = plan_fixes(checks, register, profiles, jobs=jobs)
    changing = [f for f in fixes if f.changed]
    unfixable = [f for f in fixes if f.pins is None]
    unpinned_generated = sorted({u.case.id for u in unpinned if not fixable(u.case)})
    planned = {f.case.id: f for f in fixes}
    for over in over_hand:
        plan = planned.get(over.case.id)
        if plan is not None and plan.pins is not None and (
                plan.pins.get(over.variant) != over.pinned):
            _print(console, over.render())
        elif plan is None or plan.filed_under != (over.variant, over.pinned[0]):
            _print(console, f"note: {over.render()}; kept, as the case needs it together "
                   "with another pin (without it, a reading it lets an engine play fails)")
    for item in fixes:
        if item.filed_under is not None:
            variant, reading = item.filed_under
            _print(console, f"note: {item.case.id} ({item.case.file}) is filed under "
                   f"{variant}={reading} but passes under every reading of {variant}: it does "
                   "not tell that reading apart (the pin is kept)")
    for item in unfixable:
        _print(console, render_fix(item))
    if unpinned_generated:
        _print(console, f"{len(unpinned_generated)} generated case(s) leave out a variant they "
               "depend on; regenerate them: " + ", ".join(unpinned_generated))
    bad_alternatives = [line for c in checks for line in c.failing_alternatives()
                        if c.holds]
    for check in checks:
        if check.holds:
            for line in check.failing_alternatives():
                _print(console, f"{check.case.id} ({check.case.file}): {line}")
    if bad_alternatives:
        _print(console, f"{len(bad_alternatives)} alternative(s) do not hold under their pins: "
               "run `baloot conform derive` (derived ones), or fix them by hand")
    status = 1 if unfixable or unpinned_generated or bad_alternatives else 0
    judged = len(cases) - len(failing)
    if cases and not judged:  # a run that checked nothing is no pass
        _print(console, f"none of the {len(cases)} case(s) passes under its own pins, so no "
               "pin was checked: run `baloot conform` on the reference engine to see why")
        status = 1
    if not fix:
        for item in changing:
            _print(console, "would fix " + render_fix(item))
        if changing:
            _print(console, f"{len(changing)} case(s) do not pin exactly what they depend on: "
                   "run `baloot conform pins --fix`, or pin by hand (or make the script hold "
                   "under every reading: a `repeat` or `if_asked` step)")
            status = 1
    else:
        written = apply_fixes(folder, changing, register)
        for item in changing:
            _print(console, "fixed " + render_fix(item))
        for name, count in written.items():
            _print(console, f"rewrote {name}: {count} case(s)")
        if changing and not recheck(console, folder, {f.case.id for f in changing}, register,
                                    jobs):
            status = 1
    if status == 0 and not changing:
        which = (f"{len(cases)} case(s)" if not failing else
                 f"the {judged} case(s) that pass under their own pins")
        _print(console, f"every one of {which} pins the readings it depends on, "
               f"and none pins one it does not (profiles {', '.join(profiles)})")
    _print(console, f"{len(cases)} case(s) checked in {time.monotonic() - began:.1f} s")
    return status


def recheck(console: Console, folder: Path, ids: set[str], register: Register, jobs: int
            ) -> bool:
    """Check the rewritten cases again as read back from their files."""
    pack, problems = lint_pack(folder, register)
    if problems:
        for problem in problems:
            _print(console, f"error {problem}")
        _print(console, "the rewritten pack does not lint clean")
        return False
    cases = [c for c in pack.cases if c.id in ids]
    bad = [c for c in check_cases(cases, register, list(register.profiles), jobs=jobs)
           if not c.holds or c.unpinned()]
    for check in bad:
        _print(console, f"re-check: {check.case.id} still fails: "
               + "; ".join(u.render() for u in check.unpinned()[:3]))
    if not bad and len(cases) == len(ids):
        _print(console, f"re-checked {len(cases)} rewritten case(s): each holds and pins what "
               "it depends on")
        return True
    return False
