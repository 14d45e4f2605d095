"""The generated records as plain JSON values, and back.

Generic over every record and enum of `definitions`: a record becomes an
object of its fields, an enum member its notation, a list a list. Reading
back follows the records' type hints, so a state round-trips exactly.
Hand-written; no Baloot rule lives here.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any

from . import definitions

Plain = None | bool | int | str | list["Plain"] | dict[str, "Plain"]


class PlainError(ValueError):
    """A JSON value that does not fit the record it should become."""


def to_plain(value: Any) -> Plain:
    if isinstance(value, enum.Enum):
        return typing.cast(str, value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [to_plain(item) for item in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    raise PlainError(f"cannot write {type(value).__name__} as JSON")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, globalns=vars(definitions))


def from_plain(hint: Any, data: Any, where: str = "$") -> Any:
    """Read `data` as a value of the type `hint`; `where` names the spot in errors."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if data is None and type(None) in options:
            return None
        inner = [o for o in options if o is not type(None)]
        return from_plain(inner[0], data, where)
    if origin is list:
        if not isinstance(data, list):
            raise PlainError(f"{where}: expected a list, got {type(data).__name__}")
        (item,) = typing.get_args(hint)
        return [from_plain(item, x, f"{where}[{i}]") for i, x in enumerate(data)]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(data)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in hint)
            raise PlainError(f"{where}: {data!r} is not a {hint.__name__} ({allowed})") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(data, dict):
            raise PlainError(f"{where}: expected an object for {hint.__name__}")
        hints = _hints(hint)
        missing = [name for name in hints if name not in data]
        if missing:
            raise PlainError(f"{where}: {hint.__name__} misses {', '.join(missing)}")
        return hint(**{name: from_plain(h, data[name], f"{where}.{name}")
                       for name, h in hints.items()})
    if hint is bool:
        if not isinstance(data, bool):
            raise PlainError(f"{where}: expected true or false")
        return data
    if hint is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise PlainError(f"{where}: expected a whole number")
        return data
    if hint is str:
        if not isinstance(data, str):
            raise PlainError(f"{where}: expected text")
        return data
    raise PlainError(f"{where}: cannot read a {hint!r}")
