"""After the notebooks: narrative per language, then one HTML + PDF per language.

Runs only when every notebook succeeded: a report assembled from a partial round would quietly drop
a benchmark, so a failed notebook leaves the previous report in place and the build exits non-zero.
A stamp of everything the reports are made from (executed notebooks, figures, templates, prices,
configuration, package code) lets an unchanged rebuild skip this stage entirely.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Callable

from mlperf_report.core import brand as brands, paths
from mlperf_report.core.atomic import write_text
from mlperf_report.analysis.jobs import NotebookResult, Plan

STAMP = ".reports.stamp"
#: What the build made, language -> format -> files: the round-day index and the mail stage read it.
DELIVERABLES = "deliverables.json"

#: Installed packages whose version shapes a deliverable (drawing, fonts, PDF, decks, workbooks): an
#: upgrade of any makes the reports stale, as an edit of the project's own code does.
SHAPING_PACKAGES = ("matplotlib", "seaborn", "weasyprint", "pydyf", "fonttools", "python-pptx", "openpyxl",
                    "nbconvert", "jinja2", "babel", "noto-cjk-sans-otc")


def _assembly(suite, deliverables=()) -> tuple[Path, ...]:
    """Where the assembly starts: this module, the round's suite (whose methods import its narrative),
    every chosen format's module and the modules the assembling processes import by name
    (``report_pools.WARM_UP``). None of those is a static import of this module, so without them an
    edit of a format (``slides.py``) or of what only it imports (``kit_charts.py``) left the reports
    "up to date"; ``stamps.modules_of`` follows every import from each start."""
    from mlperf_report.assemble import formats, report_pools

    starts = [Path(__file__), Path(sys.modules[type(suite).__module__].__file__)]
    starts += [path for path in map(formats.source_of, deliverables) if path is not None]
    starts += [formats.module_path(module) for module, _ in report_pools.WARM_UP if module.startswith("mlperf_report.")]
    return tuple(dict.fromkeys(starts))


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


def _digest(files: list[Path], extra: dict) -> str:
    hasher = hashlib.sha256(json.dumps(extra, sort_keys=True).encode())
    for path in files:
        hasher.update(str(path.name).encode())
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


def report_inputs(plan: Plan, results: list[NotebookResult], prices_file: Path, config_file: Path,
                  deliverables=()) -> list[Path]:
    """Every file the assembled reports are made from, in a fixed order: the notebooks' products, the
    templates, the code of the assembly and of the ``deliverables`` chosen, the data files that code
    declares (catalogues, fonts), prices and configuration."""
    from mlperf_report.analysis import stamps
    from mlperf_report.suites import suite_for

    templates = sorted(p for p in paths.TEMPLATES.rglob("*") if p.is_file())
    code = stamps.modules_of(_assembly(suite_for(plan.round_id), deliverables))
    made = [p for r in results for p in (r.notebook, r.figures) if p and Path(p).exists()]
    return [*made, *templates, *code, *stamps.data_inputs(code), Path(prices_file), Path(config_file)]


def report_date(config) -> str:
    """The date on the cover: ``report_date`` from the configuration, else today."""
    return str(getattr(config, "report_date", "") or dt.date.today().isoformat())


def build_reports(plan: Plan, results: list[NotebookResult], *, prices_file: Path, config_file: Path,
                  languages: list[str] | None = None, focus_submitter: str | None = None,
                  force: bool = False, focus_accelerator: str | None = None) -> list[Path]:
    """Render the narrative and assemble the reports of every language; return the files written."""
    return start_reports(plan, results, prices_file=prices_file, config_file=config_file, languages=languages,
                         focus_submitter=focus_submitter, force=force, focus_accelerator=focus_accelerator)()


def start_reports(plan: Plan, results: list[NotebookResult], *, prices_file: Path, config_file: Path,
                  languages: list[str] | None = None, focus_submitter: str | None = None,
                  force: bool = False, focus_accelerator: str | None = None,
                  pool=None, share_appendix: bool = False, brand: Path | None = None) -> Callable[[], list[Path]]:
    """Render the narrative of every language and hand the reports to ``pool`` (a batch's
    :class:`report_pools.RenewingPool`) without waiting; the returned call waits for them, writes the stamp
    and returns the files written. A batch starts every focus before it waits for the first, so its
    assembling processes never idle while one language of a focus takes longer than the other or
    the next focus's narrative is being rendered. Without ``pool`` the reports are assembled when
    the returned call is made, in a pool of their own. ``share_appendix``: a batch's reports print
    their appendix so that every focus shares it (``pdf_print.print_report``)."""
    from mlperf_report.assemble.formats import resolve
    from mlperf_report.suites import suite_for

    suite = suite_for(plan.round_id)
    config = plan_config(plan, config_file, focus_submitter=focus_submitter, focus_accelerator=focus_accelerator,
                         languages=languages, brand=brand)
    chosen = resolve(config.deliverables)
    round_out = Path(plan.output_dir) / plan.round_id
    langs = list(config.languages)
    titles = {lang: config.title_for(lang, suite.name, lambda lang=lang: suite.default_title(lang)) for lang in langs}
    date = report_date(config)
    # the brand's files from the cache its first reading left: no brand_yml, no fontconfig here
    inputs = report_inputs(plan, results, prices_file, config_file, chosen) + list(brands.stamp_files(config.brand))
    digest = _digest(inputs, {"languages": langs, "date": date, "focus": config.focus.key,
                              "titles": [titles[lang] for lang in langs], "deliverables": list(chosen),
                              "packages": shaping_versions()})
    stamp = round_out / STAMP
    if not force and _up_to_date(stamp, digest, round_out):
        print(f"reports: up to date ({', '.join(langs)})", file=sys.stderr)
        return lambda: delivered_files(round_out)
    branded = brands.load_brand(config.brand)  # colours, logo and typefaces; today's look without a file

    from mlperf_report.assemble import document, formats
    from mlperf_report.core.prices import load_prices

    formats.chosen(chosen)  # an unknown name stops here, before anything is made
    started = time.perf_counter()
    print(f"reports: assembling {', '.join(langs)} ({', '.join(chosen)})", file=sys.stderr)
    requests = (document.ReportRequest(plan.round_id, lang, tuple(r.notebook for r in results), narrative, notes,
                                       round_out, titles[lang], date, default_copy=i == 0,
                                       formats=chosen, share_appendix=share_appendix, kit=kit,
                                       data_dir=Path(plan.data_dir), prices_file=Path(prices_file), focus=config.focus,
                                       brand=branded)
                for i, (lang, narrative, notes, kit) in enumerate(
                    _narratives(suite, config, langs, round_out, results, load_prices(prices_file), titles, date)))
    waiting = _hand_over(requests, pool, plan.workers)

    def finish() -> list[Path]:
        reports = waiting()
        manifest = {r.lang: {name: [str(p.relative_to(round_out)) for p in files] for name, files in r.deliverables.items()}
                    for r in reports}
        write_text(round_out / DELIVERABLES, json.dumps(manifest, indent=1) + "\n")  # formats in their order
        write_text(stamp, digest + "\n")
        written = [p for report in reports for p in report.files]
        print(f"reports: {len(written)} files in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        return written

    return finish



def plan_config(plan: Plan, config_file: Path, **overrides):
    """The typed configuration the plan was made with (``Plan.config``, resolved once by the planner),
    with any override given that it does not already hold; a plan made without one (a test's, an
    older caller's) loads ``config_file`` as before."""
    config = getattr(plan, "config", None)
    if config is None:
        from mlperf_report.core.config import load_config

        config = load_config(config_file).with_overrides(round=plan.round_id)
    differing = {key: value for key, value in overrides.items()
                 if value is not None and value != getattr(config, key) and not (
                     key == "languages" and tuple(value) == tuple(config.languages))}
    return config.with_overrides(**differing) if differing else config


def _up_to_date(stamp: Path, digest: str, round_out: Path) -> bool:
    """The stamp holds ``digest`` and every file the last build listed is there."""
    if not stamp.exists() or stamp.read_text().strip() != digest:
        return False
    files = delivered_files(round_out)
    return bool(files) and all(p.exists() for p in files)


def deliverables(round_out: Path) -> dict[str, dict[str, list[str]]]:
    """What the last build of ``round_out`` made: language -> format -> files (relative paths), as
    ``deliverables.json`` records it; empty before any build."""
    try:
        return json.loads((Path(round_out) / DELIVERABLES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def delivered_files(round_out: Path) -> list[Path]:
    return [Path(round_out) / f for by_format in deliverables(round_out).values()
            for files in by_format.values() for f in files]


def _narratives(suite, config, langs: list[str], round_out: Path, results, catalogue, titles: dict, date: str):
    """(language, narrative HTML, notes HTML, kit), rendered one language at a time as they are asked for."""
    from mlperf_report.assemble.kit import kit_of
    from mlperf_report.assemble.sections import SECTION_KINDS
    from mlperf_report.narrative import citations
    from mlperf_report.narrative.rendering import load_figures

    figures, summary = load_figures(round_out / "figures", {Path(r.figures).stem for r in results})
    exhibits = any(SECTION_KINDS.get(Path(r.notebook).stem) == "appendix" for r in results)
    lead = getattr(suite, "lead_claims", None)
    _notify(getattr(suite, "citation_notices", None), figures, summary, config)
    retrieved = citations.source_of(config.source, config.round)[1] or ""
    for lang in langs:
        rendered = suite.render(figures, summary, config, lang, catalogue=catalogue)
        claims = lead(summary, config, lang) if lead else []
        fallback = suite.headlines(figures, summary, config, lang, catalogue=catalogue) if not claims else ([], [])
        kit = kit_of(claims, lang=lang, round_id=config.round, round_title=_round_title(config.round),
                     title=titles[lang], date=date, focus_name=config.focus.name if config.focus.kind != "none" else "",
                     has_exhibits=exhibits, fallback=fallback, retrieved=retrieved)
        yield lang, rendered.narrative, rendered.notes, kit


def _notify(notices, figures, summary, config) -> None:
    """Print the suite's notices about the report's citations (``Suite.citation_notices``: IDs given
    twice and differing, how to add the missing ones), each once."""
    from mlperf_report.core.errors import say_once

    for line in notices(figures, summary, config) if notices else ():
        say_once(line)


def _round_title(round_id: str) -> str:
    from mlperf_report.assemble.document import round_title

    return round_title(round_id)


def _hand_over(requests, pool, workers: int) -> Callable[[], list]:
    """Give ``requests`` (rendered as they are taken) to ``pool``, each as soon as it is rendered, so
    its printing starts while the next language's narrative is rendered; without a pool, assemble
    them when the returned call is made. The returned call waits and gives the reports in order."""
    from mlperf_report.assemble import report_pools

    if pool is None:
        made = list(requests)
        return lambda: report_pools.assemble_reports(made, workers=min(workers, len(made)))
    submitted = [report_pools.submit_reports([request], pool) for request in requests]
    return lambda: [report for wait in submitted for report in wait()]


def report_headlines(folder: Path, config, round_id: str, *, catalogue=None, names: set[str] | None = None):
    """lang -> (headline lines, their notes) of the report built in ``folder`` (``output/<round>/`` or a
    focus's), worded as the report words them and for the focus its figures were made for: what an
    email leads with and the index page shows. No figures (a report built without notebooks): ([], [])."""
    from mlperf_report.narrative.rendering import load_figures
    from mlperf_report.suites import suite_for

    if not any((Path(folder) / "figures").glob("*.json")):
        return lambda lang: ([], [])
    suite = suite_for(round_id)
    figures, summary = load_figures(Path(folder) / "figures", names)
    built = suite.config_of_report(config, figures, round_id)
    return lambda lang: suite.headlines(figures, summary, built, lang, catalogue=catalogue)
