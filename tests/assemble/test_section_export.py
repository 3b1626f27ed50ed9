"""Sections are converted by ``HTMLExporter`` without its BeautifulSoup pass (``sections.exporter``):
the HTML is the same elements, attributes and text as nbconvert's own exporter writes, in both
languages, with charts, markdown and tables; only how they are written may differ."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from nbconvert import HTMLExporter

from mlperf_report.assemble import sections
from report_fixtures import benchmark_notebook, summary_notebook


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_section_is_the_html_nbconverts_exporter_writes_parsed_and_written_again(lang):
    exporter = sections.exporter()
    for nb in (benchmark_notebook("resnet"), summary_notebook()):
        shown = sections.report_notebook(nb, lang)
        ours, _ = exporter.from_notebook_node(shown, resources={"section_id": "sec-x"})
        theirs, _ = HTMLExporter.from_notebook_node(exporter, shown, resources={"section_id": "sec-x"})
        assert "<img" in ours and str(BeautifulSoup(ours, features="html.parser")) == theirs
