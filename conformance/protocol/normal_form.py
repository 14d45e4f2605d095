"""The protocol's normal form: what two replies are compared as, so that they compare
equal whenever PROTOCOL.md says they mean the same.

The freedoms PROTOCOL.md grants an engine, and where the schemas carry each:

- **extra fields**, at any depth of a reply: an object keeps only the properties its
  schema names (a map, `additionalProperties` with a schema, keeps every key);
- **free orders**: an array whose schema says `"x-order": "free"` (a hand's cards, a
  legal set, a project's cards, the declarations, each team's projects) is sorted;
- **optional fields**: a property left out of `required` is compared only when both
  sides send it (`comparable`), or, against a case's expectation, when the engine sends
  it (`subset_comparable`): wherever one side leaves it out, at any depth, it is dropped
  from both.

All of it is read from the schemas (`schema_source`), once per folder; a new freedom
is an edit of a schema (an `x-order`, a property, a `required` list), not of this
module. The runner's checks (`harness/runner.py`, `harness/compare.py`) and the
fuzzer's (`fuzz/normal.py`) both compare these normal forms.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from . import schema_source

FREE = "free"  # the value of `x-order` on an array whose order carries no meaning
ITEM = "*"  # a path's step into an array's items or a map's values
Path = str  # "/hands/*", "/contract/ashkal": property names and ITEMs, from the object

# The objects a comparison reads, by name: `common.json`'s definitions, and the replies.
STATE, RESULT, LEGAL = "state", "result", "legal.reply"
# The replies whose contents the runner or the fuzzer compares (their freedoms matter).
COMPARED_REPLIES = ("state.reply", "result.reply", "legal.reply", "apply.reply")
# A reply's own bookkeeping: two replies to two requests differ in it by design.
_BOOKKEEPING = ("seq",)


@dataclass
class Shape:
    """What the schemas say of one place in a reply, for its normal form."""

    properties: dict[str, Shape] | None = None  # an object's fields; None: no object schema
    required: frozenset[str] = frozenset()
    values: Shape | None = None  # an open map's values (`additionalProperties` a schema)
    closed: bool = False  # `additionalProperties: false`: no extra field is allowed
    items: Shape | None = None  # an array's items; None: no array schema
    free_order: bool = False  # `x-order: free`

    def merge(self, other: Shape) -> None:
        """Take in a branch of a `oneOf` / `anyOf` / `allOf` (a field null or an object)."""
        if other.properties is not None:
            self.properties = {**(self.properties or {}), **other.properties}
            self.required |= other.required
            self.closed = self.closed or other.closed
        self.values = self.values or other.values
        self.items = self.items or other.items
        self.free_order = self.free_order or other.free_order


# ---- the shapes, read from the schemas ------------------------------------------------


def shape(name: str) -> Shape:
    """The shape of `name`: a schema (`legal.reply`) or a definition of `common.json`
    (`state`, `result`, `contract`, `project`)."""
    return _shapes(schema_source.folder())[name]


@cache
def _shapes(folder: str) -> dict[str, Shape]:
    schemas = schema_source.loaded()
    built = _Builder(schemas)
    out = {name: built.of(schema, name) for name, schema in schemas.items()}
    for name, definition in schemas["common"].get("$defs", {}).items():
        out.setdefault(name, built.of(definition, "common"))
    return out


@dataclass
class _Builder:
    schemas: Mapping[str, Any]
    _done: dict[tuple[str, str], Shape] = field(default_factory=dict)

    def of(self, node: Any, doc: str) -> Shape:
        out = Shape()
        if not isinstance(node, dict):
            return out
        ref = node.get("$ref")
        if isinstance(ref, str):
            out.merge(self._ref(ref, doc))
            doc = ref.split("#")[0].removeprefix("urn:baloot:conformance:") or doc
        for keyword in ("oneOf", "anyOf", "allOf"):
            for branch in node.get(keyword, ()):
                out.merge(self.of(branch, doc))
        if "properties" in node or node.get("type") == "object":
            out.merge(Shape(
                properties={k: self.of(v, doc) for k, v in node.get("properties", {}).items()},
                required=frozenset(node.get("required", ())),
                closed=node.get("additionalProperties") is False,
            ))
        then = node.get("then")
        if isinstance(then, dict) and out.properties is not None:
            # a field a condition requires (`refused`, when `ok` is false) is there whenever
            # it means anything: not one an engine may leave out
            out.required |= frozenset(then.get("required", ()))
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            out.values = self.of(extra, doc)
        if isinstance(node.get("items"), dict):
            out.items = self.of(node["items"], doc)
        out.free_order = out.free_order or node.get("x-order") == FREE
        return out

    def _ref(self, ref: str, doc: str) -> Shape:
        where, _, pointer = ref.partition("#")
        target_doc = where.removeprefix("urn:baloot:conformance:") or doc
        key = (target_doc, pointer)
        if key not in self._done:
            self._done[key] = Shape()  # (a schema that refers to itself stops here)
            node: Any = self.schemas[target_doc]
            for step in (s for s in pointer.split("/") if s):
                node = node[step]
            self._done[key] = self.of(node, target_doc)
        return self._done[key]


# ---- the normal form -----------------------------------------------------------------


def normal(value: Any, where: Shape | str, drop: frozenset[Path] = frozenset(),
           *, order: bool = True) -> Any:
    """`value` in the normal form of `where` (a `Shape` or a name for `shape`): extra
    fields dropped at every depth, the fields at the paths of `drop` too, and (`order`)
    every free-order array sorted. A value the schema does not expect there (a number
    for an object) is kept as it is, so that a difference in it shows."""
    return _normal(value, shape(where) if isinstance(where, str) else where, drop, "", order)


def _normal(value: Any, at: Shape, drop: frozenset[Path], path: Path, order: bool) -> Any:
    if isinstance(value, dict):
        if at.properties is not None:
            known = at.properties
            return {k: _normal(v, known[k], drop, f"{path}/{k}", order)
                    for k, v in value.items()
                    if k in known and k not in _BOOKKEEPING and f"{path}/{k}" not in drop}
        if at.values is not None:
            return {k: _normal(v, at.values, drop, f"{path}/{ITEM}", order)
                    for k, v in value.items()}
        return value
    if isinstance(value, list) and at.items is not None:
        inner = at.items
        if inner.properties is None and inner.values is None and inner.items is None:
            items = list(value)  # items of no object or array schema stand as they are
        else:
            items = [_normal(v, inner, drop, f"{path}/{ITEM}", order) for v in value]
        return sorted_items(items) if order and at.free_order else items
    return value


def canonical(value: Any) -> Any:
    """`value` with every free-order array sorted where a field the compared replies'
    schemas name holds it (a `hands`, a `cards`), wherever it sits, and nothing dropped:
    for a value of no known place (a diff's two sides, a derived expectation)."""
    return _canonical(value, None, _by_name(schema_source.folder()))


def _canonical(value: Any, at: Shape | None, names: Mapping[str, Shape]) -> Any:
    if isinstance(value, dict):
        known = at.properties if at is not None and at.properties is not None else {}
        return {k: _canonical(v, known.get(k) or names.get(k), names) for k, v in value.items()}
    if isinstance(value, list):
        items = [_canonical(v, at.items if at is not None else None, names) for v in value]
        return sorted_items(items) if at is not None and at.free_order else items
    return value


@cache
def _by_name(folder: str) -> dict[str, Shape]:
    """Every property of the compared replies, by name (the first place it is met)."""
    out: dict[str, Shape] = {}
    pending = [shape(reply) for reply in COMPARED_REPLIES]
    seen: set[int] = set()
    while pending:
        at = pending.pop(0)
        if id(at) in seen:
            continue
        seen.add(id(at))
        for name, inner in (at.properties or {}).items():
            out.setdefault(name, inner)
            pending.append(inner)
        pending.extend(s for s in (at.items, at.values) if s is not None)
    return out


def sorted_items(items: list[Any]) -> list[Any]:
    """A free-order list in its one order: cards by their text, anything else by its JSON
    (so that things that do not compare, a number beside a card, raise no TypeError)."""
    if all(type(item) is str for item in items):
        return sorted(items)
    return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))


def unsent(value: Any, where: Shape | str) -> frozenset[Path]:
    """The paths of the optional fields `value` leaves out somewhere (a field left out of
    one project is dropped from every project)."""
    found: set[Path] = set()
    _unsent(value, shape(where) if isinstance(where, str) else where, "", found)
    return frozenset(found)


def _unsent(value: Any, at: Shape, path: Path, found: set[Path]) -> None:
    if isinstance(value, dict):
        if at.properties is not None:
            for name, inner in at.properties.items():
                if name in value:
                    _unsent(value[name], inner, f"{path}/{name}", found)
                elif name not in at.required:
                    found.add(f"{path}/{name}")
        elif at.values is not None:
            for inner_value in value.values():
                _unsent(inner_value, at.values, f"{path}/{ITEM}", found)
    elif isinstance(value, list) and at.items is not None:
        for item in value:
            _unsent(item, at.items, f"{path}/{ITEM}", found)


def comparable(a: Any, b: Any, where: Shape | str) -> tuple[Any, Any]:
    """Two replies' values (both states, both results, ...) in the normal form, each
    optional field kept only where both send it: equal exactly when the protocol says
    they mean the same."""
    at = shape(where) if isinstance(where, str) else where
    drop = unsent(a, at) | unsent(b, at)
    return _normal(a, at, drop, "", True), _normal(b, at, drop, "", True)


def subset_comparable(actual: Any, expected: Any, where: Shape | str) -> tuple[Any, Any]:
    """An engine's value and a case's expectation of it (a subset: a field the case does
    not name is not checked, `harness/compare.py`), in the normal form without sorting,
    the optional fields the engine leaves out dropped from the expectation too."""
    at = shape(where) if isinstance(where, str) else where
    drop = unsent(actual, at)
    return _normal(actual, at, drop, "", False), _normal(expected, at, drop, "", False)


def normal_state(state: Any) -> Any:
    return normal(state, STATE)


def normal_result(result: Any) -> Any:
    return normal(result, RESULT)


def normal_legal(reply: Mapping[str, Any]) -> dict[str, Any]:
    """A `legal` reply's player and actions, sorted (their order is free)."""
    out = normal(dict(reply), LEGAL)
    return {"player": out.get("player"), "actions": out.get("actions", [])}


# ---- the freedoms, as a list ---------------------------------------------------------


@dataclass(frozen=True)
class Freedom:
    """One freedom the schemas grant an engine: `kind` is `order` (an array in any
    order), `optional` (a field it may leave out) or `extra` (an object it may add
    fields to), at `path` of reply `reply`."""

    kind: str
    reply: str
    path: Path


ORDER, OPTIONAL, EXTRA = "order", "optional", "extra"
FREEDOM_KINDS = (ORDER, OPTIONAL, EXTRA)


def freedoms(replies: tuple[str, ...] = COMPARED_REPLIES) -> list[Freedom]:
    """Every freedom the schemas of `replies` grant, in the order of their properties."""
    out: list[Freedom] = []
    for reply in replies:
        out.extend(Freedom(kind, reply, path) for kind, path in _freedoms(shape(reply), ""))
    return out


def _freedoms(at: Shape, path: Path, depth: int = 0) -> Iterator[tuple[str, Path]]:
    if depth > 20:  # (a schema that refers to itself)
        return
    if at.free_order:
        yield ORDER, path
    if at.properties is not None:
        if not at.closed:
            yield EXTRA, path or "/"
        for name, inner in at.properties.items():
            if name not in at.required:
                yield OPTIONAL, f"{path}/{name}"
            yield from _freedoms(inner, f"{path}/{name}", depth + 1)
    if at.values is not None:
        yield from _freedoms(at.values, f"{path}/{ITEM}", depth + 1)
    if at.items is not None:
        yield from _freedoms(at.items, f"{path}/{ITEM}", depth + 1)
