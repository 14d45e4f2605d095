"""The scoring steps, and a worked example per contract played by the reference engine.

The steps are the SCORE clauses in order, each with the declarations that
formalise it. The worked examples are never typed in: `baloot conform examples`
deals a round from a fixed deck, plays it on the generated reference engine
with a fixed choice among its legal actions, and stores every figure the
engine's rules return in docs/worked-examples.json; this module shows that
file and never runs the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...grammar import model as m
from . import blocks as d
from .sections import cite_links, clause_link, decl_link
from .stored import Fields, StoredFileError, read_stored

EXAMPLES = Path("docs/worked-examples.json")  # under the project folder
RECORDER = "baloot conform examples"


@dataclass(frozen=True)
class Trick:
    plays: tuple[tuple[int, str], ...]  # (seat, card) in the order played
    winner: int  # seat
    bunts: int


@dataclass(frozen=True)
class Example:
    contract: str
    profile: str
    dealer: int
    seed: int
    deck: tuple[str, ...]
    face_up: str
    calls: tuple[tuple[int, str], ...]  # (seat, call): bids, raises, declared projects
    tricks: tuple[Trick, ...]
    result: dict[str, Any]  # the engine's round result, field by field


@dataclass(frozen=True)
class Examples:
    """The stored file: the rule that priced the cards, the contracts played, and an
    example for each contract that has one."""

    value_rule: str
    contracts: tuple[str, ...]
    examples: tuple[Example, ...]


# ------------------------------------------------------ the stored examples --


def _seated(item: Any, where: str) -> tuple[int, str]:
    """A [seat, text] pair."""
    if (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)
            and not isinstance(item[0], bool) and isinstance(item[1], str)):
        return item[0], item[1]
    raise StoredFileError(f"{where}: expected [seat, text], found {item!r}")


def _example(f: Fields) -> Example:
    return Example(
        f.text("contract"), f.text("profile"), f.number("dealer"), f.number("seed"),
        tuple(f.texts("deck")), f.text("face_up"),
        tuple(_seated(x, f"{f.where}.calls") for x in f.items("calls")),
        tuple(Trick(tuple(_seated(x, f"{t.where}.plays") for x in t.items("plays")),
                    t.number("winner"), t.number("bunts")) for t in f.each("tricks")),
        f.obj("result"))


def read_examples(path: Path) -> Examples:
    """The worked examples stored by `baloot conform examples` (see worked_examples.py)."""
    top = Fields(read_stored(path, RECORDER), str(path))
    return Examples(top.text("value_rule"), tuple(top.texts("contracts")),
                    tuple(_example(x) for x in top.each("examples")))


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


# ------------------------------------------------------------- the blocks --


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


def _record_of(spec: m.Spec, result: dict[str, Any]) -> m.Record | None:
    """The record whose fields are the result's."""
    return next((r for r in spec.records if set(result) == {f.name for f in r.fields}), None)


def example_blocks(spec: m.Spec, ex: Example, value_rule: str) -> list[d.Block]:
    blocks: list[d.Block] = [d.Para(d.inlines(
        f"Profile {ex.profile}, dealer seat {ex.dealer}, the deck of seed {ex.seed} "
        f"(`shuffled_deck({ex.seed})`); the face-up card is {ex.face_up}. Seats 0 and 2 are "
        "team 0, seats 1 and 3 team 1."))]
    blocks.append(d.CodeBlock(" ".join(ex.deck), "", "the deck, first card first"))
    blocks.append(d.Para((d.Strong("Calls: "), d.Str("; ".join(f"seat {s} {c}"
                                                                for s, c in ex.calls)))))
    rows = []
    for i, trick in enumerate(ex.tricks, 1):
        rows.append((d.inlines(str(i)),
                     d.inlines(", ".join(f"{s}: {c}" for s, c in trick.plays)),
                     d.inlines(f"seat {trick.winner} (team {trick.winner % 2})"),
                     d.inlines(str(trick.bunts))))
    pricing = next((r for r in spec.rules if r.name == value_rule), None)
    bunts_head: d.Inlines = (d.Str("bunts ("), decl_link(pricing), d.Str(")")) \
        if pricing else (d.Str("bunts ("), d.Code(value_rule), d.Str(")"))
    blocks.append(d.Table((d.inlines("trick"), d.inlines("plays (seat: card)"),
                           d.inlines("won by"), bunts_head), tuple(rows), numeric=(0, 3)))
    record = _record_of(spec, ex.result)
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


def scoring_section(spec: m.Spec, root: Path, examples: bool = True) -> d.Section:
    """The steps, and the worked examples stored under `root` (the project folder)."""
    blocks: list[d.Block] = [d.Para(d.inlines(
        "The steps of scoring a round are the SCORE clauses, in order; each names the "
        "declarations that formalise it."))]
    blocks.extend(steps_blocks(spec))
    blocks.append(d.Heading(2, d.inlines("Worked examples"), "scoring-examples"))
    if not examples:
        blocks.append(d.Note(d.inlines("Worked examples were left out of this rendering "
                                       "(--no-examples).")))
        return d.Section("scoring", "Scoring", tuple(blocks))
    path = root / EXAMPLES
    if not path.is_file():
        blocks.append(d.Note(d.inlines(
            f"No worked examples are stored yet: `{RECORDER}` plays them on the generated "
            f"reference engine and writes {EXAMPLES.as_posix()}; render again afterwards.")))
        return d.Section("scoring", "Scoring", tuple(blocks))
    stored = read_examples(path)
    blocks.append(d.Para(d.inlines(
        "One round per contract, dealt from a fixed deck and played by the generated "
        "reference engine. Nothing below is typed in: the calls and cards are the first "
        "legal ones the engine offers (the first player who may bid the contract does, "
        "every other call is a pass, projects offered in the first trick are declared), and "
        f"every figure is what the engine's rules return, as `{RECORDER}` recorded them in "
        f"{EXAMPLES.as_posix()}.")))
    for contract in stored.contracts:
        blocks.append(d.Heading(3, d.inlines(f"A {contract} round"), f"example-{contract}"))
        example = next((x for x in stored.examples if x.contract == contract), None)
        if example is None:
            blocks.append(d.Note(d.inlines(
                f"No deck of the seeds tried gave a finished {contract} round.")))
            continue
        blocks.append(d.Box(f"example-{contract}-round", "example",
                            tuple(example_blocks(spec, example, stored.value_rule))))
    if not stored.contracts:
        blocks.append(d.Note(d.inlines(f"{EXAMPLES.as_posix()} lists no contract, so no "
                                       "example is shown.")))
    return d.Section("scoring", "Scoring", tuple(blocks))
