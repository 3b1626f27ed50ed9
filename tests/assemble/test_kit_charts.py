"""The deck and the cards draw what the kit's charts hold: a host share as a chart of two bars, a
debut's single result as its figure large, each slide's notes and each card's SVG description
naming every bar's system; both languages. Made from a kit, not a build (the chart rows are the
story engine's, through ``claim_charts`` and ``bar_labels``)."""

from __future__ import annotations

import io
import re

import pytest

from mlperf_report.analysis import bar_labels, claim_charts
from mlperf_report.assemble.formats import cards, slides
from mlperf_report.assemble.kit import Kit, KitClaim

LARGEST = {"round": "inference-v4.1", "benchmark": "resnet", "scenario": "Offline", "division": "closed",
           "submitter": "Intel", "system_id": "1-node-2S-GNR-PyTorch", "system": "1-node-2S-GNR-PyTorch",
           "accelerator_model": "", "accelerators": None, "host_processor_model": "Intel(R) Xeon(R) 6980P",
           "host_processors": 2, "unit": "Samples/s", "measure": "throughput", "higher_is_better": True,
           "value": 45617.3, "result_id": "inference-v4.1/closed/Intel/1-node-2S-GNR-PyTorch/resnet50/Offline"}
CLAIMS = {"debut": {"angle": "generation", "kind": "debut", "facts": {"largest": LARGEST}},
          "host_share": {"angle": "ecosystem", "kind": "host_share",
                         "facts": {"vendor": "Intel", "brand": "Xeon", "systems": 58, "of": 93, "share": 0.62}}}


def kit(lang: str) -> Kit:
    made = []
    for kind, claim in CLAIMS.items():
        chart = bar_labels.labelled(claim_charts.claim_chart(claim, lambda s, m: s == "Intel"), lang, own_unnamed=True)
        made.append(KitClaim(f"A {kind} claim.", "Based on: a result.", (LARGEST["result_id"],), chart=chart,
                             chart_title=kind, angle=claim["angle"], kind=kind))
    made.append(KitClaim("Intel had no result in v4.0.", "", (), kind="first_round"))  # cites nothing
    return Kit(lang, "inference-v4.1", "MLPerf Inference v4.1", "Results", "2026-12-07", "Intel", tuple(made))


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_claim_slide_citing_a_result_has_its_chart_and_its_bars_systems_in_the_notes(lang):
    from pptx import Presentation

    made = kit(lang)
    deck = Presentation(io.BytesIO(slides.deck_bytes(made)))
    claim_slides = list(deck.slides)[1:-1]
    assert len(claim_slides) == len(made.cited) == 2  # the claim citing nothing has no slide
    for slide in claim_slides:
        assert any(shape.shape_type == 13 for shape in slide.shapes)  # the chart, a picture
    debut_notes = claim_slides[0].notes_slide.notes_text_frame.text
    times = " × " if lang == "en" else " 顆 "
    assert f"2{times}Intel Xeon 6" in debut_notes and "1-node-2S-GNR-PyTorch" in debut_notes


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_debut_card_shows_its_figure_large_and_a_host_share_card_its_two_bars(lang):
    made = kit(lang)
    debut, share = made.cited
    svg = cards.card(debut, made)[1].decode("utf-8")
    assert "45,617.3" in svg and re.search(r"<desc>[^<]*1-node-2S-GNR-PyTorch", svg)
    svg = cards.card(share, made)[1].decode("utf-8")
    mine = "Systems with Intel Xeon hosts" if lang == "en" else "採用 Intel Xeon 主機處理器的系統"
    assert mine in svg and re.search(r">\s*58\s*<", svg) and re.search(r">\s*35\s*<", svg)  # 58 of 93: 35 others
    assert cards.files(made) == tuple(f"cards/{i:02d}-{stem}.{lang}.{ext}" for i, stem in
                                      ((1, "generation-debut-resnet"), (2, "ecosystem-host-share")) for ext in ("png", "svg"))


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_deck_chart_laid_out_before_it_is_saved_is_the_same_png_as_savefigs_own_layout(lang):
    """``claim_png`` runs the figure's layout itself and saves it with no engine (one walk of the
    figure fewer): the bytes are those of ``savefig`` laying the figure out, for each claim."""
    import matplotlib.figure

    from mlperf_report.analysis import style
    from mlperf_report.assemble import kit_charts

    made = kit(lang)
    size = slides.CHART
    for claim in made.cited:
        with style.house_style(lang):
            fig = matplotlib.figure.Figure(figsize=(size.width, size.height), dpi=size.dpi)
            claim_charts.draw(ax=fig.subplots(), lang=lang, fontsize=size.fontsize, **kit_charts._options(claim, lang))
            assert fig.get_layout_engine() is not None  # what laid_out takes over
            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=size.dpi, metadata={"Software": None})
        assert kit_charts.claim_png(claim, lang, size.width, size.height, size.dpi, size.fontsize) == buffer.getvalue()
