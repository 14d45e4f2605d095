"""Comparing what a case expects with what the engine said.

Expectations are subsets: a dict in a case names only the fields it checks,
recursively; lists are compared whole. A few lists are sets by nature and
are compared without order: legal actions, each team's projects, the cards
of a project, and each seat's hand.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

_MISSING = "<missing>"
_UNORDERED_KEYS = {"projects", "hands"}  # lists of per-team (per-seat) lists, inner order free
_SET_KEYS = {"cards"}  # flat lists whose order is free (a project's cards)


def project_onto(actual: Any, expected: Any) -> Any:
    """`actual` cut down to the shape of `expected`, so the two can be diffed. Fields an
    engine adds (at any depth, list items included) are left out: the protocol allows them."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return actual
        return {
            k: project_onto(actual[k], v) if k in actual else _MISSING for k, v in expected.items()
        }
    if isinstance(expected, list) and isinstance(actual, list):
        shapes = [item for item in expected if isinstance(item, dict | list)]
        if not shapes:
            return actual
        return [_project_item(item, shapes) for item in actual]
    return actual


def _project_item(item: Any, shapes: list[Any]) -> Any:
    """A list item cut down to the fields any expected item of its list has."""
    if isinstance(item, dict):
        keys = {k for shape in shapes if isinstance(shape, dict) for k in shape}
        return {k: v for k, v in item.items() if k in keys}
    if isinstance(item, list):
        inner = [x for shape in shapes if isinstance(shape, list) for x in shape]
        return project_onto(item, inner) if inner else item
    return item


def _canonical(value: Any, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {k: _canonical(v, k) for k, v in value.items()}
    if isinstance(value, list):
        items = [_canonical(v) for v in value]
        if key in _SET_KEYS:
            return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
        if key in _UNORDERED_KEYS:
            return [
                sorted(team, key=lambda p: json.dumps(p, sort_keys=True))
                if isinstance(team, list)
                else team
                for team in items
            ]
        return items
    return value


def without_unsent(expected: dict[str, Any], state: dict[str, Any],
                   optional: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    """The expected state without the optional fields the engine did not send: the protocol
    lets an engine leave them out, so they cannot be checked (a field it sends is checked).
    `optional` maps "" to the state's optional fields, and a field to those of its object."""
    kept: dict[str, Any] = {}
    for key, value in expected.items():
        if key not in state and key in optional.get("", ()):
            continue
        inner = state.get(key)
        if isinstance(value, dict) and isinstance(inner, dict) and key in optional:
            value = {k: v for k, v in value.items() if k in inner or k not in optional[key]}
        kept[key] = value
    return kept


def subset_matches(actual: Any, expected: Any) -> bool:
    return bool(_canonical(project_onto(actual, expected)) == _canonical(expected))


def render_diff(expected: Any, actual: Any) -> str:
    """A unified diff, expected first, of the two values as indented JSON."""
    left = json.dumps(_canonical(expected), indent=2, sort_keys=True).splitlines()
    right = json.dumps(_canonical(actual), indent=2, sort_keys=True).splitlines()
    return "\n".join(difflib.unified_diff(left, right, "expected", "actual", lineterm="", n=2))
