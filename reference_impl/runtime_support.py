"""What generated rules use beyond plain Python: the illegal-action error and
two list helpers of the rule language. Hand-written; no Baloot rule lives here."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


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
