"""The quick look at a case file (fastjsonschema) gives the full validator's verdict
(jsonschema) on every case of the pack and on many broken ones: it never accepts what
the full validator refuses, nor refuses what it accepts."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import fastjsonschema
import pytest

from baloot.conformance.harness.pack import case_files, default_pack_folder
from baloot.conformance.protocol.schemas import _quick, schema_errors, schema_names, validator

WRONG_VALUES: tuple[Any, ...] = (None, True, 1, 1.5, -3, "", "x", [], [1], {}, {"a": 1})


def _quick_accepts(name: str, instance: Any) -> bool:
    quick = _quick(name)
    assert quick is not None, name
    try:
        quick(instance)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True


def _full_accepts(name: str, instance: Any) -> bool:
    return next(iter(validator(name).iter_errors(instance)), None) is None


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    out = copy.deepcopy(value)
    if not path:
        return new
    holder = out
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = new
    return out


def _dropped(value: Any, path: tuple[Any, ...]) -> Any:
    out = copy.deepcopy(value)
    holder = out
    for key in path[:-1]:
        holder = holder[key]
    del holder[path[-1]]
    return out


def _trimmed(case: dict[str, Any]) -> dict[str, Any]:
    """The case with its first two alternatives only: one alternative is read by the same
    schema as the next, and the full validator takes far longer on a witness case's
    dozen."""
    if "alternatives" not in case:
        return case
    return {**case, "alternatives": case["alternatives"][:2]}


def _broken_files(rng: random.Random) -> Iterator[dict[str, Any]]:
    files = case_files(default_pack_folder())
    for index, path in enumerate(files):
        if index % 3:  # a third of the files broken, every file whole
            yield json.loads(path.read_text(encoding="utf-8"))
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        yield data
        cases = data["cases"]
        for case in rng.sample(cases, min(4, len(cases))):
            one = {"cases": [_trimmed(case)]}
            places = [p for p in _places(one) if len(p) > 2]
            for place in rng.sample(places, min(12, len(places))):
                yield _set(one, place, rng.choice(WRONG_VALUES))
                yield _dropped(one, place)
            yield _set(one, ("cases", 0, "unknown_field"), 1)


def test_the_quick_look_and_the_full_validator_agree_on_cases_whole_and_broken() -> None:
    rng = random.Random(7)
    seen = {True: 0, False: 0}
    for instance in _broken_files(rng):
        quick, full = _quick_accepts("case-file", instance), _full_accepts("case-file", instance)
        assert quick == full, json.dumps(instance)[:400]
        seen[full] += 1
    assert seen[True] > 100 and seen[False] > 300, seen


def test_the_case_file_schema_compiles_for_the_quick_look() -> None:
    assert _quick("case-file") is not None and _quick("pack") is not None


@pytest.mark.parametrize("name", schema_names())
def test_the_quick_look_agrees_on_protocol_messages(name: str) -> None:
    if _quick(name) is None:
        pytest.skip(f"{name}: the quick look cannot compile it; the full validator alone looks")
    for value in (*WRONG_VALUES, {"seq": 1, "ok": True}, {"seq": 1, "ok": False},
                  {"seq": 1, "ok": True, "state": {}}, {"seq": 1, "ok": True, "actions": []}):
        assert _quick_accepts(name, value) == _full_accepts(name, value), (name, value)


def test_an_invalid_case_still_gets_every_place_named() -> None:
    errors = schema_errors("case-file", {"cases": [{"id": 3}]})
    assert errors and all(e.startswith("at ") for e in errors)
    assert any("cases/0" in e for e in errors)
