"""SVG that every renderer draws alike: Qt's SVG with each group's transform applied to the points it holds.

Qt's SVG generator writes a plot's curves in data coordinates under the plot's transform (a scale
of hundreds, or of 1/1,000) and keeps their strokes a pixel or two wide with
``vector-effect="non-scaling-stroke"``. Browsers honour that; rsvg-convert, CairoSVG, Inkscape's
previews and office suites' SVG import do not, and draw the curves hundreds of pixels wide — blobs
over the chart. :func:`flatten` maps every shape's points to output coordinates, so the stroke
widths Qt wrote are page units for any renderer, and drops the transforms and the vector effect.
Text and images keep their transform on themselves: renderers agree on those, and the text stays text.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_SVG = f"{{{SVG_NS}}}"

Matrix = tuple[float, float, float, float, float, float]  # a, b, c, d, e, f as in SVG's matrix()
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_TRANSFORM = re.compile(r"([A-Za-z]+)\s*\(([^)]*)\)")
_PATH_TOKEN = re.compile(rf"([A-Za-z])|({_NUMBER})")
_NUMBERS = re.compile(_NUMBER)
_ARGS = {"M": 2, "L": 2, "T": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "Z": 0}
# Shapes whose geometry is mapped; text and images keep a transform of their own.
_SHAPES = {"path", "polyline", "polygon", "rect", "line", "ellipse", "circle"}
_GEOMETRY = ("x", "y", "width", "height", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "points", "d")


@dataclass(frozen=True)
class Part:
    """An SVG painted apart, drawn over the document with its origin at ``(x, y)``, within ``clip`` if given."""

    svg: bytes
    x: float
    y: float
    clip: tuple[float, float, float, float] | None = None  # x, y, width, height in the document's coordinates


def flatten(svg: bytes, parts: Sequence[Part] = ()) -> bytes:
    """``svg`` (as Qt writes it) with every shape in output coordinates and no group transforms left.

    Each of ``parts`` is flattened in place and drawn over ``svg`` in turn, its ids made unique, so
    that a picture painted in pieces is one document. A clipped part makes the document SVG 1.1
    (SVG Tiny has no clipping).
    """
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    root = ET.fromstring(svg)
    _walk(root, IDENTITY, _Stroke(1.0, None, 0.0))
    for i, part in enumerate(parts, start=1):
        piece = ET.fromstring(_prefix_ids(part.svg, f"part{i}-"))
        _walk(piece, (1.0, 0.0, 0.0, 1.0, part.x, part.y), _Stroke(1.0, None, 0.0))
        drawn = [e for e in piece if e.tag not in (_SVG + "title", _SVG + "desc")]
        if part.clip is None:
            root.extend(drawn)
            continue
        clip = ET.SubElement(root, _SVG + "clipPath", {"id": f"part{i}-clip"})
        x, y, w, h = part.clip
        ET.SubElement(clip, _SVG + "rect", {"x": _num(x), "y": _num(y), "width": _num(w), "height": _num(h)})
        ET.SubElement(root, _SVG + "g", {"clip-path": f"url(#part{i}-clip)"}).extend(drawn)
        root.set("version", "1.1")
        root.attrib.pop("baseProfile", None)
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="unicode")).encode()


def _prefix_ids(svg: bytes, prefix: str) -> bytes:
    text = svg.decode("utf-8")
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', text)
    text = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", text)
    text = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}{m.group(1)}"', text)
    return text.encode("utf-8")


class _Stroke:
    """The stroke width and dashes an element inherits, to scale a stroke that is not a screen stroke."""

    def __init__(self, width: float, dashes: list[float] | None, offset: float) -> None:
        self.width, self.dashes, self.offset = width, dashes, offset

    def under(self, element: ET.Element) -> _Stroke:
        width, dashes, offset = self.width, self.dashes, self.offset
        if (w := element.get("stroke-width")) is not None:
            width = _float(w)
        if (d := element.get("stroke-dasharray")) is not None:
            dashes = None if d.strip() == "none" else [float(v) for v in _NUMBERS.findall(d)]
        if (o := element.get("stroke-dashoffset")) is not None:
            offset = _float(o)
        return _Stroke(width, dashes, offset)


def _walk(parent: ET.Element, ctm: Matrix, stroke: _Stroke) -> None:
    for element in parent:
        tag = element.tag.removeprefix(_SVG)
        own = parse_transform(element.attrib.pop("transform", ""))
        m = multiply(ctm, own)
        inherited = stroke.under(element)
        if tag in ("g", "a", "switch", "defs", "clipPath"):  # a clip path is drawn in its user's coordinates
            _walk(element, m, inherited)
        elif tag in _SHAPES:
            _map_shape(element, tag, m, inherited)
        elif tag in ("title", "desc", "metadata", "style"):
            if own != IDENTITY:
                element.set("transform", _matrix_text(own))
        elif m != IDENTITY:
            element.set("transform", _matrix_text(m))  # text, images: drawn alike everywhere under a transform


def _map_shape(element: ET.Element, tag: str, m: Matrix, stroke: _Stroke) -> None:
    screen_stroke = element.attrib.pop("vector-effect", "none") == "non-scaling-stroke"
    if m == IDENTITY:
        return
    if not screen_stroke:
        # A stroke drawn in the shape's own units grows with the transform; in output units it is this wide.
        scale = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        if scale != 1.0:
            element.set("stroke-width", _num(stroke.width * scale))
            if stroke.dashes:
                element.set("stroke-dasharray", ",".join(_num(v * scale) for v in stroke.dashes))
                element.set("stroke-dashoffset", _num(stroke.offset * scale))
    point = _mapper(m)
    if tag == "path":
        element.set("d", map_path(element.get("d", ""), point))
    elif tag in ("polyline", "polygon"):
        values = [float(v) for v in _NUMBERS.findall(element.get("points", ""))]
        mapped = (point(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2))
        element.set("points", " ".join(f"{_num(x)},{_num(y)}" for x, y in mapped))
    elif tag == "line":
        x1, y1 = point(_float(element.get("x1")), _float(element.get("y1")))
        x2, y2 = point(_float(element.get("x2")), _float(element.get("y2")))
        for key, value in (("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)):
            element.set(key, _num(value))
    elif tag == "rect":
        x, y = _float(element.get("x")), _float(element.get("y"))
        w, h = _float(element.get("width")), _float(element.get("height"))
        corners = [point(x, y), point(x + w, y), point(x + w, y + h), point(x, y + h)]
        if _keeps_axes(m) and not (element.get("rx") or element.get("ry")):
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            for key, value in (
                ("x", min(xs)),
                ("y", min(ys)),
                ("width", max(xs) - min(xs)),
                ("height", max(ys) - min(ys)),
            ):
                element.set(key, _num(value))
        else:
            _as_path(element, "M" + " L".join(f"{_num(cx)},{_num(cy)}" for cx, cy in corners) + " Z")
    else:  # ellipse, circle
        cx, cy = _float(element.get("cx")), _float(element.get("cy"))
        rx = _float(element.get("rx", element.get("r")))
        ry = _float(element.get("ry", element.get("r")))
        _as_path(element, map_path(_ellipse_path(cx, cy, rx, ry), point))


def _as_path(element: ET.Element, d: str) -> None:
    for key in _GEOMETRY:
        element.attrib.pop(key, None)
    element.tag = _SVG + "path"
    element.set("d", d)


def _ellipse_path(cx: float, cy: float, rx: float, ry: float) -> str:
    """An ellipse as four cubic arcs (as Qt draws one), which any affine map keeps exact enough."""
    k = 0.5522847498
    return (
        f"M{cx + rx},{cy} C{cx + rx},{cy + k * ry} {cx + k * rx},{cy + ry} {cx},{cy + ry} "
        f"C{cx - k * rx},{cy + ry} {cx - rx},{cy + k * ry} {cx - rx},{cy} "
        f"C{cx - rx},{cy - k * ry} {cx - k * rx},{cy - ry} {cx},{cy - ry} "
        f"C{cx + k * rx},{cy - ry} {cx + rx},{cy - k * ry} {cx + rx},{cy} Z"
    )


def map_path(d: str, point: Callable[[float, float], tuple[float, float]]) -> str:
    """Path data ``d`` with each point mapped, written as absolute M, L, C, Q and Z commands.

    Relative commands, H, V and the shorthand curves are resolved on the way (a rotation makes a
    horizontal line slanted); arcs are refused, as Qt never writes them.
    """
    out: list[str] = []
    x = y = start_x = start_y = 0.0
    for command, args in _commands(d):
        upper = command.upper()
        relative = command != upper
        if upper == "Z":
            out.append("Z")
            x, y = start_x, start_y
            continue
        n = _ARGS[upper]
        for i in range(0, len(args), n):
            a = args[i : i + n]
            if upper == "H":
                a = [a[0] + (x if relative else 0.0), y]
            elif upper == "V":
                a = [x, a[0] + (y if relative else 0.0)]
            elif relative:
                a = [v + (x if j % 2 == 0 else y) for j, v in enumerate(a)]
            pairs = [(a[j], a[j + 1]) for j in range(0, len(a), 2)]
            letter = {"H": "L", "V": "L", "S": "C", "T": "Q"}.get(upper, upper)
            if upper in ("S", "T"):
                pairs.insert(0, (x, y))  # the shorthand's first control point, taken as the current point
            if upper == "M" and i > 0:
                letter = "L"  # a moveto's further pairs are linetos
            out.append(letter + " ".join(f"{_num(px)},{_num(py)}" for px, py in (point(*p) for p in pairs)))
            x, y = pairs[-1]
            if letter == "M":
                start_x, start_y = x, y
    return " ".join(out)


def _commands(d: str) -> Iterator[tuple[str, list[float]]]:
    command: str | None = None
    args: list[float] = []
    for letter, number in _PATH_TOKEN.findall(d):
        if letter:
            if command is not None:
                yield command, args
            if letter.upper() not in _ARGS:
                raise ValueError(f'SVG path command "{letter}" cannot be flattened (Qt writes M, L, C and Z)')
            command, args = letter, []
        elif command is None:
            raise ValueError(f"SVG path data starts with a number: {d[:40]!r}")
        else:
            args.append(float(number))
    if command is not None:
        yield command, args


def parse_transform(text: str) -> Matrix:
    """The matrix of an SVG ``transform`` attribute (matrix, translate, scale and rotate, composed left to right)."""
    m = IDENTITY
    for name, raw in _TRANSFORM.findall(text):
        v = [float(x) for x in _NUMBERS.findall(raw)]
        if name == "matrix" and len(v) == 6:
            step: Matrix = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate" and v:
            step = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale" and v:
            step = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
        elif name == "rotate" and len(v) == 1:
            c, s = math.cos(math.radians(v[0])), math.sin(math.radians(v[0]))
            step = (c, s, -s, c, 0.0, 0.0)
        else:
            raise ValueError(f"SVG transform {name}({raw}) cannot be flattened")
        m = multiply(m, step)
    return m


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """The matrix that applies ``n`` first, then ``m`` (an element's transform under its parent's)."""
    a, b, c, d, e, f = m
    return (
        a * n[0] + c * n[1],
        b * n[0] + d * n[1],
        a * n[2] + c * n[3],
        b * n[2] + d * n[3],
        a * n[4] + c * n[5] + e,
        b * n[4] + d * n[5] + f,
    )


def _mapper(m: Matrix) -> Callable[[float, float], tuple[float, float]]:
    a, b, c, d, e, f = m
    return lambda x, y: (a * x + c * y + e, b * x + d * y + f)


def _keeps_axes(m: Matrix) -> bool:
    return (m[1] == 0 and m[2] == 0) or (m[0] == 0 and m[3] == 0)


def _float(text: str | None) -> float:
    return float(_NUMBERS.findall(text or "0")[0]) if _NUMBERS.search(text or "0") else 0.0


def _num(value: float) -> str:
    """Output coordinates to 1/1,000 of a pixel, without trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _matrix_text(m: Matrix) -> str:
    return "matrix(" + ",".join(f"{v:.6g}" for v in m) + ")"
