"""The JSON Schemas of the protocol messages and the case files.

`conformance/schema/*.json` hold one schema per message (`hello.request`,
`hello.reply`, ..., `error.reply`), the shared definitions (`common`), the
case file (`case-file`) and the pack manifest (`pack`). They refer to each
other by `$id` (`urn:baloot:conformance:NAME`). They are read where `schema_source`
says; the field lists of the state and the result are `fields.py`'s (ask it).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from . import schema_source

BASE_URI = "urn:baloot:conformance:"
REQUEST_TYPES: tuple[str, ...] = (
    "hello",
    "start",
    "deal",
    "legal",
    "apply",
    "state",
    "result",
    "bye",
)


def _all_schemas() -> dict[str, dict[str, Any]]:
    return schema_source.loaded()


@cache
def _registry(folder: str) -> Registry[Any]:
    resources_ = [
        (schema["$id"], Resource.from_contents(schema)) for schema in _all_schemas().values()
    ]
    return Registry().with_resources(resources_)


def schema_names() -> list[str]:
    return sorted(_all_schemas())


def validator(name: str) -> Draft202012Validator:
    """The validator of one schema, e.g. `validator("state.reply")`."""
    return _validator(name, schema_source.folder())


@cache
def _validator(name: str, folder: str) -> Draft202012Validator:
    schema = _all_schemas()[name]
    return Draft202012Validator(schema, registry=_registry(folder))


def _quick(name: str) -> Callable[[Any], Any] | None:
    return _quick_of(name, schema_source.folder())


@cache
def _quick_of(name: str, folder: str) -> Callable[[Any], Any] | None:
    """The schema compiled to Python by fastjsonschema: a first look that accepts a
    valid instance about ten times sooner than the full validator (the pack's 3 MB of
    cases in a tenth of the time). Its keywords are all of draft 7's, which both read
    alike; a test holds the two to the same verdicts. None for a schema it cannot
    compile (a reference it does not resolve as the full validator does): then only the
    full validator looks."""
    by_id = {schema["$id"]: schema for schema in _all_schemas().values()}
    try:
        compiled: Callable[[Any], Any] = fastjsonschema.compile(
            _all_schemas()[name], handlers={"urn": lambda uri: by_id[uri.split("#")[0]]})
    except fastjsonschema.JsonSchemaDefinitionException:
        return None
    return compiled


def schema_errors(name: str, instance: Any) -> list[str]:
    """Every way `instance` breaks schema `name`, as 'at FIELD: message' lines (none when
    the quick look accepts it; else the full validator says where and what)."""
    quick = _quick(name)
    if quick is not None:
        try:
            quick(instance)
            return []
        except fastjsonschema.JsonSchemaValueException:
            pass  # the full validator below names every place, the quick one only the first
    found = []
    for error in sorted(validator(name).iter_errors(instance), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        found.append(f"at {where}: {_short(error.message)}")
    return found


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[: limit - 3] + "..."


def request_errors(message: dict[str, Any]) -> list[str]:
    kind = message.get("type")
    if kind not in REQUEST_TYPES:
        return [f"at type: unknown request type {kind!r}"]
    return schema_errors(f"{kind}.request", message)


def reply_errors(request_type: str, reply: dict[str, Any]) -> list[str]:
    """Check a reply to a request of `request_type`; error replies have their own schema."""
    if reply.get("ok") is False and "error" in reply:
        return schema_errors("error.reply", reply)
    return schema_errors(f"{request_type}.reply", reply)
