"""Charts in the HTML page are inline SVG with real text in the page's embedded faces, no base64,
every definition once per page, and the labels still there to read and search."""

from __future__ import annotations

import base64
import re

import pandas as pd

from mlperf_report.suites.inference import charts as inference_charts
from mlperf_report.analysis.outputs import chart_svg
from mlperf_report.assemble import screen_svg
from mlperf_report.assemble.sections import fetched_urls

NAMES = ["Supermicro AS-4125GS-TNHR2-LCC (8x H100-SXM-80GB, TensorRT)", "Acme 超級系統 (4x X1)",
         "Dell PowerEdge XE9680 (8x H200-SXM-141GB, TensorRT)"]


def _chart(lang: str) -> str:
    data = pd.DataFrame({"system_name": NAMES, "system_id": ["a", "b", "c"], "submitter": ["Supermicro", "Acme", "Dell"],
                         "division": ["closed"] * 3, "result": [254_000.5, 120_000.0, 98_000.25],
                         "unit": ["Samples/s"] * 3})
    return chart_svg(inference_charts.ranking, lang=lang, rows=3, data=data, scenario="Offline", model="resnet50")


def _img(svg: str) -> str:
    return f'<figure class="chart"><img src="data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()}" alt="a &amp; b"></figure>'


def test_charts_inline_with_text_once_per_definition():
    svgs = [_chart("en"), _chart("zh-Hant"), _chart("en")]
    page = "<html><body>" + "".join(_img(svg) for svg in svgs) + "</body></html>"
    out = screen_svg.inline_charts(page)
    assert "<img" not in out and out.count('<svg role="img" aria-label="a &amp; b" class="chart-svg"') == 3
    assert len(out) < 0.8 * len(page), (len(out), len(page))  # no base64
    assert "<text" in out and "'DejaVu Sans'" not in out and "'Noto Sans CJK TC'" not in out  # never a font of the reader's
    assert out.count("font-family: DejaVu Sans Subset, Noto Sans CJK TC Subset") == out.count("<text")
    for name in NAMES:
        for line in inference_charts.short_name(name).split("\n"):
            assert f">{line}</text>" in out  # searchable text, not outlines
    assert not re.search(r'xlink:href="#(DejaVuSans|NotoSans)', out)  # no glyph left as outline
    ids = re.findall(r'\sid="([^"]+)"', out)
    defined = [i for i in ids if i.startswith(("p", "m"))]
    assert len(defined) == len(set(defined))  # clip paths and markers: one definition each per page
    for ref in set(re.findall(r'(?:xlink:href="#|url\(#)([^")]+)', out)):
        assert f'id="{ref}"' in out, ref  # every reference still resolves
    assert fetched_urls(out) == []  # url(#clip) is not a load
