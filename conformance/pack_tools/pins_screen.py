"""Telling, without playing it again, that a case plays alike under another reading of a
variant its run consulted.

The generated engine is made of pure functions, and a rule reads the readings only as
the first argument it is given (`readings.VARIANT`, in a `choose`). The runtime, the
adapter and the runner decide everything from what the rules return. So while a case is
played under its own readings, every call of a rule that takes the readings is noted:
its arguments and what came of it (`ReadingScreen.tracing`). Played again with one
variant set to another reading, the run can only part from this one at a call of a rule
that reads that variant (everything before it being the same, its arguments are the
same); if each such noted call, made again with the other reading, returns what it
returned (or raises what it raised), the run makes the same calls, sends the same
replies, and gets the same verdict (`ReadingScreen.alike`). Any other difference in a
call is left to a run.

A rule "reads" a variant when the variant's name is among the names its code, or the
code of a comprehension or function inside it, looks up: more rules than read it, never
fewer, which can only send a case to a run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from types import CodeType
from typing import Any

from ...reference_impl.readings import VARIANTS, Readings, readings_from
from ...reference_impl.rule_swap import RULE_MODULES, swapped


@dataclass(frozen=True)
class Raised:
    """A call that raised: the exception's class and arguments (its words) are compared;
    the exception itself is raised again where it was raised."""

    kind: type
    args: tuple[Any, ...]
    error: BaseException = field(compare=False, repr=False)


def outcome(function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """What calling `function` on `args` gives: its value, or the `Raised` it raised."""
    try:
        return function(*args)
    except Exception as exc:  # a refusal (or a crash): both compared
        return Raised(type(exc), exc.args, exc)


def same_outcome(now: Any, was: Any) -> bool:
    return type(now) is type(was) and now == was


# One call of a rule: its name, its arguments (the readings first) and what came of it.
Call = tuple[str, tuple[Any, ...], Any]


def _names(code: CodeType) -> set[str]:
    found = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found |= _names(const)
    return found


@cache
def readings_rules() -> dict[tuple[str, str], tuple[Callable[..., Any], frozenset[str]]]:
    """(module, rule) -> the rule's function and the variants it may read, for every
    generated rule that takes the readings."""
    found = {}
    for module_name, module in RULE_MODULES.items():
        for name, value in vars(module).items():
            inner = getattr(value, "__wrapped__", value)
            code = getattr(inner, "__code__", None)
            if (code is None or getattr(inner, "__module__", None) != module.__name__
                    or code.co_argcount == 0 or code.co_varnames[0] != "readings"):
                continue
            found[(module_name, name)] = (value, frozenset(_names(code)) & set(VARIANTS))
    return found


class ReadingScreen:
    """Notes the calls of the rules that take the readings while a case is played, and
    tells whether they all come out the same under another reading of a variant."""

    def __init__(self) -> None:
        self.rules = readings_rules()
        self.functions = {name: function for (_, name), (function, _) in self.rules.items()}
        self.reads = {name: variants for (_, name), (_, variants) in self.rules.items()}

    @contextmanager
    def tracing(self) -> Iterator[list[Call]]:
        """While inside, every call of a rule that takes the readings goes into the list
        yielded (once per distinct argument objects: the rules are pure)."""
        calls: list[Call] = []
        seen: set[tuple[str, tuple[int, ...]]] = set()

        def wrapper(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
            def noted(*args: Any) -> Any:
                was = outcome(original, args)
                mark = (name, tuple(id(a) for a in args))
                if mark not in seen:  # the arguments stay alive in `calls`: ids are theirs
                    seen.add(mark)
                    calls.append((name, args, was))
                if isinstance(was, Raised):
                    raise was.error
                return was

            noted.cache_clear = getattr(original, "cache_clear", lambda: None)  # type: ignore[attr-defined]
            return noted

        with swapped({key: wrapper(key[1], function)
                      for key, (function, _) in self.rules.items()}):
            yield calls

    def alike(self, calls: list[Call], base: Readings, variant: str, reading: str) -> bool:
        """Whether every noted call of a rule that may read `variant` comes out the same
        with `variant` set to `reading` (the other variants as in `base`)."""
        other = readings_from({**{name: getattr(base, name) for name in VARIANTS},
                               variant: reading})
        for name, args, was in calls:
            if variant in self.reads[name] and not same_outcome(
                    outcome(self.functions[name], (other, *args[1:])), was):
                return False
        return True
