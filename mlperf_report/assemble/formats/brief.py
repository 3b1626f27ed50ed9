"""The one-page brief (``brief.<lang>.pdf``), for executives: the headline, the lead claims, the
headline's chart, the notes naming the results each claim rests on, the source and MLCommons'
notices, on exactly one A4 page (``templates/brief.html.j2``, WeasyPrint). A story too long for the
page loses highlights from its end, never type size, until it fits."""

from __future__ import annotations

import base64

from mlperf_report.assemble import kit_charts
from mlperf_report.i18n.labels import label

name = "brief"
per_language = True
label_key = "kit.brief"  # what the contents, the index page and mail call it
mime = {".pdf": "application/pdf"}

CHART_HEIGHT = 2.5  # inches, at the report's chart width
CHART = kit_charts.ChartSize("svg", CHART_HEIGHT)


def files(kit) -> tuple[str, ...]:
    return (f"brief.{kit.lang}.pdf",)


def companion(kit):
    return (f"brief.{kit.lang}.pdf", label("kit.brief", kit.lang))


def charts(kit) -> tuple:
    """The chart the brief shows: the first charted claim's, as SVG (the document draws it)."""
    first = next((i for i, claim in enumerate(kit.claims) if claim.chart is not None), None)
    return () if first is None else ((first, CHART),)


def make(report) -> dict[str, bytes]:
    return {f"brief.{report.lang}.pdf": brief_bytes(report.kit, report.page.cache_dir)}


def brief_bytes(kit, cache_dir=None) -> bytes:
    """The brief's PDF: as many lead claims as fit on the page with the headline, in their order."""
    from mlperf_report.assemble import page, pdf_print, print_svg

    from markupsafe import Markup

    charted = next((c for c in kit.claims if c.chart is not None), None)
    # its labels are text: set in the embedded faces, which are cut to their characters too
    svg, labels = print_svg.glyphs_to_text(kit_charts.drawing(charted, kit, CHART)) if charted else ("", [])
    chart = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode() if charted else ""
    template = page._jinja().get_template("brief.html.j2")
    context = dict(kit=kit, chart=chart, chart_alt=charted.chart_title if charted else "",
                   brand_css=Markup(brand_css(kit.brand)), logo=page.logo_uri(kit.brand),
                   logo_alt=kit.brand.logo_alt or kit.brand.name,
                   source=label("kit.source", kit.lang, round=kit.mark_title, source=kit.source),
                   derived=label("kit.derived", kit.lang))
    claims = _numbered(kit.claims)
    faces = page.page_fonts(template.render(**context, claims=claims, font_faces=[]), "".join(labels), cache_dir)
    return pdf_print.shortest_that_fits(lambda n: template.render(**context, claims=claims[:n], font_faces=faces),
                                        max(len(claims), 1))


def brand_css(brand) -> str:
    """The brief's CSS for a brand: the round's line and the text in its colours, its typefaces
    before the CJK face, its logo at the header's right."""
    from mlperf_report.assemble.page import font_rules

    rules = [f".round {{ color: {brand.text_accent}; }}"] if brand.text_accent else []
    rules += [f"html {{ color: {brand.foreground}; }}"] if brand.foreground else []
    rules += font_rules(brand, "h1", fallback='"Noto Sans CJK TC Subset", "DejaVu Sans", sans-serif')
    if brand.logo:
        rules.append(".logo { float: right; max-height: 12mm; max-width: 45mm; margin: 0 0 2mm 4mm; }")
    return "\n".join(rules)


def _numbered(claims) -> list[dict]:
    """Each claim with its note's number (a claim that cites no result has no note) and its place
    (what its bullet and note are marked with for ``page_fit``)."""
    out, number = [], 0
    for position, claim in enumerate(claims, start=1):
        number += bool(claim.cites)
        out.append({"text": claim.text, "note": claim.note, "number": number if claim.cites else None,
                    "position": position})
    return out
