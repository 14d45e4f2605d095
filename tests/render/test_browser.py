"""The rules document in a real browser: headless Chromium over the DevTools protocol.

Checks that the page loads with no console error, that every state machine is
drawn (an <svg> holding its states, of nonzero size), and that following a
clause link scrolls the clause to the top of the window. Keeps screenshots
under the test's tmp_path. Skipped only when Chromium is missing and CI is
not set (see the `chromium` fixture).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from baloot.backends.document import clause_id_anchor
from baloot.grammar import model as m


def test_document_in_chromium(spec: m.Spec, rendered: Path, browser: Any,
                              tmp_path: Path) -> None:
    page = tmp_path / "rules.html"
    shutil.copy(rendered / "rules.html", page)
    browser.open(page.as_uri())

    assert browser.evaluate("document.readyState") == "complete"
    assert browser.evaluate("document.title").startswith("Baloot")
    browser.screenshot(tmp_path / "top.png")

    # every machine: an <svg> in the DOM, laid out with a nonzero size, with all its states
    for machine in spec.machines:
        drawn = json.loads(browser.evaluate(f"""(() => {{
            const svg = document.getElementById({json.dumps("diagram-" + machine.name)});
            if (!svg) return JSON.stringify(null);
            svg.scrollIntoView();
            const box = svg.getBoundingClientRect();
            const states = [...svg.querySelectorAll("g.state")].map(g => {{
                const r = g.getBoundingClientRect();
                return [g.dataset.state, r.width, r.height];
            }});
            return JSON.stringify({{width: box.width, height: box.height, states,
                                   arrows: svg.querySelectorAll("g.transition").length}});
        }})()"""))
        assert drawn is not None, f"no diagram of machine {machine.name} in the DOM"
        assert drawn["width"] > 50 and drawn["height"] > 50, drawn
        assert sorted(s[0] for s in drawn["states"]) == sorted(s.name for s in machine.states)
        assert all(w > 0 and h > 0 for _, w, h in drawn["states"]), drawn["states"]
        pairs = {(t.source, t.target) for t in machine.transitions}
        assert drawn["arrows"] == len(pairs)
        browser.screenshot(tmp_path / f"machine-{machine.name}.png")
    if not spec.machines:
        assert browser.evaluate("document.querySelectorAll('svg').length") == 0

    # following a link to a clause far down the page brings the clause to the top
    clause = spec.clauses[-1]
    anchor = clause_id_anchor(clause.id)
    browser.evaluate("window.scrollTo(0, 0)")
    assert browser.evaluate("window.scrollY") == 0
    moved = json.loads(browser.evaluate(f"""new Promise(done => {{
        const link = document.querySelector('a[href="#{anchor}"]');
        if (!link) {{ done(JSON.stringify(null)); return; }}
        link.click();
        requestAnimationFrame(() => requestAnimationFrame(() => {{
            const target = document.getElementById("{anchor}");
            done(JSON.stringify({{scrollY: window.scrollY, hash: location.hash,
                                 top: target.getBoundingClientRect().top}}));
        }}));
    }})"""))
    assert moved is not None, f"no link to #{anchor} in the page"
    assert moved["hash"] == f"#{anchor}"
    assert moved["scrollY"] > 0
    assert abs(moved["top"]) < 2, moved
    browser.screenshot(tmp_path / f"{anchor}.png")

    assert browser.console_errors() == []
    for png in tmp_path.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
