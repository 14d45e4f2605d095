"""The pack linter (`baloot conform lint`): everything that can be checked
about a case pack without an engine.

- each file is JSON and passes the `case-file` schema, `pack.json` the `pack` schema;
- case ids are unique across the pack;
- every case cites clauses, each a real clause ID;
- every pinned deck is a permutation of the 32 cards;
- every action is well-formed notation, every card string valid;
- every reading a case requires exists in the variant register;
- each alternative (CASES.md) as its case, and reachable: its pins leave the case's own.
"""

from __future__ import annotations

import hashlib
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from . import kept_results
from .clauses import known_clause_ids
from .pack import (
    Case,
    Check,
    IfAsked,
    Pack,
    Problem,
    Repeat,
    Step,
    case_files,
    case_from_json,
    file_label,
    load_case_file,
    load_manifest,
    read_json,
    split_seat,
)
from .protocol_notation import (
    NotationError,
    deck_problems,
    is_card,
    parse_action,
)
from .variants import Register, load_register


def lint_pack(folder: Path, register: Register | None = None) -> tuple[Pack, list[Problem]]:
    """Load and check a pack; the pack holds only the cases without problems. What a
    file's check found is kept between runs (`kept_results`, kind `lint`) under a key of
    the file's bytes, the register, the clause IDs and the linter's code."""
    register = register or load_register()
    problems: list[Problem] = []
    if not folder.is_dir():
        problems.append(Problem(str(folder), "not a folder of case files"))
        return Pack("?", "?", 0, folder, []), problems
    name, version, protocol = load_manifest(folder, problems)
    files = case_files(folder)
    if not files:
        problems.append(Problem(str(folder), "no case files (*.json besides pack.json)"))
    good: list[Case] = []
    first_seen: dict[str, str] = {}
    for path in files:
        label = file_label(folder, path)
        loaded, found = _linted_file(path, label, register)
        problems.extend(found)
        for case_id, case in loaded:
            if case_id in first_seen:
                problems.append(Problem(label, "duplicate id, first used in "
                                        f"{first_seen[case_id]}", case_id, "id"))
                continue
            first_seen[case_id] = label
            if case is not None:
                good.append(case)
    return Pack(name, version, protocol, folder, good), problems


LINT_FORMAT = 2  # of the kept findings of a file


def _linted_file(path: Path, label: str, register: Register
                 ) -> tuple[list[tuple[str, Case | None]], list[Problem]]:
    """The id of each case of one file that follows the schema, with the case when it has
    no problem of its own (None when it has), and the file's problems: kept from an earlier
    run of the same key, or found now."""
    kept = kept_results.cache_folder("lint")
    key = None
    if kept is not None:
        try:
            content = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            content = None
        if content is not None:
            key = kept_results.key_of(str(LINT_FORMAT), _lint_fingerprint(),
                                      kept_results.register_part(register),
                                      ",".join(sorted(known_clause_ids())), label, content)
            data = kept_results.load(kept, key, LINT_FORMAT)
            try:
                if data is not None and (read := _read_back(path, label, data)) is not None:
                    return read, [Problem(*p) for p in data["problems"]]
            except (KeyError, TypeError, ValueError, IndexError):
                pass  # a kept file that does not read as one: linted afresh, and kept again
    problems: list[Problem] = []
    loaded: list[tuple[str, Case | None]] = []
    good: list[dict[str, Any]] = []
    for raw, case in load_case_file(path, problems, label):
        found = lint_case(case, raw, register)
        problems.extend(found)
        loaded.append((case.id, None if found else case))
        if not found:
            good.append(raw)
    if kept is not None and key is not None:
        places = _positions(_case_list(path) or [], good) if good else []
        if places is not None:
            where = iter(places)
            kept_results.store(kept, key, LINT_FORMAT, {
                "loaded": [[case_id, None if case is None else next(where)]
                           for case_id, case in loaded],
                "problems": [[p.file, p.message, p.case, p.where] for p in problems]})
    return loaded, problems


def _read_back(path: Path, label: str, data: dict[str, Any]
               ) -> list[tuple[str, Case | None]] | None:
    """The kept cases of a file, made again from its JSON at the places kept (None when
    the file no longer reads so: it is linted afresh)."""
    places = [at for _, at in data["loaded"] if at is not None]
    raws = _case_list(path) if places else []
    if raws is None or any(at >= len(raws) for at in places):
        return None
    return [(case_id, None if at is None else case_from_json(raws[at], label))
            for case_id, at in data["loaded"]]


def _case_list(path: Path) -> list[Any] | None:
    """The list of cases of a case file, or None when it has none."""
    data = read_json(path, [])
    cases = data.get("cases") if isinstance(data, dict) else None
    return cases if isinstance(cases, list) else None


def _positions(every: list[Any], some: list[dict[str, Any]]) -> list[int] | None:
    """Where each of `some`, a part of `every` in its order, stands in `every` (None when
    one is not there)."""
    found: list[int] = []
    at = 0
    for item in some:
        while at < len(every) and every[at] != item:
            at += 1
        if at == len(every):
            return None
        found.append(at)
        at += 1
    return found


@cache
def _lint_fingerprint() -> str:
    schema = Path(__file__).parent.parent / "schema"
    return kept_results.source_fingerprint([Path(__file__)],
                                           files=tuple(sorted(schema.glob("*.json"))))


def lint_case(case: Case, raw: dict[str, Any], register: Register) -> list[Problem]:
    found: list[Problem] = []

    def problem(where: str, message: str) -> None:
        found.append(Problem(case.file, message, case.id, where))

    known = known_clause_ids()
    for index, clause in enumerate(case.clauses):
        if clause not in known:
            problem(
                f"clauses[{index}]", f"{clause!r} is not a clause ID of the rules (e.g. SCORE.7)"
            )
    if len(set(case.clauses)) != len(case.clauses):
        problem("clauses", "a clause is cited twice")
    _lint_pins(case.pins, "requires", register, problem)
    for message in deck_problems(case.deck):
        problem("setup.deck", message)
    _lint_steps(case.actions, "actions", problem)
    for index, script in enumerate(case.then):
        for message in deck_problems(script.deck):
            problem(f"then[{index}].deck", message)
        _lint_steps(script.actions, f"then[{index}].actions", problem)
    expect = case.expect
    if case.kind == "legal":
        for index, action in enumerate(expect.get("actions", [])):
            _lint_action(action, f"expect.actions[{index}]", problem)
        if len(set(expect.get("actions", []))) != len(expect.get("actions", [])):
            problem("expect.actions", "an action is listed twice")
    if case.kind == "illegal":
        _lint_action(expect["action"], "expect.action", problem)
    _lint_cards_in(expect, "expect", problem)
    for index in range(len(case.alternatives)):
        _lint_alternative(case, index, register, problem)
    return found


def _lint_pins(pins: dict[str, tuple[str, ...]], where: str, register: Register,
               problem: Any) -> None:
    for variant, readings in pins.items():
        info = register.variants.get(variant)
        if info is None:
            by_id = register.variant(variant)
            hint = f" (did you mean {by_id.name!r}?)" if by_id else ""
            problem(f"{where}.{variant}", f"no variant named {variant!r}{hint}")
            continue
        for reading in readings:
            if reading not in info.readings:
                problem(
                    f"{where}.{variant}",
                    f"variant {variant} has no reading {reading!r}; expected one of "
                    + ", ".join(info.readings),
                )
        if len(set(readings)) != len(readings):
            problem(f"{where}.{variant}", "a reading is listed twice")
        # A pin listing every reading skips no engine: it only says which reading an engine
        # that implements several plays the case under (the first listed; CASES.md).


def _lint_alternative(case: Case, index: int, register: Register, problem: Any) -> None:
    """An alternative's pins, script and expectation, as the case's own; and it must be
    reachable: an engine implementing its pins must not implement the case's own."""
    alt = case.alternatives[index]
    at = f"alternatives[{index}]"
    _lint_pins(alt.requires, f"{at}.requires", register, problem)
    own = case.pins
    if all(v in alt.requires and set(alt.requires[v]) <= set(r) for v, r in own.items()):
        problem(f"{at}.requires", "every reading it pins is one the case's own pins allow: "
                "a runner always plays the case's own expectation there, never this one")
    if alt.actions is not None:
        _lint_steps(alt.actions, f"{at}.actions", problem)
    for round_index, script in enumerate(alt.then or ()):
        for message in deck_problems(script.deck):
            problem(f"{at}.then[{round_index}].deck", message)
        _lint_steps(script.actions, f"{at}.then[{round_index}].actions", problem)
    if alt.then is not None and len(alt.then) != len(case.then):
        problem(f"{at}.then", f"{len(alt.then)} round(s) where the case plays {len(case.then)}")
    if alt.expect is not None:
        if case.kind == "legal":
            actions = alt.expect.get("actions", [])
            for i, action in enumerate(actions):
                _lint_action(action, f"{at}.expect.actions[{i}]", problem)
            if len(set(actions)) != len(actions):
                problem(f"{at}.expect.actions", "an action is listed twice")
        if case.kind == "illegal":
            _lint_action(alt.expect["action"], f"{at}.expect.action", problem)
        _lint_cards_in(alt.expect, f"{at}.expect", problem)


def _lint_steps(steps: list[Step], where: str, problem: Any) -> None:
    for index, step in enumerate(steps):
        if isinstance(step, Check):
            for i, action in enumerate(step.expected.get("actions", [])):
                if (message := action_problem(action)) is not None:
                    problem(f"{where}[{index}].expect_legal.actions[{i}]", message)
            _lint_cards_in(step.expected, f"{where}[{index}].expect_{step.what}", problem)
            continue
        if isinstance(step, Repeat | IfAsked):
            if (message := action_problem(step.action)) is not None:
                suffix = ".if_asked" if isinstance(step, IfAsked) else ""
                problem(f"{where}[{index}]{suffix}", message)
            continue
        seat, action = split_seat(step)
        if seat is None:
            problem(f"{where}[{index}]", f"{step!r} names no seat: write it as 'SEAT: {step}'")
        if (message := action_problem(action)) is not None:
            problem(f"{where}[{index}]", message)


def _lint_action(action: str, where: str, problem: Any) -> None:
    if (message := action_problem(action)) is not None:
        problem(where, message)


@lru_cache(maxsize=8192)
def action_problem(action: str) -> str | None:
    """What is wrong with an action string (`parse_action`'s message), or None. A pack
    names a few thousand actions a hundred thousand times: each is parsed once."""
    try:
        parse_action(action)
    except NotationError as exc:
        return str(exc)
    return None


_CARD_FIELDS = {"card", "face_up"}


def _lint_cards_in(value: Any, where: str, problem: Any,
                   at: tuple[str | int, ...] = ()) -> None:
    """Card strings inside expectations (fields named card, face_up, cards, hands). A
    place's path is spelled out only where a problem is found."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _CARD_FIELDS and isinstance(item, str):
                if not is_card(item):
                    problem(_path(where, (*at, key)),
                            f"{item!r} is not a card (rank 7 8 9 10 J Q K A, then S H D C)")
            elif key in ("cards", "hands"):
                _lint_card_list(item, _path(where, (*at, key)), problem)
            elif isinstance(item, dict | list):
                _lint_cards_in(item, where, problem, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict | list):
                _lint_cards_in(item, where, problem, (*at, index))


def _path(where: str, at: tuple[str | int, ...]) -> str:
    return where + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in at)


def _lint_card_list(value: Any, where: str, problem: Any) -> None:
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, list):
                _lint_card_list(item, f"{where}[{index}]", problem)
            elif not (isinstance(item, str) and is_card(item)):
                problem(f"{where}[{index}]", f"{item!r} is not a card")
