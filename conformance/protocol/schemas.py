"""The JSON Schemas of the protocol messages and the case files.

`conformance/schema/*.json` hold one schema per message (`hello.request`,
`hello.reply`, ..., `error.reply`), the shared definitions (`common`), the
case file (`case-file`) and the pack manifest (`pack`). They refer to each
other by `$id` (`urn:baloot:conformance:NAME`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

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


@cache
def _all_schemas() -> dict[str, dict[str, Any]]:
    folder = resources.files("baloot.conformance") / "schema"
    out: dict[str, dict[str, Any]] = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".json"):
            out[entry.name.removesuffix(".json")] = json.loads(entry.read_text(encoding="utf-8"))
    return out


@cache
def _registry() -> Registry[Any]:
    resources_ = [
        (schema["$id"], Resource.from_contents(schema)) for schema in _all_schemas().values()
    ]
    return Registry().with_resources(resources_)


def schema_names() -> list[str]:
    return sorted(_all_schemas())


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator of one schema, e.g. `validator("state.reply")`."""
    schema = _all_schemas()[name]
    return Draft202012Validator(schema, registry=_registry())


@cache
def _quick(name: str) -> Callable[[Any], Any] | None:
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


def _object_fields(definition: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The required and the optional fields of an object of `common.json`, in order."""
    schema = _all_schemas()["common"]["$defs"][definition]
    required = tuple(schema.get("required", ()))
    optional = tuple(k for k in schema.get("properties", {}) if k not in required)
    return required, optional


def state_fields() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The `state` reply's required and optional fields, as the schema has them."""
    return _object_fields("state")


def optional_state_fields() -> dict[str, tuple[str, ...]]:
    """The fields of the `state` reply an engine may leave out: "" for the state's own,
    `contract` for the contract's (the object branch of its schema)."""
    _, optional = state_fields()
    contract = next(branch for branch in _all_schemas()["common"]["$defs"]["contract"]["oneOf"]
                    if branch.get("type") == "object")
    required = tuple(contract.get("required", ()))
    return {"": optional,
            "contract": tuple(k for k in contract.get("properties", {}) if k not in required)}


def optional_result_fields() -> dict[str, tuple[str, ...]]:
    """The fields of the `result` reply an engine may leave out, keyed as in
    `optional_state_fields` (the contract's `ashkal` among them)."""
    _, optional = _object_fields("result")
    return {"": optional, "contract": optional_state_fields()["contract"]}


def result_fields() -> tuple[str, ...]:
    """Every field of the `result` reply's round result, as the schema has them."""
    required, optional = _object_fields("result")
    return required + optional
