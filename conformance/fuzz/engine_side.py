"""The engine under test as a replay speaks to it: each read asked once per state, and
each change sent together with the reads that follow it when the engine takes batches.

A conforming engine's `state`, `legal` and `result` replies change only with a
`start`, a `deal` or an `apply` (PROTOCOL.md), so a read's reply is kept until
the next of those, and asking again costs nothing. When the engine's hello says
`"batch": true`, a change goes out in one `batch` request with the reads the
replay names (`then`), and their replies wait until asked for: one round trip
an action instead of three.

A batched read that the engine answers with an error reply raises, when it is
asked for, the `EngineError` it would have raised alone; one never asked for
is never raised, so a replay meets the same disagreements either way. A batch
that fails as a whole (a timeout, an exit, a reply that cannot be read) fails
at its change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..harness.engine_process import (
    SCHEMA,
    EngineError,
    EngineProcess,
    reply_shape_error,
)
from ..harness.engine_process import checked_reply as checked  # a batch's reply, one by one

READS = frozenset({"state", "legal", "result"})
READ_REQUESTS = {kind: {"type": kind} for kind in READS}  # the requests, shared: never changed


class Transport(Protocol):
    """What carries the requests: the engine process, or a stand-in below."""

    hello: dict[str, Any]

    def request(self, message: dict[str, Any]) -> dict[str, Any]: ...


def batches(hello: dict[str, Any]) -> bool:
    """Whether an engine's hello says it answers `batch` requests."""
    return hello.get("batch") is True


class EngineSide:
    """One replay's requests to the engine process, read replies kept per state."""

    def __init__(self, engine: Transport) -> None:
        self.engine = engine
        self.known: dict[str, dict[str, Any] | EngineError] = {}
        self.requests = 0  # round trips to the engine (a batch is one)

    def request(self, message: dict[str, Any], then: Sequence[str] = ()) -> dict[str, Any]:
        """The reply to `message`; for a change, the reads in `then` go in one batch with it
        (when the engine takes batches) and are kept for later."""
        kind = message["type"]
        if kind in READS and len(message) == 1:
            return self.read(kind)
        self.known.clear()
        self.requests += 1
        if not then or not batches(self.engine.hello):
            return self.engine.request(message)
        reads = [READ_REQUESTS[t] for t in then]
        reply = self.engine.request({"type": "batch", "requests": [message, *reads]})
        replies = reply.get("replies")
        if not isinstance(replies, list) or len(replies) != 1 + len(reads):
            count = len(replies) if isinstance(replies, list) else "no list of"
            raise EngineError(
                SCHEMA, f"batch reply has {count} replies for {1 + len(reads)} requests"
            )
        answer = checked(kind, replies[0])
        for read, got in zip(then, replies[1:], strict=True):
            try:
                self.known[read] = checked(read, got)
            except EngineError as exc:
                self.known[read] = exc
        return answer

    def read(self, kind: str) -> dict[str, Any]:
        known = self.known.get(kind)
        if known is None:
            self.requests += 1
            known = self.known[kind] = self.engine.request({"type": kind})
        if isinstance(known, EngineError):
            raise known
        return known

    def forget(self) -> None:
        """Drop every kept reply (the engine was restarted or killed)."""
        self.known.clear()


# ---- a whole game in a few batches ------------------------------------------------------
#
# Which requests a replay sends the engine is decided by the reference alone, up
# to the first disagreement (for an engine with every capability: only the
# pass-only turns of an engine without `pass_only_turns` depend on its replies).
# So a replay can first be played against a stand-in that answers as the
# reference does (`Planner`), the requests written down and sent to the engine in
# a few batches while the plan is made (`PlanSender`: the engine answers one batch
# as the fuzzer plans the next); then the engine's replies are checked. When each is
# the stand-in's reply, the replay against the engine is the planned one, the
# same in every detail; otherwise the replay is played again on those replies
# (`Replayer`), and when that meets a disagreement or leaves the plan, again
# against the engine, request by request, as without the plan.

CHUNK = 144  # requests a batch when sending a plan (the engine answers one as the next is planned)
AHEAD = 2  # batches sent and not yet answered, at most (a hung engine never fills the pipe)


class Diverged(Exception):
    """A replay asked the engine something other than the plan."""


class Planner:
    """A stand-in engine: each request written down and answered by `predict`, and handed
    to `send` (a `PlanSender`'s `add`), batches opened, as it is planned."""

    def __init__(
        self,
        predict: Callable[[dict[str, Any]], dict[str, Any]],
        send: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> None:
        self.hello: dict[str, Any] = {"batch": True}
        self.predict = predict
        self.send = send
        self.sent: list[dict[str, Any]] = []
        self.predicted: list[dict[str, Any]] = []

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(message)
        batch = message["type"] == "batch"
        if self.send is not None:
            self.send(message["requests"] if batch else [message])
        if batch:
            replies = [self.predict(m) for m in message["requests"]]
            self.predicted.extend(replies)
            return {"ok": True, "replies": replies}
        reply: dict[str, Any] = self.predict(message)
        self.predicted.append(reply)
        return reply

    def batch(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The predicted replies of a `batch` of these requests, written down as `request`
        writes it down."""
        self.sent.append({"type": "batch", "requests": requests})
        if self.send is not None:
            self.send(requests)
        predict = self.predict
        replies = [predict(m) for m in requests]
        self.predicted.extend(replies)
        return replies


class PlannedSide(EngineSide):
    """`EngineSide` over a `Planner`, a change and its reads planned as the batch
    `EngineSide` sends, their replies kept unchecked: they are the reference's (speed:
    a plan makes one a move)."""

    def __init__(self, planner: Planner) -> None:
        super().__init__(planner)
        self.planner = planner

    def request(self, message: dict[str, Any], then: Sequence[str] = ()) -> dict[str, Any]:
        if not then or message["type"] in READS:
            return super().request(message, then)
        self.known.clear()
        self.requests += 1
        answer, *replies = self.planner.batch([message, *[READ_REQUESTS[t] for t in then]])
        self.known.update(zip(then, replies, strict=True))
        return answer


@dataclass
class SentGame:
    """One game's requests sent in batches, how many, and the engine's replies read so far,
    with the lines they came in (their nesting and lone surrogates not yet looked at:
    `shape_error`)."""

    count: int
    got: list[Any] = field(default_factory=list)
    lines: list[bytes] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.got) == self.count

    def shape_error(self) -> EngineError | None:
        """The first reply line too deep or holding a lone surrogate, if any (moot for
        replies equal to the reference's, which are neither)."""
        for line in self.lines:
            error = reply_shape_error(line)
            if error is not None:
                return error
        return None


class PlanSender:
    """Plans' requests sent to the engine while they are made, in batches of `CHUNK` posted
    as they fill (the engine answers one while the next is planned), at most `AHEAD` of
    them waiting for their replies.

    One sender may carry several games, one after another: `close_game` sends the rest of
    the game planned and hands back its `SentGame`, whose replies `replies` reads, so the
    next game can be planned and sent while the engine answers the last one's.

    A failure to send or to read is kept, nothing more is sent, and `replies` raises it
    for each game whose replies it left incomplete: a plan is made to its end either way."""

    def __init__(self, engine: EngineProcess) -> None:
        self.engine = engine
        self.waiting: list[dict[str, Any]] = []  # planned, not yet sent
        # each batch sent and not yet read: the game its replies go to, and how many
        self.sizes: deque[tuple[SentGame, int]] = deque()
        self.game = SentGame(0)  # the game being planned
        self.failed: EngineError | None = None

    def add(self, requests: list[dict[str, Any]]) -> None:
        self.game.count += len(requests)
        self.waiting.extend(requests)
        while len(self.waiting) >= CHUNK and self.failed is None:
            self._send(CHUNK)

    def close_game(self) -> SentGame:
        """Send what is left of the game planned, and hand it back; requests added later
        are another game's."""
        if self.waiting and self.failed is None:
            self._send(len(self.waiting))
        self.waiting = []
        game, self.game = self.game, SentGame(0)
        return game

    def replies(self, game: SentGame | None = None) -> list[Any]:
        """The engine's replies to every request of a game closed, or, by default, of the
        game planned (closed now), in order; a later game's are not waited for."""
        game = self.close_game() if game is None else game
        while self.failed is None and any(target is game for target, _ in self.sizes):
            self._read()
        if not game.complete:
            raise self.failed or EngineError(SCHEMA, "batch replies missing")
        return game.got

    def settle(self) -> None:
        """Read the replies still due and drop them (the plans are not used); an engine that
        fails to give them, or that no longer waits for them (killed, or stopped by Ctrl-C
        between a batch sent and its count kept), is killed. The sender is then as new."""
        try:
            while self.sizes and self.failed is None:
                self.sizes.popleft()
                self.engine.collect()
            if self.engine.awaiting:  # posted, never counted here
                self.engine.kill()
        except EngineError:
            self.engine.kill()
        except RuntimeError:  # counted here, no longer posted: the engine was killed
            self.engine.kill()
        finally:
            if self.failed is not None:
                self.engine.kill()  # its batches may be answered yet: not to meet a later one
            self.sizes.clear()
            self.waiting, self.game, self.failed = [], SentGame(0), None

    def _send(self, count: int) -> None:
        try:
            if len(self.sizes) >= AHEAD:
                self._read()
            chunk, self.waiting = self.waiting[:count], self.waiting[count:]
            self.engine.post({"type": "batch", "requests": chunk})
            self.sizes.append((self.game, len(chunk)))
        except EngineError as exc:
            self.failed = exc

    def _read(self) -> None:
        try:
            target, size = self.sizes.popleft()
            got = self.engine.collect(lines=target.lines).get("replies")
            if not isinstance(got, list) or len(got) != size:
                raise EngineError(SCHEMA, f"batch reply without {size} replies")
            target.got.extend(got)
        except EngineError as exc:
            self.failed = exc


class Replayer:
    """The engine's replies to a plan, served to a replay that must ask what the plan asked."""

    def __init__(self, plan: Planner, replies: list[Any]) -> None:
        self.hello: dict[str, Any] = {"batch": True}
        self.pending: list[tuple[dict[str, Any], Any]] = []
        left = iter(replies)
        for message in plan.sent:
            if message["type"] == "batch":
                got = [next(left) for _ in message["requests"]]
                self.pending.append((message, {"ok": True, "replies": got}))
            else:
                self.pending.append((message, next(left)))
        self.pending.reverse()

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        if not self.pending:
            raise Diverged(f"{message['type']} after the plan's last request")
        planned, reply = self.pending.pop()
        if planned != message:
            raise Diverged(f"{message['type']} where the plan has {planned['type']}")
        if message["type"] == "batch":
            return dict(reply)
        return checked(message["type"], reply)
