"""Flattening Qt's SVG: every shape's points in page units, strokes as wide as written, text kept as text."""

import xml.etree.ElementTree as ET

import pytest

from amdahl_desk.ui.charts.flat_svg import flatten, map_path, multiply, parse_transform

pytestmark = pytest.mark.gui

NS = "{http://www.w3.org/2000/svg}"


def svg(body: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<svg width="100" height="50" viewBox="0 0 100 50" xmlns="http://www.w3.org/2000/svg" '
        'xmlns:xlink="http://www.w3.org/1999/xlink" version="1.2" baseProfile="tiny">'
        f'<g fill="none" stroke="black" stroke-width="1">{body}</g></svg>'
    ).encode()


def only(root, tag):
    (element,) = root.iter(NS + tag)
    return element


def numbers(text):
    return [float(v) for v in text.replace(",", " ").replace("M", " ").replace("L", " ").replace("C", " ").split()]


def test_a_curve_in_data_units_comes_out_in_page_units_at_its_written_width():
    # x from 0..2 drawn over 10..90 px (scale 40), y 1..3 upwards over 45..5 px (scale -20, offset 65)
    body = (
        '<g stroke="#1f5fa8" stroke-width="4.4" transform="matrix(40,0,0,-20,10,65)">'
        '<path vector-effect="non-scaling-stroke" fill-rule="evenodd" d="M0,1 L1,2 L2,3"/></g>'
    )
    root = ET.fromstring(flatten(svg(body)))
    path = only(root, "path")
    assert numbers(path.get("d")) == [10, 45, 50, 25, 90, 5]
    assert path.get("vector-effect") is None and path.get("stroke-width") is None  # 4.4 px, as the group says
    assert all(g.get("transform") is None for g in root.iter(NS + "g"))
    outer, inner = root.iter(NS + "g")
    assert (outer.get("stroke"), inner.get("stroke")) == ("black", "#1f5fa8")  # styles stay where Qt wrote them


def test_polylines_rects_and_ellipses_are_mapped():
    body = (
        '<g transform="matrix(2,0,0,3,5,7)">'
        '<polyline vector-effect="non-scaling-stroke" points="0,0 10,1 "/>'
        '<rect x="1" y="1" width="2" height="-1"/>'
        '<ellipse cx="0" cy="0" rx="1" ry="1"/></g>'
    )
    root = ET.fromstring(flatten(svg(body)))
    assert numbers(only(root, "polyline").get("points")) == [5, 7, 25, 10]
    rect = only(root, "rect")
    # corners (1,1) and (3,0) go to (7,10) and (11,7)
    assert [float(rect.get(k)) for k in ("x", "y", "width", "height")] == [7, 7, 4, 3]
    ellipse = only(root, "path")  # an ellipse becomes its four arcs, mapped
    xs, ys = numbers(ellipse.get("d").replace("Z", ""))[0::2], numbers(ellipse.get("d").replace("Z", ""))[1::2]
    assert (min(xs), max(xs), min(ys), max(ys)) == (3, 7, 4, 10)  # centre (5, 7), radii 2 and 3


def test_a_stroke_in_the_shapes_own_units_is_scaled_to_page_units():
    body = (
        '<g stroke-width="0.5" stroke-dasharray="2,1" transform="matrix(4,0,0,4,0,0)"><polyline points="0,0 10,0"/></g>'
    )
    line = only(ET.fromstring(flatten(svg(body))), "polyline")
    assert float(line.get("stroke-width")) == 2 and line.get("stroke-dasharray") == "8,4"


def test_text_and_images_keep_their_transform_nested_groups_compose():
    body = (
        '<g transform="matrix(1,0,0,1,10,20)"><g transform="matrix(0,-1,1,0,0,0)">'
        '<text x="1" y="2" font-size="12">GPUs N</text>'
        '<polyline vector-effect="non-scaling-stroke" points="1,0 "/></g></g>'
    )
    root = ET.fromstring(flatten(svg(body)))
    text = only(root, "text")
    assert text.text == "GPUs N" and parse_transform(text.get("transform")) == pytest.approx((0, -1, 1, 0, 10, 20))
    assert numbers(only(root, "polyline").get("points")) == [10, 19]  # (1, 0) rotated to (0, -1), then moved


def test_path_commands_resolved_to_absolute_ones():
    identity = lambda x, y: (x, y)  # noqa: E731
    assert map_path("M1,1 h2 v3 l-1,0 z", identity) == "M1,1 L3,1 L3,4 L2,4 Z"
    assert map_path("M0 0 1 1", identity) == "M0,0 L1,1"  # a moveto's further pairs are lines
    assert map_path("M1e1,2.5E-1 C0,0 1,1 2,2", identity) == "M10,0.25 C0,0 1,1 2,2"
    with pytest.raises(ValueError, match="cannot be flattened"):
        map_path("M0,0 A1,1 0 0 1 2,2", identity)


def test_transforms_compose_child_first():
    translate, scale = parse_transform("translate(10,0)"), parse_transform("scale(2)")
    assert multiply(translate, scale) == (2, 0, 0, 2, 10, 0)  # scale, then move
    assert parse_transform("translate(10,0) scale(2)") == (2, 0, 0, 2, 10, 0)
    with pytest.raises(ValueError):
        parse_transform("skewX(30)")


def test_the_declaration_and_namespaces_survive():
    out = flatten(svg('<g transform="matrix(1,0,0,1,0,0)"><text x="0" y="0" xml:space="preserve"> a  b </text></g>'))
    assert out.startswith(b'<?xml version="1.0" encoding="UTF-8"')
    assert b"<svg " in out and b"ns0:" not in out and b'xml:space="preserve"> a  b </text>' in out


def test_parts_are_drawn_over_the_document_moved_and_clipped():
    from amdahl_desk.ui.charts.flat_svg import Part

    part = svg(
        '<defs><linearGradient id="g1"/></defs><g fill="url(#g1)" transform="matrix(10,0,0,10,0,0)">'
        '<polyline vector-effect="non-scaling-stroke" points="0,0 1,1"/></g>'
    )
    root = ET.fromstring(flatten(svg(""), [Part(part, 5, 7), Part(part, 50, 0, (50, 0, 4, 4))]))
    first, second = (numbers(p.get("points")) for p in root.iter(NS + "polyline"))
    assert first == [5, 7, 15, 17] and second == [50, 0, 60, 10]
    (clip,) = root.iter(NS + "clipPath")
    assert [clip.find(NS + "rect").get(k) for k in ("x", "y", "width", "height")] == ["50", "0", "4", "4"]
    (clipped,) = (g for g in root.iter(NS + "g") if g.get("clip-path"))
    assert clipped.get("clip-path") == f"url(#{clip.get('id')})" and list(clipped.iter(NS + "polyline"))
    assert root.get("version") == "1.1" and root.get("baseProfile") is None  # SVG Tiny has no clipping
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)) == 3  # each part's gradient and the clip, each named once
    fills = [g.get("fill") for g in root.iter(NS + "g") if (g.get("fill") or "").startswith("url")]
    assert sorted(fills) == sorted(f"url(#{i})" for i in ids if i != clip.get("id"))
