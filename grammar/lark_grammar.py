"""The rule language's grammar (`baloot.lark`) loaded into lark, and the words it
reserves. The parser parses with it; the checks ask it which words may begin an
expression."""

from __future__ import annotations

from functools import cache
from importlib import resources

from lark import Lark


@cache
def grammar() -> Lark:
    """`baloot.lark`, loaded (once) into a LALR parser that keeps positions."""
    text = resources.files("baloot.grammar").joinpath("baloot.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=True)


def keyword_names() -> frozenset[str]:
    """Words the grammar reserves: they cannot be used as names."""
    return frozenset(
        t.pattern.value for t in grammar().terminals
        if t.pattern.type == "str" and t.pattern.value.isidentifier()
    )


@cache
def expression_words() -> frozenset[str]:
    """Words that may begin an expression (`true`, `none`, `not`, ...).

    Elsewhere the lexer reads a word as a name where only a name may stand, but a
    name spelled like one of these can never be referred to: `none` is the literal.
    """
    parser = grammar().parse_interactive("rule r [A.1] () -> int { return ")
    parser.exhaust_lexer()
    accepted = parser.accepts()  # type: ignore[no-untyped-call]
    return frozenset(
        t.pattern.value for t in grammar().terminals
        if t.name in accepted and t.pattern.type == "str" and t.pattern.value.isidentifier()
    )
