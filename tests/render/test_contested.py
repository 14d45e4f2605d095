"""The rules document's page for players, "the contested rules", its cards drawn from a
witness's deck, the evidence status beside each profile's choice, and the stated scope.
Expected values come from the rules (the deal pattern of spec/deal.baloot, the sources
named in spec/variants.baloot), not from the renderer's output."""

from __future__ import annotations

from pathlib import Path

from baloot.backends.document import blocks as d
from baloot.backends.document.contested import card_row, contested_choices, deal_of
from baloot.backends.document.extras import EngineWitness
from baloot.grammar import model as m

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
DECK = tuple(rank + suit for suit in "SHDC" for rank in RANKS)  # 7S 8S ... AC


def section(markdown: str, title: str) -> str:
    start = markdown.index(f"## {title}\n")
    end = markdown.find("\n## ", start + 1)
    return markdown[start:end if end >= 0 else None]


def test_a_hand_is_drawn_by_suit_from_the_ace_down() -> None:
    # spades, then hearts, diamonds, clubs; in a suit A K Q J 10 9 8 7 (A1, natural)
    (text,) = card_row(["10H", "7S", "KH", "AS", "9C"])
    assert isinstance(text, d.Str) and text.text == "A♠ 7♠ · K♥ 10♥ · 9♣"


def test_the_deal_follows_the_spec_pattern() -> None:
    """Five cards to each seat in turn from the dealer's right (seat dealer + 1), then
    the face-up card (spec/deal.baloot, first_hand and deal)."""
    witness = EngineWitness(dealer=2, deck=DECK, actions=("sun",), differs="legal",
                            under={}, cases=())
    spec_consts = _consts()
    deal = deal_of(spec_consts, witness, None)
    assert deal.hands[3] == DECK[0:5]    # the dealer's right bids first and is dealt first
    assert deal.hands[0] == DECK[5:10]
    assert deal.hands[1] == DECK[10:15]
    assert deal.hands[2] == DECK[15:20]  # the dealer last
    assert deal.face_up == DECK[20] == "JD" and not deal.whole


def test_a_round_played_out_shows_each_seat_its_eight_cards() -> None:
    plays = [f"{seat}: play {card}" for seat in range(4) for card in DECK[seat * 8:seat * 8 + 8]]
    witness = EngineWitness(dealer=0, deck=DECK, actions=(), differs="result", under={},
                            cases=())
    deal = deal_of(_consts(), witness, {"actions": ["1: sun", {"if_asked": "2: pass"}, *plays]})
    assert deal.whole and deal.hands[2] == DECK[16:24]
    assert deal.actions[1] == "2: pass (if asked)"


def _consts() -> m.Spec:
    pos = m.Pos("deal.baloot", 1, 1)
    return m.Spec(files=(), consts=(m.Const("player_count", (), None, 4, pos),
                                    m.Const("first_deal_size", (), None, 5, pos)))


def test_the_contested_choices_are_those_whose_sources_disagree(spec: m.Spec) -> None:
    """The federation's choices that the sources read again contest (issue: A8, A11, A14
    among them), and the literal ones where the page's own words pull two ways."""
    found = {(v.id, p.name) for v, picks in contested_choices(spec) for p, _ in picks}
    assert {("A2", "literal"), ("A6", "literal")} <= found
    for vid in ("A2", "A4", "A8", "A9", "A10", "A11", "A12", "A14"):
        assert (vid, "federation") in found, vid
    assert ("A1", "federation") not in found  # every source has the natural order


def test_the_contested_page_gives_readings_players_share_and_a_deal(spec: m.Spec,
                                                                   rendered: Path) -> None:
    page = section((rendered / "rules.md").read_text(encoding="utf-8"), "The contested rules")
    for variant, _ in contested_choices(spec):
        assert f"<a id=\"contested-{variant.id}\"></a>" in page, variant.id
    kaboot = page[page.index('<a id="contested-A9">'):page.index('<a id="contested-A10">')]
    assert "| `sun_44_hokum_25_projects_unraised` |" in kaboot
    assert "pagat.com/jass/baloot.html" in kaboot  # the source on the other side
    assert "*Where they disagree (federation reads*" in kaboot
    assert "random rounds, and the winner changes in" in kaboot  # the --impact share
    assert "| seat | role | cards |" in kaboot and "♠" in kaboot  # cards, not a deck string
    assert "reverse kaboot" in kaboot  # the page's 88, accounted for


def test_each_profile_choice_shows_its_status_and_the_scope_is_stated(rendered: Path) -> None:
    markdown = (rendered / "rules.md").read_text(encoding="utf-8")
    register = section(markdown, "The variant register")
    assert "**contested**. *For:*" in register and "*Against:*" in register
    assert "**unsourced**. the page says only" in register  # literal A19
    scope = section(markdown, "Scope")
    assert "What the suite checks" in scope and "What it leaves to the table or the app" in scope
    for part in ("sawa", "qaid", "kawesh", "house rules", "time limits"):
        assert f"| **{part}** |" in scope, part
