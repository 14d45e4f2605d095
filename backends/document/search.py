"""The search box of the HTML rules document: it finds a clause by its ID, a declaration
by its name, a variant by its A-number or name, a profile, or a conformance case by its
id, and jumps to its anchor, with the matches listed as one types.

The entries are embedded in the page as a JSON blob; a few lines of inline script read
it. There is nothing to fetch, so it works from file://. Without scripts the box stays
hidden (`hidden`, lifted by the script) and the page is a normal page.
"""

from __future__ import annotations

import json

from ...grammar import model as m
from . import anchors as a
from . import blocks as d
from .cases import Pack

TITLE_WIDTH = 70  # characters of a clause's text or a doc shown beside a match


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= TITLE_WIDTH else line[:TITLE_WIDTH - 1].rstrip() + "…"


def search_entries(spec: m.Spec, pack: Pack | None) -> tuple[d.SearchEntry, ...]:
    """Every clause, declaration, profile and case, in the document's order."""
    entries = [d.SearchEntry("clause", (c.id,), a.clause_id_anchor(c.id), _short(c.text))
               for c in spec.clauses]
    for decl in spec.cited():
        if isinstance(decl, m.Variant):
            entries.append(d.SearchEntry("variant", (decl.id, decl.name),
                                         a.variant_anchor(decl.id), _short(decl.doc)))
        else:
            entries.append(d.SearchEntry(a.decl_kind(decl), (decl.name,), a.decl_anchor(decl),
                                         _short(decl.doc or "")))
    entries += [d.SearchEntry("profile", (p.name,), a.profile_anchor(p.name), _short(p.doc))
                for p in spec.profiles]
    if pack is not None:
        entries += [d.SearchEntry("case", (c.id,), a.case_anchor(c.id), _short(c.title))
                    for c in pack.cases]
    return tuple(entries)


def search_json(entries: tuple[d.SearchEntry, ...]) -> str:
    """The entries as JSON that is safe inside a <script> element."""
    data = [{"k": e.kind, "n": list(e.names), "a": e.anchor, "t": e.title} for e in entries]
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


FORM = """<form id="search" class="search" role="search" hidden>
<label for="search-input">Find a clause, rule, variant or case:</label>
<input id="search-input" type="search" autocomplete="off" spellcheck="false"
 placeholder="SCORE.7, card_value, A5, bid.legal…" aria-controls="search-results">
<button type="submit">Go</button>
<ul id="search-results" aria-live="polite"></ul>
</form>"""

# Matches: a name equal to the query first, then names starting with it, then any name or
# title containing it. Enter (or Go) jumps to the first match.
SCRIPT = """(function () {
  var form = document.getElementById("search");
  var input = document.getElementById("search-input");
  var list = document.getElementById("search-results");
  var data = JSON.parse(document.getElementById("search-data").textContent);
  function matches(query) {
    var q = query.trim().toLowerCase(), found = [[], [], []];
    if (!q) return [];
    data.forEach(function (e) {
      var names = e.n.map(function (n) { return n.toLowerCase(); });
      if (names.indexOf(q) >= 0) found[0].push(e);
      else if (names.some(function (n) { return n.indexOf(q) === 0; })) found[1].push(e);
      else if ((names.join(" ") + " " + e.t.toLowerCase()).indexOf(q) >= 0) found[2].push(e);
    });
    return found[0].concat(found[1], found[2]);
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
    list.textContent = "";
    matches(input.value).slice(0, 12).forEach(function (e) {
      var item = document.createElement("li"), link = document.createElement("a");
      link.href = "#" + e.a;
      link.textContent = e.k + " " + e.n.join(" ");
      item.appendChild(link);
      if (e.t) item.appendChild(document.createTextNode(" " + e.t));
      list.appendChild(item);
    });
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
            f"<script>\n{SCRIPT}\n</script>"]
