"""Sections are converted by ``HTMLExporter`` without its BeautifulSoup pass (``sections.exporter``):
the HTML is the same elements, attributes and text as nbconvert's own exporter writes, in both
languages, with charts, markdown and tables, and its characters as that pass wrote them (a character
reference in a table's cell changed how the exhibits' words were broken); only attribute order, the
form of void elements and blank lines may differ."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from nbconvert import HTMLExporter
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from mlperf_report.assemble import sections
from report_fixtures import benchmark_notebook, summary_notebook


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_section_is_the_html_nbconverts_exporter_writes_parsed_and_written_again(lang):
    exporter = sections.exporter()
    quoted = benchmark_notebook("resnet")  # character references, as pandas and markdown write them
    quoted.cells.append(new_markdown_cell("The focus's results & the rivals' <b>\"best\"</b>&nbsp;runs."))
    cell = '<td title="a &quot;b&#34;">MLCommons&#x27; checker &amp; 5 &lt; 6</td>'
    quoted.cells.append(new_code_cell("", outputs=[new_output("display_data", data={
        "text/html": f"<table><tr>{cell}</tr></table>"})]))
    made = []
    for nb in (quoted, summary_notebook()):
        shown = sections.report_notebook(nb, lang)
        ours, _ = exporter.from_notebook_node(shown, resources={"section_id": "sec-x"})
        theirs, _ = HTMLExporter.from_notebook_node(exporter, shown, resources={"section_id": "sec-x"})
        assert "<img" in ours and str(BeautifulSoup(ours, features="html.parser")) == theirs
        made.append(ours)
    assert "MLCommons' checker &amp; 5 &lt; 6" in made[0] and "focus's" in made[0] and "&#x27;" not in made[0]


def test_on_an_nbconvert_it_was_not_checked_with_the_exporter_is_nbconverts_own(monkeypatch):
    from mlperf_report.core import compat

    monkeypatch.setitem(compat.CHECKED, "nbconvert", ("0.0.1", "0.0.2"))
    sections._exporter_class.cache_clear()
    try:
        assert sections._exporter_class() is HTMLExporter
    finally:
        monkeypatch.undo()
        sections._exporter_class.cache_clear()
    assert sections._exporter_class() is not HTMLExporter  # this machine's nbconvert was checked
