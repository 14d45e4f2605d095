"""Normal forms of legal sets, states and results, so that two engines' replies
compare equal whenever the protocol says they mean the same: the order of a
hand, of a legal set and of a project's cards is free, and only the protocol's
fields count.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from typing import Any

from ..protocol.schemas import result_fields, state_fields

STATE_REQUIRED, STATE_OPTIONAL = state_fields()
RESULT_FIELDS = result_fields()
CONTRACT_FIELDS = ("kind", "trump", "bidder")
MISSING = "<missing>"


def action_key(action: str) -> str:
    """An action with a declaration's cards sorted (their order is the engine's)."""
    if not action.startswith("declare "):  # (speed: most actions are no declaration)
        return action
    words = action.split(" ")
    if len(words) > 2:
        return " ".join([*words[:2], *sorted(words[2:])])
    return action


def action_shape(action: str) -> str:
    """What kind of action it is, without its card: `play`, `declare-sira`, `hokum-SUIT`."""
    words = action.split(" ")
    if words[0] == "play":
        return "play"
    if words[0] == "declare":
        return "declare-" + (words[1] if len(words) > 1 else "?")
    if words[0] == "hokum" and len(words) > 1:
        return "hokum-SUIT"
    return "-".join(words)


def normal_legal(reply: dict[str, Any], keep: Iterable[str] | None = None) -> dict[str, Any]:
    """`player` and the sorted actions; with `keep`, only the actions listed there."""
    listed = reply.get("actions") or []
    # an engine's `actions` that is no list is compared as what it is, not iterated
    actions = [str(a) for a in listed] if isinstance(listed, list) else [repr(listed)]
    if keep is not None:
        kept = set(keep)
        actions = [a for a in actions if a in kept]
    return {"player": reply.get("player"), "actions": sorted(action_key(a) for a in actions)}


def _projects(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    return sorted(
        json.dumps(
            {**p, "cards": _sorted(p["cards"]) if isinstance(p.get("cards"), list)
             else p.get("cards", [])} if isinstance(p, dict) else p,
            sort_keys=True,
        )
        for p in value
    )


def _sorted(items: list[Any]) -> list[Any]:
    """A hand in order; an engine's hand of things that do not compare (a number beside a
    card) in the order of their JSON text, so the difference is shown, not a TypeError."""
    try:
        return sorted(items)
    except TypeError:
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))


def normal_state(state: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in fields:
        value = state.get(key, MISSING)
        if key == "hands" and isinstance(value, list):
            value = [_sorted(h) if isinstance(h, list) else h for h in value]
        elif key == "contract" and isinstance(value, dict):
            value = {k: value.get(k) for k in CONTRACT_FIELDS}
        elif key == "declarations":
            value = _projects(value)
        out[key] = value
    return out


def compared_state_fields(actual: dict[str, Any], unsent: Collection[str]) -> list[str]:
    """The required fields, and the optional ones the engine sends, less `unsent`."""
    fields = [*STATE_REQUIRED, *(k for k in STATE_OPTIONAL if k in actual)]
    return [k for k in fields if k not in unsent]


def normal_result(result: Any, unsent: Collection[str] = ()) -> Any:
    if not isinstance(result, dict):
        return result
    out: dict[str, Any] = {}
    for key in RESULT_FIELDS:
        if key in unsent:
            continue
        value = result.get(key, MISSING)
        if key == "contract" and isinstance(value, dict):
            value = {k: value.get(k) for k in CONTRACT_FIELDS}
        elif key == "projects" and isinstance(value, list):
            value = [_projects(team) for team in value]
        out[key] = value
    return out


def protocol_result(result: dict[str, Any]) -> dict[str, Any]:
    """The reference's result cut to the protocol's fields (for a case's expectation)."""
    out = {k: result[k] for k in RESULT_FIELDS if k in result}
    if isinstance(out.get("contract"), dict):
        out["contract"] = {k: out["contract"].get(k) for k in CONTRACT_FIELDS}
    return out


def differing(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    return [k for k in expected if expected[k] != actual.get(k)]
