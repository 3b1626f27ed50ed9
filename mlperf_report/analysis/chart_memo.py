"""Charts drawn once for identical inputs, kept under ``.cache/charts/`` by what they are drawn from.

Round day builds many charts whose inputs are the same: in a batch of focuses, every focus that did
not enter a benchmark gets that benchmark's charts with nothing of its own highlighted, and a rebuild
after one table changed draws again every chart of the notebooks that read it. Drawing is most of a
notebook's time (matplotlib's layout and text), so a chart whose inputs were drawn before is read
back instead. The key is a digest of everything the SVG depends on: the drawing function (its module
and every package module that one imports, followed as the notebook stamps follow them, with the data
files they declare, such as the catalogues that give the labels), the library versions, the fonts, the
language, the figure size and the value of every option (frames cell by cell). A function that is not
its module's own attribute (a test's stand-in) or an option of a type this module cannot spell out is
drawn every time: a memo may miss, never answer wrongly. Charts are byte-identical for identical
inputs (``style``), so a chart read back is the chart that would have been drawn.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import os
import sys
from pathlib import Path

#: Bump when the key's meaning changes, so earlier charts stop matching (2: labels as text, not outlines).
MEMO_VERSION = 2
#: Charts kept; past it, the least recently used quarter is removed.
MAX_ENTRIES = 4000


class _Unspellable(Exception):
    """An option value this module cannot turn into a stable key: the chart is drawn, not recalled."""


def memo_dir() -> Path:
    from mlperf_report.core import paths

    return paths.CACHE / "charts"


def chart_key(draw, *, lang: str, rows, height, options: dict) -> str | None:
    """The digest of one chart's inputs, or None when they cannot be told apart reliably."""
    code = _code_digest(draw)
    if code is None:
        return None
    from mlperf_report.i18n import fonts

    digest = hashlib.sha256()
    try:
        _spell(("memo", MEMO_VERSION, code, _font_key(fonts.cjk_font_path()), lang, rows, height,
                sorted(options.items())), digest)
    except _Unspellable:
        return None
    return digest.hexdigest()


def recall(key: str | None) -> str | None:
    """The SVG kept under ``key``, or None (no key, never drawn, or not a complete SVG)."""
    if key is None:
        return None
    path = memo_dir() / f"{key}.svg"
    try:
        svg = path.read_text(encoding="utf-8")
        os.utime(path)  # recently used: kept when the memo is trimmed
    except OSError:
        return None
    return svg if svg.rstrip().endswith("</svg>") else None


def keep(key: str | None, svg: str) -> None:
    """Keep ``svg`` under ``key``; a memo that cannot be written only costs the next build a drawing."""
    if key is None:
        return
    from mlperf_report.core.atomic import write_text

    try:
        write_text(memo_dir() / f"{key}.svg", svg)
        _trim(memo_dir())
    except OSError:
        pass


def _trim(folder: Path) -> None:
    names = os.listdir(folder)
    if len(names) <= MAX_ENTRIES:
        return

    def used(name: str) -> float:
        try:
            return os.stat(folder / name).st_mtime
        except OSError:
            return 0.0

    for name in sorted(names, key=used)[: len(names) - MAX_ENTRIES * 3 // 4]:
        try:
            os.unlink(folder / name)
        except OSError:
            pass


def _code_digest(draw) -> str | None:
    module = sys.modules.get(getattr(draw, "__module__", None) or "")
    source = getattr(module, "__file__", None)
    if not source or not source.endswith(".py") or getattr(module, draw.__qualname__, None) is not draw:
        return None
    return f"{draw.__module__}.{draw.__qualname__}:{_module_digest(Path(source))}"


def _module_digest(source: Path) -> str:
    """The drawing module, the package modules it reaches (``outputs`` and the house style among
    them), the data files they declare (each file's digest is taken once per file version) and the
    versions of the drawing libraries."""
    from mlperf_report.analysis import stamps
    from mlperf_report.core import paths

    digest = hashlib.sha256(_versions().encode())
    for file in _inputs(source):
        name = file.relative_to(paths.ROOT) if file.is_relative_to(paths.ROOT) else file
        digest.update(f"{name}\0{stamps.file_digest(file)}\n".encode())
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def _inputs(source: Path) -> tuple[Path, ...]:
    from mlperf_report.analysis import stamps

    modules = stamps.modules_of([source, Path(__file__).with_name("outputs.py")])
    return (*modules, *stamps.data_inputs(modules))


@functools.lru_cache(maxsize=None)
def _versions() -> str:
    """The drawing libraries' versions; seaborn's read from its metadata, not by importing it (and
    scipy.stats with it: 93 MB) in a process that draws with matplotlib alone."""
    from importlib import metadata

    import matplotlib
    import numpy
    import pandas

    return " ".join((matplotlib.__version__, metadata.version("seaborn"), pandas.__version__, numpy.__version__,
                     sys.version))


def _font_key(path) -> tuple:
    if path is None:
        return ("no CJK font",)
    try:
        st = os.stat(path)
    except OSError:
        return (str(path), None)
    return (str(path), st.st_size, st.st_mtime_ns)


def _spell(value, digest) -> None:
    """Feed ``value`` to ``digest`` so that two values give the same bytes only when they are equal
    (type included: 1, 1.0, True and "1" differ)."""
    import numpy as np
    import pandas as pd

    kind = type(value)
    if isinstance(value, np.generic):
        _spell(value.item(), digest)
    elif value is None or kind in (bool, int, str):
        digest.update(f"{kind.__name__}:{value!r};".encode())
    elif kind is float:
        digest.update(f"float:{'nan' if math.isnan(value) else value.hex()};".encode())
    elif value is pd.NA or value is pd.NaT:
        digest.update(f"{value!r};".encode())
    elif kind is pd.Timestamp:
        digest.update(f"ts:{value.isoformat()};".encode())
    elif kind in (tuple, list):
        digest.update(f"{kind.__name__}[{len(value)}](".encode())
        for item in value:
            _spell(item, digest)
        digest.update(b");")
    elif kind in (set, frozenset):
        _spell(("set", sorted(_spelled(item) for item in value)), digest)
    elif kind is dict:
        _spell(("dict", sorted((_spelled(k), _spelled(v)) for k, v in value.items())), digest)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        _spell(("dataclass", type(value).__module__, type(value).__qualname__,
                [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]), digest)
    elif kind is pd.DataFrame:
        _spell(("frame", list(value.columns), [_dtype(t) for t in value.dtypes], value.index.tolist(),
                [value.iloc[:, i].tolist() for i in range(value.shape[1])]), digest)
    elif kind is pd.Series:
        _spell(("series", value.name, _dtype(value.dtype), value.index.tolist(), value.tolist()), digest)
    else:
        raise _Unspellable(type(value).__name__)


def _dtype(dtype) -> tuple:
    """A column's type; a categorical's categories and their order too (seaborn draws in that order)."""
    import pandas as pd

    if isinstance(dtype, pd.CategoricalDtype):
        return (str(dtype), list(dtype.categories), bool(dtype.ordered))
    return (str(dtype),)


def _spelled(value) -> str:
    digest = hashlib.sha256()
    _spell(value, digest)
    return digest.hexdigest()
