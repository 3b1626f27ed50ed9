"""A vendor's brand (``_brand.yml``, the brand.yml standard Quarto and Shiny read): the colours, logo
and typefaces every deliverable carries.

Found beside the configuration (``data/_brand.yml``), named by ``brand:`` in it (relative to it) or by
``--brand FILE``; without one, today's look. Read with the ``brand-yml`` package, imported only when
a brand file exists, so a build without one pays nothing. Each item is checked on its own: a missing
logo, a colour that is neither a colour nor a palette name, a typeface fontconfig does not know, a
file that is not YAML: one line naming the item and today's default used instead, never a failed
build. The result is a small frozen ``Brand``, picklable for the assembling processes, with what
they would each look up again resolved once here: the font files of its typefaces (``fc-match``)
and the logo's bytes.

What the build's stamp needs of a brand (the files its deliverables are made from: the brand file,
the logos it names, its typefaces' font files) is kept in ``.cache/brand/``, named by the brand
file's path and bytes (:func:`stamp_files`), so a rebuild with nothing changed neither imports
``brand_yml`` nor runs fontconfig.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from mlperf_report.core.errors import say_once as _say

FILE_NAME = "_brand.yml"
#: Today's look: what each item falls back to (the charts' focus colour, the report's ink and paper).
DEFAULT_PRIMARY = "#d1495b"
DEFAULT_FOREGROUND = "#1d232b"
DEFAULT_BACKGROUND = "#ffffff"
DEFAULT_FONT = "DejaVu Sans, Noto Sans CJK TC for Chinese"
LOGO_TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_COLOURS = (("primary", DEFAULT_PRIMARY), ("secondary", "accent"), ("foreground", DEFAULT_FOREGROUND),
            ("background", DEFAULT_BACKGROUND))


@dataclass(frozen=True)
class Brand:
    """What a build uses of a brand file; None: today's default for that item."""

    file: Path | None = None
    name: str = ""
    primary: str | None = None       # "#0a7d2c": the focus's colour in every chart, the accents
    secondary: str | None = None     # the second accent: the report's headings' rules (else the accent)
    foreground: str | None = None    # the text's colour
    background: str | None = None    # the page's colour (HTML and PDF)
    logo: Path | None = None
    logo_alt: str = ""
    base_font: str | None = None
    headings_font: str | None = None

    #: (family, bold, font file, face index) of each typeface, bold and regular: resolved once by
    #: :func:`load_brand`, so no assembling process runs ``fc-match`` again (:func:`font_file`).
    font_files: tuple[tuple[str, bool, str, int], ...] = ()
    #: Every logo file the brand file names, there or not: one appearing makes the reports stale.
    logos_named: tuple[Path, ...] = ()
    logo_data: bytes = dataclasses.field(default=b"", repr=False)  # read once per build

    @property
    def files(self) -> tuple[Path, ...]:
        """The files the deliverables are made from: the brand file, the logos it names that are
        there and the font files of its typefaces (the build's stamp, :func:`stamp_files`)."""
        logos = tuple(p for p in self.logos_named if p.is_file())
        fonts = tuple(Path(f) for f in sorted({str(f[2]) for f in self.font_files}))  # as stamp_files keeps them
        return tuple(p for p in (self.file,) if p is not None and p.is_file()) + logos + fonts

    @property
    def text_accent(self) -> str | None:
        """The colour of text set in the brand's accent (links, the round's line over a title): the
        primary where it reads on the page (WCAG's 4.5:1 against the background), else the text's
        own colour; a light primary (a yellow) stays the charts', the bars' and the rules' colour,
        never that of words. None without a primary (today's)."""
        from mlperf_report.core import contrast

        if not self.primary:
            return None
        paper = contrast.rgb(self.background or DEFAULT_BACKGROUND)
        if contrast.ratio(contrast.rgb(self.primary), paper) >= contrast.TEXT:
            return self.primary
        return self.foreground or DEFAULT_FOREGROUND

    @property
    def logo_type(self) -> str:
        return LOGO_TYPES.get(self.logo.suffix.lower(), "") if self.logo else ""

    def logo_bytes(self) -> bytes:
        return self.logo_data or (self.logo.read_bytes() if self.logo else b"")


NO_BRAND = Brand()


def brand_file(config_file: Path | None, configured: str | Path | None = None, given: str | Path | None = None) -> Path | None:
    """The brand file of a build: ``--brand`` (``given``), else ``brand:`` (``configured``, relative to
    the configuration), else ``_brand.yml`` beside the configuration when there is one."""
    if given:
        return Path(given)
    folder = Path(config_file).parent if config_file else Path(".")
    if configured:
        path = Path(configured)
        return path if path.is_absolute() else folder / path
    if config_file is None:
        return None
    found = folder / FILE_NAME
    return found if found.is_file() else None


def load_brand(path: Path | None) -> Brand:
    """The brand of ``path`` (None: today's look), every problem said once on stderr."""
    if path is None:
        return NO_BRAND
    path = Path(path)
    try:
        stat = path.stat()
    except OSError:
        _say(f"brand: {path}: no such file; using today's look")
        return NO_BRAND
    brand = _load(path.resolve(), stat.st_mtime_ns, stat.st_size)
    return _with_logo_read(brand) if brand.logo else brand


def _with_logo_read(brand: Brand) -> Brand:
    """``brand`` with its logo's bytes, read once; without a logo (said once, today's default) when
    the file cannot be read or a PNG or JPEG is not one, so no deliverable fails on it."""
    try:
        data = brand.logo.read_bytes()
        if brand.logo_type != "image/svg+xml":
            import io

            from PIL import Image

            with Image.open(io.BytesIO(data)) as image:
                image.verify()
    except Exception as error:  # noqa: BLE001  (OSError, or whatever Pillow says of a broken image)
        _say(f"brand: logo {brand.logo}: cannot be read as {brand.logo_type or 'an image'} "
             f"({type(error).__name__}: {error}); no logo (today's default)")
        return dataclasses.replace(brand, logo=None, logo_data=b"")
    return dataclasses.replace(brand, logo_data=data)


@functools.lru_cache(maxsize=8)
def _load(path: Path, _mtime: int, _size: int) -> Brand:
    try:
        from brand_yml import Brand as BrandYml

        parsed = BrandYml.from_yaml(path)
    except Exception as error:  # invalid YAML, a structure brand.yml refuses: the whole file
        first = " ".join(str(error).split())[:160]
        _say(f"brand: {path}: not a brand.yml file ({type(error).__name__}: {first}); using today's look")
        return Brand(file=path)
    where = f"brand: {path}"
    colours = {role: _colour(getattr(parsed.color, role, None) if parsed.color else None,
                             getattr(parsed.color, "palette", None) if parsed.color else None,
                             f"{where}: color.{role}", default) for role, default in _COLOURS}
    logo, alt, named = _logo(parsed.logo, path.parent, where)
    typography = parsed.typography
    base = _font(_family(typography, "base"), f"{where}: typography.base")
    headings = _font(_family(typography, "headings"), f"{where}: typography.headings")
    found = [(face, bold, font_file(face, bold)) for face in sorted({f for f in (base, headings) if f})
             for bold in (False, True)]
    name = getattr(getattr(parsed, "meta", None), "name", None)
    return Brand(file=path, name=str(getattr(name, "full", None) or getattr(name, "short", None) or name or ""),
                 logo=logo, logo_alt=alt or "", base_font=base, headings_font=headings, logos_named=named,
                 font_files=tuple((face, bold, str(f[0]), f[1]) for face, bold, f in found if f), **colours)


def _colour(value, palette, where: str, default: str) -> str | None:
    """``value`` as ``#rrggbb``: a hex colour, a palette name (brand-yml resolves those it can) or a CSS
    colour name; anything else is said and today's ``default`` used."""
    if value is None:
        return None
    text = str(value).strip()
    if palette and text in palette:
        text = str(palette[text]).strip()
    if _HEX.match(text):
        digits = text[1:].lower()
        return "#" + (digits if len(digits) == 6 else "".join(d * 2 for d in digits))
    if text.startswith("#"):
        _say(f"{where}: {text!r} is not a colour (#rrggbb); using today's {default}")
        return None
    from matplotlib.colors import CSS4_COLORS

    if text.lower() in CSS4_COLORS:
        return CSS4_COLORS[text.lower()].lower()
    _say(f"{where}: {text!r} is neither a colour nor a name in color.palette; using today's {default}")
    return None


def _logo(logo, folder: Path, where: str) -> tuple[Path | None, str | None, tuple[Path, ...]]:
    """The largest logo the file names (``logo: path`` or ``logo: {images, small, medium, large}``)
    that is there and a PNG, JPEG or SVG, its alt text, and every logo file named up to it."""
    if logo is None:
        return None, None, ()
    choices = [logo] if hasattr(logo, "path") else [getattr(logo, size, None) for size in ("large", "medium", "small")]
    named: list[Path] = []
    for resource in (c for c in choices if c is not None):
        relative = str(getattr(resource.path, "root", resource.path))
        path = Path(relative) if Path(relative).is_absolute() else folder / relative
        named.append(path)
        if path.suffix.lower() not in LOGO_TYPES:
            _say(f"{where}: logo {relative}: not a PNG, JPEG or SVG; no logo (today's default)")
        elif not path.is_file():
            _say(f"{where}: logo {relative}: no such file; no logo (today's default)")
        else:
            return path, getattr(resource, "alt", None), tuple(named)
    return None, None, tuple(named)


def _family(typography, role: str) -> str | None:
    part = getattr(typography, role, None) if typography is not None else None
    family = getattr(part, "family", None)
    return str(family).strip() if family else None


def _font(family: str | None, where: str) -> str | None:
    """``family`` when fontconfig knows it (what WeasyPrint, matplotlib and the deck's renderer find)."""
    if not family:
        return None
    if family.lower() in installed_families():
        return family
    _say(f"{where}: font {family!r} is not installed; using today's {DEFAULT_FONT}")
    return None


@functools.cache
def installed_families() -> frozenset[str]:
    """Every font family fontconfig lists, lower case; empty without ``fc-list``."""
    try:
        listed = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(name.strip().lower() for line in listed.splitlines() for name in line.split(","))


#: (family, bold) -> (font file, face index) a build's parent resolved (:func:`use_fonts`).
_RESOLVED: dict[tuple[str, bool], tuple[Path, int]] = {}


def use_fonts(brand: Brand) -> None:
    """Take the font files ``brand`` carries (resolved by the parent's :func:`load_brand`) as this
    process's answers of :func:`font_file`: an assembling process runs no ``fc-match``."""
    _RESOLVED.update({(family, bold): (Path(path), index) for family, bold, path, index in brand.font_files})


def font_file(family: str, bold: bool = False) -> tuple[Path, int] | None:
    """The file (and face index in a collection) fontconfig draws ``family`` from, bold or regular:
    what the deck's and the cards' text is measured with, and the HTML embeds, when a brand names the
    face; None without ``fc-match`` or a file it names."""
    return _RESOLVED.get((family, bold)) or _matched(family, bold)


@functools.cache
def _matched(family: str, bold: bool) -> tuple[Path, int] | None:
    pattern = f"{family}:weight=bold" if bold else family
    try:
        found = subprocess.run(["fc-match", "-f", "%{file}|%{index}", pattern], capture_output=True, text=True,
                               timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    path, _, index = found.partition("|")
    return (Path(path), int(index or 0)) if path and Path(path).is_file() else None


def stamp_files(path: Path | None, cache: Path | None = None) -> tuple[Path, ...]:
    """``Brand.files`` of the brand file ``path`` (empty: none, or not there), without reading it
    when it was read before: kept in ``cache`` (default ``.cache/brand``) under its path and bytes
    with every logo it names, so a logo that appears since is a file of the stamp. A font installed
    since is not seen until the brand file changes (or ``--force``)."""
    if path is None:
        return ()
    if not Path(path).is_file():
        return load_brand(path).files  # says what is wrong with it, each time the stamp is made
    path = Path(path).resolve()
    key = hashlib.sha256(str(path).encode() + b"\0" + path.read_bytes()).hexdigest()[:24]
    kept = _stamp_cache(cache) / f"{key}.json"
    try:
        record = json.loads(kept.read_text(encoding="utf-8"))
        return (path, *(p for p in map(Path, record["logos"] + record["fonts"]) if p.is_file()))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    brand = load_brand(path)
    record = {"logos": [str(p) for p in brand.logos_named], "fonts": sorted({f[2] for f in brand.font_files})}
    try:
        from mlperf_report.core.atomic import write_text

        write_text(kept, json.dumps(record, indent=1) + "\n")
    except OSError:  # a read-only cache: the next build reads the brand file again, nothing else
        pass
    return brand.files


def _stamp_cache(cache: Path | None) -> Path:
    from mlperf_report.core import paths

    return Path(cache) if cache else paths.CACHE / "brand"
