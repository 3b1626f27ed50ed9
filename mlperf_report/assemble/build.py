"""After the notebooks: narrative per language, then one HTML + PDF per language.

Runs only when every notebook succeeded: a report assembled from a partial round would quietly drop
a benchmark, so a failed notebook leaves the previous report in place and the build exits non-zero.
A stamp per format of everything that shapes it (``report_stamp``: executed notebooks, figures,
templates, prices, configuration, package code, fonts) lets an unchanged rebuild skip this stage
entirely and a change rebuild only the formats it shapes (an edit of the deck's code keeps the PDF).
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from pathlib import Path
from typing import Callable

from mlperf_report.core import brand as brands
from mlperf_report.core.atomic import write_text
from mlperf_report.analysis.jobs import NotebookResult, Plan
from mlperf_report.assemble import report_stamp

#: What the build made, language -> format -> files: the round-day index and the mail stage read it.
DELIVERABLES = "deliverables.json"


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
    and returns every file of the reports (those kept up to date too: only the stale formats are made). A batch starts every focus before it waits for the first, so its
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
    digests = report_stamp.digests(plan, results, prices_file, config_file, chosen, {
        "languages": langs, "date": date, "focus": config.focus.key, "titles": [titles[lang] for lang in langs],
        "deliverables": list(chosen)}, brands.stamp_files(config.brand))
    before, made_before = report_stamp.read(round_out / report_stamp.STAMP), deliverables(round_out)
    stale = list(chosen) if force else report_stamp.stale(before, digests, made_before, round_out)
    if not stale:
        print(f"reports: up to date ({', '.join(langs)})", file=sys.stderr)
        return lambda: delivered_files(round_out)
    branded = brands.load_brand(config.brand)  # colours, logo and typefaces; today's look without a file

    from mlperf_report.assemble import document, formats
    from mlperf_report.core.prices import load_prices

    formats.chosen(chosen)  # an unknown name stops here, before anything is made
    started, kept = time.perf_counter(), [name for name in chosen if name not in stale]
    print(f"reports: assembling {', '.join(langs)} ({', '.join(stale)})"
          + (f"; up to date: {', '.join(kept)}" if kept else ""), file=sys.stderr)
    companions: dict[str, list] = {}

    def request(i: int, lang: str, narrative: str, notes: str, kit):
        # how the contents list the formats: when it changed, this language's page is stale too
        companions[lang] = json.loads(json.dumps([c for fmt in formats.chosen(chosen) if (c := fmt.companion(kit))]))
        listed_as_before = (before.get("companions") or {}).get(lang) == companions[lang]
        return document.ReportRequest(plan.round_id, lang, tuple(r.notebook for r in results), narrative, notes,
                                      round_out, titles[lang], date, default_copy=i == 0, formats=chosen,
                                      make=tuple(stale) if kept and listed_as_before else None,
                                      share_appendix=share_appendix, give_back=share_appendix, kit=kit, data_dir=Path(plan.data_dir),
                                      prices_file=Path(prices_file), focus=config.focus, brand=branded)
    requests = (request(i, *parts) for i, parts in enumerate(
        _narratives(suite, config, langs, round_out, results, load_prices(prices_file), titles, date)))
    waiting = _hand_over(requests, pool, plan.workers)
    return lambda: _finish(waiting(), round_out, chosen, made_before,
                           {"formats": digests, "companions": companions}, started)


def _finish(reports, round_out: Path, chosen, made_before: dict, stamp: dict, started: float) -> list[Path]:
    """Record what the build made (the formats kept from the last build beside those made now, in the
    formats' order) and the stamp; return every file the reports are made of."""
    manifest = {}
    for report in reports:
        made = {name: [str(p.relative_to(round_out)) for p in files] for name, files in report.deliverables.items()}
        old = made_before.get(report.lang, {})
        manifest[report.lang] = {name: made[name] if name in made else old[name]
                                 for name in chosen if name in made or name in old}
    write_text(round_out / DELIVERABLES, json.dumps(manifest, indent=1) + "\n")
    write_text(round_out / report_stamp.STAMP, json.dumps(stamp, indent=1, sort_keys=True) + "\n")
    written = [p for report in reports for p in report.files]
    print(f"reports: {len(written)} files in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return delivered_files(round_out)


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
