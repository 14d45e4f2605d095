"""An engine's stdout as the lines it prints, read one of two ways.

- `PipeLines`, where a pipe can be waited on (`select.poll`, POSIX): read by the thread
  that waits for the reply, so a reply wakes one thread, not a reader thread and then the
  waiting one (a round trip costs about a third less).
- `ThreadLines`, elsewhere (Windows): a reader thread moves each line into a queue.

Both hand out the same items: a line (bytes, with its newline; the last bytes before
the end of the output, without one), `EOF` once the output has ended, or `FLOOD` for a
line longer than `max_line_bytes`. After a flood nothing more is read: the process is
to be killed. The reader thread reads ahead of what is taken, so more than
`max_pending_lines` lines queued is a flood too; `PipeLines` reads only when a line is
asked for, so no more than one read's bytes pile up beyond it.
"""

from __future__ import annotations

import math
import os
import queue
import select
import threading
import time
from typing import IO

EOF = object()
FLOOD = object()

# Whether stdout is read by a thread of its own: where a pipe cannot be polled (Windows).
# (`poll`, not `select`, which fails for a file descriptor past 1023.)
READ_IN_THREAD = not hasattr(select, "poll")

_CHUNK = 1 << 16  # bytes read from the pipe at a time
_MAX_WAIT = 2**31 - 1  # the longest wait poll takes, in milliseconds (about 25 days)


class ThreadLines:
    """The lines a reader thread has queued."""

    def __init__(self, stream: IO[bytes], max_line_bytes: int, max_pending_lines: int) -> None:
        self.max_line_bytes = max_line_bytes
        self.max_pending_lines = max_pending_lines
        self._lines: queue.Queue[object] = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def released(self, timeout: float) -> bool:
        """Whether the stream may be closed: the reader, waited for at most `timeout`
        seconds, has ended (closing a stream under a blocked reader would block too)."""
        self.thread.join(timeout)
        return not self.thread.is_alive()

    def ended(self, wait: float) -> bool:
        """Whether the output has ended (every process holding the pipe closed it or
        exited), waiting at most `wait` seconds for it to."""
        self.thread.join(wait)
        return not self.thread.is_alive()

    def take(self, timeout: float) -> object | None:
        """The next item, waiting at most `timeout` seconds (0: not at all); None if none."""
        try:
            if timeout <= 0:
                return self._lines.get_nowait()
            return self._lines.get(timeout=min(timeout, threading.TIMEOUT_MAX))
        except queue.Empty:
            return None

    def _read(self, stream: IO[bytes]) -> None:
        lines = self._lines
        try:
            while True:
                if lines.qsize() > self.max_pending_lines:
                    lines.put(FLOOD)
                    return
                line = stream.readline(self.max_line_bytes + 1)
                if not line:
                    lines.put(EOF)
                    return
                if len(line) > self.max_line_bytes:
                    lines.put(FLOOD)
                    return
                lines.put(line)
        except (OSError, ValueError):
            lines.put(EOF)


class PipeLines:
    """The lines read from the pipe as they are asked for."""

    def __init__(self, stream: IO[bytes], max_line_bytes: int) -> None:
        self.max_line_bytes = max_line_bytes
        self._fd = stream.fileno()  # read with os.read: the stream's own buffer stays empty
        self._poll = select.poll()
        self._poll.register(self._fd, select.POLLIN)
        self._pending = bytearray()  # read, not yet taken
        self._ended = False
        self._flooded = False

    def released(self, timeout: float) -> bool:
        return True  # no thread blocks on the stream

    def ended(self, wait: float) -> bool:
        """Whether the output has ended (every process holding the pipe closed it or
        exited), waiting at most `wait` seconds for it to; what is read meanwhile is kept."""
        deadline = time.monotonic() + wait
        while not self._ended:
            left = deadline - time.monotonic()
            try:
                ready = self._poll.poll(max(0, math.ceil(1000 * left)))
                chunk = os.read(self._fd, _CHUNK) if ready else None
            except (OSError, ValueError):
                chunk = b""
            if chunk is None:
                return False
            if not chunk:
                self._ended = True
            self._pending += chunk
        return True

    def take(self, timeout: float) -> object | None:
        """The next item, waiting at most `timeout` seconds (0: not at all); None if none."""
        deadline = None if timeout >= threading.TIMEOUT_MAX else time.monotonic() + timeout
        while True:
            item = self._item()
            if item is not None:
                return item
            left = None if deadline is None else deadline - time.monotonic()
            wait = None if left is None else min(math.ceil(1000 * max(0.0, left)), _MAX_WAIT)
            try:
                ready = self._poll.poll(wait)
                chunk = os.read(self._fd, _CHUNK) if ready else None
            except (OSError, ValueError):
                chunk = b""  # the pipe is gone: the output has ended
            if chunk is None:
                if left is not None and wait == _MAX_WAIT:
                    continue  # a timeout longer than poll waits at once
                return None
            if not chunk:
                self._ended = True
            self._pending += chunk

    def _item(self) -> object | None:
        """The item the pending bytes make, as a reader thread would have queued it; None
        while more must be read."""
        if self._flooded:
            return FLOOD
        end = self._pending.find(b"\n")
        if end < 0:
            if len(self._pending) > self.max_line_bytes:
                return self._flood()
            if not self._ended:
                return None
            if not self._pending:
                return EOF
            end = len(self._pending) - 1  # the last bytes, without a newline
        if end + 1 > self.max_line_bytes:
            return self._flood()
        line = bytes(self._pending[: end + 1])
        del self._pending[: end + 1]
        return line

    def _flood(self) -> object:
        self._flooded = True
        self._pending.clear()
        return FLOOD


def lines_of(stream: IO[bytes], max_line_bytes: int, max_pending_lines: int
             ) -> ThreadLines | PipeLines:
    """The stream's lines, read the way this platform allows (`READ_IN_THREAD`)."""
    if READ_IN_THREAD:
        return ThreadLines(stream, max_line_bytes, max_pending_lines)
    return PipeLines(stream, max_line_bytes)
