"""`baloot fuzz` stopped by SIGINT or SIGTERM at random moments from its engine's launch
(the handshake, the games, the shrinking; with one job and with two): each run that
was still going ends with the tally so far, exit 130, no traceback, every case file
written readable, and no engine process left (found by a marker only this run's engines
carry in their command line)."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

WRAPPED = Path(__file__).with_name("wrapped_engine.py")
RUNS = 20
AT_ONCE = 4

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="POSIX with /proc")


def live_processes_with(marker: str) -> list[int]:
    """The engine processes, not dead, whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            if argv[1:2] != [str(WRAPPED).encode()] or marker.encode() not in b" ".join(argv):
                continue
            state = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in (b"Z", b"X"):
            found.append(int(entry.name))
    return found


def test_fuzz_stops_cleanly_whenever_it_is_signalled(tmp_path: Path) -> None:
    rng = random.Random(31)
    began = time.monotonic()
    plans = []
    for run in range(RUNS):
        marker = f"interrupt-{uuid.uuid4().hex}"
        hello = json.dumps({"name": marker})
        engine = f"{sys.executable} {WRAPPED} --bug revoke_accepted --hello '{hello}'"
        shrinking = run % 3 == 0  # few games: the signal comes as the groups are shrunk
        argv = [sys.executable, "-m", "baloot.cli.main", "fuzz", "--engine", engine,
                "--seed", str(run), "--rounds", "4" if shrinking else "600",
                "--shrink-seconds", "5", "--out", str(tmp_path / f"out{run}"),
                "--jobs", "2" if run % 8 == 5 else "1"]
        number = signal.SIGINT if run % 2 else signal.SIGTERM
        plans.append((argv, marker, number, rng.uniform(0.0, 2.0), run))
    sent = clean = finished_first = 0
    problems: list[str] = []

    def signal_later(proc: subprocess.Popen[bytes], marker: str, number: int,
                     delay: float) -> None:
        """Once the run's first engine is launched, wait `delay` seconds and signal."""
        nonlocal sent
        deadline = time.monotonic() + 30
        while not live_processes_with(marker) and proc.poll() is None:
            if time.monotonic() > deadline:
                return
            time.sleep(0.02)
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(number)
            sent += 1

    for at in range(0, RUNS, AT_ONCE):
        started = []
        for argv, marker, number, delay, run in plans[at : at + AT_ONCE]:
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            thread = threading.Thread(target=signal_later, args=(proc, marker, number, delay))
            thread.start()
            started.append((proc, marker, number, thread, run))
        for proc, marker, number, thread, run in started:
            _out, err = proc.communicate(timeout=60)
            thread.join()
            text = err.decode()
            done = "no disagreement" in text or "new\n" in text  # the report's last line
            if proc.returncode in (0, 1) and "interrupted" not in text:
                finished_first += 1  # done before the signal came
            elif proc.returncode in (-signal.SIGINT, -signal.SIGTERM) and done:
                finished_first += 1  # done: the signal came as the interpreter exited
            elif proc.returncode == 130 and "played " in text and "interrupted after" in text:
                clean += 1
            else:
                problems.append(f"run {run} ({signal.Signals(number).name}): exit "
                                f"{proc.returncode}\n{text[-1500:]}")
            if "Traceback" in text:
                problems.append(f"run {run}: a traceback\n{text[-1500:]}")
            for case_file in (tmp_path / f"out{run}").glob("*.json"):
                json.loads(case_file.read_text())  # each written whole
            time.sleep(0.1)
            left = live_processes_with(marker)
            if left:
                problems.append(f"run {run}: engine processes left: {left}")
    seconds = time.monotonic() - began
    print(f"{sent} signals sent, {clean} clean exits with the tally (130), "
          f"{finished_first} runs done before their signal, in {seconds:.1f} s")
    assert not problems, "\n\n".join(problems)
    assert clean + finished_first == RUNS  # a signal sent as a run exits finds it done
    assert clean >= RUNS * 2 // 3
