"""The fuzzer's comparisons, in the protocol's normal form (`protocol/normal_form.py`,
read from the schemas): two engines' replies compare equal whenever the protocol says
they mean the same (a free order, such as a hand's or a legal set's, sorted; the fields
an engine adds dropped at any depth; an optional field compared only when both send
it). On top of it, what only the fuzzer needs: a declaration's cards in any order when
an action is matched, the legal set cut to the actions the reference offers, and the
fields of a state or result kept in turn, with `MISSING` for one not sent.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from ..harness.protocol_notation import action_key
from ..protocol import normal_form
from ..protocol.fields import protocol_fields, result_fields, state_fields
from ..protocol.normal_form import RESULT, STATE, normal

STATE_REQUIRED, STATE_OPTIONAL = state_fields()
RESULT_FIELDS = result_fields()
MISSING = "<missing>"


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
    legal = normal_form.normal_legal({**reply, "actions": [action_key(a) for a in actions]})
    return {"player": legal["player"], "actions": legal["actions"]}


def normal_state(state: dict[str, Any], fields: Iterable[str],
                 drop: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The state's `fields` in the normal form, `MISSING` for one not sent (or dropped:
    `drop` holds the paths of optional fields, `/bids`, `/contract/ashkal`, not to
    compare)."""
    whole = normal(state, STATE, drop)
    return {key: whole.get(key, MISSING) for key in fields}


def normal_states(expected: dict[str, Any], actual: dict[str, Any],
                  fields: Iterable[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two states' `fields` in the normal form, each optional field, at any depth, kept
    only where both send it."""
    keys = list(fields)
    drop = normal_form.unsent(expected, STATE) | normal_form.unsent(actual, STATE)
    return normal_state(expected, keys, drop), normal_state(actual, keys, drop)


def compared_state_fields(actual: dict[str, Any], unsent: Collection[str]) -> list[str]:
    """The required fields, and the optional ones the engine sends, less `unsent`."""
    fields = [*STATE_REQUIRED, *(k for k in STATE_OPTIONAL if k in actual)]
    return [k for k in fields if k not in unsent]


def normal_result(result: Any, unsent_fields: Collection[str] = (),
                  drop: frozenset[str] = frozenset()) -> Any:
    """The result's fields but `unsent_fields` in the normal form, `MISSING` for one not
    sent; a result that is no object (null) as it is."""
    if not isinstance(result, dict):
        return result
    whole = normal(result, RESULT, drop)
    return {key: whole.get(key, MISSING) for key in RESULT_FIELDS if key not in unsent_fields}


def normal_results(expected: Any, actual: Any, unsent_fields: Collection[str] = ()
                   ) -> tuple[Any, Any]:
    """Two results in the normal form, each optional field kept only where both send it."""
    drop = normal_form.unsent(expected, RESULT) | normal_form.unsent(actual, RESULT)
    return (normal_result(expected, unsent_fields, drop),
            normal_result(actual, unsent_fields, drop))


def protocol_result(result: dict[str, Any]) -> dict[str, Any]:
    """The reference's result cut to the protocol's fields (for a case's expectation), in
    the schema's order, the contract without its optional fields."""
    contract_optional = protocol_fields().contract.optional
    cut = normal(result, RESULT, frozenset(f"/contract/{name}" for name in contract_optional),
                 order=False)
    return {k: cut[k] for k in RESULT_FIELDS if k in cut}


def differing(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    return [k for k in expected if expected[k] != actual.get(k)]
