"""The rules document: every clause, variant and declaration of the spec has its anchor,
links resolve, the HTML is self-contained and escaped, and the output is deterministic."""

from __future__ import annotations

import importlib.util
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from baloot.grammar import model as m
from baloot.grammar.parser import assemble, parse_text
from baloot.grammar.render import clause_anchor, clause_id_anchor
from baloot.grammar.render.anchors import decl_anchor, profile_anchor, variant_anchor
from baloot.grammar.render.document import Options, build_document, render
from baloot.grammar.render.extras import witness_blocks
from baloot.grammar.render.freshness import stale_files
from baloot.grammar.render.html import render_html
from baloot.grammar.render.markdown import render_markdown


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        for key, value in attrs:
            if key == "id" and value:
                self.ids.append(value)
            if key == "href" and value:
                self.hrefs.append(value)


def _parse(path: Path) -> _Ids:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_clause_anchor() -> None:
    assert clause_anchor("SCORE.7") == "docs/rules.html#clause-SCORE-7"
    assert clause_id_anchor("SETUP.1") == "clause-SETUP-1"


def test_every_clause_variant_and_declaration_has_its_anchor(spec: m.Spec,
                                                             rendered: Path) -> None:
    html = _parse(rendered / "rules.html")
    ids = set(html.ids)
    duplicates = sorted({i for i in html.ids if html.ids.count(i) > 1})
    assert duplicates == []
    md_ids = set(re.findall(r'<a id="([^"]+)"></a>', (rendered / "rules.md").read_text()))

    wanted = [clause_id_anchor(c.id) for c in spec.clauses]
    wanted += [variant_anchor(v.id) for v in spec.variants]
    wanted += [f"rule-{r.name}" for r in spec.rules]
    wanted += [decl_anchor(x) for x in spec.cited()]
    wanted += [profile_anchor(p.name) for p in spec.profiles]
    assert [w for w in wanted if w not in ids] == []
    assert [w for w in wanted if w not in md_ids] == []

    text = (rendered / "rules.html").read_text(encoding="utf-8")
    for clause in spec.clauses:  # the clause's own words stand under its anchor
        first = clause.text[:60].replace("&", "&amp;").replace("'", "&#x27;") \
            .replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
        assert first in text, clause.id
    for variant in spec.variants:
        for reading in variant.readings:
            assert f"<code>{reading.name}</code>" in text


def test_every_link_inside_the_document_resolves(rendered: Path) -> None:
    html = _parse(rendered / "rules.html")
    ids = set(html.ids)
    local = [h[1:] for h in html.hrefs if h.startswith("#")]
    assert local, "the document links to its own anchors"
    assert sorted({h for h in local if h not in ids}) == []
    for href in html.hrefs:  # the rest are files of the project, relative links
        assert href.startswith("#") or not re.match(r"^[a-z]+:", href), href


def test_html_is_self_contained(rendered: Path) -> None:
    text = (rendered / "rules.html").read_text(encoding="utf-8")
    html = _parse(rendered / "rules.html")
    assert {"script", "link", "iframe", "img", "object", "embed"}.isdisjoint(html.tags)
    assert "@import" not in text and "@font-face" not in text
    assert re.findall(r"https?://[^\s\"'<]+", text) == ["http://www.w3.org/2000/svg"] * \
        text.count('xmlns="http://www.w3.org/2000/svg"')
    assert all(u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", text))
    assert "<style>" in text and text.startswith("<!DOCTYPE html>")


def test_sections_are_there(spec: m.Spec, rendered: Path) -> None:
    ids = set(_parse(rendered / "rules.html").ids)
    for section in ("clauses", "cards", "machines", "raises", "scoring", "variants", "proofs",
                    "index"):
        assert section in ids
    for machine in spec.machines:
        assert f"diagram-{machine.name}" in ids
        assert f"machine-{machine.name}" in ids
    md = (rendered / "rules.md").read_text(encoding="utf-8")
    assert md.count("```mermaid") == len(spec.machines)


def test_card_tables_come_from_the_spec(spec: m.Spec, rendered: Path) -> None:
    text = (rendered / "rules.html").read_text(encoding="utf-8")
    cards = text[text.index('id="cards"'):text.index('id="machines"')]
    for table in spec.tables:
        if any(c.clause in ("SCORE.3", "SCORE.4") for c in table.cites):
            assert f'href="#table-{table.name}"' in cards
            assert f">{sum(table.as_dict().values())}<" in cards  # one suit's total


@pytest.mark.skipif(importlib.util.find_spec("baloot.reference_impl.entry_points") is None,
                    reason="the reference engine is not generated")
def test_worked_examples_are_played_by_the_engine(rendered: Path) -> None:
    text = (rendered / "rules.html").read_text(encoding="utf-8")
    scoring = text[text.index('id="scoring"'):text.index('id="variants"')]
    for contract in ("sun", "hokum"):
        assert f'id="example-{contract}-round"' in scoring
    assert "card_bunts" in scoring and "could not play" not in scoring


def test_checked_in_document_is_up_to_date(spec: m.Spec) -> None:
    """docs/rules.* is what the spec renders now (z3 results aside: see the proofs tests)."""
    stale = stale_files(spec)
    assert not stale, "\n".join(s.render() for s in stale) + "\nrun `baloot spec render`"


def test_a_stale_document_is_reported_by_file_and_line(spec: m.Spec, tmp_path: Path) -> None:
    render(spec, tmp_path, Options(proofs="none"))
    assert stale_files(spec, tmp_path) == []
    md = tmp_path / "rules.md"
    lines = md.read_text(encoding="utf-8").splitlines(keepends=True)
    proofs_at = lines.index('<a id="proofs"></a>\n')
    lines[proofs_at + 4] = "a z3 result written by another z3 version\n"
    md.write_text("".join(lines), encoding="utf-8")
    assert stale_files(spec, tmp_path) == []  # the z3 results are not compared here
    original, lines[2] = lines[2], "an edit by hand\n"
    lines.insert(proofs_at + 6, "one more z3 line\n")  # later lines shift by one
    index_at = lines.index('<a id="index"></a>\n')
    lines[index_at + 2] = "## Index, edited\n"
    md.write_text("".join(lines), encoding="utf-8")
    (tmp_path / "rules.html").unlink()
    stale = {s.path.name: s for s in stale_files(spec, tmp_path)}
    assert stale["rules.html"].line == 0 and stale["rules.html"].render().endswith("missing")
    assert (stale["rules.md"].line, stale["rules.md"].found) == (3, "an edit by hand")
    lines[2] = original
    md.write_text("".join(lines), encoding="utf-8")
    stale_md = stale_files(spec, tmp_path)[1]
    assert (stale_md.line, stale_md.found) == (index_at + 3, "## Index, edited")
    assert stale_md.expected == "## Index of declarations"


def test_render_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from baloot.conformance.cli import main

    assert main(["spec", "render", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out
    assert main(["spec", "render", "--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'rules.html'}: missing" in err
    assert f"baloot spec render --out {tmp_path}" in err


def test_rendering_is_deterministic(spec: m.Spec, rendered: Path, tmp_path: Path) -> None:
    render(spec, tmp_path, Options(proofs="none"))
    for name in ("rules.html", "rules.md"):
        assert (tmp_path / name).read_bytes() == (rendered / name).read_bytes()


TINY = """
clause SETUP.1 "Four <b>players</b> & two \\"teams\\"."
clause SCORE.1 "Scores | come from `cards`."
const players [SETUP.1] "Players <script>alert(1)</script>." = 4
rule teams [SETUP.1, SCORE.1] "Two teams & more." () -> int { return players // 2 }
variant A1 tiny [SETUP.1] "A <tiny> variant." {
  reading one "One & only." source "the <page>"
  reading two "Two." source "elsewhere"
  default one
}
profile literal "The page." { tiny = one }
"""


def test_tiny_spec_is_escaped_in_both_formats(tmp_path: Path) -> None:
    spec = assemble(parse_text(TINY, "tiny.baloot"), [("tiny.baloot", TINY)])
    document = build_document(spec, tmp_path, Options(examples=False, proofs="none"),
                              root=tmp_path)
    html = render_html(document)
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Four &lt;b&gt;players&lt;/b&gt; &amp; two &quot;teams&quot;." in html
    assert 'id="clause-SETUP-1"' in html and 'id="rule-teams"' in html
    assert 'id="variant-A1"' in html and 'id="const-players"' in html
    assert "No declaration of the spec formalises" not in html
    assert "The spec declares no state machine yet." in html
    md = render_markdown(document)
    assert "Four \\<b\\>players\\</b\\> &amp; two \"teams\"." in md
    assert "Scores \\| come from `cards`." in md
    assert '<a id="clause-SCORE-1"></a>' in md


def test_proof_results_from_a_file(tmp_path: Path) -> None:
    spec = assemble(parse_text(TINY, "tiny.baloot"), [("tiny.baloot", TINY)])
    results = tmp_path / "proofs.json"
    results.write_text(json.dumps([
        {"check": "deck-bunts", "title": "card bunts total 152 in hokum", "contract": "hokum S",
         "readings": "any", "status": "proven", "method": "z3", "seconds": 0.25,
         "detail": "152", "counterexample": {}},
    ]), encoding="utf-8")
    html = render_html(build_document(spec, tmp_path, Options(examples=False,
                                                              proofs=str(results)),
                                      root=tmp_path))
    proofs = html[html.index('id="proofs"'):]
    assert "deck-bunts" in proofs and "<strong>proven</strong>" in proofs
    assert "0.25" not in proofs  # times are left out: the document is deterministic
    none = render_html(build_document(spec, tmp_path, Options(examples=False, proofs="none"),
                                      root=tmp_path))
    assert "baloot verify" in none[none.index('id="proofs"'):]


def test_witnesses_are_linked_when_present(tmp_path: Path) -> None:
    spec = assemble(parse_text(TINY, "tiny.baloot"), [("tiny.baloot", TINY)])
    root = tmp_path / "project"
    (root / "conformance/cases/variants").mkdir(parents=True)
    (root / "conformance/ambiguities.md").write_text(
        "# Ambiguities\n\n## A1 tiny\n\nWitness: seat 0 holds <AS>.\n\n## A2 other\n\nno.\n")
    (root / "conformance/cases/variants/a1.json").write_text(json.dumps({"cases": [
        {"id": "a1-one-vs-two", "title": "one differs from two", "requires": {"tiny": "two"}},
    ]}))
    out = root / "docs"
    per, head = witness_blocks(spec, root, out)
    document = build_document(spec, out, Options(examples=False, proofs="none"), root=root)
    html = render_html(document)
    variant = html[html.index('id="variant-A1"'):html.index('id="profiles"')]
    assert "Witness: seat 0 holds &lt;AS&gt;." in variant
    assert 'href="../conformance/cases/variants/a1.json"' in variant
    assert "a1-one-vs-two" in variant and "tiny = two" in variant
    assert set(per) == {"A1"} and head
