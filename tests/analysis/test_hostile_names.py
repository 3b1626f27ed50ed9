"""Issue 12: one submitter's text must never stop the report nor change a chart's meaning.

Names seen or crafted: mathtext (``$\\alpha$`` and an unknown symbol), Chinese and emoji (the English
charts' font lacked them and the style turned the warning into an error), ``url(...)`` (taken by the
self-contained check for a fetch) and a 100 KB name (8 MB SVGs, minutes of PDF).
"""

from __future__ import annotations

import re
import subprocess
import sys

import pandas as pd
import pytest

from mlperf_report.analysis import outputs
from mlperf_report.suites.training import charts
from mlperf_report.analysis.chart_text import REPLACEMENT, chart_text
from mlperf_report.assemble import sections
from mlperf_report.core import limits, paths
from synthetic_round import V07, V10, write_round

LONG = "L" * 100_000
HOSTILE = [  # (submitter, system_id, system_name)
    ("MathCo", "m1", r"Box $\notasymbol$ and $\alpha$"),
    ("深度學習公司", "zh1", "超級電腦 🚀 X"),
    ("UrlCo", "u1", "Box url(https://evil.example/x.png)"),
    ("LongCo", "l1", LONG),
]


def _frame() -> pd.DataFrame:
    rows = [{"division": "closed", "submitter": s, "system_id": i, "system_name": n, "display_name": f"{s} {n}",
             "score_min": 10.0 + k, "benchmark": "resnet", "accelerators": 8} for k, (s, i, n) in enumerate(HOSTILE)]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_hostile_names_draw_in_every_language(lang):
    svg = outputs.chart_svg(charts.time_to_train, lang=lang, rows=4, data=_frame(),
                            colours=charts.result_colours(_frame(), focus="MathCo"), benchmark="resnet $x$")
    assert len(svg) < 400_000  # the 100 KB name is shortened for drawing (it made an 8 MB SVG)


def test_chart_text_keeps_meaning_and_bounds_length():
    assert chart_text(r"$\alpha$") == r"$\alpha$"  # drawn as written: mathtext is off in the house style
    assert chart_text("超級電腦") == "超級電腦"  # the CJK fallback draws it, in English charts too
    assert chart_text("🚀") == REPLACEMENT
    assert chart_text("a\nb\x00") == "a b "
    shortened = chart_text(LONG)
    assert len(shortened) == limits.MAX_LABEL_CHARS and shortened.endswith("…")


def test_url_text_in_a_page_is_not_a_fetch():
    html = "<p>Box url(https://evil.example/x.png) and @import 'y.css'</p><td>url(//h/i.png)</td>"
    assert sections.fetched_urls(html) == []
    assert sections.fetched_urls('<p style="background: url(//h/i.png)">x</p>') == ["//h/i.png"]


def test_report_with_hostile_names_builds_html_and_pdf_keeping_full_names_in_tables(tmp_path):
    extra = [("closed", s, i, n, "resnet", 20.0 + k, 8, 2, 1, "PyTorch", "ok") for k, (s, i, n) in enumerate(HOSTILE)]
    data_dir, out = tmp_path / "data", tmp_path / "out"
    write_round(data_dir, "training-v0.7", V07)
    write_round(data_dir, "training-v1.0", V10 + extra)
    done = subprocess.run([sys.executable, "build.py", "report", "--round", "training-v1.0", "--benchmarks", "resnet",
                           "--languages", "en,zh-Hant", "--data-dir", str(data_dir), "--output-dir", str(out)],
                          cwd=paths.ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    round_out = out / "training-v1.0"
    for lang in ("en", "zh-Hant"):
        assert (round_out / f"report.{lang}.pdf").stat().st_size > 0
        html = (round_out / f"report.{lang}.html").read_text()
        assert "超級電腦" in html
        # the report's results table keeps the full 100 KB name in a cell of its own (charts shorten it)
        assert re.search(r"<td[^>]*>[^<]*\b" + LONG + r"\b[^<]*</td>", html), lang
