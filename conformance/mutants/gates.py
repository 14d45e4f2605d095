"""The readings under which a declaration of the spec is reached at all.

A rule can sit outside every `choose` and still be reached only under some
readings: `bid_winner_held_an_ace` is called only from the
`sun_dealer_right_ace` branch of `reverse_kaboot` (A27). A mutant of it is
seen only when that variant is read that way, exactly as a change inside the
branch is. Its gates are found from the call graph: starting from the rules
the engine's runtime calls (`hooks engine`), a declaration (rule, table,
constant, order) is reached under `variant = reading` when a walk that enters
only that reading's branch of each `choose` of the variant still names it.
When some reading of a variant does not reach it, that variant gates it, to
the readings that do.

The walk enters every branch of the other variants and every branch of an
`if`: it finds more that is reached than play does, never less, so a gate it
reports is one no game can pass without.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...grammar import model as m
from ...grammar.analysis import hooked_rules
from ...grammar.walk import children

Gates = tuple[tuple[str, tuple[str, ...]], ...]  # (variant, the readings that reach it)


def _walk(node: m.Stmt | m.Expr, variant: str, reading: str) -> Iterator[object]:
    """The nodes below `node`, entering only `reading`'s branch of a `choose` of `variant`."""
    yield node
    if isinstance(node, m.Choose) and node.variant == variant:
        for case in node.cases:
            if reading in case.readings:
                for stmt in case.body:
                    yield from _walk(stmt, variant, reading)
        return
    for child in children(node):
        yield from _walk(child, variant, reading)  # type: ignore[arg-type]


def reached(spec: m.Spec, variant: str | None = None, reading: str = "") -> frozenset[str]:
    """The names of the declarations reached from the engine's rules, with `variant` (if
    any) read as `reading`."""
    rules = {r.name: r for r in spec.rules}
    declared = set(rules) | {t.name for t in spec.tables} | {c.name for c in spec.consts} \
        | {o.name for o in spec.orders}
    roots = hooked_rules(spec, "engine")
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        rule = rules.get(name)
        if rule is None:
            continue
        for stmt in rule.body:
            for node in _walk(stmt, variant or "", reading):
                if isinstance(node, m.Name) and node.name in declared and node.name not in seen:
                    stack.append(node.name)
    return frozenset(seen)


# id(spec) -> (spec, what the engine reaches, the gates of each declaration)
_FOUND: dict[int, tuple[m.Spec, frozenset[str], dict[str, Gates]]] = {}


def _found(spec: m.Spec) -> tuple[frozenset[str], dict[str, Gates]]:
    kept = _FOUND.get(id(spec))
    if kept is not None and kept[0] is spec:
        return kept[1], kept[2]
    everything = reached(spec)
    found: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for v in spec.variants:
        by_reading = {r: reached(spec, v.name, r) for r in v.reading_names}
        for name in everything:
            reaching = tuple(r for r in v.reading_names if name in by_reading[r])
            if reaching and len(reaching) < len(v.reading_names):
                found.setdefault(name, []).append((v.name, reaching))
    gates = {name: tuple(g) for name, g in found.items()}
    _FOUND[id(spec)] = (spec, everything, gates)
    return everything, gates


def reached_by_engine(spec: m.Spec) -> frozenset[str]:
    """The declarations some rule the engine's runtime calls reaches, under some reading
    (`reached` with no variant fixed, kept for the spec)."""
    return _found(spec)[0]


def gates_of(spec: m.Spec, name: str) -> Gates:
    """The variants that gate a declaration, each with the readings under which it is
    reached (none: it is reached under every reading)."""
    return _found(spec)[1].get(name, ())
