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
    cls = value.__class__
    if cls is int or cls is str or cls is bool or value is None:
        return typing.cast(Plain, value)
    writer = _WRITERS.get(cls)
    if writer is None:
        writer = _WRITERS[cls] = _writer(cls)
    return writer(value)


Writer = typing.Callable[[Any], Plain]


def _same(value: Any) -> Plain:
    return typing.cast(Plain, value)


def _member_value(value: Any) -> Plain:
    return typing.cast(str, value._value_)  # the member's value, without the property's cost


def _items(value: Any) -> Plain:
    return [to_plain(item) for item in value]


def _writer(cls: type) -> Writer:
    """How to write every value of one class (speed: chosen once per class, as the checks in
    order would choose: enum member, record, list or tuple, then None, bool, int or text)."""
    if issubclass(cls, enum.Enum):
        return _member_value
    if dataclasses.is_dataclass(cls) and not issubclass(cls, type):
        names = tuple(f.name for f in dataclasses.fields(cls))
        return lambda value: {name: to_plain(getattr(value, name)) for name in names}
    if issubclass(cls, list | tuple):
        return _items
    if cls is type(None) or issubclass(cls, bool | int | str):
        return _same

    def unwritable(value: Any) -> Plain:
        raise PlainError(f"cannot write {type(value).__name__} as JSON")

    return unwritable


_WRITERS: dict[type, Writer] = {}


@cache
def _hints(cls: type) -> dict[str, Any]:
    """A record's field types. A build compiled with mypyc (`baloot gen --compiled`) keeps
    only each field's runtime class in its annotations, and writes the spec's types in
    `definitions.FIELD_TYPES`."""
    written = getattr(definitions, "FIELD_TYPES", {}).get(cls.__name__)
    annotated = cls if written is None else type(cls.__name__, (), {"__annotations__": written})
    return typing.get_type_hints(annotated, globalns=vars(definitions))


def from_plain(hint: Any, data: Any, where: str = "$") -> Any:
    """Read `data` as a value of the type `hint`; `where` names the spot in errors."""
    try:
        reader = _reader(hint)
    except TypeError:  # an unhashable hint has no fast reader
        return _from_plain(hint, data, where)
    try:
        return reader(data)
    except _Misfit:  # the careful reading finds the spot and words the error
        return _from_plain(hint, data, where)


class _Misfit(Exception):
    """The fast reading met data that does not fit its hint."""


Reader = typing.Callable[[Any], Any]


@cache
def _reader(hint: Any) -> Reader:
    """A fast reader for one hint, compiled once: it raises `_Misfit` on any data that does not
    fit, and `from_plain` then reads again with `_from_plain` for the exact error. Speed only:
    it accepts exactly what `_from_plain` accepts and builds the same values."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        inner = _reader(next(o for o in options if o is not type(None)))
        if type(None) not in options:
            return inner
        return lambda data: None if data is None else inner(data)
    if origin is list:
        (item,) = typing.get_args(hint)
        read_item = _reader(item)

        def read_list(data: Any) -> Any:
            if data.__class__ is not list:
                raise _Misfit
            return [read_item(x) for x in data]

        return read_list
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        members = {m.value: m for m in hint}

        def read_member(data: Any) -> Any:
            try:
                return members[data]
            except (KeyError, TypeError):
                raise _Misfit from None

        return read_member
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        plan: list[tuple[str, Reader]] = []  # filled at first use: records may nest

        def read_record(data: Any) -> Any:
            if data.__class__ is not dict:
                raise _Misfit
            if not plan:
                plan.extend((name, _reader(h)) for name, h in _hints(hint).items())
            if len(data) != len(plan):  # a field missing or one the record does not have
                raise _Misfit
            try:
                return hint(**{name: read(data[name]) for name, read in plan})
            except KeyError:
                raise _Misfit from None

        return read_record
    if hint in (bool, int, str):

        def read_scalar(data: Any) -> Any:
            if data.__class__ is not hint:
                raise _Misfit
            return data

        return read_scalar

    def misfit(data: Any) -> Any:
        raise _Misfit

    return misfit


def _from_plain(hint: Any, data: Any, where: str = "$") -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if data is None and type(None) in options:
            return None
        inner = [o for o in options if o is not type(None)]
        return _from_plain(inner[0], data, where)
    if origin is list:
        if not isinstance(data, list):
            raise PlainError(f"{where}: expected a list, got {type(data).__name__}")
        (item,) = typing.get_args(hint)
        return [_from_plain(item, x, f"{where}[{i}]") for i, x in enumerate(data)]
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
        unknown = [str(name) for name in data if name not in hints]
        if unknown:
            raise PlainError(f"{where}: {hint.__name__} has no field {', '.join(unknown)}")
        return hint(**{name: _from_plain(h, data[name], f"{where}.{name}")
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
