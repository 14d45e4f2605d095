"""What generated rules use beyond plain Python: the errors of the rule language
(an illegal action, an unknown reading, a value that is none where the rules need
one) and its list helpers. Hand-written; no Baloot rule lives here."""

from __future__ import annotations

from collections.abc import Sequence
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


class UnknownReading(Exception):
    """A `choose` met a reading its variant does not have."""

    def __init__(self, variant: str, reading: str) -> None:
        self.variant = variant
        self.reading = reading
        super().__init__(f"{reading!r} is not a reading of the variant {variant}")


class NoValue(Exception):
    """An optional value (`T?`) was none where the rules need a value."""


def known(value: T | None) -> T:
    """An optional value where the rules need one: the value itself, or `NoValue`."""
    if value is None:
        raise NoValue("a value the rules need is none")
    return value


def remove(items: list[T], item: T) -> list[T]:
    """The list without the first occurrence of `item` (the list itself is unchanged)."""
    position = items.index(item)
    return items[:position] + items[position + 1 :]


def index_of(items: Sequence[T], item: T) -> int:
    """The position of the first occurrence of `item`."""
    return items.index(item)


def replace(record: R, /, **changes: object) -> R:
    """A copy of a record with some fields changed, as `dataclasses.replace` makes it.

    Generated records (but value records, which never change) keep their fields in
    the instance dict, so the copy's dict is the original's with the changes merged in,
    set on a new object; the frozen dataclass has checked its fields when the original
    was built, and a changed field must be one of them: a name that is not one would
    add an entry to the dict. In a build compiled with mypyc (`baloot gen --compiled`)
    the records keep their fields as native attributes, with no instance dict, and each
    copies itself (`_copy_with`)."""
    if not type(record).__dictoffset__:  # no instance dict: a compiled record
        compiled_copy: R = record._copy_with(changes)  # type: ignore[attr-defined]
        return compiled_copy
    original = record.__dict__
    fields = {**original, **changes}
    if len(fields) != len(original):
        unknown = ", ".join(sorted(changes.keys() - original.keys()))
        raise TypeError(f"{type(record).__name__} has no field {unknown}")
    copy: R = _new_object(type(record))
    _set_attribute(copy, "__dict__", fields)
    return copy


_new_object = object.__new__  # an object of the record's class, its fields not yet set
_set_attribute = object.__setattr__  # past the frozen dataclass's own __setattr__
