"""The appendix printed apart: a report's PDF ends with its notes, the exhibits are exhibits.<lang>.pdf
beside it (numbered A-1, …), linked from its contents; a second focus's report reuses the printed
exhibits."""

from __future__ import annotations

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from pypdf import PdfReader

import report_fixtures as rf
from mlperf_report.assemble import document

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


def test_two_focuses_print_the_appendix_once_each_beside_a_report_that_ends_with_its_notes(notebooks, tmp_path,
                                                                                             monkeypatch):
    runs = spy_on_printing(monkeypatch)
    reports = [document.assemble_report(ROUND, "en", notebooks, f"<p>Focus {name} 領先.</p>", rf.NOTES["en"],
                                        tmp_path / name, "Report", "2026-12-05", cache_dir=tmp_path / "cache",
                                        share_appendix=True)  # as a batch's focuses do
               for name in ("Acme", "Beta")]
    assert len(runs) == 3, "the appendix once, then each report's own pages"
    assert reports[0].exhibits_path.read_bytes() == reports[1].exhibits_path.read_bytes()
    for report in reports:
        assert report.exhibits_path == report.pdf_path.parent / "exhibits.en.pdf"
        pdf, exhibits = PdfReader(report.pdf_path), PdfReader(report.exhibits_path)
        outline = [entry.title for entry in pdf.outline if not isinstance(entry, list)]
        assert outline[-1] == "Notes and citations" and "Exhibits" not in outline
        assert "sec-exhibits" not in pdf.named_destinations and "sec-exhibits" in exhibits.named_destinations
        assert len(exhibits.pages) >= 2 and "A-1 / A-" in exhibits.pages[0].extract_text()
        assert not any("A-1" in page.extract_text() for page in pdf.pages[2:])
        links = [annot.get_object().get("/A", {}).get("/URI") for annot in pdf.pages[1].get("/Annots")]
        assert "exhibits.en.pdf" in links  # the contents entry, and the files beside the report
        text = pdf.pages[1].extract_text()
        assert "Exhibits" in text and "exhibits.en.pdf" in text
    html = reports[0].html_path.read_text(encoding="utf-8")
    assert html.index('id="sec-notes"') < html.index('id="sec-exhibits"'), "the HTML keeps the exhibits, last"
    assert 'href="exhibits.en.pdf"' in html


def test_the_exhibits_pdf_is_deterministic_and_the_report_keeps_its_metadata(notebooks, tmp_path):
    args = (ROUND, "zh-Hant", notebooks, rf.NARRATIVE["zh-Hant"], rf.NOTES["zh-Hant"])
    first = document.assemble_report(*args, tmp_path / "a", "報告", "2026-12-05", cache_dir=None)
    second = document.assemble_report(*args, tmp_path / "b", "報告", "2026-12-05", cache_dir=tmp_path / "cache")
    assert first.pdf_path.read_bytes() == second.pdf_path.read_bytes()
    assert first.exhibits_path.read_bytes() == second.exhibits_path.read_bytes()
    assert PdfReader(first.pdf_path).metadata.title.startswith("報告")


def test_a_report_without_exhibits_has_no_exhibits_file(tmp_path):
    paths = rf.write_notebooks(tmp_path / "nb", benchmarks=("resnet",))
    report = document.assemble_report(ROUND, "en", paths, rf.NARRATIVE["en"], rf.NOTES["en"], tmp_path / "out",
                                      "Report", "2026-12-05", cache_dir=None)
    assert report.exhibits_path is None and not list((tmp_path / "out").glob("exhibits*"))
    assert "exhibits.en.pdf" not in report.html_path.read_text(encoding="utf-8")


def test_a_single_report_prints_its_appendix_in_its_own_font_subsets(notebooks, tmp_path, monkeypatch):
    """No batch to share the appendix with: it is printed in the report's subsets (which hold its
    characters), so only the report's faces are cut (its CJK face and the charts' DejaVu faces); a
    batch's report cuts the appendix's own CJK face too (the exhibits have no chart: no DejaVu face
    for them)."""
    from mlperf_report.i18n import fonts

    cut = []
    real = fonts.subset_font
    monkeypatch.setattr(fonts, "subset_font", lambda text, **kw: cut.append(kw.get("path")) or real(text, **kw))
    for share, folder in ((False, "single"), (True, "batch")):
        cut.clear()
        report = document.assemble_report(ROUND, "zh-Hant", notebooks, "<p>焦點領先。</p>", rf.NOTES["zh-Hant"],
                                          tmp_path / folder, "報告", "2026-12-05", cache_dir=tmp_path / folder / "cache",
                                          share_appendix=share)
        cjk = 2 if share else 1  # the report's CJK face, and in a batch the appendix's own
        assert len(cut) == cjk + len(fonts.latin_faces()) and cut.count(None) == cjk
        appendix_text = PdfReader(report.exhibits_path).pages[0].extract_text()
        assert any("\u4e00" <= char <= "\u9fff" for char in appendix_text)  # its Chinese set in the faces given
