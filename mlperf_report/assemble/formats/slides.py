"""The slide deck (``slides.<lang>.pptx``, python-pptx), 16:9, for executives: a title slide with the
headline; one slide per lead claim that cites a result (``Kit.cited``), the claim as its title, its
chart (PNG at 200 dpi, twice screen resolution; bars named by chips, count and maker, or a single
result's figure large) and a footer naming the results it rests on; a closing slide with MLCommons'
notice and the source. Each claim slide's speaker notes carry the whole sentence, its footnote and
each bar with the system it stands for.

Every text is set by ``text_fit`` into its box, lines broken and size chosen (never under 10 pt)
with the font the deck names for it, so nothing leaves its box or the slide whatever the length of
a system's name; the runs name Noto Sans CJK TC as their East Asian font, so Chinese renders. A
brand's typefaces are the runs' Latin font (its headings face for the deck's title, each claim and
the closing heading; its base face for the rest), measured with the brand's font file; the East
Asian font stays the CJK face. A brand's logo is on the title slide (large) and on the slide master
(small, lower right: every other slide shows it; the title slide shows none of the master's shapes).
"""

from __future__ import annotations

import io

from mlperf_report.analysis import bar_labels
from mlperf_report.assemble import kit_charts, text_fit
from mlperf_report.assemble.fixed_zip import fixed_times
from mlperf_report.core import compat
from mlperf_report.i18n import fonts
from mlperf_report.i18n.labels import label
from mlperf_report.narrative import citations

name = "slides"
per_language = True
label_key = "kit.slides"  # what the contents, the index page and mail call it
mime = {".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation"}

WIDTH, HEIGHT = 13.333, 7.5    # inches: 16:9
MARGIN = 0.6
INK, MUTED, ACCENT = "1F2933", "5B6573", "D1495B"
#: A claim slide's chart: 10 x 4.25 inches, 13-point type, 200 dpi (twice screen resolution).
CHART = kit_charts.ChartSize("png", 4.25, width=10.0, fontsize=13)


def files(kit) -> tuple[str, ...]:
    return (f"slides.{kit.lang}.pptx",)


def companion(kit):
    return (f"slides.{kit.lang}.pptx", label("kit.slides", kit.lang))


def charts(kit) -> tuple:
    """The charts the deck shows: each cited claim's, at :data:`CHART` (the document draws them)."""
    return tuple((i, CHART) for i, claim in enumerate(kit.claims) if claim.cites and claim.chart is not None)


def make(report) -> dict[str, bytes]:
    return {f"slides.{report.lang}.pptx": deck_bytes(report.kit)}


def deck_bytes(kit) -> bytes:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(WIDTH), Inches(HEIGHT)
    blank = deck.slide_layouts[6]
    corner = _corner(kit.brand)
    if corner and compat.private_ok("python-pptx"):
        compat.pptx_master_picture(deck.slide_master, *corner)
    _title_slide(deck.slides.add_slide(blank), kit)
    for claim in kit.cited:
        _branded(_claim_slide(deck.slides.add_slide(blank), claim, kit), corner)
    _branded(_closing_slide(deck.slides.add_slide(blank), kit), corner)
    deck.core_properties.title = f"{kit.title} · {kit.round_title}"
    deck.core_properties.author = deck.core_properties.last_modified_by = "mlperf_report"
    buffer = io.BytesIO()
    deck.save(buffer)
    east_asian = fonts.CJK_FAMILY if kit.brand.base_font or kit.brand.headings_font else None
    saved = buffer.getvalue() if compat.private_ok("python-pptx") else compat.pptx_east_asian(buffer.getvalue(), east_asian)
    return fixed_times(saved)


def _text(slide, text: str, box: tuple[float, float, float, float], *, largest: float, smallest: float = 10,
          lang: str, bold: bool = False, colour: str = INK, font: str | None = None):
    """``text`` fitted into ``box`` (left, top, width, height in inches), one paragraph per line;
    ``font``: a brand's face for its Latin text (the CJK face stays its East Asian one)."""
    from pptx.dml.color import RGBColor
    from pptx.enum.text import MSO_AUTO_SIZE
    from pptx.util import Inches, Pt

    left, top, width, height = box
    fitted = text_fit.fit(text, width * 72, height * 72, largest=largest, smallest=smallest, lang=lang, bold=bold,
                          latin=font)
    shape = slide.shapes.add_textbox(Inches(left), Inches(top), Inches(width), Inches(height))
    frame = shape.text_frame
    frame.word_wrap, frame.auto_size = False, MSO_AUTO_SIZE.NONE
    frame.margin_left = frame.margin_right = frame.margin_top = frame.margin_bottom = 0
    font_name = text_fit.family(text, lang, font)
    for i, line in enumerate(fitted.lines):
        paragraph = frame.paragraphs[0] if i == 0 else frame.add_paragraph()
        paragraph.line_spacing = Pt(fitted.size * text_fit.LINE_SPACING)  # exact: a CJK face's own is taller
        run = paragraph.add_run()
        run.text = line
        run.font.size, run.font.bold, run.font.name = Pt(fitted.size), bold, font_name
        run.font.color.rgb = RGBColor.from_string(colour)
        _east_asian(run, font_name, fonts.CJK_FAMILY if font else font_name)
    return fitted


def _east_asian(run, font_name: str, east_asian: str | None = None) -> None:
    """Name the run's East Asian font (``font_name`` unless ``east_asian``: a brand's deck) and its
    complex-script one (``font_name``) too: PowerPoint and LibreOffice pick Chinese glyphs from it (on a python-pptx version this was not checked with,
    ``deck_bytes`` names it in the saved XML instead)."""
    from pptx.oxml.ns import qn

    if not compat.private_ok("python-pptx"):
        return
    rpr = run._r.get_or_add_rPr()
    for tag, typeface in (("a:ea", east_asian or font_name), ("a:cs", font_name)):
        element = rpr.find(qn(tag))
        if element is None:
            element = rpr.makeelement(qn(tag), {})
            rpr.append(element)
        element.set("typeface", typeface)


def _notes(slide, text: str) -> None:
    slide.notes_slide.notes_text_frame.text = text


def _title_slide(slide, kit) -> None:
    width = WIDTH - 2 * MARGIN
    base, heading = faces(kit.brand)
    _text(slide, kit.mark_title, (MARGIN, 0.7, width, 0.5), largest=20, lang=kit.lang,
          colour=_hex(kit.brand.text_accent, ACCENT), font=base)
    ink = _hex(kit.brand.foreground, INK)
    _text(slide, kit.title + (f" · {kit.focus_name}" if kit.focus_name else ""), (MARGIN, 1.3, width, 0.9),
          largest=32, smallest=14, lang=kit.lang, bold=True, colour=ink, font=heading)
    if kit.headline:
        _text(slide, kit.headline.text, (MARGIN, 2.6, width, 3.4), largest=30, smallest=12, lang=kit.lang,
              colour=ink, font=base)
        _notes(slide, "\n\n".join(filter(None, (kit.headline.text, kit.headline.note))))
    logo_width = _logo(slide, kit.brand)
    if logo_width and compat.private_ok("python-pptx"):
        compat.pptx_without_master_shapes(slide)  # its own, larger logo: not the master's as well
    _text(slide, kit.date, (MARGIN, HEIGHT - 1.0, width - logo_width, 0.4), largest=14, lang=kit.lang, colour=MUTED,
          font=base)


def faces(brand) -> tuple[str | None, str | None]:
    """A brand's base and headings faces (headings: the base face when it names none); None: the house's."""
    return brand.base_font, brand.headings_font or brand.base_font


def _hex(colour: str | None, default: str) -> str:
    """A brand's ``#rrggbb`` as python-pptx takes it, else the deck's own."""
    return colour.lstrip("#").upper() if colour else default


def _logo(slide, brand, height: float = 0.9) -> float:
    """The brand's logo in the title slide's lower right corner; the width it takes (0: none)."""
    from pptx.util import Inches

    from mlperf_report.assemble import brand_art

    picture = brand_art.logo_png(brand)
    if picture is None:
        return 0.0
    width = min(height * brand_art.aspect(picture), 4.0)
    slide.shapes.add_picture(io.BytesIO(picture), Inches(WIDTH - MARGIN - width), Inches(HEIGHT - 0.5 - height),
                             Inches(width), Inches(height)).name = "Brand logo"
    return width + 0.2


#: The logo every slide but the title shows (the deck's master), in the lower right corner: below the
#: claim's chart and the closing text, beside the footer (which leaves it the room).
CORNER_HEIGHT, CORNER_BOTTOM = 0.45, 0.3


def _corner(brand) -> tuple[bytes, float, float, float, float] | None:
    """The brand's logo and its box in the slides' lower right corner (inches); None: no logo."""
    from mlperf_report.assemble import brand_art

    picture = brand_art.logo_png(brand)
    if picture is None:
        return None
    width = min(CORNER_HEIGHT * brand_art.aspect(picture), 2.5)
    return picture, WIDTH - MARGIN - width, HEIGHT - CORNER_BOTTOM - CORNER_HEIGHT, width, CORNER_HEIGHT


def _branded(slide, corner) -> None:
    """The corner logo on ``slide`` itself, where the master cannot carry it (a python-pptx version
    its XML was not checked with: ``compat.pptx_master_picture``)."""
    from pptx.util import Inches

    if corner and not compat.private_ok("python-pptx"):
        picture, left, top, width, height = corner
        slide.shapes.add_picture(io.BytesIO(picture), *map(Inches, (left, top, width, height))).name = "Brand logo"


def _claim_slide(slide, claim, kit):
    from pptx.util import Inches

    width = WIDTH - 2 * MARGIN
    base, heading = faces(kit.brand)
    _text(slide, claim.text, (MARGIN, 0.35, width, 1.75), largest=28, smallest=12, lang=kit.lang, bold=True,
          font=heading)
    if claim.chart is not None:
        chart_w, chart_h = CHART.width, CHART.height
        png = kit_charts.drawing(claim, kit, CHART)
        slide.shapes.add_picture(io.BytesIO(png), Inches((WIDTH - chart_w) / 2), Inches(2.25), Inches(chart_w),
                                 Inches(chart_h))
    corner = _corner(kit.brand)
    beside_logo = corner[3] + 0.2 if corner else 0.0
    _text(slide, footer(claim, kit), (MARGIN, HEIGHT - 0.85, width - beside_logo, 0.6), largest=10, lang=kit.lang,
          colour=MUTED, font=base)
    bars = bar_labels.notes_line(claim.chart, kit.lang)
    _notes(slide, f"{claim.text}\n\n{claim.note}" + (f"\n\n{bars}" if bars else ""))
    return slide


def footer(claim, kit, shown: int = 3, more: str = "kit.more_ids") -> str:
    """The source and the results a claim rests on (the first ``shown``; ``more`` says where the
    rest are: the speaker notes, the report): by MLCommons result ID where known ("MLPerf® Training
    v5.1, closed division, BERT, result ID 5.1-0002"), then with the retrieval date; else by path."""
    ids = list(claim.citations or claim.cites)
    listed = ("; " if claim.has_ids else ", ").join(ids[:shown]) + (label(more, kit.lang, count=len(ids) - shown) if len(ids) > shown else "")
    dated = citations.on_date(kit.retrieved, kit.lang) if claim.has_ids else ""
    return label("kit.footer", kit.lang, round=kit.mark_title, source=kit.source, ids=listed or "—", retrieved=dated)


def _closing_slide(slide, kit):
    width = WIDTH - 2 * MARGIN
    base, heading = faces(kit.brand)
    _text(slide, label("kit.closing", kit.lang), (MARGIN, 0.8, width, 0.8), largest=28, lang=kit.lang, bold=True,
          font=heading)
    body = label("kit.source", kit.lang, round=kit.mark_title, source=kit.source) + "\n" + \
        label("kit.derived", kit.lang) + "\n" + kit.legend
    _text(slide, body, (MARGIN, 2.0, width, 4.5), largest=16, smallest=10, lang=kit.lang, font=base)
    return slide
