"""The engine process under hostile replies and on every platform: a reply is read
strictly (no NaN, no infinity, no lone surrogate, bounded depth) or refused with an
`EngineError`; the engine and what it started are stopped with the session (POSIX) or
the process tree (Windows); a timeout is a number of seconds."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot.conformance.adapters.reference_adapter import Adapter
from baloot.conformance.harness import engine_process
from baloot.conformance.harness.engine_process import (
    EngineError,
    EngineProcess,
    printable,
    read_reply,
)
from baloot.reference_impl.readings import VARIANTS

from ..conformance.conftest import assert_process_ends

GOOD_ENGINE = [sys.executable, str(Path(__file__).parents[1] / "conformance" / "fake_engines"
                                   / "good.py")]


def _sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])


def test_without_killpg_the_windows_branch_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    proc = _sleeper()
    ran: list[list[str]] = []

    def taskkill(argv: list[str], **options: Any) -> subprocess.CompletedProcess[bytes]:
        ran.append(argv)
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.delattr(os, "killpg")
    monkeypatch.setattr(subprocess, "run", taskkill)
    assert engine_process._group_options() == {"creationflags": 0x00000200}
    engine = EngineProcess(["unused"])
    engine._proc = proc
    engine.kill()
    assert ran == [["taskkill", "/F", "/T", "/PID", str(proc.pid)]]  # the tree, /T
    assert proc.returncode is not None  # and the process itself, by proc.kill()


def test_without_taskkill_the_process_is_still_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    proc = _sleeper()

    def missing(argv: list[str], **options: Any) -> None:
        raise FileNotFoundError(argv[0])

    monkeypatch.delattr(os, "killpg")
    monkeypatch.setattr(subprocess, "run", missing)
    engine = EngineProcess(["unused"])
    engine._proc = proc
    engine.kill()
    assert proc.returncode is not None


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX sessions")
def test_on_posix_the_engine_and_what_it_started_are_killed() -> None:
    assert engine_process._group_options() == {"start_new_session": True}
    # the engine starts a child in its session and says its pid instead of a hello
    engine = EngineProcess(["sh", "-c", "read hello; sleep 60 & echo $!; wait"], timeout=5)
    with pytest.raises(EngineError) as failed:
        engine.start()  # not a hello: the handshake fails, and the session is killed
    child = int(re.findall(r"'(\d+)'", failed.value.detail)[-1])
    assert_process_ends(child, "the engine's child, which outlived the engine,")


@pytest.mark.parametrize("value", [0, -1, float("nan"), True, "5"])
def test_a_timeout_is_a_number_of_seconds(value: Any) -> None:
    with pytest.raises(ValueError, match="must be a number of seconds more than 0"):
        EngineProcess(["unused"], timeout=value)
    with pytest.raises(ValueError, match="must be a number of seconds more than 0"):
        EngineProcess(["unused"], start_timeout=value)


def test_posted_requests_are_answered_in_order_and_collected_one_by_one() -> None:
    engine = EngineProcess(GOOD_ENGINE, timeout=5)
    try:
        engine.start()
        engine.post({"type": "start", "setup": {"dealer": 2}})
        engine.post({"type": "apply", "action": "ashkal"})
        engine.post({"type": "legal"})
        with pytest.raises(RuntimeError, match="posted requests wait"):
            engine.request({"type": "legal"})  # its reply would be taken for another's
        assert engine.collect() == {"seq": 2, "ok": True}
        assert engine.collect()["refused"]["clauses"] == ["BID.6"]
        assert engine.collect()["player"] == 3  # the dealer's right
        with pytest.raises(RuntimeError, match="no request posted"):
            engine.collect()
        assert engine.request({"type": "legal"})["seq"] == 5
    finally:
        engine.close()


def test_a_request_posted_to_an_engine_that_hangs_times_out_when_collected() -> None:
    hangs = [sys.executable, str(Path(GOOD_ENGINE[1]).with_name("hangs.py"))]
    engine = EngineProcess(hangs, timeout=0.3)
    try:
        engine.start()
        for _ in range(2):  # the second start is where it stops answering
            engine.request({"type": "start", "setup": {"dealer": 0}})
        engine.post({"type": "legal"})
        with pytest.raises(EngineError) as late:
            engine.collect()
        assert late.value.reason == "timeout"
        engine.post({"type": "legal"})
        engine.close()  # with a reply due: killed, no goodbye waited for
        assert not engine.running
    finally:
        engine.kill()


def test_an_infinite_timeout_waits_without_overflow() -> None:
    engine = EngineProcess(GOOD_ENGINE, timeout=float("inf"))
    try:
        assert engine.start()["ok"] is True  # once an OverflowError of the timestamp
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b'{"seq": NaN, "ok": true}', "NaN is not a JSON number"),
        (b'{"seq": 1, "ok": true, "v": -Infinity}', "-Infinity is not a JSON number"),
        (b'{"seq": 1, "ok": true, "version": 1e400}', "1e400 is too large a number"),
        (b'{"seq": 1, "ok": true, "name": "\\ud800"}', "lone surrogate"),
        (b'{"seq": 1, "ok": true, "\\udfff": 1}', "lone surrogate"),
        (b'{"seq": 1, "ok": true, "name": "caf\xe9"}', "not UTF-8 text (byte 36)"),
        (b'{"seq": 1, "x": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nests deeper than JSON"),
        (b'{"seq": 1, "x": ' + b"[" * 40 + b"]" * 40 + b"}", "deeper than 32 levels"),
        (b'{"seq": 1, "x": ' + b'[{"a": "]]}"}, ' * 33 + b"1" + b"]" * 33 + b"}",
         "deeper than 32 levels"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"seq": 1, "n": ' + b"9" * 5000 + b"}", "not JSON"),
        ('{"seq": 1, "ok": true}'.encode("utf-16"), "not UTF-8 text (byte 1)"),
        (b'{"seq": 1, "ok": true, "name": "\xed\xa0\x80"}', "not UTF-8 text (byte 33)"),
    ],
    ids=["nan", "infinity", "1e400", "surrogate", "surrogate-key", "latin1", "deep",
         "deeper-than-32", "deeper-than-32-brackets-in-strings", "list", "5000-digits",
         "utf-16", "surrogate-in-utf-8-form"],
)
def test_a_reply_that_is_no_protocol_json_is_refused(line: bytes, words: str) -> None:
    with pytest.raises(EngineError) as refused:
        read_reply(line)
    assert words in refused.value.detail


def test_a_reply_nested_32_levels_deep_is_read_and_a_byte_order_mark_is_allowed() -> None:
    line = b'\xef\xbb\xbf{"seq": 1, "x": ' + b"[" * 31 + b'"[[]"' + b"]" * 31 + b"}"
    inner: Any = read_reply(line)["x"]
    for _ in range(30):
        inner = inner[0]
    assert inner == ["[[]"]


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (the oracle)."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


TRICKY_TEXT = st.text(alphabet=st.sampled_from(list('[]{}"\\ab\u00e9\n:,')), max_size=6)


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.integers() | TRICKY_TEXT,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY_TEXT, inner,
                                                                     max_size=4),
        max_leaves=30,
    ),
    st.integers(0, 10),
    st.booleans(),
)
def test_the_nesting_read_from_the_text_is_the_values(
    value: Any, levels: int, ascii_only: bool
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8")
    assert engine_process.nests_within(text, levels) == (_depth(value) <= levels)


def test_a_surrogate_pair_and_an_escaped_backslash_are_text() -> None:
    reply = read_reply(b'{"seq": 1, "ok": true, "name": "\\ud83c\\udca1 \\\\udc00"}')
    assert reply["name"] == "\U0001f0a1 \\udc00"


JSON_BYTES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=4),
    max_leaves=12,
).map(lambda v: json.dumps({"seq": 1, "ok": True, "v": v}).encode("utf-8"))


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.binary(max_size=200), JSON_BYTES,
                 JSON_BYTES.map(lambda b: b.replace(b'"', b"", 1)),
                 st.text().map(lambda t: t.encode("utf-8", "surrogatepass"))))
def test_any_reply_is_read_strictly_or_refused(line: bytes) -> None:
    try:
        reply = read_reply(line)
    except EngineError as err:
        assert err.reason in ("invalid_json", "schema")
        err.detail.encode("utf-8")  # the error can be written anywhere
        return
    json.dumps(reply, allow_nan=False).encode("utf-8")  # what was read is JSON again


def test_an_engine_text_is_one_printable_line() -> None:
    wanted = "a\\x1b[31mb\\x00\\n\\u2028\\ud800\tc é"
    assert printable("a\x1b[31mb\x00\n\u2028\ud800\tc é") == wanted


# ---- the reference adapter reads requests as strictly ------------------------------------


def _adapter() -> Adapter:
    return Adapter(sys.modules["baloot.reference_impl"], {n: list(r) for n, r in VARIANTS.items()})


@pytest.mark.parametrize(
    "line",
    [
        '{"seq": NaN, "type": "hello", "protocol": 1}',
        '{"seq": 1e400, "type": "hello", "protocol": 1}',
        '{"seq": 1.0, "type": "hello", "protocol": 1}',
        '{"seq": true, "type": "hello", "protocol": 1}',
        '{"seq": 1, "type": "hello", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
    ],
    ids=["nan", "1e400", "float", "bool", "deep"],
)
def test_the_adapter_never_echoes_a_seq_that_is_no_whole_number(line: str) -> None:
    reply = _adapter().handle(line)
    assert reply["seq"] is None and reply["ok"] is False
    assert "cannot read request" in reply["error"]
    json.dumps(reply, allow_nan=False)


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.text(max_size=80), JSON_BYTES.map(lambda b: b.decode("utf-8"))))
def test_the_adapter_answers_any_line_with_json(line: str) -> None:
    reply = _adapter().handle(line)
    assert isinstance(reply["ok"], bool)
    json.dumps(reply, allow_nan=False)
