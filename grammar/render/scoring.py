"""The scoring steps, and a worked example per contract computed by the reference engine.

The steps are the SCORE clauses in order, each with the declarations that
formalise it. The worked examples are never typed in: a round is dealt from
a fixed deck and played by the generated reference engine
(`baloot.reference_impl`), with a fixed choice among its legal actions, and
every figure shown is what the engine's rules return.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from baloot.grammar import model as m
from baloot.grammar.render import blocks as d
from baloot.grammar.render.sections import cite_links, citing_clause, clause_link, decl_link

PROFILE = "literal"
DEALER = 0
MAX_ACTIONS = 400
SEEDS = range(0, 40)


@dataclass(frozen=True)
class Example:
    contract: str
    seed: int
    deck: list[str]
    face_up: str
    calls: list[tuple[int, str]]
    tricks: list[tuple[list[tuple[int, str]], int, int]]  # plays, winner seat, bunts
    result: dict[str, Any]
    result_record: str | None


def steps_blocks(spec: m.Spec) -> list[d.Block]:
    rows = []
    for clause in spec.clauses:
        if clause.family != "SCORE":
            continue
        formal = [x for x in spec.citing(clause.id) if not isinstance(x, m.Variant)]
        variants = [x for x in spec.citing(clause.id) if isinstance(x, m.Variant)]
        rows.append(((clause_link(clause.id),), d.inlines(clause.text),
                     d.joined([decl_link(x) for x in formal]) or d.inlines("—"),
                     d.joined([decl_link(x) for x in variants]) or d.inlines("—")))
    return [d.Table((d.inlines("step"), d.inlines("the clause"), d.inlines("formalised by"),
                     d.inlines("ambiguities")), tuple(rows))]


# ---------------------------------------------------------- the engine run --


def _module_of_rule(spec: m.Spec, rule: m.Rule) -> Any:
    from baloot.grammar.generate import PACKAGE, module_of

    return importlib.import_module(f"{PACKAGE}.{module_of(rule.pos.file)}")


def _card_value_rule(spec: m.Spec) -> m.Rule | None:
    """The rule that prices one card: it cites the card-value clauses, takes a card and a
    trump, and returns an int."""
    for rule in spec.rules:
        if (citing_clause(rule, ids=("SCORE.3",)) and citing_clause(rule, ids=("SCORE.4",))
                and len(rule.params) == 2 and isinstance(rule.params[0].type, m.PlainType)
                and isinstance(rule.params[1].type, m.OptionalType)
                and isinstance(rule.returns, m.PlainType) and rule.returns.name == "int"):
            return rule
    return None


def _contracts(spec: m.Spec) -> list[str]:
    """The contract kinds: the members of the enum citing BID.3 (sun, hokum)."""
    for enum in spec.enums:
        if citing_clause(enum, ids=("BID.3",)):
            return [x.notation or x.name for x in enum.members]
    return []


def play_example(spec: m.Spec, contract: str) -> Example | None:
    """A round won by a `contract` bid, played by the engine with a fixed policy: the
    first player who may bid `contract` does; everyone else passes; no raises; in the
    first trick each player declares the first project offered; then each plays the
    first card the rules allow."""
    runtime = importlib.import_module("baloot.reference_impl.runtime")
    value_rule = _card_value_rule(spec)
    card_value = getattr(_module_of_rule(spec, value_rule), value_rule.name) if value_rule \
        else None
    for seed in SEEDS:
        deck = runtime.shuffled_deck(seed)
        game = runtime.new_game(PROFILE, dealer=DEALER, deck=deck)
        face_up = runtime.card_text(game.state.face_up)
        calls: list[tuple[int, str]] = []
        bid = False
        for _ in range(MAX_ACTIONS):
            if game.round_result() is not None or game.current_player is None:
                break
            actions = game.legal_actions()
            seat = game.current_player
            phase = game.phase
            choice: str | None = None
            if phase == "bidding":
                if not bid:
                    choice = next((x for x in actions if x.split()[0] == contract), None)
                    bid = choice is not None
                choice = choice or ("pass" if "pass" in actions else actions[0])
            elif phase == "raising":
                choice = "pass" if "pass" in actions else actions[0]
            else:
                choice = next((x for x in actions if x.startswith("declare")), None) or \
                    next((x for x in actions if x.startswith("play")), actions[0])
            if phase in ("bidding", "raising") or choice.startswith("declare"):
                calls.append((seat, choice))
            game.apply(choice)
        result = game.round_result()
        if result is None or not bid:
            continue
        kind = result.get("contract", {}).get("kind") if isinstance(result.get("contract"),
                                                                      dict) else None
        if kind not in (None, contract):
            continue
        trump = game.state.contract.trump if game.state.contract is not None else None
        tricks = []
        for trick in game.state.tricks:
            plays = [(p.seat, runtime.card_text(p.card)) for p in trick.plays]
            bunts = sum(card_value(p.card, trump) for p in trick.plays) if card_value else -1
            tricks.append((plays, trick.winner, bunts))
        record = next((r.name for r in spec.records
                       if set(result) == {f.name for f in r.fields}), None)
        return Example(contract, seed, deck, face_up, calls, tricks, result, record)
    return None


def _value_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value_text(v)}" for k, v in value.items()
                         if v not in (None, [], False))
    if isinstance(value, list):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return str(value)


def example_blocks(spec: m.Spec, ex: Example) -> list[d.Block]:
    blocks: list[d.Block] = [d.Para(d.inlines(
        f"Profile {PROFILE}, dealer seat {DEALER}, the deck of seed {ex.seed} "
        f"(`shuffled_deck({ex.seed})`); the face-up card is {ex.face_up}. Seats 0 and 2 are "
        "team 0, seats 1 and 3 team 1."))]
    blocks.append(d.CodeBlock(" ".join(ex.deck), "", "the deck, first card first"))
    blocks.append(d.Para((d.Strong("Calls: "), d.Str("; ".join(f"seat {s} {c}"
                                                                for s, c in ex.calls)))))
    value_rule = _card_value_rule(spec)
    rows = []
    for i, (plays, winner, bunts) in enumerate(ex.tricks, 1):
        rows.append((d.inlines(str(i)), d.inlines(", ".join(f"{s}: {c}" for s, c in plays)),
                     d.inlines(f"seat {winner} (team {winner % 2})"),
                     d.inlines(str(bunts) if bunts >= 0 else "—")))
    bunts_head: d.Inlines = (d.Str("bunts ("), decl_link(value_rule), d.Str(")")) \
        if value_rule else d.inlines("bunts")
    blocks.append(d.Table((d.inlines("trick"), d.inlines("plays (seat: card)"),
                           d.inlines("won by"), bunts_head), tuple(rows), numeric=(0, 3)))
    record = next((r for r in spec.records if r.name == ex.result_record), None)
    head: list[d.Inline] = [d.Strong("The engine's result")]
    if record is not None:
        head.extend([d.Str(" (record "), decl_link(record), d.Str(", "),
                     *cite_links(record.cites), d.Str(")")])
    blocks.append(d.Para(tuple(head)))
    pair_rows = []
    other_rows = []
    for key, value in ex.result.items():
        is_pair = isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)
        if is_pair:
            pair_rows.append(((d.Code(key),), d.inlines(str(value[0])), d.inlines(str(value[1]))))
        else:
            other_rows.append(((d.Code(key),), d.inlines(_value_text(value))))
    blocks.append(d.Table((d.inlines("per team"), d.inlines("team 0"), d.inlines("team 1")),
                          tuple(pair_rows), numeric=(1, 2)))
    blocks.append(d.Table((d.inlines("field"), d.inlines("value")), tuple(other_rows)))
    return blocks


def scoring_section(spec: m.Spec, examples: bool = True) -> d.Section:
    blocks: list[d.Block] = [d.Para(d.inlines(
        "The steps of scoring a round are the SCORE clauses, in order; each names the "
        "declarations that formalise it."))]
    blocks.extend(steps_blocks(spec))
    blocks.append(d.Heading(2, d.inlines("Worked examples"), "scoring-examples"))
    if not examples:
        blocks.append(d.Note(d.inlines("Worked examples were left out of this rendering "
                                       "(--no-examples).")))
        return d.Section("scoring", "Scoring", tuple(blocks))
    try:
        importlib.import_module("baloot.reference_impl.runtime")
        importlib.import_module("baloot.reference_impl.entry_points")
    except ImportError as err:
        blocks.append(d.Note(d.inlines(
            "The worked examples are computed by the generated reference engine "
            "(baloot.reference_impl), which is not generated yet "
            f"({type(err).__name__}: {err}); run `baloot gen` and render again.")))
        return d.Section("scoring", "Scoring", tuple(blocks))
    blocks.append(d.Para(d.inlines(
        "One round per contract, dealt from a fixed deck and played by the generated "
        "reference engine. Nothing below is typed in: the calls and cards are the first "
        "legal ones the engine offers (the first player who may bid the contract does, "
        "every other call is a pass, projects offered in the first trick are declared), and "
        "every figure is what the engine's rules return.")))
    contracts = _contracts(spec)
    for contract in contracts:
        blocks.append(d.Heading(3, d.inlines(f"A {contract} round"), f"example-{contract}"))
        try:
            example = play_example(spec, contract)
        except Exception as err:  # the engine is another team's work in progress
            blocks.append(d.Note(d.inlines(
                f"The engine could not play a {contract} round: {type(err).__name__}: {err}")))
            continue
        if example is None:
            blocks.append(d.Note(d.inlines(
                f"No deck of the seeds tried gave a finished {contract} round.")))
            continue
        blocks.append(d.Box(f"example-{contract}-round", "example",
                            tuple(example_blocks(spec, example))))
    if not contracts:
        blocks.append(d.Note(d.inlines("The spec declares no enum of contracts (citing "
                                       "BID.3), so no example was played.")))
    return d.Section("scoring", "Scoring", tuple(blocks))
