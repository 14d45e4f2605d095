"""Proving a surviving spec mutant equivalent to the reference, or failing to.

A survivor is excused only when it is shown to compute what the reference
computes:

- `same_code`: the mutated rule is written as the very Python text of the
  reference's (`LiveSpec.same_code`);
- `unreached`: no rule the engine's runtime calls (`hooks engine`) reaches the
  mutated declaration, under any reading (`gates.reached_by_engine`): only the proofs
  read it;
- `local`: the changed expression equals the original where it stands, whatever
  its parts are (`local_equivalence.py`: a comparison equal over the integers,
  `len` at least 0; a list asked only for membership, its items reordered);
- `dead_field`: the change is confined to one field of one record update, and the game
  it makes is handed on, through lets, updates and other rules, into states where no
  rule of the engine and no reply reads that field (`dead_fields.py`: `stage` once the
  contract is made, say);
- `unseen_member`: a field set to another enum member, where every read of the field
  in every rule compares it with members that are neither (`dead_fields.py`);
- `order_free`: two items of a list swapped, where the list is only joined into the
  legal actions (a set in the protocol's reply) or asked what it holds
  (`order_free.py`);
- `runtime_inputs`: z3 finds no input the rules are given (a dealer 0 to 3, the 32
  cards once each, two totals: the runtime refuses every other setup; an action of the
  protocol's notation: the lint refuses any other text in a case) where the changed
  requirement, or the changed rule, differs (`runtime_inputs.py`);
- `enumeration`: every parameter of the rule ranges over a small finite
  domain (truth values, enum members, value records of them such as a card,
  or none of these), and so do the readings it consults: the mutated rule and
  the reference's are called on every argument under every combination of
  those readings and give the same value, or refuse with the same message;
- `z3`: every parameter is a number, a truth value, an enum member or a value
  record of them (no list, whose length z3 would have to bound), the rule
  lies in the fragment `backends/symbolic.py` translates, and z3 finds no
  argument and no choice of readings where the two differ in legality or in
  value.

Anything else stays alive. A bounded random differential (`differential.py`)
may find no difference and call it "probably equivalent", but that excuses
nothing.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ...backends.python.generate import module_of
from ...backends.python.pyemit import member_name
from ...grammar import model as m
from ...reference_impl import IllegalAction, choose_readings, definitions
from ...reference_impl.rule_swap import clear_caches, compile_rule, rule_module
from .dead_fields import by_dead_field, by_unseen_member
from .gates import reached_by_engine
from .live import LiveSpec
from .local_equivalence import by_local_algebra
from .operators import SpecMutant
from .order_free import by_order_free
from .runtime_inputs import by_runtime_inputs

ENUMERATION_LIMIT = 200_000  # calls of each version, at most, before enumeration gives up


@dataclass(frozen=True)
class Equivalence:
    # same_code, unreached, local, dead_field, unseen_member, order_free, runtime_inputs,
    # enumeration or z3
    method: str
    detail: str


def _values(spec: m.Spec, t: m.Type) -> list[Any] | None:
    """Every value of a type, when it is finite and small; None otherwise."""
    if isinstance(t, m.OptionalType):
        inner = _values(spec, t.inner)
        return None if inner is None else [None, *inner]
    if isinstance(t, m.ListType):
        return None
    if t.name == "bool":
        return [False, True]
    if t.name in ("int", "text"):
        return None
    enum = next((e for e in spec.enums if e.name == t.name), None)
    if enum is not None:
        cls = getattr(definitions, enum.name)
        return [cls[member_name(mem.name)] for mem in enum.members]
    record = next((r for r in spec.records if r.name == t.name), None)
    if record is None:
        return None
    domains = [_values(spec, f.type) for f in record.fields]
    if any(d is None for d in domains):
        return None
    cls = getattr(definitions, record.name)
    names = [f.name for f in record.fields]
    return [cls(**dict(zip(names, combo, strict=True)))
            for combo in itertools.product(*[d for d in domains if d is not None])]


def _outcome(function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, Any]:
    try:
        return "value", function(*args)
    except IllegalAction as refusal:
        return "refused", str(refusal)
    except Exception as exc:  # a mutant's crash is an outcome to compare, not an error here
        return "crash", type(exc).__name__


def _reading_sets(live: LiveSpec, rule: str) -> Iterator[Any]:
    variants = live.modules.analysis.variants_reached([rule])
    choices = [live.spec.variant(v).reading_names for v in variants]
    for combo in itertools.product(*choices):
        yield choose_readings("literal", dict(zip(variants, combo, strict=True)))


def by_enumeration(live: LiveSpec, mutant: SpecMutant) -> Equivalence | None:
    if mutant.kind != "rule" or mutant.rule is None:
        return None
    rule = live.spec.rule(mutant.target)
    domains = [_values(live.spec, p.type) for p in rule.params]
    if any(d is None for d in domains):
        return None
    needs = live.modules.needs_readings(rule.name)
    reading_sets = list(_reading_sets(live, rule.name)) if needs else [None]
    size = len(reading_sets)
    for d in domains:
        size *= len(d or ())
    if size > ENUMERATION_LIMIT:
        return None
    module = module_of(rule.pos.file)
    original = getattr(rule_module(module), rule.name)
    mutated = compile_rule(module, live.source(mutant.rule), rule.name)
    clear_caches()
    for readings in reading_sets:
        for args in itertools.product(*[d for d in domains if d is not None]):
            call = (readings, *args) if needs else args
            if _outcome(original, call) != _outcome(mutated, call):
                return None
    return Equivalence("enumeration", f"equal on all {size} calls")


def _z3_type(spec: m.Spec, t: m.Type) -> bool:
    """Types z3 takes without bounding a length: numbers, truth values, enums, value
    records of them, optional ones."""
    if isinstance(t, m.OptionalType):
        return _z3_type(spec, t.inner)
    if isinstance(t, m.ListType):
        return False
    if t.name in ("int", "bool") or any(e.name == t.name for e in spec.enums):
        return True
    record = next((r for r in spec.records if r.name == t.name), None)
    return record is not None and all(_z3_type(spec, f.type) for f in record.fields)


def by_z3(spec: m.Spec, mutant: SpecMutant) -> Equivalence | None:
    if mutant.kind != "rule" or mutant.rule is None:
        return None
    rule = spec.rule(mutant.target)
    if not all(_z3_type(spec, p.type) for p in rule.params):
        return None
    import z3  # the proofs' solver: only this check needs it

    from ...backends.symbolic import TranslationError, Translator, and_, equal, not_

    mutated_spec = dataclasses.replace(
        spec, rules=tuple(mutant.rule if r.name == rule.name else r for r in spec.rules))
    try:
        reference = Translator(spec)
        changed = Translator(mutated_spec, universe=reference.u)
        args = reference.params(rule.name)
        a = reference.call(rule.name, args)
        b = changed.call(rule.name, args)
        legal_a, legal_b = a.legal(), b.legal()
        differ = not_(and_(legal_a == legal_b, z3.Implies(legal_a, equal(a.value, b.value))))
    except (TranslationError, z3.Z3Exception, RecursionError):
        return None
    solver = z3.Solver()
    solver.set("timeout", 10_000)
    solver.add(differ)
    if solver.check() == z3.unsat:
        return Equivalence("z3", "no argument and no reading where they differ")
    return None


# The methods that read the spec alone, cheapest first: each says why, or None.
_SHOWN_WHERE_IT_STANDS: tuple[tuple[str, Callable[[m.Spec, SpecMutant], str | None]], ...] = (
    ("local", by_local_algebra),
    ("dead_field", by_dead_field),
    ("unseen_member", by_unseen_member),
    ("order_free", by_order_free),
    ("runtime_inputs", by_runtime_inputs),
)


def equivalence(live: LiveSpec, mutant: SpecMutant) -> Equivalence | None:
    """How the mutant is shown equivalent, or None when it is not."""
    if live.same_code(mutant):
        return Equivalence("same_code", "the mutated rule is written as the reference's")
    if mutant.target not in reached_by_engine(live.spec):
        return Equivalence("unreached", "no rule of the engine reaches it, under any reading")
    for method, prove in _SHOWN_WHERE_IT_STANDS:
        found = prove(live.spec, mutant)
        if found is not None:
            return Equivalence(method, found)
    return by_enumeration(live, mutant) or by_z3(live.spec, mutant)
