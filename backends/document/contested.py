"""The page for players: the contested rules. Each choice of a profile whose published
sources disagree, with its readings, who plays which (the profiles and the sources on
each side), how often it matters in play (the stored `baloot explore --impact` run) and
an example deal (the explorer's witness), drawn as cards: the hands per seat, not a deck
string. Reads the model and the stored results as data, as the rest of the document."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...grammar import model as m
from . import anchors as a
from . import blocks as d
from .extras import WITNESS_CASES, WITNESSES, EngineWitness, Pair, case_files, read_witnesses
from .impact import COMMAND as IMPACT_COMMAND
from .impact import IMPACT, percent
from .stored import Fields, read_stored

ANCHOR = "contested"
TITLE = "The contested rules"

DIFFERS = {"legal": "the legal actions differ", "state": "the state of the game differs",
           "result": "the round's result differs"}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_ORDER = "SHDC"
RANK_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7")  # the natural order (A1)


def card_face(card: str) -> str:
    """`10H` as `10♥`: the rank, then the suit's sign."""
    return card[:-1] + SUITS.get(card[-1], card[-1])


def sorted_hand(cards: list[str] | tuple[str, ...]) -> list[str]:
    """A hand as a player holds it: by suit (♠ ♥ ♦ ♣), each suit from the ace down."""
    def key(card: str) -> tuple[int, int]:
        suit, rank = card[-1], card[:-1]
        return (SUIT_ORDER.index(suit) if suit in SUIT_ORDER else 9,
                RANK_ORDER.index(rank) if rank in RANK_ORDER else 9)
    return sorted(cards, key=key)


def card_row(cards: list[str] | tuple[str, ...]) -> d.Inlines:
    """A row of cards, the suits apart: `A♠ 10♠ · K♥ 7♥`."""
    out: list[str] = []
    last = ""
    for card in sorted_hand(cards):
        if out and card[-1] != last:
            out.append("·")
        out.append(card_face(card))
        last = card[-1]
    return (d.Str(" ".join(out)),)


@dataclass(frozen=True)
class Deal:
    """A witness's deal as the table sees it: the dealer, the face-up card, each seat's
    cards (the five dealt before the bidding, or the whole hand when the round is played
    out), and the actions by seat."""

    dealer: int
    face_up: str
    hands: tuple[tuple[str, ...], ...]
    whole: bool  # the hands are the eight cards each seat played
    actions: tuple[str, ...]


def _action_text(action: Any) -> str:
    """A case's action as words: `2: pass`, or a conditional one (`if_asked`) so marked."""
    if isinstance(action, dict):
        return "; ".join(f"{value} ({key.replace('_', ' ')})" for key, value in action.items())
    return str(action)


def deal_of(spec: m.Spec, witness: EngineWitness, case: dict[str, Any] | None) -> Deal:
    """The deal of a witness, by the spec's dealing pattern (spec/deal.baloot): five cards
    to each seat in turn from the dealer's right, then the face-up card. Where the
    witness's case plays the round out, each seat's hand is the eight cards it played."""
    players, size = spec.const("player_count").value, spec.const("first_deal_size").value
    deck, dealer = witness.deck, witness.dealer
    first = [tuple(deck[k * size:(k + 1) * size]) for k in range(players)]
    hands = [first[(seat - dealer - 1) % players] for seat in range(players)]
    actions = tuple(_action_text(x) for x in (case or {}).get("actions", ())) or witness.actions
    played: dict[int, list[str]] = {seat: [] for seat in range(players)}
    for action in actions:
        seat, _, what = action.partition(": ")
        if seat.isdigit() and what.startswith("play "):
            played.setdefault(int(seat), []).append(what.removeprefix("play "))
    eight = len(deck) // players
    whole = all(len(played[seat]) == eight for seat in range(players))
    if whole:
        hands = [tuple(played[seat]) for seat in range(players)]
    return Deal(dealer, deck[players * size], tuple(hands), whole, actions)


def deal_blocks(deal: Deal, bidder_note: str) -> list[d.Block]:
    """The deal drawn as cards: one row per seat, then the actions."""
    rows = []
    for seat, hand in enumerate(deal.hands):
        role = "dealer" if seat == deal.dealer else (
            "first to bid" if seat == (deal.dealer + 1) % len(deal.hands) else "")
        rows.append((d.inlines(f"seat {seat} (team {seat % 2})"), d.inlines(role),
                     card_row(hand)))
    held = "the whole hand each seat plays" if deal.whole else \
        "the five cards dealt before the bidding"
    blocks: list[d.Block] = [
        d.Para((d.Str(f"Dealer: seat {deal.dealer}. Face-up card: "),
                d.Strong(card_face(deal.face_up)), d.Str(f". The hands ({held}):"))),
        d.Table((d.inlines("seat"), d.inlines("role"), d.inlines("cards")), tuple(rows)),
    ]
    bids = [x for x in deal.actions if " play " not in f" {x}"]
    plays = len(deal.actions) - len(bids)
    told = "; ".join(bids) + (f"; then {plays} cards played" if plays else "")
    blocks.append(d.Para((d.Em("The actions: "), d.Str(told + ". " + bidder_note))))
    return blocks


def _impact_rows(root: Path) -> dict[str, list[tuple[tuple[str, ...], float, float]]]:
    """Per variant ID: each measured pair of readings, the share of rounds in which they
    differ and the share in which the winner changes."""
    path = root / IMPACT
    if not path.is_file():
        return {}
    top = Fields(read_stored(path, IMPACT_COMMAND), str(path))
    found: dict[str, list[tuple[tuple[str, ...], float, float]]] = {}
    for variant in top.each("variants"):
        for pair in variant.each("pairs"):
            shares = pair.obj("shares")
            found.setdefault(variant.text("id"), []).append(
                (tuple(pair.texts("readings")), float(shares["differ"][0]),
                 float(shares["winner"][0])))
    return found


def _case(case_id: str, files: dict[str, Path]) -> dict[str, Any] | None:
    path = files.get(case_id)
    if path is None:
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return next((c for c in data.get("cases", []) if c.get("id") == case_id), None)


def _witness(pairs: tuple[Pair, ...], picked: str, others: list[str]) -> Pair | None:
    """The witness that shows the pick against a reading its opponents play, else against
    any other reading: the first with an engine witness."""
    with_engine = [p for p in pairs if p.engine is not None and picked in p.readings]
    for other in others:
        for pair in with_engine:
            if other in pair.readings:
                return pair
    return with_engine[0] if with_engine else None


def contested_choices(spec: m.Spec) -> list[tuple[m.Variant, list[tuple[m.Profile, m.Pick]]]]:
    """The variants on which some profile's choice is contested, with those choices."""
    out = []
    for variant in spec.variants:
        picks = [(p, k) for p in spec.profiles if (k := p.pick_of(variant.name)) is not None
                 and k.contested]
        if picks:
            out.append((variant, picks))
    return out


def contested_section(spec: m.Spec, root: Path) -> d.Section | None:
    choices = contested_choices(spec)
    if not choices:
        return None
    witnesses = read_witnesses(root / WITNESSES) if (root / WITNESSES).is_file() else {}
    files = case_files(root / WITNESS_CASES) if (root / WITNESS_CASES).is_dir() else {}
    impact = _impact_rows(root)
    blocks: list[d.Block] = [d.Para(d.inlines(
        f"The choices on which the published sources disagree: {len(choices)} of the "
        f"{len(spec.variants)} variants. For each, the readings, who plays which (the "
        "profiles and the sources on each side), which side a profile takes and why, how "
        f"often the readings part in random play (`{IMPACT_COMMAND}`), and an example "
        "deal on which they part (the explorer's witness), drawn as the cards each seat "
        "holds."))]
    for variant, picks in choices:
        blocks.append(_choice_box(spec, variant, picks, witnesses.get(variant.id, ()),
                                  files, impact.get(variant.id, [])))
    return d.Section(ANCHOR, TITLE, tuple(blocks))


def _choice_box(spec: m.Spec, variant: m.Variant, picks: list[tuple[m.Profile, m.Pick]],
                pairs: tuple[Pair, ...], files: dict[str, Path],
                impact: list[tuple[tuple[str, ...], float, float]]) -> d.Box:
    blocks: list[d.Block] = [
        d.Heading(3, (d.Link(f"{variant.id}", "#" + a.variant_anchor(variant.id)),
                      d.Str(" "), d.Code(variant.name))),
        d.Para(d.inlines(variant.doc)),
    ]
    rows = []
    for reading in variant.readings:
        who: list[d.Inline] = []
        profiles = [p.name for p in spec.profiles if p.readings().get(variant.name) ==
                    reading.name]
        if profiles:
            who.extend([d.Str("profile "), *d.joined([d.Link(n, "#" + a.profile_anchor(n))
                                                       for n in profiles]), d.Str(". ")])
        else:
            who.append(d.Str("no profile. "))
        every = [k for p in spec.profiles if (k := p.pick_of(variant.name)) is not None]
        sources = [s for k in every if k.reading == reading.name for s in k.sources]
        sources += [x.source for k in every for x in k.against if x.reading == reading.name]
        for i, source in enumerate(dict.fromkeys(sources)):
            who.extend([d.Str("; " if i else ""), *d.inlines(source)])
        rows.append(((d.Code(reading.name),), d.inlines(reading.text), tuple(who)))
    blocks.append(d.Table((d.inlines("reading"), d.inlines("meaning"),
                           d.inlines("who plays it")), tuple(rows)))
    outside = [x.source for _, k in picks for x in k.against if x.reading is None]
    if outside:
        blocks.append(d.Para((d.Em("Played, with no reading in the register yet: "),
                              *d.inlines("; ".join(dict.fromkeys(outside)) + "."))))
    for profile, pick in picks:
        blocks.append(d.Para((d.Em(f"Where they disagree ({profile.name} reads "),
                              d.Code(pick.reading), d.Em("): "),
                              *d.inlines(pick.settled or ""))))
    if impact:
        items = tuple((*d.joined([d.Code(r) for r in readings], " / "),
                       d.Str(f": they part in {percent(differ)} of random rounds, and the "
                             f"winner changes in {percent(winner)}."))
                      for readings, differ, winner in impact)
        blocks.append(d.Para((d.Em("How often it matters "),
                              d.Link("(measured)", "#impact"), d.Str(":"))))
        blocks.append(d.BulletList(items))
    picked = picks[0][1]
    others = [x.reading for _, k in picks for x in k.against if x.reading is not None]
    others += [p.readings()[variant.name] for p in spec.profiles]
    pair = _witness(pairs, picked.reading, [r for r in others if r != picked.reading])
    if pair is not None and pair.engine is not None:
        case = _case(pair.engine.cases[0], files) if pair.engine.cases else None
        deal = deal_of(spec, pair.engine, case)
        under = "; ".join(f"under {r}: {pair.engine.under.get(r, '?')}" for r in pair.readings)
        differs = DIFFERS.get(pair.engine.differs, f"the {pair.engine.differs} differs")
        blocks.append(d.Para((d.Em("An example deal: "), d.Str(
            f"the readings {' and '.join(pair.readings)} part after this deal: "
            f"{differs}."))))
        blocks.extend(deal_blocks(deal, f"What differs: {under}."))
    return d.Box(f"{ANCHOR}-{variant.id}", "variant", tuple(blocks))
