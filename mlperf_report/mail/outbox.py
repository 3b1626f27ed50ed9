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
    from mlperf_report.mail import attachments, report_check, smtp
    from mlperf_report.suites import suite_for

    config = load_config(config_path)  # the one loader: the same defaults as the report it sends
    section = mail_config.mail_section(config.mail)
    langs = list(config.languages)
    try:
        wanted = round_id or config.round
        the_round = suite_for(wanted).parse_round(wanted)
    except (ValueError, UserError) as error:
        raise UserError(f"{error}; pass --round or set `round:` in {config_path}") from None
    suite = suite_for(the_round.id)
    recipients = mail_config.select_recipients(section, langs, to=to, list_name=list_name, lang=lang, suite=suite.name)
    if not recipients:
        raise UserError("no recipients selected (empty list, or none in that --lang)")

    round_dir = paths.round_output(the_round.id, Path(output_dir))
    inputs = report_check.report_inputs(paths.round_data(the_round.id, Path(data_dir)),
                                        [Path(data_dir) / "prices.yaml", Path(config_path)])
    inputs += _files_under(extra_inputs)
    jobs = _jobs(recipients, round_dir, Path(output_dir), the_round.id, langs, inputs,
                 float(section.get("max_attachments_mb") or attachments.DEFAULT_LIMIT_MB))
    headlines = _headlines(config, Path(data_dir) / "prices.yaml", the_round)
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


def _jobs(recipients, round_dir: Path, output_dir: Path, round_id: str, langs: list[str], inputs,
          limit_mb: float) -> list[Job]:
    """One job per recipient with the deliverables of the report meant for it (the default report, or
    its focus's from ``report --focus-each``), every file checked and each message's size held to
    ``limit_mb``; a focus's report not built is refused here, before any message, with the command
    that builds it."""
    from mlperf_report.assemble.batch import focus_dir
    from mlperf_report.core.errors import UserError
    from mlperf_report.mail import attachments, report_check

    made, jobs, missing = {}, [], {}
    for recipient in recipients:
        folder = round_dir if recipient.focus is None else focus_dir(output_dir, round_id, recipient.focus) / round_id
        if recipient.focus is not None and not report_check.report_pdf(folder, recipient.lang, langs).is_file():
            missing.setdefault(recipient.focus, []).append(recipient.email)
            continue
        key = (folder, recipient.lang, recipient.deliverables)
        if key not in made:
            files = attachments.attachments(folder, recipient.lang, langs, recipient.deliverables, inputs, round_id)
            made[key] = (files, attachments.checksum(files))
        attachments.within_limit(made[key][0], limit_mb, recipient.email)
        jobs.append(Job(recipient, *made[key], round_dir=folder))
    if missing:
        each = ",".join(f.key for f in missing)  # --focus-each reads focus keys
        who = "; ".join(f"{f.name or 'none'}: {', '.join(emails)}" for f, emails in missing.items())
        raise UserError(f"reports not built for the focus of some recipients ({who}); build them with "
                        f"`python build.py report --round {round_id} --focus-each '{each}'` and send again")
    return jobs


def _headlines(config, prices_path: Path, the_round):
    """(report folder, lang) -> (headline lines, their notes): the story's headline and highlights lead
    the email, as the report words them (``assemble.build.report_headlines``), each folder read once."""
    from mlperf_report.assemble.build import report_headlines
    from mlperf_report.core import prices

    catalogue = prices.load_prices(prices_path) if Path(prices_path).is_file() else None
    folders: dict[Path, object] = {}
    cache: dict[tuple[Path, str], tuple[list[str], list[str]]] = {}

    def for_report(folder: Path, lang: str) -> tuple[list[str], list[str]]:
        if folder not in folders:
            folders[folder] = report_headlines(folder, config, the_round.id, catalogue=catalogue)
        if (folder, lang) not in cache:
            cache[(folder, lang)] = folders[folder](lang)
        return cache[(folder, lang)]

    return for_report


def _subject_focus(config, recipient) -> str | None:
    """The focus the subject line names: the recipient's report's, else the configured one (the
    accelerator, the submitter, or none for an overview)."""
    focus = recipient.focus if recipient.focus is not None else config.focus
    return None if focus.kind == "none" else focus.name


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
        names = ", ".join(a.filename for a in job.attachments)
        lines, notes = headlines(job.round_dir, recipient.lang)
        text, markup = mail.bodies(recipient, title=title_in(recipient.lang),
                                   round_title=round_title, filename=names, source=config.source or None,
                                   headlines=lines, notes=notes)
        message = mail.build_message(
            sender=str(section["sender"]), recipient=recipient,
            subject_line=mail.subject(round_title, _subject_focus(config, recipient), recipient.lang),
            text=text, markup=markup, attachments=job.attachments, now=now or datetime.now(timezone.utc))
        return message, mail.to_bytes(message)

    return compose
