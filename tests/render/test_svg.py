"""The state-machine drawing: a small machine fragment laid out and drawn as SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from baloot.backends.document.svg import (
    back_edges,
    layers_of,
    layout,
    machine_mermaid,
    machine_svg,
    overlaps,
    transition_label,
)
from baloot.grammar import model as m
from baloot.grammar.parser import assemble, parse_text

SVG = "{http://www.w3.org/2000/svg}"

FRAGMENT = """
clause BID.1 "A clause."
machine Stage [BID.1] "A bidding fragment, with a loop, a self loop and a long arrow." {
  state open_bidding "Nobody has bid <yet> & all may."
  state answering "A hokum bid stands."
  state choosing "The bidder chooses."
  state raising "Raises."
  state redeal "All passed."
  open_bidding -> answering on bid_hokum [BID.1] "a hokum bid"
  open_bidding -> raising on bid_sun, bid_ashkal
  open_bidding -> redeal on all_pass
  answering -> choosing on all_pass
  choosing -> raising on stay_hokum
  choosing -> raising on switch_sun
  raising -> raising on double_raise
  redeal -> open_bidding on deal "the same dealer deals again"
}
"""


@pytest.fixture(scope="module")
def machine() -> m.Machine:
    spec = assemble(parse_text(FRAGMENT, "fragment.baloot"), [("fragment.baloot", FRAGMENT)])
    return spec.machine("Stage")


def test_svg_is_valid_xml_with_every_state_and_transition(machine: m.Machine) -> None:
    root = ET.fromstring(machine_svg(machine))
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width", "0")) > 0 and float(root.get("height", "0")) > 0
    states = {g.get("data-state"): g for g in root.iter(f"{SVG}g")
              if "state" in (g.get("class") or "").split()}
    assert set(states) == {s.name for s in machine.states}
    for state in machine.states:
        group = states[state.name]
        texts = ["".join(t.itertext()) for t in group.iter(f"{SVG}text")]
        assert texts == [state.name]
        assert group.find(f"{SVG}rect") is not None
        assert state.text in "".join(group.find(f"{SVG}title").itertext())  # type: ignore[union-attr]

    arrows = [g for g in root.iter(f"{SVG}g") if "transition" in (g.get("class") or "").split()]
    pairs = list(dict.fromkeys((t.source, t.target) for t in machine.transitions))
    assert [(g.get("data-source"), g.get("data-target")) for g in arrows] == pairs
    for group, (source, target) in zip(arrows, pairs, strict=True):
        labels = [t.text for t in group.iter(f"{SVG}tspan")]
        expected = [transition_label(t) for t in machine.transitions
                    if (t.source, t.target) == (source, target)]
        assert labels == expected
        path = group.find(f"{SVG}path")
        assert path is not None and path.get("d", "").startswith("M")
        assert "url(#arrow-Stage)" in (path.get("marker-end") or path.get("marker-start") or "")
    # the two transitions choosing -> raising share one arrow with two label lines
    assert ["stay_hokum", "switch_sun"] in [[t.text for t in g.iter(f"{SVG}tspan")]
                                            for g in arrows]
    assert "bid_sun, bid_ashkal" in [t.text for t in root.iter(f"{SVG}tspan")]


def test_text_is_escaped(machine: m.Machine) -> None:
    svg = machine_svg(machine)
    assert "&lt;yet&gt; &amp; all may" in svg
    assert "<yet>" not in svg


def test_layers_and_cycles(machine: m.Machine) -> None:
    assert back_edges(machine) == {("redeal", "open_bidding")}
    layer = layers_of(machine)
    assert layer["open_bidding"] == 0
    assert layer["answering"] == 1 and layer["redeal"] == 1
    assert layer["choosing"] == 2 and layer["raising"] == 3
    for t in machine.transitions:
        if t.source != t.target and (t.source, t.target) not in back_edges(machine):
            assert layer[t.target] > layer[t.source]


def test_layout_keeps_boxes_and_labels_apart(machine: m.Machine) -> None:
    lay = layout(machine)
    boxes = list(lay.boxes)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlaps(a.rect, b.rect), (a.name, b.name)
    labels = [arrow.label_rect() for arrow in lay.arrows]
    for i, label in enumerate(labels):
        for other in labels[i + 1:]:
            assert not overlaps(label, other)
        for box in boxes:
            assert not overlaps(label, box.rect)
    # everything lies inside the drawing
    for box in boxes:
        assert lay.min_x <= box.x and box.x + box.width <= lay.min_x + lay.width
        assert lay.min_y <= box.y and box.y + box.height <= lay.min_y + lay.height


def test_long_arrow_goes_round_the_boxes_between(machine: m.Machine) -> None:
    lay = layout(machine)
    arrow = next(a for a in lay.arrows if (a.source, a.target) == ("open_bidding", "raising"))
    between = [b for b in lay.boxes if b.name not in ("open_bidding", "raising")]
    for piece in arrow.pieces:
        for k in range(1, 20):
            t = k / 20
            u = 1 - t
            x = sum(c * p[0] for c, p in zip((u**3, 3 * u * u * t, 3 * u * t * t, t**3), piece,
                                             strict=True))
            y = sum(c * p[1] for c, p in zip((u**3, 3 * u * u * t, 3 * u * t * t, t**3), piece,
                                             strict=True))
            for box in between:
                assert not (box.x < x < box.x + box.width and box.y < y < box.y + box.height), \
                    (box.name, x, y)


def test_arrows_touch_their_boxes(machine: m.Machine) -> None:
    lay = layout(machine)
    for arrow in lay.arrows:
        if arrow.kind == "self":
            continue
        start, end = arrow.pieces[0][0], arrow.pieces[-1][3]
        upper, lower = (arrow.target, arrow.source) if arrow.kind == "back" else \
            (arrow.source, arrow.target)
        assert start[1] == lay.box(upper).y + lay.box(upper).height
        assert end[1] == lay.box(lower).y
        assert lay.box(upper).x <= start[0] <= lay.box(upper).x + lay.box(upper).width


def test_drawing_is_deterministic(machine: m.Machine) -> None:
    assert machine_svg(machine) == machine_svg(machine)


def test_mermaid(machine: m.Machine) -> None:
    text = machine_mermaid(machine)
    assert text.splitlines()[:2] == ["stateDiagram-v2", "    [*] --> open_bidding"]
    assert "    choosing --> raising : stay_hokum / switch_sun" in text


def test_a_machine_of_one_state() -> None:
    text = 'clause BID.1 "x"\nmachine One [BID.1] { state only "the only state" }\n'
    spec = assemble(parse_text(text, "one.baloot"), [("one.baloot", text)])
    root = ET.fromstring(machine_svg(spec.machine("One")))
    assert [g.get("data-state") for g in root.iter(f"{SVG}g")] == ["only"]
