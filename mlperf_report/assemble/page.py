"""The report as one HTML page: the template around the sections, and the font faces it embeds.

``templates/report.html.j2`` puts cover, contents and sections together, with the CSS and the font
subsets inline (data: URIs), or, for printing, handed to WeasyPrint by name. Pure: strings in,
strings out; the document and the printer call it.
"""

from __future__ import annotations

import base64
import functools
from dataclasses import dataclass
from pathlib import Path

from mlperf_report.assemble import print_svg
from mlperf_report.assemble.sections import Section, labels_for
from mlperf_report.core import paths
from mlperf_report.core.brand import NO_BRAND, Brand
from mlperf_report.i18n import fonts


@functools.cache
def _jinja():
    import jinja2

    from mlperf_report.core import jinja_env

    return jinja_env.environment(paths.TEMPLATES, autoescape=jinja2.select_autoescape(["html", "j2"]),
                                 keep_trailing_newline=True)


@dataclass(frozen=True)
class FontFace:
    """One inline ``@font-face``: family, weight, the font file (woff) and its style."""

    family: str
    weight: int
    data: bytes
    format: str = "woff"
    style: str = "normal"

    @property
    def uri(self) -> str:
        return "data:font/woff;base64," + base64.b64encode(self.data).decode("ascii")

    def name(self) -> str:
        slant = "" if self.style == "normal" else f"-{self.style}"
        return f"font-{self.family.replace(' ', '-')}-{self.weight}{slant}"


@dataclass(frozen=True)
class _Face:
    """What the template needs of a face: family, weight, a URL, its format and its style."""

    family: str
    weight: int
    uri: str
    format: str = "woff"
    style: str = "normal"


def render_page(*, lang: str, title: str, round_title: str, date: str, sections: list[Section],
                font_faces: tuple[FontFace, ...] = (), resources: dict | None = None,
                contents: list[Section] | None = None, appendix_files: dict[str, str] | None = None,
                companions: tuple[tuple[str, str], ...] = (), brand: Brand = NO_BRAND) -> str:
    """The whole report page; section bodies are trusted HTML made by our own code. Fonts are
    inline data: URIs, or, when ``resources`` is given (printing), moved there by name.

    ``contents``: the sections the cover's contents list (default ``sections``; empty: no cover and
    no contents, as the printed appendix has). ``appendix_files``: section id -> the file the
    appendix sections listed in the contents are printed in (``appendix_pdf``). ``companions``:
    (file name, what it is) of the files beside the report, listed under the contents. ``brand``:
    its colours, typefaces and logo (on the cover) over the house style."""
    from markupsafe import Markup

    template = _jinja().get_template("report.html.j2")
    return template.render(
        lang=lang, title=title, round_title=round_title, date=date, labels=labels_for(lang),
        sections=[Section(s.id, s.title, Markup(s.html), s.kind) for s in sections],
        contents=sections if contents is None else contents, appendix_files=appendix_files or {},
        companions=companions,
        report_css=Markup((paths.TEMPLATES / "report.css").read_text(encoding="utf-8")),
        print_css=Markup((paths.TEMPLATES / "print.css").read_text(encoding="utf-8")),
        font_faces=[_face(face, resources) for face in font_faces],
        brand_css=Markup(brand_style(brand)), logo=logo_uri(brand), logo_alt=brand.logo_alt or brand.name,
    )


#: The report's font list after a brand's typeface: the CJK face (embedded subset first) stays the
#: fallback, so a Latin-only brand face never leaves Chinese as boxes.
CJK_FALLBACK = ('"Noto Sans CJK TC Subset", "Noto Sans CJK TC", "Noto Sans TC", "PingFang TC", '
                '"Microsoft JhengHei", sans-serif')


def brand_style(brand: Brand) -> str:
    """CSS over report.css and print.css: the brand's colours as the page's variables (accent: the
    headings' rules, the cover's bar, links), its second accent (``secondary``) for the headings'
    rules, its base and headings typefaces, the cover's logo (the exhibits' first page's, where there is no cover)."""
    colours = {"--accent": brand.primary, "--ink": brand.foreground, "--paper": brand.background}
    rules = [":root { " + " ".join(f"{k}: {v};" for k, v in colours.items() if v) + " }"] if any(colours.values()) else []
    rules += [f"h2 {{ border-bottom-color: {brand.secondary}; }}"] if brand.secondary else []
    if brand.text_accent and brand.text_accent != brand.primary:  # a light primary: words in the text's colour
        rules.append(f"a, .cover-round {{ color: {brand.text_accent}; }}")
    rules += font_rules(brand, "h1, h2, h3, h4, .cover-title")
    if brand.base_font:
        # The exhibits' tables, every result of the round in nine columns, are laid out to the page's
        # width in the house face (Noto Sans CJK's Latin, a narrow one): a wider brand face pushed
        # Training v4.1's past the page's edge (DejaVu Serif: 65 words). In print they keep the house
        # face; their headings, running heads and every other text are the brand's.
        rules.append(f"@media print {{ .section-appendix table {{ font-family: {CJK_FALLBACK}; }} }}")
    if brand.logo:
        rules.append(".cover-logo { display: block; max-height: 4rem; max-width: 16rem; margin: 0 0 1.2rem; }")
        # a page with no cover (the exhibits printed on their own): the logo small, at the first page's top right
        rules.append(".exhibits-logo { display: block; max-height: 2.4rem; max-width: 10rem; margin: 0 0 0.6rem auto; }")
    return "\n".join(rules)


def font_rules(brand: Brand, headings: str, fallback: str = CJK_FALLBACK) -> list[str]:
    """The brand's base typeface for the page and its headings typeface for ``headings``, each before
    ``fallback`` (the CJK face first: a Latin-only brand font never leaves Chinese as boxes)."""
    return [f"{selector} {{ font-family: {css_family(family)}, {fallback}; }}"
            for selector, family in (("html", brand.base_font), (headings, brand.headings_font)) if family]


def css_family(family: str) -> str:
    """A font family name as a CSS string (nothing in it can end the rule)."""
    return '"' + face_family(family) + '"'


def face_family(family: str) -> str:
    """A brand's family name as the page names it: without a character that could end a CSS rule or
    that the template's escaping would change (the ``@font-face`` must match ``font-family``)."""
    return "".join(ch for ch in family if ch not in '"\'\\<>{};&')


@functools.lru_cache(maxsize=4)
def logo_uri(brand: Brand) -> str:
    """The brand's logo as a data: URI, SVG as it is, made once per process (the report's pages, the
    print and every brief tried show it). ``charset`` keeps an SVG logo out of the
    charts' rewriting (``screen_svg``, ``print_svg`` take ``svg+xml;base64`` images for charts)."""
    if not brand.logo:
        return ""
    kind = brand.logo_type + (";charset=utf-8" if brand.logo_type == "image/svg+xml" else "")
    return f"data:{kind};base64," + base64.b64encode(brand.logo_bytes()).decode("ascii")


def _face(face: FontFace, resources: dict | None) -> _Face:
    if resources is None:
        return _Face(face.family, face.weight, face.uri, style=face.style)
    resources[face.name()] = (face.data, "font/woff")
    return _Face(face.family, face.weight, print_svg.SCHEME + face.name(), style=face.style)


def page_fonts(page_text: str, chart_labels: str, cache_dir: Path | None,
               brand: Brand = NO_BRAND) -> tuple[FontFace, ...]:
    """The CJK face cut down to the page's and the charts' characters (one subset serves the HTML and
    the PDF), a brand's typefaces cut to the page's (:func:`brand_faces`), then DejaVu Sans regular,
    bold and bold oblique for the chart labels (if any), which the charts carry as text."""
    font_cache = cache_dir / "fonts" if cache_dir else None
    base = fonts.base_dir() if cache_dir else None  # what subsets are cut from: made by `make venv`
    faces = [FontFace(fonts.EMBEDDED_CJK_FAMILY, 400, fonts.subset_font(page_text + chart_labels, cache_dir=font_cache,
                                                                base_dir=base))]
    faces += brand_faces(brand, page_text, font_cache, base)
    if not chart_labels:  # no chart to label (the exhibits): no DejaVu face to cut
        return tuple(faces)
    for weight, slant, path in fonts.latin_faces():
        faces.append(FontFace(print_svg.LATIN_FAMILY, weight,
                              fonts.subset_font(chart_labels, path=path, cache_dir=font_cache, base_dir=base), style=slant))
    return tuple(faces)


def brand_faces(brand: Brand, text: str, font_cache: Path | None, base: Path | None) -> list[FontFace]:
    """A brand's base and headings typefaces, regular and bold (when fontconfig gives it a file of its
    own), cut to ``text``'s characters like the house faces: the page shows the brand's face on a
    machine without it. The files are those the build resolved once (``Brand.font_files``)."""
    from mlperf_report.core.brand import font_file

    faces = []
    for family in dict.fromkeys(f for f in (brand.base_font, brand.headings_font) if f):
        regular = font_file(family, False)
        for weight, found in ((400, regular), (700, font_file(family, True))):
            if found is None or (weight == 700 and found == regular):
                continue  # no bold of its own: the browser makes it bold, as WeasyPrint does
            faces.append(FontFace(face_family(family), weight, fonts.subset_font(
                text, path=found[0], face_index=found[1], cache_dir=font_cache, base_dir=base)))
    return faces
