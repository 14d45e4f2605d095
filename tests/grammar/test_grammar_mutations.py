"""Mutations of the real spec text never crash the toolchain.

Each example takes one `spec/*.baloot` file as it is at test time, mutates it
(deletes a span of tokens, duplicates a span, swaps two tokens, or inserts a
punctuation character), and parses and checks it together with the other files
unmodified. The result must be a model, or a `SpecError` whose every problem
points inside the file set, at a real line and column: never another exception.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot.grammar import model as m
from baloot.grammar.checks import check_spec
from baloot.grammar.errors import SpecError
from baloot.grammar.parser import assemble, default_spec_dir, load_spec, parse_text

SPEC_FILES = sorted(default_spec_dir().glob("*.baloot"))
TEXTS = {path.name: path.read_text(encoding="utf-8") for path in SPEC_FILES}

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Z]+\.[0-9]+|\w+|//|->|[<>=!]=|\s+|.')


def tokens(text: str) -> list[str]:
    found = TOKEN.findall(text)
    assert "".join(found) == text
    return found


TOKENS = {name: tokens(text) for name, text in TEXTS.items()}


def parsed(name: str, text: str) -> list[m.Decl]:
    try:
        return parse_text(text, name)
    except SpecError:
        return []


# The other files, parsed once; a file that does not parse right now contributes nothing.
PARSED = {name: parsed(name, text) for name, text in TEXTS.items()}


def test_the_real_spec_is_read() -> None:
    assert "variants.baloot" in TEXTS
    assert all(TOKENS.values())


def assert_well_placed(err: SpecError, texts: dict[str, str]) -> None:
    assert err.problems
    for problem in err.problems:
        pos = problem.pos
        assert pos.file in texts, problem
        lines = texts[pos.file].split("\n")
        assert 1 <= pos.line <= len(lines), problem
        assert 1 <= pos.column <= len(lines[pos.line - 1]) + 1, problem
        assert problem.message and problem.expected
    rendered = err.render()
    assert rendered.endswith(" in the spec")


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, str]:
    """A spec file name and its mutated text."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    toks = list(TOKENS[name])
    # mutate real tokens, not the whitespace between them
    solid = [i for i, t in enumerate(toks) if not t.isspace()]
    kind = draw(st.sampled_from(["delete", "duplicate", "swap", "insert"]))
    if kind == "insert":
        text = TEXTS[name]
        at = draw(st.integers(0, len(text)))
        char = draw(st.sampled_from(string.punctuation))
        return name, text[:at] + char + text[at:]
    first = draw(st.sampled_from(solid))
    if kind == "swap":
        other = draw(st.sampled_from(solid))
        toks[first], toks[other] = toks[other], toks[first]
        return name, "".join(toks)
    length = draw(st.integers(1, 12))
    span = toks[first:first + length]
    if kind == "delete":
        del toks[first:first + length]
    else:
        toks[first + length:first + length] = span
    return name, "".join(toks)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_mutated_spec_parses_and_checks_or_fails_cleanly(mutation: tuple[str, str]) -> None:
    name, text = mutation
    texts = {**TEXTS, name: text}
    try:
        decls: list[m.Decl] = []
        for other in sorted(texts):  # in file order, as `load_spec` reads them
            decls += parse_text(text, name) if other == name else PARSED[other]
        spec = assemble(decls, sorted(texts.items()))
        check_spec(spec)
    except SpecError as err:
        assert_well_placed(err, texts)
    else:
        assert isinstance(spec, m.Spec)


def test_the_real_spec_folder_loads_or_fails_cleanly(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    for name, text in TEXTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    try:
        spec = load_spec(tmp_path)
    except SpecError as err:
        assert_well_placed(err, TEXTS)
    else:
        assert set(spec.files) == set(TEXTS)


@pytest.mark.parametrize("char", sorted(set(string.punctuation)))
def test_each_punctuation_character_in_a_text_and_in_code(char: str) -> None:
    # inside a quoted text (a backslash may start a bad escape) and between tokens
    for text in (f'clause A.1 "x{char}y"\nconst c [A.1] = 1\n',
                 f'clause A.1 "x"\nconst c [A.1] {char}= 1\n'):
        try:
            spec = assemble(parse_text(text, "f.baloot"), [("f.baloot", text)])
            check_spec(spec)
        except SpecError as err:
            assert_well_placed(err, {"f.baloot": text})
