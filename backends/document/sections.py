"""The sections of the rules document that come from the spec model alone.

Nothing here states a Baloot fact of its own: every order, table, state and
reading is found in the model by what it cites or by its enum, and shown as
the spec has it.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...grammar import model as m
from ...grammar.analysis import variants_used
from . import anchors as a
from . import blocks as d
from .cases import Pack, clause_cases
from .source import Sources, location
from .svg import machine_mermaid, machine_svg, transition_label

FAMILY_TITLES = {
    "SETUP": "Setup: players, deck, deal and ranks",
    "GAME": "The game",
    "BID": "Bidding",
    "RAISE": "Raises",
    "PLAY": "Play",
    "PROJ": "Projects",
    "SCORE": "Scoring",
    "END": "The end of the game",
}


# ----------------------------------------------------------------- helpers --


def clause_link(clause_id: str) -> d.Link:
    return d.Link(clause_id, "#" + a.clause_id_anchor(clause_id))


def decl_link(decl: m.Cited) -> d.Link:
    if isinstance(decl, m.Variant):
        return d.Link(f"{decl.id} {decl.name}", "#" + a.decl_anchor(decl))
    return d.Link(decl.name, "#" + a.decl_anchor(decl), code=True)


def cite_links(cites: Iterable[m.Citation]) -> d.Inlines:
    ids = list(dict.fromkeys(c.clause for c in cites))
    return d.joined([clause_link(c) for c in ids])


def type_text(t: m.Type) -> str:
    if isinstance(t, m.PlainType):
        return str(t.name)
    if isinstance(t, m.OptionalType):
        return type_text(t.inner) + "?"
    return f"list[{type_text(t.item)}]"


def member_label(spec: m.Spec, member: str) -> str:
    """A member with its notation when it has one: `jack (J)`."""
    enum = spec.enum_of_member(member)
    notation = next((x.notation for x in enum.members if x.name == member), None) if enum else None
    return f"{member} ({notation})" if notation and notation != member else member


def short_notation(spec: m.Spec, member: str) -> str:
    enum = spec.enum_of_member(member)
    notation = next((x.notation for x in enum.members if x.name == member), None) if enum else None
    return notation or member


def citing_clause(decl: m.Cited, family: str | None = None,
                  ids: Iterable[str] = ()) -> bool:
    """Whether a declaration cites a clause of `family`, or one of the clauses `ids`."""
    wanted = set(ids)
    return any(c.clause.split(".")[0] == family or c.clause in wanted for c in decl.cites)


class Placement:
    """Where each declaration is written out in full: under the first clause it cites."""

    def __init__(self, spec: m.Spec) -> None:
        order = {c.id: i for i, c in enumerate(spec.clauses)}
        self.home: dict[str, str] = {}
        for decl in spec.cited():
            if isinstance(decl, m.Variant | m.Machine):
                continue  # they have sections of their own
            ids = [c.clause for c in decl.cites if c.clause in order]
            if ids:
                self.home[a.decl_anchor(decl)] = min(ids, key=order.__getitem__)

    def is_home(self, decl: m.Cited, clause_id: str) -> bool:
        return self.home.get(a.decl_anchor(decl)) == clause_id


# ----------------------------------------------------------------- clauses --


def declaration_box(spec: m.Spec, sources: Sources, decl: m.Cited) -> d.Box:
    """One declaration in full: what it is, its doc, its clauses, its spec text."""
    kind = a.decl_kind(decl)
    signature = decl.name
    if isinstance(decl, m.Rule):
        params = ", ".join(f"{p.name}: {type_text(p.type)}" for p in decl.params)
        signature += f"({params}) -> {type_text(decl.returns)}"
    head: list[d.Inline] = [d.Str(kind + " "), d.Code(signature)]
    blocks: list[d.Block] = [d.Heading(4, tuple(head))]
    if decl.doc:
        blocks.append(d.Para(d.inlines(decl.doc)))
    meta: list[d.Inline] = [d.Em("cites "), *cite_links(decl.cites)]
    if isinstance(decl, m.Rule):
        used = variants_used(decl.body)
        if used:
            meta.append(d.Em("; reads "))
            meta.extend(d.joined([decl_link(spec.variant(v)) for v in used]))
    blocks.append(d.Para(tuple(meta)))
    text = sources.declaration_text(decl.pos)
    if text is not None:
        blocks.append(d.CodeBlock(text, "baloot", location(decl.pos)))
    return d.Box(a.decl_anchor(decl), f"decl {kind}", tuple(blocks))


def clause_box(spec: m.Spec, sources: Sources, placement: Placement, clause: m.Clause,
               pack: Pack | None = None) -> d.Box:
    blocks: list[d.Block] = [
        d.Heading(3, (d.Str(clause.id),)),
        d.Quote(d.inlines(clause.text)),
    ]
    if clause.translations:
        blocks.append(d.Details("The four translations", (d.Para(d.inlines(
            clause.translations)),)))
    citing = spec.citing(clause.id)
    variants = [x for x in citing if isinstance(x, m.Variant)]
    formal = [x for x in citing if not isinstance(x, m.Variant)]
    seen_elsewhere: list[d.Inlines] = []
    for decl in formal:
        if isinstance(decl, m.Machine):
            transitions = [t for t in decl.transitions if any(c.clause == clause.id
                                                              for c in t.cites)]
            words: list[d.Inline] = [d.Str("machine "), decl_link(decl)]
            if transitions:
                words.append(d.Str(" (transitions "))
                words.extend(d.joined([d.Code(f"{t.source} -> {t.target} on "
                                              f"{transition_label(t)}") for t in transitions]))
                words.append(d.Str(")"))
            seen_elsewhere.append(tuple(words))
        elif placement.is_home(decl, clause.id):
            blocks.append(declaration_box(spec, sources, decl))
        else:
            seen_elsewhere.append((d.Str(a.decl_kind(decl) + " "), decl_link(decl)))
    if seen_elsewhere:
        blocks.append(d.Para((d.Em("Also formalised by: "),
                              *d.joined(seen_elsewhere, "; "))))
    if not formal:
        blocks.append(d.Note(d.inlines("No declaration of the spec formalises this clause yet.")))
    if variants:
        blocks.append(d.Para((d.Em("Ambiguities: "), *d.joined([decl_link(v) for v in variants]))))
    if pack is not None:
        blocks.append(clause_cases(pack, clause.id))
    return d.Box(a.clause_id_anchor(clause.id), "clause", tuple(blocks))


def clauses_section(spec: m.Spec, sources: Sources, pack: Pack | None = None) -> d.Section:
    placement = Placement(spec)
    blocks: list[d.Block] = [d.Para(d.inlines(
        "Each clause of the source page, in the spec's own words, followed by every "
        "declaration of the spec that formalises it. A declaration is written out in full "
        "under the first clause it cites, with its spec text; later clauses link to it. "
        "Last come the conformance cases that cite the clause, each linked to its row in "
        "the index of cases."))]
    families = list(dict.fromkeys(c.family for c in spec.clauses))
    for family in families:
        blocks.append(d.Heading(2, d.inlines(FAMILY_TITLES.get(family, family)),
                                f"family-{family}"))
        for clause in spec.clauses:
            if clause.family == family:
                blocks.append(clause_box(spec, sources, placement, clause, pack))
    homeless = [x for x in spec.cited() if not isinstance(x, m.Variant | m.Machine)
                and a.decl_anchor(x) not in placement.home]
    if homeless:
        blocks.append(d.Heading(2, d.inlines("Declarations citing no declared clause"),
                                "family-none"))
        blocks.extend(declaration_box(spec, sources, x) for x in homeless)
    return d.Section("clauses", "The rules, clause by clause", tuple(blocks))


# ------------------------------------------------------------ cards tables --


def _order_row(spec: m.Spec, order: m.Order) -> tuple[d.Inlines, ...]:
    ranks = " > ".join(short_notation(spec, x.name) for x in order.high_to_low)
    return ((decl_link(order),), cite_links(order.cites), (d.Code(ranks),))


def _value_table(spec: m.Spec, tables: list[m.Table], order: m.Order | None) -> d.Table:
    keys = [x.name for x in order.high_to_low] if order else \
        list(dict.fromkeys(e.key for t in tables for e in t.entries))
    header = (d.inlines("table"), d.inlines("clauses"),
              *(d.inlines(short_notation(spec, k)) for k in keys), d.inlines("one suit"))
    rows = []
    for table in tables:
        values = table.as_dict()
        cells = tuple(d.inlines(str(values[k]) if k in values else "—") for k in keys)
        rows.append(((decl_link(table),), cite_links(table.cites), *cells,
                     d.inlines(str(sum(values.values())))))
    return d.Table(header, tuple(rows), numeric=tuple(range(2, len(keys) + 3)))


def cards_section(spec: m.Spec) -> d.Section | None:
    """Rank orders and card values for sun and hokum, found by the clauses they cite."""
    rank_enum = {o.over for o in spec.orders if citing_clause(o, ids=("SETUP.6", "SETUP.7"))}
    if not rank_enum:
        return None
    orders = [o for o in spec.orders if o.over in rank_enum]
    tables = [t for t in spec.tables if t.key_enum in rank_enum]
    plain_order = next((o for o in orders if citing_clause(o, ids=("SETUP.7",))), None)
    blocks: list[d.Block] = [d.Para(d.inlines(
        "The orders and tables of the spec over the card ranks, found by the clauses they "
        "cite. An order lists the ranks from highest to lowest; a rank's strength is the "
        "number of ranks below it. Values are in bunts, per card; the last column is one "
        "suit's total."))]
    for title, order_ids, table_ids in (
        ("Sun", ("SETUP.7",), ("SCORE.3",)),
        ("Hokum", ("SETUP.6", "SETUP.7"), ("SCORE.4", "SCORE.3")),
    ):
        blocks.append(d.Heading(2, d.inlines(title), f"cards-{title.lower()}"))
        clause_ids = [c for c in (*order_ids, *table_ids) if any(x.id == c for x in spec.clauses)]
        blocks.append(d.BulletList(tuple(
            (clause_link(c), d.Str(": " + spec.clause(c).text)) for c in clause_ids)))
        picked_orders = [o for o in orders if citing_clause(o, ids=order_ids)]
        if picked_orders:
            blocks.append(d.Table((d.inlines("order"), d.inlines("clauses"),
                                   d.inlines("high to low")),
                                  tuple(_order_row(spec, o) for o in picked_orders)))
        picked_tables = [t for t in tables if citing_clause(t, ids=table_ids)]
        if picked_tables:
            blocks.append(_value_table(spec, picked_tables, plain_order))
    others = [o for o in orders if not citing_clause(o, ids=("SETUP.6", "SETUP.7"))]
    if others:
        blocks.append(d.Heading(2, d.inlines("Other orders of the ranks"), "cards-other"))
        blocks.append(d.Table((d.inlines("order"), d.inlines("clauses"),
                               d.inlines("high to low")),
                              tuple(_order_row(spec, o) for o in others)))
    return d.Section("cards", "Card ranks and values", tuple(blocks))


# ---------------------------------------------------------------- projects --


def keyed_tables_table(spec: m.Spec, enum: m.Enum, tables: list[m.Table]) -> d.Table:
    header = (d.inlines(enum.name), *((decl_link(t), d.Str(" "), *cite_links(t.cites))
                                      for t in tables))
    rows = []
    for member in enum.members:
        cells = tuple(d.inlines(str(t.as_dict().get(member.name, "—"))) for t in tables)
        rows.append((d.inlines(member_label(spec, member.name)), *cells))
    return d.Table(header, tuple(rows), numeric=tuple(range(1, len(tables) + 1)))


def projects_section(spec: m.Spec) -> d.Section | None:
    """The tables keyed by the project kind enum (an enum citing PROJ clauses)."""
    kinds = [e for e in spec.enums if citing_clause(e, family="PROJ")
             and any(t.key_enum == e.name for t in spec.tables)]
    if not kinds:
        return None
    blocks: list[d.Block] = []
    for enum in kinds:
        tables = [t for t in spec.tables if t.key_enum == enum.name]
        blocks.append(d.Para((d.Str("The kinds of project are the enum "), decl_link(enum),
                              d.Str(" ("), *cite_links(enum.cites),
                              d.Str("); each table keyed by it is a column."))))
        blocks.append(keyed_tables_table(spec, enum, tables))
        orders = [o for o in spec.orders if o.over == enum.name]
        for order in orders:
            blocks.append(d.Para((d.Str("Order "), decl_link(order), d.Str(", high to low: "),
                                  d.Code(" > ".join(x.name for x in order.high_to_low)))))
    consts = [c for c in spec.consts if citing_clause(c, family="PROJ")]
    if consts:
        blocks.append(d.Table(
            (d.inlines("constant"), d.inlines("value"), d.inlines("clauses"), d.inlines("what")),
            tuple(((decl_link(c),), d.inlines(str(c.value)), cite_links(c.cites),
                   d.inlines(c.doc or "")) for c in consts), numeric=(1,)))
    return d.Section("projects", "Projects", tuple(blocks))


# ---------------------------------------------------------------- machines --


def machine_block(spec: m.Spec, machine: m.Machine) -> d.Box:
    blocks: list[d.Block] = [
        d.Heading(2, (d.Str("machine "), d.Code(machine.name)), None),
    ]
    if machine.doc:
        blocks.append(d.Para(d.inlines(machine.doc)))
    blocks.append(d.Para((d.Em("cites "), *cite_links(machine.cites))))
    blocks.append(d.Diagram(machine_svg(machine), machine_mermaid(machine), (
        d.Str(f"The states of {machine.name}; the thick box is the first state. "
              "Dashed arrows close a cycle."),)))
    blocks.append(d.Table(
        (d.inlines("state"), d.inlines("meaning")),
        tuple((d.inlines(s.name), d.inlines(s.text)) for s in machine.states)))
    blocks.append(d.Table(
        (d.inlines("from"), d.inlines("to"), d.inlines("on"), d.inlines("clauses"),
         d.inlines("when")),
        tuple((d.inlines(t.source), d.inlines(t.target), (d.Code(transition_label(t)),),
               cite_links(t.cites), d.inlines(t.doc or "")) for t in machine.transitions)))
    return d.Box(a.machine_anchor(machine.name), "machine", tuple(blocks))


def machines_section(spec: m.Spec) -> d.Section:
    if not spec.machines:
        return d.Section("machines", "State machines", (d.Note(d.inlines(
            "The spec declares no state machine yet.")),))
    return d.Section("machines", "State machines",
                     tuple(machine_block(spec, x) for x in spec.machines))


# ------------------------------------------------------------------ raises --


def raises_section(spec: m.Spec) -> d.Section:
    """The raise ladder: enums citing RAISE clauses, their tables, else the RAISE clauses."""
    blocks: list[d.Block] = []
    ladders = [e for e in spec.enums if citing_clause(e, family="RAISE")
               and e.name not in {x.name for x in spec.machines}]
    for enum in ladders:
        tables = [t for t in spec.tables if t.key_enum == enum.name]
        steps = " → ".join(member_label(spec, x.name) for x in enum.members)
        blocks.append(d.Para((d.Str("enum "), decl_link(enum), d.Str(" ("),
                              *cite_links(enum.cites), d.Str("): "),
                              d.Str(enum.doc or ""))))
        blocks.append(d.Para((d.Strong(steps),)))
        if tables:
            blocks.append(keyed_tables_table(spec, enum, tables))
    machines = [x for x in spec.machines if citing_clause(x, family="RAISE")
                or any(c.clause.startswith("RAISE.") for t in x.transitions for c in t.cites)]
    for machine in machines:
        blocks.append(d.Para((d.Str("The raises are drawn as the machine "), decl_link(machine),
                              d.Str("."))))
    if not ladders and not machines:
        blocks.append(d.Note(d.inlines("The spec declares no enum or machine of raises; the "
                                       "ladder below is the clauses themselves.")))
    clause_ids = [c.id for c in spec.clauses if c.family == "RAISE"]
    blocks.append(d.BulletList(tuple((clause_link(c), d.Str(": " + spec.clause(c).text))
                                     for c in clause_ids)))
    consts = [c for c in spec.consts if citing_clause(c, family="RAISE")]
    if consts:
        blocks.append(d.Table(
            (d.inlines("constant"), d.inlines("value"), d.inlines("clauses"), d.inlines("what")),
            tuple(((decl_link(c),), d.inlines(str(c.value)), cite_links(c.cites),
                   d.inlines(c.doc or "")) for c in consts), numeric=(1,)))
    variants = [v for v in spec.variants if citing_clause(v, family="RAISE")]
    if variants:
        blocks.append(d.Para((d.Em("Ambiguities of the raises: "),
                              *d.joined([decl_link(v) for v in variants]))))
    return d.Section("raises", "The raise ladder", tuple(blocks))


# ---------------------------------------------------------------- variants --


def variant_box(spec: m.Spec, variant: m.Variant, witness: tuple[d.Block, ...]) -> d.Box:
    blocks: list[d.Block] = [
        d.Heading(3, (d.Str(f"{variant.id} "), d.Code(variant.name))),
        d.Para(d.inlines(variant.doc)),
        d.Para((d.Em("concerns "), *cite_links(variant.cites))),
    ]
    rows = []
    for reading in variant.readings:
        picked = [p.name for p in spec.profiles if p.readings().get(variant.name) == reading.name]
        name: list[d.Inline] = [d.Code(reading.name)]
        if reading.name == variant.default:
            name.append(d.Strong(" (default)"))
        rows.append((tuple(name), d.inlines(reading.text), d.inlines(reading.source),
                     d.joined([d.Link(p, "#" + a.profile_anchor(p)) for p in picked])))
    blocks.append(d.Table((d.inlines("reading"), d.inlines("meaning"), d.inlines("source"),
                           d.inlines("profiles")), tuple(rows)))
    for profile in spec.profiles:
        pick = profile.pick_of(variant.name)
        if pick is not None and pick.annotated:
            blocks.append(d.Para((d.Em("profile "), d.Link(profile.name, "#" + a.profile_anchor(
                profile.name)), d.Str(" reads it as "), d.Code(pick.reading), d.Str(": "),
                *pick_evidence(pick))))
    users = [r for r in spec.rules if variant.name in variants_used(r.body)]
    if users:
        blocks.append(d.Para((d.Em("read by the rules "), *d.joined([decl_link(r)
                                                                    for r in users]))))
    blocks.extend(witness)
    return d.Box(a.variant_anchor(variant.id), "variant", tuple(blocks))


def variants_section(spec: m.Spec, witnesses: dict[str, tuple[d.Block, ...]],
                     intro: tuple[d.Block, ...]) -> d.Section:
    blocks: list[d.Block] = [d.Para(d.inlines(
        "Every place where the source page admits more than one reading: the clauses it "
        "concerns, each reading with where it comes from, and which profile picks it.")),
        *intro]
    for variant in spec.variants:
        blocks.append(variant_box(spec, variant, witnesses.get(variant.id, ())))
    blocks.append(d.Heading(2, d.inlines("Profiles"), "profiles"))
    blocks.extend(profile_differences(spec))
    for profile in spec.profiles:
        sourced = profile.sourced
        rows = []
        for v in spec.variants:
            pick = profile.pick_of(v.name)
            row: tuple[d.Inlines, ...] = (
                (decl_link(v),), (d.Code(pick.reading if pick else "—"),),
                d.inlines("yes" if pick is not None and pick.reading == v.default else "no"))
            if sourced:
                row += (pick_evidence(pick) if pick is not None else d.inlines("—"),)
            rows.append(row)
        header: tuple[d.Inlines, ...] = (d.inlines("variant"), d.inlines("reading"),
                                         d.inlines("the default"))
        if sourced:
            header += (d.inlines("evidence"),)
        blocks.append(d.Box(a.profile_anchor(profile.name), "profile", (
            d.Heading(3, (d.Str("profile "), d.Code(profile.name))),
            d.Para(d.inlines(profile.doc)),
            d.Table(header, tuple(rows)),
        )))
    return d.Section("variants", "The variant register", tuple(blocks))


def pick_evidence(pick: m.Pick) -> d.Inlines:
    """A profile's choice held against its sources: its status, the sources for it, those
    against it (with the reading each supports), and where they disagree; or why none
    decides."""
    parts: list[d.Inline] = []
    if pick.status is not None:
        parts.extend([d.Strong(pick.status), d.Str(". ")])
    if pick.unsourced is not None:
        parts.append(d.Str(pick.unsourced))
    for i, source in enumerate(pick.sources):
        parts.extend([d.Em("For: ") if i == 0 else d.Str("; "), *d.inlines(source)])
    for i, against in enumerate(pick.against):
        parts.append(d.Str(". ") if i == 0 else d.Str("; "))
        if i == 0:
            parts.append(d.Em("Against: "))
        if against.reading is not None:
            parts.extend([d.Str("("), d.Code(against.reading), d.Str(") ")])
        parts.extend(d.inlines(against.source))
    if pick.settled is not None:
        parts.extend([d.Str(". "), d.Em("Where they disagree: "), *d.inlines(pick.settled)])
    return tuple(parts)


def scope_section(spec: m.Spec) -> d.Section | None:
    """The stated scope: what the suite checks, and what it leaves to the table or the
    app, each part left out with whether the protocol could check it."""
    if not spec.scopes:
        return None
    scope = spec.scopes[0]
    blocks: list[d.Block] = [d.Para(d.inlines(scope.doc))]
    checked = scope.of_kind("checks")
    if checked:
        blocks.append(d.Heading(3, d.inlines("What the suite checks")))
        blocks.append(d.BulletList(tuple((d.Strong(i.name.replace("_", " ")), d.Str(": "),
                                          *d.inlines(i.text)) for i in checked)))
    left = scope.of_kind("leaves")
    if left:
        blocks.append(d.Heading(3, d.inlines("What it leaves to the table or the app")))
        blocks.append(d.Table(
            (d.inlines("part"), d.inlines("what it is"), d.inlines("through the protocol?")),
            tuple(((d.Strong(i.name.replace("_", " ")),), d.inlines(i.text),
                   d.inlines(i.protocol or "—")) for i in left)))
    return d.Section("scope", "Scope", tuple(blocks))


def profile_differences(spec: m.Spec) -> tuple[d.Block, ...]:
    """The readings on which each profile departs from the first (the defaults), each with
    where it comes from: what a profile changes, at a glance."""
    if len(spec.profiles) < 2:
        return ()
    first = spec.profiles[0]
    base = first.readings()
    out: list[d.Block] = []
    for profile in spec.profiles[1:]:
        rows = tuple(
            ((decl_link(spec.variant(k.variant)),), (d.Code(base.get(k.variant, "—")),),
             (d.Code(k.reading),), pick_evidence(k))
            for k in profile.picks if base.get(k.variant) != k.reading)
        out.append(d.Para((d.Str(f"Where {profile.name} departs from {first.name}: "
                                 f"{len(rows)} of {len(spec.variants)} variants."),)))
        out.append(d.Table((d.inlines("variant"), (d.Code(first.name),),
                            (d.Code(profile.name),), d.inlines("sources")), rows))
    return tuple(out)


# ------------------------------------------------------------------- index --


def index_section(spec: m.Spec) -> d.Section:
    rows = []
    for decl in spec.cited():
        rows.append(((d.Str(a.decl_kind(decl)),), (decl_link(decl),), cite_links(decl.cites),
                     d.inlines(location(decl.pos))))
    return d.Section("index", "Index of declarations", (
        d.Table((d.inlines("kind"), d.inlines("name"), d.inlines("clauses"),
                 d.inlines("where")), tuple(rows)),))
