"""Screening a case for a mutant by the calls the reference makes while it plays it.

The generated engine is made of pure functions, and the runtime and the adapter
around it decide everything from what those functions return. A mutant changes
the functions of a few rules (its own rule, or the rules naming its constant,
table or order: `LiveSpec.rules_reading`). So if, on every call of those rules
made while the reference plays a case, the mutant's function returns what the
reference's returned (or raises what it raised), the mutant plays the case call
for call as the reference does, sends the same replies and passes it: the case
cannot kill it, and it need not be run. Only a case where some call differs is
run on the mutant, and may still pass (the difference may not reach a reply).

A case's trace (a list of `Call`) is what it does to those rules: each call's
arguments and what came of it, recorded once while the reference plays the case
(in the same way the mutant will play it: with the mutant's pins, and with the
shortcut `apply_legal_action` routed as `LiveSpec.playing` routes it) and then
asked of every mutant of the same rules (`TraceKey`). Kept results are forgotten
before each case, so that a kept caller calls the traced rules again and the
trace holds every call the mutant's run could make. One swap serves a mutant's
whole run: a `Switch` holds each traced rule's two functions, the reference's
(recording) and the mutant's, and flips between them.

The screen is only used where it is sound: a constant, table or order that some
hand-written part of the engine reads itself (not only through the rules) is
never screened.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ...backends.python.generate import module_of
from ...backends.python.pyemit import constant_name
from ...reference_impl import definitions
from ...reference_impl.rule_swap import (
    RULE_MODULES,
    clear_caches,
    rule_module,
    swapped,
)
from ...reference_impl.rule_swap import (
    _engine_modules as engine_modules,  # the modules a swap looks through
)
from ..pack_tools.pins_screen import Raised, outcome, same_outcome
from .live import SHORTCUT, LiveSpec
from .operators import SpecMutant

# One call of a traced rule: its name, its arguments and what came of it.
Call = tuple[str, tuple[Any, ...], Any]


@dataclass(frozen=True)
class TraceKey:
    """What a trace depends on besides the case: the traced rules, the pins the mutant adds
    to the case, and whether the shortcut is judged."""

    rules: frozenset[str]
    pins: tuple[tuple[str, str], ...]
    judged: bool


class Screen:
    """Whether a mutant's functions answer every traced call as the reference did."""

    def __init__(self, live: LiveSpec) -> None:
        self.live = live

    def screenable(self, mutant: SpecMutant) -> bool:
        """Whether the calls of the mutant's rules decide every difference it makes."""
        return mutant.kind == "rule" or not _read_outside_rules(constant_name(mutant.target))

    def key(self, mutant: SpecMutant, added: dict[str, str]) -> TraceKey:
        return TraceKey(self.live.rules_reading(mutant), tuple(sorted(added.items())),
                        mutant.target != SHORTCUT)

    @contextmanager
    def switched(self, mutant: SpecMutant) -> Iterator[Switch]:
        """While inside, the engine plays the mutant's rules or traces the reference's, as
        the `Switch` it yields is set (one swap for a whole run of cases)."""
        rules, constants = self.live.replacement(mutant)
        switch = Switch(constants)
        wrapped: dict[tuple[str, str], Callable[..., Any]] = {}
        for name in self.live.rules_reading(mutant):
            module = module_of(self.live.spec.rule(name).pos.file)
            original = getattr(rule_module(module), name)
            wrapped[(module, name)] = switch.wrapper(name, original,
                                                     rules.get((module, name), original))
        if mutant.target != SHORTCUT:
            wrapped.update(self.live.judged())
        with swapped(wrapped):
            yield switch

    @staticmethod
    def agrees(calls: list[Call], switch: Switch) -> bool:
        """Whether every traced call comes out the same with the mutant's functions (inside
        `switch.mutant()`)."""
        for name, args, was in calls:
            if not same_outcome(outcome(switch.mutated[name], args), was):
                return False
        return True


class Switch:
    """The traced rules, each either the reference's (recording its calls: `trace`) or the
    mutant's (`mutant`, with the mutant's constants in place)."""

    def __init__(self, constants: dict[str, Any]) -> None:
        self.constants = constants
        self.mutated: dict[str, Callable[..., Any]] = {}
        self._calls: list[Call] | None = None  # None: the mutant plays
        self._seen: set[tuple[str, tuple[int, ...]]] = set()

    def trace(self) -> list[Call]:
        """From now on the reference's rules play, and their calls go into the list returned
        (one call per distinct argument objects: the rules are pure); kept results are
        forgotten, so that every call is made again."""
        self._calls, self._seen = [], set()
        clear_caches()
        return self._calls

    @contextmanager
    def mutant(self) -> Iterator[None]:
        """While inside, the mutant's rules and constants play."""
        self._calls = None
        with swapped(constants=self.constants):  # forgets kept results on the way in and out
            yield

    def wrapper(self, name: str, original: Callable[..., Any],
                mutated: Callable[..., Any]) -> Callable[..., Any]:
        self.mutated[name] = mutated

        def switched(*args: Any) -> Any:
            calls = self._calls
            if calls is None:
                return mutated(*args)
            was = outcome(original, args)
            mark = (name, tuple(id(a) for a in args))
            if mark not in self._seen:  # the arguments stay alive in `calls`: ids are theirs
                self._seen.add(mark)
                calls.append((name, args, was))
            if isinstance(was, Raised):
                raise was.error
            return was

        def cache_clear() -> None:
            for function in (original, mutated):
                clear = getattr(function, "cache_clear", None)
                if clear is not None:
                    clear()

        switched.cache_clear = cache_clear  # type: ignore[attr-defined]
        return switched


def _read_outside_rules(name: str) -> bool:
    """Whether a module of the engine other than the rule modules and the definitions
    holds the constant (or table) `name` itself: it may read it past the rules."""
    value = getattr(definitions, name, None)
    table = value if isinstance(value, dict) else None  # a table is held by identity
    ruled = {id(module) for module in RULE_MODULES.values()} | {id(definitions)}
    return any(id(module) not in ruled
               and (name in vars(module)
                    or (table is not None and any(held is table for held in vars(module).values())))
               for module in engine_modules())
