"""The search box of the HTML rules document: it finds a clause by its ID, a declaration
by its name, a variant by its A-number or name, a profile, or a conformance case by its
id, and jumps to its anchor, with the matches listed as one types.

It also reads their words: a clause's text and its note on the translations, a
declaration's doc, a variant's doc and its readings (names, texts, sources), a case's
title. A query of several words finds the entries holding every one of them, in any
order; a phrase in double quotes is one word ("must follow suit"). A name's underscores,
dots and dashes count as spaces there (`ashkal_partner` holds "ashkal partner").
Matches come in four groups, each in the document's order: a name equal to the query,
a name starting with it, every word in a name or the shown title, every word anywhere.

The entries are embedded in the page as a JSON blob; a few lines of inline script read
it. There is nothing to fetch, so it works from file://. Without scripts the box stays
hidden (`hidden`, lifted by the script) and the page is a normal page.
"""

from __future__ import annotations

import json
import re

from ...grammar import model as m
from . import anchors as a
from . import blocks as d
from .cases import Pack

TITLE_WIDTH = 70  # characters of a clause's text or a doc shown beside a match


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= TITLE_WIDTH else line[:TITLE_WIDTH - 1].rstrip() + "…"


def words_of(names: tuple[str, ...], *texts: str | None) -> str:
    """What the search reads of an entry beyond its names and title: the names with their
    underscores, dots and dashes as spaces, and the texts, lower case, spaces collapsed."""
    spaced = [re.sub(r"[_.\-]+", " ", n) for n in names]
    words = " ".join([*(n for n, o in zip(spaced, names, strict=True) if n != o),
                      *(t for t in texts if t)])
    return " ".join(words.lower().split())


def search_entries(spec: m.Spec, pack: Pack | None) -> tuple[d.SearchEntry, ...]:
    """Every clause, declaration, profile and case, in the document's order."""
    entries = [d.SearchEntry("clause", (c.id,), a.clause_id_anchor(c.id), _short(c.text),
                             words_of((c.id,), c.text, c.translations))
               for c in spec.clauses]
    for decl in spec.cited():
        if isinstance(decl, m.Variant):
            names = (decl.id, decl.name)
            readings = [f"{r.name} {r.text} {r.source}" for r in decl.readings]
            entries.append(d.SearchEntry("variant", names, a.variant_anchor(decl.id),
                                         _short(decl.doc),
                                         words_of(names, decl.doc, *readings)))
        else:
            entries.append(d.SearchEntry(a.decl_kind(decl), (decl.name,), a.decl_anchor(decl),
                                         _short(decl.doc or ""),
                                         words_of((decl.name,), decl.doc)))
    entries += [d.SearchEntry("profile", (p.name,), a.profile_anchor(p.name), _short(p.doc),
                              words_of((p.name,), p.doc))
                for p in spec.profiles]
    if pack is not None:
        entries += [d.SearchEntry("case", (c.id,), a.case_anchor(c.id), _short(c.title),
                                  words_of((c.id,), c.title))
                    for c in pack.cases]
    return tuple(entries)


def search_json(entries: tuple[d.SearchEntry, ...]) -> str:
    """The entries as JSON that is safe inside a <script> element."""
    data = [{"k": e.kind, "n": list(e.names), "a": e.anchor, "t": e.title, "w": e.text}
            for e in entries]
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


FORM = """<form id="search" class="search" role="search" hidden>
<label for="search-input">Find a clause, rule, variant or case:</label>
<input id="search-input" type="search" autocomplete="off" spellcheck="false"
 placeholder="SCORE.7, A5, ashkal partner, &quot;follow suit&quot;…"
 aria-controls="search-results">
<button type="submit">Go</button>
<ul id="search-results" aria-live="polite"></ul>
</form>"""

# Matches: a name equal to the query first, then names starting with it, then entries
# whose names or title hold every word of the query, then those holding them anywhere
# (`words` splits the query: a "quoted phrase" is one word). Enter (or Go) jumps to the
# first match; the list shows the first SHOWN and says how many there are.
SHOWN = 12
SCRIPT = """(function () {
  var form = document.getElementById("search");
  var input = document.getElementById("search-input");
  var list = document.getElementById("search-results");
  var data = JSON.parse(document.getElementById("search-data").textContent);
  function words(q) {
    var found = [], re = /"([^"]*)"?|(\\S+)/g, m;
    while ((m = re.exec(q)) !== null) {
      var w = (m[1] !== undefined ? m[1] : m[2]).split(/\\s+/).join(" ").trim();
      if (w) found.push(w);
    }
    return found;
  }
  function holds(text, ws) {
    return ws.every(function (w) { return text.indexOf(w) >= 0; });
  }
  function matches(query) {
    var q = query.replace(/[\\u201c\\u201d]/g, '"').trim().toLowerCase().split(/\\s+/)
      .join(" ");
    var ws = words(q), found = [[], [], [], []];
    if (!ws.length) return [];
    data.forEach(function (e) {
      var names = e.n.map(function (n) { return n.toLowerCase(); });
      var shown = names.join(" ") + " " + e.t.toLowerCase();
      if (names.indexOf(q) >= 0) found[0].push(e);
      else if (names.some(function (n) { return n.indexOf(q) === 0; })) found[1].push(e);
      else if (holds(shown, ws)) found[2].push(e);
      else if (holds(shown + " " + e.w, ws)) found[3].push(e);
    });
    return found[0].concat(found[1], found[2], found[3]);
  }
  function jump(anchor) {
    var target = document.getElementById(anchor);
    for (var p = target && target.parentElement; p; p = p.parentElement) {
      if (p.tagName === "DETAILS") p.open = true;
    }
    if (location.hash === "#" + anchor && target) target.scrollIntoView();
    else location.hash = anchor;
  }
  function show() {
    var found = matches(input.value);
    list.textContent = "";
    list.setAttribute("data-count", String(found.length));
    found.slice(0, SHOWN).forEach(function (e) {
      var item = document.createElement("li"), link = document.createElement("a");
      link.href = "#" + e.a;
      link.textContent = e.k + " " + e.n.join(" ");
      item.appendChild(link);
      if (e.t) item.appendChild(document.createTextNode(" " + e.t));
      list.appendChild(item);
    });
    if (found.length > SHOWN || (!found.length && input.value.trim())) {
      var more = document.createElement("li");
      more.className = "search-more";
      more.textContent = found.length ? "… " + found.length + " matches in all, the first "
        + SHOWN + " shown" : "no match";
      list.appendChild(more);
    }
  }
  input.addEventListener("input", show);
  list.addEventListener("click", function (event) {
    var link = event.target.closest("a");
    if (link) { event.preventDefault(); jump(link.getAttribute("href").slice(1)); }
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var found = matches(input.value);
    if (found.length) jump(found[0].a);
  });
  form.hidden = false;
})();"""


def search_form() -> str:
    return FORM


def search_scripts(entries: tuple[d.SearchEntry, ...]) -> list[str]:
    """The lines that end the page's body: the entries, then the script that reads them."""
    return [f'<script type="application/json" id="search-data">{search_json(entries)}</script>',
            f"<script>\n{SCRIPT.replace('SHOWN', str(SHOWN))}\n</script>"]
