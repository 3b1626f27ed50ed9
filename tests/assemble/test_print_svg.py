"""Chart labels as text for printing: the same drawing, real text, quicker for WeasyPrint."""

from __future__ import annotations

import base64
import io
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

import matplotlib

matplotlib.use("svg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import report_fixtures as rf  # noqa: E402
from mlperf_report.assemble import print_svg  # noqa: E402
from mlperf_report.assemble import page, pdf_print
from mlperf_report.i18n import fonts

TITLE = "訓練時間：ResNet & <BERT> (bold)"


def _chart(title=TITLE, xlabel="minutes") -> str:
    fonts.register_matplotlib_cjk()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.barh(["Graphcore", "NVIDIA"], [28.3, 31.0], color="#0b5cad")
    ax.set_title(title, fontweight="bold")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("系統", rotation=90)
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg")
    plt.close(fig)
    return buffer.getvalue()


def test_every_plain_label_becomes_text_and_the_chart_stays_valid_svg():
    svg = _chart()
    converted, labels = print_svg.glyphs_to_text(svg)
    ElementTree.fromstring(converted.encode())
    assert TITLE in labels and "Graphcore" in labels and "NVIDIA" in labels and "minutes" in labels and "系統" in labels
    assert "0" in labels and "30" in labels
    assert converted.count("<text ") == len(labels)
    assert re.findall(r'<use xlink:href="#(?:DejaVuSans|NotoSansCJK)', svg)
    assert re.findall(r'<use xlink:href="#(?:DejaVuSans|NotoSansCJK)', converted) == []
    assert 'font-weight="bold"' in converted  # the title
    assert "rotate(-90)" in converted  # the y label keeps its rotation


@pytest.mark.parametrize("xlabel", [r"$t_{train}$ (min)", "time -- minutes"])
def test_math_and_ambiguous_labels_stay_outlines(xlabel):
    svg = _chart(xlabel=xlabel)
    converted, labels = print_svg.glyphs_to_text(svg)
    assert "minutes" not in labels and not any("min" in label for label in labels)
    comment = xlabel.replace("--", "- -")
    assert "DejaVuSans" in converted.split(f"<!-- {comment} -->", 1)[1][:3000]


def test_svg_without_glyph_groups_is_unchanged():
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M 0 0 L 1 1"/></svg>'
    assert print_svg.glyphs_to_text(svg) == (svg, [])


def _render(svg: str, tmp_path, name: str):
    """One chart printed by WeasyPrint with the report's fonts, as a grey-scale pixel array."""
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm not installed (Debian poppler-utils; `make system-deps` installs it)")
    resources: dict = {}
    html = f'<img src="data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()}" style="width:160mm">'
    html, labels = print_svg.charts_for_print(html, resources)
    faces = page.page_fonts("", labels or TITLE, tmp_path)
    css = "".join(f'@font-face {{ font-family: "{face.family}"; font-weight: {face.weight}; '
                  f'font-style: {face.style}; src: url({face.uri}) format("woff"); }}' for face in faces)
    pdf = pdf_print.render_pdf(f"<style>{css} @page {{ size: A4; margin: 10mm }}</style>{html}", resources)
    (tmp_path / f"{name}.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "60", "-gray", "-png", "-singlefile", str(tmp_path / f"{name}.pdf"),
                    str(tmp_path / name)], check=True, timeout=60)
    from PIL import Image

    return np.asarray(Image.open(tmp_path / f"{name}.png"), dtype=int)


def test_printed_chart_looks_the_same_with_labels_as_text(tmp_path):
    svg = _chart()
    outlines = _render(svg.replace("<!-- ", "<!-- $"), tmp_path, "outlines")  # "$": kept as outlines
    text = _render(svg, tmp_path, "text")
    assert outlines.shape == text.shape
    ink = outlines < 200
    assert ink.sum() > 2000, "the chart must have been drawn"
    different = np.abs(outlines - text) > 96
    assert different.sum() < 0.03 * ink.sum(), f"{different.sum()} of {ink.sum()} inked pixels differ"


def test_fixture_chart_labels_extract_as_text_from_the_pdf(tmp_path):
    from pypdf import PdfReader

    reports = rf.build_reports(tmp_path)
    text = "".join(page.extract_text() for page in PdfReader(str(reports["zh-Hant"].pdf_path)).pages)
    for benchmark in rf.BENCHMARKS:
        assert rf.CHART_TITLE["zh-Hant"].format(b=benchmark) in text


def _house_chart(fonttype: str) -> str:
    """A house-style chart with labels of every kind the notebooks draw: centred and right-aligned
    ticks, a bold title mixing Chinese and Latin, a rotated label, a bold oblique division label
    (Latin and Chinese, and Chinese alone), a two-line label; written with ``fonttype``."""
    import matplotlib as mpl

    from mlperf_report.analysis import style

    with style.house_style("zh-Hant"):
        fig = style.figure(3)
        ax = fig.subplots()
        ax.barh(["Graphcore IPU-POD16", "NVIDIA 系統", "Dell\nXE8545"], [28.3, 31.0, 12.5], color="#0b5cad")
        ax.set_title(TITLE)
        ax.set_xlabel("訓練時間（分鐘）")
        ax.set_ylabel("系統 (systems)", rotation=90)
        ax.text(1, 0.5, "Closed 封閉組", style="italic", fontweight="bold", fontsize=8)
        ax.text(1, 1.5, "開放組", style="italic", fontweight="bold", fontsize=8)  # drawn regular: no CJK bold
        with mpl.rc_context({"svg.fonttype": fonttype}):
            return style.to_svg(fig)


def test_house_charts_write_labels_as_text_not_outlines():
    svg = _house_chart("none")
    assert "<!--" not in svg and "<use xlink:href=\"#DejaVuSans" not in svg
    assert re.findall(r"<text\b[^>]*>Graphcore IPU-POD16</text>", svg)
    from mlperf_report.analysis import style

    with style.house_style("en"):
        assert matplotlib.rcParams["svg.fonttype"] == "none"


def test_text_labels_are_set_in_the_embedded_faces_with_their_weight_and_slant():
    converted, labels = print_svg.glyphs_to_text(_house_chart("none"))
    ElementTree.fromstring(converted.encode())
    assert {TITLE, "Graphcore IPU-POD16", "NVIDIA 系統", "Dell", "XE8545", "Closed 封閉組", "訓練時間（分鐘）"} <= set(labels)
    texts = re.findall(r"<text\b([^>]*)>([^<]*)</text>", converted)
    assert len(texts) == len(labels)
    assert all('xml:space="preserve"' in attrs and "font-family: DejaVu Sans Subset, Noto Sans CJK TC Subset;" in attrs
               for attrs, _ in texts)
    styles = {text: attrs for attrs, text in texts}
    assert "font-weight: 700" in styles["訓練時間：ResNet &amp; &lt;BERT&gt; (bold)"]
    assert "font-style: italic; font-weight: 700" in styles["Closed 封閉組"]
    assert "font-weight" not in styles["開放組"] and "font-style" not in styles["開放組"]  # as matplotlib drew it
    assert "rotate(-90" in styles["系統 (systems)"]
    other = '<text style="font-family: \'DejaVu Serif\', \'DejaVu Sans\'">x</text>'  # a face the page does not embed
    assert print_svg.glyphs_to_text(other)[0] == '<text xml:space="preserve" style="font-family: DejaVu Serif, DejaVu Sans Subset">x</text>'


def test_printed_text_labels_look_like_the_outlines_matplotlib_draws(tmp_path):
    """The labels printed as text (placed by their anchors, in the embedded faces) cover what
    matplotlib's own outlines of them cover: same places, faces, weights and slants."""
    outlines = _render(_house_chart("path").replace("<!-- ", "<!-- $"), tmp_path, "outlines")  # "$": kept as outlines
    text = _render(_house_chart("none"), tmp_path, "text")
    assert outlines.shape == text.shape
    ink = outlines < 200
    assert ink.sum() > 2000, "the chart must have been drawn"
    different = np.abs(outlines - text) > 96  # anti-aliasing: 3.2 %; labels not anchored 11 %, not bold 5.6 %
    assert different.sum() < 0.04 * ink.sum(), f"{different.sum()} of {ink.sum()} inked pixels differ"
