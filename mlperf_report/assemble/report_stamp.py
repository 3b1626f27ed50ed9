"""The reports' stamp: one digest per deliverable (format) of everything that shapes it, so that an
unchanged rebuild skips the assembly and a change rebuilds what it shapes and nothing else.

What shapes every format (the shared document): the notebooks' products, the templates no format
claims (the narrative's), the code of
the assembly (the build, the round's suite, the modules the assembling processes import by name,
``report_pools.WARM_UP``) and what it imports, the data files that code declares (``DATA_INPUTS``:
the catalogues), prices, configuration, the versions of the drawing and printing packages and the
font files. What shapes one format besides: its module and what that imports beyond the shared code
(the deck's ``slides.py``, ``text_fit.py``), a template named after it (``brief.html.j2``) or declared
by it (``DATA_INPUTS``: the page's templates, for the HTML, PDF and exhibits), and for a format made
from the round's tables (``uses_tables``: the workbook) those tables. Formats are imported by name (``import_module``), which no static import
shows, so each format's module is a start of its own; ``stamps.modules_of`` follows every import.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

from mlperf_report.core import paths

STAMP = ".reports.stamp"

#: Installed packages whose version shapes a deliverable (drawing, fonts, PDF, decks, workbooks): an
#: upgrade of any makes the reports stale, as an edit of the project's own code does.
SHAPING_PACKAGES = ("matplotlib", "seaborn", "weasyprint", "pydyf", "fonttools", "python-pptx", "openpyxl",
                    "nbconvert", "jinja2", "babel", "noto-cjk-sans-otc")


def shaping_versions() -> dict[str, str]:
    """The installed version of each package in :data:`SHAPING_PACKAGES` ("" when absent), read from
    the ``*.dist-info`` folder names on ``sys.path`` (one listing per folder: a few milliseconds, where
    ``importlib.metadata.version`` took 50 ms for these eleven, a quarter of a no-op rebuild)."""
    wanted = {re.sub(r"[-_.]+", "_", name).lower(): name for name in SHAPING_PACKAGES}
    versions = dict.fromkeys(SHAPING_PACKAGES, "")
    for folder in sys.path:
        try:
            names = [entry.name for entry in os.scandir(folder or ".") if entry.name.endswith(".dist-info")]
        except OSError:
            continue
        for name in names:
            project, _, version = name[: -len(".dist-info")].partition("-")
            key = wanted.get(re.sub(r"[-_.]+", "_", project).lower())
            if key and not versions[key]:
                versions[key] = version
    return versions


def font_files() -> dict[str, list[int]]:
    """The fonts every deliverable is set in (the CJK collection, matplotlib's DejaVu Sans), each by
    its size and modification time: Debian's fonts-noto-cjk, used when the pinned package is missing,
    has no version in :func:`shaping_versions`, and hashing 20 MB would cost the no-op rebuild 50 ms."""
    from mlperf_report.i18n import fonts

    found = {}
    for path in (fonts.cjk_font_path(), *(path for _, _, path in fonts.latin_faces())):
        try:
            st = Path(path).stat() if path else None
        except OSError:
            st = None
        if st is not None:
            found[Path(path).name] = [st.st_size, st.st_mtime_ns]
    return found


def shared_code(suite) -> list[Path]:
    """The modules of the shared document: where the assembly starts (this build, the round's suite,
    whose methods import its narrative, the modules the assembling processes import by name), followed
    through every import."""
    from mlperf_report.analysis import stamps
    from mlperf_report.assemble import formats, report_pools

    named = ["mlperf_report.assemble.build", *(m for m, _ in report_pools.WARM_UP if m.startswith("mlperf_report."))]
    starts = [Path(__file__), Path(sys.modules[type(suite).__module__].__file__), *map(formats.module_path, named)]
    return stamps.modules_of(tuple(dict.fromkeys(starts)))


def own_inputs(name: str, shared: set[Path]) -> list[Path]:
    """What shapes format ``name`` beyond the shared document: its module and what that imports (the
    data files those declare included), and the templates named after it."""
    from mlperf_report.analysis import stamps
    from mlperf_report.assemble import formats

    start = formats.source_of(name)
    code = [p for p in stamps.modules_of([start]) if p not in shared] if start else []
    return [*code, *stamps.data_inputs(code), *_templates_of(name)]


def _declared_templates(deliverables) -> set[Path]:
    """The templates some format declares it is made from (``DATA_INPUTS``, the project's formats and
    the chosen ones): each shapes the formats that declare it, and is in their stamps alone."""
    from mlperf_report.analysis import stamps
    from mlperf_report.assemble import formats

    modules = [m for m in map(formats.source_of, dict.fromkeys([*formats.BUILT_IN, *deliverables])) if m]
    return {p for p in stamps.data_inputs(modules) if p.is_relative_to(paths.TEMPLATES)}


def _templates_of(name: str) -> list[Path]:
    return sorted(p for p in paths.TEMPLATES.glob(f"{name}.*") if p.is_file())


def shared_inputs(plan, results, prices_file: Path, config_file: Path, deliverables=()) -> list[Path]:
    """Every file of the shared document, in a fixed order: the notebooks' products, the templates
    (those named after a format or declared by one left out: each shapes those formats alone), the shared code and the
    data files it declares, prices and configuration."""
    from mlperf_report.analysis import stamps
    from mlperf_report.suites import suite_for

    owned = {p for name in deliverables for p in _templates_of(name)} | _declared_templates(deliverables)
    templates = sorted(p for p in paths.TEMPLATES.rglob("*") if p.is_file() and p not in owned)
    code = shared_code(suite_for(plan.round_id))
    made = [p for r in results for p in (r.notebook, r.figures) if p and Path(p).exists()]
    return [*made, *templates, *code, *stamps.data_inputs(code), Path(prices_file), Path(config_file)]


def report_inputs(plan, results, prices_file: Path, config_file: Path, deliverables=()) -> list[Path]:
    """Every file the reports of ``deliverables`` are made from: the shared ones, then each format's own."""
    shared = shared_inputs(plan, results, prices_file, config_file, deliverables)
    common = set(shared)
    return list(dict.fromkeys([*shared, *(p for name in deliverables for p in own_inputs(name, common))]))


def digests(plan, results, prices_file: Path, config_file: Path, deliverables, extra: dict,
            extra_files=()) -> dict[str, str]:
    """Format -> the digest of what shapes it: the shared files (``extra_files``: the brand's too) and
    ``extra`` (languages, titles, ...) hashed once, then each format's own files on top."""
    shared = [*shared_inputs(plan, results, prices_file, config_file, deliverables), *map(Path, extra_files)]
    settings = {**extra, "packages": shaping_versions(), "fonts": font_files()}
    base = _digest(shared, hashlib.sha256(json.dumps(settings, sort_keys=True).encode()))
    common = set(shared)
    return {name: _digest([*own_inputs(name, common), *_tables_of(plan, name)], base.copy()).hexdigest()
            for name in deliverables}


def _tables_of(plan, name: str) -> list[Path]:
    """The round's tables (``data/<round>/``) of a format made from them (``uses_tables``: the workbook,
    every result): a fixed name or system in the tables that no notebook shows still makes it stale."""
    from mlperf_report.assemble import formats

    folder = Path(getattr(plan, "data_dir", None) or paths.DATA) / plan.round_id
    source = formats.source_of(name)  # read, not imported: the cards' module alone would import pandas
    if source is None or b"uses_tables" not in source.read_bytes() or not folder.is_dir():
        return []
    if not getattr(formats.get(name), "uses_tables", False):
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _digest(files: list[Path], hasher):
    for path in files:
        hasher.update(str(path.name).encode())
        hasher.update(path.read_bytes())
    return hasher


def read(stamp: Path) -> dict:
    """The last build's stamp: ``formats`` (format -> digest) and ``companions`` (language -> how the
    contents list the formats); empty for none or an older stamp (one digest for all)."""
    try:
        found = json.loads(Path(stamp).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def stale(before: dict, now: dict[str, str], made: dict[str, dict[str, list[str]]], round_out: Path) -> list[str]:
    """The formats of ``now`` to make again: whose digest changed, or that the last build (``made``,
    ``deliverables.json``) did not make or whose files are gone."""
    listed = {name for by_format in made.values() for name in by_format}
    known = before.get("formats") or {}
    return [name for name in now if known.get(name) != now[name] or name not in listed
            or not all((Path(round_out) / f).exists() for by_format in made.values() for f in by_format.get(name, ()))]
