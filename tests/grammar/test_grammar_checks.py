"""One test per semantic check, and the syntax errors, each with its position.

Every test adds a small broken fragment (file `broken.baloot`) to a small valid
spec (file `base.baloot`) and checks the problem reported: its message, its
file, line and column, and the rendered error, which shows the offending line,
a caret under the column, and what was expected.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from baloot.grammar import model as m
from baloot.grammar.checks import check_spec
from baloot.grammar.errors import SpecError, SpecProblem
from baloot.grammar.parser import assemble, load_spec, parse_text

BASE = """\
clause DEAL.1 "Each player gets cards."
clause SCORE.1 "Cards have values."

enum Rank [DEAL.1] "Ranks." { ace "A", ten "T", king "K" }
record Card [DEAL.1] "A card." { rank: Rank, owner: int }
order rank_order [SCORE.1] "High to low." : Rank = ace > ten > king
table card_value [SCORE.1] "Values." : Rank -> int { ace: 11, ten: 10, king: 4 }
const target [SCORE.1] "Target." = 152

variant A5 rounding [SCORE.1] "How to round." {
  reading each_team "Each on its own." source "SCORE.1"
  reading bidder_takes_rest "The bidder takes the rest." source "federation"
  default each_team
}

rule value [SCORE.1] "A card's value." (card: Card) -> int {
  return card_value[card.rank]
}
"""


def build(**files: str) -> m.Spec:
    """Parse and check `name=text` files, `base` first; return the checked spec."""
    texts = {"base": BASE, **files}
    decls: list[m.Decl] = []
    for name, text in texts.items():
        decls += parse_text(text, f"{name}.baloot")
    spec = assemble(decls, [(f"{name}.baloot", text) for name, text in texts.items()])
    check_spec(spec)
    return spec


def problems(**files: str) -> tuple[SpecProblem, ...]:
    with pytest.raises(SpecError) as info:
        build(**files)
    return info.value.problems


def only_problem(broken: str) -> SpecProblem:
    found = problems(broken=broken)
    assert len(found) == 1, "\n\n".join(p.render() for p in found)
    return found[0]


def line_of(text: str, line: int) -> str:
    return text.split("\n")[line - 1]


def col(text: str, line: int, needle: str, occurrence: int = 1) -> int:
    """The 1-based column of the `occurrence`-th `needle` on `line` of `text`."""
    source = line_of(text, line)
    start = -1
    for _ in range(occurrence):
        start = source.index(needle, start + 1)
    return start + 1


def assert_problem(problem: SpecProblem, *, file: str, text: str, line: int, needle: str,
                   message: str, expected: str, occurrence: int = 1) -> None:
    """The problem is at the `needle` on `line` of `text`, and renders with a caret there."""
    column = col(text, line, needle, occurrence)
    assert problem.message == message
    assert problem.pos == m.Pos(file, line, column)
    assert problem.expected == expected
    source = line_of(text, line)
    assert problem.source_line == source
    assert_rendered(problem, source, expected)


def assert_rendered(problem: SpecProblem, source: str, expected: str) -> None:
    pos = problem.pos
    first, code, caret, wanted = problem.render().split("\n")
    assert first == f"{pos.file}:{pos.line}:{pos.column}: error: {problem.message}"
    gutter = f"{pos.line:>5} | "
    assert code == gutter + source
    assert caret.rstrip() == " " * (len(gutter) - 2) + "| " + " " * (pos.column - 1) + "^"
    assert caret.index("^") == len(gutter) + pos.column - 1  # right under the column
    assert wanted == f"      expected: {expected}"


def test_base_is_valid() -> None:
    spec = build()
    assert [r.name for r in spec.rules] == ["value"]
    assert spec.variant("A5").default == "each_team"


# ----------------------------------------------------------------- names --


def test_unknown_name() -> None:
    broken = """\
rule bonus [SCORE.1] (card: Card) -> int {
  return card_value[card.rank] + extra
}"""
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="extra",
        message="unknown name 'extra'",
        expected="a parameter, a `let` name, or a declared rule, table, order, const, enum, "
                 "enum member or record")


def test_name_out_of_scope_after_its_block() -> None:
    broken = """\
rule scoped [SCORE.1] (card: Card) -> int {
  if card.owner > 0 { let bonus = 1 }
  return bonus
}"""
    problem = only_problem(broken)
    assert_problem(problem, file="broken.baloot", text=broken, line=3, needle="bonus",
                   message="unknown name 'bonus'", expected=problem.expected)


def test_comprehension_names_are_in_scope_only_inside() -> None:
    broken = """\
rule doubled [SCORE.1] (cards: list[Card]) -> int {
  let xs = [c.owner * 2 for c in cards if c.owner > 0]
  return len(xs) + c
}"""
    problem = only_problem(broken)
    assert problem.message == "unknown name 'c'"
    assert problem.pos == m.Pos("broken.baloot", 3, col(broken, 3, "c"))


def test_duplicate_rule_across_files() -> None:
    broken = 'rule value [SCORE.1] "Again." (card: Card) -> int { return 1 }'
    first = m.Pos("base.baloot", 16, col(BASE, 16, "value"))
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="value",
        message=f"duplicate name 'value' (first declared at {first})",
        expected="a name used by no other declaration or enum member")
    assert str(first) == "base.baloot:16:6"


def test_duplicate_name_between_a_const_and_an_enum_member() -> None:
    broken = 'const ace [SCORE.1] = 1'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="ace",
        message="duplicate name 'ace' (first declared at base.baloot:4:31)",
        expected="a name used by no other declaration or enum member")
    assert col(BASE, 4, "ace") == 31


def test_duplicate_enum_member_in_one_enum() -> None:
    broken = 'enum Colour [DEAL.1] { red, black, red }'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="red",
        occurrence=2, message="duplicate name 'red' (first declared at broken.baloot:1:24)",
        expected="a name used by no other declaration or enum member")


def test_duplicate_notation_in_one_enum() -> None:
    broken = 'enum Colour [DEAL.1] { red "R", black "R" }'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="black",
        message="duplicate notation of Colour 'R' (first at broken.baloot:1:24)",
        expected="a notation of Colour given once")


def test_name_of_a_builtin() -> None:
    broken = 'rule len [SCORE.1] (xs: list[int]) -> int { return 0 }'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="len",
        message="'len' is a built-in function", expected="another name")


def test_words_that_begin_an_expression_are_not_names() -> None:
    # `none` would read as the literal, `if` and `not` cannot be referred to at all
    broken = """\
enum Colour [DEAL.1] { red, none }
rule f [SCORE.1] (if: int, state: int) -> int {
  let not = 1
  return len([true for source in [state] if source > 0])
}"""
    found = problems(broken=broken)
    expected = "a name other than false, if, none, not, true"
    assert [(p.pos.line, p.pos.column, p.message) for p in found] == [
        (1, col(broken, 1, "none"), "'none' is a word of the language, not a name"),
        (2, col(broken, 2, "if"), "'if' is a word of the language, not a name"),
        (3, 3, "'not' is a word of the language, not a name"),  # a `let` is where `let` is
    ]
    assert_problem(found[0], file="broken.baloot", text=broken, line=1, needle="none",
                   message="'none' is a word of the language, not a name", expected=expected)


def test_other_words_of_the_language_can_be_names() -> None:
    # where an expression may start only these words are taken as words
    build(ok="""\
record Step [DEAL.1] { state: int, source: int }
rule f [SCORE.1] (order: Step, for: int) -> int {
  let table = [x.state for x in [order] if x.source > for]
  return len(table) + order.state
}""")


def test_let_cannot_rebind_a_name() -> None:
    broken = """\
rule again [SCORE.1] (card: Card) -> int {
  let card = 1
  let target = 2
  return card
}"""
    found = problems(broken=broken)
    assert [(p.pos, p.message) for p in found] == [
        (m.Pos("broken.baloot", 2, 3), "'card' is already a name here"),
        (m.Pos("broken.baloot", 3, 3), "'target' is already a name here"),
    ]
    assert_problem(found[0], file="broken.baloot", text=broken, line=2, needle="let",
                   message="'card' is already a name here",
                   expected="a new name (names are never reassigned)")


def test_rule_used_as_a_value() -> None:
    broken = 'rule f [SCORE.1] (card: Card) -> int { return value }'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="value",
        message="rule 'value' used as a value", expected="a call: value(...)")


# --------------------------------------------------------------- clauses --


def test_duplicate_clause_id() -> None:
    broken = 'clause DEAL.1 "Said twice."'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="DEAL.1",
        message="duplicate clause ID 'DEAL.1' (first at base.baloot:1:8)",
        expected="a clause ID given once")


def test_cited_clause_that_does_not_exist() -> None:
    broken = 'const hand [DEAL.1, DEAL.9] "Cards per hand." = 8'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="DEAL.9",
        message="clause 'DEAL.9' does not exist",
        expected="a clause ID declared with `clause` (see spec/clauses.baloot)")


def test_variant_citing_a_missing_clause() -> None:
    broken = """\
variant A6 units [SCORE.9] "Units." {
  reading bunts "Bunts." source "SCORE.1"
  default bunts
}"""
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="SCORE.9",
        message="clause 'SCORE.9' does not exist",
        expected="a clause ID declared with `clause` (see spec/clauses.baloot)")


def test_declared_clause_no_rule_covers() -> None:
    broken = '# the page\nclause DEAL.2 "Nobody cites this."'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="DEAL.2",
        message="no rule covers clause DEAL.2",
        expected="a rule, table, order, const, enum or record citing [DEAL.2]")


def test_a_variant_alone_does_not_cover_a_clause() -> None:
    broken = """\
clause SCORE.2 "Only a variant cites this."
variant A6 units [SCORE.2] "Units." {
  reading bunts "Bunts." source "SCORE.2"
  default bunts
}"""
    problem = only_problem(broken)
    assert problem.message == "no rule covers clause SCORE.2"
    assert problem.pos == m.Pos("broken.baloot", 1, 8)


# -------------------------------------------------- variants and profiles --


def test_variant_without_default() -> None:
    broken = """\
variant A6 units [SCORE.1] "Units." {
  reading bunts "Bunts." source "SCORE.1"
}"""
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="A6",
        message="variant 'units' has no default reading",
        expected="a line `default READING` after its readings")


def test_default_that_is_not_a_reading() -> None:
    broken = """\
variant A6 units [SCORE.1] "Units." {
  reading bunts "Bunts." source "SCORE.1"
  reading points "Points." source "federation"
  default bunt
}"""
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=4, needle="bunt",
        message="default 'bunt' is not a reading of units", expected="one of bunts, points")


def test_duplicate_reading_and_variant_id() -> None:
    broken = """\
variant A5 units [SCORE.1] "Units." {
  reading bunts "Bunts." source "SCORE.1"
  reading bunts "Again." source "SCORE.1"
  default bunts
}"""
    found = problems(broken=broken)
    assert [(p.pos, p.message) for p in found] == [
        (m.Pos("broken.baloot", 1, 9), "duplicate variant ID 'A5' (first at base.baloot:10:9)"),
        (m.Pos("broken.baloot", 3, 11),
         "duplicate reading of units 'bunts' (first at broken.baloot:2:11)"),
    ]


def test_malformed_variant_id() -> None:
    broken = """\
variant B6 units [SCORE.1] "Units." {
  reading bunts "Bunts." source "SCORE.1"
  default bunts
}"""
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="B6",
        message="malformed variant ID 'B6'",
        expected="the ambiguity ID of the rules notes, such as A5")


def test_profile_that_leaves_a_variant_unset() -> None:
    broken = """\
variant A6 units [SCORE.1] "Units." {
  reading bunts "Bunts." source "SCORE.1"
  default bunts
}
profile partial "Only rounding." { rounding = each_team }"""
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=5, needle="partial",
        message="profile 'partial' leaves unset: units",
        expected="one reading chosen for every variant")


def test_profile_picking_an_unknown_reading() -> None:
    broken = 'profile odd "A typo." {\n  rounding = nearest\n}'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="nearest",
        message="'nearest' is not a reading of rounding",
        expected="one of each_team, bidder_takes_rest")


def test_profile_picking_an_unknown_variant_or_twice() -> None:
    broken = ('profile odd "Typos." {\n  rounding = each_team\n  kaboot = flat\n'
              '  rounding = bidder_takes_rest\n}')
    found = problems(broken=broken)
    assert [(p.pos.line, p.pos.column, p.message) for p in found] == [
        (3, 3, "unknown variant 'kaboot'"),
        (4, 3, "duplicate choice in profile odd 'rounding' (first at broken.baloot:2:3)"),
    ]
    assert_problem(found[0], file="broken.baloot", text=broken, line=3, needle="kaboot",
                   message="unknown variant 'kaboot'",
                   expected="the name of a variant, such as rounding")


UNITS = """\
variant A6 units [SCORE.1] "Units." {
  reading bunts "Bunts." source "SCORE.1"
  reading points "Points." source "an app"
  default bunts
}
"""


def test_profile_evidence_parses_into_the_model() -> None:
    text = UNITS + ('profile played "As played." {\n'
                    '  rounding = bidder_takes_rest contested source "app A" source "app B"\n'
                    '    against each_team "a video" against "an engine, no reading yet"\n'
                    '    settled "A is used by more players."\n'
                    '  units = bunts unsourced "no source; literal kept"\n}')
    spec = build(broken=text)
    rounding, units = spec.profile("played").picks
    assert rounding.status == "contested" and rounding.contested
    assert rounding.sources == ("app A", "app B")
    assert [(a.reading, a.source) for a in rounding.against] == [
        ("each_team", "a video"), (None, "an engine, no reading yet")]
    assert rounding.against[0].pos == m.Pos("broken.baloot", 8, 13)  # the reading named
    assert rounding.settled == "A is used by more players." and rounding.unsourced is None
    assert units.status == "unsourced" and units.sources == ()
    assert units.unsourced == "no source; literal kept"


def test_settled_and_unsourced_are_said_once_each() -> None:
    twice = ('profile played "As played." {\n'
             '  rounding = bidder_takes_rest contested source "a" against "b" settled "a" '
             'settled "b"\n}')
    with pytest.raises(SpecError) as info:
        parse_text(twice, "broken.baloot")
    problem = info.value.problems[0]
    second = twice.split("\n")[1].rindex("settled") + 1
    assert (problem.pos.line, problem.pos.column) == (2, second)  # the second `settled`
    assert "unexpected 'settled'" in problem.message


def test_a_source_needs_a_status_and_unsourced_stands_alone() -> None:
    broken = UNITS + ('profile played "As played." {\n'
                      '  rounding = each_team source "SCORE.7"\n'
                      '  units = bunts confirmed source "SCORE.5" unsourced "none"\n}')
    found = problems(broken=broken)
    assert [(p.pos.line, p.message) for p in found] == [
        (7, "profile 'played' gives its other choices an evidence status but not "
            "rounding = each_team"),
        (8, "units = bunts says it has no source and names sources or a status"),
    ]
    assert_problem(found[0], file="broken.baloot", text=broken, line=7, needle="each_team",
                   message=found[0].message, expected=found[0].expected)


def test_a_profile_with_evidence_gives_every_choice_a_status() -> None:
    broken = UNITS + ('profile played "As played." {\n'
                      '  rounding = bidder_takes_rest confirmed source "app A"\n'
                      '  units = points\n}')
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=8, needle="points",
        message="profile 'played' gives its other choices an evidence status but not "
                "units = points",
        expected='`confirmed` or `contested` with its `source` lines, or `unsourced "..."` '
                 "with the default reading")


def test_an_unsourced_choice_keeps_the_default() -> None:
    broken = UNITS + ('profile played "As played." {\n'
                      '  rounding = bidder_takes_rest unsourced "none found"\n'
                      '  units = bunts unsourced "none found"\n}')
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=7,
        needle="bidder_takes_rest",
        message="rounding = bidder_takes_rest has no source but moves off the default "
                "each_team",
        expected="a source, or the default reading each_team")


def test_confirmed_names_a_source_and_none_against() -> None:
    broken = UNITS + ('profile played "As played." {\n'
                      '  rounding = bidder_takes_rest confirmed\n'
                      '  units = bunts confirmed source "SCORE.5" against points "an app"\n}')
    found = problems(broken=broken)
    assert [(p.pos.line, p.message) for p in found] == [
        (7, "rounding = bidder_takes_rest is confirmed but names no source for it"),
        (8, "units = bunts is confirmed but names a source against it"),
    ]
    assert_problem(found[1], file="broken.baloot", text=broken, line=8, needle="points",
                   message="units = bunts is confirmed but names a source against it",
                   expected="`contested`, or no `against` line")


def test_contested_names_the_other_side_and_where_they_disagree() -> None:
    broken = UNITS + ('profile played "As played." {\n'
                      '  rounding = bidder_takes_rest contested source "app A"\n'
                      '  units = bunts contested source "SCORE.5" against bunts "an app"\n'
                      '    settled "the page wins"\n}')
    found = problems(broken=broken)
    assert [(p.pos.line, p.message) for p in found] == [
        (7, "rounding = bidder_takes_rest is contested but names no source against it"),
        (7, "rounding = bidder_takes_rest is contested but does not say where its sources "
            "disagree"),
        (8, "a source against units = bunts supports bunts itself"),
    ]
    assert found[1].expected == 'a line `settled "..."`: which side is taken, and why'


def test_against_names_a_reading_of_the_variant() -> None:
    broken = UNITS + ('profile played "As played." {\n'
                      '  rounding = each_team confirmed source "SCORE.7"\n'
                      '  units = bunts contested source "SCORE.5" against pints "an app"\n'
                      '    settled "the page wins"\n}')
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=8, needle="pints",
        message="'pints' is not a reading of units",
        expected="one of bunts, points, or no name when the register lacks the reading")


def test_the_project_spec_gives_every_choice_of_every_profile_a_status() -> None:
    """Every profile of the spec says, for each of its choices, whether its sources
    confirm it, contest it, or none decides it (issue: an evidence status on every pick)."""
    spec = load_spec()
    for profile in spec.profiles:
        assert [p.variant for p in profile.picks if p.status not in m.STATUSES] == []
        for pick in profile.picks:
            if pick.contested:
                assert pick.against and pick.settled


# ----------------------------------------------------------------------- scope --

SCOPE = """\
scope "What is in and out." {
  checks play "The legal cards."
  leaves sawa "Claims." protocol "Could be a capability."
}
"""


def test_scope_parses_into_the_model() -> None:
    spec = build(broken=SCOPE)
    (scope,) = spec.scopes
    assert scope.doc == "What is in and out."
    assert [(i.kind, i.name, i.protocol) for i in scope.items] == [
        ("checks", "play", None), ("leaves", "sawa", "Could be a capability.")]
    assert scope.of_kind("leaves")[0].pos == m.Pos("broken.baloot", 3, 10)


def test_a_part_left_out_says_whether_the_protocol_could_check_it() -> None:
    broken = SCOPE.replace(' protocol "Could be a capability."', "")
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=3, needle="sawa",
        message="the scope leaves 'sawa' out but does not say whether the protocol could "
                "check it",
        expected='a line `protocol "..."`: could it become a capability, or why not')


def test_one_scope_and_each_part_once() -> None:
    broken = SCOPE + 'scope "Again." {\n  checks play "Twice."\n}\n'
    found = problems(broken=broken)
    assert [(p.pos.line, p.message) for p in found] == [
        (5, "a second scope (the first at broken.baloot:1:1)"),
    ]
    twice = 'scope "Twice." {\n  checks play "One."\n  checks play "Two."\n}\n'
    assert only_problem(twice).message == \
        "duplicate part of the scope 'play' (first at broken.baloot:2:10)"


def test_reading_test_with_unknown_reading_or_variant() -> None:
    broken = ("rule f [SCORE.1] () -> bool {\n  return rounding is nearest"
              " or kaboot is flat\n}")
    found = problems(broken=broken)
    assert [(p.pos.column, p.message) for p in found] == [
        (col(broken, 2, "nearest"), "'nearest' is not a reading of rounding"),
        (col(broken, 2, "kaboot"), "unknown variant 'kaboot'"),
    ]


# ------------------------------------------------------- orders and tables --


def test_order_missing_a_member() -> None:
    broken = 'order short [SCORE.1] "Too short." : Rank = ace > ten'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="short",
        message="order 'short' is not a permutation of Rank: missing king",
        expected="each of the 3 members of Rank exactly once")


def test_order_repeating_a_member() -> None:
    broken = 'order twice [SCORE.1] : Rank = ace > ten > king > ten'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="ten",
        occurrence=2, message="duplicate member of twice 'ten' (first at broken.baloot:1:38)",
        expected="a member of twice given once")
    assert col(broken, 1, "ten") == 38


def test_order_with_a_foreign_member() -> None:
    broken = 'order foreign [SCORE.1] : Rank = ace > ten > king > queen'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="queen",
        message="'queen' is not a member of Rank", expected="one of ace, ten, king")


def test_order_missing_repeated_and_foreign_at_once() -> None:
    broken = 'order messy [SCORE.1] : Rank = ace > queen > ace'
    found = problems(broken=broken)
    assert [(p.pos.column, p.message) for p in found] == [
        (col(broken, 1, "messy"), "order 'messy' is not a permutation of Rank: missing ten, king"),
        (col(broken, 1, "queen"), "'queen' is not a member of Rank"),
        (col(broken, 1, "ace", 2), "duplicate member of messy 'ace' (first at broken.baloot:1:32)"),
    ]


def test_order_over_something_that_is_not_an_enum() -> None:
    broken = 'order odd [SCORE.1] : Card = ace > ten > king'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="Card",
        message="'Card' is not an enum", expected="the name of an enum, such as Rank")


def test_table_missing_a_key() -> None:
    broken = 'table partial [SCORE.1] : Rank -> int {\n  ace: 1,\n  ten: 2\n}'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="partial",
        message="table 'partial' misses king", expected="a value for every member of Rank")


def test_table_repeating_a_key() -> None:
    broken = 'table repeated [SCORE.1] : Rank -> int {\n  ace: 1, ten: 2, king: 3,\n  ten: -2\n}'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=3, needle="ten",
        message="duplicate key of table repeated 'ten' (first at broken.baloot:2:11)",
        expected="a key of table repeated given once")
    assert col(broken, 2, "ten") == 11


def test_table_with_a_foreign_key_and_an_unknown_value_type() -> None:
    broken = 'table odd [SCORE.1] : Rank -> Points { ace: 1, ten: 2, king: 3, queen: 4 }'
    found = problems(broken=broken)
    assert [(p.pos.column, p.message) for p in found] == [
        (col(broken, 1, "Points"), "unknown type 'Points'"),
        (col(broken, 1, "queen"), "'queen' is not a member of Rank"),
    ]


# ---------------------------------------------------------------- choose --


def test_choose_missing_a_reading() -> None:
    broken = """\
rule rounded [SCORE.1] (card: Card) -> int {
  choose rounding {
    each_team { return 1 }
  }
}"""
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="choose",
        message="choose rounding misses bidder_takes_rest",
        expected="a case for every reading of rounding")


def test_choose_inventing_or_repeating_a_reading() -> None:
    broken = """\
rule rounded [SCORE.1] (card: Card) -> int {
  choose rounding {
    each_team, bidder_takes_rest { return 1 }
    nearest { return 2 }
    each_team { return 3 }
  }
}"""
    found = problems(broken=broken)
    assert [(p.pos.line, p.pos.column, p.message) for p in found] == [
        (4, 5, "'nearest' is not a reading of rounding"),
        (5, 5, "reading 'each_team' is chosen twice"),
    ]
    assert_problem(found[0], file="broken.baloot", text=broken, line=4, needle="nearest",
                   message="'nearest' is not a reading of rounding",
                   expected="one of each_team, bidder_takes_rest")


def test_choose_on_an_unknown_variant() -> None:
    broken = ("rule r [SCORE.1] () -> int {\n  choose kaboot {\n    flat { return 1 }\n  }\n}")
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="choose",
        message="unknown variant 'kaboot'", expected="the name of a variant, such as rounding")


# ----------------------------------------------------------------- calls --


def test_unknown_rule_call() -> None:
    broken = 'rule f [SCORE.1] (card: Card) -> int {\n  return 1 + bonus(card)\n}'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="bonus",
        message="unknown rule 'bonus'",
        expected="a declared rule, a record, or a built-in function")


def test_wrong_arity_of_a_rule() -> None:
    broken = 'rule f [SCORE.1] (card: Card) -> int {\n  return value(card, 2)\n}'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="value",
        message="value takes 1 argument(s), given 2", expected="value(card)")


def test_rules_take_no_keyword_arguments() -> None:
    broken = 'rule f [SCORE.1] (c: Card) -> int {\n  return value(card=c)\n}'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="value",
        message="value takes 1 argument(s), given 1", expected="value(card)")


def test_wrong_arity_of_a_builtin() -> None:
    broken = 'rule f [SCORE.1] (xs: list[int]) -> int {\n  return len(xs, xs) + range(1)[0]\n}'
    found = problems(broken=broken)
    assert [(p.pos.column, p.message, p.expected) for p in found] == [
        (col(broken, 2, "len"), "built-in len takes 1 argument(s)", "len with 1 argument(s)"),
        (col(broken, 2, "range"), "built-in range takes 2 argument(s)",
         "range with 2 argument(s)"),
    ]


def test_calling_something_that_is_not_a_name() -> None:
    broken = 'rule f [SCORE.1] (card: Card) -> int {\n  return card.rank(1)\n}'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="card",
        message="only rules, records and built-ins can be called", expected="a name before '('")


def test_record_construction_missing_a_field() -> None:
    broken = 'rule f [SCORE.1] () -> Card {\n  return Card(rank=ace)\n}'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="Card",
        message="Card misses field(s) owner", expected="a value for every field of Card")


def test_record_construction_with_an_unknown_field() -> None:
    broken = 'rule f [SCORE.1] () -> Card {\n  return Card(rank=ace, owner=1, colour=2)\n}'
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=2, needle="colour",
        message="Card has no field 'colour'", expected="one of rank, owner")


def test_record_construction_with_positional_values() -> None:
    broken = 'rule f [SCORE.1] () -> Card {\n  return Card(ace, 1)\n}'
    found = problems(broken=broken)
    assert [(p.pos.column, p.message, p.expected) for p in found] == [
        (10, "record Card is built with named fields", "Card(rank=..., owner=...)"),
        (10, "Card misses field(s) rank, owner", "a value for every field of Card"),
    ]


def test_unknown_field_access_and_update() -> None:
    broken = """\
rule f [SCORE.1] (card: Card) -> int {
  let other = card with { colour = 1 }
  return card.colour
}"""
    found = problems(broken=broken)
    assert [(p.pos.line, p.pos.column, p.message) for p in found] == [
        (2, col(broken, 2, "colour"), "no record has a field 'colour'"),
        (3, col(broken, 3, "colour"), "no record has a field 'colour'"),
    ]
    assert_problem(found[1], file="broken.baloot", text=broken, line=3, needle="colour",
                   message="no record has a field 'colour'",
                   expected="the name of a field of a declared record")


# ------------------------------------------------------ returns and types --


def test_rule_that_can_end_without_return() -> None:
    broken = """\
rule maybe [SCORE.1] (card: Card) -> int {
  if card.owner > 0 { return 1 } elif card.owner < 0 { return 2 }
}"""
    assert_problem(
        only_problem(broken), file="broken.baloot", text=broken, line=1, needle="maybe",
        message="rule 'maybe' can end without returning a value",
        expected="a `return` at the end of every path through the rule")


@pytest.mark.parametrize("body", [
    "",
    "let x = 1",
    "require true else \"no\"",
    "if true { return 1 } else { let y = 2 }",
    "choose rounding { each_team { return 1 } bidder_takes_rest { let z = 2 } }",
])
def test_every_path_must_return(body: str) -> None:
    broken = f"rule r [SCORE.1] () -> int {{ {body} }}"
    problem = only_problem(broken)
    assert problem.message == "rule 'r' can end without returning a value"
    assert problem.pos == m.Pos("broken.baloot", 1, 6)


@pytest.mark.parametrize("body", [
    "return 1",
    "if true { return 1 } elif false { return 2 } else { return 3 }",
    "choose rounding { each_team { return 1 } bidder_takes_rest { return 2 } }",
])
def test_paths_that_all_return(body: str) -> None:
    build(ok=f"rule r [SCORE.1] () -> int {{ {body} }}")


def test_unknown_type() -> None:
    broken = """\
record Hand [DEAL.1] { cards: list[Colour?] }
rule f [SCORE.1] (hand: Hand, suit: Suit) -> Points? {
  return none
}"""
    found = problems(broken=broken)
    assert [(p.pos.line, p.pos.column, p.message) for p in found] == [
        (1, col(broken, 1, "Colour"), "unknown type 'Colour'"),
        (2, col(broken, 2, "Suit"), "unknown type 'Suit'"),
        (2, col(broken, 2, "Points"), "unknown type 'Points'"),
    ]
    assert_problem(found[1], file="broken.baloot", text=broken, line=2, needle="Suit",
                   message="unknown type 'Suit'", expected="int, bool, text, an enum or a record")


def test_a_const_or_rule_is_not_a_type() -> None:
    broken = 'rule f [SCORE.1] (x: target) -> value { return 1 }'
    found = problems(broken=broken)
    assert [(p.pos.column, p.message) for p in found] == [
        (col(broken, 1, "target"), "unknown type 'target'"),
        (col(broken, 1, "value {"), "unknown type 'value'"),
    ]


def test_duplicate_parameter_and_field() -> None:
    broken = ('record Pair [DEAL.1] { a: int, a: int }\n'
              'rule f [SCORE.1] (x: int, x: int) -> int { return x }')
    found = problems(broken=broken)
    assert [(p.pos.line, p.pos.column, p.message) for p in found] == [
        (1, col(broken, 1, "a", 3), "duplicate field of Pair 'a' (first at broken.baloot:1:24)"),
        (2, col(broken, 2, "x", 2),
         "duplicate parameter of f 'x' (first at broken.baloot:2:19)"),
    ]


def test_every_problem_is_reported_in_order() -> None:
    broken = ('const hand [DEAL.9] = 8\n'
              'rule f [SCORE.1] () -> int { return nothing }\n'
              'clause DEAL.1 "again"\n')
    found = problems(broken=broken)
    assert [(p.pos.line, p.message) for p in found] == [
        (1, "clause 'DEAL.9' does not exist"),
        (2, "unknown name 'nothing'"),
        (3, "duplicate clause ID 'DEAL.1' (first at base.baloot:1:8)"),
    ]
    with pytest.raises(SpecError) as info:
        build(broken=broken)
    assert info.value.render().endswith("\n\n3 errors in the spec")


# --------------------------------------------------------- syntax errors --


def syntax_problem(text: str) -> SpecProblem:
    with pytest.raises(SpecError) as info:
        parse_text(text, "broken.baloot")
    [problem] = info.value.problems
    return problem


def test_unexpected_token() -> None:
    broken = 'enum Rank [DEAL.1] "Ranks." {\n  ace "A" king "K"\n}'
    assert_problem(
        syntax_problem(broken), file="broken.baloot", text=broken, line=2, needle="king",
        message="unexpected 'king'", expected="one of: ',', '}'")


def test_unexpected_token_names_the_words_expected() -> None:
    broken = 'const target [SCORE.1] = 152\nconst'
    problem = syntax_problem(broken)
    assert problem.message == "the file ends too early"
    assert problem.expected == "one of: a name"
    broken = 'rule r [SCORE.1] () -> int { return 1 }\nrul'
    problem = syntax_problem(broken)
    assert problem.message == "unexpected 'rul'"
    assert problem.pos == m.Pos("broken.baloot", 2, 1)
    for word in ("'clause'", "'enum'", "'record'", "'order'", "'table'", "'const'", "'rule'",
                 "'variant'", "'profile'", "the end of the file"):
        assert word in problem.expected
    assert_rendered(problem, "rul", problem.expected)


def test_unexpected_token_inside_an_expression() -> None:
    broken = 'rule r [SCORE.1] () -> int {\n  return 1 + * 2\n}'
    problem = syntax_problem(broken)
    assert problem.message == "unexpected '*'"
    assert problem.pos == m.Pos("broken.baloot", 2, col(broken, 2, "*"))
    for what in ("'('", "'-'", "'['", "a name", "a whole number", 'a "quoted text"'):
        assert what in problem.expected
    assert_rendered(problem, line_of(broken, 2), problem.expected)


def test_unexpected_character() -> None:
    broken = 'const target [SCORE.1] "Target." = 152\nenum Rank [DEAL.1] { ace $ }'
    assert_problem(
        syntax_problem(broken), file="broken.baloot", text=broken, line=2, needle="$",
        message="unexpected character '$'", expected='one of: \',\', \'}\', a "quoted text"')


def test_expected_lists_only_what_may_follow_here() -> None:
    # after a number in a table only ',' or '}' may come, though after a const's
    # number a new declaration may: the list is the parser's, not a merged guess
    broken = 'table t [SCORE.1] : Rank -> int { ace: 11; ten: 10 }'
    problem = syntax_problem(broken)
    assert problem.message == "unexpected character ';'"
    assert problem.expected == "one of: ',', '}'"
    broken = 'const target [SCORE.1] = 152;'
    problem = syntax_problem(broken)
    assert problem.pos == m.Pos("broken.baloot", 1, 29)
    for word in ("'clause'", "'rule'", "the end of the file"):
        assert word in problem.expected
    assert "','" not in problem.expected
    # after a text, another text may follow
    broken = 'clause DEAL.2 "x" ;'
    problem = syntax_problem(broken)
    for word in ("'{'", 'a "quoted text"', "'enum'", "the end of the file"):
        assert word in problem.expected
    assert "':'" not in problem.expected and "a name" not in problem.expected


def test_unexpected_character_after_tabs() -> None:
    broken = 'rule r [SCORE.1] () -> int {\n\treturn\t1 ; 2\n}'
    problem = syntax_problem(broken)
    assert problem.message == "unexpected character ';'"
    assert problem.pos == m.Pos("broken.baloot", 2, 11)
    _, _, caret, _ = problem.render().split("\n")
    assert caret.endswith("| \t      \t  ^")  # tabs kept, so the caret lines up


def test_file_ending_early() -> None:
    broken = 'clause DEAL.2 "x"\nrule r [SCORE.1] (x: int) -> int {\n  return x +'
    # the position is that of the last token before the end
    assert_problem(
        syntax_problem(broken), file="broken.baloot", text=broken, line=3, needle="+",
        message="the file ends too early",
        expected="one of: '(', '-', '[', 'false', 'none', 'true', a \"quoted text\", a name, "
                 "a whole number")


def test_file_ending_early_in_a_block() -> None:
    broken = 'variant A6 units [SCORE.1] "Units." {\n  reading bunts "Bunts." source "p"\n'
    problem = syntax_problem(broken)
    assert problem.message == "the file ends too early"
    assert problem.pos == m.Pos("broken.baloot", 2, col(broken, 2, '"p"'))
    assert problem.expected == "one of: 'default', 'reading', '}', a \"quoted text\""
    assert_rendered(problem, line_of(broken, 2), problem.expected)


def test_unterminated_text_is_an_unexpected_character() -> None:
    broken = 'clause DEAL.2 "never closed\n'
    assert_problem(
        syntax_problem(broken), file="broken.baloot", text=broken, line=1, needle='"',
        message="unexpected character '\"'", expected='one of: a "quoted text"')


@pytest.mark.parametrize("escape", ["\\x", "\\q", "\\N", "\\u12"])
def test_bad_escape_in_a_text(escape: str) -> None:
    broken = 'clause DEAL.2 "fine"\n  "bad ' + escape + ' escape"\n'
    assert_problem(
        syntax_problem(broken), file="broken.baloot", text=broken, line=2, needle='"bad',
        message="bad escape in a quoted text",
        expected='a text whose backslashes start an escape such as \\" \\\\ \\n or \\t')


# ------------------------------------------------------------ spec folders --


def test_load_spec_reports_syntax_errors_of_every_file(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "a.baloot").write_text('clause DEAL.1 "x"\nenum E [DEAL.1] { a b }\n')
    (tmp_path / "spec" / "b.baloot").write_text('const c [DEAL.1] = \n')
    (tmp_path / "spec" / "notes.txt").write_text("not a spec file {")
    with pytest.raises(SpecError) as info:
        load_spec(tmp_path / "spec")
    assert [(p.pos, p.message) for p in info.value.problems] == [
        (m.Pos("spec/a.baloot", 2, 21), "unexpected 'b'"),
        (m.Pos("spec/b.baloot", 1, 18), "the file ends too early"),
    ]


def test_load_spec_checks_across_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.baloot").write_text('clause DEAL.1 "x"\nconst c [DEAL.1] = 1\n')
    (tmp_path / "b.baloot").write_text('# more\nconst c [DEAL.1] = 2\n')
    with pytest.raises(SpecError) as info:
        load_spec(tmp_path)
    [problem] = info.value.problems
    assert problem.pos == m.Pos("b.baloot", 2, 7)
    assert problem.message == "duplicate name 'c' (first declared at a.baloot:2:7)"
    assert_rendered(problem, "const c [DEAL.1] = 2", problem.expected)


def test_load_spec_of_a_good_folder(tmp_path: Path) -> None:
    (tmp_path / "base.baloot").write_text(BASE)
    spec = load_spec(tmp_path)
    assert spec.rule("value").cites[0].clause == "SCORE.1"
    assert spec.citing("DEAL.1") == (spec.enum("Rank"), spec.record("Card"))


def test_load_spec_of_an_empty_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    with pytest.raises(SpecError) as info:
        load_spec(tmp_path / "empty")
    [problem] = info.value.problems
    assert problem.pos == m.Pos("empty", 1, 1)
    assert problem.message == "no spec files in this folder"
    assert problem.expected == "files named *.baloot"


def test_load_spec_without_coverage_lets_uncovered_clauses_pass(tmp_path: Path) -> None:
    (tmp_path / "base.baloot").write_text(BASE + 'clause DEAL.2 "Nobody cites this."\n')
    with pytest.raises(SpecError):
        load_spec(tmp_path)
    spec = load_spec(tmp_path, coverage=False)
    assert [c.id for c in spec.clauses] == ["DEAL.1", "SCORE.1", "DEAL.2"]


def test_positions_in_a_file_with_crlf_line_ends() -> None:
    broken = 'const hand [DEAL.1] = 8\r\nrule f [SCORE.1] () -> int {\r\n  return hnad\r\n}\r\n'
    problem = only_problem(broken)
    assert problem.pos == m.Pos("broken.baloot", 3, 10)
    assert problem.source_line == "  return hnad"
    assert_rendered(problem, "  return hnad", problem.expected)
