"""Spec mutants proven equivalent because the field they change is never read again, and
mutants of declarations that only some readings reach (their gates)."""

from __future__ import annotations

from baloot.conformance.harness.pack import Case
from baloot.conformance.mutants.dead_fields import by_dead_field, by_unseen_member, members_read
from baloot.conformance.mutants.equivalence import equivalence
from baloot.conformance.mutants.gates import gates_of, reached
from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.operators import SpecMutant
from baloot.conformance.mutants.run import load_cases
from baloot.conformance.mutants.spec_run import KILLED, SURVIVED, PackOnMutants
from baloot.grammar import model as m


def _cases(*files: str) -> list[Case]:
    chosen = [c for c in load_cases()[1] if c.file.replace("\\", "/").endswith(files)]
    assert chosen, files
    return chosen


def _mutant(mutants: dict[str, SpecMutant], mutant_id: str, description: str) -> SpecMutant:
    """A mutant by its id, checked to be the change the test means."""
    assert mutants[mutant_id].description == description, mutants[mutant_id].description
    return mutants[mutant_id]


# ---- dead fields ------------------------------------------------------------------------


def test_a_change_to_a_field_no_one_reads_is_proven_and_a_read_one_is_not(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    stage = _mutant(mutants, "redeal/member/spec/bidding:288:70#1",
                    "`dealt_again` into `open_bidding`")
    assert "`stage`" in (by_dead_field(spec, stage) or "")
    asking = _mutant(mutants, "kawesh/update/spec/bidding:282:10#2",
                     "field `asking` left out of the update")
    assert "waiting_deal" in (by_dead_field(spec, asking) or "")
    # the next deal reads who deals (A20): leaving it out is no dead store
    dealer = _mutant(mutants, "kawesh/update/spec/bidding:282:10#4",
                     "field `next_dealer_seat` left out of the update")
    assert by_dead_field(spec, dealer) is None
    phase = _mutant(mutants, "kawesh/member/spec/bidding:282:32#1", "`waiting_deal` into `bidding`")
    assert by_dead_field(spec, phase) is None
    # the game finished_round hands back is read by the next deal, its winner by no one
    winner = _mutant(mutants, "finish_round/update/spec/game:160:10#4",
                     "field `winner` left out of the update")
    assert by_dead_field(spec, winner) is not None
    totals = _mutant(mutants, "finish_round/update/spec/game:160:10#2",
                     "field `totals` left out of the update")
    assert by_dead_field(spec, totals) is None
    # the trick in progress is read in the play (who is to play, PLAY.4)
    trick = _mutant(mutants, "start_play/update/spec/play:21:10#4",
                    "field `trick` left out of the update")
    assert by_dead_field(spec, trick) is None


def test_mutants_of_dead_fields_survive_every_case_that_reaches_them(
        live: LiveSpec, mutants: dict[str, SpecMutant]) -> None:
    # a proof that excused a mutant some case kills would be unsound: one proven mutant of
    # each rule runs on every case of these files that reaches it, under the federation's
    # readings (kawesh and the next dealer's redeal are played there)
    cases = _cases("variants/kawesh/weak_hand_redeal.json", "variants/kawesh/explored.json",
                   "variants/redeal_dealer/next_dealer.json", "bidding.json", "scoring.json")
    pack = PackOnMutants(live, cases, "federation")
    proven = [mut for mut in mutants.values() if by_dead_field(live.spec, mut) is not None]
    assert {"kawesh", "redeal", "finish_round"} <= {mut.target for mut in proven}
    for mut in {mut.target: mut for mut in proven}.values():
        assert equivalence(live, mut) is not None
        verdict = pack.run(mut, kills=1)
        assert verdict.cases_run > 0, mut.id
        assert verdict.status == SURVIVED, (mut.id, verdict.killed_by)


# ---- gates ----------------------------------------------------------------------------------


def test_a_rule_called_only_under_one_reading_is_gated_by_it(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    # A27: the bid winner's ace is asked only when a sweep may be a reverse kaboot
    assert gates_of(spec, "bid_winner_held_an_ace") == (
        ("reverse_kaboot", ("sun_dealer_right_ace",)),)
    mut = _mutant(mutants, "bid_winner_held_an_ace/member/spec/scoring:260:30#2",
                  "`ace` into `eight`")
    assert ("reverse_kaboot", ("sun_dealer_right_ace",)) in mut.readings
    assert mut.pins() == {"reverse_kaboot": "sun_dealer_right_ace"}
    # the locked round is asked under every reading of every variant
    assert gates_of(spec, "is_locked") == ()
    # the proofs' own rules are reached by no rule of the engine
    assert "round_bunts" not in reached(spec)
    assert "score_round" in reached(spec)
    unreached = next(mut for mut in mutants.values() if mut.target == "round_bunts")
    proof = equivalence(LiveSpec(spec), unreached)
    assert proof is not None and proof.method == "unreached"


def test_a_case_leaving_a_gate_open_is_run_with_its_reading_and_kills_under_either_profile(
        live: LiveSpec, mutants: dict[str, SpecMutant]) -> None:
    # round.reverse-kaboot.no-ace pins no reverse_kaboot reading: under literal
    # (as_any_kaboot) it never asks for the ace; pinned to sun_dealer_right_ace, a mutant
    # that takes an eight for an ace is caught there too
    mut = _mutant(mutants, "bid_winner_held_an_ace/member/spec/scoring:260:30#2",
                  "`ace` into `eight`")
    cases = _cases("scoring.json")
    case = next(c for c in cases if c.id == "round.reverse-kaboot.no-ace")
    assert "reverse_kaboot" not in case.requires
    for profile in ("literal", "federation"):
        pack = PackOnMutants(live, cases, profile)
        assert case in pack.selected(mut)
        verdict = pack.run(mut, kills=0)
        assert verdict.status == KILLED and case.id in verdict.killed_by, (profile, verdict)


def test_a_field_carried_into_later_states_and_never_read_is_proven(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    # settle_contract sets `stage = contract_made` on the game it deals the rest of the
    # cards to, then raises or plays: the bidding's stage is read only in the bidding, and
    # the next bidding starts from a game dealt afresh (SETUP.3)
    stage = _mutant(mutants, "settle_contract/member/spec/bidding:271:79#1",
                    "`contract_made` into `open_bidding`")
    said = by_dead_field(spec, stage) or ""
    assert "`stage`" in said and "raising" in said and "playing" in said
    # its `asking = []` is set again on both ways out (the raising's queue, start_play)
    asking = _mutant(mutants, "settle_contract/update/spec/bidding:271:25#2",
                     "field `asking` left out of the update")
    assert "never handed back" in (by_dead_field(spec, asking) or "")
    # the next deal reads who deals (A20): a field read later is not proven
    dealer = next(mut for mut in mutants.values()
                  if mut.id.startswith("finish_round/update/")
                  and mut.description == "field `next_dealer_seat` left out of the update")
    assert by_dead_field(spec, dealer) is None
    # the trick in progress is read by the play (who is to play, PLAY.4)
    trick = next(mut for mut in mutants.values() if mut.id.startswith("start_play/update/")
                 and mut.description == "field `trick` left out of the update")
    assert by_dead_field(spec, trick) is None


def test_fields_proven_carried_and_unread_survive_the_cases_that_reach_them(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    live = LiveSpec(spec)
    pack = PackOnMutants(live, _cases("bidding.json", "play.json", "scoring.json"), "literal")
    proven = [mut for mut in mutants.values() if mut.target in ("settle_contract", "start_play")
              and by_dead_field(spec, mut) is not None]
    assert len(proven) >= 7
    for mut in proven:
        assert pack.run(mut, kills=1).status == SURVIVED, mut.id


def test_a_member_no_read_tells_apart_is_proven(
        spec: m.Spec, mutants: dict[str, SpecMutant]) -> None:
    # the bidding's stage is only ever compared with open_bidding, answering_hokum and
    # hokum_choice (BID.2-8), so a sun bid's stage sun_overcalls and dealt_again are alike
    assert members_read(spec, "stage") == {"open_bidding", "answering_hokum", "hokum_choice"}
    alike = _mutant(mutants, "sun_bid/member/spec/bidding:233:34#5",
                    "`sun_overcalls` into `dealt_again`")
    assert "alike to every read" in (by_unseen_member(spec, alike) or "")
    # open_bidding is one a read names: a stage set to it is told apart
    told = next(mut for mut in mutants.values() if mut.id.startswith("sun_bid/member/")
                and mut.description == "`sun_overcalls` into `open_bidding`")
    assert by_unseen_member(spec, told) is None
    # the phase is shown in every state reply
    assert all(by_unseen_member(spec, mut) is None for mut in mutants.values()
               if mut.operator == "member" and "`waiting_deal`" in mut.description)
