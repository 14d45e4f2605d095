"""The reference engine served in this process: the reference adapter's request
handling (`reference_adapter.Adapter`) behind the interface the runner uses of
an `EngineProcess`, with no process, pipe or thread.

Every request and reply goes through JSON text both ways, as over a pipe, so
the runner never holds a list the engine still owns, and a reply carries
exactly what the subprocess adapter would send. Refusals, `ok: false` errors
and a wrong `seq` are told apart as `EngineProcess.request` tells them, so a
case gets the same verdict here as against `REFERENCE_ARGV`, many times
faster (`baloot conform pins` and `applicability` run each case hundreds of
times).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ... import reference_impl
from ...reference_impl.readings import VARIANTS
from ..harness.engine_process import (
    ENGINE_ERROR,
    EXITED,
    HANDSHAKE,
    INVALID_JSON,
    PROTOCOL_VERSION,
    SCHEMA,
    WRONG_SEQ,
    EngineError,
    EngineProcess,
)
from ..harness.json_input import compact_json, strict_json
from .reference_adapter import Adapter

# How reports name the in-process engine where a subprocess has its command line.
INPROCESS_ARGV = ["(in-process reference engine)"]


def reference_readings() -> dict[str, list[str]]:
    """Every reading the reference engine implements, by variant (as its adapter declares)."""
    return {name: list(readings) for name, readings in VARIANTS.items()}


class InProcessEngine(EngineProcess):
    """The reference adapter's protocol session, called directly."""

    def __init__(self, api: Any = None, readings: dict[str, list[str]] | None = None) -> None:
        super().__init__(INPROCESS_ARGV)
        if api is None:
            api = reference_impl
        self.api = api
        self.readings = readings if readings is not None else reference_readings()
        self._adapter: Adapter | None = None
        self._answers: deque[dict[str, Any] | EngineError] = deque()  # posted, not collected

    @property
    def running(self) -> bool:
        return self._adapter is not None

    def start(self) -> dict[str, Any]:
        self.transcript.clear()
        self._answers.clear()
        self._adapter = Adapter(self.api, self.readings)
        try:
            reply = self.request({"type": "hello", "protocol": PROTOCOL_VERSION})
        except EngineError as exc:
            self.kill()
            raise EngineError(HANDSHAKE, f"{exc.reason}: {exc.detail}") from exc
        self.hello = reply
        return reply

    def kill(self) -> None:
        self._adapter = None
        self._answers.clear()

    def close(self) -> None:
        self.kill()

    def post(self, message: dict[str, Any]) -> None:
        """Answered at once (there is no other process to answer it meanwhile), the reply
        or its EngineError kept for `collect`."""
        try:
            self._answers.append(self.request(message))
        except EngineError as exc:
            self._answers.append(exc)

    def collect(
        self, timeout: float | None = None, *, lines: list[bytes] | None = None
    ) -> dict[str, Any]:
        """As `EngineProcess.collect`; no line is added to `lines`: the replies are the
        reference adapter's, written by the runner's own encoder, nothing to look at later."""
        if not self._answers:
            raise RuntimeError("no request posted to collect the reply of")
        answer = self._answers.popleft()
        if isinstance(answer, EngineError):
            raise answer
        return answer

    def stderr_tail(self, lines: int = 8) -> str:
        return ""

    def request(self, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        if self._adapter is None:
            raise EngineError(EXITED, "the engine is not running")
        self._seq += 1
        line = compact_json({"seq": self._seq, **message})
        self.transcript.append(f"> {line}")
        text = compact_json(self._adapter.handle(line))
        self.transcript.append(f"< {text[:200]}")
        reply = strict_json(text)
        if not isinstance(reply, dict):
            raise EngineError(INVALID_JSON, "reply is not a JSON object")
        if reply.get("seq") != self._seq:
            if reply.get("ok") is False and "error" in reply:
                raise EngineError(ENGINE_ERROR, f"engine could not read the request: "
                                                f"{reply['error']}")
            raise EngineError(WRONG_SEQ, f"expected seq {self._seq}, got {reply.get('seq')!r}")
        if reply.get("ok") is False and "error" in reply:
            raise EngineError(ENGINE_ERROR, f"{message['type']}: {reply['error']}")
        if not isinstance(reply.get("ok"), bool):
            raise EngineError(SCHEMA, f"{message['type']} reply has no boolean 'ok'")
        return reply
