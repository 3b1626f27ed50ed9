"""Sending a built report to its stakeholders: everything that can be refused is refused before the
first message (configuration, recipients, every report file, SMTP settings); each message carries the
report's title and the story's headline as the report words them, for the focus the report was built
for; ``delivery`` then sends each exactly once."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from mlperf_report.mail.delivery import Job, deliver, warn


def _files_under(folders) -> list[Path]:
    found = []
    for folder in folders:
        folder = Path(folder)
        if folder.is_dir():
            found += [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                      and not p.name.startswith(".")]
    return found


def send_reports(*, round_id: str | None, config_path: Path, data_dir: Path, output_dir: Path,
                 to: list[str] | None = None, list_name: str | None = None, lang: str | None = None,
                 dry_run: bool = False, force: bool = False, insecure: bool = False,
                 environ: Mapping[str, str] | None = None, retry=None, extra_inputs=(), now=None) -> int:
    """Send (or with ``dry_run`` write) every message; 0 when every recipient has the report, else 1.

    Everything that can be refused is refused before the first message: config, recipients, every
    report file, SMTP settings.
    """
    from mlperf_report.core import paths
    from mlperf_report.core.config import load_config
    from mlperf_report.core.errors import UserError
    from mlperf_report.mail import message as mail
    from mlperf_report.mail import recipients as mail_config
    from mlperf_report.mail import report_check, smtp
    from mlperf_report.suites import suite_for

    config = load_config(config_path)  # the one loader: the same defaults as the report it sends
    section = mail_config.mail_section(config.mail)
    langs = list(config.languages)
    try:
        wanted = round_id or config.round
        the_round = suite_for(wanted).parse_round(wanted)
    except (ValueError, UserError) as error:
        raise UserError(f"{error}; pass --round or set `round:` in {config_path}") from None
    recipients = mail_config.select_recipients(section, langs, to=to, list_name=list_name, lang=lang)
    if not recipients:
        raise UserError("no recipients selected (empty list, or none in that --lang)")

    round_dir = paths.round_output(the_round.id, Path(output_dir))
    inputs = report_check.report_inputs(paths.round_data(the_round.id, Path(data_dir)),
                                        [Path(data_dir) / "prices.yaml", Path(config_path)])
    inputs += _files_under(extra_inputs)
    reports = {}
    for wanted in sorted({r.lang for r in recipients}):
        pdf_path = report_check.report_pdf(round_dir, wanted, langs)
        data = report_check.checked_pdf(pdf_path, inputs, the_round.id)
        reports[wanted] = (pdf_path, data, mail.sha256(data))
    jobs = [Job(r, *reports[r.lang]) for r in recipients]

    headlines = _headlines(round_dir / "figures", config, Path(data_dir) / "prices.yaml", the_round)
    compose = _composer(config, section, the_round, headlines, now)
    session = None
    if not dry_run:
        smtp_config = section.get("smtp") or {}
        settings = smtp.settings_from(smtp_config, environ or {}, insecure=insecure)
        retry = retry or smtp.Retry(attempts=int(smtp_config.get("attempts", 4)),
                                         backoff=float(smtp_config.get("backoff", 2.0)))
        session = smtp.Session(settings, retry, note=warn)
    return deliver(jobs, compose, session, round_dir / "mail", the_round.id, force=force,
                    envelope_from=mail.envelope_sender(str(section["sender"])))


def _headlines(figures_dir: Path, config, prices_path: Path, the_round):
    """lang -> (headline lines, their notes), from the narrative, as the report words them: the story's
    headline and highlights lead the email, for the focus of the report that was built.

    No figures (a report built without notebooks) means a body without figures, never invented ones.
    """
    if not any(Path(figures_dir).glob("*.json")):
        return lambda lang: ([], [])
    from mlperf_report.core import prices
    from mlperf_report.narrative.rendering import load_figures
    from mlperf_report.suites import suite_for

    suite = suite_for(the_round.id)
    figures, summary = load_figures(figures_dir)
    config = suite.config_of_report(config, figures, the_round.id)
    catalogue = prices.load_prices(prices_path) if Path(prices_path).is_file() else None
    cache: dict[str, tuple[list[str], list[str]]] = {}

    def for_language(lang: str) -> tuple[list[str], list[str]]:
        if lang not in cache:
            cache[lang] = suite.headlines(figures, summary, config, lang, catalogue=catalogue)
        return cache[lang]

    return for_language


def _subject_focus(config) -> str | None:
    """The focus the subject line names: the accelerator, the submitter, or none for an overview."""
    return None if config.focus.kind == "none" else config.focus.name


def _composer(config, section: dict, the_round, headlines, now):
    """A function Job -> (EmailMessage, wire bytes), with everything the same for every recipient bound in."""
    from datetime import datetime, timezone

    from mlperf_report.mail import message as mail

    from mlperf_report.suites import suite_for

    round_title = the_round.title.replace("MLPerf", "MLPerf®", 1)  # the mark, as the guidelines want it
    suite = suite_for(the_round.id)

    def title_in(lang: str) -> str:  # report.yaml's title as the report itself reads it
        return config.title_for(lang, suite.name, suite.default_title(lang))

    def compose(job: Job):
        recipient = job.recipient
        filename = f"mlperf-{the_round.id}-report.{recipient.lang}.pdf"
        lines, notes = headlines(recipient.lang)
        text, markup = mail.bodies(recipient, title=title_in(recipient.lang),
                                   round_title=round_title, filename=filename, source=config.source or None,
                                   headlines=lines, notes=notes)
        message = mail.build_message(
            sender=str(section["sender"]), recipient=recipient,
            subject_line=mail.subject(round_title, _subject_focus(config), recipient.lang),
            text=text, markup=markup, pdf=job.pdf, filename=filename, now=now or datetime.now(timezone.utc))
        return message, mail.to_bytes(message)

    return compose
