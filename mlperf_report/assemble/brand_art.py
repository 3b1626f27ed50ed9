"""A brand's logo as a picture for the formats that cannot take SVG: the deck (python-pptx) and the
chart cards (matplotlib). A PNG or JPEG logo is used as it is; an SVG logo is rasterised with what
the build already has (WeasyPrint lays it out on a page of its size, pdfium, which pdfplumber
brings, renders that page), so no SVG library is added. The HTML and the PDFs take an SVG logo as is.
"""

from __future__ import annotations

import functools
import io
import re

from mlperf_report.core.errors import say_once

#: Height of a rasterised SVG logo, in pixels: sharp on a slide's title (about 1 inch at 300 dpi).
RASTER_HEIGHT = 300
_NUMBER = r"([0-9.]+)(?:px)?"


def logo_png(brand) -> bytes | None:
    """The brand's logo as PNG or JPEG bytes; None without a logo or when an SVG logo cannot be drawn
    (said once: the deck and cards then go without it)."""
    if brand is None or brand.logo is None:
        return None
    data = brand.logo_bytes()
    if brand.logo_type != "image/svg+xml":
        return data
    return _rasterised(data, str(brand.logo))


def aspect(picture: bytes) -> float:
    """Width over height of a PNG or JPEG."""
    from PIL import Image

    with Image.open(io.BytesIO(picture)) as image:
        return image.width / max(image.height, 1)


def _svg_aspect(svg: str) -> float:
    """Width over height from the SVG's viewBox, else its width and height; 1 when it gives neither."""
    box = re.search(r'viewBox\s*=\s*"\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)[\s,]+([0-9.]+)\s*"', svg)
    width, height = (box.groups() if box else
                     (_attribute(svg, "width"), _attribute(svg, "height")))
    try:
        return float(width) / float(height) if float(height) > 0 else 1.0
    except (TypeError, ValueError):
        return 1.0


def _attribute(svg: str, name: str) -> str | None:
    found = re.search(rf'<svg\b[^>]*\s{name}\s*=\s*"{_NUMBER}"', svg)
    return found.group(1) if found else None


@functools.lru_cache(maxsize=4)
def _rasterised(data: bytes, where: str) -> bytes | None:
    import base64

    try:
        import pypdfium2
        from weasyprint import HTML

        height = RASTER_HEIGHT
        width = max(1, round(height * _svg_aspect(data.decode("utf-8", "replace"))))
        uri = "data:image/svg+xml;base64," + base64.b64encode(data).decode("ascii")
        page = (f'<style>@page {{ size: {width}px {height}px; margin: 0 }} body {{ margin: 0 }}</style>'
                f'<img src="{uri}" style="display: block; width: {width}px; height: {height}px">')
        pdf = pypdfium2.PdfDocument(HTML(string=page).write_pdf())
        image = pdf[0].render(scale=96 / 72, fill_color=(255, 255, 255, 0)).to_pil()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()
    except Exception as error:  # a logo the renderers refuse: the deck and the cards go without it
        say_once(f"brand: logo {where}: cannot be drawn as a picture ({type(error).__name__}: {error}); "
                 "the deck and the cards have no logo (today's default)")
        return None
