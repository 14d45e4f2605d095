"""Proving a spec mutant equivalent on the inputs the runtime ever gives the rules, and on
the actions a case can send.

The runtime (`reference_impl/runtime.py`) refuses a setup before any rule runs: a dealer
that is no seat, a deck that is not the 32 cards once each, totals that are not two whole
numbers (`SetupError`; the protocol's `start` and `deal` requests carry no other). So the
rules it calls first see only:

- `start_game(dealer, deck)`: a seat, 0 to 3, and the 32 cards in some order;
- `start_game_at(dealer, deck, totals)`: the same, and two numbers;
- `deal_next(game, deck)`: the 32 cards in some order.

A case's action reaches the rules as `apply_action`'s, or `apply_legal_action`'s when the
rules have just listed it; its text is of the protocol's notation, which `conform lint`
holds every case to (PROTOCOL.md, Notation; `harness/protocol_notation.py`), and so is every
action the rules list. So the rules see only:

- an action of the notation: a call with no card (`hokum` naming a suit or none, a raise
  `closed`, `open` or neither), a declaration of a project kind (never baloot) naming one
  card or more, each once, or a play of exactly one card.

A parameter of another rule has the same inputs when every call of that rule passes it,
unchanged, a parameter that has them (`deal`'s deck, from each of the three; then
`is_full_deck`'s). A mutant is then shown equivalent by z3 on those inputs:

- a change inside a `require`'s condition (the requirement made never to refuse, say)
  whose every name is such a parameter, a constant or a rule: the two conditions agree
  on every input the runtime gives, where the conditions on the way to the requirement
  (`path_facts.py`) that read only such names hold;
- a change anywhere in a rule each of whose parameters has such inputs: the two rules
  agree, in legality and value, on every one of them.

`tests/mutants/test_runtime_inputs.py` checks that the runtime refuses each other setup.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from ...grammar import model as m
from ...grammar.analysis import hooked_rules
from ...grammar.walk import rule_calls, walk, walk_body
from .operators import SpecMutant, rebuilt
from .path_facts import bound_names, path_facts

SEAT, DECK, PAIR = "a seat", "the 32 cards", "two numbers"
ACTION = "an action of the notation"
ENTRY_INPUTS: dict[str, dict[str, str]] = {
    "start_game": {"dealer": SEAT, "deck": DECK},
    "start_game_at": {"dealer": SEAT, "deck": DECK, "totals": PAIR},
    "deal_next": {"deck": DECK},
    "apply_action": {"action": ACTION},
    "apply_legal_action": {"action": ACTION},
}
# The kinds of action the notation writes with no card: the bidding's calls and the raises.
_CALLS = ("pass_turn", "bid_hokum", "bid_sun", "bid_ashkal", "call_kawesh",
          "double_raise", "triple_raise", "four_raise", "gahwa_raise")
_RAISES_WITH_A_FORM = ("double_raise", "triple_raise", "four_raise")


@cache
def parameter_inputs(spec: m.Spec) -> dict[tuple[str, str], str]:
    """(rule, parameter) -> the inputs the runtime gives it, where known: a rule the
    runtime calls has its `ENTRY_INPUTS` when no rule calls it too, or when every rule that
    does passes on, unchanged, a parameter with the same inputs."""
    rules = {r.name: r for r in spec.rules}
    calls = rule_calls(spec)
    roots = set(hooked_rules(spec, "engine"))
    known: dict[tuple[str, str], str] = {}
    for name, inputs in ENTRY_INPUTS.items():
        if name in rules and name in roots and name not in calls:  # the runtime's alone
            known.update({(name, param): kind for param, kind in inputs.items()})
    changed = True
    while changed:
        changed = False
        for name, rule in rules.items():
            if name not in calls or (name in roots and name not in ENTRY_INPUTS):
                continue
            for index, param in enumerate(rule.params):
                if (name, param.name) in known:
                    continue
                kinds: set[str | None] = set()
                if name in roots:  # what the runtime passes it, besides the rules' calls
                    kinds.add(ENTRY_INPUTS[name].get(param.name))
                for caller, call in calls[name]:
                    arg = call.args[index] if index < len(call.args) else None
                    caller_params = {p.name for p in rules[caller].params}
                    kind = known.get((caller, arg.name)) \
                        if isinstance(arg, m.Name) and arg.name in caller_params else None
                    kinds.add(kind)
                only = kinds.pop() if len(kinds) == 1 else None
                if only is not None:
                    known[(name, param.name)] = only
                    changed = True
    return known


def _fresh(translator: Any, param: m.Param, kind: str, constraints: list[Any]) -> Any:
    import z3

    from ...backends.symbolic import SList, equal

    u = translator.u
    if kind == SEAT:
        v = z3.Int(f"in.{param.name}")
        constraints += [v >= 0, v <= 3]
        return v
    if kind == PAIR:
        return SList(tuple((z3.BoolVal(True), z3.Int(f"in.{param.name}[{i}]"))
                           for i in range(2)))
    if kind == ACTION:
        return _action(translator, param, constraints)
    # the 32 cards once each: 32 items, all present and distinct, so that each card of
    # the full deck is one of them (said outright: z3 would have to count to find it)
    deck = u.fresh(param.type, f"in.{param.name}", list_len=32, constraints=constraints)
    assert isinstance(deck, SList)
    constraints += [guard for guard, _ in deck.items]
    every = _full_deck(translator)
    assert len(every) == len(deck.items)
    constraints += [z3.Or(*(equal(card, item) for _, item in deck.items))
                    for _, card in every]
    return deck


def _action(translator: Any, param: m.Param, constraints: list[Any]) -> Any:
    """An action of the notation: its fields as the kind allows, its cards (at most the
    32, each once: `fresh` keeps a list's records distinct) as the kind asks."""
    import z3

    u = translator.u
    action = u.fresh(param.type, f"in.{param.name}", list_len=len(_full_deck(translator)),
                     constraints=constraints)
    kind, project = action.get("kind"), action.get("project")

    def is_kind(*names: str) -> Any:
        return z3.Or(*(kind.term == u.member(name).term for name in names))

    count = z3.Sum(*(z3.If(guard, 1, 0) for guard, _ in action.get("cards").items))
    constraints += [
        z3.Implies(is_kind(*_CALLS), count == 0),
        z3.Implies(is_kind("play_card"), count == 1),
        z3.Implies(is_kind("declare_project"), z3.And(
            count >= 1, z3.Not(project.is_none),
            project.value.term != u.member("baloot").term)),
        z3.Implies(z3.Not(is_kind("declare_project")), project.is_none),
        z3.Implies(z3.Not(is_kind("bid_hokum")), action.get("suit").is_none),
        z3.Implies(z3.Not(is_kind(*_RAISES_WITH_A_FORM)), action.get("lock").is_none),
    ]
    return action


def _full_deck(translator: Any) -> tuple[Any, ...]:
    """The items (guard, card) of the spec's full deck, as the translator writes it."""
    from ...backends.symbolic import SList

    every = translator.call("full_deck", []).value
    assert isinstance(every, SList)
    return tuple(every.items)


def _differ(spec: m.Spec, mutated_spec: m.Spec, build: Any) -> bool | None:
    """Whether z3 finds inputs where the two differ (None: it cannot tell)."""
    import z3

    from ...backends.symbolic import TranslationError, Translator

    try:
        reference = Translator(spec)
        changed = Translator(mutated_spec, universe=reference.u)
        constraints: list[Any] = []
        differ = build(reference, changed, constraints)
    except (TranslationError, z3.Z3Exception, RecursionError, KeyError):
        return None
    solver = z3.Solver()
    solver.set("timeout", 20_000)
    solver.add(*constraints, differ)
    verdict = solver.check()
    return None if verdict == z3.unknown else verdict == z3.sat


def by_runtime_inputs(spec: m.Spec, mutant: SpecMutant) -> str | None:
    """What shows the mutant equal on every input the runtime gives, or None."""
    if mutant.kind != "rule" or mutant.rule is None or mutant.site is None:
        return None
    rule = spec.rule(mutant.target)
    inputs = parameter_inputs(spec)
    mutated_spec = dataclasses.replace(
        spec, rules=tuple(mutant.rule if r.name == rule.name else r for r in spec.rules))
    params = {p.name: p for p in rule.params}

    require = next((s for s in walk_body(rule.body) if isinstance(s, m.Require)
                    and any(n is mutant.site for n in walk(s.condition))), None)
    if require is not None:
        names = {n.name for n in walk(require.condition) if isinstance(n, m.Name)}
        used = names & set(params)
        local = {s.name for s in walk_body(rule.body) if isinstance(s, m.Let)} & names
        if local or not all((rule.name, n) in inputs for n in used):
            return None
        new_condition = rebuilt(require.condition, mutant.site, mutant.replacement)
        bound = bound_names(rule)
        facts = [f for f in path_facts(rule, require)
                 if all((rule.name, n.name) in inputs or n.name not in bound
                        for n in walk(f.condition) if isinstance(n, m.Name))]

        def conditions(reference: Any, changed: Any, constraints: list[Any]) -> Any:
            from ...backends.symbolic import equal, not_

            read = used | {n.name for f in facts for n in walk(f.condition)
                           if isinstance(n, m.Name) and n.name in params}
            env = {n: _fresh(reference, params[n], inputs[(rule.name, n)], constraints)
                   for n in sorted(read)}
            for fact in facts:  # the conditions on the way hold alike for both
                held = reference.expr(fact.condition, env)
                constraints.append(held if fact.holds else not_(held))
            a = reference.expr(require.condition, env)
            b = changed.expr(new_condition, env)
            return not_(equal(a, b))

        if _differ(spec, mutated_spec, conditions) is False:
            return ("the requirement it changes holds alike on every input the rules are given "
                    "(a setup the runtime accepts, an action of the notation)")
        return None

    if not params or not all((rule.name, n) in inputs for n in params):
        return None

    def rules(reference: Any, changed: Any, constraints: list[Any]) -> Any:
        import z3

        from ...backends.symbolic import and_, equal, not_

        args = [_fresh(reference, p, inputs[(rule.name, p.name)], constraints)
                for p in rule.params]
        a, b = reference.call(rule.name, args), changed.call(rule.name, args)
        legal_a, legal_b = a.legal(), b.legal()
        return not_(and_(legal_a == legal_b, z3.Implies(legal_a, equal(a.value, b.value))))

    if _differ(spec, mutated_spec, rules) is False:
        return ("equal, in legality and value, on every input the rules are given (a setup "
                    "the runtime accepts, an action of the notation)")
    return None
