"""A spec mutant played by the reference engine in this process.

`LiveSpec` writes each mutated rule with the generator's emitter
(`generate.rule_source`) and runs it in the namespace of its generated module
(`reference_impl.rule_swap`); a mutated constant, table or order is given as
the value the generator would write. While `LiveSpec.playing(mutant)` is
entered, `baloot.reference_impl` is that mutant: every in-process engine,
runner and replay of this process plays it. Nothing is built on disk, so a
mutant costs the emission of one function.

A mutant whose rule is written as the same Python text as the reference's is
the same program: `same_code` says so before anything is run.

An action is what the spec's `apply_action` makes of it. The engine's runtime
sends an action it has just listed as legal to `apply_legal_action` instead, a
shortcut that does not judge again what is known to be legal. A mutant of any
other rule is played with that shortcut through `apply_action` (`judged`), so a
mutated judgement that refuses a legal action, or takes a listed one another
way, shows at the protocol as it would in an engine that judges every action;
a mutant of the shortcut itself is played through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ...backends.python.generate import RuleModules, is_kept, module_of, rule_source
from ...backends.python.pyemit import constant_name, member_name
from ...grammar import model as m
from ...grammar.walk import walk_body
from ...reference_impl import definitions
from ...reference_impl.rule_swap import compile_rule, rule_module, swapped
from .gates import gates_of
from .operators import SpecMutant

# The rule the runtime applies a listed action by, without judging it again.
SHORTCUT = "apply_legal_action"


class LiveSpec:
    """The spec's rules as the live engine holds them, and the means to swap one."""

    def __init__(self, spec: m.Spec) -> None:
        self.spec = spec
        self.modules = RuleModules(spec)
        self._source: dict[str, str] = {}
        self._naming: dict[str, frozenset[str]] = {}  # a constant's name -> the rules naming it

    def source(self, rule: m.Rule) -> str:
        return rule_source(self.spec, rule, self.modules)

    def original_source(self, name: str) -> str:
        if name not in self._source:
            self._source[name] = self.source(self.spec.rule(name))
        return self._source[name]

    def same_code(self, mutant: SpecMutant) -> bool:
        """Whether the mutated rule is written as the very text of the reference's."""
        return mutant.rule is not None and \
            self.source(mutant.rule) == self.original_source(mutant.target)

    def replacement(self, mutant: SpecMutant
                    ) -> tuple[dict[tuple[str, str], Callable[..., Any]], dict[str, Any]]:
        """(rules, constants) to swap into the engine for the mutant (`rule_swap.swapped`)."""
        if mutant.kind == "rule":
            assert mutant.rule is not None
            module = module_of(mutant.rule.pos.file)
            keep = is_kept(self.spec, self.spec.rule(mutant.target))
            made = compile_rule(module, self.source(mutant.rule), mutant.target, keep=keep)
            return {(module, mutant.target): made}, {}
        name = constant_name(mutant.target)
        if mutant.kind == "const":
            return {}, {name: mutant.value}
        old: dict[Any, int] = getattr(definitions, name)
        by_name = {key.name: key for key in old}  # the generated enum member of each key
        if mutant.kind == "table":
            return {}, {name: {by_name[member_name(k)]: v for k, v in mutant.value.items()}}
        order = list(mutant.value)  # high to low
        return {}, {name: {by_name[member_name(k)]: len(order) - 1 - i
                           for i, k in enumerate(order)}}

    @contextmanager
    def playing(self, mutant: SpecMutant) -> Iterator[None]:
        rules, constants = self.replacement(mutant)
        if not (mutant.kind == "rule" and mutant.target == SHORTCUT):
            rules = {**rules, **self.judged()}
        with swapped(rules, constants):
            yield

    def judged(self) -> dict[tuple[str, str], Callable[..., Any]]:
        """The shortcut `apply_legal_action` replaced by `apply_action` (as it stands
        while a mutant plays: looked up at each call)."""
        module = module_of(self.spec.rule(SHORTCUT).pos.file)
        holder = rule_module(module)

        def apply_judged(*args: Any) -> Any:
            return holder.apply_action(*args)

        return {(module, SHORTCUT): apply_judged}

    def gate_rules(self, mutant: SpecMutant) -> frozenset[str]:
        """The rules holding the `choose` of a variant that gates the mutant's declaration
        (`gates.py`): a case that reaches one of them under another reading may reach the
        change once the gate's reading is pinned."""
        return frozenset(r.name for variant, _ in gates_of(self.spec, mutant.target)
                         for r in self.modules.analysis.consulting_rules(variant))

    def rules_reading(self, mutant: SpecMutant) -> frozenset[str]:
        """The rules a mutant can change the result of directly: its own rule, or every
        rule that names its constant, table or order."""
        if mutant.kind == "rule":
            return frozenset({mutant.target})
        if mutant.target not in self._naming:
            self._naming[mutant.target] = frozenset(
                r.name for r in self.spec.rules
                if any(isinstance(n, m.Name) and n.name == mutant.target
                       for n in walk_body(r.body)))
        return self._naming[mutant.target]


@contextmanager
def recording(spec: m.Spec, reached: set[str]) -> Iterator[None]:
    """While inside, every rule of the engine adds its name to `reached` when called."""
    rules: dict[tuple[str, str], Callable[..., Any]] = {}
    for rule in spec.rules:
        module = module_of(rule.pos.file)
        original = getattr(rule_module(module), rule.name)
        rules[(module, rule.name)] = _recorder(rule.name, original, reached)
    with swapped(rules):
        yield


def _recorder(name: str, original: Callable[..., Any],
              reached: set[str]) -> Callable[..., Any]:
    def recorded(*args: Any) -> Any:
        reached.add(name)
        return original(*args)

    clear = getattr(original, "cache_clear", None)
    if clear is not None:  # the kept results stay the original's, cleared through it
        recorded.cache_clear = clear  # type: ignore[attr-defined]
    return recorded
