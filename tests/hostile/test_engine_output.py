"""An engine's stdout read either way (`engine_output.py`: in the waiting thread with
`select`, or by a reader thread as on Windows) gives each engine the same verdict: a
reply torn in two is one reply, a line nobody asked for is an error at the next
request, a line too long is a flood, silence is a timeout, an exit is an exit, and the
last bytes before an exit are still read."""

from __future__ import annotations

import contextlib
import os
import sys
import textwrap
from collections.abc import Iterator

import pytest

from baloot.conformance.harness import engine_output
from baloot.conformance.harness.engine_process import (
    EXITED,
    FLOOD,
    TIMEOUT,
    UNSOLICITED,
    EngineError,
    EngineProcess,
)

# A fake engine: it greets, then answers each request as ANSWER does (with `seq`, the
# request's; `write(bytes)` writes and flushes stdout).
ENGINE = """
import json, sys, time
out = sys.stdout.buffer
def write(data):
    out.write(data)
    out.flush()
for line in sys.stdin:
    seq = json.loads(line)["seq"]
    if seq == 1:
        write(b'{"seq": 1, "ok": true, "protocol": 1}\\n')
        continue
    reply = b'{"seq": %d, "ok": true}\\n' % seq
    ANSWER
"""

ANSWERS = {
    "torn": "write(reply[:5]); time.sleep(0.2); write(reply[5:])",
    "twice": "write(reply + reply)",
    "long": "write(b'{\"seq\": %d, \"ok\": true, \"x\": \"' % seq + b'x' * 5000 + b'\"}\\n')",
    "silent": "time.sleep(5)",
    "exits": "sys.exit(3)",
    "last_bytes": "write(reply.rstrip()); sys.exit(0)",
    "many": "write(reply * 50)",
}


@pytest.fixture(params=[False, True], ids=["pipe", "thread"])
def in_thread(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    monkeypatch.setattr(engine_output, "READ_IN_THREAD", request.param)
    return bool(request.param)


@contextlib.contextmanager
def _running(answer: str, timeout: float = 1.0) -> Iterator[EngineProcess]:
    """The fake engine answering as ANSWERS[answer] says, started, and killed after."""
    code = textwrap.dedent(ENGINE).replace("ANSWER", ANSWERS[answer])
    engine = EngineProcess([sys.executable, "-c", code], timeout=timeout, max_line_bytes=1000,
                           max_pending_lines=10)
    engine.start()
    try:
        yield engine
    finally:
        engine.kill()


def _second(engine: EngineProcess) -> str:
    """The reason the second request (after one answered) fails, or `ok`."""
    try:
        engine.request({"type": "legal"})
        engine.request({"type": "legal"})
    except EngineError as error:
        return error.reason
    return "ok"


@pytest.mark.parametrize(("answer", "reason"), [
    ("torn", "ok"),
    ("twice", UNSOLICITED),
    ("many", UNSOLICITED),
])
def test_lines_as_they_come(in_thread: bool, answer: str, reason: str) -> None:
    with _running(answer) as engine:
        assert _second(engine) == reason


@pytest.mark.parametrize(("answer", "reason"), [
    ("long", FLOOD),
    ("silent", TIMEOUT),
    ("exits", EXITED),
])
def test_a_reply_that_does_not_come(in_thread: bool, answer: str, reason: str) -> None:
    with _running(answer) as engine:
        with pytest.raises(EngineError) as raised:
            engine.request({"type": "legal"})
        assert raised.value.reason == reason


def test_the_last_bytes_before_an_exit_are_a_reply(in_thread: bool) -> None:
    with _running("last_bytes") as engine:
        assert engine.request({"type": "legal"}) == {"seq": 2, "ok": True}
        with pytest.raises(EngineError) as raised:
            engine.request({"type": "legal"})
        assert raised.value.reason == EXITED


def test_a_timeout_longer_than_poll_waits_at_once_is_no_overflow(in_thread: bool) -> None:
    with _running("torn", timeout=5e6) as engine:  # 58 days: past poll's 2**31 - 1 ms
        assert _second(engine) == "ok"


def test_the_reading_is_the_platforms() -> None:
    with _running("torn") as engine:
        kind = engine_output.ThreadLines if engine_output.READ_IN_THREAD else \
            engine_output.PipeLines
        assert isinstance(engine._stdout, kind)


def test_an_engine_is_read_when_its_pipe_is_past_file_descriptor_1023() -> None:
    # `select` fails past FD_SETSIZE (1024): a long-running campaign may get there
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200 and (hard == resource.RLIM_INFINITY or hard >= 1200):
        resource.setrlimit(resource.RLIMIT_NOFILE, (1200, hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < 1200:
        pytest.skip("cannot open 1,100 files here")
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        with _running("torn") as engine:
            assert engine._proc is not None and engine._proc.stdout is not None
            assert engine._proc.stdout.fileno() > 1023
            assert _second(engine) == "ok"
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
