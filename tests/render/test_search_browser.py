"""The rules document's search box in headless Chromium: typing a case id lists the case
and Enter jumps to its row in the index of cases; a variant's name finds the variant; a
clause's folded list of cases opens onto links that land on the cases; and with scripts
off the box stays hidden while the page and its anchors work as before. Skipped only when
Chromium is missing and CI is not set (see the `chromium` fixture)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from baloot.grammar import model as m

ROOT = Path(__file__).resolve().parents[2]


def _middle_case() -> str:
    """The id of the middle case of the pack, read from its JSON: its row is far down the
    page (the index of cases ends the document), with enough rows below it to scroll it to
    the top of the window."""
    folder = ROOT / "conformance" / "cases"
    files = sorted(p for p in folder.rglob("*.json")
                   if not (p.parent == folder and p.name in ("pack.json", "spec-register.json")))
    ids = [c["id"] for p in files for c in json.loads(p.read_text(encoding="utf-8"))["cases"]]
    case_id: str = ids[len(ids) // 2]
    return case_id


def _settle(browser: Any, expression: str) -> Any:
    """`expression`'s value after two animation frames (the scroll has happened)."""
    return json.loads(browser.evaluate(f"""new Promise(done => requestAnimationFrame(() =>
        requestAnimationFrame(() => done(JSON.stringify({expression})))))"""))


def _type(browser: Any, text: str) -> None:
    browser.evaluate("document.getElementById('search-input').focus()")
    browser.send("Input.insertText", {"text": text})


def _expected(page: Path, query: str) -> list[str]:
    """The anchors the box should list for `query` (one word), worked out here from the
    page's data: entries with a name equal to it, then a name starting with it, then any
    name or title containing it, then any of its words (case aside), each group in the
    page's order; the first 12. (Queries of several words: test_search_words_browser.py.)"""
    text = page.read_text(encoding="utf-8")
    start = text.index('<script type="application/json" id="search-data">')
    blob = text[text.index(">", start) + 1:text.index("</script>", start)]
    q = query.lower()
    groups: list[list[str]] = [[], [], [], []]
    for entry in json.loads(blob):
        names = [n.lower() for n in entry["n"]]
        shown = " ".join(names) + " " + entry["t"].lower()
        if q in names:
            groups[0].append(entry["a"])
        elif any(n.startswith(q) for n in names):
            groups[1].append(entry["a"])
        elif q in shown:
            groups[2].append(entry["a"])
        elif q in shown + " " + entry["w"]:
            groups[3].append(entry["a"])
    return ["#" + x for x in (*groups[0], *groups[1], *groups[2], *groups[3])][:12]


LISTED = """[...document.querySelectorAll("#search-results a")].map(a => a.getAttribute("href"))"""


def _enter(browser: Any) -> None:
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", {
            "type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
            **({"text": "\r"} if kind == "keyDown" else {})})


def test_search_box_finds_a_case_and_jumps_to_it(spec: m.Spec, rendered: Path, browser: Any,
                                                 tmp_path: Path) -> None:
    page = tmp_path / "rules.html"
    shutil.copy(rendered / "rules.html", page)
    browser.open(page.as_uri())
    shown = browser.evaluate("""(() => { const f = document.getElementById("search");
        const r = f.getBoundingClientRect(); return !f.hidden && r.width > 0 && r.height > 0;
    })()""")
    assert shown is True, "the script shows the search box"

    case_id = _middle_case()
    family = case_id.split(".")[0]  # shared by other cases, and in words of the page
    _type(browser, family)
    assert browser.evaluate(LISTED) == _expected(page, family)
    browser.evaluate("document.getElementById('search-input').value = ''")
    _type(browser, case_id)
    listed = browser.evaluate(LISTED)
    assert listed[:1] == [f"#case-{case_id}"] and listed == _expected(page, case_id), listed
    browser.screenshot(tmp_path / "typed.png")
    assert browser.evaluate("window.scrollY") == 0
    _enter(browser)
    landed = _settle(browser, f"""{{hash: location.hash, scrollY: window.scrollY,
        top: document.getElementById({json.dumps("case-" + case_id)})
             .getBoundingClientRect().top}}""")
    assert landed["hash"] == f"#case-{case_id}"
    assert landed["scrollY"] > 1000 and abs(landed["top"]) < 2, landed
    browser.screenshot(tmp_path / "case.png")

    # a variant by its name: the list offers it, and clicking it lands on the variant (one
    # whose name no rule shares: A28's `kawesh` is a rule's name too, listed first)
    rules = {r.name for r in spec.rules}
    variant = [v for v in spec.variants if v.name not in rules][-1]
    browser.evaluate("window.scrollTo(0, 0); document.getElementById('search-input').value = ''")
    _type(browser, variant.name)
    listed = browser.evaluate(LISTED)
    assert listed[:1] == [f"#variant-{variant.id}"] and listed == _expected(page, variant.name)
    browser.evaluate("document.querySelector('#search-results a').click()")
    landed = _settle(browser, f"""{{hash: location.hash, top: document.getElementById(
        "variant-{variant.id}").getBoundingClientRect().top}}""")
    assert landed["hash"] == f"#variant-{variant.id}" and abs(landed["top"]) < 2, landed

    # a clause's folded list: opened, its first case link lands on the case's row
    opened = _settle(browser, """(() => {
        const folded = document.querySelector(".clause .cases details");
        folded.open = true;
        const link = folded.querySelector("a[href^='#case-']");
        link.click();
        return link.getAttribute("href"); })()""")
    row = _settle(browser, f"""{{hash: location.hash, top: document.getElementById(
        {json.dumps(opened[1:])}).getBoundingClientRect().top}}""")
    assert row["hash"] == opened and abs(row["top"]) < 2, row
    assert browser.console_errors() == []


def test_without_scripts_the_box_is_hidden_and_the_page_still_works(
        rendered: Path, browser: Any, tmp_path: Path) -> None:
    page = tmp_path / "rules.html"
    shutil.copy(rendered / "rules.html", page)
    case_id = _middle_case()
    browser.open("about:blank")
    browser.send("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.send("Page.navigate", {"url": f"{page.as_uri()}#case-{case_id}"})
    browser.wait_for("Page.loadEventFired")
    # the page's own script did not run (the evaluations below are the test's, not the page's)
    seen = json.loads(browser.evaluate(f"""JSON.stringify({{
        hidden: document.getElementById("search").hidden,
        display: getComputedStyle(document.getElementById("search")).display,
        height: document.getElementById("search").getBoundingClientRect().height,
        results: document.getElementById("search-results").children.length,
        scrollY: window.scrollY,
        top: document.getElementById({json.dumps("case-" + case_id)})
             .getBoundingClientRect().top}})"""))
    assert seen["hidden"] is True and seen["display"] == "none" and seen["height"] == 0, seen
    assert seen["results"] == 0
    assert seen["scrollY"] > 1000 and abs(seen["top"]) < 2, seen  # the anchor still lands
