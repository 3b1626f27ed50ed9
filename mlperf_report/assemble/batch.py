"""Round day: one report per focus of a round from one command (``build.py report --focus-each``).

Every focus's notebooks go to one runner call, so one pool of warm kernels (fonts, imports, the house
style loaded once per worker) serves them all and the progress shows the whole batch; each focus's
reports are then assembled, and an index page links every report with its headline in each language.
A focus's report lives in its own output folder, ``output/<round>/focus/<slug>/<round>/`` (a complete
output folder, so ``send`` and a rebuild of one focus find it where a single build puts it).
"""

from __future__ import annotations

import html
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from mlperf_report.core.atomic import write_text
from mlperf_report.core.config import Focus, focus_from_key
from mlperf_report.core.errors import UserError

#: ``--focus-each`` words: every submitter, or every accelerator model, with a result in the round.
KINDS = ("submitters", "accelerators")


def slug(focus: Focus) -> str:
    """The folder of a focus's report: ``dell``, ``accelerator-h100``, ``none``."""
    return re.sub(r"[^a-z0-9]+", "-", focus.key.lower()).strip("-") or "none"


def focus_dir(output_dir: Path, round_id: str, focus: Focus) -> Path:
    """The output folder of one focus's report (its round folder is inside, as in a single build)."""
    return Path(output_dir) / round_id / "focus" / slug(focus)


def focuses(entrants: list[dict], each: str, benchmarks: list[str] | None = None) -> list[Focus]:
    """The focuses ``--focus-each`` names: ``submitters``, ``accelerators`` (model names as the systems
    JSON gives them), or a comma-separated list of submitters (``accelerator:NAME`` for an accelerator).
    With ``benchmarks`` (``--benchmarks``), only those with a result in one of them: a submitter of
    another benchmark has nothing to report there (a row that names no benchmark always counts)."""
    from mlperf_report.analysis.style import name_order

    if benchmarks:
        entrants = [r for r in entrants if r.get("benchmark") is None or r["benchmark"] in benchmarks]
    if each == "submitters":
        names = sorted({r["submitter"] for r in entrants if r.get("submitter")}, key=name_order)
        return [Focus("submitter", n) for n in names]
    if each == "accelerators":
        names = sorted({r["accelerator_model"] for r in entrants if r.get("accelerator_model")}, key=name_order)
        return [Focus("accelerator", n) for n in names]
    chosen = [focus_from_key(part) for part in each.split(",") if part.strip()]
    if not chosen:
        raise UserError(f"--focus-each: give {' or '.join(KINDS)}, or a comma-separated list of focuses")
    return list(dict.fromkeys(chosen))


@dataclass(frozen=True)
class FocusReport:
    """One focus of the batch: its plan, the configuration it was planned with, and its report files."""

    focus: Focus
    plan: object
    config: object
    written: tuple[Path, ...] = ()


def run_from_args(args, split) -> int:
    """``build.py report --focus-each ...``: plan every focus (each checked before any kernel starts),
    then :func:`run_batch`."""
    from mlperf_report.analysis.runner import run_notebooks
    from mlperf_report.core.config import load_config
    from mlperf_report.suites import suite_for
    from mlperf_report.suites.planner import make_plan

    if args.focus_submitter or args.focus_accelerator:
        raise UserError("--focus-each builds one report per focus; leave out --focus and --focus-accelerator")
    config = load_config(args.config).with_overrides(round=args.round_id, languages=split(args.languages))
    entrants = suite_for(config.round).entrants(Path(args.data_dir).resolve(), config.round)
    chosen = focuses(entrants, args.focus_each.strip(), split(args.benchmarks))
    if not chosen:
        raise UserError(f"--focus-each {args.focus_each}: no result in {config.round} names one")
    reports = []
    for focus in chosen:
        options = {"focus_submitter": focus.name if focus.kind == "submitter" else "none",
                   "focus_accelerator": focus.name if focus.kind == "accelerator" else ""}
        plan = make_plan(round_id=config.round, benchmarks=split(args.benchmarks), data_dir=args.data_dir,
                         output_dir=focus_dir(args.output_dir, config.round, focus), prices_file=args.prices,
                         config_file=args.config, division=args.division, languages=split(args.languages),
                         jobs=args.jobs, force=args.force, fresh_kernels=args.fresh_kernels, **options)
        reports.append(FocusReport(focus, plan, plan.config))  # the planner's, resolved once

    def build(report: FocusReport, results, pool):
        from mlperf_report.assemble.build import start_reports

        return start_reports(report.plan, results, prices_file=args.prices, config_file=args.config,
                             force=args.force, pool=pool,
                             share_appendix=True,  # one appendix per language for every focus
                             brand=getattr(args, "brand", None))

    from mlperf_report.analysis.planning import print_missing_history

    print_missing_history(suite_for(config.round), config.round, Path(args.data_dir).resolve())  # once a batch
    return run_batch(reports, build=None if getattr(args, "no_assemble", False) else build,
                     output_dir=Path(args.output_dir).resolve(), run_notebooks=run_notebooks)


def batch_jobs(reports: list[FocusReport], output_dir: Path) -> list[FocusReport]:
    """The batch's plans with every shared (focus-free) notebook moved to the round's own folder
    (``output/<round>/notebooks/``), the same job in every focus, so the runner runs it once; every
    other job named after its focus (``dell/bert``), so the progress says whose notebook runs."""
    from dataclasses import replace

    def placed(job, report: FocusReport):
        if not job.shared:
            return replace(job, name=f"{slug(report.focus)}/{job.name}")
        folder = Path(output_dir) / report.plan.round_id / "notebooks"
        return replace(job, output=folder / Path(job.output).name, figures=folder / Path(job.figures).name,
                       parameters={**job.parameters, "output_dir": str(output_dir)})

    return [replace(report, plan=replace(report.plan, jobs=tuple(placed(job, report) for job in report.plan.jobs)))
            for report in reports]


def run_batch(reports: list[FocusReport], *, build, output_dir: Path, run_notebooks) -> int:
    """Run every focus's notebooks in one runner call, each shared notebook once (:func:`batch_jobs`),
    then assemble each focus's reports (``build(report, results, pool)`` starts them and returns the
    call that waits for their files; every focus is started in one warm pool of assembling processes
    before the first is waited for; None: ``--no-assemble``, the notebooks only) and write the index
    page; 0 when all went well."""
    from mlperf_report.analysis.jobs import Plan
    from mlperf_report.analysis.runner import summarize

    started = time.perf_counter()
    reports = batch_jobs(reports, output_dir)
    first = reports[0].plan
    round_id, workers = first.round_id, first.workers
    once = {job.output: job for report in reports for job in report.plan.jobs}  # a shared job: one key
    combined = Plan(round_id=round_id, jobs=tuple(once.values()), workers=workers, force=first.force,
                    output_dir=Path(output_dir), fresh_kernels=first.fresh_kernels, data_dir=first.data_dir)
    (Path(output_dir) / round_id / "notebooks").mkdir(parents=True, exist_ok=True)
    shared = sum(job.shared for job in combined.jobs)
    print(f"batch {round_id}: {len(reports)} focuses, {len(combined.jobs)} notebooks ({shared} shared by every "
          f"focus), {workers} at a time", file=sys.stderr)
    results = run_notebooks(combined)
    if summarize(results, time.perf_counter() - started):
        print("reports: not assembled (a notebook failed); the previous reports are kept", file=sys.stderr)
        return 1
    if build is None:
        return 0
    from mlperf_report.assemble.report_pools import RenewingPool

    by_job = {job.output: result for job, result in zip(combined.jobs, results)}  # the runner keeps plan order
    built = []
    with RenewingPool(workers) as pool:
        started_reports = []  # every focus handed to the pool before the first is waited for
        for report in reports:
            mine = sorted((by_job[job.output] for job in report.plan.jobs), key=lambda r: Path(r.notebook).stem != "summary")
            started_reports.append(build(report, mine, pool))
        for number, (report, finish) in enumerate(zip(reports, started_reports), 1):
            written = tuple(finish())
            built.append(FocusReport(report.focus, report.plan, report.config, written))
            print(f"focus {number}/{len(reports)} {report.focus.name or 'none'}: {len(written)} files", file=sys.stderr)
    index = write_index(built, Path(output_dir) / round_id)
    print(f"batch done in {time.perf_counter() - started:.1f} s: {len(built)} reports; index {index}", file=sys.stderr)
    return 0


def _links(by_format: dict[str, list[str]], folder: Path, round_out: Path, lang: str) -> list[str]:
    """A link per file a focus's build made in ``lang`` (``deliverables.json``), by format, in the
    format's words (``formats.label``); a format of many files (the chart cards) links its first and
    says how many there are."""
    from mlperf_report.assemble import formats

    links = []
    for name, files in by_format.items():
        own = [f for f in files if not formats.is_copy(name, f)]  # not the first language's copies
        if not own:
            continue
        text = formats.label(name, lang) if len(own) == 1 else f"{formats.label(name, lang)} ({len(own)})"
        href = str((folder / own[0]).relative_to(round_out))
        links.append(f'<a href="{html.escape(href)}">{html.escape(text)}</a>')
    return links


def write_index(built: list[FocusReport], round_out: Path) -> Path:
    """``index.html``: every focus's report in each language, with its headline line, and every file
    its build made (``deliverables.json``: the PDF, the exhibits, the workbook, the press kit)."""
    from mlperf_report.assemble.build import report_headlines
    from mlperf_report.narrative.rendering import TRADEMARK_LEGEND

    from mlperf_report.assemble.build import deliverables

    rows = []
    for report in built:
        plan = report.plan
        folder = Path(plan.output_dir) / plan.round_id
        delivered = deliverables(folder)
        headlines = report_headlines(folder, report.config, plan.round_id,
                                     names={Path(job.figures).stem for job in plan.jobs})
        cells = []
        for lang in report.config.languages:
            lines, _ = headlines(lang)
            headline = re.sub(r"\s*\[\d+\]$", "", lines[0]) if lines else ""
            links = " · ".join(_links(delivered.get(lang, {}), folder, round_out, lang))
            cells.append(f"<td lang=\"{lang}\">{html.escape(headline)}<br>{links}</td>")
        name = report.focus.name or "—"
        rows.append(f"<tr><th>{html.escape(name)}</th>{''.join(cells)}</tr>")
    languages = built[0].config.languages
    head = "".join(f"<th>{html.escape(lang)}</th>" for lang in languages)
    page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
            f"{html.escape(built[0].plan.round_id)}: reports by focus</title></head><body>\n"
            f"<h1>{html.escape(built[0].plan.round_id)}: reports by focus</h1>\n<table>\n<tr><th></th>{head}</tr>\n"
            + "\n".join(rows) + "\n</table>\n<p>Each headline's results, sources and notices are in its report.</p>\n"
            f"<p>{html.escape(TRADEMARK_LEGEND)}</p>\n</body></html>\n")
    return write_text(round_out / "index.html", page)
