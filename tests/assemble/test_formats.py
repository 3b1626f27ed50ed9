"""Formats as a seam: a report's files come from formats chosen by name, each one module behind one
interface over the same kit; a toy format that lives in the tests is made beside the report, listed
under its contents and written with the rest, with no file of the package changed; a name no format
has is refused with the names that exist; the registry answers each format's files, words and MIME
types (installed as a package and named in report.yaml: ``test_format_plugin``)."""

from __future__ import annotations

import pytest

import report_fixtures as rf
import toy_format
from mlperf_report.assemble import document, formats
from mlperf_report.assemble.kit import Kit, KitClaim
from mlperf_report.core.errors import UserError

ROUND = "training-v1.0"


@pytest.fixture
def toy():
    formats.register(toy_format)
    yield toy_format
    formats.unregister(toy_format.name)


def kit(lang: str) -> Kit:
    claims = (KitClaim("Acme trains ResNet-50 in 9.9 minutes.", "Based on: a/b/c.", ("training-v1.0/closed/Acme/a/resnet",)),
              KitClaim("Acme is 2× faster than last round.", "Derived.", ("training-v1.0/closed/Acme/a/resnet",
                                                                           "training-v0.7/closed/Acme/a/resnet")))
    return Kit(lang, ROUND, "MLPerf Training v1.0", "Results", "2026-12-06", "Acme", claims)


def test_a_toy_format_is_made_listed_and_written_with_the_report(toy, tmp_path):
    notebooks = rf.write_notebooks(tmp_path / "nb", benchmarks=("resnet",))
    request = document.ReportRequest(ROUND, "en", tuple(notebooks), rf.NARRATIVE["en"], rf.NOTES["en"], tmp_path / "out",
                                     "Results", "2026-12-06", formats=("html", "claims_txt"), cache_dir=None,
                                     kit=kit("en"))
    report = document.make_report(request)
    text = (tmp_path / "out" / "claims.en.txt").read_text(encoding="utf-8")
    assert text.splitlines() == ["Results", "- Acme trains ResNet-50 in 9.9 minutes. [training-v1.0/closed/Acme/a/resnet]",
                                 "- Acme is 2× faster than last round. [training-v1.0/closed/Acme/a/resnet, "
                                 "training-v0.7/closed/Acme/a/resnet]"]
    assert report.deliverables == {"html": (tmp_path / "out" / "report.en.html",),
                                   "claims_txt": (tmp_path / "out" / "claims.en.txt",)}
    assert report.pdf_path is None  # not asked for: not printed
    html = report.html_path.read_text(encoding="utf-8")
    assert 'href="claims.en.txt"' in html and "the claims, as text" in html
    assert formats.files_of(("html", "claims_txt"), kit("zh-Hant")) == ["report.zh-Hant.html", "claims.zh-Hant.txt"]


def test_a_format_no_one_has_is_refused_with_the_names_that_exist(toy):
    with pytest.raises(UserError, match=r"no format called 'slidez'; the formats are .*claims_txt.*slides"):
        formats.chosen(["html", "slidez"])


def test_every_built_in_format_has_the_interface():
    for name in formats.BUILT_IN:
        fmt = formats.get(name)
        assert fmt.name == name and isinstance(fmt.per_language, bool)
        assert all(callable(getattr(fmt, member)) for member in ("files", "companion", "make"))
        assert isinstance(fmt.files(kit("en")), tuple)


def test_every_built_in_format_names_its_files_words_and_types():
    """The registry answers for each format what mail, the index page and the contents need."""
    seen = set()
    for name in formats.BUILT_IN:
        for lang in ("en", "zh-Hant"):
            words = formats.label(name, lang)
            assert words and words != name and (lang, words) not in seen  # its own words, translated
            seen.add((lang, words))
        exhibits_kit = Kit("en", ROUND, "MLPerf Training v1.0", "Results", "2026-12-06", "Acme", kit("en").claims,
                           has_exhibits=True)
        for path in formats.get(name).files(exhibits_kit):
            assert "/" in formats.mime_of(name, path) and formats.mime_of(name, path) != "application/octet-stream"
    assert formats.mime_of("slides", "slides.en.pptx").endswith("presentationml.presentation")
    assert formats.is_copy("pdf", "report.pdf") and not formats.is_copy("pdf", "report.en.pdf")
    assert formats.own_name("pdf", "out/report.pdf", "zh-Hant") == "report.zh-Hant.pdf"


def test_deliverables_resolve_to_every_built_in_format_or_the_named_ones_after_the_page():
    assert formats.resolve(None) == tuple(formats.BUILT_IN)
    assert formats.resolve(["slides", "report"]) == ("html", "slides", "pdf")
    assert formats.resolve(["cards", "html"]) == ("cards", "html")


def test_a_plain_object_format_without_words_or_types_gets_its_name_and_a_guess(toy):
    assert formats.label("claims_txt", "zh-Hant") == "claims_txt"
    assert formats.mime_of("claims_txt", "claims.en.txt") == "text/plain"
    assert formats.mime_of("claims_txt", "claims.en.unknownsuffix") == "application/octet-stream"
