"""The `legal-card` proof of `baloot verify`: on the real spec, `playable_cards`
always offers a card of the hand; on copies of the spec whose play rules are
broken, z3 finds the state where it offers none, or offers a card not held."""

from __future__ import annotations

from functools import cache

import pytest

from baloot.grammar import model as m
from baloot.grammar.checks import check_spec
from baloot.grammar.parser import assemble, default_spec_dir, load_spec, parse_text
from baloot.proofs import playable, verify
from baloot.proofs.proof_outcome import ProofOutcome

READINGS = ("any_card", "must_trump", "must_trump_unless_partner_wins")  # A15
LEADS = ("any_trump", "must_overtrump", "must_overtrump_opponent")  # A23
LITERAL = ("any_card", "any_trump")


@cache
def spec() -> m.Spec:
    return load_spec()


@cache
def mutated(old: str, new: str) -> m.Spec:
    """The real spec with one passage of play.baloot replaced."""
    texts = {p.name: p.read_text(encoding="utf-8")
             for p in sorted(default_spec_dir().glob("*.baloot"))}
    assert texts["play.baloot"].count(old) == 1, old
    texts["play.baloot"] = texts["play.baloot"].replace(old, new)
    decls: list[m.Decl] = []
    for name in sorted(texts):
        decls += parse_text(texts[name], name)
    s = assemble(decls, sorted(texts.items()))
    check_spec(s)
    return s


def in_force(label: str) -> tuple[str, str]:
    """The readings of void_in_hokum and trump_lead a choice's label puts in force
    ("literal: void_in_hokum=any_card, ...", "trump_lead=must_overtrump (else literal)")."""
    named = dict(part.split("=") for part in
                 label.split(": ")[-1].split(" (")[0].split(", "))
    return (named.get("void_in_hokum", LITERAL[0]), named.get("trump_lead", LITERAL[1]))


def outcomes(s: m.Spec) -> dict[tuple[str, str, str], ProofOutcome]:
    """(contract, reading of void_in_hokum, reading of trump_lead) -> outcome."""
    return {(o.contract, *in_force(o.readings)): o for o in playable.check_legal_card(s)}


def card(x: object) -> tuple[str, str]:
    assert isinstance(x, dict)
    return str(x["rank"]), str(x["suit"])


def trick_cards(example: dict[str, object]) -> list[tuple[str, str]]:
    trick = example["trick"]
    assert isinstance(trick, list)
    return [card(p["card"]) for p in trick]


def hand_cards(example: dict[str, object], key: str = "hand") -> list[tuple[str, str]]:
    hand = example[key]
    assert isinstance(hand, list)
    return [card(c) for c in hand]


def test_every_contract_and_reading_is_proven_on_the_real_spec() -> None:
    got = outcomes(spec())
    # sun, and hokum with a symbolic trump; in each the two profiles, and every reading of
    # void_in_hokum and of trump_lead moved off literal one at a time
    pairs = {("any_card", "any_trump"), ("must_trump_unless_partner_wins",
                                         "must_overtrump_opponent"),
             *((r, "any_trump") for r in READINGS), *(("any_card", r) for r in LEADS)}
    assert set(got) == {(c, *pair) for c in ("sun", "hokum (any trump)") for pair in pairs}
    for o in got.values():
        assert o.check == "legal-card"
        assert o.status == "proven", (o.contract, o.readings, o.detail)
        assert "PLAY.2" in o.title and "RAISE.2" in o.title
        assert "1 to 8 cards" in o.detail and "0 to 3 plays" in o.detail
        assert not o.failed
    assert "every trump suit" in got[("hokum (any trump)", "must_trump", "any_trump")].detail


def test_trump_duty_without_a_fallback_is_refuted() -> None:
    # must trump higher, even when no trump of the hand beats those in the trick
    duty = ("  let top = max([trump_rank_order[p.card.rank] for p in game.trick if "
            "is_trump(p.card, trump)])\n"
            "  let higher = [c for c in trumps if trump_rank_order[c.rank] > top]\n")
    s = mutated(duty + "  if len(higher) > 0 { return higher }\n  return trumps\n",
                duty + "  return higher\n")
    got = outcomes(s)
    # sun never reaches the trump duty; nor does hokum when any card may be played
    for key, o in got.items():
        if key[0] == "sun" or key[1] == "any_card":
            assert o.status == "proven", key
    ranks = [x.name for x in s.order("trump_rank_order").high_to_low]
    for key in [k for k in got if k[0] != "sun" and k[1] != "any_card"]:
        o = got[key]
        assert o.status == "refuted" and o.failed
        ex = o.counterexample
        assert ex["playable"] == []
        trump = ex["trump"]
        trick, hand = trick_cards(ex), hand_cards(ex)
        led = trick[0][1]
        assert led != trump  # a trump lead would have to be followed
        assert all(suit != led for _, suit in hand)  # void in the led suit
        hand_trumps = [rank for rank, suit in hand if suit == trump]
        played_trumps = [rank for rank, suit in trick if suit == trump]
        assert hand_trumps and played_trumps
        top = min(ranks.index(r) for r in played_trumps)  # high_to_low: lower index is higher
        assert all(ranks.index(r) > top for r in hand_trumps)  # none of them beats it


def test_locked_lead_without_a_fallback_is_refuted() -> None:
    # a locked lead must be a plain card, even from a hand of trumps only
    s = mutated("  if len(others) > 0 { return others }\n  return hand\n",
                "  return others\n")
    got = outcomes(s)
    for key in [k for k in got if k[0] == "sun"]:
        assert got[key].status == "proven"  # no card is a trump in sun
    for key in [k for k in got if k[0] != "sun"]:
        o = got[key]
        assert o.status == "refuted", key
        ex = o.counterexample
        assert ex["trick"] == [] and ex["locked"] is True and ex["playable"] == []
        hand = hand_cards(ex)
        assert hand and all(suit == ex["trump"] for _, suit in hand)


def test_a_choice_outside_the_hand_is_refuted() -> None:
    # following suit from the whole deck: the led card itself is offered, not held
    s = mutated("  let following = [c for c in hand if c.suit == led]\n",
                "  let following = [c for c in full_deck() if c.suit == led]\n")
    got = outcomes(s)
    assert got and all(o.status == "refuted" for o in got.values())
    for o in got.values():
        ex = o.counterexample
        trick, hand = trick_cards(ex), hand_cards(ex)
        offered = hand_cards(ex, "playable")
        assert trick and offered
        assert any(c not in hand for c in offered)


def test_registered_in_verify_beside_the_engine_walk() -> None:
    names = [n for n, _ in verify.all_checks(engine=True)]
    assert "legal-card" in names and "legal-action" in names
    assert "legal-card" in [n for n, _ in verify.all_checks(engine=False)]


def test_cli_runs_the_proof(capsys: pytest.CaptureFixture[str]) -> None:
    from baloot.cli.main import main

    assert main(["verify", "--only", "legal-card", "--no-engine", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "legal-card" in out and "proven" in out and "legal-action" not in out
