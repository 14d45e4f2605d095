"""The table of how often each ambiguity matters in play, from the stored results of
`baloot explore --impact` (read here, never computed).

    explorer/results/impact.json (format 1):
      {"format": 1, "command": "baloot explore --impact", "profile", "seed", "rounds",
       "shard": null | {"of": N, "parts": [K, ...]},
       "method": {"policy", "totals", "round_steps", "redeals"},
       "variants": [{"id", "name", "base", "pairs": [
         {"readings": [a, b], "rounds", "differ", "legal", "winner",
          "shares": {"differ": [share, low, high], "winner": [share, low, high]}}]}]}

`differ` counts the rounds in which the two readings give a different legal set at
some decision point or a different result, `legal` those of them where a legal set
differs, `winner` those where the winner changes; the shares carry the 95% Wilson
interval (low, high).
"""

from __future__ import annotations

from pathlib import Path

from ...grammar import model as m
from . import anchors as a
from . import blocks as d
from .stored import Fields, StoredFileError, read_stored

IMPACT = Path("explorer/results/impact.json")
COMMAND = "baloot explore --impact"
ANCHOR = "impact"
TITLE = "How often each ambiguity matters"
MATTERS = 0.01  # a pair whose readings part in fewer rounds than this is a curiosity


def percent(share: float) -> str:
    return f"{100 * share:.2f}%"


def _share(f: Fields, key: str) -> tuple[float, float, float]:
    values = f.obj("shares").get(key)
    if not isinstance(values, list) or len(values) != 3 or \
            not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values):
        raise StoredFileError(f"{f.where}: shares.{key} should be [share, low, high]")
    return float(values[0]), float(values[1]), float(values[2])


def _interval(share: tuple[float, float, float]) -> str:
    return f"{percent(share[0])} ({percent(share[1])} to {percent(share[2])})"


def impact_section(spec: m.Spec, root: Path) -> d.Section:
    """The section: what was measured and how, then one row per pair of readings."""
    path = root / IMPACT
    how = d.Para(d.inlines(
        f"`{COMMAND}` measures it and stores the counts in {IMPACT.as_posix()}; "
        "`--rounds N`, `--seed N` and `--profile NAME` choose the rounds and the profile "
        "the other variants are held at, and `--shard K/N` with `--merge` splits a long run "
        "over many machines (explorer/README.md). `--check` plays the stored run again and "
        "fails when the file differs."))
    if not path.is_file():
        return d.Section(ANCHOR, TITLE, (
            d.Note(d.inlines(f"No measurement is stored yet ({IMPACT.as_posix()} is "
                             "missing); render again after running it.")), how))
    top = Fields(read_stored(path, COMMAND), str(path))
    method = top.obj("method")
    split = top.optional("shard")
    known = {v.id for v in spec.variants}
    rows: list[tuple[d.Inlines, ...]] = []
    shown = matters = 0
    curiosities: list[d.Inline] = []
    for variant in top.each("variants"):
        vid, name = variant.text("id"), variant.text("name")
        label: d.Inline = d.Link(f"{vid} {name}", "#" + a.variant_anchor(vid)) \
            if vid in known else d.Str(f"{vid} {name}")
        most = 0.0
        for pair in variant.each("pairs"):
            readings = pair.texts("readings")
            rounds, legal = pair.number("rounds"), pair.number("legal")
            differ = _share(pair, "differ")
            shown += 1
            matters += differ[0] >= MATTERS
            most = max(most, differ[0])
            rows.append((
                (label,), d.joined([d.Code(r) for r in readings], " / "),
                d.inlines(_interval(differ)),
                d.inlines(percent(legal / rounds if rounds else 0.0)),
                d.inlines(_interval(_share(pair, "winner")))))
        if variant.items("pairs") and most < MATTERS:
            curiosities.append(label)
    scope = (f"{top.number('rounds'):,} seeded rounds (seed {top.number('seed')})"
             if split is None else
             f"shards {', '.join(map(str, split.items('parts')))} of {split.number('of')} "
             f"of {top.number('rounds'):,} seeded rounds (seed {top.number('seed')}): a partial "
             "run")
    intro = d.Para(d.inlines(
        "For each pair of readings: the share of random rounds in which the two readings "
        "give a different legal set at some decision point, or a different result (with its "
        "95% Wilson interval); the share in which a legal set differs (the other rounds that "
        "differ do so in the score only); and the share in which the winner changes (the team "
        "that wins the game when the round ends it, else the round's winner). Over "
        f"{scope}, every other variant held at the profile `{top.text('profile')}`. Each "
        "round is dealt at random, its running totals "
        f"{method.get('totals', '(not stated)')}, and every decision is taken by one stable "
        f"rule of the legal set ({method.get('policy', 'not stated')}), the same under both "
        "readings: both play the same round until their legal sets part, and from there "
        "each plays on to its own result."))
    summary_text = d.inlines(
        f"{matters} of the {shown} pairs part in at least {percent(MATTERS)} of the rounds: "
        f"they matter in play. The rest ({shown - matters}) part in fewer rounds or in none: "
        "curiosities of the rules as written (where none, the interval's upper end bounds "
        "how often they can matter).")
    if curiosities:
        summary_text += (d.Str(" Every pair of readings is such a curiosity for "),
                         *d.joined(curiosities), d.Str("."))
    summary = d.Para(summary_text)
    table = d.Table((d.inlines("variant"), d.inlines("readings"),
                     d.inlines("rounds that differ (95%)"),
                     d.inlines("a legal set differs"),
                     d.inlines("the winner changes (95%)")), tuple(rows), numeric=(2, 3, 4))
    return d.Section(ANCHOR, TITLE, (intro, summary, table, how))
