"""The reference adapter: serves the engine protocol (PROTOCOL.md) by driving
the reference engine's Python API, `baloot.reference_impl`.

    python -m baloot.conformance.adapters.reference_adapter      (or: baloot conform adapter)

It is deliberately a thin translation layer, and doubles as the example for
engine authors: read one JSON request per line from stdin, call the engine,
write one JSON reply per line to stdout, echoing `seq`. Nothing else may go
to stdout (log to stderr). `adapter_template.py` is the same loop around a toy
engine, to copy.

The reference API used here:
    new_game(profile, overrides, dealer, deck) -> Game
    game.phase, game.current_player, game.legal_actions(), game.apply(action)
        (raises IllegalAction with .message, .rule and .clauses; the state is unchanged)
    game.deal(deck), game.observation() -> dict, game.round_result() -> dict | None

The observation and the result are the spec's `Game` and `RoundResult`
records as JSON values; `protocol/reference_view.py` turns them into the
protocol's fields and notation; below is the same translation read from the records.
Which fields the state and the result have is `protocol/fields.py`'s: a field the
records keep under the protocol's name, in its terms, needs no line here.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable
from importlib import metadata
from operator import attrgetter, call
from typing import IO, Any, Protocol

from ... import reference_impl
from ...reference_impl import definitions
from ...reference_impl.notation import action_text
from ...reference_impl.plain import to_plain
from ...reference_impl.readings import VARIANTS
from ..harness.collector import collect_less
from ..harness.declared import CAPABILITIES
from ..harness.engine_process import PROTOCOL_VERSION
from ..harness.json_input import compact_json, strict_json
from ..harness.variants import load_register
from ..protocol.fields import protocol_fields
from ..protocol.reference_view import action, result_fields, state_fields
from ..protocol.schemas import REQUEST_TYPES

DISTRIBUTION = "baloot-conformance"  # the name in pyproject.toml, whose version the hello gives

# ---------------------------------------------------------------------------
# The same translation read straight from the records (speed: a `state` reply
# is asked for after every action). The rules never change a list in place,
# they build a new one, so a field that is the same object as at the last
# reply holds the same value and keeps its converted form: a reply costs what
# changed since the last one, not the whole state. The replies share those
# converted values; read them, do not change them.
# ---------------------------------------------------------------------------

class _CardTexts(dict[Any, str]):
    """Card record -> "10S" (the text the engine's notation writes), one record per card (by
    identity), each text made the first time its card is looked up."""

    def __missing__(self, record: Any) -> str:
        text = self[record] = f"{record.rank.value}{record.suit.value}"
        return text


_CARD_TEXTS = _CardTexts()


def card_of(record: Any) -> str:
    """A `Card` record -> "10S"."""
    return _CARD_TEXTS[record]


def action_of(record: Any) -> str:
    """An `Action` record -> its text; a record of another build of the engine (a mutant)
    through its JSON values, as `action` reads them."""
    if record.__class__ is definitions.Action:
        text: str = action_text(record)
        return text
    return action(to_plain(record))


def _call(record: Any) -> dict[str, Any]:
    return {"seat": record.seat, "action": action_of(record.action)}


def _project(record: Any) -> dict[str, Any]:
    return {
        "seat": record.seat,
        "kind": record.kind.value,
        "cards": [_CARD_TEXTS[c] for c in record.cards],
    }


def _play(record: Any) -> dict[str, Any]:
    return {"seat": record.seat, "card": _CARD_TEXTS[record.card]}


def _hand(records: list[Any]) -> list[str]:
    return [_CARD_TEXTS[c] for c in records]


def _contract(record: Any) -> dict[str, Any] | None:
    if record is None:
        return None
    trump = record.trump
    return {
        "kind": record.kind.value,
        "trump": None if trump is None else trump.value,
        "bidder": record.bidder,
        "ashkal": record.ashkal,
    }


_UNSEEN = object()


class _Field:
    """A field converted again only when the record holds another object there."""

    def __init__(self, convert: Callable[[Any], Any]) -> None:
        self.convert = convert
        self.value: Any = _UNSEEN  # the record's value last converted
        self.converted: Any = None

    def of(self, value: Any) -> Any:
        """The converted form of the record's value."""
        if value is not self.value:
            self.value, self.converted = value, self.convert(value)
        return self.converted


class _Items:
    """A list field converted item by item, an item converted again only when it is another
    object than the last list's item at its place (a new bid, the one hand that changed),
    and the list not at all when it is the same list."""

    def __init__(self, convert: Callable[[Any], Any]) -> None:
        self.convert = convert
        self.items: list[Any] = []
        self.converted: list[Any] = []

    def of(self, items: list[Any]) -> list[Any]:
        """The converted form of the record's list."""
        old = self.items
        if items is old:
            return self.converted
        done, convert = self.converted, self.convert
        kept = len(old)
        out = [
            done[i] if i < kept and item is old[i] else convert(item)
            for i, item in enumerate(items)
        ]
        self.items, self.converted = items, out
        return out


def _face_up(record: Any) -> str | None:
    return None if record is None else _CARD_TEXTS[record]


# How the state's fields are read from the records (`reference_view`'s translation, from the
# records): those of lists item by item, some others as a whole, the numbers and flags
# below as they are. Every other field of the state (protocol/fields.py) is the record's
# field of the same name, as JSON values (`to_plain`).
_ITEMS: dict[str, Callable[[Any], Any]] = {
    "hands": _hand, "bids": _call, "raises": _call, "declarations": _project, "trick": _play,
}
_WHOLE: dict[str, Callable[[Any], Any]] = {
    "face_up": _face_up, "contract": _contract, "trick_winners": list, "totals": list,
}
_AS_IS = frozenset({"dealer", "multiplier", "locked"})
# The fields of the game, not of its record: the phase and the player to act.
_OF_GAME = frozenset({"phase", "current_player"})


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The record's fields of these names, as a tuple."""
    if len(names) > 1:
        return attrgetter(*names)
    return lambda record: tuple(getattr(record, name) for name in names)


class _PlayerToAct:
    """The player to act, asked of the rules once a state (`legal` and `state` say it)."""

    def __init__(self) -> None:
        self.known: tuple[Any, Any, int | None] = (None, None, None)  # record, readings

    def of(self, game: Any) -> int | None:
        record, readings, player = self.known
        if record is not game.state or readings is not game.readings:
            player = game.current_player
            self.known = (game.state, game.readings, player)
        return player


class StateProjection:
    """The protocol's `state` of one game (what `state_fields` makes of its observation),
    each field converted again only when the record's field is another object, and a list
    only in its items that are."""

    def __init__(self) -> None:
        self._player = _PlayerToAct()
        self._record_class: Any = None  # the record class read as below
        self._template: dict[str, Any] = {}  # every field sent, in the schema's order
        self._of_game: frozenset[str] = frozenset()
        self._as_is: tuple[str, ...] = ()
        self._read_as_is: Callable[[Any], tuple[Any, ...]] = _getter(())
        self._converted: tuple[str, ...] = ()
        self._read_converted: Callable[[Any], tuple[Any, ...]] = _getter(())
        self._converts: tuple[Callable[[Any], Any], ...] = ()

    def player(self, game: Any) -> int | None:
        """The player to act (asked of the rules once a state: `legal` and `state` say it)."""
        return self._player.of(game)

    def state(self, game: Any) -> dict[str, Any]:
        record = game.state
        if record.__class__ is not self._record_class:
            self._read_records_of(record.__class__)
        out = self._template.copy()
        if self._of_game:
            if "phase" in self._of_game:
                out["phase"] = game.phase
            if "current_player" in self._of_game:
                out["current_player"] = self._player.of(game)
        out.update(zip(self._as_is, self._read_as_is(record), strict=True))
        converted = map(call, self._converts, self._read_converted(record))
        out.update(zip(self._converted, converted, strict=True))
        return out

    def _read_records_of(self, record_class: Any) -> None:
        """How each of the state's fields is read from a record of the class: every field
        of the schema but an optional one that the record does not hold."""
        state = protocol_fields().state
        held = {f.name for f in dataclasses.fields(record_class)}
        sent = tuple(name for name in state.names
                     if name in _OF_GAME or name in held or name in state.required)
        self._template = dict.fromkeys(sent)
        self._of_game = _OF_GAME.intersection(sent)
        self._as_is = tuple(name for name in sent if name in _AS_IS)
        self._read_as_is = _getter(self._as_is)
        self._converted = tuple(name for name in sent if name not in _OF_GAME | _AS_IS)
        self._read_converted = _getter(self._converted)
        self._converts = tuple(
            (_Items(_ITEMS[name]) if name in _ITEMS else _Field(_WHOLE.get(name, to_plain))).of
            for name in self._converted)
        self._record_class = record_class


class Adapter:
    """One protocol session around an engine API module (or any object with its functions)."""

    def __init__(self, api: Any, readings: dict[str, list[str]] | None = None) -> None:
        self.api = api
        self.game: Any = None
        # Every reading the engine implements, by variant (the hello reply).
        self.readings = readings or {
            name: list(v.readings) for name, v in load_register().variants.items()
        }
        self.handlers = _handlers(type(self))  # the method of each request type answered
        self.projection = StateProjection()
        self.records = False  # whether the game keeps the spec's records (`_has_records`)
        self._result: tuple[Any, dict[str, Any] | None] = (None, None)  # (record, reply field)

    # --- one method per request type; each returns the reply's fields -------

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {
            "protocol": PROTOCOL_VERSION,
            "name": "baloot-reference",
            "version": engine_version(self.api),
            "profile": "literal",
            # The reference engine is generated from the spec: every reading of every variant.
            "readings": self.readings,
            # and every part of the game (a capability left out of the list is one lacked)
            "capabilities": list(CAPABILITIES),
            "batch": True,  # it answers `batch` requests
        }

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        setup = request["setup"]
        kwargs: dict[str, Any] = {
            "profile": setup["profile"],
            "overrides": setup["overrides"] or None,
            "dealer": setup["dealer"],
            "deck": setup["deck"],
        }
        if setup.get("totals") is not None:
            kwargs["totals"] = setup["totals"]
        self.game = self.api.new_game(**kwargs)
        self.projection = StateProjection()
        self.records = _has_records(self.game)
        return {}

    def deal(self, request: dict[str, Any]) -> dict[str, Any]:
        self._game().deal(request["deck"])
        return {}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        player = self.projection.player(game) if self.records else game.current_player
        return {"player": player, "actions": list(game.legal_actions())}

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            self._game().apply(request["action"])
        except self.api.IllegalAction as refusal:
            # A refusal is an answer, not an error: the runner checks it. The
            # engine's IllegalAction names the rule and the clauses it cites.
            return {
                "ok": False,
                "refused": {
                    "reason": str(getattr(refusal, "message", None) or refusal),
                    "rule": str(getattr(refusal, "rule", "")),
                    "clauses": [str(c) for c in getattr(refusal, "clauses", ())],
                },
            }
        return {}

    def state(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        if not self.records:  # only `observation()`: all of it converted
            observation = {
                **game.observation(),
                "phase": game.phase,
                "current_player": game.current_player,
            }
            return {"state": state_fields(observation)}
        # the same, from the records, converting only what changed
        return {"state": self.projection.state(game)}

    def result(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        if not self.records:
            return {"result": result_fields(game.round_result())}
        # the last round's result lasts a round: converted once, sent a fresh copy each time
        record = game.state.last_result
        if record is None:
            return {"result": None}
        if self._result[0] is not record:
            self._result = (record, result_fields(game.round_result()))
        converted = self._result[1]
        return {"result": None if converted is None else dict(converted)}

    def batch(self, request: dict[str, Any]) -> dict[str, Any]:
        """Each request of the batch answered in turn, as if it came alone (PROTOCOL.md)."""
        requests = request["requests"]
        if not isinstance(requests, list):
            raise TypeError("batch: 'requests' is not a list")
        return {"replies": [self._batched(r) for r in requests]}

    def _batched(self, request: Any) -> dict[str, Any]:
        if isinstance(request, dict) and request.get("type") in BATCHED_TYPES:
            return self.answer(request)
        return {"ok": False, "error": f"cannot batch {request!r}"}

    def bye(self, request: dict[str, Any]) -> dict[str, Any]:
        return {}

    def _game(self) -> Any:
        if self.game is None:
            raise ValueError("no game: send start first")
        return self.game

    # --- the loop -----------------------------------------------------------

    def handle(self, line: str) -> dict[str, Any]:
        try:
            request = strict_json(line)
            seq = request["seq"]
        except (ValueError, KeyError, TypeError) as exc:
            return {"seq": _seq_of(line), "ok": False, "error": f"cannot read request: {exc!r}"}
        if type(seq) is not int:  # echoed back as it came, NaN or 1.0 would be no seq
            return {"seq": None, "ok": False,
                    "error": f"cannot read request: seq {_clipped(seq)} is not a whole number"}
        return {"seq": seq, **self.answer(request)}

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The reply to one request (a JSON object already read), without its `seq`."""
        try:
            kind = request["type"]
            handler = self.handlers.get(kind)
            if handler is None:
                raise KeyError(f"unknown request type {kind!r}")
        except (KeyError, TypeError) as exc:
            return {"ok": False, "error": f"cannot read request: {exc!r}"}
        try:
            reply = handler(self, request)
        except Exception as exc:  # an engine bug: report it, keep serving
            return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        return {"ok": True, **reply}


_Handler = Callable[["Adapter", dict[str, Any]], dict[str, Any]]
_HANDLERS: dict[type[Adapter], dict[str, _Handler]] = {}


def engine_version(api: Any) -> str:
    """The engine's version for the hello: the API's `__version__` where it has one (a
    mutant's build), else the installed distribution's (the reference is generated from
    the spec the distribution ships)."""
    version = getattr(api, "__version__", None)
    if version is not None:
        return str(version)
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def _handlers(adapter: type[Adapter]) -> dict[str, _Handler]:
    """The class's method of each request type a session answers (functions, not bound
    methods: a session holding its own would be a reference cycle)."""
    known = _HANDLERS.get(adapter)
    if known is None:
        known = _HANDLERS[adapter] = {kind: getattr(adapter, kind) for kind in ANSWERED_TYPES}
    return known


def _has_records(game: Any) -> bool:
    """Whether the game keeps its state as the spec's records (`game.state`, a `Game`)."""
    state = getattr(game, "state", None)
    return state.__class__ is definitions.Game or dataclasses.is_dataclass(state)


# Every request type a session answers: the protocol's, and `batch`.
ANSWERED_TYPES = frozenset({*REQUEST_TYPES, "batch"})


# What a `batch` may hold: every request but the handshake, the goodbye and batches.
BATCHED_TYPES = ("start", "deal", "legal", "apply", "state", "result")


def _seq_of(line: str) -> int | None:
    try:
        seq = strict_json(line).get("seq")
    except (ValueError, AttributeError):
        return None
    return seq if type(seq) is int else None


def _clipped(value: Any, limit: int = 80) -> str:
    text = json.dumps(value)[: limit + 1]  # a value strict_json read: JSON again
    return text if len(text) <= limit else text[:limit] + "..."


def serve(
    api: Any, stdin: IO[str], stdout: IO[str], readings: dict[str, list[str]] | None = None
) -> int:
    return serve_lines(Adapter(api, readings), stdin, stdout)


class LineHandler(Protocol):
    def handle(self, line: str) -> dict[str, Any]: ...


def serve_lines(handler: LineHandler, stdin: IO[str], stdout: IO[str]) -> int:
    """The request loop of an adapter: one reply line per request line, flushed at once
    (the runner is waiting), until a `bye` has been answered."""
    for line in stdin:
        if not line.strip():
            continue
        reply = handler.handle(line)
        stdout.write(compact_json(reply) + "\n")
        stdout.flush()
        if reply.get("ok") and "bye" in line and _type_of(line) == "bye":
            break
    return 0


def _type_of(line: str) -> Any:
    try:
        return strict_json(line).get("type")
    except (ValueError, AttributeError):
        return None


def main() -> int:
    api = reference_impl
    if not hasattr(api, "new_game"):
        print(
            "reference adapter: reference_impl has no new_game yet "
            "(the reference engine is not generated)",
            file=sys.stderr,
        )
        return 2
    # At the usual threshold the cyclic collector walks a batch's live replies again and
    # again (a fifth of the adapter's time under `baloot fuzz`): rarely instead.
    collect_less()
    return serve(api, sys.stdin, sys.stdout, {name: list(r) for name, r in VARIANTS.items()})


if __name__ == "__main__":
    sys.exit(main())
