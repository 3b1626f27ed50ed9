"""Charts made lighter for printing: fewer nodes and no inline CSS, and the same printed page."""

from __future__ import annotations

import base64
import io
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

import pytest

from mlperf_report.assemble import page, pdf_print, print_svg, svg_tree

NS = "{http://www.w3.org/2000/svg}"


def _chart() -> str:
    """A house-style chart with what matters here: id-only groups everywhere, clipped grid lines
    with round caps, thick lines with butt (the stylesheet's) and square caps, markers drawn by
    ``<use>``, a dashed line, labels in Latin and Chinese, a legend outside the axes."""
    from mlperf_report.analysis import style

    with style.house_style("zh-Hant"):
        fig = style.figure(6)
        ax = fig.subplots()
        ax.barh(["Dell PowerEdge XE9680", "超微 SYS-821GE", "Acme"], [3.5, 12.25, 7.0], color="#0b5cad")
        ax.plot([1, 11], [0, 2], linewidth=6, color="#d1495b", marker="o", markersize=9, label="分鐘")
        ax.plot([1, 11], [2, 0], linewidth=6, color="#00798c", solid_capstyle="projecting", linestyle="--",
                label="minutes")
        ax.set_title("Time to train · 訓練時間")
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        return style.to_svg(fig)


def _printed(svg: str) -> bytes:
    resources: dict = {}
    html = f'<img src="data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()}">'
    print_svg.charts_for_print(html, resources)
    return next(iter(resources.values()))[0]


def test_id_only_groups_metadata_and_inline_styles_are_gone_and_the_stylesheet_rule_is_on_every_shape():
    light = ElementTree.fromstring(_printed(_chart()))
    elements = list(light.iter())
    assert not [e for e in elements if e.tag == NS + "g" and set(e.attrib) <= {"id"}]
    assert not [e for e in elements if e.tag in (NS + "metadata", NS + "style")]
    assert not [e for e in elements if "style" in e.attrib]
    shapes = [e for e in elements if e.tag in (NS + "path", NS + "use")]
    assert shapes and all(e.get("stroke-linejoin") for e in shapes)
    caps = {e.get("stroke-linecap") for e in shapes}
    assert {"butt", "round", "square"} <= caps  # the rule's default and each line's own
    assert [e for e in elements if e.tag == NS + "text"]  # labels as text survive
    heavy = ElementTree.fromstring(print_svg.drop_definitions(print_svg.glyphs_to_text(_chart())[0], set()))
    assert len(elements) < 0.6 * len(list(heavy.iter()))


def test_what_it_cannot_rewrite_exactly_is_left_as_it_was():
    foreign_rule = ('<svg xmlns="http://www.w3.org/2000/svg"><style>path{stroke: red}</style>'
                    '<g id="a"><path style="fill: blue" d="M 0 0 L 1 1"/></g></svg>')
    light = svg_tree.lighter(foreign_rule.encode()).decode()
    assert 'style="fill: blue"' in light and "path{stroke: red}" in light and '<g id="a"' not in light
    unknown_property = ('<svg xmlns="http://www.w3.org/2000/svg"><path style="fill: blue; mix-blend-mode: multiply" '
                        'd="M 0 0 L 1 1"/><path style="fill: red" d="M 0 0 L 2 2"/></svg>')
    assert svg_tree.lighter(unknown_property.encode()).decode().count("style=") == 2
    kept_group = '<svg xmlns="http://www.w3.org/2000/svg"><g id="a" transform="scale(2)"><path d="M 0 0 L 1 1"/></g></svg>'
    assert 'transform="scale(2)"' in svg_tree.lighter(kept_group.encode()).decode()
    assert svg_tree.lighter(b"<svg><g>") == b"<svg><g>"


def _page(svg: bytes, tmp_path, name: str) -> bytes:
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm not installed (Debian poppler-utils; `make system-deps` installs it)")
    faces = page.page_fonts("", "Time to train 訓練時間 分鐘 minutes Dell PowerEdge XE9680 超微 SYS-821GE Acme 0123456789.",
                                tmp_path)
    css = "".join(f'@font-face {{ font-family: "{face.family}"; font-weight: {face.weight}; '
                  f'src: url({face.uri}) format("woff"); }}' for face in faces)
    html = f'<style>{css} @page {{ size: A4; margin: 10mm }}</style><img src="{print_svg.SCHEME}c" style="width:160mm">'
    (tmp_path / f"{name}.pdf").write_bytes(pdf_print.render_pdf(html, {"c": (svg, "image/svg+xml")}))
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-singlefile", str(tmp_path / f"{name}.pdf"),
                    str(tmp_path / name)], check=True, timeout=60)
    return (tmp_path / f"{name}.png").read_bytes()


def test_the_lighter_chart_prints_the_same_page(tmp_path):
    heavy = print_svg.drop_definitions(print_svg.glyphs_to_text(_chart())[0], set()).encode()
    light = _printed(_chart())
    assert light != heavy
    assert _page(light, tmp_path, "light") == _page(heavy, tmp_path, "heavy")
    assert _page(light, tmp_path, "light") != _page(light.replace(b'stroke-linecap="square"', b'stroke-linecap="butt"'),
                                                    tmp_path, "butt")  # the page shows caps: the comparison can fail
