"""Replacing rules and constants of this engine for the length of a `with` block.

The tools that watch or break the rules run the engine in their own process
with some generated functions or constants replaced: the boundary probes
record each comparison a rule makes, and the spec mutants play the engine
with one rule or one table entry changed. They write the new function's text
with the generator's emitter; this module runs that text in the namespace of
the module the rule lives in, puts it (or a constant) in place wherever the
engine holds the old one, forgets every kept result, and puts the old ones
back on the way out.

Hand-written, standard library only; a compiled build reads its rules
natively, past any replacement (`runtime.interpreted_only`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import Any

from . import (
    bidding_rules,
    cards_rules,
    deal_rules,
    definitions,
    game_rules,
    play_rules,
    projects_rules,
    raises_rules,
    scoring_rules,
)

# The generated rule modules, by the name the generator gives them (`module_of`).
RULE_MODULES: dict[str, ModuleType] = {
    module.__name__.rsplit(".", 1)[1]: module
    for module in (bidding_rules, cards_rules, deal_rules, game_rules, play_rules,
                   projects_rules, raises_rules, scoring_rules)
}


class SwapError(LookupError):
    """A rule or constant that this engine does not have."""


def rule_module(name: str) -> ModuleType:
    found = RULE_MODULES.get(name)
    if found is None:
        raise SwapError(f"no rule module {name} in the engine (a new spec file: add its "
                        "module to RULE_MODULES in reference_impl/rule_swap.py)")
    return found


def _engine_modules() -> list[ModuleType]:
    """Every module of this package that is loaded (each may hold a rule or a constant
    under its own name: `entry_points` re-exports rules, the runtime imports some)."""
    package = __name__.rsplit(".", 1)[0]
    return [module for name, module in sorted(sys.modules.items())
            if module is not None and (name == package or name.startswith(package + "."))]


def compile_rule(module: str, source: str, name: str, *, keep: bool = False,
                 extra: Mapping[str, Any] | None = None) -> Callable[..., Any]:
    """The function `name` defined by `source`, run in a copy of the namespace of the
    rule module `module` (the sibling modules bound as the generated code names them);
    `keep` wraps it in a cache as the generator does for a pure rule of hashable
    arguments; `extra` adds names (a probe the new text calls)."""
    namespace = dict(vars(rule_module(module)))
    namespace.update(RULE_MODULES)
    namespace.update(extra or {})
    exec(compile(source, f"<{module}.{name}, replaced>", "exec"), namespace)
    made: Callable[..., Any] = namespace[name]
    return cache(made) if keep else made


def clear_caches() -> None:
    """Forget kept results: a kept caller would not call a replaced rule again."""
    for module in RULE_MODULES.values():
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


@contextmanager
def swapped(rules: Mapping[tuple[str, str], Callable[..., Any]] | None = None,
            constants: Mapping[str, Any] | None = None) -> Iterator[None]:
    """While inside, the engine plays with `rules` ((module, rule name) -> function) and
    `constants` (the generated name, `GAME_TARGET` or `TRUMP_RANK_ORDER` -> value) in
    place of its own. A table (a dict) is changed in place, so every module that imported
    it sees the new entries; any other constant is set under its name in every module of
    the engine that holds it. A rule is replaced under every name a module of the engine
    holds it by, and in the closure of any function a module holds (the runtime wraps the
    entry points that take no readings)."""
    modules = _engine_modules()
    places: list[tuple[ModuleType, str, Any, Any]] = []  # (module, name, old, new)
    tables: list[tuple[dict[Any, Any], dict[Any, Any], dict[Any, Any]]] = []  # table, old, new
    cells: list[tuple[Any, Any, Any]] = []  # (a wrapper's closure cell, old, new)
    if rules:
        holding, closing = _holders(modules)
        for (module, name), function in rules.items():
            old = getattr(rule_module(module), name, None)
            if old is None:
                raise SwapError(f"no rule {name} in {module}")
            places += [(holder, held, old, function) for holder, held in holding[id(old)]]
            cells += [(cell, old, function) for cell in closing.get(id(old), ())]
    for name, value in (constants or {}).items():
        old = getattr(definitions, name, None)
        if old is None:
            raise SwapError(f"no constant {name} in the engine's definitions")
        if isinstance(old, dict):
            tables.append((old, dict(old), dict(value)))
        else:
            places += [(holder, name, vars(holder)[name], value) for holder in modules
                       if name in vars(holder)]
    clear_caches()
    try:
        for holder, name, _, new in places:
            setattr(holder, name, new)
        for table, _, new_entries in tables:
            table.clear()
            table.update(new_entries)
        for cell, _, new in cells:
            cell.cell_contents = new
        yield
    finally:
        for holder, name, old, _ in places:
            setattr(holder, name, old)
        for table, saved, _ in tables:
            table.clear()
            table.update(saved)
        for cell, old, _ in cells:
            cell.cell_contents = old
        clear_caches()


def _holders(modules: list[ModuleType]
             ) -> tuple[dict[int, list[tuple[ModuleType, str]]], dict[int, list[Any]]]:
    """Where the engine holds each object, looked up once for every rule to replace: by
    the object's id, the (module, name) pairs naming it, and the closure cells of the
    modules' functions holding it (the modules keep every object alive meanwhile)."""
    holding: dict[int, list[tuple[ModuleType, str]]] = {}
    closing: dict[int, list[Any]] = {}
    for holder in modules:
        for name, value in vars(holder).items():
            holding.setdefault(id(value), []).append((holder, name))
            for cell in getattr(value, "__closure__", None) or ():
                try:
                    contents = cell.cell_contents
                except ValueError:  # a cell not yet filled holds nothing to replace
                    continue
                closing.setdefault(id(contents), []).append(cell)
    return holding, closing
