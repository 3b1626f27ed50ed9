"""One document behind every format: in a real build with every deliverable (the synthetic v0.7 +
v1.0 tables, Graphcore, both languages, assembled in this process with ``-j 1``), each claim's chart
is drawn once per size however many formats show it (a counter around ``claim_charts.draw``, keyed
by language, the bars drawn and the figure's size); the deck, the brief and the cards each show the
charts; the document a format receives is frozen, picklable and holds the tables the workbook needs."""

from __future__ import annotations

import collections
import dataclasses
import pickle

import pytest

from mlperf_report.analysis import claim_charts
from mlperf_report.assemble import document, kit_charts
from mlperf_report.assemble.formats import brief, slides
from mlperf_report.cli.main import main
from synthetic_round import write_tree

ROUND = "training-v1.0"


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """Every claim chart drawn during the build: (language, bars, figure size in inches) -> times."""
    root = tmp_path_factory.mktemp("document")
    data = write_tree(root / "data")
    counts: collections.Counter = collections.Counter()
    original = claim_charts.draw

    def counted(*args, **options):
        bars = options["data"] if "data" in options else args[0]
        size = tuple(round(float(x), 3) for x in options["ax"].figure.get_size_inches())
        counts[(options.get("lang", "en"), bars.to_csv(index=False), size)] += 1
        return original(*args, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(claim_charts, "draw", counted)
        code = main(["report", "--round", ROUND, "--focus", "Graphcore", "--data-dir", str(data),
                     "--output-dir", str(root / "out"), "-j", "1"])
    assert code in (0, None)
    return counts, root / "out" / ROUND


def test_each_claim_chart_is_drawn_once_per_size_with_every_deliverable(drawn):
    counts, out = drawn
    assert counts, "the build drew no claim chart"
    twice = {key[::2]: n for key, n in counts.items() if n > 1}
    assert not twice, f"charts drawn more than once: {twice}"
    for lang in ("en", "zh-Hant"):
        sizes = {size for (drawn_lang, _, size) in counts if drawn_lang == lang}
        assert (slides.CHART.width, slides.CHART.height) in sizes   # the deck's
        assert (12.0, 6.75) in sizes                                 # the cards'
        assert any(height == brief.CHART_HEIGHT for _, height in sizes)  # the brief's
        assert (out / f"slides.{lang}.pptx").is_file() and (out / f"brief.{lang}.pdf").is_file()
    assert (out / "results.xlsx").is_file() and list((out / "cards").glob("*.png"))


def test_the_document_is_frozen_picklable_and_carries_the_drawings_and_tables(tmp_path):
    import report_fixtures as rf
    from mlperf_report.assemble.kit import Kit, KitClaim
    from mlperf_report.analysis.claim_charts import ClaimChart

    chart = ClaimChart(rows=({"system": "a", "label": "Acme A", "value": 9.9, "mine": True},
                             {"system": "b", "label": "Other B", "value": 12.5, "mine": False}),
                       measure="time", unit="minutes", higher_is_better=False, benchmark="resnet", scenario="",
                       division="closed")
    kit = Kit("en", ROUND, "MLPerf Training v1.0", "Results", "2026-12-06", "Acme",
              (KitClaim("Acme trains ResNet-50 in 9.9 minutes.", "Based on: a.", ("a",), chart=chart),))
    notebooks = rf.write_notebooks(tmp_path / "nb", benchmarks=("resnet",))
    request = document.ReportRequest(ROUND, "en", tuple(notebooks), rf.NARRATIVE["en"], rf.NOTES["en"], tmp_path / "out",
                                     "Results", "2026-12-06", formats=("html", "slides", "brief"), cache_dir=None,
                                     kit=kit)
    report = document.build_document(request)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.lang = "zh-Hant"
    claim = report.claims[0]
    assert isinstance(claim.drawn(slides.CHART), bytes) and claim.drawn(slides.CHART).startswith(b"\x89PNG")
    assert "<svg" in claim.drawn(brief.CHART)
    assert kit_charts.drawing(claim, report.kit, slides.CHART) is claim.drawn(slides.CHART)  # reused, not redrawn
    assert report.tables is None  # no format that uses them was chosen
    again = pickle.loads(pickle.dumps(report))
    assert again.claims[0].drawings == claim.drawings and again.title == "Results"


@pytest.mark.parametrize("give_back", [True, False])
def test_the_printing_heap_is_given_back_only_when_asked(tmp_path, give_back):
    """A batch's process goes on to other reports and gives the printing's heap back (a full
    collection) before the kit draws; a single build's process, which exits after its report, does
    not spend the collection. Automatic collections are off while it prints, so the count of full
    collections says which happened."""
    import gc

    import report_fixtures as rf

    notebooks = rf.write_notebooks(tmp_path / "nb", benchmarks=("resnet",))
    request = document.ReportRequest(ROUND, "en", tuple(notebooks), rf.NARRATIVE["en"], rf.NOTES["en"], tmp_path / "out",
                                     "Results", "2026-12-06", formats=("pdf",), cache_dir=None, give_back=give_back)
    report = document.build_document(request)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        before = gc.get_stats()[2]["collections"]
        assert report.page.printed[0].startswith(b"%PDF-")
        assert gc.get_stats()[2]["collections"] - before == (1 if give_back else 0)
    finally:
        if was_enabled:
            gc.enable()
