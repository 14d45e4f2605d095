"""Spec-wide mutation: mutants derived from the model, played in this process, proven
equivalent or found a witness, and shards that merge into one report."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from mutant_lookup import one

from baloot.cli.main import main as cli_main
from baloot.conformance.adapters.inprocess import InProcessEngine
from baloot.conformance.harness.pack import Case, case_from_json, default_pack_folder
from baloot.conformance.harness.runner import FAILED, PASSED, Runner
from baloot.conformance.harness.variants import load_register
from baloot.conformance.mutants.causes import second_causes
from baloot.conformance.mutants.differential import (
    SEEDED_GAMES,
    find_witness,
    seeded_setups,
    setups_of,
)
from baloot.conformance.mutants.equivalence import by_enumeration, by_z3, equivalence
from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.local_equivalence import by_local_algebra
from baloot.conformance.mutants.operators import OPERATORS, SpecMutant, rebuilt, spec_mutants
from baloot.conformance.mutants.order_free import by_order_free
from baloot.conformance.mutants.spec_report import (
    MergeError,
    MutantRow,
    SpecReport,
    from_json,
    merge,
    report_of,
    to_json,
)
from baloot.conformance.mutants.spec_run import (
    KILLED,
    SURVIVED,
    PackOnMutants,
    Shard,
    run_spec_mutants,
)
from baloot.conformance.mutants.survivors import analyse_survivors, thin_rows
from baloot.conformance.mutants.synthesis import case_of, kills
from baloot.grammar import model as m
from baloot.reference_impl import Game, IllegalAction, new_game
from baloot.reference_impl.definitions import TRUMP_CARD_VALUE, Rank


@pytest.fixture(scope="module")
def literal_pack(live: LiveSpec, cases: list[Case]) -> PackOnMutants:
    return PackOnMutants(live, cases, "literal")


# ---- the operators ---------------------------------------------------------------------------


def test_every_operator_makes_mutants_each_one_change_with_a_stable_id(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    count = Counter(mut.operator for mut in mutants.values())
    assert set(count) == set(OPERATORS), set(OPERATORS) - set(count)
    assert len(mutants) > 2000
    again = [mut.id for mut in spec_mutants(spec)]
    assert again == list(mutants), "the ids and their order do not depend on the run"
    known = {c.id for c in spec.clauses}
    for mut in mutants.values():
        assert set(mut.clauses) <= known, mut.id
        if mut.kind == "rule":
            assert mut.rule is not None and mut.rule != spec.rule(mut.target), mut.id


def test_a_comparison_mutant_changes_only_its_operator(spec: m.Spec,
                                                      mutants: dict[str, SpecMutant]) -> None:
    # hokum_conversion: "if bunts % 10 > 5 { return bunts // 10 + 1 }" (SCORE.8)
    mut = one(mutants, "hokum_conversion/comparison/", "`>` into `>=`")
    assert mut.clauses == ("SCORE.8",)
    original = spec.rule("hokum_conversion")
    assert mut.rule is not None
    ops = [n.op for n in _binops(mut.rule.body)]
    assert ops.count(">=") == _ops(original).count(">=") + 1
    assert ops.count(">") == _ops(original).count(">") - 1


def _binops(body: tuple[m.Stmt, ...]) -> list[m.BinOp]:
    from baloot.grammar.walk import walk_body

    return [n for n in walk_body(body) if isinstance(n, m.BinOp)]


def _ops(rule: m.Rule) -> list[str]:
    return [n.op for n in _binops(rule.body)]


def test_a_choose_mutant_knows_the_reading_it_sits_under(mutants: dict[str, SpecMutant]) -> None:
    inside = [mut for mut in mutants.values() if mut.target == "first_trick_leader"
              and mut.operator == "reading"]
    assert inside, "a choose branch given another reading's body"
    under = [mut for mut in mutants.values() if mut.target == "follow_choices"
             and mut.readings]
    assert all(variant == "trump_lead" for mut in under for variant, _ in mut.readings)
    # the branch of must_overtrump_opponent holds an `if partner_winning(...)`; the other
    # branches are a bare return, with nothing to mutate inside
    assert {readings for mut in under for _, readings in mut.readings} == \
        {("must_overtrump_opponent",)}


def test_rebuilt_replaces_one_node_by_identity() -> None:
    pos = m.Pos("x.baloot", 1, 1)
    a, b = m.IntLit(1, pos), m.IntLit(1, pos)  # equal, not the same object
    expr = m.BinOp("+", a, b, pos)
    changed = rebuilt(expr, b, m.IntLit(2, pos))
    assert changed == m.BinOp("+", m.IntLit(1, pos), m.IntLit(2, pos), pos)
    items = m.ListLit((a, b), pos)
    from baloot.conformance.mutants.operators import DROP

    assert rebuilt(items, a, DROP) == m.ListLit((b,), pos)


# ---- played in this process --------------------------------------------------------------------


def test_a_mutant_plays_only_inside_its_block(live: LiveSpec,
                                             mutants: dict[str, SpecMutant]) -> None:
    # SCORE.4: the trump jack is worth 20 bunts; a table mutant makes it 21
    mut = one(mutants, "trump_card_value/table/", "trump_card_value[jack] 20 into 21 (plus one)")
    assert TRUMP_CARD_VALUE[Rank.JACK] == 20
    with live.playing(mut):
        assert TRUMP_CARD_VALUE[Rank.JACK] == 21
    assert TRUMP_CARD_VALUE[Rank.JACK] == 20


def test_a_mutant_of_no_catalogue_is_killed_by_the_pack(
        live: LiveSpec, mutants: dict[str, SpecMutant], literal_pack: PackOnMutants) -> None:
    """SCORE.8 drops an exact .5 in hokum: `>` into `>=` rounds 65 bunts up to 7, and the
    pack's hokum cases with a figure ending in 5 see it."""
    mut = one(mutants, "hokum_conversion/comparison/", "`>` into `>=`")
    verdict = literal_pack.run(mut, kills=2)
    assert verdict.status == KILLED and len(verdict.killed_by) == 2, verdict
    # made by hand, from no list at all: the trick goes to the LOWEST trump (PLAY.3 broken)
    rule = live.spec.rule("trick_winner")
    top = next(n for n in _walk_calls(rule) if isinstance(n.func, m.Name) and n.func.name == "max")
    lowest = rebuilt(rule, top, dataclasses.replace(top, func=m.Name("min", top.func.pos)))
    hand_made = SpecMutant("hand-made", "extreme", "rule", "trick_winner", ("PLAY.3",), (),
                           top.pos, "the lowest trump wins", rule=lowest)
    assert literal_pack.run(hand_made, kills=1).status == KILLED
    # and the reference plays as before once the block is left
    game = new_game(dealer=3, deck=_a_deck())
    assert game.current_player == 0


def test_a_mutant_judges_every_action_the_shortcut_aside(
        live: LiveSpec, mutants: dict[str, SpecMutant], literal_pack: PackOnMutants) -> None:
    # PLAY.2: `require card in hand` negated refuses every card held. The runtime's shortcut
    # for a listed action (apply_legal_action) never judges a legal card again; a mutant is
    # played with every action judged (apply_action), so the legal cards it refuses show
    refusing = one(mutants, "play_a_card/negation/spec/play:142", "the requirement negated")
    verdict = literal_pack.run(refusing, kills=1)
    assert verdict.status == KILLED, verdict
    card = _first_card(_to_the_play())
    with live.playing(refusing):
        game = _to_the_play()
        assert card in game.legal_actions()  # still listed: only the judgement changed
        with pytest.raises(IllegalAction):
            game.apply(card)
    # a mutant of the shortcut itself is played through it: its change is what it plays
    shortcut = one(mutants, "apply_legal_action/condition/", "the if condition always true")
    assert literal_pack.run(shortcut, kills=1).status == KILLED


def _to_the_play() -> Game:
    """A game of the ordered deck, bid sun by the first who may, brought to its first card."""
    game = new_game(dealer=3, deck=_a_deck())
    while game.phase != "playing":
        game.apply("sun" if "sun" in game.legal_actions() else "pass")
    return game


def _first_card(game: Game) -> str:
    return next(a for a in game.legal_actions() if a.startswith("play "))


def _walk_calls(rule: m.Rule) -> list[m.Call]:
    from baloot.grammar.walk import walk_body

    return [n for n in walk_body(rule.body) if isinstance(n, m.Call)
            and isinstance(n.func, m.Name)]


def _a_deck() -> list[str]:
    return [f"{r}{s}" for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def test_a_survivor_runs_every_case_that_reaches_its_rule(
        live: LiveSpec, literal_pack: PackOnMutants, mutants: dict[str, SpecMutant]) -> None:
    # four_of_a_kind_project: "rank in [ten, jack, queen, king]" with two items swapped
    # asks the same question: no case can kill it, every case reaching the rule runs
    mut = one(mutants, "four_of_a_kind_project/list/", "items 1 and 2 of a list swapped")
    verdict = literal_pack.run(mut, kills=2)
    assert verdict.status == SURVIVED
    assert verdict.cases_run == len(literal_pack.selected(mut)) > 0


# ---- equivalence ---------------------------------------------------------------------------------


def test_enumeration_proves_a_reordered_membership_equivalent(
        live: LiveSpec, mutants: dict[str, SpecMutant]) -> None:
    mut = one(mutants, "four_of_a_kind_project/list/", "items 1 and 2 of a list swapped")
    proof = by_enumeration(live, mut)
    assert proof is not None and proof.method == "enumeration"
    dropped = one(mutants, "four_of_a_kind_project/list/", "item 1 of a list dropped")
    assert by_enumeration(live, dropped) is None  # four tens are a hundred (PROJ.4)


def test_a_change_equal_where_it_stands_is_proven_locally(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    # follow_choices: `len(following) == 0`; a length is never below 0, so `<= 0` asks the
    # same, and `< 0` never holds
    same = one(mutants, "follow_choices/comparison/spec/play:60:6", "`==` into `<=`")
    assert by_local_algebra(spec, same) is not None
    never = one(mutants, "follow_choices/comparison/spec/play:60:6", "`==` into `<`")
    assert by_local_algebra(spec, never) is None
    # playable_cards: `len(...) > 0` is `!= 0` for a length, but `>= 0` always holds
    assert by_local_algebra(spec, one(mutants, "playable_cards/comparison/", "`>` into `!=`"))
    assert by_local_algebra(spec, one(mutants, "playable_cards/comparison/", "`>` into `>=`")) \
        is None
    # kawesh_allowed: `c.rank in [seven, eight, nine]` asks only which ranks are listed
    swapped = one(mutants, "kawesh_allowed/list/", "items 1 and 2 of a list swapped")
    assert by_local_algebra(spec, swapped) is not None
    dropped = one(mutants, "kawesh_allowed/list/", "item 1 of a list dropped")
    assert by_local_algebra(spec, dropped) is None
    # stage_calls: the calls listed are a value of their own, not a membership test
    listed = one(mutants, "stage_calls/list/spec/bidding:141", "items 1 and 2 of a list swapped")
    assert by_local_algebra(spec, listed) is None


def test_mutants_proven_equivalent_locally_survive_the_cases_that_reach_them(
        spec: m.Spec, mutants: dict[str, SpecMutant], literal_pack: PackOnMutants) -> None:
    # a proof that excused a mutant some case kills would be unsound: one mutant the
    # method proves of each rule among the first eight is run on every case reaching it
    proven = [mut for mut in mutants.values() if by_local_algebra(spec, mut) is not None]
    assert len(proven) >= 20
    assert {mut.operator for mut in proven} >= {"comparison", "list"}
    one_per_rule = list({mut.target: mut for mut in reversed(proven)}.values())[:8]
    # and each list of actions proven to be used only as a set (order_free.py)
    one_per_rule += [mut for mut in mutants.values() if by_order_free(spec, mut) is not None
                     and mut.target in ("sun_calls", "stage_calls", "raise_action")]
    for mut in one_per_rule:
        verdict = literal_pack.run(mut, kills=1)
        assert verdict.status == SURVIVED, (mut.id, verdict.killed_by)


def test_z3_proves_an_equal_formula_and_refutes_a_changedone(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    # SCORE.7: a figure ending in 5 is `bunts * 2 // 10`, which is `bunts // 5` for every
    # whole number (the floor of 2b/10 is the floor of b/5)
    rule = spec.rule("sun_conversion")
    times = next(n for n in _binops(rule.body) if n.op == "//" and isinstance(n.left, m.BinOp)
                 and n.left.op == "*")
    pos = times.pos
    assert isinstance(times.left, m.BinOp)
    same = rebuilt(rule, times, m.BinOp("//", times.left.left, m.IntLit(5, pos), pos))
    mut = SpecMutant("same", "arithmetic", "rule", "sun_conversion", ("SCORE.7",), (), pos,
                     "b * 2 // 10 into b // 5", rule=same)
    proof = by_z3(spec, mut)
    assert proof is not None and proof.method == "z3"
    changed = one(mutants, "sun_conversion/comparison/", "`==` into `!=`")
    assert by_z3(spec, changed) is None


def test_a_mutant_written_as_the_same_code_is_excused_before_running(
        live: LiveSpec, spec: m.Spec) -> None:
    rule = spec.rule("to_play")
    same = SpecMutant("same", "branch", "rule", "to_play", ("PLAY.4",), (), rule.pos, "nothing",
                      rule=dataclasses.replace(rule, doc="another docstring"))
    proof = equivalence(live, same)
    assert proof is not None and proof.method == "same_code"


# ---- witnesses and the cases written from them ---------------------------------------------------


def test_a_witness_becomes_a_case_that_passes_on_the_reference_and_kills_the_mutant(
        live: LiveSpec, mutants: dict[str, SpecMutant]) -> None:
    # PLAY.3 with the led suit's ranks read by the trump order for every suit
    mut = one(mutants, "trick_winner/extreme/spec/play:43", "`max` into `min`")
    witness = find_witness(live, mut, ("literal",), games=4)
    assert witness is not None
    raw = case_of(live, witness, mut, "synth.test.case")
    case = case_from_json(raw, "synthesised.json")
    assert case.origin == "synthesised" and case.clauses == ["PLAY.3"]
    # written only when it kills: a mutant that asks the same question passes it
    assert kills(live, mut, raw, "literal")
    same = one(mutants, "four_of_a_kind_project/list/", "items 1 and 2 of a list swapped")
    assert not kills(live, same, raw, "literal")
    register = load_register()
    reference = Runner(InProcessEngine(), register, profile="literal")
    assert reference.run_case(case).status == PASSED
    with live.playing(mut):
        assert Runner(InProcessEngine(), register, profile="literal").run_case(case).status \
            == FAILED


def test_a_mutant_that_takes_a_refused_action_gives_an_illegal_case(
        live: LiveSpec, mutants: dict[str, SpecMutant]) -> None:
    """PLAY.2: a player able to follow the led suit must. A mutant whose requirement never
    refuses lists the same legal actions, so only a probe of a card of another suit from
    the hand finds it; its case sends that card and expects a refusal with the state
    unchanged."""
    mut = mutants["play_a_card/condition/spec/play:148:15#1"]
    assert mut.description == "the requirement never refuses"
    witness = find_witness(live, mut, ("literal",), games=6)
    assert witness is not None and witness.what == "accepts"
    raw = case_of(live, witness, mut, "synth.test.probe")
    assert raw["kind"] == "illegal" and raw["expect"]["action"] == witness.at.probe
    seat = witness.at.seat
    assert seat is not None
    card = raw["expect"]["action"].removeprefix("play ")
    hand, trick = witness.at.state["hands"][seat], witness.at.state["trick"]
    led = trick[0]["card"][-1] if trick and isinstance(trick[0], dict) else trick[0][-1]
    assert card in hand and card[-1] != led and any(c[-1] == led for c in hand), \
        "a card of the hand off the led suit, from a hand that holds the led suit"
    case = case_from_json(raw, "synthesised.json")
    register = load_register()
    assert Runner(InProcessEngine(), register, profile="literal").run_case(case).status == PASSED
    with live.playing(mut):
        assert Runner(InProcessEngine(), register, profile="literal").run_case(case).status \
            == FAILED


def test_seeded_games_start_where_the_cases_start_that_agree_with_the_mutant(
        cases: list[Case], mutants: dict[str, SpecMutant]) -> None:
    setups = setups_of(cases)
    # one start per dealer, deck, totals and pins: a deck several cases share is played once
    assert len({(s.dealer, s.deck, s.totals, s.pins) for s in setups}) == len(setups) < len(cases)
    # a mutant inside `choose sun_overcall` is reached under its reading only: no start
    # pinning another reading of sun_overcall is played for it
    mut = next(mt for mt in mutants.values() if dict(mt.readings).get("sun_overcall"))
    wanted = mut.pins()["sun_overcall"]
    chosen = seeded_setups(setups, mut)
    assert 0 < len(chosen) <= SEEDED_GAMES
    assert all(dict(s.pins).get("sun_overcall", wanted) == wanted for s in chosen)
    # those citing the mutant's clauses come first
    citing = [bool(s.clauses & set(mut.clauses)) for s in chosen]
    assert citing == sorted(citing, reverse=True) and citing[0]


def test_a_thin_kill_is_sought_a_second_witness_away_from_its_killing_case(
        live: LiveSpec, cases: list[Case], mutants: dict[str, SpecMutant]) -> None:
    # a mutant killed under a profile by one case only is a thin kill: its second witness
    # is sought on the profile's readings with those the killing case pins, never from the
    # deal of the case that kills it
    mut = one(mutants, "trick_winner/extreme/spec/play:43", "`max` into `min`")
    killer = cases[0]
    row = MutantRow(mut.id, mut.index, mut.operator, mut.kind, mut.target, [], [], "", "",
                    {"literal": {"status": KILLED, "killed_by": [killer.id]}})
    twice = dataclasses.replace(row, id="twice", verdicts={
        "literal": {"status": KILLED, "killed_by": [killer.id, cases[1].id]}})
    report = SpecReport("digest", ["literal"], len(cases), 2, [row, twice])
    assert thin_rows(report) == [row]
    setups = setups_of(cases)
    mine = [s for s in setups if killer.id in s.cases]
    assert len(mine) == 1
    away = seeded_setups(setups, mut, avoid=frozenset({killer.id}))
    assert mine[0] not in away
    witnesses = analyse_survivors(live, report, mutants, games=4, setups=setups, thin=True)
    assert [w.mutant for w in witnesses] == [mut.id]
    # no reading moved off the profile: only the mutant's and those its killing case pins
    assert witnesses[0].overrides == {**killer.requires, **mut.pins()}
    assert witnesses[0].deck != list(killer.deck)
    assert row.witness is not None and row.witness.startswith("a second witness")
    assert twice.witness is None


def test_games_near_the_end_reach_later_deals_and_the_end_of_the_game() -> None:
    """The differential's games deal again after a round, up to ROUNDS deals, and those
    started from running totals near 152 reach the end of the game."""
    import random

    from baloot.conformance.mutants import differential
    from baloot.reference_impl import shuffled_deck

    rng = random.Random(5)
    ends, deals = 0, 0
    for number in range(6):
        later = [shuffled_deck(rng.randrange(10**9)) for _ in range(differential.ROUNDS - 1)]
        g = differential._Game("literal", {}, number % 4, shuffled_deck(number), later,
                               [140, 145] if number % 2 else None)
        steps = differential._play_reference(g, random.Random(number), style=number % 3)
        deals += sum(1 for s in steps if s.action is None and s.deck is not None)
        ends += steps[-1].state["phase"] == "game_over"
    assert deals >= 3 and ends >= 2


# ---- shards --------------------------------------------------------------------------------


def test_shards_merge_into_the_report_of_one_run(spec: m.Spec, cases: list[Case],
                                                 mutants: dict[str, SpecMutant]) -> None:
    chosen = [mut for mut in mutants.values() if mut.target in ("hokum_conversion", "to_play")]
    few = cases[:60]
    whole = report_of(spec, run_spec_mutants(spec, few, profiles=("literal",), mutants=chosen),
                      2)
    parts = []
    for k in (1, 2, 3):
        run = run_spec_mutants(spec, few, profiles=("literal",), mutants=chosen,
                               shard=Shard(k, 3))
        parts.append((f"shard {k}", from_json(json.loads(json.dumps(to_json(
            report_of(spec, run, 2)))), f"shard {k}")))
    merged = merge(parts)
    assert [(r.id, r.verdicts) for r in merged.rows] == \
        [(r.id, r.verdicts) for r in whole.rows]
    assert merged.shards == ["1/3", "2/3", "3/3"]
    with pytest.raises(MergeError, match="3/3 missing"):
        merge(parts[:2])
    with pytest.raises(MergeError, match="also in"):
        merge([parts[0], parts[0]])
    other = dataclasses.replace(parts[1][1], spec_digest="0" * 16)
    with pytest.raises(MergeError, match="its spec"):
        merge([parts[0], ("other", other), parts[2]])


def test_the_command_says_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    assert cli_main(["conform", "mutants", "--spec", "--shard", "0/2"]) == 2
    assert "--shard '0/2': expected K/N with 1 <= K <= N" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    assert cli_main(["conform", "mutants", "--spec", "--merge", str(bad)]) == 2
    assert "not a spec mutation report" in capsys.readouterr().out
    assert cli_main(["conform", "mutants", "--shard", "1/2"]) == 2
    assert "goes with --spec" in capsys.readouterr().out


def test_the_command_runs_a_few_mutants_and_writes_its_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    pack = tmp_path / "pack"
    pack.mkdir()
    for name in ("pack.json", "scoring.json"):  # a small pack: its hokum rounding cases
        shutil.copy(default_pack_folder() / name, pack / name)
    status = cli_main(["conform", "mutants", "--spec", "--only", "hokum_conversion/*",
                       "--profile", "literal", "--games", "0", "--target", "0",
                       "--cases", str(pack), "--json", str(out)])
    text = capsys.readouterr().out
    assert status == 0, text
    assert "spec mutants by operator" in text and "profile literal: kill rate" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["profiles"] == ["literal"]
    assert all(row["target"] == "hokum_conversion" for row in data["mutants"])
    assert data["kill_rate"]["literal"] > 0.5
    # the target counts a mutant killed by two cases (the run's --kills) or more
    twice = 100 * data["killed_twice_rate"]["literal"]
    assert cli_main(["conform", "mutants", "--spec", "--only", "hokum_conversion/*",
                     "--profile", "literal", "--games", "0", "--target", f"{twice + 0.1}",
                     "--cases", str(pack)]) == 1
    assert f"{twice:.1f}% of the mutants not proven equivalent killed by 2 case(s) or more" \
        in capsys.readouterr().out



# ---- one cause per case ------------------------------------------------------------------------


def _row(index: int, target: str, clauses: list[str], killed: list[str], at_check: list[str]
         ) -> MutantRow:
    return MutantRow(f"{target}/x#{index}", index, "number", "rule", target, clauses, [],
                     "spec/x.baloot:1:1", "a change",
                     {"literal": {"status": KILLED if killed else SURVIVED,
                                  "killed_by": killed, "at_check": at_check, "cases_run": 3}})


def test_a_case_killed_at_a_check_by_a_rule_it_does_not_cite_has_a_second_cause(
        cases: list[Case]) -> None:
    target = next(c for c in cases if c.id.startswith("boundary.game_target"))
    rounding = next(c for c in cases if "SCORE.8" in c.clauses)
    report = SpecReport("digest", ["literal"], len(cases), 0, [
        # hokum rounding (SCORE.8), which the game-target case does not cite, decides its
        # totals: a second cause
        _row(0, "hokum_conversion", ["SCORE.8"], [target.id, rounding.id],
             [target.id, rounding.id]),
        # who wins a trick is the ground every played case stands on
        _row(1, "trick_winner", ["PLAY.3"], [target.id], [target.id]),
        # a mutant that sends the game elsewhere (a refused action) is no second cause
        _row(2, "ask_hokum_answers", ["BID.3"], [target.id], []),
    ])
    found = second_causes(report, cases, "literal")
    assert [(c.case, c.rule, c.clauses) for c in found] == \
        [(target.id, "hokum_conversion", ("SCORE.8",))]
    with pytest.raises(ValueError, match="--kills 0"):
        second_causes(dataclasses.replace(report, kills_wanted=2), cases, "literal")
