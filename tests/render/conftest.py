"""Fixtures of the rendering tests, and a tiny client of the Chrome DevTools protocol
over `--remote-debugging-pipe` for the browser test.

No dependency: Chromium reads NUL-terminated JSON messages on its fd 3 and
writes its answers and events on its fd 4. Enough to open a page, evaluate
JavaScript, collect console errors and take a screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baloot.backends.document.document import Options, render
from baloot.grammar import model as m
from baloot.grammar.parser import load_spec

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars",
    "--mute-audio", "--no-default-browser-check",
)


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


class CDPError(RuntimeError):
    pass


class Browser:
    """One headless Chromium, one page, driven over the pipe."""

    def __init__(self, binary: str, width: int = 1200, height: int = 900,
                 timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.events: list[dict[str, Any]] = []
        self._next_id = 0
        self._buffer = b""
        self._profile = tempfile.mkdtemp(prefix="baloot-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def wire() -> None:  # in the child: our pipes become its fds 3 and 4
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [binary, *FLAGS, f"--user-data-dir={self._profile}",
                f"--window-size={width},{height}", "--remote-debugging-pipe", "about:blank"]
        self.log_path = Path(self._profile) / "chromium.log"
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                preexec_fn=wire, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self.session: str | None = None

    # -- the wire ------------------------------------------------------------------

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("Chromium did not answer in time")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if ready:
                chunk = os.read(self._from_child, 1 << 20)
                if not chunk:
                    raise CDPError("Chromium closed the pipe")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: bool = True) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method,
                                   "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float | None = None) -> dict[str, Any]:
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(i)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    # -- the page ------------------------------------------------------------------

    def open(self, url: str) -> None:
        targets = self.send("Target.getTargets", session=False)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": page["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        self.send("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                               "awaitPromise": True})
        if "exceptionDetails" in reply:
            raise CDPError(f"{expression!r} raised {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def screenshot(self, path: Path, full_page: bool = False) -> None:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", params)["data"]
        path.write_bytes(base64.b64decode(data))

    def console_errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries seen so far."""
        errors = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(" ".join(str(a.get("value", a.get("description", "")))
                                       for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                errors.append(str(params.get("exceptionDetails", {}).get("text", "exception")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                errors.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}")
        return errors

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                self.send("Browser.close", session=False)
                self.process.wait(timeout=10)
        except (CDPError, OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(timeout=10)
            for fd in (self._to_child, self._from_child):
                with contextlib.suppress(OSError):
                    os.close(fd)
            shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------- fixtures --


@pytest.fixture(scope="session")
def spec() -> m.Spec:
    return load_spec(coverage=False)


@pytest.fixture(scope="session")
def rendered(spec: m.Spec, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The document of the project's spec, rendered once into a temporary folder
    (z3 results left out: they have a test of their own)."""
    out = tmp_path_factory.mktemp("docs")
    render(spec, out, Options(proofs="none"))
    return out


@pytest.fixture
def chromium() -> str:
    """The Chromium binary; skipped when missing, except in CI where it must be there."""
    binary = find_chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing, and CI is set: the browser test must run in CI "
                        "(apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium); this test "
                    "runs whenever CI is set")
    return binary


@pytest.fixture
def browser(chromium: str) -> Iterator[Browser]:
    """A fresh headless Chromium (fresh profile folder), closed after the test."""
    with Browser(chromium, width=1200, height=900) as b:
        yield b
