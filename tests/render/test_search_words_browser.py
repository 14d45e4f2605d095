"""The rules document's search over words, in headless Chromium: a query of several words
finds the entries holding all of them (a clause's text and translations note, a rule's
doc, a variant's doc and readings, a case's title), a "quoted phrase" only where the
words stand together; the box says how many matched. And at a phone's width (390 px)
the page does not scroll sideways: its tables scroll in their own box.

Skipped only when Chromium is missing and CI is not set (the `chromium` fixture)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baloot.backends.document.search import search_entries, words_of
from baloot.grammar import model as m

from .conftest import Browser

PHONE = 390


def page_entries(page: Path) -> list[dict[str, Any]]:
    text = page.read_text(encoding="utf-8")
    start = text.index('<script type="application/json" id="search-data">')
    entries: list[dict[str, Any]] = json.loads(
        text[text.index(">", start) + 1:text.index("</script>", start)])
    return entries


def query_words(query: str) -> list[str]:
    """The query's words as the page splits them: a "quoted phrase" is one."""
    found = []
    for quoted, bare in re.findall(r'"([^"]*)"?|(\S+)', query.lower()):
        word = " ".join((quoted or bare).split())
        if word:
            found.append(word)
    return found


def expected(entries: list[dict[str, Any]], query: str) -> list[str]:
    """Every anchor the box finds for `query`, in its order (the page's four groups)."""
    q = " ".join(query.lower().split())
    words = query_words(q)
    groups: list[list[str]] = [[], [], [], []]
    for e in entries:
        names = [n.lower() for n in e["n"]]
        shown = " ".join(names) + " " + e["t"].lower()
        if q in names:
            groups[0].append(e["a"])
        elif any(n.startswith(q) for n in names):
            groups[1].append(e["a"])
        elif all(w in shown for w in words):
            groups[2].append(e["a"])
        elif all(w in shown + " " + e["w"] for w in words):
            groups[3].append(e["a"])
    return ["#" + a for group in groups for a in group]


def test_words_of_spaces_the_names_and_folds_case() -> None:
    assert words_of(("ashkal_partner", "A14"), "The  Caller's\nPARTNER") == (
        "ashkal partner the caller's partner")


def test_every_clause_variant_and_rule_is_searched_by_its_words(spec: m.Spec) -> None:
    entries = {e.anchor: e for e in search_entries(spec, None)}
    bid6 = next(e for e in entries.values() if e.names == ("BID.6",))
    assert "partner" in bid6.text and "ashkal" in bid6.text  # the clause's whole text
    variant = spec.variants[0]
    found = next(e for e in entries.values() if e.kind == "variant" and variant.id in e.names)
    for reading in variant.readings:
        assert " ".join(reading.text.lower().split()) in found.text


@pytest.fixture
def phone(chromium: str) -> Iterator[Browser]:
    with Browser(chromium, width=PHONE, height=844) as browser:
        yield browser


def _search(browser: Any, text: str) -> dict[str, Any]:
    browser.evaluate("""(() => { const i = document.getElementById('search-input');
        i.value = ''; i.focus(); })()""")
    browser.send("Input.insertText", {"text": text})
    found: dict[str, Any] = json.loads(browser.evaluate("""JSON.stringify({
        count: Number(document.getElementById('search-results').dataset.count),
        listed: [...document.querySelectorAll('#search-results a')]
            .map(a => a.getAttribute('href')),
        more: (document.querySelector('#search-results li.search-more') || {}).textContent
            || null})"""))
    return found


def test_several_words_and_phrases_in_chromium_on_a_phone(
        rendered: Path, phone: Any, tmp_path: Path) -> None:
    page = tmp_path / "rules.html"
    shutil.copy(rendered / "rules.html", page)
    entries = page_entries(page)
    phone.open("about:blank")
    phone.send("Emulation.setDeviceMetricsOverride",
               {"width": PHONE, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    phone.send("Page.navigate", {"url": page.as_uri()})
    phone.wait_for("Page.loadEventFired")

    widths = json.loads(phone.evaluate("""JSON.stringify({inner: innerWidth,
        page: document.documentElement.scrollWidth, body: document.body.scrollWidth,
        tables: [...document.querySelectorAll("main table")].map(t => [t.clientWidth,
                                                                      t.scrollWidth])})"""))
    assert widths["inner"] == PHONE and widths["page"] <= PHONE, widths
    assert all(shown <= PHONE for shown, _ in widths["tables"])
    assert any(whole > shown for shown, whole in widths["tables"])  # some scroll in place

    counts = {}
    for query in ("ashkal partner", "must follow suit", '"follow suit"', "partner ashkal",
                  "Ashkal   PARTNER", '"must follow suit"', "zzz qqq"):
        found = _search(phone, query)
        every = expected(entries, query)
        assert found["count"] == len(every), (query, found)
        assert found["listed"] == every[:12], (query, found)
        counts[query] = found["count"]
        if len(every) > 12:
            assert found["more"] and str(len(every)) in found["more"]
    assert counts["ashkal partner"] == counts["partner ashkal"] == counts["Ashkal   PARTNER"]
    assert counts["ashkal partner"] >= 5 and counts["must follow suit"] >= 3
    phrase, loose = expected(entries, '"follow suit"'), expected(entries, "suit follow")
    assert 0 < counts['"follow suit"'] == len(phrase) and set(phrase) < set(loose)
    assert counts["zzz qqq"] == 0
    ashkal = expected(entries, "ashkal partner")
    assert "#clause-BID-6" in ashkal, ashkal  # the clause's text, not only its title
    assert "#clause-PLAY-2" in expected(entries, "must follow suit")
    assert "#variant-A15" in expected(entries, '"follow suit"')
    phone.screenshot(tmp_path / "phone-search.png")
    assert phone.console_errors() == []
