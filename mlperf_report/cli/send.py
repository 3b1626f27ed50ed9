"""``build.py send``: mail each recipient the PDF report in their language, exactly once per report.

Everything that can be checked is checked before the first message goes out (recipients, languages,
every report file, SMTP settings), so a mistake costs no half-mailed list. The send log then makes a
re-run after a failure finish the job without mailing anyone twice.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping


def configure_parser(parser: argparse.ArgumentParser) -> None:
    from mlperf_report.core import paths

    parser.add_argument("--round", help="round to send, e.g. training-v1.0 (default: `round:` in the config)")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--to", help="comma-separated addresses instead of a configured list")
    who.add_argument("--list", dest="list_name", metavar="NAME",
                     help="configured recipient list (default: `mail: default_list:`)")
    parser.add_argument("--lang", help="send only the LANG report: --to addresses get it, list members "
                                       "whose language is LANG get it, others are left out")
    parser.add_argument("--dry-run", action="store_true",
                        help="write each message as .eml under output/<round>/mail/ and send nothing")
    parser.add_argument("--force", action="store_true",
                        help="send even to recipients the send log says already have this report")
    parser.add_argument("--insecure", action="store_true",
                        help="allow SMTP_SECURITY=none to a host that is not on this machine")
    parser.add_argument("--config", type=Path, default=paths.REPORT_CONFIG, help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", type=Path, default=paths.DATA, help=argparse.SUPPRESS)
    parser.add_argument("--output-dir", type=Path, default=paths.OUTPUT, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    from mlperf_report.core import paths

    to = [a.strip() for a in args.to.split(",") if a.strip()] if args.to else None
    return send_reports(
        round_id=args.round, config_path=args.config, data_dir=args.data_dir, output_dir=args.output_dir,
        to=to, list_name=args.list_name, lang=args.lang, dry_run=args.dry_run, force=args.force,
        insecure=args.insecure, environ=os.environ, extra_inputs=[paths.TEMPLATES, paths.NOTEBOOKS],
    )


def _say(text: str) -> None:
    print(text, file=sys.stdout, flush=True)


def _warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _files_under(folders) -> list[Path]:
    found = []
    for folder in folders:
        folder = Path(folder)
        if folder.is_dir():
            found += [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                      and not p.name.startswith(".")]
    return found


def eml_name(lang: str, address: str) -> str:
    """``en-press_example.com.eml``: one file per recipient, safe on every file system."""
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in address.replace("@", "_"))
    return f"{lang}-{safe}.eml"


@dataclass(frozen=True)
class Job:
    """One message to build and send: who, which report (path, bytes, checksum)."""

    recipient: object
    pdf_path: Path
    pdf: bytes
    sha256: str


def send_reports(*, round_id: str | None, config_path: Path, data_dir: Path, output_dir: Path,
                 to: list[str] | None = None, list_name: str | None = None, lang: str | None = None,
                 dry_run: bool = False, force: bool = False, insecure: bool = False,
                 environ: Mapping[str, str] | None = None, retry=None, extra_inputs=(), now=None) -> int:
    """Send (or with ``dry_run`` write) every message; 0 when every recipient has the report, else 1.

    Everything that can be refused is refused before the first message: config, recipients, every
    report file, SMTP settings.
    """
    from mlperf_report.mail import message as mail
    from mlperf_report.mail import recipients as mail_config
    from mlperf_report.core import paths
    from mlperf_report.mail import report_check
    from mlperf_report.suites import suite_for
    from mlperf_report.mail import smtp
    from mlperf_report.core.errors import UserError

    config = mail_config.load_config(config_path)
    section = mail_config.mail_section(config)
    langs = mail_config.languages(config)
    try:
        wanted = round_id or str(config.get("round") or "")
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

    headlines = _headlines(round_dir / "figures", Path(config_path), Path(data_dir) / "prices.yaml", the_round)
    compose = _composer(config, section, the_round, headlines, now)
    session = None
    if not dry_run:
        smtp_config = section.get("smtp") or {}
        settings = smtp.settings_from(smtp_config, environ or {}, insecure=insecure)
        retry = retry or smtp.Retry(attempts=int(smtp_config.get("attempts", 4)),
                                         backoff=float(smtp_config.get("backoff", 2.0)))
        session = smtp.Session(settings, retry, note=_warn)
    return _deliver(jobs, compose, session, round_dir / "mail", the_round.id, force=force,
                    envelope_from=mail.envelope_sender(str(section["sender"])))


def _headlines(figures_dir: Path, config_path: Path, prices_path: Path, the_round):
    """lang -> (headline lines, their notes), from the narrative, as the report words them: the story's
    headline and highlights lead the email, for the focus of the report that was built.

    No figures (a report built without notebooks) means a body without figures, never invented ones.
    """
    if not any(Path(figures_dir).glob("*.json")):
        return lambda lang: ([], [])
    from mlperf_report.core import config as report_config
    from mlperf_report.core import prices
    from mlperf_report.narrative.rendering import load_figures
    from mlperf_report.suites import suite_for

    suite = suite_for(the_round.id)
    figures, summary = load_figures(figures_dir)
    config = suite.config_of_report(report_config.load_config(config_path), figures, the_round.id)
    catalogue = prices.load_prices(prices_path) if Path(prices_path).is_file() else None
    cache: dict[str, tuple[list[str], list[str]]] = {}

    def for_language(lang: str) -> tuple[list[str], list[str]]:
        if lang not in cache:
            cache[lang] = suite.headlines(figures, summary, config, lang, catalogue=catalogue)
        return cache[lang]

    return for_language


def _subject_focus(config: dict) -> str | None:
    """The focus the subject line names: the accelerator, the submitter, or none for an overview."""
    accelerator = str(config.get("focus_accelerator") or "").strip()
    submitter = str(config.get("focus_submitter") or "").strip()
    return accelerator or (None if submitter.lower() in ("", "none") else submitter)


def _composer(config: dict, section: dict, the_round, headlines, now):
    """A function Job -> (EmailMessage, wire bytes), with everything the same for every recipient bound in."""
    from datetime import datetime, timezone

    from mlperf_report.mail import message as mail

    from mlperf_report.core.config import parse_config
    from mlperf_report.suites import suite_for

    round_title = the_round.title.replace("MLPerf", "MLPerf®", 1)  # the mark, as the guidelines want it
    # report.yaml's title as the report itself reads it: one text, one per language, or those per suite
    typed, suite = parse_config(config), suite_for(the_round.id)

    def title_in(lang: str) -> str:
        return typed.title_for(lang, suite.name, suite.default_title(lang))

    def compose(job: Job):
        recipient = job.recipient
        filename = f"mlperf-{the_round.id}-report.{recipient.lang}.pdf"
        lines, notes = headlines(recipient.lang)
        text, markup = mail.bodies(recipient, title=title_in(recipient.lang),
                                   round_title=round_title, filename=filename, source=config.get("source"),
                                   headlines=lines, notes=notes)
        message = mail.build_message(
            sender=str(section["sender"]), recipient=recipient,
            subject_line=mail.subject(round_title, _subject_focus(config), recipient.lang),
            text=text, markup=markup, pdf=job.pdf, filename=filename, now=now or datetime.now(timezone.utc))
        return message, mail.to_bytes(message)

    return compose


@dataclass
class _Tally:
    """Who got what in one run: the outcome lists the summary line is made of."""

    sent: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    failed: list = field(default_factory=list)
    written: list = field(default_factory=list)


def _deliver(jobs: list[Job], compose, session, mail_dir: Path, round_id: str, *, force: bool,
             envelope_from: str) -> int:
    """Skip what the send log says is done (or in flight), send or write the rest, log each outcome."""
    from mlperf_report.mail import sendlog, smtp

    log = sendlog.log_path(mail_dir)
    tally = _Tally()
    with sendlog.exclusive(log):
        entries = sendlog.read_entries(log)
        known = (sendlog.sent_keys(entries), sendlog.in_flight_keys(entries))
        try:
            for job in jobs:
                if _settled(job, known, force, tally):
                    continue
                message, wire = compose(job)
                if session is None:
                    _write_eml(job, wire, mail_dir, tally)
                else:
                    _send_logged(job, message, wire, session, log, round_id, envelope_from, tally)
        except smtp.Fatal:
            untried = len(jobs) - len(tally.sent) - len(tally.skipped) - len(tally.failed)
            _warn(f"stopped: sent {len(tally.sent)}, not attempted {untried}")
            raise
        finally:
            if session is not None:
                session.close()
    return _summary(tally, dry_run=session is None, mail_dir=mail_dir)


def _settled(job: Job, known: tuple, force: bool, tally: _Tally) -> bool:
    """True when this recipient must not get a message now: already sent, maybe sent, or a bad address."""
    from mlperf_report.mail import message as mail
    from mlperf_report.mail import sendlog

    done, in_flight = known
    address, name = job.recipient.email, job.pdf_path.name
    if not force and sendlog.already_sent(done, address, job.sha256):
        tally.skipped.append(address)
        _say(f"skip  {address}: already has this {name} (sha256 {job.sha256[:12]})")
        return True
    if not force and sendlog.already_sent(in_flight, address, job.sha256):
        tally.failed.append(address)
        _warn(f"FAIL  {address}: an earlier run stopped while sending this {name} to them, so it "
              f"may have been delivered; ask them, then use --to {address} --force if it was not")
        return True
    problem = mail.address_problem(address)
    if problem:
        tally.failed.append(address)
        _warn(f"FAIL  {address}: {problem}")
        return True
    return False


def _write_eml(job: Job, wire: bytes, mail_dir: Path, tally: _Tally) -> None:
    from mlperf_report.core import atomic

    path = atomic.write_bytes(mail_dir / eml_name(job.recipient.lang, job.recipient.email), wire)
    tally.written.append(path)
    _say(f"wrote {path} (not sent)")


def _send_logged(job: Job, message, wire: bytes, session, log: Path, round_id: str, envelope_from: str,
                 tally: _Tally) -> None:
    """Send one message with a ``sending`` line before it and its outcome after it in the send log."""
    from mlperf_report.mail import sendlog, smtp

    address = job.recipient.email
    entry = {"round": round_id, "recipient": address, "name": job.recipient.name,
             "lang": job.recipient.lang, "report": job.pdf_path.name, "sha256": job.sha256,
             "message_id": message["Message-ID"]}
    sendlog.append(log, dict(entry, status=sendlog.SENDING, time=_now()))
    try:
        outcome = session.send(envelope_from, address, wire)
    except smtp.Fatal as error:  # login / TLS: refused before any DATA, so surely not sent
        sendlog.append(log, dict(entry, time=_now(), status=sendlog.FAILED, error=str(error)))
        raise
    status = sendlog.SENT if outcome.ok else sendlog.MAYBE if outcome.uncertain else sendlog.FAILED
    entry.update(time=_now(), attempts=outcome.attempts, status=status)
    if not outcome.ok:
        entry["error"] = outcome.detail
    sendlog.append(log, entry)
    if outcome.uncertain:
        tally.failed.append(address)
        _warn(f"FAIL  {address}: {outcome.detail}; not sent again: ask them, then use --to {address} --force "
              "if it did not arrive")
    elif outcome.ok:
        tally.sent.append(address)
        _say(f"sent  {address} ({job.recipient.lang}, {message['Message-ID']})")
    else:
        kind = "refused" if outcome.permanent else f"gave up after {outcome.attempts} attempts"
        tally.failed.append(address)
        _warn(f"FAIL  {address}: {kind}: {outcome.detail}")


def _summary(tally: _Tally, *, dry_run: bool, mail_dir: Path) -> int:
    """The closing line and the exit code: 0 only when everyone has the report."""
    if dry_run:
        _say(f"dry run: {len(tally.written)} message(s) written under {mail_dir}, {len(tally.skipped)} already "
             "sent, nothing sent")
        return 1 if tally.failed else 0
    summary = f"sent {len(tally.sent)}, already sent {len(tally.skipped)}, failed {len(tally.failed)}"
    if tally.failed:
        _warn(f"{summary}: {', '.join(tally.failed)}; fix them and run the same command again: "
              "who already has the report is skipped")
        return 1
    _say(summary + (" (--force sends again)" if tally.skipped and not tally.sent else ""))
    return 0
