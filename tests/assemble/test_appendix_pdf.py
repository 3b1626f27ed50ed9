"""The appendix printed apart: a report's PDF is its own pages then the exhibits, numbered A-1, …,
with its contents entry linking there; a second focus's report reuses the printed appendix."""

from __future__ import annotations

import io

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from pypdf import PdfReader

import report_fixtures as rf
from mlperf_report.assemble import appendix_pdf, document

ROUND = "training-v1.0"


def exhibits_notebook() -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.cells.append(new_code_cell("round_id = 'training-v1.0'", metadata={"tags": ["parameters"]}))
    code = new_code_cell("show_exhibits()", metadata={"tags": ["remove-input"]})
    rows = "".join(f"<tr><td>Acme {i}</td><td>{i * 1.5:.2f}</td></tr>" for i in range(120))  # a few pages
    for lang in rf.LANGS:
        code.outputs.append(new_output("display_data", data={"text/html": f"<table><tbody>{rows}</tbody></table>",
                                                             "text/plain": "table"},
                                       metadata={"mlperf_report": {"table": "every_result", "lang": lang}}))
    nb.cells.append(code)
    return nb


@pytest.fixture(scope="module")
def notebooks(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nb")
    paths = rf.write_notebooks(folder, benchmarks=("resnet",))
    exhibits = folder / "exhibits.ipynb"
    nbformat.write(exhibits_notebook(), str(exhibits))
    return [*paths, exhibits]


def spy_on_printing(monkeypatch) -> list[str]:
    """Count WeasyPrint's real printing runs (it still prints)."""
    import weasyprint

    runs: list[str] = []
    real = weasyprint.HTML.write_pdf

    def counted(self, *args, **kwargs):
        runs.append("printed")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", counted)
    return runs


def test_two_focuses_print_the_appendix_once_and_each_pdf_ends_with_it(notebooks, tmp_path, monkeypatch):
    runs = spy_on_printing(monkeypatch)
    reports = [document.assemble_report(ROUND, "en", notebooks, f"<p>Focus {name} 領先.</p>", rf.NOTES["en"],
                                        tmp_path / name, "Report", "2026-12-05", cache_dir=tmp_path / "cache",
                                        share_appendix=True)  # as a batch's focuses do
               for name in ("Acme", "Beta")]
    assert len(runs) == 3, "the appendix once, then each report's own pages"
    for report in reports:
        pdf = PdfReader(report.pdf_path)
        labels = pdf.page_labels
        first = labels.index("A-1")
        assert labels[:first] == [str(n) for n in range(1, first + 1)]
        assert labels[first:] == [f"A-{n}" for n in range(1, len(labels) - first + 1)] and len(labels) - first >= 2
        assert pdf.get_destination_page_number(pdf.named_destinations["sec-exhibits"]) == first
        assert not [name for name in pdf.named_destinations if name.startswith(appendix_pdf.MARKER_PREFIX)]
        outline = [entry.title for entry in pdf.outline if not isinstance(entry, list)]
        assert outline[-2:] == ["Notes and citations", "Exhibits"]
        contents = [annot.get_object() for annot in pdf.pages[1].get("/Annots")]
        to_appendix = [a["/Dest"] for a in contents if not isinstance(a["/Dest"], str)]
        assert to_appendix and all(dest[0] == pdf.pages[first].indirect_reference for dest in to_appendix)
        text = pdf.pages[1].extract_text()
        assert "Exhibits" in text and "A-1" in text
        assert "A-1 / A-" in pdf.pages[first].extract_text()
    html = reports[0].html_path.read_text(encoding="utf-8")
    assert html.index('id="sec-notes"') < html.index('id="sec-exhibits"'), "the appendix comes last on screen too"


def test_joining_is_deterministic_and_keeps_the_reports_metadata(notebooks, tmp_path):
    args = (ROUND, "zh-Hant", notebooks, rf.NARRATIVE["zh-Hant"], rf.NOTES["zh-Hant"])
    first = document.assemble_report(*args, tmp_path / "a", "報告", "2026-12-05", cache_dir=None)
    second = document.assemble_report(*args, tmp_path / "b", "報告", "2026-12-05", cache_dir=tmp_path / "cache")
    assert first.pdf_path.read_bytes() == second.pdf_path.read_bytes()
    assert PdfReader(first.pdf_path).metadata.title.startswith("報告")


def test_section_pages_reads_where_each_appendix_section_starts():
    from weasyprint import HTML

    pdf = HTML(string="<style>@page{size:A6}</style><section id='sec-a'><p>x</p></section>"
                      "<section id='sec-b' style='break-before:page'><p>y</p></section><p id='other'>z</p>").write_pdf()
    assert appendix_pdf.section_pages(pdf) == {"sec-a": "A-1", "sec-b": "A-2"}
    assert PdfReader(io.BytesIO(appendix_pdf.join(pdf, pdf))).page_labels == ["1", "2", "A-1", "A-2"]


def test_a_single_report_prints_its_appendix_in_its_own_font_subsets(notebooks, tmp_path, monkeypatch):
    """No batch to share the appendix with: it is printed in the report's subsets (which hold its
    characters), so only the report's three faces are cut; a batch's report cuts the appendix's own
    CJK face too (the exhibits have no chart: no DejaVu face for them)."""
    from mlperf_report.i18n import fonts

    cut = []
    real = fonts.subset_font
    monkeypatch.setattr(fonts, "subset_font", lambda text, **kw: cut.append(kw.get("path")) or real(text, **kw))
    for share, folder in ((False, "single"), (True, "batch")):
        cut.clear()
        report = document.assemble_report(ROUND, "zh-Hant", notebooks, "<p>焦點領先。</p>", rf.NOTES["zh-Hant"],
                                          tmp_path / folder, "報告", "2026-12-05", cache_dir=tmp_path / folder / "cache",
                                          share_appendix=share)
        assert len(cut) == (4 if share else 3) and cut.count(None) == (2 if share else 1)
        pdf = PdfReader(report.pdf_path)
        appendix_text = pdf.pages[pdf.page_labels.index("A-1")].extract_text()
        assert any("\u4e00" <= char <= "\u9fff" for char in appendix_text)  # its Chinese set in the faces given
