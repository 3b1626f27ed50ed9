"""matplotlib's SVG made lighter for WeasyPrint to print: fewer nodes, no CSS to parse per node.

WeasyPrint's SVG renderer is Python walking the tree: each node costs a graphics state and a style
cascade, and each ``style="…"`` attribute is parsed with tinycss2. matplotlib wraps almost every
element in a ``<g id="…">`` of its own (three groups in four nodes) and writes every colour and
stroke as an inline style. Here, for printing only:

- groups that carry nothing but an id are replaced by their children (ids of groups are never
  referenced: ``<use>`` and ``clip-path`` point at paths and clip paths);
- inline styles become presentation attributes, and the one rule of matplotlib's stylesheet
  (``*{stroke-linejoin: round; stroke-linecap: butt}``) is written on every shape that does not set
  those itself, which is what the rule did (an author rule beats a presentation attribute, an inline
  style beats both; groups draw no stroke of their own); if any element has a property that is not a
  presentation attribute, or the SVG has any other stylesheet, no style is touched;
- the metadata and empty ``<defs>`` go.

What the page shows does not change (a test prints charts both ways and compares the pages); the
printing takes a fifth less time. Anything that does not parse is returned as it came.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
ET.register_namespace("", _SVG_NS)
ET.register_namespace("xlink", _XLINK_NS)

#: Properties matplotlib writes in inline styles that SVG also accepts as presentation attributes.
_PRESENTATION = frozenset({
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
    "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity",
    "clip-rule", "font-family", "font-size", "font-weight", "font-style", "text-anchor",
})
#: Elements that draw a stroke (``use`` draws the shape it points at, which gets the rule too).
_SHAPES = frozenset({"path", "use", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text"})
_STAR_RULE = re.compile(r"^\s*\*\s*\{([^{}]*)\}\s*$")


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _declarations(text: str) -> dict[str, str] | None:
    """``a: 1; b: 2`` as a dict; None when a declaration is not a presentation property."""
    declared = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        name, colon, value = part.partition(":")
        name = name.strip()
        if not colon or name not in _PRESENTATION or not value.strip():
            return None
        declared[name] = value.strip()
    return declared


def _star_rule(root: ET.Element) -> dict[str, str] | None:
    """The declarations of matplotlib's stylesheet (``{}`` without one), or None when the SVG has a
    stylesheet that is anything else (its rules are then left to WeasyPrint)."""
    sheets = [element for element in root.iter() if _tag(element) == "style"]
    if not sheets:
        return {}
    if len(sheets) > 1:
        return None
    match = _STAR_RULE.match(sheets[0].text or "")
    return _declarations(match.group(1)) if match else None


def lighter(svg: bytes) -> bytes:
    """``svg`` (matplotlib's, labels already text) as a lighter tree that prints the same."""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return svg
    _flatten(root)  # first: a group is dropped only when nothing but an id is on it
    _as_attributes(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=False)


def _as_attributes(root: ET.Element) -> None:
    """Inline styles and matplotlib's one stylesheet rule as presentation attributes, or, when any
    element or stylesheet holds more than that, nothing changed."""
    star = _star_rule(root)
    elements = [element for element in root.iter() if _tag(element) != "style"]
    own = [_declarations(element.attrib.get("style", "")) for element in elements]
    if star is None or any(declared is None for declared in own):
        return
    for element, declared in zip(elements, own):
        element.attrib.pop("style", None)
        # the rule's properties (stroke joins and caps) only change how a shape's stroke is drawn
        ruled = star if _tag(element) in _SHAPES else {}
        for name, value in {**ruled, **declared}.items():
            element.set(name, value)
    for parent in list(root.iter()):
        parent[:] = [child for child in parent if _tag(child) != "style"]


def _flatten(parent: ET.Element) -> None:
    kept = []
    for child in list(parent):
        _flatten(child)
        tag = _tag(child)
        if tag == "g" and set(child.attrib) <= {"id"}:
            kept.extend(child)  # its children, in order, in its place
        elif tag == "metadata" or (tag == "defs" and len(child) == 0):
            continue
        else:
            kept.append(child)
    parent[:] = kept
