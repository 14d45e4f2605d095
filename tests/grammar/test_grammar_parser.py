"""The parser on valid fragments: every declaration, statement and expression form.

Each test parses a small fragment written here and checks the model objects
built from it: their types, names, values and positions. Expected columns are
found in the fragment text itself (`col`), so they follow from what is written.
"""

from __future__ import annotations

import pytest

from baloot.grammar import model as m
from baloot.grammar.errors import SpecError
from baloot.grammar.lark_grammar import keyword_names
from baloot.grammar.parser import assemble, parse_text

FILE = "frag.baloot"


def parse(text: str) -> list[m.Decl]:
    return parse_text(text, FILE)


def col(text: str, line: int, needle: str, occurrence: int = 1) -> int:
    """The 1-based column of the `occurrence`-th `needle` on `line` of `text`."""
    source = text.split("\n")[line - 1]
    start = -1
    for _ in range(occurrence):
        start = source.index(needle, start + 1)
    return start + 1


def at(text: str, line: int, needle: str, occurrence: int = 1) -> m.Pos:
    return m.Pos(FILE, line, col(text, line, needle, occurrence))


def only(text: str) -> m.Decl:
    [decl] = parse(text)
    return decl


# ------------------------------------------------------------ declarations --


CLAUSES = """\
# The page, restated.
clause SETUP.2 "There are four suits." # a trailing comment
  { translations "All four translations agree." }
clause SCORE.3 "An ace is worth eleven; "
  "a ten is worth ten."
"""


def test_clauses_with_and_without_translations() -> None:
    first, second = parse(CLAUSES)
    assert isinstance(first, m.Clause) and isinstance(second, m.Clause)
    assert first.id == "SETUP.2"
    assert first.text == "There are four suits."
    assert first.translations == "All four translations agree."
    assert first.pos == m.Pos(FILE, 2, 8)
    assert first.family == "SETUP"
    assert second.id == "SCORE.3"
    assert second.text == "An ace is worth eleven; a ten is worth ten."  # adjacent texts join
    assert second.translations is None
    assert second.pos == m.Pos(FILE, 4, 8)


def test_escapes_in_texts() -> None:
    clause = only('clause SETUP.1 "Say \\"sun\\" \\\\ then\\tgo."')
    assert isinstance(clause, m.Clause)
    assert clause.text == 'Say "sun" \\ then\tgo.'


ENUMS = """\
enum Suit [SETUP.2] "The four suits." { spades "S", hearts "H", diamonds, clubs "C", }
enum Rank [SETUP.2, SCORE.3] { ace, ten }
"""


def test_enum_with_notations_and_trailing_comma() -> None:
    suit, rank = parse(ENUMS)
    assert isinstance(suit, m.Enum) and isinstance(rank, m.Enum)
    assert suit.name == "Suit"
    assert suit.pos == m.Pos(FILE, 1, 6)
    assert suit.doc == "The four suits."
    assert [c.clause for c in suit.cites] == ["SETUP.2"]
    assert suit.cites[0].pos == at(ENUMS, 1, "SETUP.2")
    assert suit.member_names == ("spades", "hearts", "diamonds", "clubs")
    assert [mem.notation for mem in suit.members] == ["S", "H", None, "C"]
    assert suit.members[2].pos == at(ENUMS, 1, "diamonds")
    # no doc, two citations
    assert rank.doc is None
    assert [(c.clause, c.pos) for c in rank.cites] == [
        ("SETUP.2", at(ENUMS, 2, "SETUP.2")), ("SCORE.3", at(ENUMS, 2, "SCORE.3")),
    ]
    assert rank.member_names == ("ace", "ten")
    assert rank.pos == m.Pos(FILE, 2, 6)


RECORD = """\
record Card [SETUP.2] "One card." {
  suit: Suit,
  owner: int?,
  history: list[Card],
  nested: list[list[Rank]?]?,
}
"""


def test_record_fields_and_every_type_form() -> None:
    card = only(RECORD)
    assert isinstance(card, m.Record)
    assert card.name == "Card" and card.pos == m.Pos(FILE, 1, 8)
    assert card.doc == "One card."
    assert [f.name for f in card.fields] == ["suit", "owner", "history", "nested"]
    assert [f.pos for f in card.fields] == [m.Pos(FILE, line, 3) for line in (2, 3, 4, 5)]
    suit, owner, history, nested = (f.type for f in card.fields)
    assert suit == m.PlainType("Suit", at(RECORD, 2, "Suit"))
    assert isinstance(owner, m.OptionalType)
    assert owner.inner == m.PlainType("int", at(RECORD, 3, "int"))
    assert isinstance(history, m.ListType)
    assert history.item == m.PlainType("Card", at(RECORD, 4, "Card"))
    # list[list[Rank]?]? : optional of list of optional of list of Rank
    assert isinstance(nested, m.OptionalType)
    assert isinstance(nested.inner, m.ListType)
    assert isinstance(nested.inner.item, m.OptionalType)
    assert isinstance(nested.inner.item.inner, m.ListType)
    assert nested.inner.item.inner.item == m.PlainType("Rank", at(RECORD, 5, "Rank"))


ORDER = """\
order rank_order [SETUP.6] "Ranks, high to low."
  : Rank = jack > nine > ace
"""


def test_order_high_to_low_and_strength() -> None:
    order = only(ORDER)
    assert isinstance(order, m.Order)
    assert order.name == "rank_order" and order.pos == m.Pos(FILE, 1, 7)
    assert order.doc == "Ranks, high to low."
    assert order.over == "Rank" and order.over_pos == m.Pos(FILE, 2, 5)
    assert [(mem.name, mem.pos) for mem in order.high_to_low] == [
        ("jack", at(ORDER, 2, "jack")), ("nine", at(ORDER, 2, "nine")),
        ("ace", at(ORDER, 2, "ace")),
    ]
    assert [order.strength(r) for r in ("jack", "nine", "ace")] == [2, 1, 0]


def test_order_without_doc() -> None:
    order = only("order o [SETUP.6] : Rank = a > b")
    assert isinstance(order, m.Order)
    assert order.doc is None
    assert [mem.name for mem in order.high_to_low] == ["a", "b"]


TABLE = """\
table penalty [SCORE.3] "Can go below zero." : Rank -> int {
  ace: -11, ten: 10,
  king: 0,
}
"""


def test_table_with_negative_values() -> None:
    table = only(TABLE)
    assert isinstance(table, m.Table)
    assert table.name == "penalty" and table.pos == m.Pos(FILE, 1, 7)
    assert table.key_enum == "Rank" and table.key_pos == at(TABLE, 1, "Rank")
    assert table.value_type == m.PlainType("int", at(TABLE, 1, "int"))
    assert table.as_dict() == {"ace": -11, "ten": 10, "king": 0}
    assert [e.pos for e in table.entries] == [
        m.Pos(FILE, 2, 3), at(TABLE, 2, "ten"), m.Pos(FILE, 3, 3),
    ]


def test_table_without_doc() -> None:
    table = only("table t [SCORE.3] : Rank -> int { ace: 1 }")
    assert isinstance(table, m.Table)
    assert table.doc is None and table.as_dict() == {"ace": 1}


def test_consts_positive_negative_with_and_without_doc() -> None:
    target, debt = parse('const target [END.1] "Points that win." = 152\n'
                         'const debt [END.2] = -26\n')
    assert isinstance(target, m.Const) and isinstance(debt, m.Const)
    assert (target.name, target.doc, target.value, target.pos) == (
        "target", "Points that win.", 152, m.Pos(FILE, 1, 7))
    assert (debt.name, debt.doc, debt.value, debt.pos) == ("debt", None, -26, m.Pos(FILE, 2, 7))
    assert [c.clause for c in debt.cites] == ["END.2"]


VARIANT = """\
variant A5 rounding [SCORE.7, SCORE.8]
  "How bunts become " "points." {
  reading each_team "Each team on its own." source "SCORE.7, the literal words"
  reading bidder_takes_rest "The bidder takes " "the rest."
    source "federation"
  default bidder_takes_rest
}
"""


def test_variant_readings_sources_and_default() -> None:
    variant = only(VARIANT)
    assert isinstance(variant, m.Variant)
    assert variant.id == "A5" and variant.name == "rounding"
    assert variant.pos == m.Pos(FILE, 1, 9)  # the ambiguity ID
    assert [c.clause for c in variant.cites] == ["SCORE.7", "SCORE.8"]
    assert variant.doc == "How bunts become points."
    assert variant.reading_names == ("each_team", "bidder_takes_rest")
    each, rest = variant.readings
    assert (each.text, each.source, each.pos) == (
        "Each team on its own.", "SCORE.7, the literal words", at(VARIANT, 3, "each_team"))
    assert (rest.text, rest.source, rest.pos) == (
        "The bidder takes the rest.", "federation", at(VARIANT, 4, "bidder_takes_rest"))
    assert variant.default == "bidder_takes_rest"
    assert variant.default_pos == at(VARIANT, 6, "bidder_takes_rest")


def test_variant_without_default() -> None:
    variant = only('variant A9 kaboot [SCORE.11] "x" { reading flat "44." source "p" }')
    assert isinstance(variant, m.Variant)
    assert variant.default is None and variant.default_pos is None
    assert variant.reading_names == ("flat",)


PROFILE = """\
profile literal "The page itself." {
  rounding = each_team  kaboot = flat
}
profile empty "Nothing yet." { }
"""


def test_profiles_with_picks_and_empty() -> None:
    literal, empty = parse(PROFILE)
    assert isinstance(literal, m.Profile) and isinstance(empty, m.Profile)
    assert literal.name == "literal" and literal.pos == m.Pos(FILE, 1, 9)
    assert literal.doc == "The page itself."
    assert literal.readings() == {"rounding": "each_team", "kaboot": "flat"}
    rounding, kaboot = literal.picks
    assert rounding.pos == m.Pos(FILE, 2, 3)
    assert rounding.reading_pos == at(PROFILE, 2, "each_team")
    assert kaboot.pos == at(PROFILE, 2, "kaboot")
    assert kaboot.reading_pos == at(PROFILE, 2, "flat")
    assert empty.picks == () and empty.pos == m.Pos(FILE, 4, 9)


def test_empty_and_comment_only_files_have_no_declarations() -> None:
    assert parse("") == []
    assert parse("# only a comment\n\n   # another\n") == []


def test_assemble_sorts_declarations_by_kind_in_file_order() -> None:
    a = parse_text('const one [A.1] = 1\nclause A.1 "x"\n', "a.baloot")
    b = parse_text('const two [A.1] = 2\nenum E [A.1] { e }\n', "b.baloot")
    spec = assemble([*a, *b], [("a.baloot", "..."), ("b.baloot", "...")])
    assert spec.files == ("a.baloot", "b.baloot")
    assert [c.name for c in spec.consts] == ["one", "two"]
    assert [c.id for c in spec.clauses] == ["A.1"]
    assert [e.name for e in spec.enums] == ["E"]
    assert spec.const("two").pos == m.Pos("b.baloot", 1, 7)


def test_keywords_are_reserved() -> None:
    words = keyword_names()
    for word in ("clause", "enum", "rule", "let", "return", "if", "elif", "else", "choose",
                 "require", "variant", "reading", "default", "profile", "not", "and", "or",
                 "in", "is", "with", "for", "then", "true", "false", "none", "list"):
        assert word in words
    # where only a name may stand, the lexer takes a word as a name: the checks reject it
    enum = only("enum if [A.1] { none }")
    assert isinstance(enum, m.Enum) and enum.name == "if" and enum.member_names == ("none",)


# ------------------------------------------------------------------ rules --


RULE = """\
rule score [SCORE.3, SCORE.4] "Every statement."
    (card: Card, cards: list[Card], trump: Suit?) -> int {
  let values = [card_value[c.rank] for c in cards if c != card]
  if trump == none { return 0 }
  elif card.suit == trump { return 1 }
  elif card.suit in [spades] { let z = 2 }
  else { require len(values) > 0 else "no \\"values\\"" }
  choose rounding {
    each_team, bidder_takes_rest { return sum(values) }
    adjusted_to_total { return 3 }
  }
  return 4
}
"""


def test_rule_header() -> None:
    rule = only(RULE)
    assert isinstance(rule, m.Rule)
    assert rule.name == "score" and rule.pos == m.Pos(FILE, 1, 6)  # header on lines 1-2
    assert [c.clause for c in rule.cites] == ["SCORE.3", "SCORE.4"]
    assert rule.doc == "Every statement."
    assert [(p.name, p.pos) for p in rule.params] == [
        ("card", at(RULE, 2, "card:")), ("cards", at(RULE, 2, "cards:")),
        ("trump", at(RULE, 2, "trump:")),
    ]
    card, cards, trump = (p.type for p in rule.params)
    assert card == m.PlainType("Card", at(RULE, 2, "Card"))
    assert isinstance(cards, m.ListType)
    assert cards.item == m.PlainType("Card", at(RULE, 2, "Card]"))
    assert isinstance(trump, m.OptionalType)
    assert trump.inner == m.PlainType("Suit", at(RULE, 2, "Suit"))
    assert rule.returns == m.PlainType("int", at(RULE, 2, "int {"))


def test_rule_statements() -> None:
    rule = only(RULE)
    assert isinstance(rule, m.Rule)
    let, if_, choose, ret = rule.body

    assert isinstance(let, m.Let)
    assert let.name == "values" and let.pos == m.Pos(FILE, 3, 3)
    assert isinstance(let.value, m.Comprehension)

    assert isinstance(if_, m.If)
    assert if_.pos == m.Pos(FILE, 4, 3)
    assert [b.pos for b in if_.branches] == [m.Pos(FILE, line, 3) for line in (4, 5, 6)]
    first, second, third = if_.branches
    assert isinstance(first.condition, m.BinOp) and first.condition.op == "=="
    assert isinstance(first.condition.right, m.NoneLit)
    assert [type(s) for s in first.body] == [m.Return]
    assert isinstance(second.body[0], m.Return)
    assert second.body[0].value == m.IntLit(1, at(RULE, 5, "1"))
    assert isinstance(third.condition, m.BinOp) and third.condition.op == "in"
    assert isinstance(third.body[0], m.Let) and third.body[0].name == "z"
    assert if_.otherwise is not None
    [require] = if_.otherwise
    assert isinstance(require, m.Require)
    assert require.message == 'no "values"'
    assert require.pos == at(RULE, 7, "require")
    assert isinstance(require.condition, m.BinOp) and require.condition.op == ">"
    assert isinstance(require.condition.left, m.Call)

    assert isinstance(choose, m.Choose)
    assert choose.variant == "rounding" and choose.pos == m.Pos(FILE, 8, 3)
    shared, single = choose.cases
    assert shared.readings == ("each_team", "bidder_takes_rest")
    assert shared.pos == m.Pos(FILE, 9, 5)
    assert isinstance(shared.body[0], m.Return) and isinstance(shared.body[0].value, m.Call)
    assert single.readings == ("adjusted_to_total",) and single.pos == m.Pos(FILE, 10, 5)

    assert isinstance(ret, m.Return)
    assert ret.value == m.IntLit(4, m.Pos(FILE, 12, 10)) and ret.pos == m.Pos(FILE, 12, 3)


def test_rule_without_parameters_or_doc_and_if_without_else() -> None:
    rule = only("rule zero [A.1] () -> bool {\n  if true { return true }\n  return false\n}")
    assert isinstance(rule, m.Rule)
    assert rule.params == () and rule.doc is None
    if_, ret = rule.body
    assert isinstance(if_, m.If) and if_.otherwise is None and len(if_.branches) == 1
    assert isinstance(ret, m.Return) and ret.value == m.BoolLit(False, m.Pos(FILE, 3, 10))


# ------------------------------------------------------------ expressions --


def sexp(e: m.Expr | m.CompFor | m.CompIf) -> str:
    """An expression as a fully parenthesised string, to read its structure."""
    if isinstance(e, m.IntLit):
        return str(e.value)
    if isinstance(e, m.StrLit):
        return repr(e.value)
    if isinstance(e, m.BoolLit):
        return "true" if e.value else "false"
    if isinstance(e, m.NoneLit):
        return "none"
    if isinstance(e, m.Name):
        return e.name
    if isinstance(e, m.ListLit):
        return "[" + " ".join(sexp(x) for x in e.items) + "]"
    if isinstance(e, m.BinOp):
        return f"({e.op} {sexp(e.left)} {sexp(e.right)})"
    if isinstance(e, m.UnaryOp):
        return f"({e.op} {sexp(e.operand)})"
    if isinstance(e, m.IfExpr):
        return f"(if {sexp(e.condition)} {sexp(e.then)} {sexp(e.otherwise)})"
    if isinstance(e, m.FieldOf):
        return f"(. {sexp(e.base)} {e.field})"
    if isinstance(e, m.Index):
        return f"([] {sexp(e.base)} {sexp(e.key)})"
    if isinstance(e, m.Call):
        parts = [sexp(a) for a in e.args] + [f"{k.name}={sexp(k.value)}" for k in e.kwargs]
        return f"(call {sexp(e.func)}" + "".join(" " + p for p in parts) + ")"
    if isinstance(e, m.WithUpdate):
        updates = "".join(f" {u.name}={sexp(u.value)}" for u in e.updates)
        return f"(with {sexp(e.base)}{updates})"
    if isinstance(e, m.Reads):
        return f"(is {e.variant} {e.reading})"
    if isinstance(e, m.CompFor):
        return f"for {e.target} {sexp(e.iterable)}"
    if isinstance(e, m.CompIf):
        return f"if {sexp(e.condition)}"
    assert isinstance(e, m.Comprehension)
    return f"[{sexp(e.element)} " + " ".join(f"<{sexp(c)}>" for c in e.clauses) + "]"


PREFIX = "rule r [A.1] () -> int { return "


def expr(text: str) -> m.Expr:
    """Parse `text` as the value of a `return`; its first character is at column 33."""
    rule = only(PREFIX + text + " }")
    assert isinstance(rule, m.Rule)
    [ret] = rule.body
    assert isinstance(ret, m.Return)
    return ret.value


START = len(PREFIX) + 1


def epos(column_in_expr: int) -> m.Pos:
    """The position of the 1-based column `column_in_expr` of an `expr` text."""
    return m.Pos(FILE, 1, START + column_in_expr - 1)


@pytest.mark.parametrize(("text", "tree"), [
    # boolean operators: not binds tighter than and, and tighter than or
    ("not a and b or c", "(or (and (not a) b) c)"),
    ("a or b and not c", "(or a (and b (not c)))"),
    ("a or b or c", "(or (or a b) c)"),
    ("a and b and c", "(and (and a b) c)"),
    ("not not a", "(not (not a))"),
    ("not a == b", "(not (== a b))"),
    ("a == b and c != d", "(and (== a b) (!= c d))"),
    # comparisons take sums
    ("a + 1 < b * 2", "(< (+ a 1) (* b 2))"),
    ("a <= b", "(<= a b)"),
    ("a > b", "(> a b)"),
    ("a >= b", "(>= a b)"),
    ("x in xs and y not in ys", "(and (in x xs) (not in y ys))"),
    ("not x in xs", "(not (in x xs))"),
    ("x + 1 in [1, 2]", "(in (+ x 1) [1 2])"),
    # arithmetic: * // % over + -, left associative
    ("1 + 2 * 3 - 4", "(- (+ 1 (* 2 3)) 4)"),
    ("a - b - c", "(- (- a b) c)"),
    ("a // b % c * d", "(* (% (// a b) c) d)"),
    ("(1 + 2) * 3", "(* (+ 1 2) 3)"),
    ("xs + [a]", "(+ xs [a])"),
    # unary minus binds tighter than * and looser than postfix
    ("-a * b", "(* (- a) b)"),
    ("- - a", "(- (- a))"),
    ("a - -1", "(- a (- 1))"),
    ("-card.rank", "(- (. card rank))"),
    ("-t[k]", "(- ([] t k))"),
    # postfix chains
    ("x.y[0].z", "(. ([] (. x y) 0) z)"),
    ("f(a)[1]", "([] (call f a) 1)"),
    ("trick.cards[0].suit == lead", "(== (. ([] (. trick cards) 0) suit) lead)"),
    # if-then-else takes whole expressions, and nests in its else
    ("if a then b else c + 1", "(if a b (+ c 1))"),
    ("if a or b then 1 else if c then 2 else 3", "(if (or a b) 1 (if c 2 3))"),
    ("1 + (if a then 2 else 3)", "(+ 1 (if a 2 3))"),
    # literals
    ('"text"', "'text'"),
    ("true", "true"),
    ("false", "false"),
    ("none", "none"),
    ("[]", "[]"),
    ("[1, x, [2]]", "[1 x [2]]"),
    # calls, records, updates, readings
    ("f()", "(call f)"),
    ("f(a, b + 1)", "(call f a (+ b 1))"),
    ("Card(suit=s, rank=ace)", "(call Card suit=s rank=ace)"),
    ("c with { rank = king, suit = s }", "(with c rank=king suit=s)"),
    ("c with { rank = king }.suit", "(. (with c rank=king) suit)"),
    ("rounding is each_team", "(is rounding each_team)"),
    ("rounding is each_team and not kaboot is flat",
     "(and (is rounding each_team) (not (is kaboot flat)))"),
    # comprehensions with several for and if clauses
    ("[x * y for x in xs if x > 1 for y in ys if y != x]",
     "[(* x y) <for x xs> <if (> x 1)> <for y ys> <if (!= y x)>]"),
    ("[c for c in hand for d in hand]", "[c <for c hand> <for d hand>]"),
    ("[p for p in players if p in team if not p == me]",
     "[p <for p players> <if (in p team)> <if (not (== p me))>]"),
])
def test_expression_structure(text: str, tree: str) -> None:
    assert sexp(expr(text)) == tree


def test_binary_and_unary_positions() -> None:
    # "not a and b or c": every operator node starts where its left operand starts
    e = expr("not a and b or c")
    assert isinstance(e, m.BinOp) and isinstance(e.left, m.BinOp)
    assert e.pos == epos(1) and e.left.pos == epos(1)
    assert isinstance(e.left.left, m.UnaryOp) and e.left.left.pos == epos(1)
    assert e.left.left.operand == m.Name("a", epos(5))
    assert e.left.right == m.Name("b", epos(11))
    assert e.right == m.Name("c", epos(16))


def test_names_and_literals_positions() -> None:
    e = expr('f(x, 12, "s")')
    assert isinstance(e, m.Call)
    assert e.func == m.Name("f", epos(1)) and e.pos == epos(1)
    assert e.args == (m.Name("x", epos(3)), m.IntLit(12, epos(6)), m.StrLit("s", epos(10)))
    assert e.kwargs == ()


def test_field_and_index_positions() -> None:
    e = expr("card.rank[k]")
    assert isinstance(e, m.Index)
    assert e.pos == epos(1) and e.key == m.Name("k", epos(11))
    assert isinstance(e.base, m.FieldOf)
    assert e.base.field == "rank" and e.base.pos == epos(6)  # a field is where its name is
    assert e.base.base == m.Name("card", epos(1))


def test_keyword_arguments_and_updates_positions() -> None:
    e = expr("Card(suit=s, rank=ace)")
    assert isinstance(e, m.Call) and e.args == ()
    assert [(k.name, k.pos) for k in e.kwargs] == [("suit", epos(6)), ("rank", epos(14))]
    assert e.kwargs[1].value == m.Name("ace", epos(19))
    w = expr("c with { rank = king }")
    assert isinstance(w, m.WithUpdate)
    assert w.base == m.Name("c", epos(1)) and w.pos == epos(1)
    assert w.updates == (m.KeywordArg("rank", m.Name("king", epos(17)), epos(10)),)


def test_mixed_positional_and_keyword_arguments() -> None:
    e = expr("f(a, b=1)")
    assert isinstance(e, m.Call)
    assert e.args == (m.Name("a", epos(3)),)
    assert [k.name for k in e.kwargs] == ["b"]


def test_reads_positions() -> None:
    e = expr("rounding is each_team")
    assert e == m.Reads("rounding", "each_team", epos(1), epos(13))


def test_if_expression_and_comprehension_positions() -> None:
    e = expr("if a then [x for x in xs if x] else []")
    assert isinstance(e, m.IfExpr) and e.pos == epos(1)
    assert e.condition == m.Name("a", epos(4))
    assert e.otherwise == m.ListLit((), epos(37))
    comp = e.then
    assert isinstance(comp, m.Comprehension) and comp.pos == epos(11)
    assert comp.element == m.Name("x", epos(12))
    for_, if_ = comp.clauses
    assert for_ == m.CompFor("x", m.Name("xs", epos(23)), epos(14))
    assert if_ == m.CompIf(m.Name("x", epos(29)), epos(26))


def test_multiline_expression_positions() -> None:
    text = "rule r [A.1] () -> int {\n  return 1 +\n    total\n}"
    rule = only(text)
    assert isinstance(rule, m.Rule)
    [ret] = rule.body
    assert isinstance(ret, m.Return) and isinstance(ret.value, m.BinOp)
    assert ret.value.pos == m.Pos(FILE, 2, 10)
    assert ret.value.right == m.Name("total", m.Pos(FILE, 3, 5))


@pytest.mark.parametrize("text", [
    "a < b < c",      # comparisons do not chain
    "a == b == c",
    "a is b is c",
    "x.y is z",       # `is` takes a variant name, not an expression
    "f(a=1)(2) with",
    "[for x in xs]",
    "if a then b",    # an if expression needs its else
])
def test_expressions_the_grammar_rejects(text: str) -> None:
    with pytest.raises(SpecError):
        expr(text)
