"""JSON from outside is read by msgspec first and by the standard library's decoder when
msgspec refuses it: the two readings must be one. Texts of every kind (valid JSON of
every shape, the edge cases of numbers, strings, encodings and depth, and bytes broken
at random) give the same value, to the type of every number, or the same error,
whichever decoder is installed."""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot.conformance.harness import json_input


def _reading(text: str | bytes, fast: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """What strict_json makes of the text, as a comparable pair: ("value", its repr, which
    tells 1 from 1.0 and -0.0 from 0.0) or ("error", the exception's type and words)."""
    if not fast:
        monkeypatch.setattr(json_input, "_FAST_DECODE", None)
    try:
        return ("value", repr(json_input.strict_json(text)))
    except ValueError as exc:
        return ("error", f"{type(exc).__name__}: {exc}")
    finally:
        monkeypatch.undo()


def _agree(text: str | bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _reading(text, True, monkeypatch) == _reading(text, False, monkeypatch), text


def test_msgspec_reads_first_where_it_is_installed() -> None:
    pytest.importorskip("msgspec")
    assert json_input._FAST_DECODE is not None  # the CPython install has it


EDGES = [
    b"{}", b"[]", b'""', b"0", b"-0", b"-0.0", b"1.0", b"1E2", b"1e-2", b"1E+2", b"4.9e-324",
    b"1e-400", b"1e400", b"-1e400", b"1e309", b"NaN", b"[Infinity]", b"-Infinity",
    b"9007199254740993", b"18446744073709551616", b"-9223372036854775809",
    b"123456789012345678901234567890", b"1" * 4300, b"1" * 4301, b"[" + b"7" * 5000 + b"]",
    b"123456789012345678901234567890.5", b"01", b"1.", b".5", b"+1", b"-", b"1e", b"0x10",
    b"\x0c{}", b"\xc2\xa0{}", b" \t\r\n{} ", b"", b"1 2", b"{}x", b"[1,]", b'{"a":1,}',
    b'{"a":1,"a":2}', b'{"":1}', b'"\\/"', b'"\\x"', b'"\\u00e9"', b'"\\u0000"', b'"a\x01"',
    b'"\\ud800"', b'"\\udc00"', b'"\\ud800x"', b'"\\ud83d\\ude00"', b'"\xed\xa0\x80"',
    b'"\xf4\x90\x80\x80"', b"\xff", b"\xef\xbb\xbf{}", "{}".encode("utf-16"),
    '"\u2028"'.encode(), b"[" * 900 + b"]" * 900, b"[" * 1500 + b"]" * 1500,
    b"[" * 20000 + b"]" * 20000, b'{"a":' * 3000 + b"1" + b"}" * 3000, b"true", b"null",
    b"[true,false,null]", b'{"seq":1.0,"ok":true}',
]


def test_a_text_holding_a_lone_surrogate_reads_as_the_standard_library_reads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for text in ('["a\ud800"]', '{"\udfff": 1}', '"\ud800" x'):  # the characters, not escapes
        _agree(text, monkeypatch)
    assert json_input.strict_json('["a\ud800"]') == ["a\ud800"]


@pytest.mark.parametrize("text", EDGES, ids=[repr(t[:24]) for t in EDGES])
def test_edge_cases_read_alike_as_bytes_and_as_text(
    text: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    _agree(text, monkeypatch)
    try:
        as_text = text.decode("utf-8")
    except UnicodeDecodeError:
        return
    _agree(as_text, monkeypatch)


def test_the_readings_are_the_standard_librarys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not two wrong readings that agree: a few worked out by hand."""
    big = 123456789012345678901234567890  # past 64 bits: exact, not a float
    assert json_input.strict_json(str(big).encode()) == big
    assert type(json_input.strict_json(b"-0")) is int
    assert json_input.strict_json('{"a":1,"a":2}') == {"a": 2}
    assert json_input.strict_json(b'"\\ud800"') == "\ud800"  # read; read_reply refuses it
    for refused, words in ((b"1e400", "too large"), (b"NaN", "not a JSON number"),
                           (b"1" * 4301, "more than 4300 digits"),
                           (b"[" * 20000 + b"]" * 20000, "nested deeper")):
        with pytest.raises(ValueError, match=words):
            json_input.strict_json(refused)


# Texts of any code point, lone surrogates among them (a str may hold one; UTF-8 cannot).
ANY_TEXT = st.text(st.characters(exclude_categories=()))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.booleans(), st.booleans())
def test_valid_json_of_every_shape_reads_alike(value: Any, ascii_only: bool, spaced: bool) -> None:
    separators = (", ", ": ") if spaced else (",", ":")
    text = json.dumps(value, ensure_ascii=ascii_only, separators=separators)
    with pytest.MonkeyPatch.context() as monkeypatch:
        _agree(text, monkeypatch)
        _agree(text.encode("utf-8", "surrogatepass"), monkeypatch)


@settings(max_examples=500, deadline=None)
@given(JSON_VALUES, st.lists(st.tuples(st.integers(0, 10**6), st.binary(max_size=3)), max_size=3))
def test_json_broken_at_random_reads_alike(value: Any, edits: list[tuple[int, bytes]]) -> None:
    data = bytearray(json.dumps(value).encode())
    for at, piece in edits:
        at %= len(data) + 1
        data[at : at + len(piece) // 2] = piece
    with pytest.MonkeyPatch.context() as monkeypatch:
        _agree(bytes(data), monkeypatch)


def test_without_msgspec_the_standard_library_reads_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "msgspec", None)  # import msgspec raises ImportError
    try:
        module = importlib.reload(json_input)
        assert module._FAST_DECODE is None
        assert module.strict_json(b'{"seq":1,"ok":true}') == {"seq": 1, "ok": True}
        with pytest.raises(ValueError, match="too large"):
            module.strict_json(b"[1e400]")
    finally:
        monkeypatch.undo()
        importlib.reload(json_input)


def _has_float_or_del(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, str):
        return "\x7f" in value
    if isinstance(value, list):
        return any(_has_float_or_del(v) for v in value)
    if isinstance(value, dict):
        return any(_has_float_or_del(k) or _has_float_or_del(v) for k, v in value.items())
    return False


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_compact_json_reads_back_to_the_value_in_the_standard_librarys_text(value: Any) -> None:
    text = json_input.compact_json(value)
    assert text.isascii() and "\n" not in text  # one line: a newline in text is escaped
    assert repr(json_input.strict_json(text)) == repr(value)
    standard = json.dumps(value, separators=(",", ":"))
    if not _has_float_or_del(value):
        assert text == standard
    else:
        assert repr(json.loads(standard)) == repr(json.loads(text))


def test_compact_json_writes_what_msgspec_cannot() -> None:
    assert json_input.compact_json([10**30, -(2**63) - 1]) == (
        "[1000000000000000000000000000000,-9223372036854775809]"
    )
    assert json_input.compact_json({"name": "é\u2028"}) == '{"name":"\\u00e9\\u2028"}'
    assert json_input.compact_json({1: [True, None]}) == '{"1":[true,null]}'
