"""The CJK font the reports and charts use, so Traditional Chinese never renders as tofu boxes.

The font comes from the pinned PyPI package ``noto-cjk-sans-otc`` (Noto Sans CJK Regular as an
OpenType collection, SIL OFL 1.1, ~19 MB installed), so ``make report`` works on a fresh machine
without system fonts; Debian's ``fonts-noto-cjk`` is used when the package is missing.

Charts: call :func:`register_matplotlib_cjk` before drawing. The house style writes labels as text
(``svg.fonttype = "none"``, no glyph outlines drawn and shipped only to be turned back into text):
the report sets them in the subsets it embeds of these fonts (``EMBEDDED_*``, :func:`latin_faces`).
Reports: :func:`subset_font` cuts the font down to the characters a report uses, small enough to
inline as a base64 ``@font-face`` in a self-contained HTML file and quick for WeasyPrint to embed.
"""

from __future__ import annotations

import functools
import hashlib
import io
from pathlib import Path

#: Family (and face of the collection) used for Traditional Chinese.
CJK_FAMILY = "Noto Sans CJK TC"

#: Latin family matplotlib ships, tried first so Latin labels keep matplotlib's usual look.
LATIN_FAMILY = "DejaVu Sans"

#: The names a page gives the subsets it embeds of those two (``@font-face``), names no installed
#: font has. Under the installed names, WeasyPrint (through fontconfig) took an installed face where
#: one matched better: with Debian's fonts-noto-cjk, its Bold for every bold Chinese word, cut from
#: the 20 MB system file as each PDF was written (80 MB more per print), and a PDF that differs by
#: machine. Under these names only the embedded subsets match; bold is drawn from the regular face.
EMBEDDED_CJK_FAMILY = "Noto Sans CJK TC Subset"
EMBEDDED_LATIN_FAMILY = "DejaVu Sans Subset"

#: Where Debian's fonts-noto-cjk puts the same collection.
_SYSTEM_PATHS = (
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc"),
)


@functools.cache
def cjk_font_path() -> Path | None:
    """Path of the Noto Sans CJK collection: the pinned PyPI package first, then system fonts."""
    try:
        import noto_cjk_sans_otc
    except ImportError:
        pass
    else:
        path = Path(str(noto_cjk_sans_otc.FONT_PATH))
        if path.is_file():
            return path
    return next((path for path in _SYSTEM_PATHS if path.is_file()), None)


def require_cjk_font() -> Path:
    """Like :func:`cjk_font_path`, but an error that says how to install the font."""
    from mlperf_report.core.errors import UserError

    path = cjk_font_path()
    if path is None:
        raise UserError(
            "no CJK font found for Traditional Chinese: run `make venv` (installs the pinned "
            "noto-cjk-sans-otc package) or `apt-get install fonts-noto-cjk`"
        )
    return path


@functools.cache
def cjk_face_index(path: Path | None = None) -> int:
    """Index of the ``Noto Sans CJK TC`` face inside the collection (3 in Noto's own file)."""
    from fontTools.ttLib import TTCollection

    path = path or require_cjk_font()
    with open(path, "rb") as handle:
        collection = TTCollection(handle, lazy=True)
        names = [font["name"].getDebugName(1) for font in collection.fonts]
    return names.index(CJK_FAMILY) if CJK_FAMILY in names else 0


def register_matplotlib_cjk() -> str | None:
    """Make matplotlib draw Chinese labels: register the font and use it as the fallback family.

    Sets ``font.family`` to ``[DejaVu Sans, Noto Sans CJK TC]`` (matplotlib falls back glyph by
    glyph along that list). Returns the CJK family name, or None when no CJK font is installed
    (Latin labels still work; Chinese ones would be boxes, so callers may want to warn).
    """
    import matplotlib
    from matplotlib import font_manager

    path = cjk_font_path()
    if path is None:
        return None
    manager = font_manager.fontManager
    # The family is this one file's: a system copy of the same family (Debian's fonts-noto-cjk, with a
    # Bold face matplotlib would pick for bold labels) found by a font list built after it was
    # installed would draw glyphs the chart writers do not know as text, only as outlines.
    kept = [e for e in manager.ttflist if e.name != CJK_FAMILY or Path(e.fname) == path]
    if len(kept) < len(manager.ttflist):
        manager.addfont(str(path))  # the public way to void the fonts found before this (it clears that cache)
        manager.ttflist = kept      # and the list as filtered, in its order, without the copy addfont appended
    if not any(Path(e.fname) == path for e in kept):
        manager.addfont(str(path))  # clears that cache itself
    matplotlib.rcParams["font.family"] = [LATIN_FAMILY, CJK_FAMILY]
    return CJK_FAMILY


#: Characters every subset keeps, so numbers, punctuation and Latin text never fall back.
_ALWAYS = "".join(chr(code) for code in range(0x20, 0x7F)) + "\u00a0–—‘’“”•…×·°€£¥©®™、。，：；！？（）「」『』《》〈〉％"


def subset_font(text: str, *, flavor: str | None = "woff", cache_dir: Path | None = None,
                path: Path | None = None, face_index: int | None = None, base_dir: Path | None = None) -> bytes:
    """A font cut down to the characters of ``text`` (plus ASCII and common punctuation): by
    default the CJK face, or the font file ``path`` (e.g. from :func:`latin_font_paths`).

    ``flavor`` is ``"woff"`` for HTML ``@font-face`` (zlib: ~5x quicker to write than woff2 for a
    few percent more bytes) or None for a plain OpenType file. Results are cached by character
    set under ``cache_dir`` so an unchanged rebuild costs nothing (a cold CJK subset takes ~0.5 s;
    cut from the base copy in ``base_dir``, default ``cache_dir``, see :func:`_source_font`, ~0.15 s).
    """
    path, face_index, drop = _face(path, face_index)
    chars = "".join(sorted(set(text) | set(_ALWAYS)))
    key = hashlib.sha256(f"{_file_key(path)}|{face_index}|{flavor}|{drop}|bounds kept|{chars}".encode())
    key = key.hexdigest()[:20]  # "bounds kept": no subset cut before _open kept them is reused
    cached = cache_dir / f"{path.stem}-{key}.{flavor or 'otf'}" if cache_dir else None
    if cached and cached.is_file():
        return cached.read_bytes()
    data = _subset(_source_font(path, face_index or 0, drop, chars, base_dir or cache_dir), chars, flavor, drop)
    if cached:
        from mlperf_report.core.atomic import write_bytes

        write_bytes(cached, data)
    return data


def _file_key(path: Path) -> str:
    """What names a font file in cache keys: where it is, its size and when it changed."""
    stat = path.stat()
    return f"{path}|{stat.st_size}|{stat.st_mtime_ns}"


def _face(path: Path | None, face_index: int | None) -> tuple[Path, int | None, list[str]]:
    """The font file, face and tables to drop of a subset: the CJK face by default."""
    drop = ["FFTM"]  # FontForge timestamps (DejaVu): nothing to subset
    if path is None:
        path = require_cjk_font()
        face_index = cjk_face_index(path)
        # Noto CJK's glyph substitutions are for vertical text, Japanese/Korean/Simplified forms
        # (locl) and full/half widths: none applies to horizontal text in the TC face, and reading
        # them is 0.8 s of the 1.3 s a subset takes and half its size. Kerning (GPOS) stays.
        drop.append("GSUB")
    return path, face_index, drop


def _open(source, face_index: int = 0):
    """A font to subset, opened as ``pyftsubset`` opens it: the bounds in its summary tables (head,
    hhea, vhea) are kept, not recomputed from every glyph's outline at saving, which was half of a
    CJK subset's time (0.36 -> 0.18 s). The kept bounds are the full font's, so they still hold."""
    from fontTools.ttLib import TTFont

    return TTFont(source, fontNumber=face_index, recalcTimestamp=False, recalcBBoxes=False)


def _subset(font, chars: str, flavor: str | None, drop: list[str]) -> bytes:
    from fontTools import subset

    options = subset.Options()
    options.flavor = flavor
    options.notdef_outline = True
    options.name_IDs = ["*"]
    options.drop_tables += drop
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    names = _names_aside(font)
    subsetter.subset(font)
    if names is not None:  # what the subsetter keeps of it (name_IDs "*", its defaults otherwise)
        names.names = [n for n in names.names if n.nameID < 256 and n.isUnicode() and n.langID == 0x409]
        font["name"] = names
    buffer = io.BytesIO()
    font.flavor = flavor
    font.save(buffer)
    return buffer.getvalue()


def _names_aside(font):
    """The font's ``name`` table, taken out of it while it is subset when every record's ID is below
    256: the subsetter walks every table of the font for the name IDs they refer to, a third of a
    subset's time, only to keep those records, and with ``name_IDs = ["*"]`` it keeps every ID below
    256 anyway. The same bytes (a test compares: every table is read first, as the walk reads them,
    since a table read is compiled anew, not copied); None (left in place) for a font with higher IDs."""
    if "name" not in font or any(record.nameID >= 256 for record in font["name"].names):
        return None
    for tag in font.keys():  # read as that walk reads them: a table read is written anew, not copied
        font[tag]
    names = font["name"]
    del font["name"]
    return names


def _source_font(path: Path, face_index: int, drop: list[str], chars: str, cache_dir: Path | None):
    """The font a subset of ``chars`` is cut from: the font file itself, or, when ``cache_dir`` is
    given and ``chars`` are all among :func:`base_characters`, a copy of it cut down to those once
    and kept there. Subsetting keeps the source's glyph order and tables, so both give the same bytes
    (a test checks); the copy is a few hundred glyphs where Noto CJK has 65,000, and reading the
    full font's tables was most of each report's subset time."""
    if cache_dir is None or not set(chars) <= set(base_characters()):
        return _open(str(path), face_index)  # same input, same bytes
    base = _base_copy(path, face_index, drop, cache_dir)
    return _open(io.BytesIO(base.read_bytes()))


def _base_copy(path: Path, face_index: int, drop: list[str], folder: Path) -> Path:
    """The base copy of one face in ``folder``, cut from the full font the first time (~1.7 s for
    Noto CJK). Named by the font file and :func:`base_characters`, so new words in a catalogue
    make a new copy and an old one is never used for them."""
    base_chars = base_characters()
    key = hashlib.sha256(f"{_file_key(path)}|{face_index}|{drop}|bounds kept|{base_chars}".encode())
    base = folder / f"base-{path.stem}-{key.hexdigest()[:20]}.otf"
    if not base.is_file():
        from mlperf_report.core.atomic import write_bytes

        write_bytes(base, _subset(_open(str(path), face_index), base_chars, None, drop))
    return base


def base_dir() -> Path:
    """Where reports' base copies are kept: ``.cache/fonts``, apart from the assembly cache (what the
    fonts are cut from belongs to the installation, not to one report; ``make venv`` makes them)."""
    from mlperf_report.core import paths

    return paths.CACHE / "fonts"


def prepare_base_copies(folder: Path | None = None) -> list[Path]:
    """Make the base copies of every face a report embeds (Noto CJK TC, DejaVu Sans regular and
    bold, bold oblique), and the list of what charts can draw, now, so the first build need not: ``make venv``
    runs this once."""
    folder = folder or base_dir()
    faces = [_face(None, None)] if cjk_font_path() else []
    faces += [_face(path, None) for _, _, path in latin_faces()]
    chart_code_points(folder)
    return [_base_copy(path, face_index or 0, drop, folder) for path, face_index, drop in faces]


class CodePoints:
    """A set of code points kept as sorted ranges: Noto's 65,000 as a frozenset of ints held 5.6 MB in
    every kernel and assembling process; as its 1,400 ranges, a few kB. ``in`` is a binary search."""

    def __init__(self, ranges) -> None:
        self.ranges = tuple(ranges)
        self._starts = [first for first, _ in self.ranges]

    def __contains__(self, code) -> bool:
        import bisect

        at = bisect.bisect_right(self._starts, code) - 1
        return at >= 0 and code <= self.ranges[at][1]

    def __iter__(self):
        return (code for first, last in self.ranges for code in range(first, last + 1))

    def __len__(self) -> int:
        return sum(last - first + 1 for first, last in self.ranges)


def chart_code_points(folder: Path | None = None) -> CodePoints:
    """Code points the chart fonts can draw: DejaVu Sans's, plus Noto Sans CJK TC's when installed.

    Reading Noto's character map (65,000 entries) took each kernel 0.26 s, so it is kept in
    ``folder`` (default :func:`base_dir`) as ranges, named by the fonts' files (a changed font is read
    again); reading that back takes a few milliseconds."""
    paths_ = [latin_font_paths()[400], *([cjk_font_path()] if cjk_font_path() else [])]
    key = hashlib.sha256("|".join(_file_key(p) for p in paths_).encode())
    cached = (folder or base_dir()) / f"drawable-{key.hexdigest()[:20]}.txt"
    try:
        return CodePoints((int(first), int(last)) for line in cached.read_text(encoding="ascii").split()
                          for first, _, last in [line.partition("-")])
    except (OSError, ValueError):
        pass
    from fontTools.ttLib import TTFont

    codes = set(TTFont(str(paths_[0]), lazy=True).getBestCmap())
    if len(paths_) > 1:
        codes |= set(TTFont(str(paths_[1]), fontNumber=cjk_face_index(paths_[1]), lazy=True).getBestCmap())
    ranges = list(_ranges(sorted(codes)))
    try:
        from mlperf_report.core.atomic import write_text

        write_text(cached, "\n".join(f"{a}-{b}" for a, b in ranges) + "\n")
    except OSError:  # a read-only cache costs the next kernel the reading, nothing else
        pass
    return CodePoints(ranges)


def _ranges(codes: list[int]):
    """Runs of consecutive ``codes`` as (first, last)."""
    start = prev = codes[0]
    for code in codes[1:]:
        if code != prev + 1:
            yield start, prev
            start = code
        prev = code
    yield start, prev


@functools.cache
def base_characters() -> str:
    """The characters of the base copies :func:`_source_font` cuts reports' subsets from: whitespace,
    Latin (ASCII to Latin Extended-B), general punctuation, the house set, and every character of the
    project's own words: message catalogues, templates, the data catalogues and the package's text
    (benchmark and model names in Chinese). A report with a character beyond them (a submitter's name
    in another script, a title given in another report.yaml) is cut from the full font instead."""
    from mlperf_report.core import paths

    chars = set(_ALWAYS) | set("\t\n\r")
    chars |= {chr(code) for code in (*range(0x20, 0x7F), *range(0xA0, 0x250), *range(0x2000, 0x2070))}
    sources = [*paths.LOCALE.rglob("*.po"), *paths.TEMPLATES.rglob("*"), *paths.DATA.glob("*.yaml"),
               *(paths.ROOT / "mlperf_report").rglob("*.py")]
    for source in sorted(sources):
        if source.is_file():
            chars |= set(source.read_text(encoding="utf-8", errors="ignore"))
    return "".join(sorted(chars))


def latin_font_paths() -> dict[int, Path]:
    """matplotlib's own DejaVu Sans files by weight (400, 700): the Latin font charts are drawn in,
    which the PDF embeds to set chart labels as text (see :mod:`mlperf_report.assemble.print_svg`)."""
    import importlib.util

    # where matplotlib keeps its data, found without importing it (0.3 s an assembling process spent)
    package = Path(importlib.util.find_spec("matplotlib").origin).parent
    folder = package / "mpl-data" / "fonts" / "ttf"
    return {400: folder / "DejaVuSans.ttf", 700: folder / "DejaVuSans-Bold.ttf"}


@functools.cache
def latin_characters() -> frozenset[int]:
    """The code points DejaVu Sans (bold) draws: a chart's other characters are drawn in Noto Sans CJK,
    whose one face is regular whatever weight or slant a label asks for (~16 ms, once a process)."""
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(str(latin_font_paths()[700]), lazy=True).getBestCmap())


def latin_faces() -> tuple[tuple[int, str, Path], ...]:
    """The DejaVu Sans faces a report embeds for chart labels, as (weight, style, file): regular,
    bold, and bold oblique (the charts' division labels; with labels as text, a face the page lacks
    would be faked by the reader's browser or drawn upright by the printer)."""
    paths_ = latin_font_paths()
    oblique = paths_[700].with_name("DejaVuSans-BoldOblique.ttf")
    return ((400, "normal", paths_[400]), (700, "normal", paths_[700]), (700, "italic", oblique))


if __name__ == "__main__":  # python -m mlperf_report.i18n.fonts: what `make venv` runs
    import sys
    import time

    started = time.perf_counter()
    made = prepare_base_copies()
    print(f"fonts: {len(made)} base copies ready in {base_dir()} ({time.perf_counter() - started:.1f} s)",
          file=sys.stderr)
