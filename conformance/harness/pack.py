"""The case pack: its manifest, its case files, and the case model.

A pack is a folder with `pack.json` (name, version, protocol) and any number
of `*.json` case files, each `{"cases": [...]}` (schema `case-file`); the
built-in pack also holds the spec's register (`REGISTER_FILE`). The
default pack is `conformance/cases/`. Loading never raises on bad data: it
returns the problems found, each naming the file, the case and the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from ..protocol.schemas import schema_errors
from .json_input import strict_json


@dataclass(frozen=True)
class Repeat:
    """Apply `action` while the phase is `while_phase` (at most `max` times)."""

    action: str
    while_phase: str
    max: int = 8


@dataclass(frozen=True)
class Check:
    """A check between two actions: `what` is legal, state or result; `expected`
    the legal set ({"player", "actions"}) or a subset of the state or result."""

    what: str
    expected: dict[str, Any]


@dataclass(frozen=True)
class IfAsked:
    """A turn where `seat` can only pass (or make the one forced call `action`): applied
    when the engine asks that seat, skipped when the engine does not ask pass-only turns."""

    seat: int
    action: str
    # taken only in this phase, when given: a pass-only bidding turn that comes just
    # before the raising, where an engine that skips it asks the same seat to raise
    phase: str | None = None


# A scripted action names the seat that must act: "0: hokum", "3: play 10S".
Step = str | Repeat | Check | IfAsked

_SEATED = re.compile(r"^([0-3]): (.+)$")


def split_seat(step: str) -> tuple[int | None, str]:
    """"2: play 10S" -> (2, "play 10S"); an action without a seat -> (None, action)."""
    match = _SEATED.match(step)
    if match is None:
        return None, step
    return int(match.group(1)), match.group(2)


def seated(seat: int, action: str) -> str:
    """(2, "play 10S") -> "2: play 10S"."""
    return f"{seat}: {action}"

HAND_WORKED, REGRESSION_SNAPSHOT, WITNESS = "hand_worked", "regression_snapshot", "witness"
# Found by a seeded search on the reference where a spec mutant differs from it
# (`baloot conform mutants --spec --write-cases`), explained from the rules in `working`.
SYNTHESISED = "synthesised"
# The origin of an alternative expectation recorded from the reference engine
# (`baloot conform derive`); a hand-worked one is `HAND_WORKED`.
DERIVED = "derived"


@dataclass(frozen=True)
class RoundScript:
    deck: list[str]
    actions: list[Step]
    result: dict[str, Any] | None = None  # expected result after this round (subset)


@dataclass(frozen=True)
class Alternative:
    """A case's expectation under other readings of the variants it pins (CASES.md,
    "Alternatives"): its own pins, and the parts of the case it replaces (None: the
    case's own)."""

    requires: dict[str, tuple[str, ...]]  # variant -> every reading it holds under
    origin: str = DERIVED  # derived (recorded from the reference) or hand_worked
    actions: list[Step] | None = None
    expect: dict[str, Any] | None = None
    then: list[RoundScript] | None = None
    capabilities: tuple[str, ...] | None = None
    # played to the end of `actions` and no further: no `then`, no check of the kind
    # (CASES.md: where the readings part ways with the case's script)
    script_only: bool = False

    def describe(self) -> str:
        """`variant=reading, variant=a|b`: the readings it is for."""
        return ", ".join(f"{v}={'|'.join(r)}" for v, r in self.requires.items())


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # legal, illegal, trick, round, game
    title: str
    clauses: list[str]
    requires: dict[str, str]  # variant -> the (first) reading the case pins
    dealer: int
    deck: list[str]
    totals: list[int] | None
    actions: list[Step]
    expect: dict[str, Any]
    then: list[RoundScript] = field(default_factory=list)
    working: list[str] = field(default_factory=list)
    file: str = ""
    note: str = ""
    origin: str = HAND_WORKED  # hand_worked, regression_snapshot or witness
    capabilities: tuple[str, ...] = ()  # the parts of the game the case needs (declared.py)
    # variant -> the readings a case pins besides its `requires` one, when it holds under
    # several (`"requires": {"kaboot": ["flat_44", "sun_44_hokum_25"]}`)
    also_holds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the expectations under other readings of the pinned variants, in the order a runner
    # tries them when the engine does not implement the case's own pins
    alternatives: tuple[Alternative, ...] = ()
    # an alternative that stops where its readings part ways with the script: the runner
    # plays `actions` alone, with no further rounds and no check of the kind
    script_only: bool = False

    def alternative(self, index: int) -> Case:
        """The case as its alternative `index` plays it: that alternative's pins, script,
        expectation and capabilities; no alternatives of its own."""
        alt = self.alternatives[index]
        return replace(
            self,
            requires={v: r[0] for v, r in alt.requires.items()},
            also_holds={v: r[1:] for v, r in alt.requires.items() if len(r) > 1},
            actions=self.actions if alt.actions is None else alt.actions,
            expect=self.expect if alt.expect is None else alt.expect,
            then=self.then if alt.then is None else alt.then,
            capabilities=self.capabilities if alt.capabilities is None else alt.capabilities,
            alternatives=(),
            script_only=alt.script_only,
        )

    @property
    def pins(self) -> dict[str, tuple[str, ...]]:
        """Variant -> every reading the case holds under, its `requires` reading first."""
        return {
            variant: (reading, *(r for r in self.also_holds.get(variant, ()) if r != reading))
            for variant, reading in self.requires.items()
        }


@dataclass(frozen=True)
class Problem:
    file: str
    message: str
    case: str | None = None
    where: str | None = None  # the field, e.g. setup.deck

    def __str__(self) -> str:
        parts = [self.file]
        if self.case:
            parts.append(f"case {self.case!r}")
        if self.where:
            parts.append(self.where)
        return ": ".join([*parts, self.message])


@dataclass
class Pack:
    name: str
    version: str
    protocol: int
    folder: Path
    cases: list[Case]


# The spec's clause list and variant register, which `baloot gen` writes into the
# built-in pack (`spec_register.py` reads it): data beside the cases, not a case file.
REGISTER_FILE = "spec-register.json"


def default_pack_folder() -> Path:
    return Path(str(resources.files("baloot.conformance") / "cases"))


def read_json(path: Path, problems: list[Problem]) -> Any:
    """The JSON in `path`, or None with a problem naming line and column (or the byte)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        problems.append(Problem(str(path), f"cannot read: {exc.strerror or exc}"))
        return None
    except UnicodeDecodeError as exc:
        problems.append(Problem(str(path), f"not UTF-8 text: byte {exc.start} cannot be read"))
        return None
    try:
        return strict_json(text)  # no NaN, no 1e400, no recursion past the decoder's depth
    except json.JSONDecodeError as exc:
        problems.append(
            Problem(
                str(path), f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            )
        )
        return None
    except ValueError as exc:
        message = str(exc)
        problems.append(Problem(str(path), message if message.startswith("nested") else
                                f"not valid JSON: {message}"))
        return None


def fractions(value: Any) -> Iterator[str]:
    """A pack holds whole numbers only (seats, totals, counts): JSON Schema takes 1.0 for
    the integer 1, the runner does not, so every number written with a fraction or an
    exponent is a problem at its place (a place's path is spelled out only there)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, at = stack.pop()
        if isinstance(item, float):
            hint = f" (write {item:.0f})" if item.is_integer() else ""
            place = "/".join(map(str, at)) or "(top)"
            yield f"at {place}: {item!r} is not a whole number{hint}"
        elif isinstance(item, dict):
            stack.extend((v, (*at, k)) for k, v in item.items() if isinstance(v, _NESTED))
        elif isinstance(item, list):
            stack.extend((v, (*at, i)) for i, v in enumerate(item) if isinstance(v, _NESTED))


_NESTED = (dict, list, float)  # what `fractions` looks into or reports


def _step(raw: Any) -> Step:
    if isinstance(raw, str):
        return raw
    if "repeat" in raw:
        return Repeat(raw["repeat"], raw["while_phase"], raw.get("max", 8))
    if "if_asked" in raw:
        seat, action = split_seat(raw["if_asked"])
        return IfAsked(seat if seat is not None else -1, action, raw.get("phase"))
    ((key, expected),) = raw.items()
    return Check(key.removeprefix("expect_"), dict(expected))


def pin_readings(pinned: str | Sequence[str]) -> tuple[str, ...]:
    """A pin's readings: one reading, or a list of them."""
    return (pinned,) if isinstance(pinned, str) else tuple(pinned)


def _rounds(raw: list[dict[str, Any]]) -> list[RoundScript]:
    return [RoundScript(list(r["deck"]), [_step(s) for s in r["actions"]], r.get("result"))
            for r in raw]


def alternative_from_json(raw: dict[str, Any]) -> Alternative:
    """Build an Alternative from a dict that has passed the case-file schema."""
    return Alternative(
        requires={v: pin_readings(r) for v, r in raw["requires"].items()},
        origin=raw["origin"],
        actions=[_step(s) for s in raw["actions"]] if "actions" in raw else None,
        expect=dict(raw["expect"]) if "expect" in raw else None,
        then=_rounds(raw["then"]) if "then" in raw else None,
        capabilities=tuple(raw["capabilities"]) if "capabilities" in raw else None,
        script_only=raw.get("script_only", False),
    )


def case_from_json(raw: dict[str, Any], file: str) -> Case:
    """Build a Case from a dict that has passed the case-file schema."""
    setup = raw["setup"]
    return Case(
        id=raw["id"],
        kind=raw["kind"],
        title=raw["title"],
        clauses=list(raw["clauses"]),
        requires={v: pin_readings(r)[0] for v, r in raw.get("requires", {}).items()},
        also_holds={v: pin_readings(r)[1:] for v, r in raw.get("requires", {}).items()},
        dealer=setup["dealer"],
        deck=list(setup["deck"]),
        totals=list(setup["totals"]) if "totals" in setup else None,
        actions=[_step(s) for s in raw["actions"]],
        expect=dict(raw["expect"]),
        then=_rounds(raw.get("then", [])),
        working=list(raw.get("working", [])),
        file=file,
        note=raw.get("note", ""),
        origin=raw.get("origin", HAND_WORKED),
        capabilities=tuple(raw.get("capabilities", ())),
        alternatives=tuple(alternative_from_json(a) for a in raw.get("alternatives", ())),
        script_only=raw.get("script_only", False),
    )


# A case's JSON text -> its problems: a process that loads the pack again (`baloot suite`
# runs several commands that each load it, a test session loads it many times) checks
# each unchanged case against the schema once. Bounded: emptied when it grows past this.
_CHECKED_CASES: dict[str, tuple[str, ...]] = {}
CHECKED_CASES_KEPT = 20_000


def case_errors(raw: Any) -> tuple[str, ...]:
    """Every way one case breaks the case-file schema, or has a number with a fraction."""
    try:
        key = json.dumps(raw, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON data (a caller's own object): no key
        key = None
    if key is not None and key in _CHECKED_CASES:
        return _CHECKED_CASES[key]
    errors = tuple(schema_errors("case-file", {"cases": [raw]}) or fractions(raw))
    if key is not None:
        if len(_CHECKED_CASES) >= CHECKED_CASES_KEPT:
            _CHECKED_CASES.clear()
        _CHECKED_CASES[key] = errors
    return errors


def load_case_file(
    path: Path, problems: list[Problem], name: str | None = None
) -> list[tuple[dict[str, Any], Case]]:
    """The cases of one file that pass the schema; problems for the rest.

    `name` is how reports name the file (default: its file name; the pack
    loader passes the path inside the pack, e.g. variants/rounding/each_team.json).
    """
    before = len(problems)
    data = read_json(path, problems)
    name = name or path.name
    if data is None and len(problems) > before:
        return []
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        problems.append(Problem(name, 'expected an object {"cases": [...]}'))
        return []
    # Whole-file problems outside the case list.
    top = {k: v for k, v in data.items() if k != "cases"}
    for message in schema_errors("case-file", {**top, "cases": []}) or list(fractions(top)):
        problems.append(Problem(name, message))
    loaded: list[tuple[dict[str, Any], Case]] = []
    for index, raw in enumerate(data["cases"]):
        label = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
        case_name = label or f"#{index + 1}"
        errors = case_errors(raw)
        if errors:
            for message in errors:
                problems.append(
                    Problem(
                        name,
                        message.replace("at cases/0/", "at ", 1).replace(
                            "at cases/0:", "at (case):", 1
                        ),
                        case_name,
                    )
                )
            continue
        loaded.append((raw, case_from_json(raw, name)))
    return loaded


def load_manifest(folder: Path, problems: list[Problem]) -> tuple[str, str, int]:
    path = folder / "pack.json"
    if not path.exists():
        problems.append(
            Problem(str(path), "missing: a pack needs pack.json (name, version, protocol)")
        )
        return ("?", "?", 0)
    data = read_json(path, problems)
    if data is None:
        return ("?", "?", 0)
    errors = schema_errors("pack", data) or list(fractions(data))
    for message in errors:
        problems.append(Problem("pack.json", message))
    if errors:
        return ("?", "?", 0)
    return (data["name"], data["version"], data["protocol"])


def case_files(folder: Path) -> list[Path]:
    """Every case file of a pack: `*.json` at any depth, but the top `pack.json` and
    `spec-register.json`."""
    top = (folder / "pack.json", folder / REGISTER_FILE)
    return sorted(p for p in folder.rglob("*.json") if p not in top)


def file_label(folder: Path, path: Path) -> str:
    """A case file's name inside its pack, with forward slashes."""
    return path.relative_to(folder).as_posix()
