"""The rules document: every clause, variant and declaration of the spec has its anchor,
links resolve, the HTML is self-contained and escaped, and the output is deterministic."""

from __future__ import annotations

import copy
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from baloot.backends.document import clause_anchor, clause_id_anchor
from baloot.backends.document.anchors import decl_anchor, profile_anchor, variant_anchor
from baloot.backends.document.document import Options, build_document, render
from baloot.backends.document.extras import INVARIANTS, WITNESSES, witness_blocks
from baloot.backends.document.freshness import stale_files
from baloot.backends.document.html import render_html
from baloot.backends.document.markdown import render_markdown
from baloot.backends.document.scoring import EXAMPLES
from baloot.backends.document.stored import StoredFileError
from baloot.grammar import model as m
from baloot.grammar.parser import assemble, parse_text


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.tags: set[str] = set()
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag == "script":
            self.scripts.append(dict(attrs))
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
    assert {"link", "iframe", "img", "object", "embed"}.isdisjoint(html.tags)
    # the only scripts are the search box's, inline: its data, then the code that reads it
    assert html.scripts == [{"type": "application/json", "id": "search-data"}, {}]
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


def test_worked_examples_are_those_stored(rendered: Path) -> None:
    """The examples shown are those of docs/worked-examples.json, figure for figure."""
    text = (rendered / "rules.html").read_text(encoding="utf-8")
    scoring = text[text.index('id="scoring"'):text.index('id="variants"')]
    stored = json.loads((Path(__file__).parents[2] / EXAMPLES).read_text(encoding="utf-8"))
    assert stored["contracts"] == ["sun", "hokum"]
    for example in stored["examples"]:
        box = scoring[scoring.index(f'id="example-{example["contract"]}-round"'):]
        assert " ".join(example["deck"]) in box
        a, b = example["result"]["card_bunts"]
        assert f'card_bunts</code></td><td class="num">{a}</td><td class="num">{b}</td>' in box
    assert "card_bunts" in scoring and "No worked examples" not in scoring


def test_checked_in_document_is_up_to_date(spec: m.Spec) -> None:
    """docs/rules.* is what the spec and the stored results render now."""
    stale = stale_files(spec)
    assert not stale, "\n".join(s.render() for s in stale) + "\nrun `baloot spec render`"


def test_a_stale_document_is_reported_by_file_and_line(spec: m.Spec, tmp_path: Path) -> None:
    render(spec, tmp_path)
    assert stale_files(spec, tmp_path) == []
    md = tmp_path / "rules.md"
    lines = md.read_text(encoding="utf-8").splitlines(keepends=True)
    proofs_at = lines.index('<a id="proofs"></a>\n')
    proof_line = lines[proofs_at + 4]
    lines[proofs_at + 4] = "a z3 result edited by hand\n"
    md.write_text("".join(lines), encoding="utf-8")
    stale = stale_files(spec, tmp_path)  # the z3 results are compared like the rest
    assert [(s.path.name, s.line, s.found) for s in stale] == [
        ("rules.md", proofs_at + 5, "a z3 result edited by hand")]
    lines[proofs_at + 4] = proof_line
    original, lines[2] = lines[2], "an edit by hand\n"
    index_at = lines.index('<a id="index"></a>\n')
    lines[index_at + 2] = "## Index, edited\n"
    md.write_text("".join(lines), encoding="utf-8")
    (tmp_path / "rules.html").unlink()
    stale_by_name = {s.path.name: s for s in stale_files(spec, tmp_path)}
    assert stale_by_name["rules.html"].line == 0
    assert stale_by_name["rules.html"].render().endswith("missing")
    assert (stale_by_name["rules.md"].line, stale_by_name["rules.md"].found) == \
        (3, "an edit by hand")
    lines[2] = original
    md.write_text("".join(lines), encoding="utf-8")
    stale_md = stale_files(spec, tmp_path)[1]
    assert (stale_md.line, stale_md.found) == (index_at + 3, "## Index, edited")
    assert stale_md.expected == "## Index of declarations"


def test_render_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from baloot.cli.main import main

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
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "\\u003cscript\\u003ealert" in html  # in the search box's data, as JSON
    assert "Four &lt;b&gt;players&lt;/b&gt; &amp; two &quot;teams&quot;." in html
    assert 'id="clause-SETUP-1"' in html and 'id="rule-teams"' in html
    assert 'id="variant-A1"' in html and 'id="const-players"' in html
    assert "No declaration of the spec formalises" not in html
    assert "The spec declares no state machine yet." in html
    md = render_markdown(document)
    assert "Four \\<b\\>players\\</b\\> &amp; two \"teams\"." in md
    assert "Scores \\| come from `cards`." in md
    assert '<a id="clause-SCORE-1"></a>' in md


def _tiny() -> m.Spec:
    return assemble(parse_text(TINY, "tiny.baloot"), [("tiny.baloot", TINY)])


def _html(spec: m.Spec, root: Path, examples: bool = True, proofs: str = "stored") -> str:
    return render_html(build_document(spec, root / "docs", Options(examples, proofs),
                                      root=root))


def _section(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    end = html.find('<section class="top"', start)
    return html[start:end if end >= 0 else None]


PROOF_ROW = {"check": "deck-bunts", "title": "card bunts total 152 in hokum",
             "contract": "hokum S", "readings": "any", "status": "proven", "method": "z3",
             "detail": "152"}


def test_proof_results_are_read_from_the_stored_file(tmp_path: Path) -> None:
    spec = _tiny()
    missing = _section(_html(spec, tmp_path), "proofs")
    assert "no stored proof results" in missing and "baloot verify --write" in missing
    (tmp_path / INVARIANTS).parent.mkdir(parents=True)
    (tmp_path / INVARIANTS).write_text(json.dumps(
        {"format": 1, "command": "baloot verify --write", "outcomes": [PROOF_ROW]}, indent=1))
    proofs = _section(_html(spec, tmp_path), "proofs")
    assert "deck-bunts" in proofs and "<strong>proven</strong>" in proofs
    assert "1 outcome(s): 1 proven" in proofs
    none = _section(_html(spec, tmp_path, proofs="none"), "proofs")
    assert "deck-bunts" not in none and "--proofs none" in none


def test_proof_results_from_a_file(tmp_path: Path) -> None:
    """`--proofs FILE` reads the list `baloot verify --json FILE` writes (times left out)."""
    results = tmp_path / "proofs.json"
    results.write_text(json.dumps([{**PROOF_ROW, "seconds": 0.25, "counterexample": {}}]),
                       encoding="utf-8")
    proofs = _section(_html(_tiny(), tmp_path, proofs=str(results)), "proofs")
    assert "deck-bunts" in proofs and "<strong>proven</strong>" in proofs
    assert "0.25" not in proofs  # times are left out: the document is deterministic


@pytest.mark.parametrize("content", [
    "not json",
    json.dumps({"format": 2, "outcomes": []}),
    json.dumps({"format": 1, "outcomes": [{**PROOF_ROW, "status": None}]}),
])
def test_a_malformed_proof_file_is_an_error(tmp_path: Path, content: str) -> None:
    (tmp_path / INVARIANTS).parent.mkdir(parents=True)
    (tmp_path / INVARIANTS).write_text(content)
    with pytest.raises(StoredFileError, match=r"invariants\.json"):
        _html(_tiny(), tmp_path)


def test_render_command_reports_a_malformed_stored_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from baloot.cli.main import main

    bad = tmp_path / "proofs.json"
    bad.write_text(json.dumps([{"check": "x"}]))
    assert main(["spec", "render", "--out", str(tmp_path / "docs"), "--proofs", str(bad)]) == 1
    assert "field 'title' should be a string" in capsys.readouterr().err


WITNESS_FILE: dict[str, Any] = {"format": 1, "command": "baloot explore", "variants": [
    {"id": "A1", "name": "tiny", "title": "A <tiny> variant.",
     "clauses": [{"id": "SETUP.1", "text": "Four players."}],
     "readings": [{"name": "one", "text": "One.", "source": "the page", "default": True},
                  {"name": "two", "text": "Two.", "source": "elsewhere", "default": False}],
     "pairs": [{"readings": ["one", "two"], "verdict": "witness",
                "symbolic": {"rule": "teams", "inputs": "seat = <0>",
                             "values": {"one": "2", "two": "3"}},
                "engine": {"dealer": 0, "deck": ["7S", "AS"], "actions": ["sun", "pass"],
                           "differs": "legal",
                           "under": {"one": "player 1: [\"pass\"]", "two": "player 2"},
                           "cases": ["a1-one-vs-two", "a1-not-in-a-file"]}}]},
]}


def test_witnesses_are_read_from_the_stored_file(tmp_path: Path) -> None:
    spec = _tiny()
    root = tmp_path / "project"
    (root / "conformance/cases/variants/tiny").mkdir(parents=True)
    (root / "conformance/ambiguities.md").write_text("## A1 tiny\n\nnot read any more\n")
    (root / "conformance/cases/variants/tiny/explored.json").write_text(json.dumps({"cases": [
        {"id": "a1-one-vs-two", "kind": "legal", "title": "one differs from two",
         "clauses": ["SETUP.1"], "requires": {"tiny": "two"}},
    ]}))
    out = root / "docs"
    per, head = witness_blocks(spec, root, out)
    assert per == {} and "No witnesses are stored yet" in str(head)
    (root / WITNESSES).parent.mkdir(parents=True)
    (root / WITNESSES).write_text(json.dumps(WITNESS_FILE, indent=1))
    per, head = witness_blocks(spec, root, out)
    assert set(per) == {"A1"} and "witnesses.json" in str(head)
    html = _html(spec, root, examples=False, proofs="none")
    variant = html[html.index('id="variant-A1"'):html.index('id="profiles"')]
    assert "not read any more" not in variant
    assert "<strong>witness found</strong>" in variant
    assert "<code>teams(seat = &lt;0&gt;)</code> gives <code>2</code> under <code>one</code>" \
        " and <code>3</code> under <code>two</code>" in variant
    assert "<code>7S AS</code>" in variant and "<code>sun / pass</code>" in variant
    assert "the legal differs" in variant and "player 1: [&quot;pass&quot;]" in variant
    # a witness case links to its row in the document's index of cases, or, rendered
    # without that index, to its file
    assert 'href="#case-a1-one-vs-two"' in variant and 'id="case-a1-one-vs-two"' in html
    assert "../conformance/cases/variants/tiny/explored.json" in str(per["A1"])
    assert "<code>a1-not-in-a-file</code>" in variant
    unknown = copy.deepcopy(WITNESS_FILE)
    unknown["variants"][0]["pairs"][0]["verdict"] = "maybe"
    (root / WITNESSES).write_text(json.dumps(unknown))
    with pytest.raises(StoredFileError, match="unknown verdict 'maybe'"):
        witness_blocks(spec, root, out)


EXAMPLE_FILE: dict[str, Any] = {
    "format": 1, "command": "baloot conform examples", "value_rule": "teams",
    "contracts": ["sun", "hokum"], "examples": [
    {"contract": "sun", "profile": "literal", "dealer": 0, "seed": 7,
     "deck": ["7S", "AS"], "face_up": "AS", "calls": [[1, "sun"], [2, "pass"]],
     "tricks": [{"plays": [[1, "AS"], [2, "7S"]], "winner": 1, "bunts": 11}],
     "result": {"card_bunts": [0, 11], "success": True, "level": "no_raise"}}]}


def test_worked_examples_are_read_from_the_stored_file(tmp_path: Path) -> None:
    spec = _tiny()
    missing = _section(_html(spec, tmp_path, proofs="none"), "scoring")
    assert "No worked examples are stored yet" in missing
    assert "baloot conform examples" in missing
    (tmp_path / EXAMPLES).parent.mkdir(parents=True)
    (tmp_path / EXAMPLES).write_text(json.dumps(EXAMPLE_FILE, indent=1))
    scoring = _section(_html(spec, tmp_path, proofs="none"), "scoring")
    assert "the deck of seed 7" in scoring and "seat 1 sun; seat 2 pass" in scoring
    assert "1: AS, 2: 7S" in scoring and "seat 1 (team 1)" in scoring
    assert 'href="#rule-teams"' in scoring  # the rule that priced the cards, linked
    assert '<td class="num">11</td>' in scoring and "<td>yes</td>" in scoring
    assert "No deck of the seeds tried gave a finished hokum round." in scoring
    left_out = _section(_html(spec, tmp_path, proofs="none", examples=False), "scoring")
    assert "seed 7" not in left_out and "--no-examples" in left_out
    (tmp_path / EXAMPLES).write_text(json.dumps({**EXAMPLE_FILE, "examples": [
        {**EXAMPLE_FILE["examples"][0], "calls": [["1", "sun"]]}]}))
    with pytest.raises(StoredFileError, match=r"calls: expected \[seat, text\]"):
        _html(spec, tmp_path, proofs="none")
