"""Where the project reaches into a library's private names, each reach gated on the versions it was
checked with: inside that range the private path runs (faster, or the only way to a detail); outside
it the public path does (slower or plainer, never wrong), so an upgrade of a library can cost speed or
polish but never a wrong file. A test per gate proves both paths give the same result.

The gates (``CHECKED``: distribution -> [first, last] version checked, inclusive, by release numbers):

- ``python-pptx``: a run's XML element (``run._r``) to name its East Asian typeface
  (``formats.slides``); public path: the saved deck's XML given it (``pptx_east_asian``); and the
  slide master's shape tree, to put a brand's logo on the master (``pptx_master_picture``, which
  python-pptx offers no call for) and keep it off the title slide (``pptx_without_master_shapes``);
  public path: the logo added to each slide but the title (``formats.slides._branded``);
- ``mlperf-logging``: the summarizer's energy arithmetic (``_compute_power_node`` / ``_sw``,
  ``_index_olympic_average``: ``suites.training.power``); public path: the same arithmetic transcribed
  (``suites.training.power_arith``);
- ``python``: a process pool's workers (``ProcessPoolExecutor._processes``: ``processes.terminate_pool``);
  public path: ``terminate_workers`` (3.14), else a shutdown that waits for the running tasks;
- ``nbconvert``: ``HTMLExporter.from_notebook_node`` re-done without its BeautifulSoup pass
  (``_init_resources``, ``_nb_metadata``: ``assemble.sections``); public path: ``HTMLExporter``
  itself (the same elements, written out once more).

Reaches checked elsewhere keep their own gate (``CHECKED``) beside the code they speed up:
matplotlib's text layout (``analysis.measured_text``), its renderer for a one-pass chart layout
(``analysis.layout``) and its marker copies (``analysis.marker_copies``); WeasyPrint's line
breaking, of the charts' letters (``assemble.chart_letters``) and of the page's text
(``assemble.text_lines``), its SVG text code (``assemble.svg_runs``) and its page boxes
(``assemble.page_fit``); jupyter_client's kernel launch and ipykernel's application
(``analysis.kernel_seed``).
"""

from __future__ import annotations

import functools
import re
import sys

#: distribution -> (first, last) version whose private names were checked (release numbers, inclusive).
CHECKED = {
    "python-pptx": ("1.0.0", "1.0.2"),
    "mlperf-logging": ("4.1.0", "4.1.68"),
    "python": ("3.11.0", "3.13.99"),
    "nbconvert": ("7.17.2", "7.17.2"),
}


def release(version: str) -> tuple[int, ...]:
    """``1.0.2`` -> (1, 0, 2); a pre-release or local part (``4.1.0rc1``, ``+cpu``) is cut at the first non-digit."""
    parts = []
    for part in version.split("."):
        digits = re.match(r"\d+", part)
        if not digits:
            break
        parts.append(int(digits.group()))
        if digits.group() != part:
            break
    return tuple(parts)


@functools.lru_cache(maxsize=None)
def installed(distribution: str) -> str:
    """The installed version of ``distribution`` ("" when it is not installed)."""
    if distribution == "python":
        return ".".join(map(str, sys.version_info[:3]))
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return ""


def within(version: str, checked: tuple[str, str]) -> bool:
    """Whether ``version`` lies in the checked range (inclusive)."""
    return bool(version) and release(checked[0]) <= release(version) <= release(checked[1])


def private_ok(distribution: str) -> bool:
    """Whether the installed ``distribution`` is one whose private names were checked (:data:`CHECKED`)."""
    return within(installed(distribution), CHECKED[distribution])


_LATIN = re.compile(rb'(<a:latin typeface="([^"]*)"[^>]*/>)(?!<a:ea )')


def pptx_east_asian(deck: bytes, east_asian: str | None = None) -> bytes:
    """A saved deck whose every run names its Latin typeface as its East Asian and complex-script one
    too (``<a:ea>``, ``<a:cs>`` right after ``<a:latin>``, the schema's order), so PowerPoint and
    LibreOffice pick Chinese glyphs from it (``east_asian``: that face as the East Asian one instead,
    a brand's deck): the public path of ``formats.slides._east_asian``, on the saved file's XML rather
    than on python-pptx's private element of each run."""
    import io
    import zipfile

    source, out = zipfile.ZipFile(io.BytesIO(deck)), io.BytesIO()
    ea = east_asian.encode("utf-8") if east_asian else None
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.startswith("ppt/slides/slide") and info.filename.endswith(".xml"):
                data = _LATIN.sub(lambda m: m.group(1) + b'<a:ea typeface="' + (ea or m.group(2)) + b'"/><a:cs typeface="'
                                  + m.group(2) + b'"/>', data)
            target.writestr(info, data)
    return out.getvalue()


def pptx_master_picture(master, picture: bytes, left: float, top: float, width: float, height: float) -> None:
    """``picture`` (PNG or JPEG bytes) on the slide ``master`` at the box given in inches, named "Brand
    logo": every slide of a layout that shows the master's shapes shows it. The master's part relates
    the image (public); the ``p:pic`` is python-pptx's own template, put in the master's shape tree."""
    import io

    from pptx.oxml.shapes.picture import CT_Picture
    from pptx.util import Inches

    _, rId = master.part.get_or_add_image_part(io.BytesIO(picture))
    shape_id = max((shape.shape_id for shape in master.shapes), default=1) + 1
    box = [int(Inches(value)) for value in (left, top, width, height)]
    pic = CT_Picture.new_pic(shape_id, "Brand logo", "", rId, *box)
    master.element.cSld.spTree.append(pic)


def pptx_without_master_shapes(slide) -> None:
    """``slide`` shows none of its master's shapes (the title slide, which has its own logo)."""
    slide.element.set("showMasterSp", "0")
