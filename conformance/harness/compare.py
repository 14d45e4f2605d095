"""Comparing what a case expects with what the engine said.

Expectations are subsets: a dict in a case names only the fields it checks,
recursively; lists are compared whole. Both sides are compared in the
protocol's normal form (`protocol/normal_form.py`, read from the schemas): the
lists whose order is free (`x-order`: a hand, a legal set, a project's cards,
the declarations, each team's projects) sorted, the fields an engine adds
dropped, and the optional fields it leaves out unchecked.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from ..protocol.normal_form import STATE, canonical, normal, subset_comparable, unsent

_MISSING = "<missing>"


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


def without_unsent(expected: dict[str, Any], sent: Any, where: str = STATE) -> dict[str, Any]:
    """The expectation without the optional fields the engine did not send, at any depth:
    the protocol lets an engine leave them out, so they cannot be checked (a field it
    sends is checked). `where` names the schema of both (`state`, `result`)."""
    kept: dict[str, Any] = normal(expected, where, unsent(sent, where), order=False)
    return kept


def subset_matches(actual: Any, expected: Any, where: str | None = None) -> bool:
    """Whether `actual` has what `expected` names, both in the protocol's normal form
    (`protocol/normal_form.py`) of `where` (`state`, `result`): extra fields and free
    orders ignored, and the optional fields the engine did not send unchecked. Without
    `where`, the free orders of every field the schemas name are ignored, nothing else."""
    if where is None:
        return bool(canonical(project_onto(actual, expected)) == canonical(expected))
    sent, wanted = subset_comparable(actual, expected, where)
    return bool(normal(project_onto(sent, wanted), where) == normal(wanted, where))


def render_diff(expected: Any, actual: Any) -> str:
    """A unified diff, expected first, of the two values as indented JSON."""
    left = json.dumps(canonical(expected), indent=2, sort_keys=True).splitlines()
    right = json.dumps(canonical(actual), indent=2, sort_keys=True).splitlines()
    return "\n".join(difflib.unified_diff(left, right, "expected", "actual", lineterm="", n=2))
