"""What generated rules use beyond plain Python: the illegal-action error and
two list helpers of the rule language. Hand-written; no Baloot rule lives here."""

from __future__ import annotations

import dataclasses
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


class IllegalAction(Exception):
    """An action the rules forbid, naming the rule and the clauses that forbid it."""

    def __init__(self, message: str, rule: str, clauses: tuple[str, ...]) -> None:
        self.message = message
        self.rule = rule
        self.clauses = clauses
        super().__init__(f"{message} (rule {rule}; {', '.join(clauses)})")


def remove(items: list[T], item: T) -> list[T]:
    """The list without the first occurrence of `item` (the list itself is unchanged)."""
    position = items.index(item)
    return items[:position] + items[position + 1 :]


def index_of(items: list[T], item: T) -> int:
    """The position of the first occurrence of `item`."""
    return items.index(item)


_FIELD_NAMES: dict[type, frozenset[str]] = {}


def replace(record: R, /, **changes: object) -> R:
    """A copy of a record with some fields changed, as `dataclasses.replace` makes it.

    Generated records (but value records, which never change) keep their fields in
    the instance dict, so the copy is two dict updates; the frozen dataclass has
    checked its fields when the original was built, and a changed field must be
    one of them."""
    cls = record.__class__
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    if not changes.keys() <= names:
        unknown = ", ".join(sorted(changes.keys() - names))
        raise TypeError(f"{cls.__name__} has no field {unknown}")
    copy: R = object.__new__(cls)
    copy.__dict__.update(record.__dict__)
    copy.__dict__.update(changes)
    return copy
