"""The values a whole-number field of a record can hold, read off every place the spec
sets it.

A field is set where its record is built (`Game(session=1, ...)`) and where a record is
updated (`game with { session = 2 }`). When every such value is a number written out, a
constant, an entry of a table of numbers, or the same field copied from another record,
the field holds one of those numbers in every record the rules make. An update does not
say which record it is of, so the fields of one name are taken together: every record
with a field of that name holds a whole number there, and the numbers are those of every
setting of that name.

Records come into being only through the rules: the engine's protocol starts a game from
a dealer, a deck and totals, and every later state is a rule's value. (A state read back
by the engine's own `from_json` is outside the protocol.)
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from ...grammar import model as m
from ...grammar.walk import walk


def _number(spec: m.Spec, value: m.Expr, field: str) -> set[int] | None:
    """The numbers a field's value expression can be; an empty set for a copy of the
    same field; None when not known."""
    if isinstance(value, m.IntLit):
        return {value.value}
    if isinstance(value, m.UnaryOp) and value.op == "-" and isinstance(value.operand, m.IntLit):
        return {-value.operand.value}
    if isinstance(value, m.Name):
        const = next((c for c in spec.consts if c.name == value.name), None)
        return {const.value} if const is not None and isinstance(const.value, int) else None
    if isinstance(value, m.Index) and isinstance(value.base, m.Name):
        table = next((t for t in spec.tables if t.name == value.base.name), None)
        if table is not None and all(isinstance(e.value, int) for e in table.entries):
            return {e.value for e in table.entries}
        return None
    if isinstance(value, m.FieldOf) and value.field == field:
        return set()
    return None


@cache
def field_domains(spec: m.Spec) -> dict[str, frozenset[int]]:
    """Field name -> every number the field can hold, for the whole-number fields whose
    every setting is known."""
    def whole(f: m.Field) -> bool:
        return isinstance(f.type, m.PlainType) and f.type.name == "int"

    owners = Counter(f.name for r in spec.records for f in r.fields)
    numbers = Counter(f.name for r in spec.records for f in r.fields if whole(f))
    fields = {name for name, count in numbers.items() if owners[name] == count}
    values: dict[str, set[int] | None] = {name: set() for name in fields}

    def note(name: str, value: m.Expr) -> None:
        if name not in values or values[name] is None:
            return
        found = _number(spec, value, name)
        if found is None:
            values[name] = None
        else:
            values[name] |= found  # type: ignore[operator]

    records = {r.name: r for r in spec.records}
    for rule in spec.rules:
        for node in (n for s in rule.body for n in walk(s)):
            if isinstance(node, m.WithUpdate):
                for update in node.updates:
                    note(update.name, update.value)
            elif isinstance(node, m.Call) and isinstance(node.func, m.Name) \
                    and node.func.name in records:
                record = records[node.func.name]
                for field, arg in zip(record.fields, node.args, strict=False):
                    note(field.name, arg)
                for kwarg in node.kwargs:
                    note(kwarg.name, kwarg.value)
    return {name: frozenset(found) for name, found in values.items() if found}
