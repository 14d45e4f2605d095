"""One engine process, spoken to in JSON lines, with every way it can go wrong
turned into an `EngineError` with a reason, never a hang.

The engine's stdout is read as lines (`engine_output.py`: where the request
waits for its reply, or by a reader thread where a pipe cannot be waited on);
a line longer than `max_line_bytes`, or more than `max_pending_lines` lines
queued by a reader thread, is a flood: reading stops and the process is to be
killed; a line nobody asked for is an error at the next request. A thread
keeps the engine's stderr for the report (`StderrLines`: its first 20 and last
40 lines, and the lines between that name an exception), which an error of an
engine that exited or failed its handshake carries (`EngineError.stderr`). A
failed start says its likely cause (`EngineError.hint`): a line on stdout that
is not JSON, no such file, an exit before the hello's reply. Every request waits at most
`timeout` seconds for its reply. A reply read once the engine has exited,
while its stdout is still held open, is an `exited` error, never a verdict: it
came from a process the engine left behind.

What `kill` ends (`_stop_group`, `_sweep`): on POSIX the engine runs in a
session of its own, which is killed as a process group; where `/proc` can be
read (Linux), also every process still in that session or group, every
descendant seen while the engine ran (its ancestry read from `/proc` at the
hello and at most once a second as requests go out, each killed only while its
start time is the one seen), and every process whose environment carries the
engine's own `BALOOT_ENGINE_RUN` value, which the engine and what it starts
inherit: a grandchild that left the session with `setsid` is found so. On
Windows, the process tree (`taskkill /T`). What no platform can promise: a
descendant that leaves the session, clears its environment and is orphaned
between two looks; one running as another user; on POSIX without `/proc`
(macOS, the BSDs) any process that leaves the engine's process group. Every
engine still running when the interpreter exits is killed (`stop_all`, at exit).

The hello's `protocol` is read strictly (`true` is no protocol 1; the rest of
the hello is `declared.py`'s to read); a second hello reply is a `handshake`
error, and after `MAX_SAME_HANDSHAKE_FAILURES` launches that end so, `start`
launches the engine no more.

A reply is read strictly: JSON text in UTF-8, an object, no NaN or infinity,
no number too large for a double, no lone surrogate in a text, nested at most
`MAX_REPLY_DEPTH` levels; anything else is an `EngineError`.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ..protocol.schemas import reply_errors, request_errors
from . import engine_output as output
from .engine_output import PipeLines, ThreadLines, lines_of
from .json_input import compact_json, strict_json

PROTOCOL_VERSION = 1

# The reference engine served over the protocol, as a command to start.
REFERENCE_ARGV = [sys.executable, "-m", "baloot.conformance.adapters.reference_adapter"]

# Reasons an engine interaction can fail; the report groups errors by them.
TIMEOUT = "timeout"
EXITED = "exited"
INVALID_JSON = "invalid_json"
WRONG_SEQ = "wrong_seq"
FLOOD = "flood"
UNSOLICITED = "unsolicited_output"
SCHEMA = "schema"
ENGINE_ERROR = "engine_error"
LAUNCH = "launch_failed"
HANDSHAKE = "handshake"

# Launches in a row whose handshake fails the same way after the hello (a second hello
# reply) before `start` launches the engine no more.
MAX_SAME_HANDSHAKE_FAILURES = 3
# The environment variable each engine launch gets a value of its own in, which what it
# starts inherits: how a process it left behind is known as its (`_sweep`).
RUN_VARIABLE = "BALOOT_ENGINE_RUN"
LOOK_EVERY = 1.0  # seconds between two readings of a running engine's descendants
# Seconds the output of an engine that has exited gets to end, before a reply read then
# is taken for the reply of a process it left behind, not its own
AFTER_EXIT = 0.2


class EngineError(Exception):
    """The engine failed to serve a request; `reason` is one of the constants above,
    `hint` the likely cause of a failed start (or empty), `stderr` the engine's stderr
    around the error (`StderrLines.excerpt`, or empty)."""

    def __init__(self, reason: str, detail: str, *, hint: str = "", stderr: str = "") -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.hint = hint
        self.stderr = stderr


# A line of an engine's stderr that names an exception or a crash (kept in the excerpt
# wherever it falls).
NAMES_AN_EXCEPTION = re.compile(
    r"Error\b|Exception\b|Traceback|panic:|FATAL|fatal error|Segmentation fault|Abort")


class StderrLines:
    """An engine's stderr as kept for a report: the first `HEAD` lines, the last `TAIL`,
    and the last few lines between them that name an exception (`NAMES_AN_EXCEPTION`)."""

    HEAD, TAIL, NAMED = 20, 40, 5

    def __init__(self) -> None:
        self.head: list[str] = []
        self.tail: deque[tuple[int, str]] = deque(maxlen=self.TAIL)  # (line number, text)
        self.named: deque[tuple[int, str]] = deque(maxlen=self.NAMED)
        self.count = 0

    def append(self, line: str) -> None:
        self.count += 1
        if len(self.head) < self.HEAD:
            self.head.append(line)
            return
        if len(self.tail) == self.TAIL:  # the oldest line leaves the tail
            number, old = self.tail[0]
            if NAMES_AN_EXCEPTION.search(old):
                self.named.append((number, old))
        self.tail.append((self.count, line))

    def last(self, lines: int) -> list[str]:
        kept = self.head + [line for _, line in self.tail]
        return kept[-lines:] if lines > 0 else []

    def exception_line(self) -> str:
        """The last line kept that names an exception, or an empty text."""
        kept = [*self.head, *(line for _, line in self.named), *(line for _, line in self.tail)]
        return next((line.strip() for line in reversed(kept)
                     if NAMES_AN_EXCEPTION.search(line)), "")

    def excerpt(self) -> str:
        """The lines kept, in order; a gap is marked with how many lines it leaves out."""
        out = list(self.head)
        shown = len(self.head)
        for number, line in [*self.named, *self.tail]:
            if number > shown + 1:
                out.append(f"[... {number - shown - 1} line(s) left out ...]")
            out.append(line)
            shown = number
        return "\n".join(out)


class EngineProcess:
    def __init__(
        self,
        argv: list[str],
        *,
        timeout: float = 5.0,
        start_timeout: float | None = None,
        validate: bool = False,
        max_line_bytes: int = 1 << 20,
        max_pending_lines: int = 1000,
    ) -> None:
        self.argv = argv
        self.timeout = _seconds(timeout, "timeout")
        # for the hello; None: `timeout`
        self.start_timeout = None if start_timeout is None else _seconds(
            start_timeout, "start_timeout"
        )
        self.validate = validate
        self.max_line_bytes = max_line_bytes
        self.max_pending_lines = max_pending_lines
        self._proc: subprocess.Popen[bytes] | None = None
        self._stdout: ThreadLines | PipeLines | None = None  # the lines it prints
        self._stderr_lines = StderrLines()
        self._stderr_reader: threading.Thread | None = None
        self._seq = 0
        self._posted: deque[dict[str, Any]] = deque()  # sent, their replies not yet read
        # the type of the request last sent or waited for: the one an error came at
        self.serving = ""
        self.transcript: deque[str] = deque(maxlen=8)  # the last lines both ways
        self.hello: dict[str, Any] = {}
        self._hello_seq = 0  # the seq of the last hello sent
        self._token = ""  # this launch's BALOOT_ENGINE_RUN
        self._seen: dict[int, int] = {}  # descendants seen while it ran: pid -> start time
        self._next_look = 0.0  # when to read its descendants again (monotonic seconds)
        # launches in a row whose handshake failed after the hello, and how
        self._handshake_failures: tuple[int, str] = (0, "")

    # ------------------------------------------------------------ lifecycle --

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> dict[str, Any]:
        """Launch the engine and shake hands; returns the hello reply."""
        failures, how = self._handshake_failures
        if failures >= MAX_SAME_HANDSHAKE_FAILURES:
            raise EngineError(
                HANDSHAKE, f"not launched again: at each of its last {failures} launches, {how}"
            )
        # New lines and tail for each process: a process left behind by an earlier start
        # (a child still holding its stdout) feeds its own, never this one's.
        self._stderr_lines = StderrLines()
        self.transcript.clear()
        self._posted.clear()
        self.hello = {}
        self._token = uuid.uuid4().hex
        self._seen = {}
        # Ctrl-C or SIGTERM during the launch waits until the process is known, listed
        # in _RUNNING and read: one that came between the fork and the listing left the
        # engine running after the runner had stopped.
        with deferred_interrupts():
            try:
                self._proc = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env={**os.environ, RUN_VARIABLE: self._token},
                    **_group_options(),
                )
            except OSError as exc:
                raise EngineError(
                    LAUNCH, f"cannot run {self.argv[0]!r}: {exc.strerror or exc}",
                    hint=launch_hint(exc),
                ) from exc
            _RUNNING[id(self)] = self
            assert self._proc.stdout is not None and self._proc.stderr is not None
            self._stdout = lines_of(
                self._proc.stdout, self.max_line_bytes, self.max_pending_lines
            )
            self._stderr_reader = threading.Thread(
                target=self._read_stderr, args=(self._proc.stderr, self._stderr_lines),
                daemon=True,
            )
            self._stderr_reader.start()
        try:
            self._hello_seq = self._seq + 1
            reply = self.request(
                {"type": "hello", "protocol": PROTOCOL_VERSION}, timeout=self.start_timeout
            )
        except EngineError as exc:
            self.kill()
            raise EngineError(
                HANDSHAKE, f"{exc.reason}: {exc.detail}",
                hint=hello_hint(exc, self.start_timeout or self.timeout,
                                self.stderr_excerpt()),
                stderr=self.stderr_excerpt(),
            ) from exc
        except BaseException:
            self.kill()
            raise
        problem = None
        protocol = reply.get("protocol")
        if type(protocol) is not int:  # true is not 1
            problem = (f"the hello's protocol: expected the whole number {PROTOCOL_VERSION}, "
                       f"not {printable(compact_json(protocol)[:80])}")
        elif protocol != PROTOCOL_VERSION:
            problem = f"engine speaks protocol {protocol}, the runner {PROTOCOL_VERSION}"
        try:
            if problem is None:
                self._nothing_after_hello()
        except EngineError as exc:
            problem = exc.detail
        if problem is not None:
            self.kill()
            raise EngineError(
                HANDSHAKE, problem,
                hint=f"the hello's reply must carry \"protocol\": {PROTOCOL_VERSION} "
                "(PROTOCOL.md, \"hello\")", stderr=self.stderr_excerpt())
        self.hello = reply
        self._look()
        return reply

    def kill(self) -> None:
        """End the process, what it started (`_stop_group`, `_sweep`) and anything left
        behind that is known to be its, at once; Ctrl-C and SIGTERM wait until it is done."""
        proc = self._proc
        if proc is None:
            return
        with deferred_interrupts():
            self._kill(proc)

    def _kill(self, proc: subprocess.Popen[bytes]) -> None:
        _stop_group(proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        _sweep(proc.pid, self._token, self._seen)
        # Close only what no reader thread still blocks on (closing a stream
        # under a blocked reader would block too): a child left behind may hold one.
        streams = [proc.stdin]
        if self._stdout is None or self._stdout.released(timeout=1):
            streams.append(proc.stdout)
        if self._stderr_reader is not None:
            self._stderr_reader.join(timeout=1)
        if self._stderr_reader is None or not self._stderr_reader.is_alive():
            streams.append(proc.stderr)
        for stream in streams:
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._proc = None
        self._posted.clear()
        self._seen = {}
        _RUNNING.pop(id(self), None)

    def close(self) -> None:
        """Say goodbye politely, then make sure the process is gone."""
        try:
            # a reply still due, or no handshake done: no goodbye
            if self.running and self.hello and not self._posted:
                with contextlib.suppress(EngineError):
                    self.request({"type": "bye"}, timeout=min(self.timeout, 1.0))
                if self._proc is not None:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        self._proc.wait(timeout=1)
        finally:
            self.kill()

    @property
    def awaiting(self) -> int:
        """Requests posted whose replies are not yet collected (0 once killed)."""
        return len(self._posted)

    def _look(self) -> None:
        """Note the engine's descendants now, to be killed with it should they outlive it
        and leave its session (POSIX with /proc)."""
        self._next_look = time.monotonic() + LOOK_EVERY
        if self._proc is not None:
            self._seen.update(_descendants(self._proc.pid, self._seen))

    # -------------------------------------------------------------- threads --

    def _read_stderr(self, stream: IO[bytes], kept: StderrLines) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in iter(lambda: stream.readline(4096), b""):
                kept.append(printable(line.decode("utf-8", "replace").rstrip("\r\n")))

    def stderr_tail(self, lines: int = 8) -> str:
        return "\n".join(self._stderr_lines.last(lines))

    def stderr_excerpt(self) -> str:
        """The engine's stderr as kept (`StderrLines.excerpt`): its first and last lines,
        and the lines between that name an exception."""
        return self._stderr_lines.excerpt()

    # ------------------------------------------------------------- requests --

    def request(self, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send one request and return its reply (an `ok: false` refusal included).

        Raises EngineError for everything else: no reply in time, an exit,
        non-JSON, a wrong `seq`, a flood, a schema violation (when validating)
        or an error reply.
        """
        if self._posted:  # its reply would be taken for another's
            raise RuntimeError("a request sent while posted requests wait for their replies")
        self.post(message)
        return self.collect(timeout)

    def post(self, message: dict[str, Any]) -> None:
        """Send a request without waiting for its reply, which `collect` reads: the engine
        answers it while the runner goes on. Replies are collected in the order posted;
        raises EngineError when the request cannot be sent."""
        self.serving = str(message.get("type", ""))
        if self._proc is None or self._proc.stdin is None:
            raise EngineError(EXITED, "the engine is not running")
        if not self._posted:  # with requests posted, their replies are what comes
            self._check_unsolicited()
        self._seq += 1
        message = {"seq": self._seq, **message}
        if self.validate:
            problems = request_errors(message)
            if problems:  # a runner bug, not the engine's: say so loudly
                raise RuntimeError(f"runner sent an invalid {message['type']}: {problems}")
        line = compact_json(message)
        self.transcript.append(f"> {line}")
        if time.monotonic() >= self._next_look:
            self._look()
        try:
            self._proc.stdin.write(line.encode("utf-8") + b"\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._exit_error("while the runner was sending a request") from None
        except BaseException:  # Ctrl-C with the line half sent: its reply cannot be told
            self.kill()
            raise
        self._posted.append(message)

    def collect(
        self, timeout: float | None = None, *, lines: list[bytes] | None = None
    ) -> dict[str, Any]:
        """The reply to the oldest request posted and not yet collected, waiting at most
        `timeout` seconds from now; raises EngineError as `request` does.

        With `lines`, the reply's line is added to it and its nesting and lone surrogates
        are left for the caller to check (`reply_shape_error`), which it need not do for
        a reply equal to one the reference gave (speed: a fuzzer's batch replies)."""
        if not self._posted:
            raise RuntimeError("no request posted to collect the reply of")
        message = self._posted.popleft()
        self.serving = message["type"]
        try:
            line = self._read_reply(timeout if timeout is not None else self.timeout)
        except EngineError:
            raise
        except BaseException:  # Ctrl-C while waiting: the reply would meet the next request
            self.kill()
            raise
        if lines is not None:
            lines.append(line)
        return self._check_reply(message, line, shape=lines is None)

    def _check_unsolicited(self) -> None:
        assert self._stdout is not None
        item = self._stdout.take(0)
        if item is None:
            return
        if item is output.FLOOD:
            raise EngineError(FLOOD, self._flood_detail())
        if item is output.EOF:
            raise self._exit_error("between requests")
        assert isinstance(item, bytes)
        self._second_hello(item)
        raise EngineError(UNSOLICITED, f"engine printed a line nobody asked for: {_clip(item)}")

    def _nothing_after_hello(self) -> None:
        """Raise an EngineError for what the engine printed after its hello reply, as far
        as it has come (a second reply may come later: `_second_hello` reads it then)."""
        assert self._stdout is not None
        item = self._stdout.take(0)
        if item is output.EOF:
            raise self._exit_error("after its hello reply")
        if item is output.FLOOD:
            raise EngineError(FLOOD, self._flood_detail())
        if isinstance(item, bytes):
            self._second_hello(item)
            raise EngineError(
                UNSOLICITED, f"engine printed a line after its hello reply: {_clip(item)}"
            )

    def _second_hello(self, line: bytes) -> None:
        """Raise a `handshake` error if the line is a second reply to the hello."""
        try:
            reply = read_reply(line, shape=False)
        except EngineError:
            return
        seq = reply.get("seq")
        if type(seq) is int and seq == self._hello_seq and "protocol" in reply:
            detail = "the engine answered the hello twice"
            failures, how = self._handshake_failures
            self._handshake_failures = (failures + 1 if how == detail else 1, detail)
            self.hello = {}  # a handshake that failed
            raise EngineError(HANDSHAKE, f"{detail}: {_clip(line)}")

    def _read_reply(self, timeout: float) -> bytes:
        timeout = _seconds(timeout, "timeout")
        assert self._stdout is not None
        item = self._stdout.take(timeout)
        if item is None:
            raise EngineError(TIMEOUT, f"no reply within {timeout:g} s")
        if item is output.EOF:
            raise self._exit_error("instead of replying")
        if item is output.FLOOD:
            raise EngineError(FLOOD, self._flood_detail())
        assert isinstance(item, bytes)
        self.transcript.append(f"< {_clip(item)}")
        if self._proc is not None and self._proc.poll() is not None and not self._stdout.ended(
            AFTER_EXIT
        ):  # the engine has exited and something else still holds its stdout
            raise self._exit_error(
                "before this reply, which came from a process it left behind holding its "
                f"stdout: {_clip(item)}"
            )
        return item

    def _check_reply(
        self, request: dict[str, Any], line: bytes, shape: bool = True
    ) -> dict[str, Any]:
        reply = read_reply(line, shape=shape)
        if reply.get("seq") is None and reply.get("ok") is False and "error" in reply:
            raise EngineError(
                ENGINE_ERROR, f"engine could not read the request: {printable(reply['error'])}"
            )
        seq = reply.get("seq")
        if type(seq) is not int or seq != request["seq"]:  # 1.0 and true are not seq 1
            self._second_hello(line)
            raise EngineError(
                WRONG_SEQ, f"expected seq {request['seq']}, got {json_words(reply.get('seq'))}")
        if request["type"] != "hello":
            self._handshake_failures = (0, "")
        return checked_reply(request["type"], reply, validate=self.validate)

    def _exit_error(self, when: str) -> EngineError:
        code = None
        if self._proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self._proc.wait(timeout=1)
        if self._stderr_reader is not None:
            self._stderr_reader.join(timeout=0.5)  # for the last of its stderr
        detail = ("engine exited" + (f" with status {code}" if code is not None else "")
                  + f" {when}")
        named = self._stderr_lines.exception_line()
        last = next((line.strip() for line in reversed(self._stderr_lines.last(5))
                     if line.strip()), "")
        if named:
            detail += f"; its stderr says: {named}"
        if last and last != named:
            detail += ("; " if named else "; its stderr ") + f"ends: {last}"
        return EngineError(EXITED, detail, stderr=self.stderr_excerpt())

    def _flood_detail(self) -> str:
        return (
            f"engine printed a line longer than {self.max_line_bytes} bytes or more than "
            f"{self.max_pending_lines} unread lines"
        )


def launch_hint(exc: OSError) -> str:
    """The likely cause of an engine that cannot be launched."""
    if isinstance(exc, FileNotFoundError):
        return ("no such file: check the --engine path (it is run without a shell, a "
                "relative path from the current folder; a script is started through its "
                "interpreter, e.g. \"python engine.py\", or its #! line)")
    if isinstance(exc, PermissionError):
        return ("not allowed to run it: make it executable (chmod +x) or start it through "
                "its interpreter, e.g. \"python engine.py\"")
    return "the --engine command cannot be run: try it by hand in a terminal"


# What an interpreter writes on stderr when the script or module it was given is not
# there: CPython and Node
MISSING_SCRIPT = ("can't open file", "No such file or directory", "Cannot find module",
                  "No module named", "MODULE_NOT_FOUND")


def hello_hint(exc: EngineError, timeout: float, stderr: str = "") -> str:
    """The likely cause of a hello that got no good reply, by what went wrong (and, for
    an engine that exited, what its `stderr` says)."""
    if exc.reason == EXITED and any(words in stderr for words in MISSING_SCRIPT):
        return ("the engine exited before answering the hello, and its stderr says a file "
                "or module was not found: check the script's path in --engine (a relative "
                "path is from the current folder)")
    if exc.reason == INVALID_JSON:
        return ("a line on stdout that is not JSON: stdout carries the protocol's replies "
                "alone, one JSON object a line; log to stderr")
    if exc.reason == EXITED:
        return ("the engine exited before answering the hello: its stderr below says why; "
                "try the command by hand in a terminal")
    if exc.reason == TIMEOUT:
        return (f"no reply to the hello within {timeout:g} s: the engine must read one "
                "JSON request a line from stdin and answer each on stdout, flushing the "
                "line (a buffered stdout holds it back); --start-timeout for a slow start")
    if exc.reason == ENGINE_ERROR:
        return ("the engine refused the hello: the first request of every run is a "
                "hello, answered with {\"seq\": 1, \"ok\": true, \"protocol\": 1, ...} "
                "(PROTOCOL.md, \"hello\")")
    if exc.reason == WRONG_SEQ:
        return "a reply must carry the seq of the request it answers"
    if exc.reason == FLOOD:
        return "the engine wrote too much on stdout: log to stderr"
    if exc.reason == SCHEMA:
        return "the hello's reply breaks its schema (conformance/schema/, PROTOCOL.md)"
    return ""


def request_hint(reason: str, request: str) -> str:
    """The likely cause of an engine that answered its hello, then failed `request` (a
    `start`, most often) the same way at each launch, by how it failed (`reason`)."""
    if reason == EXITED:
        return (f"the engine exits when it reads a `{request}` request: an uncaught error "
                f"in its `{request}` handler, most likely; its stderr below says why (to see "
                f"it by hand, start the engine and paste the hello, then the `{request}` "
                "line sent)")
    if reason == INVALID_JSON:
        return (f"a line on stdout that is not JSON where the `{request}` reply was due: "
                "stdout carries the protocol's replies alone, one JSON object a line; log "
                "to stderr")
    if reason == TIMEOUT:
        return (f"no reply to `{request}` in time: the engine must answer each request "
                "with one JSON line on stdout, flushing it (a buffered stdout holds it "
                "back); --timeout for a slow engine")
    if reason == ENGINE_ERROR:
        return (f"the engine answers `{request}` with an error, its message above: "
                f"PROTOCOL.md, \"{request}\", says what the request holds")
    if reason == WRONG_SEQ:
        return "a reply must carry the seq of the request it answers"
    if reason == SCHEMA:
        return (f"the `{request}` reply breaks its schema (PROTOCOL.md, \"{request}\"; "
                "conformance/schema/)")
    if reason in (FLOOD, UNSOLICITED):
        return ("the engine writes on stdout what is no reply: stdout carries the "
                "protocol's replies alone; log to stderr")
    return ""


MAX_REPLY_DEPTH = 32  # the protocol's deepest reply (a result's projects' cards) is 6
_UNREAD = object()  # a reply's value not given: read from its line


def checked_reply(kind: str, reply: Any, *, validate: bool = False) -> dict[str, Any]:
    """A reply to a request of type `kind`, its `seq` matched (or one reply of a batch,
    which has none), checked as the runner reads every reply: an object, its schema (with
    `validate`), no error, a boolean `ok`, a `refused` it can read; raises EngineError."""
    if not isinstance(reply, dict):
        raise EngineError(SCHEMA, f"batch: the {kind} reply is not a JSON object")
    if validate:
        problems = reply_errors(kind, reply if "seq" in reply else {"seq": 0, **reply})
        if problems:
            raise EngineError(SCHEMA, f"{kind} reply breaks its schema: " + "; ".join(problems))
    if reply.get("ok") is False and "error" in reply:
        raise EngineError(ENGINE_ERROR, f"{kind}: {printable(reply.get('error'))}")
    if not isinstance(reply.get("ok"), bool):
        raise EngineError(SCHEMA, f"{kind} reply has no boolean 'ok'")
    refused = reply.get("refused")
    if refused is not None and not (
        isinstance(refused, dict) and isinstance(refused.get("clauses", []), list)
    ):  # what the runner reads of a refusal, whether or not it validates the rest
        raise EngineError(
            SCHEMA, f"{kind} reply's 'refused' is not an object with a 'clauses' list: "
            f"{json_words(refused)}"
        )
    return reply


def read_reply(line: bytes, *, shape: bool = True) -> dict[str, Any]:
    """One reply line read strictly as a JSON object, or an `EngineError` saying why not;
    with `shape=False`, its nesting and lone surrogates are not looked at
    (`reply_shape_error` does)."""
    try:
        # UTF-8 and nothing else (json.loads would take UTF-16 and surrogates in UTF-8's
        # form), a byte order mark allowed; `nests_within` reads the bytes as UTF-8
        text = line.decode("utf-8").removeprefix("\ufeff")
        reply = strict_json(text)
    except UnicodeDecodeError as exc:
        raise EngineError(
            INVALID_JSON, f"reply is not UTF-8 text (byte {exc.start + 1}): {_clip(line)}"
        ) from None
    except ValueError as exc:
        if str(exc).startswith("nested deeper"):
            raise EngineError(
                INVALID_JSON, f"reply nests deeper than JSON can be read: {_clip(line)}"
            ) from None
        raise EngineError(INVALID_JSON, f"reply is not JSON ({exc}): {_clip(line)}") from None
    if not isinstance(reply, dict):
        raise EngineError(INVALID_JSON, f"reply is not a JSON object: {_clip(line)}")
    error = reply_shape_error(line, reply) if shape else None
    if error is not None:
        raise error
    return reply


def reply_shape_error(line: bytes, reply: Any = _UNREAD) -> EngineError | None:
    """What is wrong with a reply line that reads as JSON (`read_reply`, given its value or
    reading it again): nesting deeper than any reply's, or a lone surrogate escape."""
    if not nests_within(line, MAX_REPLY_DEPTH):
        return EngineError(
            SCHEMA, f"reply nests deeper than {MAX_REPLY_DEPTH} levels: {_clip(line)}"
        )
    if _SURROGATE_ESCAPE.search(line):
        value = read_reply(line, shape=False) if reply is _UNREAD else reply
        if _has_lone_surrogate(value):
            return EngineError(
                INVALID_JSON,
                f"reply holds a lone surrogate escape, not Unicode text: {_clip(line)}",
            )
    return None


def nests_within(text: bytes, levels: int) -> bool:
    """Whether the lists and objects of a valid JSON text in UTF-8 nest at most `levels` deep.

    Read from the text, not the parsed value (speed: a batch reply holds thousands of
    nodes): the brackets outside strings, each list and object written `[]`, are emptied
    one level at a time, each pass removing every `[]` (a list or object holding no other).
    """
    brackets = _outside_strings(text)
    for _ in range(levels):
        if not brackets:
            return True
        brackets = brackets.replace(b"[]", b"")
    return not brackets


def _outside_strings(text: bytes) -> bytes:
    """The brackets of a valid JSON text that are not inside a string, in order, `{` and `}`
    written `[` and `]`.

    Most strings hold no bracket and no escape: kept to their quotes, they are pairs of
    quotes, and taking out adjacent pairs of quotes leaves each bracket on its side of
    them. When quotes or backslashes are left, the strings are taken out one by one."""
    kept = text.translate(_SQUARE, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' not in kept and b"\\" not in kept:
        return kept
    return _JSON_STRING.sub(b"", text).translate(_SQUARE, _NOT_BRACKET)


_SQUARE = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"\\')
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


# Only a \uD800-\uDFFF escape can put a surrogate in a text decoded from UTF-8.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _seconds(value: Any, name: str) -> float:
    """A timeout: a number of seconds more than 0 (infinity waits as long as the platform can)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"{name} must be a number of seconds more than 0, not {value!r}")
    return float(value)


def _process_groups() -> bool:
    """POSIX: the engine gets a session of its own, and the session is killed. Chosen at each
    call by what `os` has, so the other branch can be tested by taking `os.killpg` away."""
    return hasattr(os, "killpg")


# Windows' CREATE_NEW_PROCESS_GROUP (the subprocess module defines it only there).
_CREATE_NEW_PROCESS_GROUP = 0x00000200


def _group_options() -> dict[str, Any]:
    """The Popen options that put the engine, and whatever it starts, in a group of its own."""
    if _process_groups():
        return {"start_new_session": True}
    flag = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", _CREATE_NEW_PROCESS_GROUP)
    return {"creationflags": flag}


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the engine and what it started: the process group of its session on POSIX (the
    group outlives its leader while any member lives, and its number is not reused until
    then); on Windows the process tree (`taskkill /T`), then the process itself should
    taskkill be missing or fail."""
    if _process_groups():
        # a group leader reaped: its number may name another process's group only once
        # no process has it and the group is empty, when the kill finds no one
        if proc.poll() is None or not _pid_exists(proc.pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
    elif proc.poll() is None:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                ["taskkill", "/F", "/T", "/PID", str(proc.pid)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=10,
                check=False,
            )
    with contextlib.suppress(ProcessLookupError, OSError):
        proc.kill()


def _pid_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


# ---- the processes an engine left behind (POSIX with /proc) -------------------------------

_PROC = Path("/proc")


def _processes() -> dict[int, tuple[int, int, int, int]]:
    """Every process but this one and the dead: pid -> (parent, group, session, start time),
    read from /proc; empty where there is none."""
    found: dict[int, tuple[int, int, int, int]] = {}
    if not _PROC.is_dir():
        return found
    me = os.getpid()
    for entry in os.scandir(_PROC):
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if fields[0] in (b"Z", b"X"):  # dead, waiting to be reaped: nothing to kill
            continue
        found[int(entry.name)] = (int(fields[1]), int(fields[2]), int(fields[3]),
                                  int(fields[19]))
    return found


def _descendants(root: int, seen: dict[int, int],
                 table: dict[int, tuple[int, int, int, int]] | None = None) -> dict[int, int]:
    """The processes descending from `root` or from a process seen before (pid -> start
    time), by their parents now."""
    table = _processes() if table is None else table
    ancestors = {root} | {pid for pid, began in seen.items()
                          if pid in table and table[pid][3] == began}
    children: dict[int, list[int]] = {}
    for pid, (parent, _group, _session, _began) in table.items():
        children.setdefault(parent, []).append(pid)
    found: dict[int, int] = {}
    stack = list(ancestors)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found and child != root:
                found[child] = table[child][3]
                stack.append(child)
    return found


def _carries(pid: int, token: bytes) -> bool:
    """Whether the process's environment holds the engine launch's own value."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return token in environ.read().split(b"\0")
    except OSError:
        return False  # another user's, or gone


def _sweep(engine: int, token: str, seen: dict[int, int]) -> None:
    """Kill what the engine `engine` (its pid, reaped) left behind: the members of its
    session and process group (unless its number now names another process: then both
    are empty), the descendants `seen` while it ran still with the start time seen, those
    whose environment carries `token`, and their descendants; again until none is left
    (a process may start another as it is killed)."""
    if not _PROC.is_dir():
        return
    marker = f"{RUN_VARIABLE}={token}".encode()
    for _ in range(5):
        table = _processes()
        ours = engine not in table
        left = {pid for pid, (_parent, group, session, began) in table.items()
                if (ours and engine in (group, session)) or seen.get(pid) == began
                or (token and _carries(pid, marker))}
        left |= set(_descendants(engine, {pid: table[pid][3] for pid in left}, table))
        if not left:
            return
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


# ---- every engine of this process, and Ctrl-C ----------------------------------------

_RUNNING: dict[int, EngineProcess] = {}  # id -> every engine launched and not yet killed


def stop_all() -> None:
    """Kill every engine this process launched that is still running (at exit, and where
    a run is interrupted)."""
    for engine in list(_RUNNING.values()):
        with contextlib.suppress(Exception):
            engine.kill()


atexit.register(stop_all)

_INTERRUPTS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Ctrl-C (SIGINT) and SIGTERM wait until the block is done, then act as they would
    have (in the main thread; elsewhere no signal arrives)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous: dict[int, Any] = {}
    try:
        for interrupt in _INTERRUPTS:
            previous[interrupt] = signal.signal(interrupt, lambda n, _f: caught.append(n))
    except ValueError:  # not the main interpreter
        yield
        return
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if caught:
            handler = previous[caught[0]]
            if callable(handler):
                handler(caught[0], None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(caught[0])


# What an engine's text may not carry into a report or a terminal: the C0 and C1 controls
# (escape sequences among them; a tab is kept), line and paragraph separators.
_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def json_words(value: Any, limit: int = 80) -> str:
    """A value an engine sent, as the protocol writes it (`null`, `true`, `false`, `"x"`),
    on one line, cut to `limit` characters."""
    try:
        text = compact_json(value)
    except (TypeError, ValueError):
        text = repr(value)
    return printable(text if len(text) <= limit else text[:limit] + "...")


def printable(value: Any) -> str:
    """An engine's text (stderr, an error reply) on one line, its control characters and
    lone surrogates written as escapes (`\\x1b`), so no report or terminal takes them; a
    value that is not a text is written as JSON (`null`, `true`, not `None`, `True`)."""
    text = value if isinstance(value, str) else json_words(value, 2000)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return _UNPRINTABLE.sub(lambda m: ascii(m.group())[1:-1], text)


def _clip(line: bytes, limit: int = 200) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")
