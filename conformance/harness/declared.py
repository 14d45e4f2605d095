"""What an engine says it implements, read from its `hello` reply, and which
cases that lets the runner apply (PROTOCOL.md, "What a case needs").

An engine declares:
- `profile`: the profile it plays (`literal`, `federation`, ...);
- `overrides` (optional): variant -> the reading it plays where that differs
  from the profile, so any mix of readings can be declared;
- `readings` (optional): variant -> every reading it can play when a `start`
  asks for it; a variant left out is implemented in its played reading only;
- `capabilities` (optional): the parts of the game it implements
  (`CAPABILITIES`); left out, none of them: an engine claims only what it names.

A case applies when every reading it pins is one the engine implements and
every capability it needs is one the engine has. A case that pins nothing
and needs nothing runs on every engine. Unpinned variants are played in the
engine's own readings: the pack's cases hold under every reading of what
they leave out (`baloot conform pins` checks this).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..protocol.schemas import validator
from .json_input import compact_json
from .pack import pin_readings
from .variants import Register

# The parts of the game an engine may leave out, like test262's features. A
# case names those it needs; `baloot conform lint` checks the names.
CAPABILITIES: dict[str, str] = {
    "raises": "the raising phase after the bidding: double, and passing on it",
    "raise_triple": "the triple, answering a double",
    "raise_four": "the four, answering a triple",
    "raise_gahwa": "the gahwa, answering a four",
    "ashkal": "the ashkal call in the bidding (BID.6)",
    "second_session": "the second bidding session, naming the trump (BID.7, BID.8)",
    "redeal": "a new deal after everyone passes twice (BID.9)",
    "pass_only_turns": "asking a player whose only legal action is pass (the protocol's rule; "
    "an engine that passes for such players leaves this out)",
    "projects": "projects and baloot scoring (PROJ.*)",
    "declarations": "a declaration step: players declare projects with `declare`, "
    "instead of the engine counting every project by itself",
    "game_score": "running totals over rounds, the game target and its end (GAME.*, END.*)",
}


# variant -> the reading a case pins, or every reading it holds under
Pins = Mapping[str, str] | Mapping[str, tuple[str, ...]]


class DeclarationError(ValueError):
    """A hello whose profile, readings or capabilities the runner cannot read."""


@dataclass(frozen=True)
class Declared:
    profile: str
    plays: dict[str, str]  # variant -> the reading played when a case pins nothing
    implemented: dict[str, frozenset[str]]  # variant -> every reading it can play
    capabilities: frozenset[str]
    profile_readings: dict[str, str]  # the profile's own readings, for reports

    def missing_readings(self, pins: Pins) -> list[str]:
        """The readings a case with these pins is played under that the engine does not
        implement, as `variant=reading` (`variant=a|b` for a pin of several readings):
        pinned ones, or (with `--profile`) played ones."""
        missing = []
        for variant, reading in sorted(self.readings_for(pins).items()):
            if reading not in self.implemented.get(variant, frozenset()):
                missing.append(f"{variant}={'|'.join(pin_readings(pins.get(variant, reading)))}")
        return missing

    def missing_capabilities(self, needs: list[str] | tuple[str, ...]) -> list[str]:
        return sorted(set(needs) - self.capabilities)

    def readings_for(self, pins: Pins) -> dict[str, str]:
        """The readings a case is played under: the engine's own, the case's pins on top.
        Of a pin's readings, the first the engine implements (the first listed, else the
        one it plays, else any), else the first."""
        chosen = dict(self.plays)
        for variant, pinned in pins.items():
            readings = pin_readings(pinned)
            can = self.implemented.get(variant, frozenset())
            if readings[0] in can or chosen.get(variant) not in readings:
                chosen[variant] = next((r for r in readings if r in can), readings[0])
        return chosen

    def overrides_for(self, pins: Pins, register: Register) -> dict[str, str]:
        """The `overrides` of a `start`: where the case's readings differ from the profile."""
        base = register.readings_of(self.profile)
        return {v: r for v, r in sorted(self.readings_for(pins).items()) if base.get(v) != r}

    def off_profile_readings(self) -> dict[str, str]:
        """The played readings that differ from the profile (what the hello overrode)."""
        return {v: r for v, r in self.plays.items() if self.profile_readings.get(v) != r}


def declared_from_hello(
    hello: Mapping[str, Any], register: Register, profile: str | None = None
) -> Declared:
    """Read a hello reply. `profile` (the run's `--profile`) makes the engine play that
    profile's readings instead of its own; what it implements is still what the hello
    says. Raises DeclarationError naming the field at fault."""
    own = hello.get("profile")
    if not isinstance(own, str) or own not in register.profiles:
        raise DeclarationError(
            f"profile {_json_text(own)} is not a profile of the spec; expected one of "
            + ", ".join(register.profiles)
        )
    plays = dict(register.readings_of(own))
    for variant, reading in _mapping(hello.get("overrides", {}), "overrides").items():
        _check_reading(register, "overrides", variant, reading)
        plays[variant] = reading
    implemented = {variant: frozenset([reading]) for variant, reading in plays.items()}
    for variant, readings in _mapping(hello.get("readings", {}), "readings").items():
        if not isinstance(readings, list) or not readings:
            raise DeclarationError(f"readings.{variant}: expected a non-empty list of readings")
        for reading in readings:
            _check_reading(register, "readings", variant, reading)
        if plays[variant] not in readings:
            raise DeclarationError(
                f"readings.{variant} lists {', '.join(map(str, readings))} but not "
                f"{plays[variant]}, the reading the engine plays by its profile and overrides; "
                f"add it, or name the reading played in `overrides`"
            )
        implemented[variant] = frozenset(readings)
    capabilities = _capabilities(hello.get("capabilities"))
    problems = schema_problems(hello)  # the rest of the hello (`batch`, `name`, ...)
    if problems:
        raise DeclarationError("; ".join(dict.fromkeys(problems)))
    if profile is not None:
        if profile not in register.profiles:
            raise DeclarationError(
                f"--profile {profile!r} is not a profile of the spec; expected one of "
                + ", ".join(register.profiles)
            )
        own, plays = profile, dict(register.readings_of(profile))
    return Declared(
        own,
        plays,
        implemented,
        capabilities,
        register.readings_of(own),
    )


def capabilities_text(capabilities: frozenset[str] | set[str]) -> str:
    """An engine's capabilities in the words `conform` and `fuzz` print them in: `all`,
    `none`, or `all but X, Y`."""
    lacking = sorted(set(CAPABILITIES) - set(capabilities))
    if not lacking:
        return "all"
    if len(lacking) == len(CAPABILITIES):
        return "none"
    return "all but " + ", ".join(lacking)


def _capabilities(capabilities: Any) -> frozenset[str]:
    if capabilities is None:  # an engine claims only what it names (PROTOCOL.md)
        return frozenset()
    if not isinstance(capabilities, list) or not all(isinstance(c, str) for c in capabilities):
        raise DeclarationError("capabilities: expected a list of capability names")
    twice = sorted({c for c in capabilities if capabilities.count(c) > 1})
    if twice:
        raise DeclarationError(
            f"capabilities: {', '.join(twice)} listed more than once; expected each once"
        )
    unknown = sorted(set(capabilities) - set(CAPABILITIES))
    if unknown:
        raise DeclarationError(
            f"capabilities: unknown {', '.join(unknown)}; expected some of "
            + ", ".join(CAPABILITIES)
        )
    return frozenset(capabilities)


def schema_problems(hello: Mapping[str, Any]) -> list[str]:
    """How a hello breaks its schema (`schema/hello.reply.json`, read strictly: `true` is
    no number, `"yes"` no boolean), one line a field: the field and what it should be."""
    problems: list[str] = []
    for error in sorted(validator("hello.reply").iter_errors(dict(hello)),
                        key=lambda e: [str(p) for p in e.path]):
        field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}"
                        for p in error.absolute_path).lstrip(".")
        if error.validator == "required":  # the transport's fields are read with the
            continue  # reply, `profile` below; a hello may be given without them
        problems.append(f"{field or 'the hello'}: "
                        f"{_expected(error.validator, error.validator_value)}, "
                        f"not {_json_text(error.instance)}")
    return problems


_TYPE_WORDS = {"integer": "a whole number", "string": "a text", "boolean": "true or false",
               "object": "an object", "array": "a list", "number": "a number"}


def _expected(keyword: Any, value: Any) -> str:
    """What a schema keyword asks for, in words."""
    if keyword == "type":
        return "expected " + _TYPE_WORDS.get(str(value), str(value))
    if keyword == "required":
        return "expected the fields " + ", ".join(map(str, value))
    if keyword == "uniqueItems":
        return "expected each item once"
    if keyword == "enum":
        return "expected one of " + ", ".join(map(str, value))
    if keyword == "const":
        return f"expected {_json_text(value)}"
    if keyword == "minimum":
        return f"expected at least {value}"
    if keyword == "minItems":
        return f"expected at least {value} item(s)"
    return f"expected {keyword} {_json_text(value)}"


def _json_text(value: Any, limit: int = 80) -> str:
    try:
        text = compact_json(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."



def _mapping(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DeclarationError(f"{field}: expected an object of variant names")
    return value


def _check_reading(register: Register, field: str, variant: str, reading: Any) -> None:
    info = register.variants.get(variant)
    if info is None:
        raise DeclarationError(
            f"{field}: no variant {variant!r}; expected one of " + ", ".join(register.variants)
        )
    if reading not in info.readings:
        raise DeclarationError(
            f"{field}.{variant}: no reading {_json_text(reading)}; expected one of "
            + ", ".join(info.readings)
        )
