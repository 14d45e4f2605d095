"""Mutated spec texts through the spec reader: our error or success, never another
exception, never a hang.

    python tests/hostile/campaign_spec.py --count 10000 [--seed S] [--jobs J]

Each input is one `spec/*.baloot` file of the project, mutated (tokens deleted,
duplicated or swapped, a name replaced by another of the file, punctuation, control
characters, line separators or bytes that are no UTF-8 inserted, a construct nested
hundreds deep, a number of thousands of digits, the text cut short), written to a file
and read by the spec loader's file reader; a text that decodes is parsed, assembled with
the other files as they are, and checked. The outcome is a model, or a `SpecError`
whose every problem names the file and a line and column inside it.
"""

from __future__ import annotations

import functools
import multiprocessing
import random
import re
import sys
import tempfile
from pathlib import Path

from campaign_common import OURS, SUCCESS, Misplaced, Tally, attempt, finish, make_parser

from baloot.grammar import model as m
from baloot.grammar.checks import check_spec
from baloot.grammar.errors import SpecError
from baloot.grammar.parser import assemble, default_spec_dir, parse_files, parse_text

SPEC_FILES = sorted(default_spec_dir().glob("*.baloot"))
TEXTS = {path.name: path.read_text(encoding="utf-8") for path in SPEC_FILES}
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Z]+\.[0-9]+|\w+|//|->|[<>=!]=|\s+|.')
TOKENS = {name: TOKEN.findall(text) for name, text in TEXTS.items()}
NAMES = {name: sorted({t for t in toks if t.isidentifier()}) for name, toks in TOKENS.items()}

INSERTS = [
    "\x00", "\x07", "\x1b[31m", "\r", "\r\n", "\f", "\v", "\u2028", "\u2029", "\x85", "\ufeff",
    "\t", "\\", '"', "'", "{", "}", "(", ")", "[", "]", ";", ",", "->", "==", "#", "\ud800",
    "é", "\U0001f0a1", "٣", "A.1", "SCORE.99", " if ", " then ", " else ", " let ", " rule ",
    " return ", " null ", " true ", "0", "-1", "9" * 19, "9" * 5000, "(" * 300, "-" * 300,
    "not " * 300, "[" * 300, '"\\q"', '"\\N{NOPE}"', '"\\ud800"', "a" * 10_000,
]
RAW_INSERTS = [b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"]


def _parsed(name: str, text: str) -> list[m.Decl]:
    try:
        return parse_text(text, name)
    except SpecError:
        return []


PARSED = {name: _parsed(name, text) for name, text in TEXTS.items()}


def mutation(rng: random.Random) -> tuple[str, bytes]:
    """A spec file name and its mutated bytes."""
    name = rng.choice(sorted(TEXTS))
    text, toks = TEXTS[name], list(TOKENS[name])
    solid = [i for i, t in enumerate(toks) if not t.isspace()]
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        kind = rng.choice(["delete", "duplicate", "swap", "rename", "insert", "insert",
                           "cut", "raw"])
        first = rng.choice(solid)
        if kind == "delete":
            del toks[first:first + rng.randint(1, 12)]
        elif kind == "duplicate":
            length = rng.randint(1, 40)
            toks[first:first] = toks[first:first + length]
        elif kind == "swap":
            other = rng.choice(solid)
            if other < len(toks) and first < len(toks):
                toks[first], toks[other] = toks[other], toks[first]
        elif kind == "rename" and first < len(toks) and toks[first].isidentifier():
            toks[first] = rng.choice(NAMES[name])
        elif kind == "insert":
            toks.insert(min(first, len(toks)), rng.choice(INSERTS))
        elif kind == "cut":
            toks = toks[:first]
        solid = [i for i, t in enumerate(toks) if not t.isspace()] or [0]
    data = "".join(toks).encode("utf-8", "surrogatepass")
    if rng.random() < 0.1 or data == text.encode("utf-8"):
        at = rng.randint(0, len(data))
        data = data[:at] + rng.choice(RAW_INSERTS) + data[at:]
    return name, data


def check_placed(err: SpecError, name: str, text: str | None) -> None:
    """Every problem names a spec file, and in the mutated file a real line and column."""
    if not err.problems:
        raise Misplaced("a SpecError without a problem")
    for problem in err.problems:
        pos = problem.pos
        if Path(pos.file).name not in TEXTS and Path(pos.file).name != name:
            raise Misplaced(f"{problem.render()}: not a file of the spec")
        if not (problem.message and problem.expected):
            raise Misplaced(f"{problem.render()}: says no message or no expectation")
        source = text if Path(pos.file).name == name else TEXTS.get(Path(pos.file).name)
        if source is None:
            continue
        lines = source.split("\n")
        if not 1 <= pos.line <= len(lines) or not 1 <= pos.column <= len(lines[pos.line - 1]) + 1:
            raise Misplaced(f"{problem.render()}: outside the file ({len(lines)} lines)")
    err.render().encode("utf-8")  # the message can be printed


def read_spec(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    path.write_bytes(data)
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            parse_files([path])  # the loader's reader: a positioned error, not a traceback
        except SpecError as err:
            check_placed(err, name, None)
            return OURS
        raise AssertionError("bytes that are no UTF-8 were read as a spec") from None
    decoded = path.read_text(encoding="utf-8")  # as the loader reads it: \r is a line break
    try:
        parse_files([path])
        decls: list[m.Decl] = []
        for other in sorted(TEXTS):
            decls += parse_text(decoded, name) if other == name else PARSED[other]
        spec = assemble(decls, sorted({**TEXTS, name: decoded}.items()))
        check_spec(spec)
    except SpecError as err:
        check_placed(err, name, decoded)
        return OURS
    return SUCCESS


def run_share(seed: int, indices: range, seconds: float) -> Tally:
    tally = Tally("spec texts")
    with tempfile.TemporaryDirectory() as tmp:
        for index in indices:
            name, data = mutation(random.Random(f"{seed}:{index}"))
            attempt(tally, f"seed {seed} input {index} ({name})",
                    functools.partial(read_spec, Path(tmp), name, data), seconds)
    return tally


def run_campaign(count: int, seed: int = 0, seconds: float = 30.0, jobs: int = 1) -> Tally:
    total = Tally("spec texts")
    shares = [range(k, count, jobs) for k in range(jobs)]
    if jobs <= 1:
        total.add(run_share(seed, shares[0], seconds))
        return total
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for share in pool.starmap(run_share, [(seed, s, seconds) for s in shares]):
            total.add(share)
    return total


def main(argv: list[str] | None = None) -> int:
    args = make_parser("Mutated spec texts through the spec reader.", 10_000).parse_args(argv)
    return finish(run_campaign(args.count, args.seed, args.seconds, args.jobs))


if __name__ == "__main__":
    sys.exit(main())
