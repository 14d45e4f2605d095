"""State machines drawn as inline SVG, with a small layered layout of our own.

The layout is a plain Sugiyama scheme, deterministic and dependency-free:

1. a depth-first search from the first state (then from every unvisited state,
   in declaration order) finds the transitions that close a cycle; for the
   layout they count as pointing the other way, which leaves no cycle;
2. each state's layer is the longest path to it, so every arrow crosses at
   least one layer; an arrow that crosses several gets a point of its own in
   every layer between, so it runs between the boxes rather than through them;
3. states and those points are ordered within each layer by sweeps towards
   the mean position of their neighbours, keeping the order with the fewest
   crossings, then placed as near that mean as the boxes beside them allow;
4. each arrow is drawn as a smooth curve through its points; a transition that
   closes a cycle is drawn upwards. A self loop sits on the right of its box.

Several transitions between the same two states share one arrow, with one
label line each. Each label goes to the first spot along its arrow where it
overlaps no box and no other label.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from ...grammar import model as m
from .anchors import state_anchor

FONT_SIZE = 12
CHAR_WIDTH = 7.3  # a monospace character at FONT_SIZE, a little generously
LINE_HEIGHT = 15
BOX_HEIGHT = 34
BOX_PAD = 14
MIN_BOX_WIDTH = 84
BOX_GAP = 44  # between boxes of one layer
POINT_WIDTH = 14  # the room an arrow takes in a layer it crosses
POINT_GAP = 18
V_GAP = 104  # between layers
LOOP_REACH = 40  # how far a self loop reaches right of its box
MARGIN = 16
FONT = "ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', monospace"

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x, y, width, height


@dataclass(frozen=True)
class StateBox:
    name: str
    text: str
    layer: int
    x: float
    y: float
    width: float
    height: float

    @property
    def cx(self) -> float:
        return self.x + self.width / 2

    @property
    def cy(self) -> float:
        return self.y + self.height / 2

    @property
    def rect(self) -> Rect:
        return self.x, self.y, self.width, self.height


@dataclass(frozen=True)
class Arrow:
    source: str
    target: str
    kind: str  # forward, back (drawn upwards, closing a cycle), self
    labels: tuple[str, ...]  # one line per transition
    docs: tuple[str, ...]  # the transitions' own texts, for the tooltip
    # cubic Bezier pieces from the upper end to the lower end (for a self loop:
    # from the box round to the box); each piece: start, control, control, end
    pieces: tuple[tuple[Point, Point, Point, Point], ...]
    label_x: float
    label_y: float  # the centre of the label block

    @property
    def head_at_start(self) -> bool:
        """A back arrow is drawn from its upper end, so its head is at the start."""
        return self.kind == "back"

    def path(self) -> str:
        first = self.pieces[0][0]
        parts = [f"M{_n(first[0])},{_n(first[1])}"]
        for start, c1, c2, end in self.pieces:
            if parts and (start[0], start[1]) != _last(parts):
                parts.append(f"L{_n(start[0])},{_n(start[1])}")
            parts.append(f"C{_n(c1[0])},{_n(c1[1])} {_n(c2[0])},{_n(c2[1])} "
                         f"{_n(end[0])},{_n(end[1])}")
        return " ".join(parts)

    def label_rect(self) -> Rect:
        return label_rect(self.labels, self.label_x, self.label_y)


def _last(parts: list[str]) -> tuple[float, float]:
    coords = parts[-1].split(" ")[-1].lstrip("MLC").split(",")
    return float(coords[0]), float(coords[1])


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    min_x: float
    min_y: float
    boxes: tuple[StateBox, ...]
    arrows: tuple[Arrow, ...]

    def box(self, name: str) -> StateBox:
        return next(b for b in self.boxes if b.name == name)


def text_width(text: str) -> float:
    return len(text) * CHAR_WIDTH


def transition_label(transition: m.Transition) -> str:
    return ", ".join(transition.causes)


def label_rect(labels: tuple[str, ...], x: float, y: float) -> Rect:
    width = max(text_width(t) for t in labels) + 8
    height = LINE_HEIGHT * len(labels) + 4
    return x - width / 2, y - height / 2, width, height


def overlaps(a: Rect, b: Rect) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def _n(value: float) -> str:
    """A coordinate, short and the same on every machine."""
    text = f"{value:.1f}"
    if text == "-0.0":
        text = "0.0"
    return text[:-2] if text.endswith(".0") else text


# ---------------------------------------------------------------- layering --


def _edges(machine: m.Machine) -> list[tuple[str, str]]:
    """The distinct pairs of different states joined by a transition, in order."""
    return list(dict.fromkeys((t.source, t.target) for t in machine.transitions
                              if t.source != t.target))


def back_edges(machine: m.Machine) -> set[tuple[str, str]]:
    """The transitions that close a cycle, by a depth-first search in declaration order."""
    states = [s.name for s in machine.states]
    out: dict[str, list[str]] = {s: [] for s in states}
    for a, b in _edges(machine):
        out[a].append(b)
    colour: dict[str, int] = dict.fromkeys(states, 0)  # 0 new, 1 on the path, 2 done
    back: set[tuple[str, str]] = set()
    for root in states:
        if colour[root]:
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        colour[root] = 1
        while stack:
            node, i = stack[-1]
            if i < len(out[node]):
                stack[-1] = (node, i + 1)
                nxt = out[node][i]
                if colour[nxt] == 1:
                    back.add((node, nxt))
                elif colour[nxt] == 0:
                    colour[nxt] = 1
                    stack.append((nxt, 0))
            else:
                colour[node] = 2
                stack.pop()
    return back


def _oriented(machine: m.Machine) -> list[tuple[str, str, tuple[str, str]]]:
    """Each pair as (upper, lower, pair): back edges turned round."""
    back = back_edges(machine)
    return [((b, a, (a, b)) if (a, b) in back else (a, b, (a, b))) for a, b in _edges(machine)]


def layers_of(machine: m.Machine) -> dict[str, int]:
    """Each state's layer: the longest path to it once back edges are turned round."""
    layer = {s.name: 0 for s in machine.states}
    oriented = _oriented(machine)
    for _ in machine.states:  # relaxation; the turned graph has no cycle
        changed = False
        for upper, lower, _pair in oriented:
            if layer[lower] < layer[upper] + 1:
                layer[lower] = layer[upper] + 1
                changed = True
        if not changed:
            break
    return layer


def _visit_order(machine: m.Machine) -> list[str]:
    """States breadth-first from the first state, then the rest in declaration order."""
    edges = _edges(machine)
    seen: list[str] = []
    for state in machine.states:
        if state.name in seen:
            continue
        queue = [state.name]
        seen.append(state.name)
        while queue:
            node = queue.pop(0)
            for a, b in edges:
                if a == node and b not in seen:
                    seen.append(b)
                    queue.append(b)
    return seen


@dataclass
class _Chain:
    """One arrow as the layout sees it: its upper end, a point per crossed layer, its lower end."""

    pair: tuple[str, str]
    nodes: list[str]


def _crossings(rows: list[list[str]], links: list[tuple[str, str]]) -> int:
    pos = {n: i for row in rows for i, n in enumerate(row)}
    level = {n: d for d, row in enumerate(rows) for n in row}
    total = 0
    by_level: dict[int, list[tuple[int, int]]] = {}
    for a, b in links:
        by_level.setdefault(level[a], []).append((pos[a], pos[b]))
    for segments in by_level.values():
        for i, (a1, b1) in enumerate(segments):
            for a2, b2 in segments[i + 1:]:
                if (a1 - a2) * (b1 - b2) < 0:
                    total += 1
    return total


def _order_rows(rows: list[list[str]], links: list[tuple[str, str]]) -> list[list[str]]:
    """Barycentre sweeps, down and up, keeping the order with the fewest crossings."""
    best = [list(r) for r in rows]
    best_count = _crossings(best, links)
    current = [list(r) for r in rows]
    for sweep in range(8):
        down = sweep % 2 == 0
        depths = range(1, len(current)) if down else range(len(current) - 2, -1, -1)
        for depth in depths:
            ref = current[depth - 1] if down else current[depth + 1]
            ref_pos = {n: i for i, n in enumerate(ref)}
            row = current[depth]

            def weight(node: str, row: list[str] = row, ref_pos: dict[str, int] = ref_pos,
                       down: bool = down) -> tuple[float, int]:
                near = [ref_pos[a] for a, b in links if b == node and a in ref_pos] if down else \
                    [ref_pos[b] for a, b in links if a == node and b in ref_pos]
                mean = sum(near) / len(near) if near else float(row.index(node))
                return mean, row.index(node)

            current[depth] = sorted(row, key=weight)
        count = _crossings(current, links)
        if count < best_count:
            best, best_count = [list(r) for r in current], count
    return best


def _place(rows: list[list[str]], widths: dict[str, float], gaps: dict[str, float],
           links: list[tuple[str, str]]) -> dict[str, float]:
    """Centre x of every node: near the mean of its neighbours, never overlapping."""
    centre: dict[str, float] = {}
    for row in rows:
        x = 0.0
        for n in row:
            centre[n] = x + widths[n] / 2
            x += widths[n] + gaps[n]
    full = max((centre[r[-1]] + widths[r[-1]] / 2 for r in rows if r), default=0.0)
    for row in rows:  # centre each row under the widest
        if row:
            shift = (full - (centre[row[-1]] + widths[row[-1]] / 2)) / 2
            for n in row:
                centre[n] += shift

    def settle(row: list[str], wanted: dict[str, float]) -> None:
        # as near its wish as the neighbours allow: packed from the left, packed from
        # the right, and the mean of the two (which keeps the order and the gaps)
        need = [widths[a] / 2 + gaps[a] + widths[b] / 2 for a, b in itertools.pairwise(row)]
        from_left: list[float] = []
        for i, n in enumerate(row):
            x = wanted[n] if not i else max(wanted[n], from_left[-1] + need[i - 1])
            from_left.append(x)
        from_right: list[float] = []
        for i in range(len(row) - 1, -1, -1):
            n = row[i]
            x = wanted[n] if not from_right else min(wanted[n], from_right[0] - need[i])
            from_right.insert(0, x)
        for n, x1, x2 in zip(row, from_left, from_right, strict=True):
            centre[n] = (x1 + x2) / 2

    for sweep in range(6):
        down = sweep % 2 == 0
        depths = range(1, len(rows)) if down else range(len(rows) - 2, -1, -1)
        for depth in depths:
            row = rows[depth]
            wanted: dict[str, float] = {}
            for n in row:
                near = [centre[a] for a, b in links if b == n] if down else \
                    [centre[b] for a, b in links if a == n]
                wanted[n] = sum(near) / len(near) if near else centre[n]
            settle(row, wanted)
    left = min((centre[n] - widths[n] / 2 for row in rows for n in row), default=0.0)
    return {n: x - left for n, x in centre.items()}


# ------------------------------------------------------------------ layout --


def _bezier(piece: tuple[Point, Point, Point, Point], t: float) -> Point:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = piece
    u = 1 - t
    return (u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3,
            u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3)


def layout(machine: m.Machine) -> Layout:
    """Where every state and transition of a machine is drawn."""
    layer = layers_of(machine)
    texts = {s.name: s.text for s in machine.states}
    loops: dict[str, list[m.Transition]] = {}
    for t in machine.transitions:
        if t.source == t.target:
            loops.setdefault(t.source, []).append(t)

    # rows of states, then a point for every layer an arrow crosses
    rows: list[list[str]] = [[] for _ in range(max(layer.values(), default=0) + 1)]
    for name in _visit_order(machine):
        rows[layer[name]].append(name)
    widths: dict[str, float] = {s.name: max(MIN_BOX_WIDTH, text_width(s.name) + 2 * BOX_PAD)
                                for s in machine.states}
    gaps: dict[str, float] = {s.name: BOX_GAP for s in machine.states}
    for name, own in loops.items():
        reach = LOOP_REACH + max(text_width(transition_label(t)) for t in own) + 12
        gaps[name] = max(BOX_GAP, reach)
    chains: list[_Chain] = []
    for k, (upper, lower, pair) in enumerate(_oriented(machine)):
        nodes = [upper]
        for depth in range(layer[upper] + 1, layer[lower]):
            point = f"\x00{k}:{depth}"
            widths[point], gaps[point] = POINT_WIDTH, POINT_GAP
            anchor = rows[depth - 1].index(nodes[-1]) if nodes[-1] in rows[depth - 1] else 0
            rows[depth].insert(min(anchor + 1, len(rows[depth])), point)
            nodes.append(point)
        nodes.append(lower)
        chains.append(_Chain(pair, nodes))
    links = [(c.nodes[i], c.nodes[i + 1]) for c in chains for i in range(len(c.nodes) - 1)]
    rows = _order_rows(rows, links)
    centre = _place(rows, widths, gaps, links)
    top = {n: depth * (BOX_HEIGHT + V_GAP) for depth, row in enumerate(rows) for n in row}

    boxes = {
        s.name: StateBox(s.name, texts[s.name], layer[s.name],
                         centre[s.name] - widths[s.name] / 2, top[s.name],
                         widths[s.name], BOX_HEIGHT)
        for s in machine.states
    }

    # ports: arrows leave the bottom of their upper box and enter the top of the lower
    out_ports: dict[str, list[int]] = {}
    in_ports: dict[str, list[int]] = {}
    for i, chain in enumerate(chains):
        out_ports.setdefault(chain.nodes[0], []).append(i)
        in_ports.setdefault(chain.nodes[-1], []).append(i)
    for ports in out_ports.values():
        ports.sort(key=lambda i: (centre[chains[i].nodes[1]], i))
    for ports in in_ports.values():
        ports.sort(key=lambda i: (centre[chains[i].nodes[-2]], i))

    def port(name: str, i: int, ports: dict[str, list[int]]) -> float:
        box = boxes[name]
        listed = ports[name]
        return box.x + box.width * (listed.index(i) + 1) / (len(listed) + 1)

    groups: dict[tuple[str, str], list[m.Transition]] = {}
    for t in machine.transitions:
        groups.setdefault((t.source, t.target), []).append(t)

    placed: list[Rect] = [(b.x - 3, b.y - 3, b.width + 6, b.height + 6) for b in boxes.values()]
    arrows: list[Arrow] = []
    bend = V_GAP * 0.5
    for pair, transitions in groups.items():
        a, b = pair
        labels = tuple(transition_label(t) for t in transitions)
        docs = tuple(t.doc or "" for t in transitions)
        pieces: list[tuple[Point, Point, Point, Point]] = []
        if a == b:
            kind = "self"
            box = boxes[a]
            r = box.x + box.width
            pieces.append(((r, box.cy - 8), (r + LOOP_REACH, box.cy - 30),
                           (r + LOOP_REACH, box.cy + 30), (r, box.cy + 8)))
            candidates = [(r + LOOP_REACH + max(text_width(t) for t in labels) / 2 + 6, box.cy)]
        else:
            i = next(k for k, c in enumerate(chains) if c.pair == pair)
            chain = chains[i]
            kind = "back" if chain.nodes[0] != a else "forward"
            upper, lower = chain.nodes[0], chain.nodes[-1]
            stops: list[tuple[float, float, float]] = [  # x, top y, bottom y of every stop
                (port(upper, i, out_ports), top[upper], top[upper] + BOX_HEIGHT)]
            stops.extend((centre[n], top[n], top[n] + BOX_HEIGHT) for n in chain.nodes[1:-1])
            stops.append((port(lower, i, in_ports), top[lower], top[lower] + BOX_HEIGHT))
            for (x1, _t1, y1), (x2, y2, _b2) in itertools.pairwise(stops):
                pieces.append(((x1, y1), (x1, y1 + bend), (x2, y2 - bend), (x2, y2)))
            # a crossed layer: straight down through the arrow's own point
            candidates = []
            for piece in (pieces if kind == "forward" else list(reversed(pieces))):
                for frac in (0.5, 0.35, 0.65, 0.2, 0.8):
                    candidates.append(_bezier(piece, frac))
        spot = None
        for step in (0, 1, -1, 2, -2, 3, -3):
            for x, y in candidates:
                rect = label_rect(labels, x, y + step * LINE_HEIGHT)
                if not any(overlaps(rect, other) for other in placed):
                    spot = (x, y + step * LINE_HEIGHT)
                    break
            if spot:
                break
        lx, ly = spot or candidates[0]
        placed.append(label_rect(labels, lx, ly))
        arrows.append(Arrow(a, b, kind, labels, docs, tuple(pieces), lx, ly))

    xs: list[float] = []
    ys: list[float] = []
    for x, y, w, h in placed:
        xs.extend((x, x + w))
        ys.extend((y, y + h))
    for arrow in arrows:
        for piece in arrow.pieces:
            xs.extend(p[0] for p in piece)
            ys.extend(p[1] for p in piece)
    min_x, min_y = min(xs, default=0) - MARGIN, min(ys, default=0) - MARGIN
    width, height = max(xs, default=0) + MARGIN - min_x, max(ys, default=0) + MARGIN - min_y
    return Layout(round(width, 1), round(height, 1), round(min_x, 1), round(min_y, 1),
                  tuple(boxes[s.name] for s in machine.states), tuple(arrows))


# ------------------------------------------------------------------ drawing --


def machine_svg(machine: m.Machine) -> str:
    """The machine as one `<svg>` element: valid XML, no external references."""
    lay = layout(machine)
    marker = f"arrow-{machine.name}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="machine-diagram" '
        f'id={quoteattr("diagram-" + machine.name)} data-machine={quoteattr(machine.name)} '
        f'width="{_n(lay.width)}" height="{_n(lay.height)}" '
        f'viewBox="{_n(lay.min_x)} {_n(lay.min_y)} {_n(lay.width)} {_n(lay.height)}" '
        f'role="img" aria-label={quoteattr("state machine " + machine.name)} '
        f'font-family={quoteattr(FONT)} font-size="{FONT_SIZE}">',
        f"<title>{escape('State machine ' + machine.name)}</title>",
        f'<defs><marker id={quoteattr(marker)} viewBox="0 0 10 10" refX="9" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#3b4a5a"/></marker></defs>',
    ]
    for arrow in lay.arrows:
        tooltip = "\n".join(
            f"{arrow.source} -> {arrow.target} on {label}" + (f": {doc}" if doc else "")
            for label, doc in zip(arrow.labels, arrow.docs, strict=True)
        )
        head = "marker-start" if arrow.head_at_start else "marker-end"
        dash = ' stroke-dasharray="5 3"' if arrow.kind == "back" else ""
        out.append(
            f'<g class="transition {arrow.kind}" data-source={quoteattr(arrow.source)} '
            f"data-target={quoteattr(arrow.target)}>"
            f"<title>{escape(tooltip)}</title>"
            f'<path d="{arrow.path()}" fill="none" stroke="#3b4a5a" stroke-width="1.4"{dash} '
            f'{head}="url(#{escape(marker)})"/>'
        )
        rx, ry, rw, rh = arrow.label_rect()
        out.append(f'<rect class="label-bg" x="{_n(rx)}" y="{_n(ry)}" width="{_n(rw)}" '
                   f'height="{_n(rh)}" rx="3" fill="#fffdf5" fill-opacity="0.9"/>')
        first = arrow.label_y - LINE_HEIGHT * (len(arrow.labels) - 1) / 2 + 4
        out.append(f'<text class="label" text-anchor="middle" fill="#7a3b00" '
                   f'x="{_n(arrow.label_x)}" y="{_n(first)}">')
        for i, label in enumerate(arrow.labels):
            dy = "0" if i == 0 else str(LINE_HEIGHT)
            out.append(f'<tspan x="{_n(arrow.label_x)}" dy="{dy}">{escape(label)}</tspan>')
        out.append("</text></g>")
    initial = machine.states[0].name if machine.states else None
    for box in lay.boxes:
        first_state = box.name == initial
        out.append(
            f'<g class="{"state initial" if first_state else "state"}" '
            f"id={quoteattr(state_anchor(machine.name, box.name))} "
            f"data-state={quoteattr(box.name)}>"
            f"<title>{escape(box.name + ': ' + box.text)}</title>"
            f'<rect x="{_n(box.x)}" y="{_n(box.y)}" width="{_n(box.width)}" '
            f'height="{_n(box.height)}" rx="8" fill="{"#dcebff" if first_state else "#eef4fb"}" '
            f'stroke="#2a5d9f" stroke-width="{"2.4" if first_state else "1.4"}"/>'
            f'<text x="{_n(box.cx)}" y="{_n(box.cy + 4)}" text-anchor="middle" '
            f'fill="#10243e">{escape(box.name)}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out)


def machine_mermaid(machine: m.Machine) -> str:
    """The machine as a Mermaid state diagram, for the Markdown document."""
    lines = ["stateDiagram-v2"]
    if machine.states:
        lines.append(f"    [*] --> {machine.states[0].name}")
    groups: dict[tuple[str, str], list[str]] = {}
    for t in machine.transitions:
        groups.setdefault((t.source, t.target), []).append(transition_label(t))
    for (a, b), labels in groups.items():
        lines.append(f"    {a} --> {b} : {' / '.join(labels)}")
    return "\n".join(lines)
