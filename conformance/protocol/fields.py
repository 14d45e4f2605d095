"""The protocol's fields, in one place: the `state` reply's and the round result's fields,
which of them an engine must send, the clause a difference in each is reported under, and
the capability without which a field is not checked.

All of it is read from the schemas (`conformance/schema/common.json`, `$defs` `state`,
`result` and `contract`): a field's place and whether it is required from `properties`
and `required`, its clause and capability from two annotations of its property, which a
JSON Schema validator ignores:

    "x-clause": "SCORE.9"              the clause a difference in the field is checked under
    "x-clause": {"by": "phase", "cases": {"playing": "PLAY.4"}, "otherwise": "BID.2"}
                                       a clause that depends on the phase of the state, or
                                       (`"by": "contract_kind"`) on the contract's kind
    "x-capability": "game_score"       an engine without the capability is not checked on it

and the capabilities an engine may declare from the `hello` reply's schema. Every user
of a field list reads it here: the runner (optional fields), the capability view, the
fuzzer's clauses and normal forms, the reference engine's view and its adapter. A new
field is a new property of the schema with its annotations, and a line of PROTOCOL.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from . import schema_source

STATE = "state"
RESULT = "result"
OBJECTS = (STATE, RESULT)  # the protocol's objects with fields of their own


@dataclass(frozen=True)
class Clause:
    """The clause a difference in a field is checked under: `otherwise`, unless the
    context's value of `by` (`phase`, `contract_kind`) is one of `cases`."""

    otherwise: str
    by: str | None = None
    cases: tuple[tuple[str, str], ...] = ()

    def under(self, context: Mapping[str, str | None]) -> str:
        if self.by is not None:
            value = context.get(self.by)
            for case, clause in self.cases:
                if case == value:
                    return clause
        return self.otherwise


@dataclass(frozen=True)
class Field:
    name: str
    required: bool
    clause: Clause | None  # None: the schema names none
    capability: str | None  # the capability without which it is not checked


@dataclass(frozen=True)
class ObjectFields:
    """The fields of one of the protocol's objects."""

    fields: tuple[Field, ...]  # in the order of the schema's `properties`
    names: tuple[str, ...]  # the same
    required: tuple[str, ...]  # in the order of the schema's `required`
    optional: tuple[str, ...]  # the others, in the order of `properties`

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    def gated(self) -> dict[str, tuple[str, ...]]:
        """Capability -> the fields only it gives meaning to."""
        out: dict[str, tuple[str, ...]] = {}
        for f in self.fields:
            if f.capability is not None:
                out[f.capability] = (*out.get(f.capability, ()), f.name)
        return out


@dataclass(frozen=True)
class ProtocolFields:
    state: ObjectFields
    result: ObjectFields
    contract: ObjectFields  # the contract object's (in a state and in a result)
    capabilities: tuple[str, ...]  # every capability an engine may declare

    def of(self, kind: str) -> ObjectFields:
        if kind == STATE:
            return self.state
        if kind == RESULT:
            return self.result
        raise ValueError(f"no fields of {kind!r}: the objects are {', '.join(OBJECTS)}")


def read(schemas: Mapping[str, Any]) -> ProtocolFields:
    """The field lists as the schemas (by name, as `schema_source.loaded` gives them) say."""
    defs = schemas["common"]["$defs"]
    contract = next(branch for branch in defs["contract"]["oneOf"]
                    if branch.get("type") == "object")
    capabilities = schemas["hello.reply"]["properties"]["capabilities"]["items"]["enum"]
    return ProtocolFields(state=_object(defs[STATE]), result=_object(defs[RESULT]),
                          contract=_object(contract), capabilities=tuple(capabilities))


def _object(schema: Mapping[str, Any]) -> ObjectFields:
    required = tuple(schema.get("required", ()))
    fields = tuple(
        Field(name, name in required, _clause(prop.get("x-clause")), prop.get("x-capability"))
        for name, prop in schema.get("properties", {}).items()
    )
    names = tuple(f.name for f in fields)
    return ObjectFields(fields, names, required, tuple(k for k in names if k not in required))


def _clause(annotation: Any) -> Clause | None:
    if annotation is None:
        return None
    if isinstance(annotation, str):
        return Clause(annotation)
    return Clause(annotation["otherwise"], annotation["by"], tuple(annotation["cases"].items()))


def protocol_fields() -> ProtocolFields:
    """The field lists of the schemas read now (`schema_source`)."""
    return _read_from(schema_source.folder())


@cache
def _read_from(folder: str) -> ProtocolFields:
    return read(schema_source.loaded())


# ---- the lists as their users ask for them --------------------------------------------


def state_fields() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The `state` reply's required and optional fields, in the schema's order."""
    state = protocol_fields().state
    return state.required, state.optional


def result_fields() -> tuple[str, ...]:
    """Every field of the round result (required first, then optional)."""
    result = protocol_fields().result
    return result.required + result.optional


def contract_fields() -> tuple[str, ...]:
    """Every field of a contract, in the schema's order."""
    return protocol_fields().contract.names


def optional_state_fields() -> dict[str, tuple[str, ...]]:
    """The fields of the `state` reply an engine may leave out: "" for the state's own,
    `contract` for the contract's."""
    fields = protocol_fields()
    return {"": fields.state.optional, "contract": fields.contract.optional}


def optional_result_fields() -> dict[str, tuple[str, ...]]:
    """The fields of the `result` reply an engine may leave out, keyed as in
    `optional_state_fields` (the contract's `ashkal` among them)."""
    fields = protocol_fields()
    return {"": fields.result.optional, "contract": fields.contract.optional}


def clause_of(kind: str, name: str, context: Mapping[str, str | None]) -> str | None:
    """The clause a difference in field `name` of a `kind` (`state`, `result`) is checked
    under, in a `context` of `phase` and `contract_kind`; None for a field the schema
    gives no clause (or does not name)."""
    field = protocol_fields().of(kind).field(name)
    return None if field is None or field.clause is None else field.clause.under(context)


def capabilities() -> tuple[str, ...]:
    """The capabilities an engine may declare (PROTOCOL.md, "Capabilities")."""
    return protocol_fields().capabilities


def gated(kind: str) -> dict[str, tuple[str, ...]]:
    """Capability -> the fields of a `kind` (`state`, `result`) only it gives meaning to."""
    return protocol_fields().of(kind).gated()
